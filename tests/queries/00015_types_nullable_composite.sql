SELECT toNullable(1), toTypeName(toNullable(1)), CAST(NULL AS Nullable(Int32)), toTypeName(CAST(NULL AS Nullable(Int32)));
SELECT NULL + 1, toTypeName(NULL + 1), toNullable(1) + 1, toTypeName(toNullable(1) + 1);
SELECT CAST('5' AS Nullable(UInt8)), CAST(NULL AS Nullable(String)), toTypeName(CAST('x' AS Nullable(String)));
SELECT CAST(NULL AS Int32); -- { serverError CANNOT_CONVERT_TYPE }
SELECT [1, 2, 3], toTypeName([1, 2, 3]), [], toTypeName([]), ['a', 'b'], [1, NULL], toTypeName([1, NULL]);
SELECT [[1, 2], [3]], toTypeName([[1, 2], [3]]), [1, 2.5], toTypeName([1, 2.5]), [-1, 200], toTypeName([-1, 200]);
SELECT (1, 'a'), toTypeName((1, 'a')), tuple(1, 2.5, 'x'), toTypeName(tuple(1, NULL));
SELECT CAST([1, 2] AS Array(String)), CAST(('1', '2') AS Tuple(UInt8, Float64)), toTypeName(CAST([1] AS Array(Nullable(Int64))));
SELECT [1, 2, 3][2], [1, 2, 3][-1], [1, 2, 3][10], ['a', 'b'][1], [[1, 2], [3]][1][2];
SELECT length([1, 2, 3]), length([]), has([1, 2, 3], 2), has(['a'], 'b'), arraySum([1, 2, 3]), arraySum([1.5, 2.5]);
SELECT (1, 'a').1, (1, 'a').2, tupleElement((5, 6), 2);
SELECT ['a\'b', 'c\td'], [toDate('2020-01-01')], [NULL], toTypeName([NULL]);
SELECT [toNullable(1), NULL, 3], [(1, 'a'), (2, 'b')], toTypeName([(1, 'a'), (2, 'b')]);
SELECT CAST([1, 2] AS Array(Int8)), toTypeName(CAST([1, 2] AS Array(Int8))), [1, 2] = [1, 2], (1, 2) < (1, 3);
