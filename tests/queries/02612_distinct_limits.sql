-- DISTINCT does not spill in ClickHouse: its set is bounded by max_rows_in_distinct and
-- max_bytes_in_distinct (distinct_overflow_mode 'throw'), checked after each block.
SET max_block_size = 65536;
SELECT count() FROM (SELECT DISTINCT number % 1000 FROM numbers(100000)) SETTINGS max_rows_in_distinct = 1000;
SELECT count() FROM (SELECT DISTINCT number % 1001 FROM numbers(100000)) SETTINGS max_rows_in_distinct = 1000; -- { serverError SET_SIZE_LIMIT_EXCEEDED }
SELECT count() FROM (SELECT DISTINCT number FROM numbers(100000)) SETTINGS max_bytes_in_distinct = 1000; -- { serverError SET_SIZE_LIMIT_EXCEEDED }
SELECT count() FROM (SELECT DISTINCT number % 10 FROM numbers(100000)) SETTINGS max_bytes_in_distinct = 100000000;
SELECT DISTINCT number % 3 AS x FROM numbers(10) ORDER BY x SETTINGS max_rows_in_distinct = 3;
