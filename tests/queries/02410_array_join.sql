-- ARRAY JOIN and LEFT ARRAY JOIN: zipped arrays, aliases, several clauses, empty arrays.
DROP TABLE IF EXISTS aj;
CREATE TABLE aj (id UInt32, arr Array(UInt32), tags Array(String), n Array(Nullable(Int8)), lc Array(LowCardinality(String))) ENGINE = Memory;
INSERT INTO aj VALUES (1, [10, 20], ['a', 'b'], [1, NULL], ['x', 'y']), (2, [], [], [], []), (3, [30], ['c'], [NULL], ['z']);
SELECT id, arr FROM aj ARRAY JOIN arr ORDER BY id, arr;
SELECT id, arr, a FROM aj ARRAY JOIN arr AS a ORDER BY id, a;
SELECT id, x, t FROM aj ARRAY JOIN arr AS x, tags AS t ORDER BY id, x;
SELECT id, arr, tags FROM aj ARRAY JOIN arr, tags ORDER BY id, arr;
SELECT id, x, toTypeName(x) FROM aj LEFT ARRAY JOIN arr AS x ORDER BY id, x;
SELECT id, v, toTypeName(v), l, toTypeName(l) FROM aj LEFT ARRAY JOIN n AS v, lc AS l ORDER BY id, l;
SELECT id, t FROM aj LEFT ARRAY JOIN tags AS t ORDER BY id, t;
SELECT * FROM aj ARRAY JOIN arr ORDER BY id, arr;
SELECT * FROM aj ARRAY JOIN arr AS x ORDER BY id, x;
SELECT id, x, num FROM aj ARRAY JOIN arr AS x, arrayEnumerate(arr) AS num ORDER BY id, num;
SELECT id, x, y FROM aj ARRAY JOIN arr AS x ARRAY JOIN tags AS y ORDER BY id, x, y;
SELECT id, x FROM aj ARRAY JOIN arr AS x WHERE x > 15 ORDER BY id, x;
SELECT t, count(), sum(id) FROM aj ARRAY JOIN tags AS t GROUP BY t ORDER BY t;
SELECT count() FROM aj ARRAY JOIN arr AS x;
SELECT count() FROM aj LEFT ARRAY JOIN arr AS x;
SELECT id FROM aj ARRAY JOIN arr AS x ORDER BY id;
SELECT id, x + 1, arrayMap(e -> e * x, arr) FROM aj ARRAY JOIN arr AS x ORDER BY id, x;
SELECT id, e FROM aj ARRAY JOIN arrayFilter(v -> v > 10, arr) AS e ORDER BY id, e;
SELECT x, y FROM (SELECT [[1, 2], [3]] AS a) ARRAY JOIN a AS y ARRAY JOIN y AS x ORDER BY x;
SELECT number, x FROM numbers(4) ARRAY JOIN range(number) AS x WHERE number > 1 ORDER BY number, x;
SELECT number, x FROM numbers(3) LEFT ARRAY JOIN range(number) AS x ORDER BY number, x;
-- over a subquery and after a JOIN
SELECT k, x FROM (SELECT number AS k, range(number) AS r FROM numbers(4)) ARRAY JOIN r AS x ORDER BY k, x;
SELECT a.id, b.w, x FROM aj AS a INNER JOIN (SELECT 1 AS id, 'one' AS w UNION ALL SELECT 3, 'three') AS b ON a.id = b.id ARRAY JOIN a.arr AS x ORDER BY a.id, x;
-- arrays of a clause that nothing reads are left out, as ClickHouse does
SELECT id, x FROM aj ARRAY JOIN arr AS x, n AS unused ORDER BY id, x;
-- a Nested structure stored flat (n.a, n.b): ARRAY JOIN n zips its arrays
DROP TABLE IF EXISTS ajn;
CREATE TABLE ajn (k UInt8, `n.a` Array(Int32), `n.b` Array(String)) ENGINE = Memory;
INSERT INTO ajn VALUES (1, [1, 2], ['x', 'y']), (2, [], []), (3, [3], ['z']);
SELECT k, n.a, n.b FROM ajn ARRAY JOIN n ORDER BY k, n.a;
SELECT k, m.a, m.b, n.a FROM ajn LEFT ARRAY JOIN n AS m ORDER BY k, m.a;
SELECT * FROM ajn ARRAY JOIN n ORDER BY k, n.a;
SELECT n.a, n.b FROM (SELECT [1, 2] AS `n.a`, [3] AS `n.b`) ARRAY JOIN n; -- { serverError SIZES_OF_ARRAYS_DONT_MATCH }
DROP TABLE ajn;
-- errors
SELECT id, x, y FROM (SELECT 1 AS id, [1, 2] AS a, [3] AS b) ARRAY JOIN a AS x, b AS y; -- { serverError SIZES_OF_ARRAYS_DONT_MATCH }
SELECT id FROM aj ARRAY JOIN id; -- { serverError TYPE_MISMATCH }
SELECT 1 ARRAY JOIN [1, 2] AS x; -- { serverError SYNTAX_ERROR }
SELECT id FROM aj ARRAY JOIN nothing AS x; -- { serverError UNKNOWN_IDENTIFIER }
DROP TABLE aj;
