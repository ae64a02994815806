-- RIGHT SEMI and RIGHT ANTI joins of ordinary tables.
CREATE TABLE l (k Nullable(UInt64), a String) ENGINE = Memory;
INSERT INTO l VALUES (1, 'l1'), (1, 'l1b'), (2, 'l2'), (4, 'l4'), (NULL, 'ln');
CREATE TABLE r (k Nullable(UInt64), v String) ENGINE = Memory;
INSERT INTO r VALUES (1, 'a'), (1, 'a2'), (2, 'b'), (3, 'c'), (3, 'c2'), (NULL, 'rn');
SELECT * FROM l SEMI RIGHT JOIN r USING (k) ORDER BY ALL;
SELECT * FROM l ANTI RIGHT JOIN r USING (k) ORDER BY ALL;
SELECT l.k, r.k, a, v FROM l RIGHT SEMI JOIN r ON l.k = r.k ORDER BY ALL;
SELECT l.k, r.k, a, v FROM l RIGHT ANTI JOIN r ON l.k = r.k ORDER BY ALL;
SELECT count() FROM l RIGHT ANTI JOIN r ON l.k = r.k;
SELECT * FROM l SEMI RIGHT JOIN r USING (k) ORDER BY ALL SETTINGS join_algorithm = 'grace_hash', grace_hash_join_initial_buckets = 4;
SELECT * FROM l ANTI RIGHT JOIN r USING (k) ORDER BY ALL SETTINGS join_algorithm = 'grace_hash', grace_hash_join_initial_buckets = 4;
SELECT 'left semi and anti, take last row';
-- (ClickHouse may swap the sides of a join by their sizes, which changes which row is last)
SET query_plan_join_swap_table = 0;
SELECT * FROM l SEMI LEFT JOIN r USING (k) ORDER BY ALL SETTINGS join_any_take_last_row = 1;
SELECT * FROM l ANY LEFT JOIN r USING (k) ORDER BY ALL SETTINGS join_any_take_last_row = 1;
SELECT * FROM l ANY INNER JOIN r USING (k) ORDER BY ALL SETTINGS join_any_take_last_row = 1;
SELECT * FROM l ANY RIGHT JOIN r USING (k) ORDER BY ALL SETTINGS join_any_take_last_row = 1;
