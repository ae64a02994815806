-- A materialized view without TO keeps its rows in an inner table made from its ENGINE
-- clauses; DROP removes both; POPULATE fills it from the source's current rows.
DROP TABLE IF EXISTS mvi_src;
DROP TABLE IF EXISTS mvi;
CREATE TABLE mvi_src (d Date, k String, x UInt64) ENGINE = MergeTree ORDER BY d;
INSERT INTO mvi_src VALUES ('2024-01-01', 'a', 1), ('2024-01-01', 'b', 2), ('2024-01-02', 'a', 3);
CREATE MATERIALIZED VIEW mvi ENGINE = MergeTree ORDER BY (k, d) POPULATE AS SELECT d, k, x * 10 AS x10 FROM mvi_src;
SELECT * FROM mvi ORDER BY k, d;
INSERT INTO mvi_src VALUES ('2024-01-03', 'c', 4);
SELECT * FROM mvi ORDER BY k, d;
SELECT count() FROM system.tables WHERE database = currentDatabase() AND name LIKE '.inner_id.%';
SELECT engine FROM system.tables WHERE database = currentDatabase() AND name = 'mvi';
SHOW CREATE TABLE mvi;
-- FINAL is refused (ClickHouse: the view's storage has none)
SELECT count() FROM mvi FINAL; -- { serverError ILLEGAL_FINAL }
-- INSERT INTO the view writes its inner table
INSERT INTO mvi VALUES ('2023-01-01', 'direct', 0);
SELECT * FROM mvi WHERE k = 'direct';
-- OPTIMIZE and TRUNCATE act on the inner table
OPTIMIZE TABLE mvi FINAL;
SELECT count() FROM mvi;
TRUNCATE TABLE mvi;
SELECT count() FROM mvi;
INSERT INTO mvi_src VALUES ('2024-01-04', 'd', 5);
SELECT * FROM mvi;
ALTER TABLE mvi DELETE WHERE k = 'd' SETTINGS mutations_sync = 2;
SELECT count() FROM mvi;
DELETE FROM mvi WHERE 1; -- { serverError BAD_ARGUMENTS }
SELECT name, total_rows, engine_full FROM system.tables WHERE database = currentDatabase() AND name IN ('mvi', 'mvi_src') ORDER BY name;
SELECT replaceRegexpOne(create_table_query, 'inner_id[^`]*', '') FROM system.tables WHERE database = currentDatabase() AND name = 'mvi';
DROP TABLE IF EXISTS mvi_copy;
CREATE TABLE mvi_copy AS mvi;
SHOW CREATE TABLE mvi_copy;
DROP TABLE mvi_copy;
CREATE OR REPLACE MATERIALIZED VIEW mvi ENGINE = Memory AS SELECT k FROM mvi_src;
INSERT INTO mvi_src VALUES ('2024-01-05', 'r', 6);
SELECT * FROM mvi;
DROP VIEW mvi;
SELECT count() FROM system.tables WHERE database = currentDatabase() AND name LIKE '.inner_id.%';
-- an inner table of another engine, and a view with no source table
CREATE MATERIALIZED VIEW IF NOT EXISTS mvi ENGINE = Log AS SELECT 1 AS one;
CREATE MATERIALIZED VIEW IF NOT EXISTS mvi ENGINE = Log AS SELECT 2 AS two;
SELECT * FROM mvi;
DESCRIBE mvi;
DROP TABLE mvi;
CREATE MATERIALIZED VIEW mvi ENGINE = Memory AS SELECT k, count() AS c FROM mvi_src GROUP BY k;
INSERT INTO mvi_src VALUES ('2024-01-05', 'z', 1), ('2024-01-05', 'z', 2), ('2024-01-05', 'y', 3);
INSERT INTO mvi_src VALUES ('2024-01-06', 'z', 1);
SELECT k, c FROM mvi ORDER BY k, c;
DROP TABLE mvi;
DROP TABLE mvi_src;
