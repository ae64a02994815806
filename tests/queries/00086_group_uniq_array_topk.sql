SELECT groupUniqArray(number % 5), groupUniqArray(2)(number % 5), toTypeName(groupUniqArray(toNullable(number))) FROM numbers(23);
SELECT groupUniqArray(number) FROM numbers(100);
SELECT groupUniqArray(toInt8(number - 50)), groupUniqArray(toFloat64(number) / 4), groupUniqArray(toDate(number)) FROM numbers(100);
SELECT arraySort(groupUniqArray(toString(number % 7))), arraySort(groupUniqArray([number % 3])) FROM numbers(100);
SELECT groupUniqArray(number % 300) FROM numbers(100000);
SELECT length(groupUniqArray(number)) FROM numbers(200000);
SELECT number % 3 AS k, groupUniqArray(number) FROM numbers(20) GROUP BY k ORDER BY k;
SELECT topK(3)(x) FROM (SELECT [5, 3, 3, 1, 1, 1, 9, 9, 9, 9, 2][number % 11 + 1] AS x FROM numbers(11));
SELECT topK(2)(x), toTypeName(topK(2)(x)) FROM (SELECT ['a', 'b', 'b', 'c', 'c', 'c', 'd', 'd', 'd', 'd'][number + 1] AS x FROM numbers(10));
SELECT topK(3)(toNullable(number)), toTypeName(topK(3)(toNullable(number))) FROM numbers(3);
SELECT topK(2)(if(number % 10 < 5, 0, if(number % 10 < 8, 1, number))), topK(2)(if(number % 10 < 5, 100, if(number % 10 < 8, 200, number % 10))) FROM numbers(1000);
SELECT topK(0)(number) FROM numbers(3); -- { serverError ARGUMENT_OUT_OF_BOUND }
SELECT sumKahan(number), toTypeName(sumKahan(number)), toTypeName(sumKahan(toFloat32(number))), sumKahan(0.1) FROM numbers(23);
SELECT sumKahan(toDecimal32(1.5, 2)), toTypeName(sumKahan(toDecimal32(1.5, 2))), sumKahan(toNullable(1));
SELECT sumKahan(x), sum(x) FROM (SELECT [0.1, 0.2, 0.3, 1e16, -1e16][number + 1] AS x FROM numbers(5));
SELECT sumKahan(x), sum(x) FROM (SELECT [0.1, 1e100, 1.0, -1e100][number % 4 + 1] AS x FROM numbers(1000));
SELECT sumKahan(1 / (number + 1)) FROM numbers(100000);
