-- Errors of the deprecated MergeTree engine syntax, as ClickHouse reports them.
DROP TABLE IF EXISTS t03661;
CREATE TABLE t03661 (d Date, a UInt32) ENGINE = ReplacingMergeTree(a); -- { serverError NUMBER_OF_ARGUMENTS_DOESNT_MATCH }
SET allow_deprecated_syntax_for_merge_tree = 1;
CREATE TABLE t03661 (d Date, a UInt32) ENGINE = MergeTree(d, a); -- { serverError NUMBER_OF_ARGUMENTS_DOESNT_MATCH }
CREATE TABLE t03661 (d Date, a UInt32) ENGINE = MergeTree(d, a, a, a, 8192); -- { serverError NUMBER_OF_ARGUMENTS_DOESNT_MATCH }
CREATE TABLE t03661 (d Date, a UInt32) ENGINE = MergeTree(d, a, 8192) ORDER BY a; -- { serverError NUMBER_OF_ARGUMENTS_DOESNT_MATCH }
CREATE TABLE t03661 (d Date, a UInt32) ENGINE = MergeTree(a, a, 8192); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
CREATE TABLE t03661 (d DateTime, a UInt32) ENGINE = MergeTree(d, a, 8192); -- { serverError BAD_TYPE_OF_FIELD }
CREATE TABLE t03661 (d Date32, a UInt32) ENGINE = MergeTree(d, a, 8192); -- { serverError BAD_TYPE_OF_FIELD }
CREATE TABLE t03661 (d Nullable(Date), a UInt32) ENGINE = MergeTree(d, a, 8192); -- { serverError ILLEGAL_COLUMN }
CREATE TABLE t03661 (d Date, a UInt32) ENGINE = MergeTree(toDate(a), a, 8192); -- { serverError BAD_ARGUMENTS }
CREATE TABLE t03661 (d Date, a UInt32) ENGINE = MergeTree(d, a, 8192 + 1); -- { serverError BAD_ARGUMENTS }
CREATE TABLE t03661 (d Date, a UInt32) ENGINE = MergeTree(d, a, '8192'); -- { serverError BAD_ARGUMENTS }
CREATE TABLE t03661 (d Date, a UInt32) ENGINE = MergeTree(d, a, -1); -- { serverError BAD_ARGUMENTS }
CREATE TABLE t03661 (d Date, a UInt32) ENGINE = MergeTree(d, a, 0); -- { serverError BAD_ARGUMENTS }
CREATE TABLE t03661 (d Date, a UInt32) ENGINE = MergeTree(d, tuple(), 8192);
SHOW CREATE TABLE t03661;
SELECT sorting_key, primary_key FROM system.tables WHERE database = currentDatabase() AND name = 't03661';
DROP TABLE t03661;
CREATE TABLE t03661 (d Date, a UInt32, b String) ENGINE = MergeTree(d, b, 8192, 7); -- { serverError ILLEGAL_COLUMN }
CREATE TABLE t03661 (d Date, a UInt32) ENGINE = MergeTree(d, a, a, 8192);
SELECT sorting_key, sampling_key FROM system.tables WHERE database = currentDatabase() AND name = 't03661';
DROP TABLE t03661;
CREATE TABLE t03661 (d Date, a UInt32, b String) ENGINE = MergeTree(d, b, a, 8192); -- { serverError BAD_ARGUMENTS }
CREATE TABLE t03661 (d Date, a UInt32, b String) ENGINE = MergeTree(d, b, (a, b), 8192); -- { serverError ILLEGAL_TYPE_OF_COLUMN_FOR_FILTER }
-- ALTERs the old syntax cannot express
CREATE TABLE t03661 (d Date, a UInt32, v String) ENGINE = MergeTree(d, a, 8192);
ALTER TABLE t03661 ADD INDEX ia a TYPE minmax GRANULARITY 1; -- { serverError BAD_ARGUMENTS }
ALTER TABLE t03661 MODIFY SETTING index_granularity = 1; -- { serverError BAD_ARGUMENTS }
ALTER TABLE t03661 MODIFY ORDER BY (a, v); -- { serverError BAD_ARGUMENTS }
ALTER TABLE t03661 MODIFY TTL d + INTERVAL 1 DAY; -- { serverError BAD_ARGUMENTS }
SELECT 'ok';
DROP TABLE t03661;
