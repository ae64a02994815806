SELECT count(), count(number), count(DISTINCT number % 3), sum(number), avg(number), min(number), max(number) FROM numbers(10);
SELECT count(x), count(), sum(x), avg(x), min(x), max(x) FROM (SELECT if(number % 2 = 0, number, NULL) AS x FROM numbers(6));
SELECT any(number), anyLast(number), argMin(number, number % 4), argMax(number, number % 5) FROM (SELECT number FROM numbers(8) ORDER BY number);
SELECT uniqExact(number % 5), uniq(number % 5), uniqExact(toString(number % 3)) FROM numbers(100);
SELECT groupArray(number), groupArray(toString(number)) FROM (SELECT number FROM numbers(4) ORDER BY number);
SELECT quantileExact(0.5)(number), median(number), quantile(0.25)(number), quantileExact(0.9)(number), quantiles(0.1, 0.5)(number) FROM numbers(101);
SELECT sumIf(number, number % 2 = 1), countIf(number > 5), avgIf(number, number < 3), maxIf(number, number < 7), minIf(number, number > 2) FROM numbers(10);
SELECT uniqExactIf(number % 3, number > 4), groupArrayIf(number, number % 4 = 0), anyIf(number, number > 7) FROM numbers(10);
SELECT toTypeName(sum(toInt8(1))), toTypeName(sum(toFloat32(1))), toTypeName(avg(toInt8(1))), toTypeName(min(toInt8(1))), toTypeName(uniq(1)), toTypeName(count());
SELECT sum(toDecimal32(1.25, 2)), toTypeName(sum(toDecimal32(1.25, 2))), avg(toDecimal64(2.5, 1)), min(toDecimal32(-1, 2));
SELECT sum(x), avg(x), min(x), max(x), count(x) FROM (SELECT toFloat64(number) / 4 AS x FROM numbers(9));
SELECT min(s), max(s), any(s), count(DISTINCT s) FROM (SELECT arrayElement(['b', 'a', 'c', 'a'], number + 1) AS s FROM numbers(4));
SELECT min(d), max(d), count(DISTINCT d) FROM (SELECT toDate('2021-01-01') + number % 3 AS d FROM numbers(10));
SELECT sum(number), avg(number), min(number), max(number), count() FROM numbers(0);
SELECT number % 2 AS k, sum(number), groupArray(number), uniqExact(number) FROM (SELECT number FROM numbers(10) ORDER BY number) GROUP BY k ORDER BY k;
SELECT sum(number) / count() AS m, max(number) - min(number) FROM numbers(20);
SELECT sum(nosuch) FROM numbers(1); -- { serverError UNKNOWN_IDENTIFIER }
SELECT sum('a'); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
