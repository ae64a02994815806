-- groupUniqArray's state for numbers, dates and times is ClickHouse's HashSet of the values
-- (intHash64-hashed), cell for cell, with max_size; merged, read back, AggregatingMergeTree.
SELECT hex(groupUniqArrayState(number)), hex(groupUniqArrayState(toUInt8(number))), hex(groupUniqArrayState(2)(number)), hex(groupUniqArrayState(toDate(number))), hex(groupUniqArrayState(toFloat64(number))) FROM numbers(5);
SELECT hex(groupUniqArrayState(number)), hex(groupUniqArrayState(toNullable(number))), toTypeName(groupUniqArrayState(3)(number)) FROM numbers(0);
SELECT cityHash64(hex(groupUniqArrayState(number))), cityHash64(hex(groupUniqArrayState(toInt32(number * 7)))), cityHash64(hex(groupUniqArrayState(100)(number))), cityHash64(hex(groupUniqArrayState(toDateTime(number, 'UTC')))) FROM numbers(3000);
SELECT k, hex(groupUniqArrayState(number % 4)) FROM (SELECT number, number % 3 AS k FROM numbers(30)) GROUP BY k ORDER BY k;
SELECT groupUniqArrayMerge(s), length(groupUniqArrayMerge(t)), length(groupUniqArrayMerge(3)(l)) FROM (SELECT groupUniqArrayState(number % 10) s, groupUniqArrayState(number) t, groupUniqArrayState(3)(number) l FROM numbers(100) GROUP BY number % 7);
SELECT hex(groupUniqArrayMergeState(s)) FROM (SELECT groupUniqArrayState(number) s FROM numbers(20) GROUP BY number % 3 ORDER BY number % 3);
SELECT finalizeAggregation(CAST(unhex('0500000000000000000400000000000000020000000000000001000000000000000300000000000000'), 'AggregateFunction(groupUniqArray, UInt64)')), finalizeAggregation(CAST(unhex('050004020103'), 'AggregateFunction(groupUniqArray, UInt8)'));
SELECT CAST(unhex('0500000000000000000400'), 'AggregateFunction(groupUniqArray, UInt64)'); -- { serverError CANNOT_READ_ALL_DATA }
DROP TABLE IF EXISTS t_agg_gu;
CREATE TABLE t_agg_gu (k UInt8, g AggregateFunction(groupUniqArray, UInt32)) ENGINE = AggregatingMergeTree ORDER BY k;
INSERT INTO t_agg_gu SELECT number % 2, groupUniqArrayState(toUInt32(number)) FROM numbers(20) GROUP BY number % 2;
INSERT INTO t_agg_gu SELECT number % 2, groupUniqArrayState(toUInt32(number)) FROM numbers(10, 20) GROUP BY number % 2;
SELECT k, arraySort(groupUniqArrayMerge(g)) FROM t_agg_gu GROUP BY k ORDER BY k;
SELECT k, finalizeAggregation(g), hex(g) FROM t_agg_gu FINAL ORDER BY k;
OPTIMIZE TABLE t_agg_gu FINAL;
SELECT k, finalizeAggregation(g), hex(g) FROM t_agg_gu ORDER BY k;
DROP TABLE t_agg_gu;
