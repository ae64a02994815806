-- LIMIT n [OFFSET m] BY expressions of the output columns
SELECT number AS n FROM numbers(10) ORDER BY n LIMIT 2 BY n % 3;
SELECT number AS n, n % 3 AS m FROM numbers(10) ORDER BY n DESC LIMIT 1, 2 BY m;
SELECT number AS n FROM numbers(10) ORDER BY n LIMIT 2 OFFSET 1 BY n % 3;
SELECT number AS n, toString(number) s FROM numbers(10) ORDER BY n LIMIT 1 BY length(s), n % 2;
SELECT number % 4 AS a, count() c FROM numbers(10) GROUP BY a ORDER BY a LIMIT 1 BY c;
SELECT number AS n FROM numbers(10) ORDER BY n LIMIT 1 BY n % 3 LIMIT 2;
