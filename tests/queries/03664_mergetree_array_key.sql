-- Array columns in a MergeTree sorting key (new and deprecated syntax): rows sort by the
-- arrays (element by element, a prefix first), the primary index holds them and prunes.
DROP TABLE IF EXISTS t03664;
CREATE TABLE t03664 (a Array(UInt8), s String) ENGINE = MergeTree ORDER BY (a, s) SETTINGS index_granularity = 2;
INSERT INTO t03664 SELECT CAST(range(number % 7) AS Array(UInt8)), toString(number) FROM numbers(50);
SELECT count() FROM t03664 WHERE a = [0, 1];
SELECT count() FROM t03664 WHERE a < [0, 1, 2];
SELECT count() FROM t03664 WHERE a >= [0, 1, 2, 3] AND a <= [0, 1, 2, 3, 4];
SELECT count() FROM t03664 WHERE a IN ([0], [0, 1, 2]);
SELECT count() FROM t03664 WHERE a > [1];
SELECT count() FROM t03664 WHERE a > [0, 1, 2] AND s < '3';
SELECT a, min(s), count() FROM t03664 GROUP BY a ORDER BY a;
SELECT a, s FROM t03664 WHERE s < '13' ORDER BY a, s;
DROP TABLE t03664;
SET allow_deprecated_syntax_for_merge_tree = 1;
CREATE TABLE t03664 (k Array(String), n UInt64, d Date MATERIALIZED '2001-02-03') ENGINE = MergeTree(d, (k, n), 1);
INSERT INTO t03664 VALUES (['b', 'a'], 1), (['b'], 2), ([], 3);
INSERT INTO t03664 VALUES (['a', 'c'], 4), (['b', 'a', ''], 5);
OPTIMIZE TABLE t03664 FINAL;
SELECT name FROM system.parts WHERE database = currentDatabase() AND table = 't03664' AND active;
SELECT * FROM t03664;
DETACH TABLE t03664;
ATTACH TABLE t03664;
SELECT * FROM t03664 WHERE k >= ['b'];
DROP TABLE t03664;
