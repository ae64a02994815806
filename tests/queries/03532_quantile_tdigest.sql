-- quantileTDigest family: ClickHouse's t-digest step for step; results identical on ordered
-- single-threaded input, states byte-identical, states read back.
SELECT quantileTDigest(number), medianTDigest(number), quantilesTDigest(0.1, 0.5)(number) FROM numbers(0);
SELECT 1, quantileTDigest(number), quantileTDigest(0.01)(number), quantileTDigest(0.999)(number), quantilesTDigest(0.99, 0.01, 0.5, 0, 1)(sin(number)), medianTDigest((number * 7919) % 100003 / 3.0), quantileTDigest(0.25)(toInt32(number % 1000) - 500) FROM numbers(1) SETTINGS max_threads = 1;
SELECT 2, quantileTDigest(number), quantileTDigest(0.01)(number), quantileTDigest(0.999)(number), quantilesTDigest(0.99, 0.01, 0.5, 0, 1)(sin(number)), medianTDigest((number * 7919) % 100003 / 3.0), quantileTDigest(0.25)(toInt32(number % 1000) - 500) FROM numbers(2) SETTINGS max_threads = 1;
SELECT 3, quantileTDigest(number), quantileTDigest(0.01)(number), quantileTDigest(0.999)(number), quantilesTDigest(0.99, 0.01, 0.5, 0, 1)(sin(number)), medianTDigest((number * 7919) % 100003 / 3.0), quantileTDigest(0.25)(toInt32(number % 1000) - 500) FROM numbers(3) SETTINGS max_threads = 1;
SELECT 10, quantileTDigest(number), quantileTDigest(0.01)(number), quantileTDigest(0.999)(number), quantilesTDigest(0.99, 0.01, 0.5, 0, 1)(sin(number)), medianTDigest((number * 7919) % 100003 / 3.0), quantileTDigest(0.25)(toInt32(number % 1000) - 500) FROM numbers(10) SETTINGS max_threads = 1;
SELECT 100, quantileTDigest(number), quantileTDigest(0.01)(number), quantileTDigest(0.999)(number), quantilesTDigest(0.99, 0.01, 0.5, 0, 1)(sin(number)), medianTDigest((number * 7919) % 100003 / 3.0), quantileTDigest(0.25)(toInt32(number % 1000) - 500) FROM numbers(100) SETTINGS max_threads = 1;
SELECT 1000, quantileTDigest(number), quantileTDigest(0.01)(number), quantileTDigest(0.999)(number), quantilesTDigest(0.99, 0.01, 0.5, 0, 1)(sin(number)), medianTDigest((number * 7919) % 100003 / 3.0), quantileTDigest(0.25)(toInt32(number % 1000) - 500) FROM numbers(1000) SETTINGS max_threads = 1;
SELECT 2049, quantileTDigest(number), quantileTDigest(0.01)(number), quantileTDigest(0.999)(number), quantilesTDigest(0.99, 0.01, 0.5, 0, 1)(sin(number)), medianTDigest((number * 7919) % 100003 / 3.0), quantileTDigest(0.25)(toInt32(number % 1000) - 500) FROM numbers(2049) SETTINGS max_threads = 1;
SELECT 5000, quantileTDigest(number), quantileTDigest(0.01)(number), quantileTDigest(0.999)(number), quantilesTDigest(0.99, 0.01, 0.5, 0, 1)(sin(number)), medianTDigest((number * 7919) % 100003 / 3.0), quantileTDigest(0.25)(toInt32(number % 1000) - 500) FROM numbers(5000) SETTINGS max_threads = 1;
SELECT 20000, quantileTDigest(number), quantileTDigest(0.01)(number), quantileTDigest(0.999)(number), quantilesTDigest(0.99, 0.01, 0.5, 0, 1)(sin(number)), medianTDigest((number * 7919) % 100003 / 3.0), quantileTDigest(0.25)(toInt32(number % 1000) - 500) FROM numbers(20000) SETTINGS max_threads = 1;
SELECT 100000, quantileTDigest(number), quantileTDigest(0.01)(number), quantileTDigest(0.999)(number), quantilesTDigest(0.99, 0.01, 0.5, 0, 1)(sin(number)), medianTDigest((number * 7919) % 100003 / 3.0), quantileTDigest(0.25)(toInt32(number % 1000) - 500) FROM numbers(100000) SETTINGS max_threads = 1;
SELECT 300000, quantileTDigest(number), quantileTDigest(0.01)(number), quantileTDigest(0.999)(number), quantilesTDigest(0.99, 0.01, 0.5, 0, 1)(sin(number)), medianTDigest((number * 7919) % 100003 / 3.0), quantileTDigest(0.25)(toInt32(number % 1000) - 500) FROM numbers(300000) SETTINGS max_threads = 1;
SELECT quantileTDigest(toDate(number)), quantileTDigest(toDateTime(number)), toTypeName(quantileTDigest(toDateTime(number))), quantileTDigest(toInt8(number)), toTypeName(medianTDigest(toInt8(number))), quantilesTDigest(0.2, 0.8)(toDate(number)) FROM numbers(1000);
SELECT quantileTDigest(toFloat32(number) / 7), quantileTDigest(0.9)(toUInt64(number) * 1024), quantileTDigest(0.5)(if(number % 5 = 0, nan, toFloat64(number))), quantileTDigest(0.5)(if(number % 2 = 0, inf, -inf)), quantileTDigest(number % 2 = 1) FROM numbers(10000) SETTINGS max_threads = 1;
SELECT quantileTDigest(if(number % 3 = 0, NULL, number)), toTypeName(quantileTDigest(toNullable(number))), quantileTDigest(x) FROM (SELECT number, if(number > 100, number, NULL) AS x FROM numbers(50));
SELECT quantileTDigest(toLowCardinality(toUInt32(number % 100))) FROM numbers(5000);
SELECT number % 3 AS k, quantileTDigest(0.7)(number), quantilesTDigest(0.1, 0.9)(number * 2) FROM numbers(30000) GROUP BY k ORDER BY k SETTINGS max_threads = 1;
SELECT quantileTDigestWeighted(number, number % 3), quantileTDigestWeighted(0.9)(number, 2), quantilesTDigestWeighted(0.1, 0.5)(number, toUInt8(number % 5)), medianTDigestWeighted(number, 1), toTypeName(quantileTDigestWeighted(number, 1)) FROM numbers(20000) SETTINGS max_threads = 1;
-- states
SELECT hex(quantileTDigestState(number)) FROM numbers(3);
SELECT hex(quantileTDigestState(number)) FROM numbers(0);
SELECT hex(quantileTDigestWeightedState(number, 2)), hex(quantilesTDigestState(0.1, 0.9)(toFloat32(number) / 3)) FROM numbers(4);
SELECT cityHash64(hex(quantileTDigestState(number))), cityHash64(hex(quantileTDigestState(sin(number)))), cityHash64(hex(quantileTDigestWeightedState(number, number % 4))) FROM numbers(60000) SETTINGS max_threads = 1;
SELECT toTypeName(quantileTDigestState(0.3)(number)), toTypeName(quantilesTDigestState(0.1, 0.2)(toDate(number))) FROM numbers(2);
-- merges
SELECT quantileTDigestMerge(s), quantileTDigestMerge(0.9)(s) FROM (SELECT quantileTDigestState(number) s FROM numbers(700) GROUP BY number % 7 ORDER BY number % 7) SETTINGS max_threads = 1;
SELECT hex(quantileTDigestMergeState(s)) FROM (SELECT quantileTDigestState(number) s FROM numbers(70) GROUP BY number % 7 ORDER BY number % 7) SETTINGS max_threads = 1;
SELECT quantileTDigestMerge(s), quantileTDigestMerge(0.9)(s), cityHash64(hex(quantileTDigestMergeState(s))) FROM (SELECT CAST(unhex(hex(quantileTDigestState(number))), 'AggregateFunction(quantileTDigest, UInt64)') s FROM numbers(40000) GROUP BY number % 7 ORDER BY number % 7) SETTINGS max_threads = 1;
SELECT quantileMerge(0.9)(s), quantileExactMerge(0.9)(t) FROM (SELECT quantileState(number) s, quantileExactState(number) t FROM numbers(100));
-- states written by ClickHouse
SELECT finalizeAggregation(CAST(unhex('03000000000000803F0000803F0000803F000000400000803F'), 'AggregateFunction(quantileTDigest, UInt64)'));
SELECT finalizeAggregation(CAST(unhex('0200000000000000400000803F00000040'), 'AggregateFunction(quantileTDigestWeighted, UInt64, UInt8)'));
SELECT quantileTDigestMerge(0.4)(CAST(unhex(h), 'AggregateFunction(quantileTDigest(0.4), UInt64)')) FROM (SELECT hex(quantileTDigestState(0.4)(number)) AS h FROM numbers(10000)) SETTINGS max_threads = 1;
SELECT CAST(unhex('0300000000'), 'AggregateFunction(quantileTDigest, UInt64)'); -- { serverError CANNOT_READ_ALL_DATA }
SELECT CAST(unhex('010000803F00000000'), 'AggregateFunction(quantileTDigest, UInt64)'); -- { serverError CANNOT_PARSE_INPUT_ASSERTION_FAILED }
-- AggregatingMergeTree
DROP TABLE IF EXISTS t_agg_td;
CREATE TABLE t_agg_td (k UInt8, q AggregateFunction(quantileTDigest, UInt64)) ENGINE = AggregatingMergeTree ORDER BY k;
INSERT INTO t_agg_td SELECT number % 2, quantileTDigestState(number) FROM numbers(1000) GROUP BY number % 2;
INSERT INTO t_agg_td SELECT number % 2, quantileTDigestState(number) FROM numbers(500, 3000) GROUP BY number % 2;
OPTIMIZE TABLE t_agg_td FINAL;
SELECT k, finalizeAggregation(q), hex(q) = hex(q) FROM t_agg_td ORDER BY k;
DROP TABLE t_agg_td;
-- errors
SELECT quantileTDigest(1.5)(number) FROM numbers(3); -- { serverError PARAMETER_OUT_OF_BOUND }
SELECT quantileTDigest('a') FROM numbers(3); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT quantileTDigest(toDecimal32(1, 2)) FROM numbers(3); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
