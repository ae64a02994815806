-- SAMPLE k [OFFSET m] on a MergeTree table with SAMPLE BY: the rows whose sampling value
-- lies in [m, m + k) of the value range of its type, exactly ClickHouse's rows.
DROP TABLE IF EXISTS smp;
DROP TABLE IF EXISTS smp8;
DROP TABLE IF EXISTS smp_nos;
CREATE TABLE smp (id UInt64, v UInt32) ENGINE = MergeTree ORDER BY (intHash32(id), id) SAMPLE BY intHash32(id);
INSERT INTO smp SELECT number, number % 7 FROM numbers(10000);
SHOW CREATE TABLE smp;
SELECT count(), sum(id) FROM smp SAMPLE 0.1;
SELECT count(), sum(id) FROM smp SAMPLE 1/10 OFFSET 1/2;
SELECT count(), sum(id) FROM smp SAMPLE 0.5 OFFSET 0.75;
SELECT count() FROM smp SAMPLE 1;
SELECT count() FROM smp SAMPLE 1000;
SELECT count() FROM smp SAMPLE 20000;
SELECT count() FROM smp SAMPLE 1e-1;
SELECT count() FROM smp SAMPLE 0.1 WHERE v = 3;
SELECT id FROM smp SAMPLE 0.001 ORDER BY id;
SELECT id FROM smp SAMPLE 1 / 1000 OFFSET 999 / 1000 ORDER BY id;
-- SAMPLE 0.1 OFFSET 0, 0.1, …, 0.9 cover every row once
SELECT sum(c), sum(s) FROM (
    SELECT count() AS c, sum(id) AS s FROM smp SAMPLE 0.1
    UNION ALL SELECT count(), sum(id) FROM smp SAMPLE 0.1 OFFSET 0.1
    UNION ALL SELECT count(), sum(id) FROM smp SAMPLE 0.1 OFFSET 0.2
    UNION ALL SELECT count(), sum(id) FROM smp SAMPLE 0.1 OFFSET 0.3
    UNION ALL SELECT count(), sum(id) FROM smp SAMPLE 0.1 OFFSET 0.4
    UNION ALL SELECT count(), sum(id) FROM smp SAMPLE 0.1 OFFSET 0.5
    UNION ALL SELECT count(), sum(id) FROM smp SAMPLE 0.1 OFFSET 0.6
    UNION ALL SELECT count(), sum(id) FROM smp SAMPLE 0.1 OFFSET 0.7
    UNION ALL SELECT count(), sum(id) FROM smp SAMPLE 0.1 OFFSET 0.8
    UNION ALL SELECT count(), sum(id) FROM smp SAMPLE 0.1 OFFSET 0.9);
SELECT count() FROM smp SAMPLE 0.5 OFFSET 1;
SELECT count() FROM smp SAMPLE 0 OFFSET 0.5; -- { serverError ARGUMENT_OUT_OF_BOUND }
SELECT count() FROM smp AS s SAMPLE 0.2 WHERE s.v = 1;
-- a UInt8 sampling key: the range is [0, 256)
CREATE TABLE smp8 (k UInt8, x String) ENGINE = MergeTree ORDER BY k SAMPLE BY k;
INSERT INTO smp8 SELECT number, toString(number) FROM numbers(256);
SELECT min(k), max(k), count() FROM smp8 SAMPLE 0.3;
SELECT min(k), max(k), count() FROM smp8 SAMPLE 0.3 OFFSET 0.3;
SELECT min(k), max(k), count() FROM smp8 SAMPLE 1/3 OFFSET 2/3;
SELECT x FROM smp8 SAMPLE 0.01 ORDER BY k;
-- what ClickHouse refuses
CREATE TABLE smp_bad (k Int32) ENGINE = MergeTree ORDER BY k SAMPLE BY k; -- { serverError ILLEGAL_TYPE_OF_COLUMN_FOR_FILTER }
CREATE TABLE smp_bad (k UInt32, j UInt32) ENGINE = MergeTree ORDER BY k SAMPLE BY j; -- { serverError BAD_ARGUMENTS }
CREATE TABLE smp_nos (k UInt32) ENGINE = MergeTree ORDER BY k;
INSERT INTO smp_nos VALUES (1);
SELECT count() FROM smp_nos SAMPLE 0.1; -- { serverError SAMPLING_NOT_SUPPORTED }
DROP TABLE smp;
DROP TABLE smp8;
DROP TABLE smp_nos;
