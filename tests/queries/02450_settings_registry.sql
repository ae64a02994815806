-- Every ClickHouse setting is known with its type and default; values are checked as
-- ClickHouse checks them; SET, SETTINGS and system.settings agree.
SELECT name, type, default, alias_for, is_obsolete FROM system.settings
WHERE name IN ('load_balancing', 'max_block_size', 'transform_null_in', 'enable_analyzer', 'format_csv_delimiter',
               'join_algorithm', 'max_execution_time', 'additional_table_filters', 'totals_mode', 'session_timezone')
ORDER BY name;
SELECT count() > 1700 FROM system.settings;

SET transform_null_in = 'True';
SELECT name, value, changed FROM system.settings WHERE name = 'transform_null_in';
SET transform_null_in = 0;
SET max_block_size = 1e3;
SELECT value, changed FROM system.settings WHERE name = 'max_block_size';
SET max_block_size = 1.5;
SELECT value FROM system.settings WHERE name = 'max_block_size';
SET max_block_size = 65409;
SET join_algorithm = 'hash, direct';
SELECT value FROM system.settings WHERE name = 'join_algorithm';
SET max_execution_time = 1.5;
SELECT value FROM system.settings WHERE name = 'max_execution_time';
SET max_execution_time = 0;
SET load_balancing = 'in_order';
SELECT value, changed FROM system.settings WHERE name = 'load_balancing';
SELECT 1 SETTINGS optimize_move_to_prewhere = 0, use_query_cache = 0, max_bytes_before_external_sort = 0;

SET transform_null_in = 2; -- { serverError CANNOT_CONVERT_TYPE }
SET transform_null_in = 'yes'; -- { serverError CANNOT_PARSE_BOOL }
SET max_block_size = -1; -- { serverError CANNOT_CONVERT_TYPE }
SET max_block_size = 0; -- { serverError BAD_ARGUMENTS }
SET max_block_size = 'many'; -- { serverError CANNOT_PARSE_INPUT_ASSERTION_FAILED }
SET load_balancing = 'nowhere'; -- { serverError UNKNOWN_LOAD_BALANCING }
SET totals_mode = 'BEFORE_HAVING'; -- { serverError UNKNOWN_TOTALS_MODE }
SET send_logs_level = 'Fatal'; -- { serverError BAD_ARGUMENTS }
SET join_algorithm = 'hash, nope'; -- { serverError UNKNOWN_JOIN }
SET format_csv_delimiter = 'ab'; -- { serverError SIZE_OF_FIXED_STRING_DOESNT_MATCH }
SET additional_table_filters = 'x'; -- { serverError CANNOT_PARSE_INPUT_ASSERTION_FAILED }
SET union_default_mode = 'SOME'; -- { serverError UNKNOWN_UNION }
SET overflow_mode_nope = 1; -- { serverError UNKNOWN_SETTING }
SELECT 1 SETTINGS max_threads = -1; -- { serverError CANNOT_CONVERT_TYPE }

-- An alias and the setting it names are one value.
SET max_insert_block_size_rows = 1000;
SELECT name, value, changed FROM system.settings WHERE name IN ('max_insert_block_size', 'max_insert_block_size_rows') ORDER BY name;
SELECT getSetting('max_insert_block_size');

-- Size suffixes: K, M, G… are powers of 1000, Ki, Mi, Gi… of 1024.
SET max_block_size = '10Ki';
SELECT getSetting('max_block_size');
SET max_memory_usage = '2G';
SELECT value FROM system.settings WHERE name = 'max_memory_usage';
SET max_memory_usage = 0;
SET max_block_size = '10KiB'; -- { serverError CANNOT_PARSE_INPUT_ASSERTION_FAILED }
DROP TABLE IF EXISTS mt_02450;
CREATE TABLE mt_02450 (x UInt8) ENGINE = MergeTree ORDER BY x SETTINGS index_granularity_bytes = '10Mi', min_index_granularity_bytes = 1024;
INSERT INTO mt_02450 VALUES (1);
SELECT * FROM mt_02450;
DROP TABLE mt_02450;
SET session_timezone = 'Абырвалг'; -- { serverError BAD_ARGUMENTS }
SET session_timezone = 'Asia/Tokyo';
SELECT value FROM system.settings WHERE name = 'session_timezone';
SET session_timezone = '';
