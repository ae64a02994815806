CREATE TABLE t02301 (a UInt8) ENGINE = Memory;
INSERT INTO t02301 VALUES (1);
SELECT a FROM t02301 SETTINGS readonly = 2;
INSERT INTO t02301 SETTINGS readonly = 2 VALUES (2); -- { serverError READONLY }
SELECT count() FROM t02301;
SET readonly = 2;
SET max_threads = 1;
SELECT getSetting('max_threads');
CREATE TABLE t02301b (a UInt8) ENGINE = Memory; -- { serverError READONLY }
SELECT 1 SETTINGS readonly = 0; -- { serverError READONLY }
SET readonly = 1; -- { serverError READONLY }
SELECT a FROM t02301;
INSERT INTO t02301 VALUES (3); -- { serverError READONLY }
DROP TABLE t02301; -- { serverError READONLY }
SELECT count() FROM t02301;
