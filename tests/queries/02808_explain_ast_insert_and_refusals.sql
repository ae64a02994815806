-- EXPLAIN AST of INSERT as ClickHouse dumps it (the refusals are in tests/cli-tests.sh).
EXPLAIN AST INSERT INTO t (a, b) VALUES;
EXPLAIN AST INSERT INTO db.t SELECT 1;
EXPLAIN AST INSERT INTO t SELECT 1 UNION ALL SELECT 2;
EXPLAIN AST INSERT INTO FUNCTION file('a.csv') SELECT 1;
EXPLAIN AST SELECT a FROM t WHERE b GROUP BY a HAVING c ORDER BY a LIMIT 2;
-- the inline data of FORMAT runs to the end of the script: last
EXPLAIN AST INSERT INTO test FORMAT TabSeparated balabala;
