-- A subquery or table function in a JOIN needs an alias unless joined_subquery_requires_alias = 0.
SELECT * FROM (SELECT 1 x) a JOIN (SELECT 1 y) ON x = y; -- { serverError ALIAS_REQUIRED }
SELECT * FROM (SELECT 1 x) JOIN (SELECT 1 y) b ON x = y; -- { serverError ALIAS_REQUIRED }
SELECT count() FROM numbers(2) JOIN numbers(2) USING number; -- { serverError ALIAS_REQUIRED }
SELECT count() FROM (SELECT 1 y), (SELECT 2 z); -- { serverError ALIAS_REQUIRED }
SELECT * FROM (SELECT 1 x) a JOIN (SELECT 1 y) b ON x = y;
SELECT count() FROM system.one JOIN (SELECT 1 y) b ON 1 = y;
SELECT * FROM (SELECT 1 x) JOIN (SELECT 1 y) ON x = y SETTINGS joined_subquery_requires_alias = 0;
SET joined_subquery_requires_alias = 0;
SELECT count() FROM numbers(2) JOIN numbers(2) USING number;
SELECT count() FROM (SELECT 1 y), (SELECT 2 z);
SELECT * FROM numbers(1) AS t1 INNER JOIN numbers(1) AS t2 USING (number, number); -- { serverError BAD_ARGUMENTS }
