-- mapFilter, mapApply, mapExists, mapAll, mapSort, mapReverseSort
SELECT mapFilter((k, v) -> v > 1, map('a', 1, 'b', 2)), mapApply((k, v) -> (v, k), map('a', 1, 'b', 2));
SELECT mapSort(map('b', 1, 'a', 2)), mapReverseSort((k, v) -> v, map('b', 1, 'a', 2, 'c', 0));
SELECT mapExists((k, v) -> v > 1, map('a', 1, 'b', 2)), mapAll((k, v) -> v > 1, map('a', 1, 'b', 2));
SELECT mapFilter((k, v) -> v, map(1, toNullable(0), 2, NULL, 3, 5));
SELECT mapFilter((k, v) -> v > number, map(1, 1, 2, 2, 3, 3)) AS x, toTypeName(x), mapApply((k, v) -> (k || 'x', v * number), map('a', 1, 'b', 2)) FROM numbers(3);
SELECT mapSort(map(3, 'a', 1, 'b', 2, 'c')), mapReverseSort(map(3, 'a', 1, 'b', 2, 'c')), mapSort((k, v) -> v, map(3, 'b', 1, 'a', 2, 'c'));
SELECT mapApply((k, v) -> (toString(k), v + 1), map(1, 10, 2, 20)) AS m, toTypeName(m);
SELECT mapFilter((k, v) -> k LIKE 'a%', m) FROM (SELECT map('ab', 1, 'ba', 2, 'ac', 3) AS m);
SELECT mapFilter((k, v) -> 1, [1]); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT mapFilter(map(1, 2)); -- { serverError NUMBER_OF_ARGUMENTS_DOESNT_MATCH }
SELECT mapFilter((k, v, x) -> 1, map(1, 2)); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT mapExists(map(1, 2)); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
