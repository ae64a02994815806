-- uniq's state is ClickHouse's UniquesHashSet, cell for cell: small sets, resizes, the
-- thinning past 65536 hashes (skip_degree), Nullable, merges, and states read back.
SELECT hex(uniqState(number)) FROM numbers(3);
SELECT hex(uniqState(number)) FROM numbers(20);
SELECT hex(uniqState(number)) FROM numbers(0);
SELECT hex(uniqState(toNullable(number))) FROM numbers(3);
SELECT cityHash64(hex(uniqState(number))), uniq(number), length(hex(uniqState(number))) FROM numbers(100000);
SELECT cityHash64(hex(uniqState(toInt32(number * 7)))) FROM numbers(5000);
SELECT cityHash64(hex(uniqState(number * 0.5))) FROM numbers(3000);
SELECT cityHash64(hex(uniqState(toUInt8(number)))), cityHash64(hex(uniqState(toDate(number)))) FROM numbers(3000);
SELECT cityHash64(hex(uniqMergeState(s))), uniqMerge(s) FROM (SELECT number % 7 k, uniqState(number) s FROM numbers(300000) GROUP BY k ORDER BY k);
SELECT k, uniqMerge(s) FROM (SELECT number % 3 k, uniqState(number) s FROM numbers(100) GROUP BY number % 10, k) GROUP BY k ORDER BY k;
SELECT finalizeAggregation(CAST(unhex('0003000000002CCBC234E7830665'), 'AggregateFunction(uniq, UInt64)'));
SELECT finalizeAggregation(CAST(unhex('010003000000002CCBC234E7830665'), 'AggregateFunction(uniq, Nullable(UInt64))'));
SELECT CAST(unhex('00030000000000'), 'AggregateFunction(uniq, UInt64)'); -- { serverError CANNOT_READ_ALL_DATA }
