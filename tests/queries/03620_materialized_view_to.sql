-- CREATE MATERIALIZED VIEW … TO: every INSERT into the source runs the view's SELECT
-- over the inserted block and inserts the result into the target, by column name.
DROP TABLE IF EXISTS mv_src;
DROP TABLE IF EXISTS mv_dst;
DROP TABLE IF EXISTS mv_to;
CREATE TABLE mv_src (id UInt32, name String, v Float64) ENGINE = MergeTree ORDER BY id;
CREATE TABLE mv_dst (name String, id UInt64, doubled Float64, extra UInt8 DEFAULT 7) ENGINE = MergeTree ORDER BY id;
CREATE MATERIALIZED VIEW mv_to TO mv_dst AS SELECT id, upper(name) AS name, v * 2 AS doubled FROM mv_src WHERE id % 2 = 1;
-- rows already in the source before the view are not copied (no POPULATE)
INSERT INTO mv_src VALUES (1, 'a', 1.5), (2, 'b', 2.5), (3, 'c', 3.5);
INSERT INTO mv_src SELECT number + 10, toString(number), number FROM numbers(5);
SELECT * FROM mv_dst ORDER BY id;
-- reading the view reads the target, under the view's columns
SELECT * FROM mv_to ORDER BY id;
SELECT count(), sum(doubled) FROM mv_to WHERE id > 2;
SELECT name FROM mv_to ORDER BY id LIMIT 2;
DESCRIBE TABLE mv_to;
SELECT name, engine FROM system.tables WHERE database = currentDatabase() AND name LIKE 'mv\_%' ORDER BY name;
SHOW CREATE TABLE mv_to;
-- a column list of its own: types cast when read, a column the target lacks fails when read
DROP TABLE IF EXISTS mv_cols;
CREATE MATERIALIZED VIEW mv_cols TO mv_dst (id UInt8, doubled String, missing UInt8) AS SELECT id, toFloat64(v) AS doubled FROM mv_src;
SELECT id, doubled FROM mv_cols ORDER BY id;
SELECT missing FROM mv_cols; -- { serverError NOT_FOUND_COLUMN_IN_BLOCK }
DESCRIBE mv_cols;
SHOW CREATE TABLE mv_cols;
DROP TABLE mv_cols;
-- the source's own rows are all there
SELECT count() FROM mv_src;
-- dropping the view leaves the target; later inserts no longer reach it
DROP TABLE mv_to;
INSERT INTO mv_src VALUES (5, 'e', 5);
SELECT count() FROM mv_dst;
EXISTS TABLE mv_dst;
-- the source found through a CTE, and a scalar subquery over the source reading the block
DROP TABLE IF EXISTS mv_cte;
CREATE MATERIALIZED VIEW mv_cte TO mv_dst AS
    WITH picked AS (SELECT id, name, v FROM mv_src WHERE id > 1000)
    SELECT id + (SELECT count() FROM mv_src) AS id, name, v AS doubled FROM picked;
INSERT INTO mv_src VALUES (1001, 'x', 1), (1002, 'y', 2);
SELECT * FROM mv_dst WHERE id > 1000 ORDER BY id;
DROP TABLE mv_cte;
DROP TABLE mv_src;
DROP TABLE mv_dst;
