-- sumMap/minMap/maxMap states in ClickHouse's layout (version 1: VarUInt count, then per key
-- in key order the key and each value in the promoted type, Decimal32/64 as Decimal128,
-- Nullable values with a flag), byte-identical; ClickHouse's states read back (literals
-- written by ClickHouse); -Merge, -MergeState, finalizeAggregation; AggregatingMergeTree
-- with AggregateFunction and SimpleAggregateFunction columns, OPTIMIZE and FINAL.
SELECT hex(sumMapState(k, v)), hex(minMapState(k, v)), hex(maxMapState(k, v)), hex(sumMapWithOverflowState(k, v)), toTypeName(sumMapState(k, v)) FROM (SELECT arrayMap(x -> x % 4, range(number % 5)) AS k, arrayMap(x -> toUInt8(x * 50 + number), range(number % 5)) AS v FROM numbers(20));
SELECT hex(sumMapState(k, v)), hex(minMapState(k, d)), hex(maxMapState(k, f)), hex(sumMapState(k, v, d, f)) FROM (SELECT ['x', 'y', toString(number % 3)] AS k, [toInt16(number) - 5, 0, 1] AS v, [toDecimal32(number, 2) / 3, toDecimal32(-1.25, 2), 0] AS d, [toFloat32(number) / 4, -0.5, 1] AS f FROM numbers(5));
SELECT hex(sumMapState(k, v)), hex(minMapState(k, v)) FROM (SELECT [1, 2, 3] AS k, [if(number = 0, NULL, toNullable(toUInt8(number))), CAST(NULL AS Nullable(UInt8)), toNullable(toUInt8(0))] AS v FROM numbers(3));
SELECT hex(minMapState(k, v)), hex(sumMapState((k, w))) FROM (SELECT [toDate('2024-01-01') + number % 2, toDate('2024-01-01')] AS k, [toDate('2024-03-01') - number, toDate('2024-03-01')] AS v, [toUInt128(number), 1] AS w FROM numbers(4));
SELECT hex(sumMapState(k, v)) FROM (SELECT [1] AS k, [2] AS v) WHERE 0;
SELECT finalizeAggregation(s), hex(s) FROM (SELECT sumMapState(k, v) AS s FROM (SELECT [1, 2] AS k, [toInt8(number) - 1, 0] AS v FROM numbers(3)));
SELECT sumMapMerge(s), minMapMerge(m), hex(sumMapMergeState(s)) FROM (SELECT number % 3 AS g, sumMapState([toString(number % 5)], [number]) AS s, minMapState([number % 4], [toInt32(number) - 9]) AS m FROM numbers(50) GROUP BY g);
SELECT g, finalizeAggregation(ms) FROM (SELECT number % 2 AS g, sumMapMergeState(s) AS ms FROM (SELECT number, sumMapState([number % 3], [toUInt16(number)]) AS s FROM numbers(12) GROUP BY number) GROUP BY g) ORDER BY g;
-- the Map form (-Map combinator): keys in libc++'s unordered_map order, each with its state
SELECT hex(sumMapState(m)), hex(minMapState(m)), toTypeName(sumMapState(m)) FROM (SELECT map(concat('k', toString(number % 7)), number, 'z', 1) AS m FROM numbers(20));
SELECT hex(sumMapState(m)), hex(maxMapState(m)) FROM (SELECT map(toInt8(number % 13) - 6, toUInt8(number)) AS m FROM numbers(40));
SELECT hex(sumMapState(map(number % 50, number))), hex(sumMapState(map(toString(number % 30), toNullable(number)))) FROM numbers(100);
SELECT hex(sumMapState(map(repeat('x', 60 + number % 20), 1))), hex(maxMapState(map(toFixedString(toString(number % 9), 3), toFloat32(number)))) FROM numbers(40);
SELECT sumMapMerge(s), finalizeAggregation(sumMapMergeState(s)) FROM (SELECT number % 3 AS g, sumMapState(map(number % 20, number)) AS s FROM numbers(60) GROUP BY g ORDER BY g);
-- states written by ClickHouse, read back
SELECT finalizeAggregation(CAST(unhex('0301900100000000000002C800000000000000036400000000000000'), 'AggregateFunction(sumMap, Array(UInt8), Array(UInt8))')), finalizeAggregation(CAST(unhex('020178000000000000F83F017900000000000000C0'), 'AggregateFunction(maxMap, Array(String), Array(Float32))')), finalizeAggregation(CAST(unhex('02010003000000000000000201'), 'AggregateFunction(sumMap, Array(UInt8), Array(Nullable(UInt8)))'));
SELECT sumMapMerge(s) FROM (SELECT CAST(unhex('0301900100000000000002C800000000000000036400000000000000'), 'AggregateFunction(sumMap, Array(UInt8), Array(UInt8))') AS s UNION ALL SELECT sumMapState([toUInt8(1), 9], [toUInt8(5), 4]));
SELECT finalizeAggregation(CAST(unhex('03017200000000000000000170070000000000000001710500000000000000'), 'AggregateFunction(sumMap, Map(String, UInt64))')), sumMapMerge(s) FROM (SELECT CAST(unhex('03017200000000000000000170070000000000000001710500000000000000'), 'AggregateFunction(sumMap, Map(String, UInt64))') AS s);
SELECT toTypeName(CAST(sumMapState([1], [1]), 'AggregateFunction(sumMap, Array(UInt8), Array(UInt8))')), toTypeName(CAST(sumMapState([1], [1]), 'AggregateFunction(1, sumMap, Array(UInt8), Array(UInt8))')), toTypeName(sumMapState(map(1, 1)));
-- AggregatingMergeTree
DROP TABLE IF EXISTS t_amt_map;
CREATE TABLE t_amt_map (k UInt8, s AggregateFunction(sumMap, Array(String), Array(UInt32)), m AggregateFunction(maxMap, Array(UInt16), Array(Int64)), ss SimpleAggregateFunction(sumMap, Tuple(Array(String), Array(UInt64))), sm SimpleAggregateFunction(minMap, Tuple(Array(UInt8), Array(Int16)))) ENGINE = AggregatingMergeTree ORDER BY k;
INSERT INTO t_amt_map SELECT number % 2, sumMapState([toString(number % 3)], [toUInt32(number)]), maxMapState([toUInt16(number % 4)], [toInt64(number) - 5]), sumMap([toString(number % 3)], [number]), minMap([toUInt8(number % 3)], [toInt16(10 - number)]) FROM numbers(10) GROUP BY number % 2;
INSERT INTO t_amt_map SELECT number % 3, sumMapState([toString(number % 4)], [toUInt32(number)]), maxMapState([toUInt16(number % 2)], [toInt64(number)]), sumMap([toString(number % 4)], [number]), minMap([toUInt8(number % 4)], [toInt16(number)]) FROM numbers(10, 10) GROUP BY number % 3;
SELECT k, sumMapMerge(s), maxMapMerge(m), sumMap(ss), minMap(sm) FROM t_amt_map GROUP BY k ORDER BY k;
SELECT k, finalizeAggregation(s), finalizeAggregation(m), ss, sm, hex(s), hex(m) FROM t_amt_map FINAL ORDER BY k;
OPTIMIZE TABLE t_amt_map FINAL;
SELECT k, finalizeAggregation(s), finalizeAggregation(m), ss, sm, hex(s), hex(m) FROM t_amt_map ORDER BY k;
DESCRIBE t_amt_map;
DROP TABLE t_amt_map;
CREATE TABLE t_amt_map2 (k UInt8, ss SimpleAggregateFunction(sumMap, Tuple(Array(String), Array(UInt8)))) ENGINE = AggregatingMergeTree ORDER BY k; -- { serverError BAD_ARGUMENTS }
