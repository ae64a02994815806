-- WITH (SELECT …) AS name is visible in the query's subqueries and their UNION parts
-- (enable_global_with_statement), unless the subquery has a column or alias of that name.
WITH (SELECT count() FROM (SELECT 1 UNION DISTINCT SELECT 2 EXCEPT SELECT 1)) AS max
SELECT count() FROM (SELECT 1 UNION ALL SELECT max) LIMIT 100;
WITH (SELECT 42) AS m SELECT * FROM (SELECT m AS x);
WITH (SELECT 42) AS m SELECT * FROM (SELECT number AS m FROM numbers(2)) ORDER BY m;
WITH (SELECT 42) AS m SELECT x FROM (SELECT number AS x FROM numbers(5) WHERE x < m - 40) ORDER BY x;
WITH (SELECT 7) AS m SELECT * FROM (SELECT 1 AS a UNION ALL SELECT m) ORDER BY a;
WITH t AS (SELECT number AS x FROM numbers(3)) SELECT sum(x) FROM (SELECT x FROM t);
WITH (SELECT 5) AS m SELECT (SELECT m);
WITH (SELECT 5) AS m SELECT * FROM (SELECT m FROM (SELECT 1 AS x));
-- WITH name AS (SELECT …) names a table, not a value, here and in subqueries
WITH t AS (SELECT 1) SELECT t; -- { serverError UNKNOWN_IDENTIFIER }
WITH t AS (SELECT 1) SELECT * FROM (SELECT t); -- { serverError UNKNOWN_IDENTIFIER }
