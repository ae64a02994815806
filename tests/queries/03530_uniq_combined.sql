-- uniqCombined / uniqCombined64: ClickHouse's array -> hash set -> HyperLogLog estimator,
-- estimates identical at every cardinality, states byte-identical, states read back.
SELECT uniqCombined(number), uniqCombined64(number) FROM numbers(0);
SELECT uniqCombined(number), uniqCombined64(number) FROM numbers(10);
SELECT 16, uniqCombined(number), uniqCombined64(number), uniqCombined(toString(number)), uniqCombined(12)(number), uniqCombined64(20)(number) FROM numbers(16);
SELECT 17, uniqCombined(number), uniqCombined64(number), uniqCombined(toString(number)), uniqCombined(12)(number), uniqCombined64(20)(number) FROM numbers(17);
SELECT 100, uniqCombined(number), uniqCombined64(number), uniqCombined(toString(number)), uniqCombined(12)(number), uniqCombined64(20)(number) FROM numbers(100);
SELECT 1000, uniqCombined(number), uniqCombined64(number), uniqCombined(toString(number)), uniqCombined(12)(number), uniqCombined64(20)(number) FROM numbers(1000);
SELECT 4096, uniqCombined(number), uniqCombined64(number), uniqCombined(toString(number)), uniqCombined(12)(number), uniqCombined64(20)(number) FROM numbers(4096);
SELECT 4097, uniqCombined(number), uniqCombined64(number), uniqCombined(toString(number)), uniqCombined(12)(number), uniqCombined64(20)(number) FROM numbers(4097);
SELECT 8192, uniqCombined(number), uniqCombined64(number), uniqCombined(toString(number)), uniqCombined(12)(number), uniqCombined64(20)(number) FROM numbers(8192);
SELECT 8193, uniqCombined(number), uniqCombined64(number), uniqCombined(toString(number)), uniqCombined(12)(number), uniqCombined64(20)(number) FROM numbers(8193);
SELECT 10000, uniqCombined(number), uniqCombined64(number), uniqCombined(toString(number)), uniqCombined(12)(number), uniqCombined64(20)(number) FROM numbers(10000);
SELECT 50000, uniqCombined(number), uniqCombined64(number), uniqCombined(toString(number)), uniqCombined(12)(number), uniqCombined64(20)(number) FROM numbers(50000);
SELECT 100000, uniqCombined(number), uniqCombined64(number), uniqCombined(toString(number)), uniqCombined(12)(number), uniqCombined64(20)(number) FROM numbers(100000);
SELECT 177000, uniqCombined(number), uniqCombined64(number), uniqCombined(toString(number)), uniqCombined(12)(number), uniqCombined64(20)(number) FROM numbers(177000);
SELECT 300000, uniqCombined(number), uniqCombined64(number), uniqCombined(toString(number)), uniqCombined(12)(number), uniqCombined64(20)(number) FROM numbers(300000);
SELECT 700000, uniqCombined(number), uniqCombined64(number), uniqCombined(toString(number)), uniqCombined(12)(number), uniqCombined64(20)(number) FROM numbers(700000);
SELECT uniqCombined(toString(number)), uniqCombined64(toString(number)), uniqCombined(number * 0.5), uniqCombined(toFloat32(number)) FROM numbers(4000);
SELECT uniqCombined(toString(number)), uniqCombined64(toString(number)), uniqCombined(number * 0.5), uniqCombined(toFloat32(number)) FROM numbers(60000);
SELECT uniqCombined(toInt8(number)), uniqCombined(toInt16(number - 1000)), uniqCombined(toInt32(number) - 30000), uniqCombined(toDate(number)), uniqCombined(toDateTime(number)), uniqCombined(number > 5) FROM numbers(60000);
SELECT uniqCombined(12)(number), uniqCombined(13)(number), uniqCombined(15)(number), uniqCombined(16)(number), uniqCombined(18)(number), uniqCombined(20)(number) FROM numbers(200000);
SELECT uniqCombined64(12)(number), uniqCombined64(14)(toString(number)), uniqCombined(19)(toString(number)) FROM numbers(100000);
SELECT uniqCombined(number, toString(number % 10)), uniqCombined((number, 'a')), uniqCombined64(number % 1000, number % 3), uniqCombined(toDecimal64(number, 2)), uniqCombined(toDateTime64(number, 3)) FROM numbers(30000);
SELECT uniqCombined(if(number % 3 = 0, NULL, number)), uniqCombined64(if(number % 3 = 0, NULL, toString(number))), uniqCombined(if(number % 2 = 0, NULL, number), number % 7) FROM numbers(50000);
SELECT uniqCombined(toLowCardinality(toString(number % 5000))), uniqCombined(toNullable(toString(number % 20))), uniqCombined(toIPv4(number)), uniqCombined(toFixedString(toString(number), 8)) FROM numbers(40000);
SELECT number % 4 AS k, uniqCombined(number), uniqCombined64(toString(number)), uniqCombined(12)(intDiv(number, 3)) FROM numbers(100000) GROUP BY k ORDER BY k;
SELECT uniqCombined(if(number > 100, number, NULL)), uniqCombined64(if(number > 100, toString(number), NULL)) FROM numbers(5);
-- states
SELECT hex(uniqCombinedState(number)) FROM numbers(3);
SELECT hex(uniqCombinedState(number)) FROM numbers(20);
SELECT hex(uniqCombined64State(number)) FROM numbers(3);
SELECT hex(uniqCombinedState(toString(number))), hex(uniqCombinedState(toFloat32(number))), hex(uniqCombinedState(toNullable(number))) FROM numbers(2);
SELECT hex(uniqCombinedState(number)), hex(uniqCombinedState(number, 'x')) FROM numbers(0);
SELECT hex(uniqCombinedState(toDecimal32(1.5, 2))), hex(uniqCombinedState(toInt8(-1))), hex(uniqCombinedState((1, 'a')));
SELECT toTypeName(uniqCombinedState(12)(number)), toTypeName(uniqCombined64State(number)) FROM numbers(2);
SELECT cityHash64(hex(uniqCombinedState(number))), cityHash64(hex(uniqCombined64State(number))), cityHash64(hex(uniqCombinedState(toString(number)))) FROM numbers(8000);
SELECT cityHash64(hex(uniqCombinedState(number))), cityHash64(hex(uniqCombined64State(number))), cityHash64(hex(uniqCombinedState(toString(number)))), cityHash64(hex(uniqCombinedState(12)(number))) FROM numbers(300000);
-- merges: small + medium + large
SELECT uniqCombinedMerge(s), uniqCombined64Merge(t), uniqCombinedMerge(12)(u) FROM (SELECT uniqCombinedState(number) s, uniqCombined64State(toString(number)) t, uniqCombinedState(12)(number * 3) u FROM numbers(200000) GROUP BY number % 13);
SELECT k, uniqCombinedMerge(s) FROM (SELECT number % 3 AS k, uniqCombinedState(number) s FROM numbers(30000) GROUP BY number % 30, k) GROUP BY k ORDER BY k;
SELECT cityHash64(hex(uniqCombinedMergeState(s))), uniqCombinedMerge(s) FROM (SELECT uniqCombinedState(number) s FROM numbers(50000) GROUP BY number % 5);
-- states written by ClickHouse
SELECT finalizeAggregation(CAST(unhex('0103000000002CCBC234E7830665'), 'AggregateFunction(uniqCombined, UInt64)'));
SELECT finalizeAggregation(CAST(unhex('0214000000000DD348251C774C0A2CCBC2342DE2CE183414666335B0A84436FBF31F4489C6D345313DD873457CC77518F0A875554CD587C6A39399528EC9C472D5A1CED8F809D5F1F4F7DDD168E4E7830665'), 'AggregateFunction(uniqCombined, UInt64)'));
SELECT finalizeAggregation(CAST(unhex('010300000000000000002CCBC234FCBC56B4E7830665202ABF3A'), 'AggregateFunction(uniqCombined64, UInt64)'));
SELECT uniqCombinedMerge(CAST(unhex(h), 'AggregateFunction(uniqCombined, UInt64)')) FROM (SELECT hex(uniqCombinedState(number)) AS h FROM numbers(100000) GROUP BY number % 2);
SELECT CAST(unhex('0103000000'), 'AggregateFunction(uniqCombined, UInt64)'); -- { serverError CANNOT_READ_ALL_DATA }
SELECT CAST(unhex('0111'), 'AggregateFunction(uniqCombined, UInt64)'); -- { serverError INCORRECT_DATA }
-- AggregatingMergeTree
DROP TABLE IF EXISTS t_agg_uc;
CREATE TABLE t_agg_uc (k UInt8, u AggregateFunction(uniqCombined, UInt64), v AggregateFunction(uniqCombined64, String)) ENGINE = AggregatingMergeTree ORDER BY k;
INSERT INTO t_agg_uc SELECT number % 2, uniqCombinedState(number), uniqCombined64State(toString(number)) FROM numbers(20000) GROUP BY number % 2;
INSERT INTO t_agg_uc SELECT number % 2, uniqCombinedState(number), uniqCombined64State(toString(number)) FROM numbers(10000, 20000) GROUP BY number % 2;
SELECT k, uniqCombinedMerge(u), uniqCombined64Merge(v) FROM t_agg_uc GROUP BY k ORDER BY k;
OPTIMIZE TABLE t_agg_uc FINAL;
SELECT k, finalizeAggregation(u), finalizeAggregation(v), cityHash64(hex(u)), cityHash64(hex(v)) FROM t_agg_uc ORDER BY k;
DROP TABLE t_agg_uc;
-- errors
SELECT uniqCombined(11)(number) FROM numbers(3); -- { serverError ARGUMENT_OUT_OF_BOUND }
SELECT uniqCombined(21)(number) FROM numbers(3); -- { serverError ARGUMENT_OUT_OF_BOUND }
SELECT uniqCombined(12, 13)(number) FROM numbers(3); -- { serverError NUMBER_OF_ARGUMENTS_DOESNT_MATCH }
SELECT uniqCombined() FROM numbers(3); -- { serverError NUMBER_OF_ARGUMENTS_DOESNT_MATCH }
SELECT toTypeName(uniqCombined(toNullable(number))), toTypeName(uniqCombined64(toNullable(number))) FROM numbers(2);
SELECT uniqCombined(toNullable(number)) FROM numbers(0);
SELECT uniqCombined(toIPv6(concat('::', toString(number % 100)))), uniqCombined(CAST(number % 2 AS Enum8('a' = 0, 'b' = 1))), uniqCombined(toDate32(number)), hex(uniqCombinedState(toIPv6('::1'))), hex(uniqCombinedState(CAST(1 AS Enum16('x' = 1)))) FROM numbers(1000);
SELECT uniqCombined(generateUUIDv4(number) > toUUID('00000000-0000-0000-0000-000000000000')) FROM numbers(3);
SELECT uniqCombined(toUUID(concat('00000000-0000-0000-0000-', leftPad(toString(number), 12, '0')))), uniqCombined(toInt128(number) * toInt128('1000000000000000000000')), uniqCombined(toUInt128(number) * toUInt128('1000000000000000000000')), uniqCombined64(toInt128(number) - 5000) FROM numbers(20000);
SELECT hex(uniqCombinedState(toUUID('61f0c404-5cb3-11e7-907b-a6006ad3dba0'))), hex(uniqCombinedState(toInt128(-3))), hex(uniqCombinedState(toUInt128(7)));
