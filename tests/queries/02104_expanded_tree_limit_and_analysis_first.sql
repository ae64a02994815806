-- Aliases naming aliases expand into a tree that doubles at each step: past
-- max_expanded_ast_elements (500000) the query fails at once, as ClickHouse's does.
SELECT 1 AS a, a + a AS b, b + b AS c, c + c AS d, d + d AS e, e + e AS f, f + f AS g, g + g AS h, h + h AS i, i + i AS j, j + j AS k, k + k AS l, l + l AS m, m + m AS n, n + n AS o, o + o AS p, p + p AS q;
SELECT 1 AS a, a + a AS b, b + b AS c, c + c AS d, d + d AS e, e + e AS f, f + f AS g, g + g AS h, h + h AS i, i + i AS j, j + j AS k, k + k AS l, l + l AS m, m + m AS n, n + n AS o, o + o AS p, p + p AS q, q + q AS r; -- { serverError BAD_ARGUMENTS }
SELECT 1 AS a, a + a AS b, b + b AS c, c + c AS d, d + d AS e, e + e AS f, f + f AS g, g + g AS h, h + h AS i, i + i AS j, j + j AS k, k + k AS l, l + l AS m, m + m AS n, n + n AS o, o + o AS p, p + p AS q, q + q AS r, r + r AS s, s + s AS t, t + t AS u, u + u AS v, v + v AS w, w + w AS x, x + x AS y, y + y AS z; -- { serverError BAD_ARGUMENTS }
SELECT number AS a, a + a AS b, b + b AS c, c + c AS d FROM numbers(3) SETTINGS max_expanded_ast_elements = 10; -- { serverError BAD_ARGUMENTS }
SELECT number AS a, a + a AS b, b + b AS c, c + c AS d FROM numbers(3) SETTINGS max_expanded_ast_elements = 100;
-- The whole query is analysed before anything runs: an error in the outer query comes
-- before its (endless) subquery would.
SELECT number, count() FROM (SELECT number FROM system.numbers) GROUP BY number % 2; -- { serverError NOT_AN_AGGREGATE }
WITH t AS (SELECT number FROM system.numbers) SELECT number, count() FROM t GROUP BY number % 2; -- { serverError NOT_AN_AGGREGATE }
SELECT x, y FROM (SELECT number AS x FROM system.numbers); -- { serverError UNKNOWN_IDENTIFIER }
SELECT x FROM (SELECT number AS x FROM numbers(10) ORDER BY x DESC) LIMIT 3;
SELECT count() + 1, count() FROM (SELECT number FROM numbers(100000) WHERE number % 3 = 0);
WITH t AS (SELECT number AS n FROM numbers(5)) SELECT sum(n) FROM t WHERE n > 1;
-- A subquery that streams (no aggregation, sort or DISTINCT) is piped: the outer LIMIT
-- stops it, even when it is endless.
SELECT * FROM (SELECT number FROM system.numbers) LIMIT 5;
SELECT * FROM (SELECT number FROM system.numbers WHERE number > 10) WHERE number % 7 = 0 LIMIT 3;
SELECT * FROM (SELECT number FROM numbers(3) UNION ALL SELECT number FROM numbers(2));
SELECT count() FROM (SELECT number FROM numbers(1000000) WHERE number % 3 = 0);
SELECT k, count() FROM (SELECT number % 3 AS k FROM numbers(100000)) GROUP BY k ORDER BY k;
SELECT * FROM (SELECT throwIf(number = 5) FROM numbers(10)); -- { serverError FUNCTION_THROW_IF_VALUE_IS_NON_ZERO }
WITH t AS (SELECT number AS n FROM numbers(5)) SELECT a.n, b.n FROM t AS a JOIN t AS b ON a.n = b.n ORDER BY a.n;
