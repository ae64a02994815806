-- DETACH / ATTACH TABLE (the short form) as in ClickHouse's default (Atomic) databases.
DROP TABLE IF EXISTS da_t1;
DROP TABLE IF EXISTS da_m;
DROP VIEW IF EXISTS da_v;
CREATE TABLE da_t1 (k UInt32) ENGINE = MergeTree ORDER BY k;
INSERT INTO da_t1 VALUES (1), (2);
DETACH TABLE da_t1;
SELECT * FROM da_t1; -- { serverError UNKNOWN_TABLE }
DETACH TABLE da_t1; -- { serverError UNKNOWN_TABLE }
DETACH TABLE IF EXISTS da_t1;
CREATE TABLE da_t1 (x String) ENGINE = Memory; -- { serverError TABLE_ALREADY_EXISTS }
SELECT count() FROM system.tables WHERE name = 'da_t1';
ATTACH TABLE da_t1;
ATTACH TABLE da_t1; -- { serverError TABLE_ALREADY_EXISTS }
ATTACH TABLE IF NOT EXISTS da_t1;
SELECT * FROM da_t1 ORDER BY k;
INSERT INTO da_t1 VALUES (3);
DETACH TABLE da_t1 SYNC;
ATTACH TABLE da_t1;
SELECT * FROM da_t1 ORDER BY k;
ATTACH TABLE da_nope; -- { serverError CANNOT_GET_CREATE_TABLE_QUERY }
ATTACH TABLE da_t1 (k UInt32) ENGINE = MergeTree ORDER BY k; -- { serverError INCORRECT_QUERY }
-- a Memory table comes back empty
CREATE TABLE da_m (s String) ENGINE = Memory;
INSERT INTO da_m VALUES ('a');
DETACH TABLE da_m;
ATTACH TABLE da_m;
SELECT count() FROM da_m;
-- views: DETACH VIEW, back with ATTACH TABLE
CREATE VIEW da_v AS SELECT 1 AS one;
DETACH VIEW da_v;
SELECT * FROM da_v; -- { serverError UNKNOWN_TABLE }
ATTACH TABLE da_v;
SELECT * FROM da_v;
DETACH VIEW da_t1; -- { serverError INCORRECT_QUERY }
CREATE TEMPORARY TABLE da_tmp (a Int8);
DETACH TABLE da_tmp; -- { serverError SYNTAX_ERROR }
DROP TABLE da_t1;
DROP TABLE da_m;
DROP VIEW da_v;
