-- With enable_analyzer = 0 a joined table offers only its ordinary columns (ClickHouse's
-- old analyzer): its MATERIALIZED and ALIAS columns are unknown there.
CREATE TABLE t03607_1 (col UInt64, col_sq UInt64 MATERIALIZED col * col, col_al UInt64 ALIAS col + 1) ENGINE = MergeTree ORDER BY tuple();
INSERT INTO t03607_1 VALUES (1), (2);
CREATE TABLE t03607_2 (col UInt64) ENGINE = MergeTree ORDER BY tuple();
INSERT INTO t03607_2 VALUES (1), (2);
SELECT t1.col, t1.col_sq FROM t03607_2 AS t2 LEFT JOIN t03607_1 AS t1 ON t1.col = t2.col ORDER BY t1.col SETTINGS enable_analyzer = 1;
SELECT t1.col, t1.col_sq FROM t03607_2 AS t2 LEFT JOIN t03607_1 AS t1 ON t1.col = t2.col SETTINGS enable_analyzer = 0; -- { serverError UNKNOWN_IDENTIFIER }
SELECT t1.col_al FROM t03607_2 AS t2 LEFT JOIN t03607_1 AS t1 ON t1.col = t2.col SETTINGS enable_analyzer = 0; -- { serverError UNKNOWN_IDENTIFIER }
SELECT col_sq FROM t03607_2 AS t2 LEFT JOIN t03607_1 AS t1 ON t1.col = t2.col SETTINGS enable_analyzer = 0; -- { serverError UNKNOWN_IDENTIFIER }
SELECT t1.col_sq FROM t03607_1 AS t1 LEFT JOIN t03607_2 AS t2 ON t1.col = t2.col ORDER BY 1 SETTINGS enable_analyzer = 0;
SELECT t1.col, t2.col FROM t03607_2 AS t2 LEFT JOIN t03607_1 AS t1 ON t1.col = t2.col ORDER BY 1 SETTINGS enable_analyzer = 0;
