-- ENGINE = Merge and merge(): the tables of a database whose names match a regexp.
DROP TABLE IF EXISTS mg_1;
DROP TABLE IF EXISTS mg_2;
DROP TABLE IF EXISTS mg_3;
DROP TABLE IF EXISTS mg_all;
DROP TABLE IF EXISTS mg_sub;
DROP TABLE IF EXISTS mg_other;
DROP VIEW IF EXISTS mg_view;
CREATE TABLE mg_1 (k UInt32, s String) ENGINE = MergeTree ORDER BY k;
CREATE TABLE mg_2 (k UInt64, s String, x UInt8) ENGINE = Memory;
CREATE TABLE mg_3 (s String) ENGINE = Log;
INSERT INTO mg_1 VALUES (1, 'a'), (2, 'b');
INSERT INTO mg_2 VALUES (3, 'c', 7);
INSERT INTO mg_3 VALUES ('z');
CREATE TABLE mg_sub (k UInt32, s String) ENGINE = Merge(currentDatabase(), '^mg_[12]$');
SELECT *, _table FROM mg_sub ORDER BY k;
SELECT _table, count() FROM mg_sub GROUP BY _table ORDER BY 1;
SELECT * FROM mg_sub WHERE _table = 'mg_2';
SELECT count() FROM mg_sub;
SELECT toTypeName(_table), toTypeName(_database) FROM mg_sub LIMIT 1;
SELECT * FROM merge('^mg_[12]$') ORDER BY k;
DESCRIBE merge('^mg_[12]$');
SELECT * FROM merge(currentDatabase(), '^mg_[123]$') ORDER BY s;
-- columns the table lacks are defaults; a Merge table over a Merge table reads through it,
-- and never itself
CREATE TABLE mg_all (k UInt32, q String) ENGINE = Merge(currentDatabase(), '^mg_');
SELECT k, q, _table FROM mg_all ORDER BY _table, k;
SELECT count() FROM mg_all;
-- views are read through their SELECT
CREATE VIEW mg_view AS SELECT toUInt32(10) AS k, 'v' AS s;
SELECT k, s, _table FROM merge('^mg_(1|view)$') ORDER BY k;
DROP VIEW mg_view;
INSERT INTO mg_sub VALUES (5, 'e'); -- { serverError NOT_IMPLEMENTED }
SHOW CREATE TABLE mg_sub;
CREATE TABLE mg_other (k UInt32) ENGINE = Merge('x'); -- { serverError NUMBER_OF_ARGUMENTS_DOESNT_MATCH }
CREATE TABLE mg_other (k UInt32) ENGINE = Merge(currentDatabase(), 'x('); -- { serverError CANNOT_COMPILE_REGEXP }
SELECT * FROM merge('^mg_nothing$'); -- { serverError CANNOT_EXTRACT_TABLE_STRUCTURE }
CREATE TABLE mg_other (k UInt32) ENGINE = Merge(mg_nodb, 'x');
SELECT * FROM mg_other; -- { serverError UNKNOWN_DATABASE }
DROP TABLE mg_other;
DROP TABLE mg_all;
DROP TABLE mg_sub;
DROP TABLE mg_1;
DROP TABLE mg_2;
DROP TABLE mg_3;
