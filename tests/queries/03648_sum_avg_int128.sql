-- sum and avg of Int128/UInt128: the sum keeps the type and wraps, avg is Float64 (found by
-- difftest: ILLEGAL_TYPE_OF_ARGUMENT).
SELECT sum(toUInt128(number)), toTypeName(sum(toUInt128(number))), avg(toUInt128(number)), sum(toInt128(-number)), toTypeName(sum(toInt128(1))), avg(toInt128(number)) FROM numbers(5);
SELECT sum(toUInt128('340282366920938463463374607431768211455')), avg(toUInt128('340282366920938463463374607431768211455')) FROM numbers(2);
SELECT sum(x), avg(x) FROM (SELECT toInt128('-170141183460469231731687303715884105728') + number AS x FROM numbers(3));
SELECT number % 3 AS k, sum(toUInt128(number) * toUInt128('1000000000000000000000')), avg(toInt128(number)) FROM numbers(10) GROUP BY k ORDER BY k;
SELECT sum(toNullable(toUInt128(number))), avg(CAST(if(number = 1, NULL, number) AS Nullable(Int128))), sumIf(toInt128(number), number > 2) FROM numbers(5);
SELECT sum(toUInt128(number)), avg(toInt128(number)) FROM numbers(0);
SELECT finalizeAggregation(sumState(toUInt128(7))), hex(sumState(toInt128(-1)));
