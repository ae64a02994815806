-- Parts of an old-syntax MergeTree table: named <min date>_<max date>_<min block>_<max block>_<level>,
-- partition toYYYYMM(date); merges, mutations and partition operations keep that naming.
DROP TABLE IF EXISTS t03662;
SET allow_deprecated_syntax_for_merge_tree = 1;
CREATE TABLE t03662 (d Date, k UInt64, v String) ENGINE = MergeTree(d, k, 8192);
INSERT INTO t03662 VALUES ('2020-01-07', 2, 'b'), ('2020-01-05', 1, 'a'), ('2020-02-03', 3, 'c');
INSERT INTO t03662 VALUES ('2020-01-09', 4, 'd');
INSERT INTO t03662 VALUES ('2019-12-31', 5, 'e');
SELECT name, partition, partition_id, min_date, max_date, min_block_number, max_block_number, level, rows, active FROM system.parts WHERE database = currentDatabase() AND table = 't03662' ORDER BY name;
OPTIMIZE TABLE t03662;
SELECT name, partition_id, rows FROM system.parts WHERE database = currentDatabase() AND table = 't03662' AND active ORDER BY name;
OPTIMIZE TABLE t03662 FINAL;
SELECT name, partition_id, min_date, max_date, rows FROM system.parts WHERE database = currentDatabase() AND table = 't03662' AND active ORDER BY name;
SELECT * FROM t03662 ORDER BY k;
ALTER TABLE t03662 UPDATE v = 'x' WHERE k = 4 SETTINGS mutations_sync = 2;
SELECT name, rows FROM system.parts WHERE database = currentDatabase() AND table = 't03662' AND active ORDER BY name;
SELECT * FROM t03662 WHERE k = 4;
-- partitions by their old-style values
ALTER TABLE t03662 DROP PARTITION 201912;
SELECT name FROM system.parts WHERE database = currentDatabase() AND table = 't03662' AND active ORDER BY name;
ALTER TABLE t03662 DETACH PARTITION '202002';
SELECT * FROM t03662 ORDER BY k;
ALTER TABLE t03662 ATTACH PART '20200203_20200203_2_2_1_5';
SELECT name, rows FROM system.parts WHERE database = currentDatabase() AND table = 't03662' AND active ORDER BY name;
SELECT * FROM t03662 ORDER BY k;
ALTER TABLE t03662 DROP PART '20200105_20200109_1_3_2_5';
SELECT * FROM t03662 ORDER BY k;
ALTER TABLE t03662 DROP PARTITION 202099;
ALTER TABLE t03662 DROP PART 'all_1_1_0'; -- { serverError BAD_DATA_PART_NAME }
DETACH TABLE t03662;
ATTACH TABLE t03662;
SELECT name, partition_id, min_date, max_date FROM system.parts WHERE database = currentDatabase() AND table = 't03662' AND active ORDER BY name;
SELECT * FROM t03662 ORDER BY k;
DROP TABLE t03662;
