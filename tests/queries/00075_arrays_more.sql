SELECT arrayMin([3, 1, 2]), arrayMax([1.5, 2]), arrayMin(['b', 'a']), arrayMax(['b', 'a', 'c']), arrayMin(emptyArrayInt32()), arrayMax([NULL, 1, 3]), arrayMin([toInt8(-1)]);
SELECT arrayMin([nan, 1]), arrayMax([1, nan]), arrayMin([nan]), arrayMin([NULL]), arrayMin([NULL, NULL]::Array(Nullable(UInt8))), arrayMin([toDate('2020-01-01'), toDate('2019-05-05')]), arrayMax(emptyArrayString());
SELECT toTypeName(arrayMin([1, 2])), toTypeName(arrayMax([NULL, 1])), toTypeName(arrayMin([toDecimal32(1.5, 2)])), arrayMin([toDecimal32(1.5, 2), toDecimal32(-1, 2)]);
SELECT arrayConcat([1, 2], [3.5]), arrayConcat([1], [], [NULL]), arrayConcat(['a'], ['b', 'c']), arrayConcat([[1]], [[2, 3]]), toTypeName(arrayConcat([1], [NULL]));
SELECT arrayReverse([1, 2, 3]), arrayReverse(emptyArrayString()), arrayReverse(['a', NULL]);
SELECT arraySort([3, NULL, 1, nan, 2]), arraySort(['b', 'a', 'c']), arraySort([[2], [1, 5], [1]]), arrayReverseSort([3, NULL, 1, nan, 2]);
SELECT arrayDistinct([1, 1, NULL, 2, NULL]), arrayDistinct(['a', 'b', 'a']), arrayDistinct(emptyArrayUInt8()), toTypeName(arrayDistinct([1, NULL]));
SELECT arrayUniq([1, 1, NULL, 2]), arrayUniq([1, 2], [1, 3]), arrayUniq([1, 1, 1], [2, 2, 3]), arrayUniq([NULL, NULL]), arrayUniq(emptyArrayUInt8());
SELECT arrayPushBack([1], 2.5), arrayPushFront([1], NULL), arrayPushBack(emptyArrayString(), 'x'), arrayPushFront(['a'], 'b'), toTypeName(arrayPushBack([1], NULL));
SELECT arraySlice([1, 2, 3, 4, 5], 2, 2), arraySlice([1, 2, 3, 4, 5], -2), arraySlice([1, 2, 3, 4, 5], 2, -1), arraySlice([1, 2, 3], 0), arraySlice([1, 2, 3], 10), arraySlice([1, 2, 3], -10, 2);
SELECT arraySlice([1, 2, 3], 2, 0), arraySlice([1, 2, 3], -2, -5), arraySlice([1, 2, 3], -5, 3), arraySlice([1, 2, 3], 1, -1), arraySlice([1, 2, 3], -2, -1), arraySlice([1, 2, 3], -1, 5), arraySlice([1, 2, 3], -5, -1), arraySlice([1, 2, 3], -4, 2);
SELECT emptyArrayUInt8(), emptyArrayString(), toTypeName(emptyArrayFloat64()), toTypeName(emptyArrayDate()), toTypeName(emptyArrayInt64());
SELECT has([NULL, 1], NULL), has([1, 2], NULL), has([1, NULL], toNullable(1)), indexOf([1, NULL], NULL), countEqual([NULL, NULL, 1], NULL), toTypeName(has([1, NULL], NULL));
SELECT number, range(number) AS r, arrayMin(r), arrayMax(r), arrayReverse(r), arraySlice(r, 2, 2), arrayPushBack(r, number), arrayConcat(r, [9]), arrayUniq(arrayConcat(r, r)), arraySort(arrayReverse(r)) FROM numbers(4);
SELECT x, has([1, NULL, 3], x), indexOf([1, NULL, 3], x) FROM (SELECT if(number = 1, NULL, number) AS x FROM numbers(4));
SELECT arrayUniq([1, 2], [1]); -- { serverError SIZES_OF_ARRAYS_DONT_MATCH }
SELECT arrayConcat(1, [2]); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
