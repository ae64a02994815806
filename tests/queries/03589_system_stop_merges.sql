-- SYSTEM STOP / START MERGES: a stopped table keeps its parts, OPTIMIZE is cancelled, and
-- START lets merges run again; without a table name it applies to every table.
DROP TABLE IF EXISTS sm;
DROP TABLE IF EXISTS sm2;
CREATE TABLE sm (k UInt32) ENGINE = MergeTree ORDER BY k;
CREATE TABLE sm2 (k UInt32) ENGINE = ReplacingMergeTree ORDER BY k;
SYSTEM STOP MERGES sm;
INSERT INTO sm VALUES (1);
INSERT INTO sm VALUES (2);
INSERT INTO sm VALUES (3);
SELECT count() FROM system.parts WHERE database = currentDatabase() AND table = 'sm' AND active;
OPTIMIZE TABLE sm FINAL; -- { serverError ABORTED }
SELECT count() FROM system.parts WHERE database = currentDatabase() AND table = 'sm' AND active;
SYSTEM START MERGES sm;
OPTIMIZE TABLE sm FINAL;
SELECT count() FROM system.parts WHERE database = currentDatabase() AND table = 'sm' AND active;
SELECT * FROM sm ORDER BY k;
SYSTEM STOP MERGES;
INSERT INTO sm2 VALUES (1);
INSERT INTO sm2 VALUES (1);
OPTIMIZE TABLE sm2 FINAL; -- { serverError ABORTED }
SELECT count() FROM sm2;
SYSTEM START MERGES;
OPTIMIZE TABLE sm2 FINAL;
SELECT count() FROM sm2;
SYSTEM STOP MERGES no_such_table;
SYSTEM START MERGES no_such_db.no_such_table; -- { serverError UNKNOWN_DATABASE }
DROP TABLE sm;
DROP TABLE sm2;
-- OPTIMIZE without FINAL merges parts of any sizes (ClickHouse's aggressive selection)
DROP TABLE IF EXISTS sm3;
CREATE TABLE sm3 (id UInt64, v String) ENGINE = ReplacingMergeTree ORDER BY id SETTINGS index_granularity = 2;
INSERT INTO sm3 SELECT 0, '0';
INSERT INTO sm3 SELECT number + 1, toString(number + 1) FROM numbers(15);
OPTIMIZE TABLE sm3;
SELECT count() FROM system.parts WHERE database = currentDatabase() AND table = 'sm3' AND active;
DROP TABLE sm3;
