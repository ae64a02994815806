-- ENGINE = Join(strictness, kind, keys): each strictness/kind pair on the right of a JOIN
-- that matches it, SELECT from the table, and the checks of an incompatible JOIN.
CREATE TABLE l (k UInt64, a String) ENGINE = Memory;
INSERT INTO l VALUES (1, 'l1'), (1, 'l1b'), (2, 'l2'), (4, 'l4');

CREATE TABLE j_any_left (k UInt64, v String) ENGINE = Join(ANY, LEFT, k);
INSERT INTO j_any_left VALUES (1, 'a'), (1, 'a2'), (2, 'b');
INSERT INTO j_any_left VALUES (3, 'c'), (2, 'b2');
SELECT 'any left';
SELECT * FROM l ANY LEFT JOIN j_any_left USING (k) ORDER BY ALL;
SELECT * FROM l ANY LEFT JOIN j_any_left AS r ON l.k = r.k ORDER BY ALL;
SELECT * FROM j_any_left ORDER BY k;
SELECT count() FROM j_any_left;

CREATE TABLE j_any_inner (k UInt64, v String) ENGINE = Join(ANY, INNER, k);
INSERT INTO j_any_inner VALUES (1, 'a'), (1, 'a2'), (2, 'b'), (3, 'c');
SELECT 'any inner';
SELECT * FROM l ANY INNER JOIN j_any_inner USING (k) ORDER BY ALL;
SELECT * FROM j_any_inner ORDER BY k;

CREATE TABLE j_any_right (k UInt64, v String) ENGINE = Join(ANY, RIGHT, k);
INSERT INTO j_any_right VALUES (1, 'a'), (1, 'a2'), (2, 'b'), (3, 'c');
SELECT 'any right';
SELECT * FROM l ANY RIGHT JOIN j_any_right USING (k) ORDER BY ALL;
SELECT * FROM j_any_right ORDER BY ALL;

CREATE TABLE j_all_left (k UInt64, v String) ENGINE = Join(ALL, LEFT, k);
INSERT INTO j_all_left VALUES (1, 'a'), (1, 'a2'), (2, 'b'), (3, 'c');
SELECT 'all left';
SELECT * FROM l ALL LEFT JOIN j_all_left USING (k) ORDER BY ALL;
SELECT * FROM l LEFT JOIN j_all_left USING (k) ORDER BY ALL;
SELECT * FROM j_all_left ORDER BY ALL;

CREATE TABLE j_all_inner (k UInt64, v String) ENGINE = Join(ALL, INNER, k);
INSERT INTO j_all_inner VALUES (1, 'a'), (1, 'a2'), (2, 'b'), (3, 'c');
SELECT 'all inner';
SELECT * FROM l ALL INNER JOIN j_all_inner USING (k) ORDER BY ALL;
SELECT * FROM l JOIN j_all_inner USING (k) ORDER BY ALL;

CREATE TABLE j_all_right (k UInt64, v String) ENGINE = Join(ALL, RIGHT, k);
INSERT INTO j_all_right VALUES (1, 'a'), (1, 'a2'), (2, 'b'), (3, 'c');
SELECT 'all right';
SELECT * FROM l ALL RIGHT JOIN j_all_right USING (k) ORDER BY ALL;

CREATE TABLE j_all_full (k UInt64, v String) ENGINE = Join(ALL, FULL, k);
INSERT INTO j_all_full VALUES (1, 'a'), (1, 'a2'), (2, 'b'), (3, 'c');
SELECT 'all full';
SELECT * FROM l ALL FULL JOIN j_all_full USING (k) ORDER BY ALL;

CREATE TABLE j_semi_left (k UInt64, v String) ENGINE = Join(SEMI, LEFT, k);
INSERT INTO j_semi_left VALUES (1, 'a'), (1, 'a2'), (2, 'b'), (3, 'c');
SELECT 'semi left';
SELECT * FROM l SEMI LEFT JOIN j_semi_left USING (k) ORDER BY ALL;
SELECT * FROM j_semi_left ORDER BY k;

