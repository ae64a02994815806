-- values() table function, INSERT … VALUES with expressions, CREATE TABLE … AS SELECT /
-- AS other table / EMPTY AS SELECT, EXCHANGE TABLES, RENAME across databases, TRUNCATE
SELECT * FROM values('a UInt8, b String', (1, 'x'), (2, 'y'));
SELECT * FROM values((1, 'a'), (300, 'b'));
SELECT *, toTypeName(c1) FROM values(1, -2, 3.5);
SELECT * FROM values('x UInt8', 1 + 1, 2 * 3);
SELECT * FROM values('x Tuple(UInt8, String)', (1, 'q'));
SELECT * FROM values('a Nullable(UInt8)', NULL, 2);
SELECT * FROM values([1, 2], [3]);
DESCRIBE values((1, 'a', NULL), (2, 'b', 3));
SELECT sum(a), groupArray(b) FROM values('a Int64, b String', (1, 'p'), (-5, 'q'), (10, 'r'));
SELECT * FROM values('x UInt8, y String', 1); -- { serverError BAD_ARGUMENTS }
SELECT * FROM values('x UInt8, y String', (1, 'q', 3)); -- { serverError BAD_ARGUMENTS }
SELECT * FROM values(); -- { serverError TOO_FEW_ARGUMENTS_FOR_FUNCTION }
DROP TABLE IF EXISTS src;
DROP TABLE IF EXISTS cp;
DROP TABLE IF EXISTS em;
CREATE TABLE src (k UInt32, s String, d Date) ENGINE = MergeTree ORDER BY k;
INSERT INTO src VALUES (1 + 1, concat('a', 'b'), toDate('2024-01-01') + 3), (length('xyz'), upper('q'), '2024-05-05');
SELECT * FROM src ORDER BY k;
CREATE TABLE cp ENGINE = Memory AS SELECT k * 10 AS k10, s FROM src;
SELECT * FROM cp ORDER BY k10;
CREATE TABLE em ENGINE = MergeTree ORDER BY k EMPTY AS SELECT * FROM src;
SELECT count() FROM em;
SHOW CREATE TABLE em;
CREATE TABLE like_src AS src;
SHOW CREATE TABLE like_src;
CREATE TABLE like_mem AS src ENGINE = Memory;
INSERT INTO like_mem SELECT * FROM src;
SELECT * FROM like_mem ORDER BY k;
EXCHANGE TABLES cp AND like_mem;
SELECT * FROM cp ORDER BY k;
SELECT * FROM like_mem ORDER BY k10;
EXCHANGE TABLES cp AND nope; -- { serverError UNKNOWN_TABLE }
DROP DATABASE IF EXISTS other_db;
CREATE DATABASE other_db;
RENAME TABLE em TO other_db.em2;
INSERT INTO other_db.em2 SELECT * FROM src;
SELECT * FROM other_db.em2 ORDER BY k;
EXISTS TABLE em;
TRUNCATE TABLE other_db.em2;
SELECT count() FROM other_db.em2;
DROP DATABASE other_db;
DROP TABLE src;
DROP TABLE cp;
DROP TABLE like_src;
DROP TABLE like_mem;
