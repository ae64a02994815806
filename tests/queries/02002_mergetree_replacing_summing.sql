-- ReplacingMergeTree and SummingMergeTree: collapsing on insert, on merge and with FINAL.
CREATE TABLE r (k UInt32, v String, ver UInt32) ENGINE = ReplacingMergeTree(ver) ORDER BY k;
INSERT INTO r VALUES (1, 'a', 1), (2, 'b', 1), (1, 'a2', 3), (1, 'a1', 2);
SELECT * FROM r ORDER BY k;
INSERT INTO r VALUES (2, 'b2', 5), (3, 'c', 1);
SELECT * FROM r FINAL ORDER BY k;
SELECT count() FROM r;
OPTIMIZE TABLE r FINAL;
SELECT * FROM r ORDER BY k;
CREATE TABLE r2 (k UInt32, v String) ENGINE = ReplacingMergeTree ORDER BY k;
INSERT INTO r2 VALUES (1, 'first'), (1, 'second');
INSERT INTO r2 VALUES (1, 'third');
SELECT * FROM r2 FINAL;
CREATE TABLE sm (k String, a UInt32, b Float64, c Int8) ENGINE = SummingMergeTree ORDER BY k;
INSERT INTO sm VALUES ('x', 1, 0.5, 1), ('y', 2, 1, 2), ('x', 3, 0.25, 3);
INSERT INTO sm VALUES ('x', 10, 1, 100), ('z', 0, 0, 0), ('y', 4294967295, 0, 127);
SELECT * FROM sm FINAL ORDER BY k;
OPTIMIZE TABLE sm FINAL;
SELECT * FROM sm ORDER BY k;
CREATE TABLE sm2 (k UInt8, a UInt32, b UInt32) ENGINE = SummingMergeTree(a) ORDER BY k;
INSERT INTO sm2 VALUES (1, 1, 5), (1, 2, 6), (2, 0, 9);
SELECT * FROM sm2 ORDER BY k;
CREATE TABLE bad (k UInt32) ENGINE = ReplacingMergeTree(nope) ORDER BY k; -- { serverError NO_SUCH_COLUMN_IN_TABLE }
CREATE TABLE bad2 (k UInt32, s String) ENGINE = ReplacingMergeTree(s) ORDER BY k; -- { serverError BAD_TYPE_OF_FIELD }
