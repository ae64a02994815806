-- transform(x, from, to[, default]): types, defaults, strings, errors
SELECT transform(number, [1, 2], [10, 20]) AS a, toTypeName(a) FROM numbers(4);
SELECT transform(number, [1, 2], [1000, -1], 7) AS b, toTypeName(b) FROM numbers(4);
SELECT transform(toString(number), ['1', '2'], ['a', 'b']) FROM numbers(4);
SELECT transform(number, [1], ['one'], 'other') FROM numbers(3);
SELECT transform(toString(number), ['1'], [5], 0) AS e, toTypeName(e) FROM numbers(3);
SELECT transform(number, [1], [5], number * 100) AS x, toTypeName(x) FROM numbers(3);
SELECT transform(2, [1], [5], NULL) AS y, toTypeName(y);
SELECT transform(1.5, [1.5], [5], 0), transform(2, [1.5, 2], [5, 6], 0), transform(1, [1.5], ['a'], 'b');
SELECT transform(number % 3, [0, 0, 1], [7, 8, 9], 0) FROM numbers(3);
SELECT transform(number, [], [], 0) AS x, toTypeName(x) FROM numbers(2);
SELECT transform(materialize('b'), ['a', 'b', 'c'], ['x', 'y', 'z'], 'none');
SELECT transform(number, range(100), arrayMap(x -> x * 2, range(100)), 0) FROM numbers(95, 10);
SELECT transform(1, [1]); -- { serverError NUMBER_OF_ARGUMENTS_DOESNT_MATCH }
SELECT transform(number, [1, 2], [1], 0) FROM numbers(3); -- { serverError BAD_ARGUMENTS }
SELECT transform(number, [1, 2], ['a', 'b']) FROM numbers(3); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT transform(number, [1], [-1]) FROM numbers(2); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT transform(1, [1], ['a'], 2); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT transform(x, [1], [5], 0) AS y, toTypeName(y) FROM (SELECT arrayJoin([NULL, 1, 2]::Array(Nullable(UInt8))) AS x);
SELECT transform(x, [1, NULL], [5, 6], 0) AS y, toTypeName(y) FROM (SELECT arrayJoin([NULL, 1, 2]::Array(Nullable(UInt8))) AS x);
SELECT transform(x, [1], ['a'], 'b') AS y FROM (SELECT arrayJoin([NULL, 1, 2]::Array(Nullable(UInt8))) AS x);
SELECT transform(x, [1], [5]) FROM (SELECT arrayJoin([NULL, 1, 2]::Array(Nullable(UInt8))) AS x); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT transform(number, [0, 1, 2, -1], [10, 20, 30, 40], -1), transform(toNullable(number), [0, 1, 2, -1], [10, 20, 30, 40], 1) FROM numbers(4);
SELECT transform(toInt8(-1), [255], [1], 0), transform(toUInt8(255), [-1], [1], 0);
