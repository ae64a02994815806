-- An expression aliased with the name of a column it reads (`c || '_m' AS c`) reads the
-- column, also when the query aggregates and GROUP BY names the alias.
DROP TABLE IF EXISTS ag_03734;
CREATE TABLE ag_03734 (category String, value UInt32) ENGINE = Memory;
INSERT INTO ag_03734 VALUES ('A', 10), ('A', 20), ('B', 30), ('B', 40);
SELECT category || '_modified' AS category, sum(value) AS total FROM ag_03734 GROUP BY category ORDER BY category;
SELECT upper(category) AS category, count() FROM ag_03734 GROUP BY category ORDER BY category;
SELECT category || '_m' AS category FROM ag_03734 GROUP BY category || '_m'; -- { serverError NOT_AN_AGGREGATE }
SELECT * REPLACE (category || '_r' AS category) FROM ag_03734 WHERE category = 'B_r' ORDER BY value;
DROP TABLE ag_03734;
