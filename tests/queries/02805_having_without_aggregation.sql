-- HAVING without an aggregate filters rows like WHERE; with one it aggregates.
SELECT 3 FROM numbers(6) HAVING true;
SELECT 3 FROM numbers(6) HAVING false;
SELECT number FROM numbers(6) HAVING number > 3;
SELECT number AS x FROM numbers(6) WHERE x > 1 HAVING x < 4;
SELECT arrayJoin([1, 2, 3]) AS x HAVING x > 1;
SELECT number, sum(number) OVER () FROM numbers(3) HAVING number > 0;
SELECT number FROM numbers(10) HAVING number > 5 ORDER BY number DESC LIMIT 2;
SELECT 1 FROM numbers(6) HAVING count() > 2;
SELECT count() FROM numbers(6) HAVING true;
SELECT number FROM numbers(6) HAVING 'a'; -- { serverError ILLEGAL_TYPE_OF_COLUMN_FOR_FILTER }
