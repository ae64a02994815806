-- Ranking and offset window functions: partitions, ties (peers), NULLs in the keys.
SELECT number, row_number() OVER (PARTITION BY number % 2 ORDER BY number DESC) AS rn, sum(number) OVER w, lag(number) OVER w FROM numbers(5) WINDOW w AS (ORDER BY number) ORDER BY number;
SELECT number, rank() OVER (ORDER BY intDiv(number, 2)), dense_rank() OVER (ORDER BY intDiv(number, 2)), percent_rank() OVER (ORDER BY intDiv(number, 2)), cume_dist() OVER (ORDER BY intDiv(number, 2)) FROM numbers(7) ORDER BY number;
SELECT number, percent_rank() OVER (PARTITION BY number % 2 ORDER BY intDiv(number, 4)), cume_dist() OVER (PARTITION BY number % 2 ORDER BY intDiv(number, 4)) FROM numbers(9) ORDER BY number;
SELECT number, ntile(3) OVER (ORDER BY number) FROM numbers(10) ORDER BY number;
SELECT number, ntile(4) OVER (PARTITION BY number % 2 ORDER BY number) FROM numbers(11) ORDER BY number;
SELECT number, ntile(5) OVER (ORDER BY number ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) FROM numbers(3) ORDER BY number;
SELECT number, lag(number) OVER (ORDER BY number), lead(number) OVER (ORDER BY number), lag(number, 2) OVER (ORDER BY number), lead(number, 1, 100) OVER (ORDER BY number), lag(number, 1, number * 10) OVER (ORDER BY number), lag(number, 0) OVER (ORDER BY number) FROM numbers(5) ORDER BY number;
SELECT number, lagInFrame(number) OVER (ORDER BY number), leadInFrame(number) OVER (ORDER BY number), leadInFrame(number, 1, 100) OVER (ORDER BY number ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING), lagInFrame(number, 2, 100) OVER (ORDER BY number ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING), leadInFrame(number) OVER (ORDER BY number ROWS BETWEEN CURRENT ROW AND 1 FOLLOWING), lagInFrame(number, number) OVER (ORDER BY number) FROM numbers(5) ORDER BY number;
SELECT number, lagInFrame(number, 1, toUInt8(7)) OVER (ORDER BY number), toTypeName(lagInFrame(number, 1, toUInt8(7)) OVER (ORDER BY number)) FROM numbers(3) ORDER BY number;
SELECT number, first_value(number) OVER (ORDER BY number), last_value(number) OVER (ORDER BY number), nth_value(number, 2) OVER (ORDER BY number), last_value(number) OVER (ORDER BY number ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING), nth_value(number, 3) OVER (PARTITION BY number % 2 ORDER BY number ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) FROM numbers(7) ORDER BY number;
-- NULLs: peers of each other, last by default, first when asked; first_value skips them like any.
SELECT x, y, rank() OVER (ORDER BY x), dense_rank() OVER (ORDER BY x), row_number() OVER (ORDER BY x, y), lag(y) OVER (ORDER BY x, y), sum(y) OVER (ORDER BY x) FROM (SELECT if(number % 3 = 1, NULL, number % 4) AS x, number AS y FROM numbers(10)) ORDER BY x, y;
SELECT x, y, rank() OVER (ORDER BY x DESC), dense_rank() OVER (ORDER BY x DESC NULLS FIRST), row_number() OVER (ORDER BY x NULLS FIRST, y), lead(y, 2) OVER (ORDER BY x, y), max(y) OVER (ORDER BY x DESC) FROM (SELECT if(number % 3 = 1, NULL, number % 4) AS x, number AS y FROM numbers(10)) ORDER BY x, y;
SELECT y, x, last_value(x) OVER (ORDER BY y ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING), first_value(x) OVER (ORDER BY y), any(x) OVER (ORDER BY y), count(x) OVER (), nth_value(x, 3) OVER (ORDER BY y ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING), lagInFrame(x) OVER (ORDER BY y) FROM (SELECT if(number % 2 = 0, NULL, number) AS x, number AS y FROM numbers(5)) ORDER BY y;
SELECT x, count() OVER (PARTITION BY x), row_number() OVER (PARTITION BY x ORDER BY y DESC) FROM (SELECT if(number % 3 = 0, NULL, number % 2) AS x, number AS y FROM numbers(9)) ORDER BY x, y;
-- Strings, case-insensitive names, an empty input, a window in ORDER BY, DISTINCT, LIMIT BY.
SELECT toString(number) AS s, row_number() OVER (ORDER BY s DESC), lag(s) OVER (ORDER BY s), lead(s, 1, 'none') OVER (ORDER BY s) FROM numbers(12) ORDER BY s;
SELECT ROW_NUMBER() OVER (ORDER BY number), RANK() OVER (ORDER BY number), Lag(number) OVER (ORDER BY number) FROM numbers(3);
SELECT number, row_number() OVER () FROM numbers(3) WHERE 0;
SELECT number FROM numbers(0) ORDER BY row_number() OVER ();
SELECT number FROM numbers(5) ORDER BY sum(number) OVER (ORDER BY number DESC) LIMIT 3;
SELECT number, row_number() OVER (ORDER BY number DESC) AS rn FROM numbers(5) ORDER BY rn LIMIT 3;
SELECT DISTINCT count() OVER (PARTITION BY number % 3) AS c FROM numbers(10) ORDER BY c;
SELECT number, row_number() OVER (PARTITION BY number % 2 ORDER BY number) AS rn FROM numbers(6) ORDER BY rn, number LIMIT 1 BY rn;
SELECT number AS n, sum(n) OVER (ORDER BY n) AS s, s * 2 FROM numbers(4) ORDER BY n;
SELECT number, sum(number) OVER w1, count() OVER w2, row_number() OVER w2 FROM numbers(6) WINDOW w1 AS (PARTITION BY number % 2 ORDER BY number), w2 AS (ORDER BY number DESC ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) ORDER BY number;
SELECT number, sum(number) OVER (w ORDER BY number) FROM numbers(6) WINDOW w AS (PARTITION BY number % 2) ORDER BY number;
SELECT number, row_number() OVER (ORDER BY number) FROM numbers(3) FORMAT TSVWithNames;
SELECT sum(number) OVER (PARTITION BY number % 2, number ORDER BY number DESC NULLS FIRST, number ROWS UNBOUNDED PRECEDING), count() OVER (RANGE BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING), max(number) OVER (ORDER BY number ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) AS m FROM numbers(1) FORMAT TSVWithNames;
-- LowCardinality arguments: the result drops LowCardinality; a default of the plain type is accepted.
SELECT toTypeName(lag(toLowCardinality(toString(number))) OVER ()), toTypeName(lag(toLowCardinality(toNullable(toString(number)))) OVER ()), toTypeName(nth_value(toLowCardinality(toNullable(toString(number))), 1) OVER ()), toTypeName(any(toLowCardinality(toNullable(toString(number)))) OVER ()) FROM numbers(1);
SELECT number, lag(toLowCardinality(toString(number)), 1, 'x') OVER (ORDER BY number), lag(toLowCardinality(toNullable(toString(number))), 1, 'x') OVER (ORDER BY number), leadInFrame(toLowCardinality(toString(number)), 1) OVER (ORDER BY number), max(toLowCardinality(toString(number))) OVER (ORDER BY number) FROM numbers(3) ORDER BY number;
-- Bool and UInt8 are one type for the default of lag/lead (ClickHouse), other defaults must not widen.
SELECT toTypeName(lag(false, 2, 1) OVER ()), lag(number = 1, 1, 5) OVER (ORDER BY number), toTypeName(lag(number = 1, 1, 5) OVER (ORDER BY number)), toTypeName(lagInFrame(toUInt8(1), 1, true) OVER ()) FROM numbers(3);
SELECT lag(number = 0, 1, 5) OVER (ORDER BY number), lag(number > 0 AND true, 1, 7) OVER (ORDER BY number), lag(true, 1, 5) OVER (ORDER BY number) FROM numbers(2);
SELECT lag(number = 1, 1, 300) OVER (ORDER BY number) FROM numbers(3); -- { serverError BAD_ARGUMENTS }
