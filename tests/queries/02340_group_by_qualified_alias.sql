-- The shape of the queries ClickHouse sends to a shard: select items `t.x AS x` whose
-- GROUP BY / ORDER BY name the qualified column (a GROUP BY key is the expression, not
-- its alias).
SELECT t.number AS number, count() FROM numbers(5) AS t GROUP BY t.number ORDER BY t.number;
SELECT t.number AS n, count() AS c FROM numbers(5) AS t GROUP BY t.number ORDER BY t.number DESC;
SELECT `__table1`.`number` % 3 AS `k`, sum(`__table1`.`number`) AS `sum(number)` FROM numbers(10) AS `__table1` GROUP BY `__table1`.`number` % 3 ORDER BY `__table1`.`number` % 3 ASC;
SELECT t.number AS x, t.number * 2 AS y FROM numbers(4) AS t GROUP BY t.number ORDER BY x;
