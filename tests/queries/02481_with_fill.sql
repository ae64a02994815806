-- ORDER BY … WITH FILL: FROM / TO / STEP, directions, dates, several keys, sorting prefix, INTERPOLATE
SELECT number * 3 AS n FROM numbers(4) ORDER BY n WITH FILL;
SELECT number * 3 AS n FROM numbers(4) ORDER BY n WITH FILL LIMIT 5;
SELECT number * 3 AS n, 'x' AS s FROM numbers(4) ORDER BY n WITH FILL FROM 1 TO 14 STEP 2;
SELECT number * 3 AS n FROM numbers(4) ORDER BY n DESC WITH FILL;
SELECT toInt64(number * 5) AS n, number AS v FROM numbers(3) ORDER BY n DESC WITH FILL STEP -3 INTERPOLATE (v AS v * 2);
SELECT toInt32(number * 3) AS n FROM numbers(4) ORDER BY n WITH FILL FROM -2 TO 2;
SELECT number * 3 AS n FROM numbers(4) ORDER BY n WITH FILL TO 15 STEP 4;
SELECT number * 0.5 AS n FROM numbers(4) ORDER BY n WITH FILL STEP 0.2;
SELECT toUInt8(number * 100) AS n FROM numbers(3) ORDER BY n WITH FILL STEP 50;
SELECT toNullable(number * 3) AS n FROM numbers(3) ORDER BY n WITH FILL;
SELECT number * 3 AS n, n * 2 AS m FROM numbers(3) ORDER BY n WITH FILL;
SELECT number * 3 AS n FROM numbers(3) ORDER BY number * 3 WITH FILL;
SELECT number FROM numbers(3) ORDER BY number * 3 WITH FILL;
SELECT toDate('2020-01-01') + number * 3 AS d, number AS v FROM numbers(3) ORDER BY d WITH FILL;
SELECT toDate('2020-01-01') + number * 3 AS d FROM numbers(3) ORDER BY d WITH FILL STEP INTERVAL 2 DAY;
SELECT toDate('2020-01-31') + number * 40 AS d FROM numbers(3) ORDER BY d WITH FILL STEP INTERVAL 1 MONTH;
SELECT toDateTime('2020-01-01 00:00:00', 'UTC') + number * 7200 AS t, number AS v FROM numbers(3) ORDER BY t WITH FILL STEP INTERVAL 1 HOUR;
SELECT toDateTime('2020-01-01 00:00:00', 'UTC') + number * 7200 AS t FROM numbers(3) ORDER BY t WITH FILL STEP 3600;
SELECT number % 3 AS a, number * 2 AS b FROM numbers(6) ORDER BY a WITH FILL, b WITH FILL;
SELECT number % 3 AS a, number * 2 AS b FROM numbers(6) ORDER BY a, b WITH FILL;
SELECT number % 2 AS a, number * 3 AS n FROM numbers(4) ORDER BY a, n WITH FILL FROM 0 TO 12 STEP 4;
SELECT number % 2 AS a, number * 3 AS n, 'z' AS s FROM numbers(6) ORDER BY a WITH FILL FROM 0 TO 3, n WITH FILL FROM 0 TO 20 STEP 5;
SELECT number % 3 AS a, number * 2 AS b FROM numbers(6) ORDER BY a WITH FILL TO 5, b WITH FILL TO 12 STEP 3;
SELECT number % 2 AS a, number * 3 AS n FROM numbers(4) ORDER BY a, n WITH FILL SETTINGS use_with_fill_by_sorting_prefix = 0;
SELECT number % 2 AS a, sum(number) AS s FROM numbers(10) GROUP BY a ORDER BY a WITH FILL FROM 1 TO 4;
SELECT toInt8(number % 2) AS a, sum(number) AS s FROM numbers(10) GROUP BY a ORDER BY a WITH FILL FROM -1 TO 4;
SELECT number AS n, number * 10 AS v FROM numbers(5) WHERE n % 2 = 0 ORDER BY n WITH FILL INTERPOLATE (v AS v + 1);
SELECT number AS n, number * 10 AS v, 'q' AS s FROM numbers(5) WHERE n % 2 = 0 ORDER BY n WITH FILL INTERPOLATE;
SELECT number * 3 AS n FROM numbers(4) WHERE 0 ORDER BY n WITH FILL FROM 1 TO 5;
SELECT number % 2 AS a, number * 3 AS n FROM numbers(4) WHERE 0 ORDER BY a WITH FILL FROM 1 TO 3, n WITH FILL FROM 1 TO 3;
-- errors
SELECT 'a' AS s, number * 3 AS n FROM numbers(3) ORDER BY n WITH FILL STEP 0; -- { serverError INVALID_WITH_FILL_EXPRESSION }
SELECT number * 3 AS n FROM numbers(4) ORDER BY n WITH FILL FROM 10 TO 2; -- { serverError INVALID_WITH_FILL_EXPRESSION }
SELECT 'x' || toString(number) AS s FROM numbers(3) ORDER BY s WITH FILL; -- { serverError INVALID_WITH_FILL_EXPRESSION }
SELECT number % 2 AS a FROM numbers(10) ORDER BY a WITH FILL FROM -1 TO 4; -- { serverError INVALID_WITH_FILL_EXPRESSION }
SELECT toInt8(number % 3) AS c0, 5 AS c1 FROM numbers(5) ORDER BY c0 WITH FILL FROM -2 TO 5;
SELECT toInt8(number % 3) AS c0, 5 AS c1 FROM numbers(5) ORDER BY c0 WITH FILL FROM -2 TO 5, c1;
SELECT toInt8(number % 3) AS c0, 5 AS c1 FROM numbers(5) ORDER BY c0 WITH FILL FROM -2 TO 5, c1 LIMIT 1 BY c1; -- { serverError ILLEGAL_COLUMN }
SELECT (toInt64(ifNull(18446744073709551615, 0)) % 7) AS c0, emptyArrayInt32() AS c1 FROM numbers(12) ORDER BY c0 WITH FILL FROM -2 TO 9 STEP 1, c1 LIMIT 2 BY c1;
SELECT (toInt64(ifNull(number, 0)) % 7) AS c0, CAST('12.345' AS Decimal(10, 3)) AS c1, number AS c2, number AS c3 FROM numbers(12) WHERE isNotNull(number) ORDER BY c0 WITH FILL FROM -2 TO 9 STEP 2, c3 ASC NULLS FIRST, c1, c2 LIMIT 2 BY c2;
