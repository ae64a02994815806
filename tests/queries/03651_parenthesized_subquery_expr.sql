-- A parenthesized expression that starts with a scalar subquery (found by difftest:
-- `((SELECT min(x) FROM t) > y)` was a SYNTAX_ERROR).
SELECT ((SELECT 1) + 1), ((SELECT 1) > 0), ((SELECT 2) * (SELECT 3));
SELECT ((SELECT 1), 2), ((SELECT 'a') || 'b') AS s;
SELECT ((SELECT max(number) FROM numbers(5)) - number) AS d FROM numbers(3) ORDER BY d;
SELECT ((SELECT 1)), ((SELECT 1) UNION ALL (SELECT 1)); -- { serverError INCORRECT_RESULT_OF_SCALAR_SUBQUERY }
SELECT (SELECT number FROM numbers(2)); -- { serverError INCORRECT_RESULT_OF_SCALAR_SUBQUERY }
SELECT (SELECT number FROM numbers(1) WHERE 0), (SELECT number FROM numbers(5) WHERE number = 3);
SELECT count() FROM ((SELECT 1) UNION ALL (SELECT 2));
SELECT x FROM ((SELECT 5 AS x)) ORDER BY x;
SELECT 1 IN ((SELECT 1)), ((SELECT 1) IN (1, 2));
