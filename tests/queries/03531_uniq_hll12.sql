-- uniqHLL12: ClickHouse's small array -> HyperLogLog(2^12) estimator, estimates identical at
-- every cardinality, states byte-identical, states read back.
SELECT uniqHLL12(number), uniqHLL12(toString(number)) FROM numbers(0);
SELECT 1, uniqHLL12(number), uniqHLL12(toString(number)), uniqHLL12(toInt32(number) - 500), uniqHLL12(number, 'a'), uniqHLL12(number * 0.25), uniqHLL12(toFloat32(number)) FROM numbers(1);
SELECT 16, uniqHLL12(number), uniqHLL12(toString(number)), uniqHLL12(toInt32(number) - 500), uniqHLL12(number, 'a'), uniqHLL12(number * 0.25), uniqHLL12(toFloat32(number)) FROM numbers(16);
SELECT 17, uniqHLL12(number), uniqHLL12(toString(number)), uniqHLL12(toInt32(number) - 500), uniqHLL12(number, 'a'), uniqHLL12(number * 0.25), uniqHLL12(toFloat32(number)) FROM numbers(17);
SELECT 100, uniqHLL12(number), uniqHLL12(toString(number)), uniqHLL12(toInt32(number) - 500), uniqHLL12(number, 'a'), uniqHLL12(number * 0.25), uniqHLL12(toFloat32(number)) FROM numbers(100);
SELECT 1000, uniqHLL12(number), uniqHLL12(toString(number)), uniqHLL12(toInt32(number) - 500), uniqHLL12(number, 'a'), uniqHLL12(number * 0.25), uniqHLL12(toFloat32(number)) FROM numbers(1000);
SELECT 5000, uniqHLL12(number), uniqHLL12(toString(number)), uniqHLL12(toInt32(number) - 500), uniqHLL12(number, 'a'), uniqHLL12(number * 0.25), uniqHLL12(toFloat32(number)) FROM numbers(5000);
SELECT 10000, uniqHLL12(number), uniqHLL12(toString(number)), uniqHLL12(toInt32(number) - 500), uniqHLL12(number, 'a'), uniqHLL12(number * 0.25), uniqHLL12(toFloat32(number)) FROM numbers(10000);
SELECT 20000, uniqHLL12(number), uniqHLL12(toString(number)), uniqHLL12(toInt32(number) - 500), uniqHLL12(number, 'a'), uniqHLL12(number * 0.25), uniqHLL12(toFloat32(number)) FROM numbers(20000);
SELECT 50000, uniqHLL12(number), uniqHLL12(toString(number)), uniqHLL12(toInt32(number) - 500), uniqHLL12(number, 'a'), uniqHLL12(number * 0.25), uniqHLL12(toFloat32(number)) FROM numbers(50000);
SELECT 100000, uniqHLL12(number), uniqHLL12(toString(number)), uniqHLL12(toInt32(number) - 500), uniqHLL12(number, 'a'), uniqHLL12(number * 0.25), uniqHLL12(toFloat32(number)) FROM numbers(100000);
SELECT 1000000, uniqHLL12(number), uniqHLL12(toString(number)), uniqHLL12(toInt32(number) - 500), uniqHLL12(number, 'a'), uniqHLL12(number * 0.25), uniqHLL12(toFloat32(number)) FROM numbers(1000000);
SELECT uniqHLL12(toInt8(number)), uniqHLL12(toInt16(number)), uniqHLL12(toUInt16(number)), uniqHLL12(toDate(number)), uniqHLL12(toDate32(number)), uniqHLL12(toDateTime(number)), uniqHLL12(number % 2 = 1) FROM numbers(30000);
SELECT uniqHLL12(toDecimal64(number, 3)), uniqHLL12(toDateTime64(number, 3)), uniqHLL12((number, toString(number % 7))), uniqHLL12(toFixedString(toString(number), 6)), uniqHLL12(toIPv4(number)), uniqHLL12(toIPv6(concat('::', toString(number % 1000)))) FROM numbers(20000);
SELECT uniqHLL12(toUUID(concat('00000000-0000-0000-0000-', leftPad(toString(number), 12, '0')))), uniqHLL12(toInt128(number) - 7), uniqHLL12(toUInt128(number)), uniqHLL12(CAST(number % 3 AS Enum8('a' = 0, 'b' = 1, 'c' = 2))) FROM numbers(20000);
SELECT uniqHLL12(if(number % 3 = 0, NULL, number)), uniqHLL12(if(number % 2 = 0, NULL, toString(number))), toTypeName(uniqHLL12(toNullable(number))), uniqHLL12(toLowCardinality(toString(number % 3000))) FROM numbers(40000);
SELECT uniqHLL12(if(number > 100, number, NULL)) FROM numbers(5);
SELECT number % 5 AS k, uniqHLL12(number), uniqHLL12(toString(intDiv(number, 3))) FROM numbers(100000) GROUP BY k ORDER BY k;
-- states
SELECT hex(uniqHLL12State(number)) FROM numbers(3);
SELECT hex(uniqHLL12State(toInt8(number - 1))), hex(uniqHLL12State(toNullable(toUInt16(number)))), hex(uniqHLL12State(toFloat32(number + 0.5))), hex(uniqHLL12State(toString(number))), hex(uniqHLL12State(number, 1)), hex(uniqHLL12State(toDecimal32(number, 1))) FROM numbers(2);
SELECT hex(uniqHLL12State(toUInt128(5))), hex(uniqHLL12State(toInt128(-5))), hex(uniqHLL12State(toUUID('61f0c404-5cb3-11e7-907b-a6006ad3dba0'))), hex(uniqHLL12State(CAST(1 AS Enum8('a' = 1)))), hex(uniqHLL12State(toIPv4('1.2.3.4'))), hex(uniqHLL12State(toIPv6('::1'))), hex(uniqHLL12State(true)), hex(uniqHLL12State(-1.5));
SELECT hex(uniqHLL12State(number)) FROM numbers(0);
SELECT cityHash64(hex(uniqHLL12State(number))), cityHash64(hex(uniqHLL12State(toString(number)))), cityHash64(hex(uniqHLL12State(number, number))), length(hex(uniqHLL12State(number))) FROM numbers(100000);
SELECT cityHash64(hex(uniqHLL12State(number))) FROM numbers(17);
-- merges
SELECT uniqHLL12Merge(s), uniqHLL12Merge(t) FROM (SELECT uniqHLL12State(number) s, uniqHLL12State(toString(number % 9)) t FROM numbers(100000) GROUP BY number % 11);
SELECT k, uniqHLL12Merge(s) FROM (SELECT number % 3 AS k, uniqHLL12State(number) s FROM numbers(3000) GROUP BY number % 300, k) GROUP BY k ORDER BY k;
SELECT cityHash64(hex(uniqHLL12MergeState(s))), uniqHLL12Merge(s) FROM (SELECT uniqHLL12State(number) s FROM numbers(50000) GROUP BY number % 5);
-- states written by ClickHouse
SELECT finalizeAggregation(CAST(unhex('0003000000000000000001000000000000000200000000000000'), 'AggregateFunction(uniqHLL12, UInt64)'));
SELECT finalizeAggregation(CAST(unhex('0002128345AA2BC97190F150D642CEC1649E'), 'AggregateFunction(uniqHLL12, String)')), finalizeAggregation(CAST(unhex('01000200000100'), 'AggregateFunction(uniqHLL12, Nullable(UInt16))'));
SELECT uniqHLL12Merge(CAST(unhex(h), 'AggregateFunction(uniqHLL12, UInt64)')) FROM (SELECT hex(uniqHLL12State(number)) AS h FROM numbers(30000) GROUP BY number % 2);
SELECT CAST(unhex('000300000000'), 'AggregateFunction(uniqHLL12, UInt64)'); -- { serverError CANNOT_READ_ALL_DATA }
SELECT CAST(unhex('0011'), 'AggregateFunction(uniqHLL12, UInt64)'); -- { serverError INCORRECT_DATA }
-- AggregatingMergeTree
DROP TABLE IF EXISTS t_agg_h12;
CREATE TABLE t_agg_h12 (k UInt8, u AggregateFunction(uniqHLL12, UInt64)) ENGINE = AggregatingMergeTree ORDER BY k;
INSERT INTO t_agg_h12 SELECT number % 2, uniqHLL12State(number) FROM numbers(10) GROUP BY number % 2;
INSERT INTO t_agg_h12 SELECT number % 2, uniqHLL12State(number) FROM numbers(5, 20000) GROUP BY number % 2;
SELECT k, uniqHLL12Merge(u) FROM t_agg_h12 GROUP BY k ORDER BY k;
OPTIMIZE TABLE t_agg_h12 FINAL;
SELECT k, finalizeAggregation(u), cityHash64(hex(u)) FROM t_agg_h12 ORDER BY k;
DROP TABLE t_agg_h12;
