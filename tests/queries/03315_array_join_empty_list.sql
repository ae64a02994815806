-- ARRAY JOIN without expressions parses and is refused by the analyzer, as ClickHouse.
SELECT x FROM (SELECT [1] AS arr, 1 AS x) ARRAY JOIN; -- { serverError NUMBER_OF_ARGUMENTS_DOESNT_MATCH }
SELECT x FROM (SELECT x FROM (SELECT [1] AS arr, 1 AS x) ARRAY JOIN); -- { serverError NUMBER_OF_ARGUMENTS_DOESNT_MATCH }
SELECT x FROM (SELECT [1] AS arr, 1 AS x) ARRAY JOIN WHERE x = 1; -- { clientError SYNTAX_ERROR }
SELECT x, a FROM (SELECT [1, 2] AS arr, 1 AS x) ARRAY JOIN arr AS a;
