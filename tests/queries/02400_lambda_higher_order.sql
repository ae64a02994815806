-- Lambdas as arguments of higher-order functions: parameters, captured columns, nesting.
SELECT arrayMap(x -> x * 2, [1, 2, 3]);
SELECT arrayMap(x -> x + number, [10, 20]) FROM numbers(3) ORDER BY number;
SELECT arrayMap((x, y) -> concat(x, toString(y)), ['a', 'b'], [1, 2]);
SELECT arrayMap(x -> arrayMap(y -> x * 10 + y + number, [1, 2]), [1, 2]) FROM numbers(2) ORDER BY number;
SELECT arrayMap(x -> x, []), toTypeName(arrayMap(x -> x, []));
SELECT arrayMap(x -> 1, range(number)) FROM numbers(4) ORDER BY number;
SELECT arrayMap(x -> x + 1, [1, NULL, 3]), toTypeName(arrayMap(x -> x + 1, [1, NULL, 3]));
SELECT arrayMap(x -> toTypeName(x), [toLowCardinality('a')]), toTypeName(arrayMap(x -> x, [toLowCardinality('a')]));
SELECT arrayMap(x -> (x, number), [1, 2]) FROM numbers(2) ORDER BY number;
SELECT arrayMap(x -> x || 'z', splitByChar(',', 'a,b,c'));
-- a lambda parameter hides a column or an alias of the same name
SELECT number AS x, arrayMap(x -> x * 100, [1, 2]) FROM numbers(2) ORDER BY x;
SELECT 5 AS y, arrayMap(x -> x + y, [1, 2]);
-- outer aggregates and GROUP BY keys inside a lambda
SELECT arrayMap(x -> x + sum(number), [1, 2]) FROM numbers(4);
SELECT number % 2 AS k, arrayMap(x -> x * k + count(), [1, 2]) FROM numbers(5) GROUP BY k ORDER BY k;
SELECT arrayFilter(x -> x % 2 = 0, groupArray(number)) FROM numbers(7);
SELECT arraySort(x -> -x, groupArray(number)) FROM (SELECT number FROM numbers(5) ORDER BY number);
-- in WHERE and ORDER BY
SELECT number FROM numbers(6) WHERE arrayExists(x -> x = number, [1, 3, 5]) ORDER BY number;
SELECT number FROM numbers(4) ORDER BY arraySum(x -> x * number, [1, -1, -1]), number;
-- errors
SELECT x -> x; -- { serverError BAD_ARGUMENTS }
SELECT arrayMap([1, 2]); -- { serverError NUMBER_OF_ARGUMENTS_DOESNT_MATCH }
SELECT arrayMap(x -> x, 1); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT arrayMap(x -> x, NULL); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT arrayMap((x, y) -> x, [1]); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT arrayMap(x -> x, [1], [2]); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT arrayMap((x, y) -> x + y, [1, 2], [1]); -- { serverError SIZES_OF_ARRAYS_DONT_MATCH }
SELECT arrayMap((x, y) -> x + y, range(number), range(2)) FROM numbers(3); -- { serverError SIZES_OF_ARRAYS_DONT_MATCH }
SELECT arrayMap(x -> x + z, [1]); -- { serverError UNKNOWN_IDENTIFIER }
SELECT arrayFilter(x -> x - 1, [1, 2]); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT arrayFilter(x -> 'a', [1, 2]); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT arrayFirst([1, 2]); -- { serverError NUMBER_OF_ARGUMENTS_DOESNT_MATCH }
SELECT arrayCount([1], [2]); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT arrayCount([1000]); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT arraySort(x -> x, [1], [2]); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT arrayFirstOrNull(x -> 1, [[1]]); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT arrayFold((acc, x) -> acc + x, [1, 2, 3], 0); -- { serverError TYPE_MISMATCH }
