-- Partitions: part names, partition IDs and values, per-partition parts, DROP/DETACH/ATTACH.
CREATE TABLE p (d Date, k String, x UInt64) ENGINE = MergeTree PARTITION BY toYYYYMM(d) ORDER BY (k, x);
INSERT INTO p SELECT toDate('2024-01-15') + number * 10, toString(number % 3), number FROM numbers(10);
SELECT name, partition_id, partition, rows, min_block_number, max_block_number, level FROM system.parts WHERE table = 'p' ORDER BY name;
INSERT INTO p VALUES ('2024-01-20', 'z', 100);
SELECT name, rows FROM system.parts WHERE table = 'p' AND active ORDER BY name;
SELECT toYYYYMM(d) AS m, count(), sum(x) FROM p GROUP BY m ORDER BY m;
OPTIMIZE TABLE p PARTITION 202401 FINAL;
SELECT name, rows, level FROM system.parts WHERE table = 'p' AND active ORDER BY name;
ALTER TABLE p DROP PARTITION 202402;
SELECT toYYYYMM(d) AS m, count() FROM p GROUP BY m ORDER BY m;
ALTER TABLE p DETACH PARTITION ID '202403';
SELECT toYYYYMM(d) AS m, count() FROM p GROUP BY m ORDER BY m;
ALTER TABLE p ATTACH PART '202403_3_3_0';
SELECT toYYYYMM(d) AS m, count() FROM p GROUP BY m ORDER BY m;
SELECT name FROM system.parts WHERE table = 'p' AND active ORDER BY name;
ALTER TABLE p ATTACH PART 'nonsense'; -- { serverError BAD_DATA_PART_NAME }
ALTER TABLE p ATTACH PART '202401_99_99_0'; -- { serverError BAD_DATA_PART_NAME }
CREATE TABLE s (k String, v UInt8) ENGINE = MergeTree PARTITION BY k ORDER BY v;
INSERT INTO s VALUES ('abc', 1), ('', 2), ('x y', 3);
SELECT partition_id, partition, rows FROM system.parts WHERE table = 's' ORDER BY partition_id;
CREATE TABLE t2 (d Date, e Enum8('a' = 1, 'b' = 2), n Int32) ENGINE = MergeTree PARTITION BY (d, e, n) ORDER BY tuple();
INSERT INTO t2 VALUES ('2024-02-03', 'b', -5);
SELECT partition_id, partition FROM system.parts WHERE table = 't2';
CREATE TABLE f (x Float64) ENGINE = MergeTree PARTITION BY x ORDER BY tuple(); -- { serverError BAD_ARGUMENTS }
-- Many source blocks squashed into one insert block, split by partition and sorted.
CREATE TABLE mb (d Date, k UInt32, s String, n Nullable(UInt8)) ENGINE = MergeTree PARTITION BY toYYYYMM(d) ORDER BY (k, d);
INSERT INTO mb SELECT toDate('2024-01-01') + number % 70, number % 97, toString(number), if(number % 5 = 0, NULL, number % 7) FROM numbers(5000) SETTINGS max_block_size = 333;
SELECT partition, rows FROM system.parts WHERE table = 'mb' AND active ORDER BY partition;
SELECT count(), sum(k), sum(length(s)), count(n), sum(n) FROM mb;
SELECT * FROM mb WHERE k = 5 ORDER BY d, s LIMIT 5;
CREATE TABLE mb2 (d Date, k UInt32, s String, lc LowCardinality(String), f FixedString(2)) ENGINE = MergeTree PARTITION BY toYYYYMM(d) ORDER BY (k, d);
INSERT INTO mb2 SELECT toDate('2024-01-01') + number % 70, number % 97, toString(number), concat('v', toString(number % 3)), toFixedString(toString(number % 50), 2) FROM numbers(5000) SETTINGS max_block_size = 333;
SELECT partition, rows FROM system.parts WHERE table = 'mb2' AND active ORDER BY partition;
SELECT count(), sum(k), sum(length(s)), uniqExact(lc), uniqExact(f) FROM mb2;
SELECT * FROM mb2 WHERE k = 5 ORDER BY d, s LIMIT 5;
SELECT k, d, s FROM mb2 WHERE d = '2024-02-10' ORDER BY k, d LIMIT 3;
