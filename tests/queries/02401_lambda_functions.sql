-- Every higher-order function: results, result types, NULLs, empty arrays, several arrays.
DROP TABLE IF EXISTS hof;
CREATE TABLE hof (k UInt32, a Array(Int32), n Array(Nullable(Int32)), s Array(LowCardinality(String)), f Array(Float64)) ENGINE = Memory;
INSERT INTO hof VALUES (1, [3, -1, 2], [1, NULL, 3], ['b', 'a', 'c'], [1.5, nan, -2]), (2, [], [], [], []), (3, [5, 5, 0, 7], [NULL, NULL, 2, 0], ['x', 'yy', '', 'x'], [0.25, 4, 1e10, -0.5]);
SELECT k, arrayMap(x -> x * 2, a), arrayMap(x -> x * 2, n), arrayMap(x -> length(x), s), arrayMap(x -> floor(x), f) FROM hof ORDER BY k;
SELECT k, arrayFilter(x -> x > 0, a), arrayFilter(x -> x > 1, n), arrayFilter(x -> x != 'x', s), toTypeName(arrayFilter(x -> x != 'x', s)) FROM hof ORDER BY k;
SELECT k, arrayCount(x -> x > 0, a), arrayCount(x -> isNull(x), n), arrayExists(x -> x = 'a', s), arrayAll(x -> x >= 0, a) FROM hof ORDER BY k;
SELECT k, arrayFirst(x -> x > 2, a), arrayLast(x -> x > 2, a), arrayFirstIndex(x -> x > 2, a), arrayLastIndex(x -> x > 2, a) FROM hof ORDER BY k;
SELECT k, arrayFirstOrNull(x -> x > 4, a), arrayLastOrNull(x -> x > 4, a), arrayFirstOrNull(x -> x > 0, n), toTypeName(arrayFirstOrNull(x -> x != '', s)) FROM hof ORDER BY k;
SELECT k, arrayFirst(x -> isNull(x), n), arrayLast(x -> x = 'zz', s), arrayFirst(x -> x < 0, f) FROM hof ORDER BY k;
SELECT k, arraySort(x -> -x, a), arrayReverseSort(x -> -x, a), arraySort(x -> x, n), arrayReverseSort(x -> x, n), arraySort(x -> x, f), arrayReverseSort(x -> x, f) FROM hof ORDER BY k;
SELECT k, arraySort((x, y) -> y, s, a), arrayReverseSort((x, y) -> y, s, a), arraySort(x -> length(x), s) FROM hof ORDER BY k;
SELECT arraySort(x -> x % 3, [1, 2, 3, 4, 5, 6, 7, 8, 9]), arrayReverseSort(x -> x % 3, [1, 2, 3, 4, 5, 6, 7, 8, 9]);
SELECT k, arrayCumSum(a), arrayCumSum(x -> x * 2, a), arrayCumSumNonNegative(a), arrayDifference(a), toTypeName(arrayCumSum(a)), toTypeName(arrayDifference(a)) FROM hof ORDER BY k;
SELECT k, arrayCumSum(f), arrayDifference(f), arrayCumSum((x, y) -> x * y, a, a) FROM hof ORDER BY k;
SELECT arrayCumSum([toUInt8(200), 100]), toTypeName(arrayCumSum([toUInt8(200), 100])), arrayDifference([toUInt8(1), 0]), toTypeName(arrayDifference([toUInt8(1), 0]));
SELECT arrayCumSum([toDecimal32(1.25, 2), 2]), toTypeName(arrayCumSum([toDecimal32(1.25, 2)])), arrayDifference([toDecimal64(3.5, 3), 1]), toTypeName(arrayDifference([toDecimal64(3.5, 3)]));
SELECT toTypeName(arrayDifference([toInt8(1)])), toTypeName(arrayDifference([toUInt16(1)])), toTypeName(arrayDifference([toUInt32(1)])), toTypeName(arrayDifference([toFloat32(1)])), arrayDifference(x -> x * 10, [1, 2, 4]);
SELECT k, arrayFill(x -> x > 0, a), arrayReverseFill(x -> x > 0, a), arrayFill(x -> isNotNull(x), n), arrayReverseFill(x -> isNotNull(x), n) FROM hof ORDER BY k;
SELECT k, arraySplit(x -> x > 2, a), arrayReverseSplit(x -> x > 2, a), arraySplit((x, y) -> y = 'x', a, s), toTypeName(arraySplit(x -> 1, s)) FROM hof ORDER BY k;
SELECT k, arraySum(x -> x * 2, a), arrayMin(x -> -x, a), arrayMax(x -> x % 4, a), arrayAvg(x -> x, f), arrayProduct(x -> x + 1, a) FROM hof ORDER BY k;
SELECT toTypeName(arraySum(x -> x * 2, [1, 2])), toTypeName(arrayAvg(x -> x, [1, 2])), toTypeName(arrayProduct(x -> x, [1, 2])), toTypeName(arrayMin(x -> x, ['a']));
SELECT arrayAvg([1, 2, 4]), arrayProduct([2, 3, 4]), arrayAvg([toDecimal32(1.5, 1), 2]), arrayAvg([toDecimal64(1, 3), 2, 2]), arrayAvg([toDecimal32(-1.5, 1), -2]), arrayProduct([toDecimal32(1.5, 1), toDecimal32(1.5, 1)]), arrayAvg([toInt64(9223372036854775807), toInt64(9223372036854775807)]), arrayProduct([toUInt64(18446744073709551615), 2]), arrayProduct([-1.5, 2]), arrayAvg(emptyArrayInt32()), arrayProduct(emptyArrayInt32());
SELECT arrayAvg([1, NULL]); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT arrayCumSum([1, NULL]); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT k, arrayFold((acc, x) -> acc + x, a, toInt64(0)), arrayFold((acc, x) -> concat(acc, x), s, ''), arrayFold((acc, x, y) -> acc + x * y, a, a, toInt64(100)) FROM hof ORDER BY k;
SELECT arrayFold((acc, x) -> acc * 2 + x, range(number), toUInt64(1)) FROM numbers(5) ORDER BY number;
SELECT arrayFold((acc, x) -> arrayPushBack(acc, x * number), [1, 2], CAST([], 'Array(UInt64)')) FROM numbers(3) ORDER BY number;
SELECT arrayCount([1, 0, 1]), arrayExists([0, 0]), arrayAll([1, 1]), arrayExists(x -> NULL, [1]), arrayFilter(x -> NULL, [1]), arrayFilter(x -> toNullable(1), [1]), arrayFilter(x -> true, [1]);
SELECT arrayExists(x -> x > 1, emptyArrayUInt8()), arrayAll(x -> x > 1, emptyArrayUInt8()), arrayFirst(x -> 1, emptyArrayString()), arrayFirstIndex(x -> 1, []), arrayFill(x -> x, []), arraySplit(x -> 1, []);
SELECT arrayEnumerate([]), arrayEnumerate(['a', 'b', 'c']), arrayEnumerate(range(number)) FROM numbers(3) ORDER BY number;
SELECT k, arrayReduce('sum', a), arrayReduce('max', s), arrayReduce('uniqExact', n), arrayReduce('count', n), arrayReduce('groupArray', n), arrayReduce('sumIf', a, arrayMap(x -> x > 0, a)) FROM hof ORDER BY k;
SELECT arrayReduce('quantile(0.5)', [1, 2, 3, 4]), arrayReduce('argMax', [1, 2, 3], [3, 9, 1]), toTypeName(arrayReduce('sum', [1, NULL])), arrayReduce('avg', emptyArrayInt32()), arrayReduce('corr', [1, 2, 3], [2, 4, 7]);
SELECT arrayReduce('nosuch', [1]); -- { serverError UNKNOWN_AGGREGATE_FUNCTION }
SELECT arrayReduce('sum', [1, 2], [3]); -- { serverError NUMBER_OF_ARGUMENTS_DOESNT_MATCH }
SELECT arrayReduce(x, [1]) FROM (SELECT 'sum' AS x); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT arrayReduce('sumIf', range(number), range(2)) FROM numbers(3); -- { serverError SIZES_OF_ARRAYS_DONT_MATCH }
-- the average of a constant lambda result is that constant (no wrapped sum)
SELECT arrayAvg(x -> toUInt64(10000000000000000000), [1, 2]), arraySum(x -> toUInt64(10000000000000000000), [1, 2]), arrayAvg(x -> 5, []);
SELECT arrayAvg(x -> sipHash64('NULL'), range(number)) FROM numbers(3) ORDER BY number;
DROP TABLE hof;
