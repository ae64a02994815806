-- join_use_nulls = 1: the rows of an outer join without a partner get NULL, the other side's
-- columns becoming Nullable (LowCardinality(Nullable) for LowCardinality; arrays keep defaults).
SET join_use_nulls = 1;
SELECT *, toTypeName(t2.a), toTypeName(arr), toTypeName(lc), toTypeName(n) FROM (SELECT 1 a) t1 LEFT JOIN (SELECT 2 a, [1] arr, 'x'::LowCardinality(String) lc, toNullable(toInt8(3)) n) t2 ON t1.a = t2.a;
SELECT *, toTypeName(a), toTypeName(b), toTypeName(c) FROM (SELECT 1 a, 5 b) t1 FULL JOIN (SELECT 2 a, 6 c) t2 USING (a) ORDER BY a;
SELECT *, toTypeName(a), toTypeName(b), toTypeName(c) FROM (SELECT 1 a, 5 b) t1 LEFT JOIN (SELECT 2 a, 6 c) t2 USING (a);
SELECT *, toTypeName(a), toTypeName(b), toTypeName(c) FROM (SELECT 1 a, 5 b) t1 RIGHT JOIN (SELECT 2 a, 6 c) t2 USING (a);
SELECT *, toTypeName(t1.a), toTypeName(b), toTypeName(c) FROM (SELECT 1 a, 5 b) t1 RIGHT JOIN (SELECT 2 a, 6 c) t2 ON t1.a = t2.a;
SELECT *, toTypeName(t1.a), toTypeName(b), toTypeName(c) FROM (SELECT 1 a, 5 b) t1 INNER JOIN (SELECT 1 a, 6 c) t2 ON t1.a = t2.a;
SELECT t1.number, t2.number, t2.s FROM numbers(4) t1 LEFT JOIN (SELECT number, toString(number) s FROM numbers(1, 2)) t2 ON t1.number = t2.number ORDER BY t1.number;
SELECT t1.number, t2.number FROM numbers(3) t1 FULL JOIN numbers(1, 3) t2 ON t1.number = t2.number ORDER BY t1.number, t2.number;
SELECT count(), countIf(t2.number IS NULL) FROM numbers(10) t1 LEFT ANY JOIN numbers(5) t2 ON t1.number = t2.number;
SELECT t1.number, t2.number FROM numbers(3) t1 LEFT JOIN numbers(2) t2 ON t1.number = t2.number ORDER BY t1.number SETTINGS join_use_nulls = 0;
