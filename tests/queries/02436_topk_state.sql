-- topK states of numbers in ClickHouse's SpaceSaving layout (counters best first: key,
-- VarUInt count, VarUInt error; then the alpha map), byte-identical; ClickHouse's states
-- (with evictions too) read back and finalized. Other types: 03720-03723.
SELECT hex(topKState(2)(number % 3)), hex(topKState(3)(toInt32(number % 4) - 2)), hex(topKState(2, 2)(toFloat64(number % 2))), toTypeName(topKState(2)(number)) FROM numbers(10);
SELECT hex(topKState(2)(number)), hex(topKState(toUInt16(number))) FROM numbers(0);
SELECT hex(topKState(5)(toUInt16(number % 7 * number % 5))) FROM numbers(100);
SELECT k, hex(topKState(3)(number % 4)) FROM (SELECT number, number % 3 AS k FROM numbers(30)) GROUP BY k ORDER BY k;
SELECT topKMerge(1)(s) FROM (SELECT topKState(1)(if(number % 3 = 0, 7, number % 5)) s FROM numbers(100) GROUP BY number % 7);
SELECT finalizeAggregation(CAST(unhex('03000400010300020300200000000000000000000000000000000000000000000000000000000000000000'), 'AggregateFunction(topK(1), UInt8)')), finalizeAggregation(CAST(unhex('03070000000B00130000000100160000000100200000000000000000000000000000000000000000000000000000000000000000'), 'AggregateFunction(topK(1), UInt32)'));
DROP TABLE IF EXISTS t_agg_tk;
CREATE TABLE t_agg_tk (k UInt8, t AggregateFunction(topK(1), UInt8)) ENGINE = AggregatingMergeTree ORDER BY k;
INSERT INTO t_agg_tk SELECT number % 2, topKState(1)(toUInt8(if(number % 10 < 6, 5, number % 10))) FROM numbers(10) GROUP BY number % 2;
INSERT INTO t_agg_tk SELECT number % 2, topKState(1)(toUInt8(if(number % 10 < 6, 5, number % 10))) FROM numbers(10, 10) GROUP BY number % 2;
SELECT k, topKMerge(1)(t) FROM t_agg_tk GROUP BY k ORDER BY k;
SELECT k, finalizeAggregation(t), hex(t) FROM t_agg_tk FINAL ORDER BY k;
OPTIMIZE TABLE t_agg_tk FINAL;
SELECT k, finalizeAggregation(t), hex(t) FROM t_agg_tk ORDER BY k;
DROP TABLE t_agg_tk;
