-- EXPLAIN as a table expression: its rows in one String column named `explain`.
SELECT * FROM (EXPLAIN AST SELECT 1 FROM t);
SELECT explain FROM (EXPLAIN AST SELECT number + 1 AS x FROM numbers(3) WHERE x > 1) WHERE explain LIKE '%Function%';
SELECT count(), countIf(explain LIKE '%Identifier%') FROM (EXPLAIN AST SELECT a, b FROM t);
SELECT trim(explain) = 'Asterisk' FROM (EXPLAIN AST SELECT * FROM system.numbers LIMIT 10) WHERE explain LIKE '%Asterisk%';
SELECT * FROM (EXPLAIN SYNTAX SELECT number FROM system.numbers ORDER BY number DESC LIMIT 3);
SELECT count() FROM (EXPLAIN SYNTAX SELECT number FROM system.numbers ORDER BY number DESC) WHERE explain ILIKE 'SELECT%';
SELECT upper(explain) AS e FROM (EXPLAIN SYNTAX SELECT a FROM t WHERE b = 1) AS x ORDER BY e;
SELECT toTypeName(explain) FROM (EXPLAIN AST SELECT x FROM t) LIMIT 1;
