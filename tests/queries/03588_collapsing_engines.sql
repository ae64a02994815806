-- CollapsingMergeTree, VersionedCollapsingMergeTree and CoalescingMergeTree: the rows kept
-- on insert (optimize_on_insert), by FINAL and by OPTIMIZE, and the engines' argument checks.
DROP TABLE IF EXISTS c;
CREATE TABLE c (k UInt32, v String, sign Int8) ENGINE = CollapsingMergeTree(sign) ORDER BY k;
SYSTEM STOP MERGES c;
INSERT INTO c VALUES (1,'a',1),(1,'b',-1),(2,'x',1),(3,'p',-1),(3,'q',-1),(4,'m',1),(4,'n',1),(4,'o',-1);
SELECT * FROM c ORDER BY k, v;
SELECT '-- final';
SELECT * FROM c FINAL ORDER BY k, v;
INSERT INTO c VALUES (2,'y',-1),(2,'z',1),(5,'e',-1),(5,'f',1),(6,'g',1);
INSERT INTO c VALUES (6,'h',-1);
SELECT '-- final, three parts';
SELECT * FROM c FINAL ORDER BY k, v;
SELECT count() FROM c FINAL;
SYSTEM START MERGES c;
OPTIMIZE TABLE c FINAL;
SELECT '-- optimized';
SELECT * FROM c ORDER BY k, v;
SELECT k, sum(sign) FROM c GROUP BY k HAVING sum(sign) > 0 ORDER BY k;

DROP TABLE IF EXISTS c_off;
CREATE TABLE c_off (k UInt32, v UInt8, sign Int8) ENGINE = CollapsingMergeTree(sign) ORDER BY k;
INSERT INTO c_off SETTINGS optimize_on_insert = 0 VALUES (1, 1, 1), (1, 2, 1), (1, 3, -1), (1, 4, -1), (1, 5, 1);
SELECT '-- without optimize_on_insert';
SELECT * FROM c_off ORDER BY v;
SELECT * FROM c_off FINAL;
OPTIMIZE TABLE c_off FINAL;
SELECT * FROM c_off ORDER BY v;

SELECT '-- bad signs';
DROP TABLE IF EXISTS c_bad;
CREATE TABLE c_bad (k UInt32, sign Int8) ENGINE = CollapsingMergeTree(sign) ORDER BY k;
INSERT INTO c_bad VALUES (1, 2); -- { serverError INCORRECT_DATA }
INSERT INTO c_bad VALUES (1, 1), (1, 0); -- { serverError INCORRECT_DATA }
SELECT count() FROM c_bad;
CREATE TABLE c_e1 (k UInt32, sign UInt8) ENGINE = CollapsingMergeTree(sign) ORDER BY k; -- { serverError BAD_TYPE_OF_FIELD }
CREATE TABLE c_e2 (k UInt32, sign Int8) ENGINE = CollapsingMergeTree() ORDER BY k; -- { serverError NUMBER_OF_ARGUMENTS_DOESNT_MATCH }
CREATE TABLE c_e3 (k UInt32, sign Int8) ENGINE = CollapsingMergeTree(s) ORDER BY k; -- { serverError NO_SUCH_COLUMN_IN_TABLE }
CREATE TABLE c_e4 (k UInt32, sign Nullable(Int8)) ENGINE = CollapsingMergeTree(sign) ORDER BY k; -- { serverError BAD_TYPE_OF_FIELD }
CREATE TABLE c_e5 (k UInt32, sign Int8) ENGINE = CollapsingMergeTree(sign, sign) ORDER BY k; -- { serverError NUMBER_OF_ARGUMENTS_DOESNT_MATCH }

