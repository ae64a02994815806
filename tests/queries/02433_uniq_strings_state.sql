-- uniq of strings (CityHash64 keys) and of several arguments or a tuple (ClickHouse's
-- variadic CityHash chain, used as the hash): states byte-identical, estimates equal,
-- merges, states read back, AggregatingMergeTree.
SELECT hex(uniqState(toString(number))), hex(uniqState(number, toString(number))), hex(uniqState((number, 'a'))), hex(uniqState(toFixedString(toString(number), 3), toInt8(number))) FROM numbers(4);
SELECT hex(uniqState(toString(number))), hex(uniqState(number, number)) FROM numbers(0);
SELECT cityHash64(hex(uniqState(concat('x', toString(number))))), uniq(concat('x', toString(number))), cityHash64(hex(uniqState(number, concat('x', toString(number))))), uniq(number, concat('x', toString(number))) FROM numbers(200000);
SELECT cityHash64(hex(uniqState(toDate(number), concat('y', toString(number)), toFloat32(number)))) FROM numbers(5000);
SELECT k, hex(uniqState(concat('s', toString(number % 4)))) FROM (SELECT number, number % 3 AS k FROM numbers(30)) GROUP BY k ORDER BY k;
SELECT uniqMerge(s), uniqMerge(t) FROM (SELECT uniqState(concat('z', toString(number % 1000))) s, uniqState(number % 77, toString(number % 5)) t FROM numbers(10000) GROUP BY number % 7);
SELECT finalizeAggregation(CAST(unhex('0004D165BB3E02BC4B7BBADF6DD8C1C91E61'), 'AggregateFunction(uniq, String)')), finalizeAggregation(CAST(unhex('00046BE281CFD399A33E1007EC5596A84BD6'), 'AggregateFunction(uniq, UInt64, String)'));
DROP TABLE IF EXISTS t_agg_uqs;
CREATE TABLE t_agg_uqs (k UInt8, u AggregateFunction(uniq, String), v AggregateFunction(uniq, UInt32, String)) ENGINE = AggregatingMergeTree ORDER BY k;
INSERT INTO t_agg_uqs SELECT number % 2, uniqState(concat('a', toString(number))), uniqState(toUInt32(number), 'b') FROM numbers(20) GROUP BY number % 2;
INSERT INTO t_agg_uqs SELECT number % 2, uniqState(concat('a', toString(number))), uniqState(toUInt32(number), 'b') FROM numbers(10, 20) GROUP BY number % 2;
SELECT k, uniqMerge(u), uniqMerge(v) FROM t_agg_uqs GROUP BY k ORDER BY k;
SELECT k, finalizeAggregation(u), hex(u), hex(v) FROM t_agg_uqs FINAL ORDER BY k;
OPTIMIZE TABLE t_agg_uqs FINAL;
SELECT k, finalizeAggregation(u), finalizeAggregation(v), hex(u), hex(v) FROM t_agg_uqs ORDER BY k;
DROP TABLE t_agg_uqs;
