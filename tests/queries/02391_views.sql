-- CREATE VIEW / OR REPLACE / IF NOT EXISTS, views over views, in joins, subqueries and IN, DROP VIEW
CREATE TABLE t (a UInt32, s String) ENGINE = MergeTree ORDER BY a;
INSERT INTO t SELECT number, toString(number) FROM numbers(10);
CREATE VIEW v AS SELECT a, s, a * 2 AS b FROM t WHERE a > 3;
SELECT * FROM v ORDER BY a;
SELECT sum(b), count() FROM v WHERE a < 8;
DESCRIBE v;
SELECT name, engine FROM system.tables WHERE database = currentDatabase() ORDER BY name;
CREATE VIEW IF NOT EXISTS v AS SELECT 1;
CREATE OR REPLACE VIEW v AS SELECT a FROM t WHERE a < 2;
SELECT * FROM v ORDER BY a;
WITH 5 AS x SELECT x, count() FROM v;
CREATE VIEW v2 AS SELECT a, count() AS c FROM v GROUP BY a;
SELECT * FROM v2 ORDER BY a;
SELECT * FROM v AS x JOIN t AS y ON x.a = y.a ORDER BY x.a;
SELECT a FROM (SELECT * FROM v) ORDER BY a;
SELECT a IN (SELECT a FROM v) FROM t ORDER BY a LIMIT 3;
DROP VIEW v2;
SELECT count() FROM system.tables WHERE database = currentDatabase() AND name = 'v2';
CREATE VIEW v3 (a UInt32) AS SELECT a FROM t;
SELECT count() FROM v3;
INSERT INTO v VALUES (1); -- { serverError NOT_IMPLEMENTED }
CREATE VIEW v4 AS SELECT nope FROM t; -- { serverError UNKNOWN_IDENTIFIER }
DROP VIEW t; -- { serverError INCORRECT_QUERY }
DROP VIEW IF EXISTS nope;
DROP TABLE v3;
SELECT count() FROM system.tables WHERE database = currentDatabase() AND engine = 'View';
