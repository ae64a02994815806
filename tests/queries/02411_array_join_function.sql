-- arrayJoin(): one row per element; different calls multiply, the same call is one join.
SELECT arrayJoin([1, 2, 3]);
SELECT arrayJoin([1, 2]) AS a, arrayJoin([3, 4]) AS b ORDER BY a, b;
SELECT arrayJoin([1, 2]) AS a, arrayJoin([1, 2]) AS b;
SELECT arrayJoin([1, 2]) + 1, arrayJoin([1, 2]);
SELECT arrayJoin([1, 2]) AS x, x * 10;
SELECT arrayJoin([1, 2, 3]) AS x WHERE x > 1;
SELECT number, arrayJoin(range(number)) AS x FROM numbers(4) ORDER BY number, x;
SELECT arrayJoin(['a', 'b']) AS s, count() FROM numbers(3) GROUP BY s ORDER BY s;
SELECT sum(arrayJoin([1, 2, 3]));
SELECT sum(arrayJoin(range(number))) FROM numbers(5);
SELECT arrayJoin([NULL, 1]) AS v, toTypeName(v);
SELECT arrayJoin(arrayJoin([[1, 2], [3]])) AS v;
SELECT arrayJoin(emptyArrayUInt8());
SELECT count() FROM (SELECT arrayJoin(range(number)) FROM numbers(100));
SELECT x FROM (SELECT arrayJoin([3, 1, 2]) AS x) ORDER BY x;
SELECT arrayJoin(splitByChar(',', 'a,b,,c')) AS t;
SELECT arrayJoin(1); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT arrayJoin([1], [2]); -- { serverError NUMBER_OF_ARGUMENTS_DOESNT_MATCH }
SELECT arrayMap(x -> arrayJoin([x, x]), [1, 2]); -- { serverError BAD_ARGUMENTS }
-- a WHERE that reads no joined element filters before the rows multiply (its errors too)
SELECT arrayJoin(emptyArrayInt32()) FROM numbers(3) WHERE arrayExists((x, y) -> 0, range(number), [10, 3]); -- { serverError SIZES_OF_ARRAYS_DONT_MATCH }
SELECT number, arrayJoin(range(number)) AS x FROM numbers(6) WHERE number % 2 = 1 ORDER BY number, x;
SELECT toTypeName(arrayJoin([1, 2]));
SELECT count() FROM numbers(2) ARRAY JOIN range(3) AS a, [arrayJoin([9, 1, 9])] AS b;
SELECT toTypeName(y) FROM numbers(2) ARRAY JOIN [1, 2] AS x, [5, 7, 5] AS y;
