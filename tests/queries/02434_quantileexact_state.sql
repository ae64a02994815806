-- quantileExact / quantilesExact / medianExact states: ClickHouse's vector of the values
-- (VarUInt count, raw values in the argument's layout); merged, read back, AggregatingMergeTree.
SELECT hex(quantileExactState(number)), hex(quantilesExactState(0.5, 0.9)(number)), hex(quantileExactState(toFloat32(number))), hex(medianExactState(toInt8(number))), hex(quantileExactState(toNullable(number))), hex(quantileExactState(toDecimal32(number, 2))), hex(quantileExactState(toDate(number))), toTypeName(quantilesExactState(0.5, 0.9)(number)) FROM numbers(3);
SELECT hex(quantileExactState(number)), hex(quantilesExactState(0.1)(toInt16(number))) FROM numbers(0);
SELECT cityHash64(hex(quantileExactState(0.3)(number * 7 % 1000))) FROM numbers(20000);
SELECT k, hex(quantileExactState(number)) FROM (SELECT number, number % 3 AS k FROM numbers(9)) GROUP BY k ORDER BY k;
SELECT quantileExactMerge(s), quantilesExactMerge(0.1, 0.5, 0.99)(m), medianExactMerge(d) FROM (SELECT quantileExactState(number) s, quantilesExactState(0.1, 0.5, 0.99)(toFloat64(number) / 3) m, medianExactState(toInt32(number) - 500) d FROM numbers(1000) GROUP BY number % 7);
SELECT finalizeAggregation(CAST(unhex('03000000000000000001000000000000000200000000000000'), 'AggregateFunction(quantileExact, UInt64)')), finalizeAggregation(CAST(unhex('03000102'), 'AggregateFunction(quantilesExact(0.1, 0.9), Int8)'));
SELECT CAST(unhex('0300000000000000000100'), 'AggregateFunction(quantileExact, UInt64)'); -- { serverError CANNOT_READ_ALL_DATA }
DROP TABLE IF EXISTS t_agg_qx;
CREATE TABLE t_agg_qx (k UInt8, q AggregateFunction(quantileExact(0.5), UInt32)) ENGINE = AggregatingMergeTree ORDER BY k;
INSERT INTO t_agg_qx SELECT number % 2, quantileExactState(0.5)(toUInt32(number)) FROM numbers(10) GROUP BY number % 2;
INSERT INTO t_agg_qx SELECT number % 2, quantileExactState(0.5)(toUInt32(number)) FROM numbers(10, 10) GROUP BY number % 2;
SELECT k, quantileExactMerge(0.5)(q) FROM t_agg_qx GROUP BY k ORDER BY k;
SELECT k, finalizeAggregation(q), hex(q) FROM t_agg_qx FINAL ORDER BY k;
OPTIMIZE TABLE t_agg_qx FINAL;
SELECT k, finalizeAggregation(q), hex(q) FROM t_agg_qx ORDER BY k;
DROP TABLE t_agg_qx;
