-- MergeTree settings that change no answer (storage layout, caches, obsolete ones) are
-- accepted; enable_block_number_column at its default too.
DROP TABLE IF EXISTS ms;
CREATE TABLE ms (x UInt8, s Nullable(String)) ENGINE = MergeTree ORDER BY x
SETTINGS serialization_info_version = 'basic', min_bytes_for_full_part_storage = 0, min_rows_for_compact_part = 3,
    write_marks_for_substreams_in_compact_parts = 1, use_const_adaptive_granularity = 1, nullable_serialization_version = 'basic',
    enable_block_number_column = 0, enable_block_offset_column = 0, prewarm_mark_cache = 1, cleanup_delay_period = 1,
    allow_vertical_merges_from_compact_to_wide_parts = 1, merge_max_block_size_bytes = 1000, in_memory_parts_enable_wal = 0;
INSERT INTO ms VALUES (2, 'b'), (1, NULL);
SELECT * FROM ms ORDER BY x;
DROP TABLE ms;
