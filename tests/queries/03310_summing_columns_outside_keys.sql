-- SummingMergeTree's columns to sum may not be used by the sorting or partition key.
DROP TABLE IF EXISTS 03310_s;
CREATE TABLE 03310_s (a Int64, d Int64, val Int64) ENGINE = SummingMergeTree((a, val)) PARTITION BY (a) ORDER BY (d); -- { serverError BAD_ARGUMENTS }
CREATE TABLE 03310_s (a Int64, d Int64, val Int64) ENGINE = SummingMergeTree((a, val)) PARTITION BY (a % 5) ORDER BY (d); -- { serverError BAD_ARGUMENTS }
CREATE TABLE 03310_s (a Int64, d Int64, val Int64) ENGINE = SummingMergeTree((d, val)) PARTITION BY (a) ORDER BY (d % 5); -- { serverError BAD_ARGUMENTS }
CREATE TABLE 03310_s (a Int64, d Int64, val Int64) ENGINE = SummingMergeTree((x, val)) ORDER BY (d); -- { serverError NO_SUCH_COLUMN_IN_TABLE }
CREATE TABLE 03310_s (a Int64, d Int64, val Int64) ENGINE = SummingMergeTree(val) PARTITION BY a ORDER BY (d);
INSERT INTO 03310_s VALUES (1, 1, 10), (1, 1, 5), (2, 1, 7);
OPTIMIZE TABLE 03310_s FINAL;
SELECT * FROM 03310_s ORDER BY a;
DROP TABLE 03310_s;
