-- MergeTree's virtual columns (_part, _part_offset, _partition_id, _partition_value, …), through FINAL and
-- after a mutation; parts collapsed on insert are named with level 1, as ClickHouse names them.
CREATE TABLE t (x UInt8, d Date) ENGINE=MergeTree PARTITION BY toYYYYMM(d) ORDER BY x SETTINGS index_granularity=2;
INSERT INTO t VALUES (1,'2020-01-01'),(2,'2020-02-01'),(3,'2020-01-05');
INSERT INTO t VALUES (4,'2020-01-01'),(5,'2020-01-01'),(6,'2020-01-01');
SELECT x, _part, _part_index, _part_offset, _partition_id, _partition_value, _part_uuid, _part_data_version, _part_starting_offset, _table, _database, _disk_name, _row_exists FROM t ORDER BY x;
SELECT toTypeName(_part), toTypeName(_part_index), toTypeName(_part_offset), toTypeName(_partition_id), toTypeName(_partition_value), toTypeName(_part_uuid), toTypeName(_part_data_version), toTypeName(_part_starting_offset), toTypeName(_table), toTypeName(_database), toTypeName(_disk_name), toTypeName(_row_exists) FROM t LIMIT 1;
SELECT * FROM t ORDER BY x;
SELECT _part, count() FROM t GROUP BY _part ORDER BY _part;
SELECT x FROM t WHERE _part = '202001_3_3_0' ORDER BY x;
SELECT count() FROM t WHERE _partition_id = '202001';
SELECT x, _part_offset FROM t WHERE x > 4 ORDER BY x;
CREATE TABLE t2 (x UInt8) ENGINE=MergeTree ORDER BY x;
INSERT INTO t2 VALUES (1);
SELECT _partition_value FROM t2; -- { serverError UNKNOWN_IDENTIFIER }
CREATE TABLE t3 (x UInt8, y String) ENGINE=MergeTree PARTITION BY (x, y) ORDER BY x;
INSERT INTO t3 VALUES (1, 'a');
SELECT _partition_value, toTypeName(_partition_value) FROM t3;
CREATE TABLE r (k UInt8, v UInt8) ENGINE=ReplacingMergeTree ORDER BY k;
SYSTEM STOP MERGES r;
INSERT INTO r VALUES (1, 1), (2, 1);
INSERT INTO r VALUES (1, 2);
SELECT k, v, _part, _part_offset FROM r FINAL ORDER BY k;
ALTER TABLE t ADD COLUMN z UInt8 DEFAULT 7;
ALTER TABLE t UPDATE z = 8 WHERE x = 1 SETTINGS mutations_sync=1;
SELECT x, _part, _part_data_version FROM t ORDER BY x;
CREATE TABLE r2 (k UInt8, v UInt8) ENGINE=ReplacingMergeTree ORDER BY k;
INSERT INTO r2 VALUES (1, 1), (2, 1);
INSERT INTO r2 SETTINGS optimize_on_insert=0 VALUES (1, 1), (2, 1);
CREATE TABLE s (k UInt8, v UInt8) ENGINE=SummingMergeTree ORDER BY k;
INSERT INTO s VALUES (1, 1), (2, 1);
CREATE TABLE c (k UInt8, v Int8) ENGINE=CollapsingMergeTree(v) ORDER BY k;
INSERT INTO c VALUES (1, 1), (2, 1);
SELECT table, name, level FROM system.parts WHERE database = currentDatabase() AND table IN ('r2', 's', 'c') ORDER BY table, name;
