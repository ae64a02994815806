-- States of varPop / varSamp / stddevPop / stddevSamp / covarPop / covarSamp / corr in
-- ClickHouse's layout (raw moments: Float64, or Float32 when every argument is Float32),
-- per group, merged, and states written by ClickHouse read back.
SELECT hex(varPopState(number)), hex(varSampState(number)), hex(stddevPopState(number)), hex(stddevSampState(toFloat32(number))), hex(covarSampState(number, number * 2)), hex(corrState(number, number)), hex(covarPopState(number, number)) FROM numbers(3);
SELECT hex(varPopState(toDecimal32(number, 2))), hex(corrState(toFloat32(number), toFloat32(number))), hex(covarSampState(toFloat32(number), number)), hex(varPopState(toNullable(number))), hex(varPopState(toInt8(number))), hex(varSampState(number)) FROM numbers(0);
SELECT hex(varPopState(toDecimal32(number, 2))), hex(corrState(toFloat32(number), toFloat32(number))), hex(covarSampState(toFloat32(number), number)), hex(varPopState(toNullable(number))), hex(varPopState(toInt8(number))) FROM numbers(3);
SELECT toTypeName(varSampState(toFloat32(1))), toTypeName(corrState(1, 2.5));
SELECT k, hex(varSampState(number)), hex(corrState(number, number * number)) FROM (SELECT number, number % 3 AS k FROM numbers(20)) GROUP BY k ORDER BY k;
SELECT varPopMerge(v), varSampMerge(s), stddevPopMerge(p), stddevSampMerge(q), covarSampMerge(c), corrMerge(r) FROM (SELECT varPopState(number) v, varSampState(number) s, stddevPopState(number) p, stddevSampState(number) q, covarSampState(number, number % 7) c, corrState(number, number % 7) r FROM numbers(1000) GROUP BY number % 10);
SELECT hex(varPopMergeState(v)), hex(corrMergeState(r)) FROM (SELECT varPopState(number) v, corrState(number, number % 7) r FROM numbers(100) GROUP BY number % 4);
SELECT finalizeAggregation(CAST(unhex('000000000000084000000000000008400000000000001440'), 'AggregateFunction(varSamp, UInt64)')), finalizeAggregation(CAST(unhex('00004040000040400000A040'), 'AggregateFunction(stddevSamp, Float32)'));
SELECT finalizeAggregation(CAST(unhex('000000000000084000000000000008400000000000001440'), 'AggregateFunction(varPop, UInt64)')), finalizeAggregation(CAST(unhex('0000000000000840000000000000084000000000000018400000000000002440'), 'AggregateFunction(covarSamp, UInt64, UInt64)')), finalizeAggregation(CAST(unhex('000000000000084000000000000008400000000000000840000000000000144000000000000014400000000000001440'), 'AggregateFunction(corr, UInt64, UInt64)'));
SELECT CAST(unhex('0000000000000840000000000000084000000000000014'), 'AggregateFunction(varPop, UInt64)'); -- { serverError CANNOT_READ_ALL_DATA }
-- AggregatingMergeTree: parts merged on OPTIMIZE and read with FINAL
DROP TABLE IF EXISTS t_agg_stats;
CREATE TABLE t_agg_stats (k UInt8, v AggregateFunction(varSamp, UInt64), c AggregateFunction(corr, Float64, Float64)) ENGINE = AggregatingMergeTree ORDER BY k;
INSERT INTO t_agg_stats SELECT number % 2, varSampState(number), corrState(toFloat64(number), toFloat64(number * number)) FROM numbers(10) GROUP BY number % 2;
INSERT INTO t_agg_stats SELECT number % 2, varSampState(number), corrState(toFloat64(number), toFloat64(number * number)) FROM numbers(10, 10) GROUP BY number % 2;
SELECT k, varSampMerge(v), corrMerge(c) FROM t_agg_stats GROUP BY k ORDER BY k;
SELECT k, finalizeAggregation(v), hex(v) FROM t_agg_stats FINAL ORDER BY k;
OPTIMIZE TABLE t_agg_stats FINAL;
SELECT k, finalizeAggregation(v), finalizeAggregation(c), hex(v) FROM t_agg_stats ORDER BY k;
DROP TABLE t_agg_stats;
