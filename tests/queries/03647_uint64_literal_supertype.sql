-- A UInt64 literal that fits Int64 goes with signed integers as Int64 (ClickHouse's
-- literal [-1, 4294967296] is Array(Int64)); found by difftest (NO_COMMON_TYPE).
SELECT [-1, 4294967296, -1], toTypeName([-1, 4294967296]);
SELECT toTypeName([toInt8(-1), 4294967296]), toTypeName(array(-1, 4294967296));
SELECT if(number = 0, -1, 4294967296) AS x, toTypeName(x) FROM numbers(2);
SELECT multiIf(number = 0, -1, number = 1, 4294967296, 3) AS x, toTypeName(x) FROM numbers(3);
SELECT has([1, 2, -3], 4294967296), countEqual([1, -2], 4294967296), indexOf([4294967296, -2], 4294967296), has([-1, 2], 2);
SELECT arrayMap(x -> x * 2, [-5, 9223372036854775807]);
SELECT [-1, 18446744073709551615]; -- { serverError NO_COMMON_TYPE }
SELECT (-1, 4294967296), toTypeName((-1, 4294967296));
-- has/indexOf/countEqual compare any two integers, whatever their signedness
SELECT has(emptyArrayInt32(), countSubstrings('x,y,z', '')), countEqual([-2, 1, 6], toUInt64(number)), indexOf([-2, 65536, -3, 4], number * 4) FROM numbers(3);
SELECT has(CAST([1, -1] AS Array(Int64)), toUInt64(18446744073709551615)), has(CAST([1, -1] AS Array(Nullable(Int64))), toUInt64(1));
