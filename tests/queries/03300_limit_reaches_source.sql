-- LIMIT without WHERE/GROUP BY/ORDER BY tells the source how many rows it needs: an
-- unbounded system.numbers stops, and range() runs over blocks of that size only.
SELECT number, range(number) AS arr, arrayMap(x -> toString(x), arr) AS s FROM system.numbers LIMIT 5, 3;
SELECT length(range(number)) FROM system.numbers LIMIT 2;
SELECT * FROM (SELECT number, joined FROM system.numbers ANY LEFT JOIN (SELECT number * 2 AS number, number * 10 + 1 AS joined FROM system.numbers LIMIT 10) js2 USING number LIMIT 10) ORDER BY ALL;
SELECT number, j FROM system.numbers ALL LEFT JOIN (SELECT 3 AS number, 'x' AS j) r USING number LIMIT 2, 3;
SELECT number FROM numbers(10) WHERE number % 3 = 0 LIMIT 2;
SELECT count() FROM (SELECT number FROM numbers(100) LIMIT 7);
