-- groupUniqArray of String / FixedString: ClickHouse's HashSetWithSavedHash of the bytes
-- (StringRefHash: CRC-32C words, CityHash steps under 8 bytes), so the result order and the
-- state are ClickHouse's; the empty string is its zero key, listed first.
SELECT groupUniqArray(toString(number)), hex(groupUniqArrayState(toString(number))) FROM numbers(3);
SELECT groupUniqArray(toString(number)), hex(groupUniqArrayState(toString(number))) FROM numbers(0);
SELECT groupUniqArray(concat('key', toString(number % 50))) FROM numbers(200);
SELECT groupUniqArray(repeat('x', number % 20)), groupUniqArray(concat(repeat('long', 5), toString(number % 13))) FROM numbers(100);
SELECT cityHash64(hex(groupUniqArrayState(concat('k', toString(number))))), cityHash64(toString(groupUniqArray(concat('k', toString(number))))) FROM numbers(10000);
SELECT groupUniqArray(if(number % 3 = 0, '', toString(number % 10))), hex(groupUniqArrayState(toFixedString(toString(number % 7), 2))), groupUniqArray(3)(toString(number)), groupUniqArray(toFixedString(toString(number % 11), 3)) FROM numbers(30);
SELECT groupUniqArray(toNullable(toString(number % 4))), groupUniqArray(if(number % 2 = 0, NULL, toString(number % 6))), groupUniqArray(toLowCardinality(toString(number % 5))) FROM numbers(40);
SELECT number % 3 AS k, groupUniqArray(toString(number % 9)) FROM numbers(60) GROUP BY k ORDER BY k;
SELECT groupUniqArrayMerge(s) FROM (SELECT groupUniqArrayState(toString(number % 40)) s FROM numbers(100) GROUP BY number % 3 ORDER BY number % 3);
SELECT finalizeAggregation(CAST(unhex('03013101300132'), 'AggregateFunction(groupUniqArray, String)'));
SELECT finalizeAggregation(CAST(unhex('0400013101300132'), 'AggregateFunction(groupUniqArray, String)'));
SELECT groupUniqArrayMerge(CAST(unhex(h), 'AggregateFunction(groupUniqArray, String)')) FROM (SELECT hex(groupUniqArrayState(toString(number % 23))) AS h FROM numbers(100) GROUP BY number % 2 ORDER BY number % 2);
DROP TABLE IF EXISTS t_agg_gus;
CREATE TABLE t_agg_gus (k UInt8, g AggregateFunction(groupUniqArray, String)) ENGINE = AggregatingMergeTree ORDER BY k;
INSERT INTO t_agg_gus SELECT number % 2, groupUniqArrayState(toString(number % 17)) FROM numbers(40) GROUP BY number % 2;
INSERT INTO t_agg_gus SELECT number % 2, groupUniqArrayState(concat('z', toString(number % 9))) FROM numbers(40) GROUP BY number % 2;
OPTIMIZE TABLE t_agg_gus FINAL;
SELECT k, finalizeAggregation(g), hex(g) FROM t_agg_gus ORDER BY k;
DROP TABLE t_agg_gus;
