-- uniqExact's state is ClickHouse's HashSet cell for cell: the values themselves for numbers
-- (CRC32-hashed table), SipHash-128 of strings and of several arguments / tuples; resizes,
-- the zero key, Nullable, -Merge / -MergeState, states read back, AggregatingMergeTree.
SELECT hex(uniqExactState(number)) FROM numbers(5);
SELECT hex(uniqExactState(toUInt8(number))), hex(uniqExactState(toString(number))), hex(uniqExactState(number, number)), hex(uniqExactState(toFloat64(number))), hex(uniqExactState(toFloat32(number))) FROM numbers(3);
SELECT hex(uniqExactState(toString(number), toString(number))), hex(uniqExactState(tuple(number, number))), hex(uniqExactState(toFixedString(toString(number), 2))) FROM numbers(1, 5);
SELECT hex(uniqExactState(toInt8(-1))), hex(uniqExactState(toDate('2020-01-01'))), hex(uniqExactState(true)), hex(uniqExactState(toDateTime(1, 'UTC'))), hex(uniqExactState(toNullable(number))), hex(uniqExactState(number)) FROM numbers(1);
SELECT hex(uniqExactState(number)), hex(uniqExactState(toString(number))) FROM numbers(0);
SELECT cityHash64(hex(uniqExactState(number))), cityHash64(hex(uniqExactState(toString(number)))), cityHash64(hex(uniqExactState(toInt32(number * 3), toString(number)))), cityHash64(hex(uniqExactState(number * 0.25))) FROM numbers(3000);
SELECT k, hex(uniqExactState(number)) FROM (SELECT number, number % 3 AS k FROM numbers(12)) GROUP BY k ORDER BY k;
SELECT uniqExactMerge(s), uniqExactMerge(t) FROM (SELECT uniqExactState(number % 1000) s, uniqExactState(toString(number % 777)) t FROM numbers(5000) GROUP BY number % 7);
SELECT cityHash64(hex(uniqExactMergeState(s))) FROM (SELECT uniqExactState(number) s FROM numbers(100) GROUP BY number % 3 ORDER BY number % 3);
SELECT finalizeAggregation(CAST(unhex('0500000000000000000100000000000000040000000000000002000000000000000300000000000000'), 'AggregateFunction(uniqExact, UInt64)')), finalizeAggregation(CAST(unhex('034809CB4528E00621CF626BE9FA14E2BFE2756D8F7A583CA23016E03447724DE78B0B836069A91C43C1552354D9A2B3F5'), 'AggregateFunction(uniqExact, String)'));
SELECT uniqExactMerge(s) FROM (SELECT CAST(unhex('034809CB4528E00621CF626BE9FA14E2BFE2756D8F7A583CA23016E03447724DE78B0B836069A91C43C1552354D9A2B3F5'), 'AggregateFunction(uniqExact, String)') s UNION ALL SELECT uniqExactState(toString(number)) FROM numbers(1, 4));
SELECT CAST(unhex('05000000000000000001'), 'AggregateFunction(uniqExact, UInt64)'); -- { serverError CANNOT_READ_ALL_DATA }
DROP TABLE IF EXISTS t_agg_ux;
CREATE TABLE t_agg_ux (k UInt8, u AggregateFunction(uniqExact, UInt32), s AggregateFunction(uniqExact, String)) ENGINE = AggregatingMergeTree ORDER BY k;
INSERT INTO t_agg_ux SELECT number % 2, uniqExactState(toUInt32(number)), uniqExactState(toString(number % 5)) FROM numbers(20) GROUP BY number % 2;
INSERT INTO t_agg_ux SELECT number % 2, uniqExactState(toUInt32(number)), uniqExactState(toString(number % 5)) FROM numbers(10, 20) GROUP BY number % 2;
SELECT k, uniqExactMerge(u), uniqExactMerge(s) FROM t_agg_ux GROUP BY k ORDER BY k;
SELECT k, finalizeAggregation(u), finalizeAggregation(s), hex(u) FROM t_agg_ux FINAL ORDER BY k;
OPTIMIZE TABLE t_agg_ux FINAL;
SELECT k, finalizeAggregation(u), finalizeAggregation(s), hex(u), hex(s) FROM t_agg_ux ORDER BY k;
DROP TABLE t_agg_ux;
