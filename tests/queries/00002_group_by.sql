SELECT number % 3 AS k, count(), sum(number), min(number), max(number) FROM numbers(100) GROUP BY k ORDER BY k;
SELECT count(), sum(number), avg(number) FROM numbers(10);
SELECT count() FROM numbers(10) WHERE number > 100;
SELECT sum(number) FROM numbers(0);
SELECT number % 2 AS k, count() AS c FROM numbers(10) GROUP BY k HAVING c > 4 ORDER BY k;
SELECT number % 5 AS k FROM numbers(20) GROUP BY k ORDER BY k DESC;
SELECT number % 3, count() FROM numbers(30) GROUP BY number % 3 ORDER BY number % 3;
SELECT intDiv(number, 10) AS d, countIf(number % 2 = 0), sumIf(number, number > 5) FROM numbers(30) GROUP BY d ORDER BY d;
SELECT uniqExact(number % 7), uniq(number % 7) FROM numbers(100);
SELECT any(number), anyLast(number) FROM (SELECT number FROM numbers(5) ORDER BY number);
SELECT argMin(number, (number + 3) % 10), argMax(number, (number + 3) % 10) FROM numbers(10);
SELECT count(DISTINCT number % 4) FROM numbers(100);
SELECT number % 2 AS k, groupArray(number) FROM (SELECT number FROM numbers(6) ORDER BY number) GROUP BY k ORDER BY k;
SELECT median(number), quantile(0.9)(number), quantileExact(0.5)(number) FROM numbers(11);
SELECT toTypeName(sum(number)), toTypeName(avg(number)), toTypeName(count()) FROM numbers(1);
SELECT number FROM numbers(10) WHERE count() > 1; -- { serverError ILLEGAL_AGGREGATION }
SELECT number, count() FROM numbers(10); -- { serverError NOT_AN_AGGREGATE }
