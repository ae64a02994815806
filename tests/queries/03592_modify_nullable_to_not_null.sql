-- MODIFY COLUMN from Nullable to non-Nullable on MergeTree: refused without a DEFAULT (or
-- with DEFAULT NULL); with one, the NULL rows of old parts become the default.
DROP TABLE IF EXISTS nt;
CREATE TABLE nt (k UInt8, a Nullable(UInt32), b Nullable(UInt32) DEFAULT NULL, c Nullable(UInt32) DEFAULT 11, d LowCardinality(Nullable(String))) ENGINE = MergeTree ORDER BY k;
INSERT INTO nt VALUES (1, NULL, NULL, NULL, NULL), (2, 5, 6, 7, 'x');
ALTER TABLE nt MODIFY COLUMN a UInt64; -- { serverError BAD_ARGUMENTS }
ALTER TABLE nt MODIFY COLUMN b UInt64; -- { serverError CANNOT_CONVERT_TYPE }
ALTER TABLE nt MODIFY COLUMN d String; -- { serverError BAD_ARGUMENTS }
ALTER TABLE nt MODIFY COLUMN a UInt64 DEFAULT 42;
ALTER TABLE nt MODIFY COLUMN c UInt64;
ALTER TABLE nt MODIFY COLUMN d String DEFAULT 'empty';
SELECT * FROM nt ORDER BY k;
OPTIMIZE TABLE nt FINAL;
SELECT * FROM nt ORDER BY k;
SELECT name, type FROM system.columns WHERE database = currentDatabase() AND table = 'nt' ORDER BY position;
DROP TABLE nt;
