-- AggregatingMergeTree: AggregateFunction columns merged on OPTIMIZE and with FINAL,
-- SimpleAggregateFunction columns, other columns keep the group's first row.
DROP TABLE IF EXISTS amt;
CREATE TABLE amt (k UInt64, s AggregateFunction(sum, UInt64), a AggregateFunction(avg, UInt64), g AggregateFunction(groupArray, String), mn AggregateFunction(min, String), m SimpleAggregateFunction(max, UInt64), sa SimpleAggregateFunction(anyLast, String), c UInt64) ENGINE = AggregatingMergeTree ORDER BY k SETTINGS allow_dimensions_outside_sorting_key = 1;
INSERT INTO amt SELECT number % 3, sumState(number), avgState(number), groupArrayState(toString(number)), minState(toString(number)), max(number), toString(max(number)), 7 FROM numbers(10) GROUP BY number % 3;
INSERT INTO amt SELECT number % 4, sumState(number), avgState(number), groupArrayState(toString(number)), minState(toString(number)), max(number), toString(max(number)), 8 FROM numbers(10, 10) GROUP BY number % 4;
SELECT k, sumMerge(s), avgMerge(a), arraySort(groupArrayMerge(g)), minMerge(mn), max(m) FROM amt GROUP BY k ORDER BY k;
SELECT k, finalizeAggregation(s), finalizeAggregation(a), arraySort(finalizeAggregation(g)), finalizeAggregation(mn), m, sa, c FROM amt FINAL ORDER BY k;
SELECT count() FROM amt;
OPTIMIZE TABLE amt FINAL;
SELECT count() FROM amt;
SELECT k, hex(s), hex(a), hex(mn), finalizeAggregation(s), arraySort(finalizeAggregation(g)), m, sa, c, toTypeName(m), toTypeName(sa) FROM amt ORDER BY k;
DESCRIBE amt;
-- inserting plain values: each row is a state of its own
INSERT INTO amt (k, s, m) SELECT 1, initializeAggregation('sumState', toUInt64(100)), 1000;
SELECT k, sumMerge(s), max(m) FROM amt WHERE k = 1 GROUP BY k;
SELECT k, finalizeAggregation(s), finalizeAggregation(a), hex(a), finalizeAggregation(g), m, c FROM amt FINAL WHERE k = 1;
OPTIMIZE TABLE amt FINAL;
SELECT k, hex(s), hex(a), hex(g), m, sa, c FROM amt ORDER BY k;
-- a materialized-view style rollup
DROP TABLE IF EXISTS amt2;
CREATE TABLE amt2 (d Date, u AggregateFunction(count), x AggregateFunction(argMax, String, UInt64)) ENGINE = AggregatingMergeTree ORDER BY d;
INSERT INTO amt2 SELECT toDate('2024-01-01') + number % 2, countState(), argMaxState(toString(number), number) FROM numbers(100) GROUP BY toDate('2024-01-01') + number % 2;
INSERT INTO amt2 SELECT toDate('2024-01-01') + number % 3, countState(), argMaxState(toString(number), number) FROM numbers(50) GROUP BY toDate('2024-01-01') + number % 3;
SELECT d, countMerge(u), argMaxMerge(x) FROM amt2 GROUP BY d ORDER BY d;
SELECT d, finalizeAggregation(u), finalizeAggregation(x), hex(x) FROM amt2 FINAL ORDER BY d;
CREATE TABLE amt3 (k UInt64, s SimpleAggregateFunction(sum, UInt32)) ENGINE = AggregatingMergeTree ORDER BY k; -- { serverError BAD_ARGUMENTS }
CREATE TABLE amt3 (k UInt64, s SimpleAggregateFunction(uniq, UInt64)) ENGINE = AggregatingMergeTree ORDER BY k; -- { serverError BAD_ARGUMENTS }
CREATE TABLE amt3 (k UInt64) ENGINE = AggregatingMergeTree(k) ORDER BY k; -- { serverError NUMBER_OF_ARGUMENTS_DOESNT_MATCH }
CREATE TABLE amt3 (k UInt64, c UInt64, s AggregateFunction(sum, UInt64)) ENGINE = AggregatingMergeTree ORDER BY k; -- { serverError BAD_ARGUMENTS }
DROP TABLE amt;
DROP TABLE amt2;
