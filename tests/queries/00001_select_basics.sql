SELECT 1;
SELECT 1, 2, 3;
SELECT 'hello', 'it''s', 'tab\there';
SELECT number FROM numbers(5);
SELECT number, number * 2 AS doubled FROM numbers(3, 4);
SELECT number FROM numbers(10) WHERE number % 3 = 0;
SELECT number AS x FROM numbers(10) WHERE x > 6;
SELECT number FROM numbers(100) LIMIT 3;
SELECT number FROM numbers(100) LIMIT 3 OFFSET 95;
SELECT number FROM numbers(100) LIMIT 95, 3;
SELECT number FROM numbers(10) ORDER BY number DESC LIMIT 4;
SELECT 1 + 1, 2 * 3, 7 / 2, 7 % 3, -5;
SELECT toTypeName(1), toTypeName(300), toTypeName(-1), toTypeName(1.5), toTypeName('a'), toTypeName(NULL);
SELECT NULL, true, false;
SELECT count() FROM numbers(1000);
SELECT * FROM system.one;
SELECT dummy FROM system.one;
SELECT number FROM system.numbers LIMIT 2;
SELECT foo(1); -- { serverError UNKNOWN_FUNCTION }
SELECT nosuchcolumn FROM numbers(1); -- { serverError UNKNOWN_IDENTIFIER }
SELECT 1 +; -- { serverError SYNTAX_ERROR }
