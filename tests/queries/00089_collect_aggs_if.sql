SELECT groupUniqArrayIf(number % 7, number > 10), topKIf(1)(number % 3 = 0 ? 5 : number, number < 50), sumKahanIf(number * 0.1, number % 2 = 0) FROM numbers(100);
SELECT number % 2 AS k, groupUniqArray(intDiv(number, 4)), sumKahan(number / 3) FROM numbers(40) GROUP BY k ORDER BY k;
SELECT groupUniqArray(if(number % 3 = 0, NULL, number % 10)) FROM numbers(30);
SELECT groupUniqArray(x), sumKahan(x) FROM (SELECT number AS x FROM numbers(10) WHERE number > 100);
