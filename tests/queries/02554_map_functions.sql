-- mapFromArrays, mapConcat, mapUpdate, mapContainsKeyLike, mapExtractKeyLike
SELECT mapFromArrays(['a', 'b', 'a'], [1, 2, 3]) AS m, toTypeName(m);
SELECT mapFromArrays([1, 2], [3, NULL]), mapFromArrays(map(1, 2), [3]), MAP_FROM_ARRAYS(['x'], ['y']);
SELECT mapFromArrays(range(number), range(number)), mapFromArrays([[1]], [number]) FROM numbers(3);
SELECT mapFromArrays(CAST([1, 2], 'Array(Nullable(UInt8))'), ['a', 'b']) AS m, toTypeName(m);
SELECT mapConcat(map('a', 1, 'b', 2), map('a', 3)), mapConcat(map('a', 1, 'a', 2), map('c', 3)), mapConcat(map(1, 2));
SELECT mapConcat(map('a', 1), map('b', 1000)) AS m, toTypeName(m);
SELECT mapConcat(map('k', number), map('n', number * 10)) FROM numbers(3);
SELECT mapUpdate(map('a', 1, 'b', 2), map('b', 5, 'c', 6)), mapUpdate(map('a', 1, 'a', 2, 'b', 7), map('a', 3)), mapUpdate(map('a', 1, 'b', 2), map('a', 3, 'a', 4));
SELECT mapUpdate(map('k', number), map('k', number + 1, 'j', 0)) FROM numbers(2);
SELECT mapContainsKeyLike(map('abc', 1), 'a%'), mapContainsKeyLike(map('abc', 1), 'b%'), mapExtractKeyLike(map('abc', 1, 'x', 2), 'a%');
SELECT mapContainsKeyLike(map('a', 2), materialize('a')), mapExtractKeyLike(map('abc', number, 'x', 2), '%' || toString(number)) FROM numbers(3);
SELECT mapExtractKeyLike(map(toLowCardinality('ab'), 1, 'cd', 2), '%d');
SELECT mapFromArrays([1, 2], [3]); -- { serverError SIZES_OF_ARRAYS_DONT_MATCH }
SELECT mapFromArrays([NULL], [3]); -- { serverError BAD_ARGUMENTS }
SELECT mapFromArrays(1, [3]); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT mapConcat(); -- { serverError NUMBER_OF_ARGUMENTS_DOESNT_MATCH }
SELECT mapConcat(map('a', 1), map(1, 2)); -- { serverError NO_COMMON_TYPE }
SELECT mapUpdate(map('a', 1), map('a', 1000)); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT mapContainsKeyLike(map(1, 2), '1'); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
