SELECT DISTINCT number % 3 AS k FROM numbers(10) ORDER BY k DESC;
SELECT number AS x, x * 2 AS y FROM numbers(5) WHERE y > 4 ORDER BY x;
SELECT number % 3 AS k, count() AS c FROM numbers(10) GROUP BY k HAVING c >= 3 ORDER BY c DESC, k;
SELECT x FROM (SELECT if(number = 2, NULL, number) AS x FROM numbers(4)) ORDER BY x NULLS FIRST;
SELECT x FROM (SELECT if(number = 2, NULL, number) AS x FROM numbers(4)) ORDER BY x DESC NULLS LAST;
SELECT x FROM (SELECT if(number = 2, NULL, number) AS x FROM numbers(4)) ORDER BY x;
SELECT number FROM numbers(10) ORDER BY number LIMIT 2 OFFSET 3;
SELECT number % 2 AS k, number FROM numbers(8) ORDER BY k, number DESC LIMIT 1 BY k;
SELECT sum(x) FROM (SELECT number AS x FROM numbers(10) WHERE number > 4);
SELECT number FROM numbers(6) WHERE number IN (SELECT number * 3 FROM numbers(3)) ORDER BY number;
SELECT number FROM numbers(6) WHERE number NOT IN (0, 1, 2) ORDER BY number;
SELECT 'a' IN ('a', 'b'), 3 IN (1, 2), 1 IN (1, NULL);
SELECT (SELECT count() FROM numbers(5)) + 1, (SELECT 'x');
SELECT * FROM (SELECT 1 AS a, 'x' AS b UNION ALL SELECT 2, 'y') ORDER BY a DESC;
SELECT CAST(1.5 AS String), CAST('5' AS Int32) + 1, 1::Float64 / 3, true ? 1 : 2;
SET max_block_size = 3;
SELECT count(), sum(number) FROM numbers(10);
SELECT number FROM numbers(5) ORDER BY number DESC SETTINGS max_block_size = 2;
DESCRIBE numbers(3);
DESCRIBE TABLE numbers(3);
SELECT number AS n FROM numbers(3) WHERE n != 1 ORDER BY n DESC;
SELECT count() FROM numbers(100) WHERE number % 7 = 0 AND number % 2 = 1;
SELECT number FROM numbers(20) WHERE number BETWEEN 5 AND 8;
SELECT number, number % 3 = 0 ? 'fizz' : toString(number) FROM numbers(4);
SELECT k, groupArray(v) FROM (SELECT number % 2 AS k, number AS v FROM numbers(6) ORDER BY v) GROUP BY k ORDER BY k;
SELECT max(number) AS m FROM numbers(10) HAVING m > 5;
SELECT * FROM numbers(3) ORDER BY number DESC;
SELECT a.number FROM numbers(2) AS a ORDER BY a.number;
SELECT number FROM numbers(5) LIMIT 10 OFFSET 3;
SELECT number FROM numbers(1) WHERE 0;
SELECT nosuch(1); -- { serverError UNKNOWN_FUNCTION }
SELECT * FROM nosuchtable; -- { serverError UNKNOWN_TABLE }
SELECT number FROM numbers(3) GROUP BY 1 ORDER BY 1;
SELECT count() FROM numbers(3) WHERE number = 'a'; -- { serverError TYPE_MISMATCH }
SELECT count() FROM numbers(3) WHERE number = '1';
SELECT 1 = '2', 1.5 < '2.5', toFloat32(0.5) = '0.5';
SELECT toInt32('x'); -- { serverError CANNOT_PARSE_TEXT }
SELECT abs(); -- { serverError NUMBER_OF_ARGUMENTS_DOESNT_MATCH }
SELECT sum(number) FROM numbers(3) GROUP BY sum(number); -- { serverError ILLEGAL_AGGREGATION }
