-- parser: aggregate FILTER (WHERE ...) is a syntax error; ClickHouse 7.5
SELECT avg(number) FILTER (WHERE number > 5) FROM numbers(10);
