-- sumMap, minMap, maxMap, sumMapWithOverflow over key and value arrays: keys sorted, values
-- promoted to 64 bits for sumMap (the others keep the values' type and cut to it), keys whose
-- sums are all zero dropped by sumMap, NULL values skipped; the one-tuple form (the result
-- fed back); the Map form (sum/min/max per key of a Map column); errors.
SELECT sumMap(k, v), sumMapWithOverflow(k, v), minMap(k, v), maxMap(k, v) FROM (SELECT arrayMap(x -> x % 4, range(number % 5)) AS k, arrayMap(x -> toUInt8(x * 50 + number), range(number % 5)) AS v FROM numbers(20));
SELECT toTypeName(sumMap([1], [toUInt8(1)])), toTypeName(sumMapWithOverflow([1], [toUInt8(1)])), toTypeName(minMap([1], [toUInt8(1)])), toTypeName(sumMap([toInt16(1)], [toInt16(1)])), toTypeName(sumMap([1], [toFloat32(1)])), toTypeName(maxMap([1], [toFloat32(1)])), toTypeName(sumMap([1], [toDecimal32(1, 2)]));
SELECT sumMap(k, v), sumMapWithOverflow(k, v), minMap(k, v), maxMap(k, v) FROM (SELECT [1, 2, 3, 4] AS k, [toInt8(number) - 1, -toInt8(number), 100, 0] AS v FROM numbers(3));
SELECT sumMap(k, v), minMap(k, v), maxMap(k, v), sumMap(k, d), minMap(k, d) FROM (SELECT [number % 3, 7] AS k, [toFloat32(number) / 4, -0.5] AS v, [toDecimal32(number, 2) / 3, toDecimal32(-1.25, 2)] AS d FROM numbers(10));
SELECT sumMap(k, a, b), maxMap(k, a, b), toTypeName(sumMap(k, a, b)) FROM (SELECT ['b', 'a', 'c'] AS k, [number, 1, 0] AS a, [toInt32(number) - 2, -1, 0] AS b FROM numbers(4));
SELECT sumMap(k, v) FROM (SELECT [toDate('2024-01-01') + number % 3] AS k, [toUInt16(number)] AS v FROM numbers(9));
SELECT minMap(k, v), maxMap(k, v) FROM (SELECT [1, 2] AS k, [toDate('2024-03-01') - number, toDate('2024-03-01') + number] AS v FROM numbers(5));
SELECT sumMap(k, v), minMap(k, v), maxMap(k, v), toTypeName(sumMap(k, v)) FROM (SELECT [1, 2, 3] AS k, [if(number = 0, NULL, toNullable(toUInt8(number))), CAST(NULL AS Nullable(UInt8)), toNullable(toUInt8(0))] AS v FROM numbers(3));
SELECT sumMap((k, v)), minMap((k, v)), toTypeName(sumMap((k, v))) FROM (SELECT [number % 2, 5] AS k, [number, 1] AS v FROM numbers(6));
SELECT sumMap(s), maxMap(s) FROM (SELECT sumMap(k, v) AS s FROM (SELECT [number % 4] AS k, [number] AS v FROM numbers(40)) GROUP BY intDiv(k[1], 2));
SELECT number % 3 AS g, sumMap([toString(number % 5)], [number]), maxMap([number % 4], [toInt64(number) * -1]) FROM numbers(100) GROUP BY g ORDER BY g;
SELECT sumMapIf([number % 3], [number], number % 2 = 0), minMapIf([number % 3], [number], number > 4) FROM numbers(20);
SELECT sumMap(k, v), minMap(k, v) FROM (SELECT [1] AS k, [2] AS v) WHERE 0;
SELECT sumMap(k, v) FROM (SELECT [1, 2] AS k, [toUInt64(0), toUInt64(0)] AS v FROM numbers(2));
SELECT sumMap([18446744073709551615], [number]), sumMap([-1, 1], [toInt64(9223372036854775807), toInt64(number)]) FROM numbers(3);
-- the Map form: one sum / min / max per key, keys sorted
SELECT sumMap(m), minMap(m), maxMap(m), toTypeName(sumMap(m)), toTypeName(minMap(m)) FROM (SELECT map('b', toUInt8(number), 'a', toUInt8(1), concat('k', toString(number % 3)), 7) AS m FROM numbers(10));
SELECT sumMap(m), maxMap(m), toTypeName(sumMap(m)) FROM (SELECT map(number % 4, toFloat32(number) / 2, 100, -1) AS m FROM numbers(9));
SELECT number % 2 AS g, sumMap(map(number % 3, number)), minMap(map(toString(number % 4), toString(number))) FROM numbers(20) GROUP BY g ORDER BY g;
SELECT sumMap(map(1, n)), toTypeName(sumMap(map(1, n))) FROM (SELECT if(number = 1, NULL, toNullable(number)) AS n FROM numbers(3));
SELECT sumMap([1], [2], 3); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT sumMap([1]); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT sumMap([1], ['a']); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT sumMap([1], [toDate('2024-01-01')]); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT sumMap([1, 2], [1]); -- { serverError BAD_ARGUMENTS }
SELECT sumMapWithOverflow(map(1, 1)); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT sumMap(map(1.5, 1)); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
