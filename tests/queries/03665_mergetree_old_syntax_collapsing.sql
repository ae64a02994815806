-- CollapsingMergeTree(d, key, g, sign) and VersionedCollapsingMergeTree(d, key, g, sign, version)
-- in the deprecated engine syntax.
DROP TABLE IF EXISTS c03665;
DROP TABLE IF EXISTS v03665;
SET allow_deprecated_syntax_for_merge_tree = 1;
CREATE TABLE c03665 (d Date, k UInt32, v String, sign Int8) ENGINE = CollapsingMergeTree(d, k, 8192, 1); -- { serverError BAD_ARGUMENTS }
CREATE TABLE c03665 (d Date, k UInt32, v String, sign Int8) ENGINE = CollapsingMergeTree(d, k); -- { serverError NUMBER_OF_ARGUMENTS_DOESNT_MATCH }
CREATE TABLE c03665 (d Date, k UInt32, v String, sign Int8) ENGINE = CollapsingMergeTree(d, k, 8192, sign);
CREATE TABLE v03665 (d Date, k UInt32, v String, sign Int8, ver UInt32) ENGINE = VersionedCollapsingMergeTree(d, k, 8192, sign, ver);
SELECT name, engine_full, partition_key, sorting_key FROM system.tables WHERE database = currentDatabase() AND name LIKE '%03665' ORDER BY name;
INSERT INTO c03665 VALUES ('2022-03-01', 1, 'a', 1), ('2022-03-02', 2, 'b', 1);
INSERT INTO c03665 VALUES ('2022-03-05', 1, 'a', -1), ('2022-03-06', 1, 'c', 1);
INSERT INTO v03665 VALUES ('2022-03-01', 1, 'a', 1, 1), ('2022-03-02', 2, 'b', 1, 1);
INSERT INTO v03665 VALUES ('2022-03-05', 1, 'a', -1, 1), ('2022-03-06', 1, 'c', 1, 2);
SELECT * FROM c03665 FINAL ORDER BY k;
SELECT * FROM v03665 FINAL ORDER BY k;
OPTIMIZE TABLE c03665 FINAL;
OPTIMIZE TABLE v03665 FINAL;
SELECT table, name, rows FROM system.parts WHERE database = currentDatabase() AND table LIKE '%03665' AND active ORDER BY table, name;
SELECT * FROM c03665 ORDER BY k;
SELECT * FROM v03665 ORDER BY k;
DROP TABLE c03665;
DROP TABLE v03665;
