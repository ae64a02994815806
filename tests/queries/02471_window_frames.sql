-- Aggregates over windows: default frames, ROWS and RANGE frames with offsets.
SELECT number, sum(number) OVER (), count() OVER (), avg(number) OVER (), min(number) OVER (), max(number) OVER (), any(number) OVER (), anyLast(number) OVER () FROM numbers(5) ORDER BY number;
SELECT number, sum(number) OVER (ORDER BY intDiv(number, 2)), count() OVER (ORDER BY intDiv(number, 2) DESC) FROM numbers(7) ORDER BY number;
SELECT number, sum(number) OVER (ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING), count() OVER (ORDER BY number RANGE BETWEEN 1 PRECEDING AND CURRENT ROW) FROM numbers(5) ORDER BY number;
SELECT number, sum(number) OVER (ORDER BY number ROWS BETWEEN 2 FOLLOWING AND 4 FOLLOWING), sum(number) OVER (ORDER BY number ROWS BETWEEN 3 PRECEDING AND 1 PRECEDING), groupArray(number) OVER (ORDER BY number ROWS BETWEEN 1 PRECEDING AND 2 FOLLOWING) FROM numbers(7) ORDER BY number;
SELECT number, sum(number) OVER (ORDER BY number ROWS 2 PRECEDING), count() OVER (ORDER BY number ROWS CURRENT ROW), sum(number) OVER (ORDER BY number ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING) FROM numbers(5) ORDER BY number;
SELECT number, sum(number) OVER (ORDER BY number RANGE BETWEEN 2 FOLLOWING AND 4 FOLLOWING), sum(number) OVER (ORDER BY number DESC RANGE BETWEEN 3 PRECEDING AND 1 PRECEDING), count() OVER (ORDER BY intDiv(number, 3) RANGE BETWEEN CURRENT ROW AND 1 FOLLOWING) FROM numbers(9) ORDER BY number;
SELECT number, sum(number) OVER (ORDER BY number RANGE BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) FROM numbers(5) ORDER BY number;
SELECT x, count(x) OVER (ORDER BY x RANGE BETWEEN 1 PRECEDING AND 1 FOLLOWING), sum(x) OVER (ORDER BY x DESC RANGE BETWEEN 1 PRECEDING AND CURRENT ROW) FROM (SELECT intDiv(number * 7, 3) % 9 AS x FROM numbers(12)) ORDER BY x;
SELECT toDate('2020-01-01') + number AS d, count() OVER (ORDER BY d RANGE BETWEEN 2 PRECEDING AND CURRENT ROW) FROM numbers(5) ORDER BY d;
SELECT number * 1.5 AS f, sum(number) OVER (ORDER BY f RANGE BETWEEN 2 PRECEDING AND CURRENT ROW) FROM numbers(5) ORDER BY f;
SELECT toInt32(number) - 3 AS i, sum(i) OVER (ORDER BY i DESC RANGE BETWEEN CURRENT ROW AND 2 FOLLOWING) FROM numbers(7) ORDER BY i;
SELECT number, avg(number) OVER (PARTITION BY number % 3 ORDER BY number ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING), uniqExact(number % 4) OVER (ORDER BY number), quantileExact(0.5)(number) OVER (ORDER BY number ROWS BETWEEN 2 PRECEDING AND CURRENT ROW), sumIf(number, number % 2 = 0) OVER (ORDER BY number) FROM numbers(8) ORDER BY number;
SELECT number, min(toString(number)) OVER (ORDER BY number DESC ROWS BETWEEN CURRENT ROW AND 2 FOLLOWING), max(number) OVER (PARTITION BY number % 2) FROM numbers(6) ORDER BY number;
SELECT number, sum(x) OVER (ORDER BY number), count(x) OVER (ORDER BY number ROWS BETWEEN 1 PRECEDING AND CURRENT ROW), avg(x) OVER () FROM (SELECT number, if(number % 2 = 0, NULL, number) AS x FROM numbers(6)) ORDER BY number;
-- Windows over GROUP BY: aggregates of aggregates, ranks of groups.
SELECT number % 3 AS k, sum(number) AS s, sum(sum(number)) OVER (ORDER BY k), rank() OVER (ORDER BY sum(number) DESC), count() OVER () FROM numbers(10) GROUP BY k ORDER BY k;
SELECT number % 3 AS k, count() AS c, row_number() OVER (ORDER BY c DESC, k) AS rn FROM numbers(10) GROUP BY k ORDER BY rn;
SELECT number % 3 AS k, number, sum(number) OVER (PARTITION BY k ORDER BY number) FROM numbers(10) GROUP BY k, number ORDER BY k, number;
SELECT k, sum(number) OVER (PARTITION BY k) FROM numbers(10) GROUP BY number % 3 AS k; -- { serverError NOT_AN_AGGREGATE }
SELECT number % 4 AS k, max(number) AS m, lag(m) OVER (ORDER BY k), m - lag(m) OVER (ORDER BY k) FROM numbers(20) WHERE number > 2 GROUP BY k HAVING m > 5 ORDER BY k;
SELECT count() OVER (), sum(number) OVER () FROM numbers(4) GROUP BY number ORDER BY ALL;
-- A GROUP BY key with an alias in the select list is still the key (with and without windows).
SELECT number AS x, count() FROM numbers(3) GROUP BY number ORDER BY x;
SELECT number AS c0, count() OVER () AS c4, row_number() OVER (ORDER BY c0 DESC) FROM numbers(3) GROUP BY number ORDER BY c0;
SELECT number, count() OVER (ORDER BY toUInt8(number) RANGE BETWEEN 255 PRECEDING AND 3 FOLLOWING), count() OVER (ORDER BY toUInt8(number) DESC RANGE BETWEEN 1 PRECEDING AND 2 FOLLOWING), count() OVER (ORDER BY toFloat32(number) RANGE BETWEEN 1 PRECEDING AND 3 FOLLOWING), count() OVER (ORDER BY toDateTime(number) RANGE BETWEEN 1 PRECEDING AND 3 FOLLOWING) FROM numbers(3) ORDER BY number;
SELECT number, min(number) OVER (ORDER BY number ROWS BETWEEN 0 PRECEDING AND CURRENT ROW), min(number) OVER (ORDER BY number ROWS BETWEEN 1 FOLLOWING AND 1 FOLLOWING), max(number) OVER (ORDER BY number ROWS BETWEEN 2 PRECEDING AND 1 PRECEDING) FROM numbers(4) ORDER BY number;
