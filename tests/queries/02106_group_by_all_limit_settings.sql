-- GROUP BY ALL and the limit/offset settings, found by the audit of what the parser accepts
-- (the parts shale does not implement are errors: tests/unit/test_unsupported.c).
SELECT x FROM (SELECT number AS x FROM numbers(3) SETTINGS max_threads = 1);
SELECT x FROM (SELECT number AS x FROM numbers(3) SETTINGS transform_null_in = 1) SETTINGS transform_null_in = 1;
-- GROUP BY ALL: the select items that are not aggregates.
SELECT number % 2 AS k, count() FROM numbers(4) GROUP BY ALL ORDER BY k;
SELECT number % 2, number % 3 AS m, sum(number) + 1 FROM numbers(10) GROUP BY ALL ORDER BY ALL;
SELECT count() FROM numbers(4) GROUP BY ALL;
-- The limit and offset settings cut each SELECT of the outermost query after its LIMIT.
SELECT count() FROM (SELECT number FROM numbers(10)) SETTINGS limit = 3;
SELECT number FROM numbers(10) LIMIT 2 SETTINGS limit = 3, offset = 1;
SELECT number FROM numbers(10) LIMIT 5 OFFSET 2 SETTINGS limit = 3, offset = 1;
SELECT number FROM numbers(3) UNION ALL SELECT number FROM numbers(3) SETTINGS limit = 4;
SELECT number FROM numbers(10) WHERE number IN (SELECT number FROM numbers(10)) SETTINGS limit = 3, offset = 2;
SELECT number FROM numbers(10) ORDER BY number DESC SETTINGS offset = 8;
SELECT number % 3 AS k, count() FROM numbers(10) GROUP BY k ORDER BY k SETTINGS limit = 2;
