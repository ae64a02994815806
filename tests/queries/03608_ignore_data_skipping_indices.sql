-- ignore_data_skipping_indices must name an index (CANNOT_PARSE_TEXT for an empty value)
-- when a table with data skipping indexes and data is read; the names need not exist.
CREATE TABLE t03608 (key Int32, x Int32, y Int32, INDEX x_idx x TYPE minmax GRANULARITY 1, INDEX y_idx y TYPE minmax GRANULARITY 1) ENGINE = MergeTree ORDER BY key;
SELECT * FROM t03608 SETTINGS ignore_data_skipping_indices = '';
INSERT INTO t03608 VALUES (1, 2, 3);
SELECT * FROM t03608;
SELECT * FROM t03608 SETTINGS ignore_data_skipping_indices = ''; -- { serverError CANNOT_PARSE_TEXT }
SELECT * FROM t03608 SETTINGS ignore_data_skipping_indices = '  '; -- { serverError CANNOT_PARSE_TEXT }
SELECT * FROM t03608 SETTINGS ignore_data_skipping_indices = 'x_idx';
SELECT * FROM t03608 SETTINGS ignore_data_skipping_indices = 'na_idx';
SELECT * FROM t03608 WHERE x = 2 AND y = 3 SETTINGS ignore_data_skipping_indices = 'x_idx, y_idx';
CREATE TABLE t03608_plain (key Int32) ENGINE = MergeTree ORDER BY key;
INSERT INTO t03608_plain VALUES (5);
SELECT * FROM t03608_plain SETTINGS ignore_data_skipping_indices = '';
SET ignore_data_skipping_indices = '';
SELECT 1;
SELECT * FROM t03608; -- { serverError CANNOT_PARSE_TEXT }
