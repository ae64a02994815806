-- arrayZip, arrayResize, arrayEnumerateUniq, arrayEnumerateDense
SELECT arrayZip([1, 2], ['a', 'b']), toTypeName(arrayZip([1], ['a'])), arrayZip([1], ['a'], [[2]]), arrayZip(materialize([1, 2]), [3, 4]);
SELECT arrayZip(range(number), arrayMap(x -> toString(x), range(number))) FROM numbers(3);
SELECT arrayResize([1, 2, 3], 1), arrayResize([1], 3), arrayResize(['a'], 3, 'z'), arrayResize([1, 2], -1), arrayResize([1, 2], -4, 9);
SELECT arrayResize([1, 2], 3, NULL) AS x, toTypeName(x), arrayResize([1], 2, 1000) AS y, toTypeName(y), arrayResize(materialize([1, 2, 3]), number) FROM numbers(2);
SELECT arrayResize([[1]], 2), arrayResize(['a'], 2), arrayResize([NULL, 1], 3);
SELECT arrayResize(arr, number - 2, number) FROM (SELECT range(number) AS arr, number FROM numbers(5));
SELECT arrayEnumerateUniq([1, 2, 1, 1, 3, 2]), arrayEnumerateUniq([1, 1, 2], [1, 1, 1]), arrayEnumerateDense([10, 20, 10, 30]);
SELECT arrayEnumerateUniq([NULL, 1, NULL]), arrayEnumerateDense([NULL, NULL, 1]), arrayEnumerateUniq([]), arrayEnumerateDense(['a', 'b', 'a']);
SELECT arrayEnumerateUniq(arr), arrayEnumerateDense(arr) FROM (SELECT [number % 3, number % 2, number % 3, 1] AS arr FROM numbers(4));
SELECT arrayEnumerateUniq(range(number % 4), arrayMap(x -> x % 2, range(number % 4))) FROM numbers(5);
SELECT arrayZip([1], [1, 2]); -- { serverError SIZES_OF_ARRAYS_DONT_MATCH }
SELECT arrayZip(1); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT arrayResize([1], 'a'); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT arrayResize([1], 2, 'a'); -- { serverError NO_COMMON_TYPE }
SELECT arrayResize([1], 10000000000); -- { serverError TOO_LARGE_ARRAY_SIZE }
SELECT arrayEnumerateUniq([1, 2], [1]); -- { serverError SIZES_OF_ARRAYS_DONT_MATCH }