SELECT '-- versioned';
DROP TABLE IF EXISTS v;
CREATE TABLE v (k UInt32, x String, sign Int8, ver UInt16) ENGINE = VersionedCollapsingMergeTree(sign, ver) ORDER BY k;
SYSTEM STOP MERGES v;
INSERT INTO v VALUES (1,'a',1,1),(1,'b',-1,1),(1,'c',1,2),(2,'d',-1,3),(2,'e',1,3),(2,'f',1,3),(3,'g',1,1);
SELECT * FROM v ORDER BY k, x;
INSERT INTO v VALUES (1,'h',-1,2),(3,'i',-1,1),(3,'j',1,2),(4,'k',1,1);
SELECT '-- versioned final';
SELECT * FROM v FINAL ORDER BY k, x;
SYSTEM START MERGES v;
OPTIMIZE TABLE v FINAL;
SELECT * FROM v ORDER BY k, x;
CREATE TABLE v_e1 (k UInt32, sign Int8, ver String) ENGINE = VersionedCollapsingMergeTree(sign, ver) ORDER BY k; -- { serverError BAD_TYPE_OF_FIELD }
CREATE TABLE v_e2 (k UInt32, sign Int8, ver UInt8) ENGINE = VersionedCollapsingMergeTree(sign) ORDER BY k; -- { serverError NUMBER_OF_ARGUMENTS_DOESNT_MATCH }
CREATE TABLE v_e3 (k UInt32, sign UInt8, ver UInt8) ENGINE = VersionedCollapsingMergeTree(sign, ver) ORDER BY k; -- { serverError BAD_TYPE_OF_FIELD }
DROP TABLE IF EXISTS v2;
CREATE TABLE v2 (k UInt32, sign Int8, ver DateTime) ENGINE = VersionedCollapsingMergeTree(sign, ver) ORDER BY (ver, k);
INSERT INTO v2 VALUES (1, 1, '2020-01-01 00:00:00'), (1, -1, '2020-01-01 00:00:00'), (1, 1, '2020-01-02 00:00:00');
SELECT * FROM v2 FINAL;

SELECT '-- coalescing';
DROP TABLE IF EXISTS co;
CREATE TABLE co (k UInt32, a Nullable(UInt32), b Nullable(String), c UInt8, arr Array(UInt8), s SimpleAggregateFunction(sum, UInt64), lc LowCardinality(Nullable(String))) ENGINE = CoalescingMergeTree ORDER BY k;
SYSTEM STOP MERGES co;
INSERT INTO co VALUES (1, 10, NULL, 1, [1], 1, 'x'), (2, NULL, 'x', 2, [], 2, NULL);
INSERT INTO co VALUES (1, NULL, 'y', 3, [], 3, NULL), (2, 5, NULL, 0, [2], 4, NULL), (3, NULL, NULL, 7, [3], 5, NULL);
INSERT INTO co VALUES (1, 7, NULL, 0, [4, 5], 6, NULL);
SELECT * FROM co FINAL ORDER BY k;
SYSTEM START MERGES co;
OPTIMIZE TABLE co FINAL;
SELECT * FROM co ORDER BY k;
DROP TABLE IF EXISTS co1;
CREATE TABLE co1 (k UInt32, a Nullable(UInt32), b Nullable(UInt32)) ENGINE = CoalescingMergeTree(a) ORDER BY k;
INSERT INTO co1 VALUES (1, 1, 1), (1, NULL, NULL), (2, NULL, 5), (2, 6, NULL);
SELECT * FROM co1 ORDER BY k;
DROP TABLE IF EXISTS co2;
CREATE TABLE co2 (k UInt32, a Nullable(UInt32), b Nullable(UInt32)) ENGINE = CoalescingMergeTree((a, b)) ORDER BY k;
INSERT INTO co2 VALUES (1, 1, 1), (1, NULL, NULL);
SELECT * FROM co2;
CREATE TABLE co_e1 (k UInt32, a Nullable(UInt32)) ENGINE = CoalescingMergeTree(k) ORDER BY k; -- { serverError BAD_ARGUMENTS }
CREATE TABLE co_e2 (k UInt32, a Nullable(UInt32)) ENGINE = CoalescingMergeTree(a, a) ORDER BY k; -- { serverError NUMBER_OF_ARGUMENTS_DOESNT_MATCH }
SHOW CREATE TABLE co1;
DROP TABLE c;
DROP TABLE c_off;
DROP TABLE c_bad;
DROP TABLE v;
DROP TABLE v2;
DROP TABLE co;
DROP TABLE co1;
DROP TABLE co2;
