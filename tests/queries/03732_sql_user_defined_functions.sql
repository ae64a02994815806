-- SQL user-defined functions: CREATE [OR REPLACE] FUNCTION [IF NOT EXISTS] f AS lambda,
-- DROP FUNCTION [IF EXISTS], their errors, system.functions, expansion before analysis.
DROP FUNCTION IF EXISTS f_03732;
DROP FUNCTION IF EXISTS g_03732;
DROP FUNCTION IF EXISTS h_03732;
DROP FUNCTION IF EXISTS 03732_rec;
CREATE FUNCTION f_03732 AS (x, y) -> x + y * 2;
SELECT f_03732(1, 2), f_03732(y, 1) FROM (SELECT 5 AS y) FORMAT TSVWithNames;
SELECT name, origin, create_query, is_aggregate FROM system.functions WHERE name = 'f_03732';
CREATE FUNCTION f_03732 AS (x) -> x; -- { serverError FUNCTION_ALREADY_EXISTS }
CREATE FUNCTION IF NOT EXISTS f_03732 AS (x) -> x;
SELECT f_03732(1); -- { serverError BAD_ARGUMENTS }
CREATE OR REPLACE FUNCTION f_03732 AS x -> x * 10;
SELECT f_03732(3), create_query FROM system.functions WHERE name = 'f_03732';
CREATE FUNCTION sum AS (x) -> x; -- { serverError FUNCTION_ALREADY_EXISTS }
CREATE FUNCTION cast AS a -> a + 1; -- { serverError FUNCTION_ALREADY_EXISTS }
CREATE FUNCTION g_03732 AS (x, x) -> x; -- { serverError BAD_ARGUMENTS }
CREATE FUNCTION g_03732 AS 1 + 2; -- { serverError BAD_ARGUMENTS }
CREATE FUNCTION g_03732 AS lambda(x); -- { serverError BAD_ARGUMENTS }
CREATE FUNCTION g_03732 AS (a, b) -> g_03732(a, b) + 1; -- { serverError CANNOT_CREATE_RECURSIVE_FUNCTION }
CREATE FUNCTION 03732_rec AS x -> 03732_rec(x);
SELECT 03732_rec(1); -- { serverError UNSUPPORTED_METHOD }
CREATE FUNCTION g_03732 AS x -> x + 1;
CREATE FUNCTION h_03732 AS (x, y) -> if(x > y, concat('a', toString(g_03732(x))), toString(-y));
SELECT create_query FROM system.functions WHERE name IN ('g_03732', 'h_03732', '03732_rec') ORDER BY name;
SELECT g_03732(g_03732(1)) + 1, h_03732(5, 1), h_03732(1, 5) FORMAT TSVWithNames;
SELECT sum(g_03732(number)) FROM numbers(3) FORMAT TSVWithNames;
SELECT number FROM numbers(10) WHERE g_03732(number) > 8 ORDER BY g_03732(number) DESC FORMAT TSVWithNames;
SELECT g_03732(number % 2) AS k, count() FROM numbers(5) GROUP BY g_03732(number % 2) ORDER BY k;
SELECT * APPLY(g_03732) FROM (SELECT 1 AS a, 2 AS b) FORMAT TSVWithNames;
SELECT (SELECT g_03732(1));
DROP FUNCTION f_03732;
DROP FUNCTION f_03732; -- { serverError UNKNOWN_FUNCTION }
DROP FUNCTION IF EXISTS f_03732;
DROP FUNCTION sum; -- { serverError CANNOT_DROP_FUNCTION }
SELECT f_03732(1); -- { serverError UNKNOWN_FUNCTION }
DROP FUNCTION h_03732;
DROP FUNCTION g_03732;
DROP FUNCTION 03732_rec;
SELECT count() FROM system.functions WHERE origin = 'SQLUserDefined' AND name LIKE '%03732%';
-- ClickHouse counts SQL user-defined functions as non-deterministic for the query cache
CREATE FUNCTION q_03732 AS (a) -> a + 1;
SELECT q_03732(1) SETTINGS use_query_cache = true; -- { serverError QUERY_CACHE_USED_WITH_NONDETERMINISTIC_FUNCTIONS }
SELECT q_03732(1) SETTINGS use_query_cache = true, query_cache_nondeterministic_function_handling = 'save';
DROP FUNCTION q_03732;
CREATE FUNCTION z_03732 AS () -> 42;
SELECT z_03732(), create_query FROM system.functions WHERE name = 'z_03732';
DROP FUNCTION z_03732;
