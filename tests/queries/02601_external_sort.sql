-- External ORDER BY: past max_bytes_before_external_sort sorted runs spill to temporary
-- files and are merged; results equal the in-memory sort.
SET max_bytes_before_external_sort = 1000000, max_bytes_ratio_before_external_sort = 0;
SET max_threads = 2, max_block_size = 8192;

-- Under this max_memory_usage the in-memory sort fails: it completes only by spilling.
-- Rows from three places of the order (a LIMIT over the ordered subquery keeps its order).
SELECT n, s FROM (
    SELECT number AS n, concat(toString(cityHash64(number) % 1000000), '-', repeat('x', number % 50)) AS s
    FROM numbers(1500000) ORDER BY s, n) LIMIT 3 OFFSET 700000
SETTINGS max_memory_usage = 150000000, max_bytes_before_external_sort = 20000000;
SELECT n FROM (
    SELECT number AS n, concat(toString(cityHash64(number) % 1000000), '-', repeat('x', number % 50)) AS s
    FROM numbers(1500000) ORDER BY s DESC, n) LIMIT 2 OFFSET 1499998
SETTINGS max_memory_usage = 150000000, max_bytes_before_external_sort = 20000000;

-- the first and last rows of a large sort, several keys, DESC and NULLs
SELECT * FROM (SELECT number % 1000 AS a, if(number % 11 = 0, NULL, number % 37) AS b, number AS c,
                      repeat('y', 40) AS pad FROM numbers(400000) ORDER BY a DESC, b NULLS FIRST, c) LIMIT 3;
SELECT * FROM (SELECT number % 1000 AS a, if(number % 11 = 0, NULL, number % 37) AS b, number AS c,
                      repeat('y', 40) AS pad FROM numbers(400000) ORDER BY a DESC, b NULLS FIRST, c) LIMIT 3 OFFSET 399990;

-- a sort straight to the output, with LIMIT and OFFSET
SELECT number, toString(number) AS s FROM numbers(300000) ORDER BY cityHash64(number) LIMIT 10 OFFSET 150000;

-- a sort without LIMIT straight to the output (the workers stream their rows to it)
SELECT number FROM numbers(100000) WHERE number % 9973 = 0 ORDER BY toString(number) DESC;

-- ORDER BY over the groups of a GROUP BY
SELECT k, c FROM (SELECT number % 150000 AS k, count() AS c FROM numbers(600000) GROUP BY k ORDER BY k DESC) LIMIT 4;

-- Float keys with NaN, strings with a common prefix
SELECT f, s, n FROM (
    SELECT number AS n, if(number % 97 = 0, nan, (number % 1000) / 7) AS f,
           concat('prefix-prefix-', toString(number % 777)) AS s
    FROM numbers(300000) ORDER BY f DESC, s, n) LIMIT 4 OFFSET 2900;

SELECT 1 ORDER BY 1 SETTINGS max_bytes_ratio_before_external_sort = -0.1; -- { serverError BAD_ARGUMENTS }
