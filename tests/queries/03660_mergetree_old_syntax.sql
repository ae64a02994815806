-- The deprecated MergeTree engine syntax MergeTree(date, [sample,] key, granularity): refused
-- without allow_deprecated_syntax_for_merge_tree, then partitioned by toYYYYMM(date), sorted
-- by key; SHOW CREATE and system.tables keep the engine clause as written.
DROP TABLE IF EXISTS t03660;
CREATE TABLE t03660 (d Date, k UInt64, v String) ENGINE = MergeTree(d, k, 8192); -- { serverError BAD_ARGUMENTS }
SET allow_deprecated_syntax_for_merge_tree = 1;
CREATE TABLE t03660 (d Date, k UInt64, v String) ENGINE = MergeTree(d, k, 8192);
SHOW CREATE TABLE t03660;
SELECT engine, engine_full, partition_key, sorting_key, primary_key, sampling_key FROM system.tables WHERE database = currentDatabase() AND name = 't03660';
INSERT INTO t03660 VALUES ('2020-01-07', 2, 'b'), ('2020-01-05', 1, 'a'), ('2020-02-03', 3, 'c');
INSERT INTO t03660 VALUES ('2020-01-09', 0, 'z');
SELECT * FROM t03660 ORDER BY d;
SELECT * FROM t03660 WHERE d >= '2020-01-06' AND d < '2020-02-01' ORDER BY k;
DROP TABLE t03660;
-- a tuple key, a sampling expression, a small granularity
CREATE TABLE t03660 (d Date, a UInt32, b String) ENGINE = MergeTree(d, intHash32(a), (a, intHash32(a)), 2);
SHOW CREATE TABLE t03660;
SELECT engine_full, partition_key, sorting_key, primary_key, sampling_key FROM system.tables WHERE database = currentDatabase() AND name = 't03660';
INSERT INTO t03660 SELECT toDate('2021-03-01') + number % 40, number, toString(number) FROM numbers(100);
SELECT count(), sum(a) FROM t03660;
SELECT count() FROM t03660 SAMPLE 1 / 2;
SELECT count() > 0 AND count() < 100 FROM t03660 SAMPLE 1 / 2;
SELECT count() FROM t03660 SAMPLE 1 / 2 OFFSET 1 / 2;
DROP TABLE t03660;
CREATE TABLE t03660 (d Date, a UInt32, b String) ENGINE = MergeTree(d, (a, b), 8192) COMMENT 'old';
SHOW CREATE TABLE t03660;
ALTER TABLE t03660 ADD COLUMN c UInt8;
SHOW CREATE TABLE t03660;
DROP TABLE t03660;