CREATE TABLE j_anti_left (k UInt64, v String) ENGINE = Join(ANTI, LEFT, k);
INSERT INTO j_anti_left VALUES (1, 'a'), (1, 'a2'), (2, 'b'), (3, 'c');
SELECT 'anti left';
SELECT * FROM l ANTI LEFT JOIN j_anti_left USING (k) ORDER BY ALL;

CREATE TABLE j_semi_right (k UInt64, v String) ENGINE = Join(SEMI, RIGHT, k);
INSERT INTO j_semi_right VALUES (1, 'a'), (1, 'a2'), (2, 'b'), (3, 'c');
SELECT 'semi right';
SELECT * FROM l SEMI RIGHT JOIN j_semi_right USING (k) ORDER BY ALL;

CREATE TABLE j_anti_right (k UInt64, v String) ENGINE = Join(ANTI, RIGHT, k);
INSERT INTO j_anti_right VALUES (1, 'a'), (1, 'a2'), (2, 'b'), (3, 'c');
SELECT 'anti right';
SELECT * FROM l ANTI RIGHT JOIN j_anti_right USING (k) ORDER BY ALL;

SELECT 'two keys, in another order';
CREATE TABLE j2 (b UInt8, a UInt8, v String) ENGINE = Join(ALL, INNER, a, b);
INSERT INTO j2 VALUES (1, 1, 'x'), (2, 1, 'y'), (1, 2, 'z');
SELECT a, b, v FROM (SELECT toUInt8(number % 3) AS a, toUInt8(number % 2) AS b FROM numbers(6)) AS t ALL INNER JOIN j2 USING (b, a) ORDER BY ALL;
SELECT t.a, t.b, v FROM (SELECT toUInt8(number % 3) AS x, toUInt8(number % 2) AS y, x AS a, y AS b FROM numbers(6)) AS t
    ALL INNER JOIN j2 ON t.y = j2.b AND t.x = j2.a ORDER BY ALL;

SELECT 'incompatible';
SELECT * FROM l ALL LEFT JOIN j_any_left USING (k); -- { serverError INCOMPATIBLE_TYPE_OF_JOIN }
SELECT * FROM l ANY INNER JOIN j_any_left USING (k); -- { serverError INCOMPATIBLE_TYPE_OF_JOIN }
SELECT * FROM l ANY LEFT JOIN j_any_left USING (k) SETTINGS join_use_nulls = 1; -- { serverError INCOMPATIBLE_TYPE_OF_JOIN }
SELECT * FROM l CROSS JOIN j_any_left ORDER BY ALL;
SELECT * FROM l ALL INNER JOIN j2 ON l.k = j2.a; -- { serverError INCOMPATIBLE_TYPE_OF_JOIN }
SELECT * FROM l ANY LEFT JOIN j_any_left AS r ON l.k = r.k AND r.v = 'a'; -- { serverError INCOMPATIBLE_TYPE_OF_JOIN }

SELECT 'join_use_nulls';
CREATE TABLE j_nulls (k UInt64, v String) ENGINE = Join(ANY, LEFT, k) SETTINGS join_use_nulls = 1;
INSERT INTO j_nulls VALUES (1, 'a');
SELECT k, v, toTypeName(v) FROM l ANY LEFT JOIN j_nulls USING (k) ORDER BY ALL SETTINGS join_use_nulls = 1;
SELECT * FROM l ANY LEFT JOIN j_nulls USING (k); -- { serverError INCOMPATIBLE_TYPE_OF_JOIN }
SELECT *, toTypeName(v) FROM j_nulls;

SELECT 'take last row';
CREATE TABLE j_last (k UInt64, v String) ENGINE = Join(ANY, LEFT, k) SETTINGS join_any_take_last_row = 1;
INSERT INTO j_last VALUES (1, 'a'), (1, 'a2');
INSERT INTO j_last VALUES (1, 'a3'), (2, 'b');
SELECT * FROM l ANY LEFT JOIN j_last USING (k) ORDER BY ALL;
SELECT * FROM j_last ORDER BY k;

