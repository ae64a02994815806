SELECT CASE 2 WHEN 1 THEN 'a' ELSE 'b' END;
SELECT number, CASE number WHEN 1 THEN 1 WHEN 2 THEN 2.5 END AS x, toTypeName(x) FROM numbers(4);
SELECT CASE toNullable(number) WHEN 1 THEN 'a' WHEN 300 THEN 'b' ELSE 'z' END FROM numbers(3);
SELECT CASE 'a' WHEN 'a' THEN 1 ELSE 2 END, CASE 300 WHEN 1 THEN 'x' WHEN 300 THEN 'y' ELSE 'z' END;
SELECT caseWithExpression(number % 3, 0, 'zero', 1, 'one', 'many') FROM numbers(5);
SELECT CASE number % 4 WHEN 0 THEN NULL WHEN 1 THEN toInt64(number) * 10 ELSE -1 END AS v, toTypeName(v) FROM numbers(5);
SELECT CASE toString(number) WHEN '1' THEN toDate('2020-01-01') WHEN '2' THEN toDate('2021-01-01') ELSE toDate('1999-12-31') END FROM numbers(3);
