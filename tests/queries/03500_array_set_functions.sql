SELECT hasAll([1,2,3],[2,1]), hasAll([], []), hasAll([1], []), hasAny([1,NULL],[NULL]), hasAll([1.0, 2], [toUInt8(1)]), hasSubstr([1,2,3,4],[2,3]), hasSubstr([1,2,3],[]), hasAny(['a'],['a','b']), hasAll([[1,2]],[[1,2]]);
SELECT hasAll([nan],[nan]), hasAny([0.],[-0.]), hasAll([toNullable(1)],[1]), hasAll(NULL,[1]);
SELECT hasAll([1], [toInt64(1)]), hasAll([1],[300]), hasAll([toLowCardinality('a')], ['a']), hasAll(['a'],[toFixedString('a',1)]), hasAll([toFixedString('a',2)],['a']);
SELECT hasAll([toFixedString('a',2)],[toFixedString('a',3)]), hasAll([toFixedString('a',2)],['a\0']), hasAny(['a'], [toFixedString('a',2)]), hasSubstr([toFixedString('a',2)],['a']);
SELECT hasAll([1,2],[1.5]), hasAll([1], [1.0]), hasAll([toDate('2020-01-01')],[toDateTime('2020-01-01 00:00:00','UTC')]), hasAll(['a'], [toLowCardinality(toNullable('a'))]);
SELECT hasSubstr([1,2,1,2,3],[1,2,3]), hasSubstr([NULL,1],[NULL]), hasSubstr([],[]), hasSubstr([1],[1,1]), hasAll([(1,'a')],[(1,'a')]), hasAny([[1,NULL]],[[1,NULL]]);
SELECT hasAny([1],[NULL]), hasAll([NULL],[]), hasSubstr([1,NULL,2],[NULL,2]), hasAny([],[]), hasAny(CAST([] AS Array(Nullable(UInt8))), [NULL]);
SELECT number, hasAll(range(number), [1, 2]), hasAny(range(number), [materialize(3)]), hasSubstr(range(number + 1), range(number)) FROM numbers(5);
SELECT hasAll(x, y), hasAny(x, y), hasSubstr(x, y) FROM (SELECT arrayMap(i -> toString(i % 3), range(number)) AS x, ['1', '0'] AS y FROM numbers(4));
SELECT hasAll(materialize([toNullable(1), NULL]), [NULL]), hasAny(toNullable(1) = 1 ? [1] : [2], [2]);
SELECT hasAll([1],[1],[1]); -- { serverError NUMBER_OF_ARGUMENTS_DOESNT_MATCH }
SELECT hasAll([1]); -- { serverError NUMBER_OF_ARGUMENTS_DOESNT_MATCH }
SELECT hasAny([1], 1); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT hasAll(1, [1]); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT hasAll([1],['a']); -- { serverError NO_COMMON_TYPE }
SELECT hasAll([toUInt64(1)],[toInt64(-1)]); -- { serverError NO_COMMON_TYPE }
SELECT arrayPopFront([]), arrayPopBack([1]), arrayPopFront([1,2,NULL]), arrayPopBack(['a','b']), arrayPopFront(['x', 'y', 'z']), arrayPopBack([[1], [2, 3]]);
SELECT number, arrayPopFront(range(number)), arrayPopBack(range(number)) FROM numbers(4);
SELECT arrayPopFront(1); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT arrayPopBack(); -- { serverError NUMBER_OF_ARGUMENTS_DOESNT_MATCH }
SELECT arrayCompact([1,1,2,2,1,NULL,NULL,nan,nan]), arrayCompact([]), arrayCompact(['a','a','b']), arrayCompact([0., -0.]);
SELECT arrayCompact([toLowCardinality('a'), 'a', 'b']), arrayCompact([[1], [1], [2], []]), arrayCompact([(1, 'a'), (1, 'a')]);
SELECT arrayCompact(arrayMap(x -> intDiv(x, 3), range(number))) FROM numbers(7);
SELECT arrayCompact('a'); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT arrayFlatten([[1],[2,3]]), arrayFlatten([[[1]],[[2],[]]]), flatten([]), arrayFlatten([1,2]), arrayFlatten([[NULL], [1]]), arrayFlatten([['a'], [], ['b', 'c']]);
SELECT arrayFlatten(arrayMap(x -> range(x), range(number))) FROM numbers(5);
SELECT arrayFlatten(1); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT emptyArrayToSingle(emptyArrayString()), emptyArrayToSingle([NULL]), emptyArrayToSingle(CAST([] AS Array(Nullable(UInt8)))), emptyArrayToSingle([1,2]), emptyArrayToSingle(CAST([] AS Array(Array(UInt8)))), emptyArrayToSingle(CAST([] AS Array(LowCardinality(String)))), emptyArrayToSingle(CAST([] AS Array(Tuple(UInt8,String))));
SELECT emptyArrayToSingle(range(number)) FROM numbers(3);
SELECT emptyArrayToSingle(1); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT arrayWithConstant(3, 'a'), arrayWithConstant(0, 1), arrayWithConstant(2, NULL), toTypeName(arrayWithConstant(1, toNullable(1))), arrayWithConstant(number, number) FROM numbers(3);
SELECT arrayWithConstant(1.5, 1), arrayWithConstant(2, [1]), arrayWithConstant(toUInt8(2), toLowCardinality('x'));
SELECT arrayWithConstant(toInt8(-1), 1); -- { serverError TOO_LARGE_ARRAY_SIZE }
SELECT arrayWithConstant(1000000001, 1); -- { serverError TOO_LARGE_ARRAY_SIZE }
SELECT arrayWithConstant(toUInt64(18446744073709551615), 1); -- { serverError TOO_LARGE_ARRAY_SIZE }
SELECT arrayWithConstant(NULL, 1); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT arrayWithConstant('a', 1); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT replicate(1, [1,2]), replicate('a', []), replicate(NULL, [1]), replicate([1], ['x','y']), replicate(number, range(number)) FROM numbers(3);
SELECT replicate(1, 2); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT arrayRotateLeft([1,2,3],1), arrayRotateRight([1,2,3],1), arrayRotateLeft([1,2,3],-4), arrayRotateLeft([],3), arrayShiftLeft([1,2,3],1), arrayShiftRight([1,2,3],1), arrayShiftLeft([1,2,3],1, 9), arrayShiftRight(['a','b'],5), arrayShiftLeft([1,2,3],-1);
SELECT arrayRotateLeft([1,2,3],toUInt64(5)), arrayRotateRight([1,2,3],-1), arrayShiftRight([1,2,3],toUInt64(18446744073709551615)), arrayShiftLeft([1,2,3], 100, 7);
SELECT arrayShiftLeft([1,2,3], toInt64(-9223372036854775808)); -- { serverError VALUE_IS_OUT_OF_RANGE_OF_DATA_TYPE }
SELECT arrayRotateLeft([1], toInt64(-9223372036854775808)); -- { serverError VALUE_IS_OUT_OF_RANGE_OF_DATA_TYPE }
SELECT arrayRotateRight(range(number), number), arrayShiftLeft(range(5), number, toUInt8(number)), arrayShiftRight([NULL, 'a'], number, 'z') FROM numbers(4);
SELECT arrayRotateLeft([1,2,3], 1.5); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT arrayShiftLeft([1,2,3], 1, 'a'); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT arrayRotateLeft(1, 1); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT arrayWithConstant(toNullable(2), 1); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT replicate(toNullable(1), [1]), toTypeName(replicate(NULL, [1])), replicate(NULL, [1]);
SELECT toTypeName(arrayPopFront(CAST(['a'], 'Array(LowCardinality(String))'))), toTypeName(arrayCompact(CAST(['a'], 'Array(LowCardinality(String))'))),toTypeName(arrayFlatten(CAST([['a']], 'Array(Array(LowCardinality(String)))'))),toTypeName(emptyArrayToSingle(CAST(['a'], 'Array(LowCardinality(String))'))), toTypeName(arrayRotateLeft(CAST(['a'], 'Array(LowCardinality(String))'), 1)), toTypeName(arrayShiftLeft(CAST(['a'], 'Array(LowCardinality(String))'), 1)), toTypeName(arrayWithConstant(1, toLowCardinality('a'))), toTypeName(replicate(toLowCardinality('a'), [1]));
SELECT arrayPopBack(CAST(['a', 'b'], 'Array(LowCardinality(String))')), arrayShiftRight(CAST(['a', 'b'], 'Array(LowCardinality(Nullable(String)))'), 1);
SELECT toTypeName(arrayCompact(NULL)), toTypeName(hasAll(NULL, NULL)), arrayPopFront(NULL);
DROP TABLE IF EXISTS t_arrset;
CREATE TABLE t_arrset (a Array(LowCardinality(String)), b Array(Nullable(Int32)), s LowCardinality(Nullable(String)), n Nullable(UInt8)) ENGINE = Memory;
INSERT INTO t_arrset VALUES (['a', 'b', 'b'], [1, NULL, 2], 'x', 1), ([], [], NULL, NULL), (['c'], [NULL], '', 0);
SELECT hasAll(a, ['b']), hasAny(b, [NULL]), hasSubstr(b, [NULL, 2]), arrayCompact(a), arrayPopBack(b), arrayFlatten([a, a]), emptyArrayToSingle(b), arrayRotateLeft(a, 1), arrayShiftRight(b, 1, n) FROM t_arrset;
SELECT replicate(s, a), toTypeName(replicate(s, a)), arrayWithConstant(length(a), s), replicate(n, b) FROM t_arrset;
DROP TABLE t_arrset;
SELECT hasAny([NULL, 8], [0]), hasAny(materialize([NULL, 8]), [0]), hasAny(materialize([NULL, toInt32(8)]), [toUInt8(0)]), hasAll(materialize([NULL, toInt32(8)]), [toUInt8(0)]), hasAny([NULL,'a'],['']), hasAny([0], [NULL, 1]), hasAny(materialize([NULL, 1.5]), [0]);
SELECT hasSubstr([0],[NULL]), hasSubstr([NULL],[0]), hasAll([[NULL]], [[0]]), hasAny([(NULL, 1)], [(0, 1)]);
SELECT hasAny([8, k], [0, 9]) FROM (SELECT toNullable(toInt32(arrayJoin([0, 9, NULL, 5]))) k);
SELECT hasAll(range(200000), range(200000)), hasAny(range(200000), [199999]), hasAll(range(100000), arrayMap(x -> x * 2, range(100000))), hasAny(arrayMap(x -> toFloat64(x), range(100000)), [nan, -0.]), hasAll(arrayMap(x -> if(x = 5, NULL, x), range(100000)), [0, NULL]), hasAny(arrayMap(x -> toString(x), range(100000)), ['99999x']), hasAny(arrayMap(x -> toFixedString(toString(x), 6), range(50000)), arrayMap(x -> toString(x + 49990), range(20)));
