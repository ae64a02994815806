-- Catalog and DDL with Memory / Null tables.
DROP TABLE IF EXISTS t;
CREATE TABLE t (a UInt32, b String DEFAULT 'x' CODEC(ZSTD(1)), c UInt64 MATERIALIZED a * 2, e Int8 COMMENT 'hi') ENGINE = Memory;
SHOW CREATE TABLE t;
DESCRIBE TABLE t;
CREATE TABLE t (a UInt32) ENGINE = Memory; -- { serverError TABLE_ALREADY_EXISTS }
CREATE TABLE IF NOT EXISTS t (a UInt32) ENGINE = Memory;
CREATE TABLE dup (a UInt32, a String) ENGINE = Memory; -- { serverError ILLEGAL_COLUMN }
CREATE TABLE badtype (a Foo) ENGINE = Memory; -- { serverError UNKNOWN_TYPE }
CREATE TABLE badeng (a UInt32) ENGINE = Foo; -- { serverError UNKNOWN_STORAGE }
CREATE TABLE baddef (a UInt32 DEFAULT 'abc') ENGINE = Memory; -- { serverError CANNOT_PARSE_TEXT }
CREATE TABLE inferred (a DEFAULT 1 + 1, b MATERIALIZED toDate('2020-01-02'), s String DEFAULT concat('p', toString(a))) ENGINE = Memory;
SHOW CREATE TABLE inferred;
INSERT INTO inferred (s) VALUES ('given');
INSERT INTO inferred (a) VALUES (7);
SELECT a, b, s FROM inferred ORDER BY a;
INSERT INTO t VALUES (1, 'a', 3), (2, concat('q', 'r'), -1);
INSERT INTO t (a) VALUES (5);
INSERT INTO t SELECT number + 10, toString(number), 7 FROM numbers(3);
INSERT INTO t (e, a) SELECT 1, 100;
SELECT a, b, c, e FROM t ORDER BY a;
INSERT INTO t (c) VALUES (1); -- { serverError ILLEGAL_COLUMN }
INSERT INTO t (zz) VALUES (1); -- { serverError NO_SUCH_COLUMN_IN_TABLE }
INSERT INTO t (a, a) VALUES (1, 1); -- { serverError DUPLICATE_COLUMN }
INSERT INTO t SELECT 1, 2; -- { serverError NUMBER_OF_COLUMNS_DOESNT_MATCH }
INSERT INTO nosuch VALUES (1); -- { serverError UNKNOWN_TABLE }
SELECT count(), sum(a) FROM t;
SELECT * FROM t FINAL; -- { serverError ILLEGAL_FINAL }
OPTIMIZE TABLE t; -- { serverError NOT_IMPLEMENTED }
CHECK TABLE t; -- { serverError NOT_IMPLEMENTED }
EXISTS TABLE t;
EXISTS TABLE nosuch;
EXISTS t;
-- databases
CREATE DATABASE d1;
CREATE DATABASE d1; -- { serverError DATABASE_ALREADY_EXISTS }
CREATE DATABASE IF NOT EXISTS d1 ENGINE = Atomic;
EXISTS DATABASE d1;
CREATE TABLE d1.m ENGINE = Memory AS SELECT number AS n, toString(number) AS s FROM numbers(5);
SHOW CREATE TABLE d1.m;
SELECT * FROM d1.m ORDER BY n;
SHOW TABLES FROM d1;
USE d1;
SELECT count() FROM m;
CREATE TABLE m2 AS m;
SHOW CREATE TABLE m2;
INSERT INTO m2 SELECT * FROM m WHERE n > 2;
SELECT * FROM m2 ORDER BY n;
USE default;
SELECT n, a FROM d1.m AS x JOIN t ON x.n = t.a ORDER BY n;
SELECT a FROM t WHERE a IN (SELECT n FROM d1.m) ORDER BY a;
RENAME TABLE d1.m2 TO d1.m3, d1.m3 TO d1.m4;
SHOW TABLES FROM d1;
SELECT * FROM d1.m4 ORDER BY n;
SHOW TABLES FROM d1 LIKE '%4';
RENAME TABLE nosuch TO x; -- { serverError UNKNOWN_TABLE }
RENAME TABLE d1.m TO d1.m4; -- { serverError TABLE_ALREADY_EXISTS }
TRUNCATE TABLE d1.m4;
SELECT count() FROM d1.m4;
TRUNCATE IF EXISTS nosuch;
TRUNCATE TABLE nosuch; -- { serverError UNKNOWN_TABLE }
DROP TABLE d1.m4;
DROP TABLE d1.m4; -- { serverError UNKNOWN_TABLE }
DROP TABLE IF EXISTS d1.m4;
SELECT name, engine, total_rows FROM system.tables WHERE database = 'd1' ORDER BY name;
SELECT table, name, type, position, default_kind, default_expression, compression_codec FROM system.columns WHERE database = 'default' AND table = 't' ORDER BY position;
DROP DATABASE d1;
DROP DATABASE d1; -- { serverError UNKNOWN_DATABASE }
DROP DATABASE IF EXISTS d1;
USE d1; -- { serverError UNKNOWN_DATABASE }
SELECT count() FROM system.databases WHERE name = 'd1';
-- Null engine
CREATE TABLE nul (a UInt32, s String) ENGINE = Null;
INSERT INTO nul VALUES (1, 'a');
SELECT count() FROM nul;
SHOW CREATE TABLE nul;
-- CREATE OR REPLACE, INSERT ... FORMAT
CREATE OR REPLACE TABLE nul (x Float64, d Date, n Nullable(Int32)) ENGINE = Memory;
INSERT INTO nul VALUES (1.5, '2024-01-02', NULL), (-2, '2024-02-03', 4);
INSERT INTO nul SELECT 3.25, toDate('2024-03-04'), NULL;
SELECT * FROM nul ORDER BY x;
DROP TABLE nul;
DROP TABLE inferred;
DROP TABLE t;
