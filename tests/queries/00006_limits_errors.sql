SELECT number % 1000000 AS k, count() FROM numbers(10000000) GROUP BY k FORMAT Null SETTINGS max_memory_usage = 10000000; -- { serverError MEMORY_LIMIT_EXCEEDED }
SELECT 1 SETTINGS max_thread = 1; -- { serverError UNKNOWN_SETTING }
SET max_threads = 'abc'; -- { serverError CANNOT_PARSE_INPUT_ASSERTION_FAILED }
SELECT count() FROM numbers(100) SETTINGS max_threads = 1;
SET max_threads = 3;
SELECT getSetting('max_threads');
SELECT name, value, changed FROM system.settings WHERE name IN ('max_block_size', 'max_threads', 'output_format_pretty_max_rows') ORDER BY name;
SELECT * FROM numbers(3) FORMAT NoSuchFormat; -- { serverError UNKNOWN_FORMAT }
SELECT toUInt8('abc'); -- { serverError CANNOT_PARSE_TEXT }
SELECT 1 / 0, -1 / 0, 0 / 0, intDivOrZero(1, 0);
SELECT intDiv(1, 0); -- { serverError ILLEGAL_DIVISION }
SELECT CAST('x' AS NoSuchType); -- { serverError UNKNOWN_TYPE }
SELECT * FROM nosuchtable; -- { serverError UNKNOWN_TABLE }
SELECT * FROM system.nosuchtable; -- { serverError UNKNOWN_TABLE }
SELECT throwIf(number = 3) FROM numbers(5); -- { serverError FUNCTION_THROW_IF_VALUE_IS_NON_ZERO }
SELECT sum('a'); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT plus(1); -- { serverError NUMBER_OF_ARGUMENTS_DOESNT_MATCH }
