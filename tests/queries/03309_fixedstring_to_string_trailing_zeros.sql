-- FixedString to String: CAST (multiIf, CASE, arrays, maps) drops the trailing zero bytes,
-- if() and ifNull() keep them.
SELECT CAST(toFixedString('a', 3) AS String) AS x, length(x);
SELECT if(number = 0, toFixedString('a', 2), toFixedString('b', 5)) AS x, length(x), toTypeName(x) FROM numbers(2);
SELECT if(number = 0, toFixedString('a', 2), 'bcd') AS x, length(x) FROM numbers(2);
SELECT multiIf(number = 0, toFixedString('a', 2), toFixedString('b', 5)) AS x, length(x), toTypeName(x) FROM numbers(2);
SELECT CASE WHEN number = 0 THEN toFixedString('a', 2) ELSE toFixedString('b', 5) END AS x, length(x) FROM numbers(2);
SELECT CASE number WHEN 0 THEN toFixedString('a', 2) ELSE toFixedString('b', 5) END AS x, length(x) FROM numbers(2);
SELECT [toFixedString('a', 2), toFixedString('b', 5)] AS x, length(x[1]), toTypeName(x);
SELECT [toFixedString('a', 2), 'xyz'] AS x, length(x[1]);
SELECT map(1, toFixedString('a', 2), 2, 'xyz') AS x, length(x[1]);
SELECT ifNull(toNullable(toFixedString('a', 2)), 'xyz') AS x, length(x), toTypeName(x);
SELECT if(number % 2, toFixedString(toString(number), 2), toFixedString(toString(-number), 2)) AS x, toTypeName(x) FROM numbers(3);
SELECT multiIf(number = 0, toFixedString('a', 2), toFixedString('b', 5)) AS x, length(x) FROM numbers(1);
SELECT multiIf(0, toFixedString('a', 2), toFixedString('b', 5)) AS x, length(x) FROM numbers(1);
SELECT multiIf(number = 5, toFixedString('a', 2), number = 6, 'x', toFixedString('b', 5)) AS x, length(x) FROM numbers(1);
SELECT multiIf(materialize(0), toFixedString('a', 2), toFixedString('b', 5)) AS x, length(x) FROM numbers(1);
SELECT if(materialize(0), toFixedString('a', 2), toFixedString('b', 5)) AS x, length(x) FROM numbers(1);
SELECT if(0, toFixedString('a', 2), toFixedString('b', 5)) AS x, length(x) FROM numbers(1);
SELECT multiIf(1, toFixedString('a', 2), toFixedString('b', 5)) AS x, length(x) FROM numbers(1);
SET optimize_multiif_to_if = 0;
SELECT multiIf(number = 0, toFixedString('a', 2), toFixedString('b', 5)) AS x, length(x) FROM numbers(1);
SELECT CASE WHEN number = 0 THEN toFixedString('a', 2) ELSE toFixedString('b', 5) END AS x, length(x) FROM numbers(1);