SELECT 'create errors';
CREATE TABLE bad (k UInt64) ENGINE = Join(ASOF, LEFT, k); -- { serverError BAD_ARGUMENTS }
CREATE TABLE bad (k UInt64) ENGINE = Join(ANY, CROSS, k); -- { serverError BAD_ARGUMENTS }
CREATE TABLE bad (k UInt64) ENGINE = Join(SEMI, INNER, k); -- { serverError BAD_ARGUMENTS }
CREATE TABLE bad (k UInt64) ENGINE = Join(ANY, FULL, k); -- { serverError NOT_IMPLEMENTED }
CREATE TABLE bad (k UInt64) ENGINE = Join(ANY, LEFT); -- { serverError NUMBER_OF_ARGUMENTS_DOESNT_MATCH }
CREATE TABLE bad (k UInt64) ENGINE = Join(ANY, LEFT, z); -- { serverError NO_SUCH_COLUMN_IN_TABLE }
CREATE TABLE bad (k UInt64) ENGINE = Join('ANY', LEFT, k); -- { serverError BAD_ARGUMENTS }
CREATE TABLE bad (k UInt64) ENGINE = Join(ANY, LEFT, k) SETTINGS foo = 1; -- { serverError BAD_ARGUMENTS }
CREATE TABLE lower_case (k UInt64, v UInt8) ENGINE = Join(any, left, k) SETTINGS persistent = 0, max_rows_in_join = 10;
INSERT INTO lower_case VALUES (7, 1);
SELECT * FROM lower_case;
SHOW CREATE TABLE lower_case;
TRUNCATE TABLE lower_case;
SELECT count() FROM lower_case;
DROP TABLE lower_case;

SELECT 'null keys';
CREATE TABLE j_null_right (k Nullable(UInt64), v String) ENGINE = Join(ALL, RIGHT, k);
INSERT INTO j_null_right VALUES (1, 'a'), (NULL, 'n'), (3, 'c');
SELECT * FROM j_null_right ORDER BY ALL;
SELECT k, v FROM (SELECT toNullable(toUInt64(number)) AS k FROM numbers(2)) AS t ALL RIGHT JOIN j_null_right USING (k) ORDER BY ALL;
CREATE TABLE j_null_left (k Nullable(UInt64), v String) ENGINE = Join(ANY, LEFT, k);
INSERT INTO j_null_left VALUES (1, 'a'), (NULL, 'n'), (3, 'c');
SELECT * FROM j_null_left ORDER BY ALL;
SELECT k, v FROM (SELECT arrayJoin([1, NULL, 3]::Array(Nullable(UInt64))) AS k) AS t ANY LEFT JOIN j_null_left USING (k) ORDER BY ALL;

SELECT 'key types';
CREATE TABLE j_u32 (k UInt32, v String) ENGINE = Join(ANY, LEFT, k);
INSERT INTO j_u32 VALUES (1, 'a'), (3, 'c');
SELECT k, v FROM (SELECT toUInt8(arrayJoin([1, 2, 3])) AS k) AS t ANY LEFT JOIN j_u32 USING (k) ORDER BY ALL;
SELECT k, v FROM (SELECT toNullable(toUInt32(arrayJoin([1, 2, 3]))) AS k) AS t ANY LEFT JOIN j_u32 USING (k) ORDER BY ALL;
SELECT k, v FROM (SELECT toUInt64(arrayJoin([1, 2, 3])) AS k) AS t ANY LEFT JOIN j_u32 USING (k); -- { serverError INCOMPATIBLE_TYPE_OF_JOIN }
SELECT k, v FROM (SELECT toInt32(arrayJoin([1, 2, 3])) AS k) AS t ANY LEFT JOIN j_u32 USING (k); -- { serverError INCOMPATIBLE_TYPE_OF_JOIN }
