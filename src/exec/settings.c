#include "exec/settings.h"

#include "base/err.h"
#include "base/mem.h"
#include "base/units.h"
#include "column/datetime.h"

#include <ctype.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

/* The settings shale implements (any valid value takes effect), those it knows only at their
 * default (SETF_DEFAULT_ONLY) and its own (not ClickHouse's). Every other ClickHouse setting
 * comes from settings_ch.inc and is classified by no_effect() below. Defaults follow
 * ClickHouse's; max_threads' default "auto" means the number of cores. */
static const own_def own[] = {
    {"max_threads", SET_MAXTHREADS, "auto", "The maximum number of query processing threads (auto = number of cores)."},
    {"max_block_size", SET_UINT, "65409", "Maximum block size in rows for reading."},
    {"max_memory_usage", SET_UINT, "0", "Maximum memory usage for processing of a single query (bytes, 0 = unlimited)."},
    {"max_rows_to_read", SET_UINT, "0", "Limit on rows read from a table (0 = unlimited)."},
    {"max_result_rows", SET_UINT, "0", "Limit on the number of result rows (0 = unlimited).", SETF_DEFAULT_ONLY},
    {"max_parser_depth", SET_UINT, "1000", "Maximum parser recursion depth."},
    {"max_expanded_ast_elements", SET_UINT, "500000", "Maximum size of a query's expression tree after aliases are expanded."},
    {"max_query_size", SET_UINT, "262144", "Maximum size of the query text to parse, in bytes."},
    {"max_insert_threads", SET_UINT, "0", "Maximum threads for INSERT SELECT (0 = one)."},
    {"min_insert_block_size_rows", SET_UINT, "1048449", "Squash inserted blocks to at least this many rows."},
    {"min_insert_block_size_bytes", SET_UINT, "268402944", "Squash inserted blocks to at least this many bytes."},
    {"max_download_threads", SET_UINT, "4", "Threads downloading one large object in parallel."},
    {"max_download_buffer_size", SET_UINT, "10485760", "Piece size of parallel downloads."},
    {"remote_filesystem_read_method", SET_STRING, "threadpool", "'read' or 'threadpool'."},
    {"input_format_parallel_parsing", SET_BOOL, "1", "Split large text files into ranges parsed in parallel."},
    {"min_chunk_bytes_for_parallel_parsing", SET_UINT, "10485760", "Range size for parallel parsing."},
    {"output_format_parallel_formatting", SET_BOOL, "1", "Format output in parallel."},
    {"format_csv_delimiter", SET_STRING, ",", "The character to be considered as a delimiter in CSV data."},
    {"input_format_csv_detect_header", SET_BOOL, "1", "Detect a header row in CSV data."},
    {"input_format_tsv_detect_header", SET_BOOL, "1", "Detect a header row in TSV data."},
    {"input_format_skip_unknown_fields", SET_BOOL, "1", "Skip fields with unknown names in input data."},
    {"input_format_null_as_default", SET_BOOL, "1", "Insert default values for NULLs into non-Nullable columns."},
    {"input_format_with_names_use_header", SET_BOOL, "1", "Use the header of *WithNames formats to map columns."},
    {"input_format_max_rows_to_read_for_schema_inference", SET_UINT, "25000", "Rows read for schema inference."},
    {"schema_inference_make_columns_nullable", SET_UINT, "3", "Make inferred types Nullable."},
    {"input_format_try_infer_integers", SET_BOOL, "1", "Infer Int64 instead of Float64 for integers."},
    {"input_format_try_infer_dates", SET_BOOL, "1", "Infer Date from strings in text formats."},
    {"input_format_try_infer_datetimes", SET_BOOL, "1", "Infer DateTime64 from strings in text formats."},
    {"output_format_json_quote_64bit_integers", SET_BOOL, "0", "Quote 64-bit integers in JSON output."},
    {"output_format_json_quote_decimals", SET_BOOL, "0", "Quote decimals in JSON output."},
    {"output_format_json_quote_denormals", SET_BOOL, "0", "Output nan and inf as strings in JSON."},
    {"output_format_write_statistics", SET_BOOL, "1", "Write statistics in JSON formats."},
    {"output_format_pretty_max_rows", SET_UINT, "1000", "Rows limit for Pretty formats."},
    {"print_pretty_type_names", SET_BOOL, "1", "Print named tuples in DESCRIBE, toTypeName and SHOW CREATE over several lines."},
    {"output_format_pretty_max_column_pad_width", SET_UINT, "250", "Maximum width to pad values in Pretty formats."},
    {"output_format_pretty_max_value_width", SET_UINT, "10000", "Maximum width of a value in Pretty formats."},
    {"output_format_pretty_display_footer_column_names", SET_UINT, "1", ""},
    {"output_format_pretty_display_footer_column_names_min_rows", SET_UINT, "50", ""},
    {"output_format_pretty_fallback_to_vertical", SET_BOOL, "1", ""},
    {"output_format_pretty_fallback_to_vertical_max_rows_per_chunk", SET_UINT, "10", ""},
    {"output_format_pretty_fallback_to_vertical_min_columns", SET_UINT, "5", ""},
    {"output_format_pretty_fallback_to_vertical_min_table_width", SET_UINT, "250", ""},
    {"output_format_pretty_row_numbers", SET_BOOL, "1", "Add row numbers before each row in Pretty formats."},
    {"output_format_pretty_color", SET_STRING, "auto", "Use ANSI escapes in Pretty formats (auto = on a terminal)."},
    {"output_format_pretty_highlight_digit_groups", SET_BOOL, "1", "Underline thousands digit groups of numbers (with colour)."},
    {"output_format_pretty_highlight_trailing_spaces", SET_BOOL, "1", "Highlight trailing spaces (with colour)."},
    {"output_format_pretty_multiline_fields", SET_BOOL, "1", "Draw multi-line values inside their cell (↴ / ↳)."},
    {"output_format_pretty_max_column_name_width_cut_to", SET_UINT, "24", "Cut longer column names to this width."},
    {"output_format_pretty_max_column_name_width_min_chars_to_cut", SET_UINT, "4",
     "Cut a column name only when this many characters would go."},
    {"output_format_pretty_max_value_width_apply_for_single_value", SET_UINT, "0",
     "Cut a single value (one row, one column) to output_format_pretty_max_value_width too."},
    {"output_format_pretty_grid_charset", SET_STRING, "UTF-8", "Pretty grid characters: 'ASCII' (+ - |), else UTF-8."},
    {"output_format_pretty_squash_consecutive_ms", SET_UINT, "50",
     "0: Pretty draws a table per block as it comes; otherwise one table per result (a local engine's "
     "blocks all arrive within the wait)."},
    {"output_format_csv_crlf_end_of_line", SET_BOOL, "0", "Use CRLF line endings in CSV."},
    {"output_format_tsv_crlf_end_of_line", SET_BOOL, "0", "Use CRLF line endings in TSV."},
    {"output_format_parquet_row_group_size", SET_UINT, "1000000", "Target row group size in rows."},
    {"output_format_parquet_row_group_size_bytes", SET_UINT, "536870912", "Target row group size in bytes (uncompressed)."},
    {"output_format_parquet_compression_method", SET_STRING, "zstd", "Compression for Parquet output."},
    {"engine_file_truncate_on_insert", SET_BOOL, "0", "Truncate the file before INSERT INTO FUNCTION file."},
    {"engine_file_allow_create_multiple_files", SET_BOOL, "0", "Create a new file per insert when the file exists."},
    {"engine_file_empty_if_not_exists", SET_BOOL, "0", "A File table whose file does not exist reads as empty."},
    {"session_timezone", SET_STRING, "", "The session time zone (empty = the server's)."},
    {"join_use_nulls", SET_BOOL, "0", "Fill non-matched rows of outer joins with NULLs instead of defaults."},
    {"join_any_take_last_row", SET_BOOL, "0", "ANY joins (and Join tables) take the last right row of a key instead of the first."},
    {"join_algorithm", SET_STRING, "direct,parallel_hash,hash", "The join algorithm: 'grace_hash' alone partitions both sides to tmp_path and joins bucket by bucket; 'partial_merge' alone is not implemented; the others join in memory."},
    {"grace_hash_join_initial_buckets", SET_UINT, "1", "Buckets a grace hash join starts with (rounded up to a power of two)."},
    {"grace_hash_join_max_buckets", SET_UINT, "1024", "Buckets a grace hash join may grow to when a bucket's right side passes its budget."},
    {"max_rows_in_distinct", SET_UINT, "0", "Distinct rows DISTINCT may hold before it fails with SET_SIZE_LIMIT_EXCEEDED (0 = no limit)."},
    {"max_bytes_in_distinct", SET_UINT, "0", "Bytes of DISTINCT's hash set past which it fails with SET_SIZE_LIMIT_EXCEEDED (0 = no limit)."},
    {"max_rows_in_join", SET_UINT, "0", "Right-side rows a grace hash join bucket may hold before the buckets double (0 = no limit)."},
    {"max_bytes_in_join", SET_UINT, "0", "Right-side bytes a grace hash join bucket may hold before the buckets double (0 = no limit)."},
    {"max_bytes_before_external_join", SET_UINT, "0", "Bounds a grace hash join bucket's right side like max_bytes_in_join (0 = by the ratio)."},
    {"max_bytes_ratio_before_external_join", SET_FLOAT, "0.5", "Share of the memory left under the server's limit a grace hash join bucket's right side may hold (0 = no limit)."},
    {"aggregate_functions_null_for_empty", SET_BOOL, "0", "Return NULL from aggregates over no rows.", SETF_DEFAULT_ONLY},
    {"group_by_two_level_threshold", SET_UINT, "100000", "Keys after which aggregation goes two-level."},
    {"group_by_two_level_threshold_bytes", SET_UINT, "50000000", "Bytes after which aggregation goes two-level."},
    {"max_bytes_before_external_group_by", SET_UINT, "0", "Tracked query memory past which GROUP BY spills its two-level buckets to tmp_path (0 = by the ratio)."},
    {"max_bytes_ratio_before_external_group_by", SET_FLOAT, "0.5", "Share of the memory left under the server's limit past which GROUP BY spills (0 = never)."},
    {"max_bytes_before_external_sort", SET_UINT, "0", "Bytes of ORDER BY input held in memory past which sorted runs spill to tmp_path (0 = by the ratio)."},
    {"max_bytes_ratio_before_external_sort", SET_FLOAT, "0.5", "Share of the memory left under the server's limit past which ORDER BY spills (0 = never)."},
    {"extremes", SET_BOOL, "0", "Output the minimums and maximums of the result's columns."},
    {"log_queries", SET_BOOL, "1", "Log queries to system.query_log."},
    {"readonly", SET_UINT, "0", "1: only reading queries, no setting changes; 2: reading queries and setting changes."},
    {"send_logs_level", SET_STRING, "fatal", "Server log level sent to the client."},
    {"use_query_cache", SET_BOOL, "0", "Use the query cache (unsupported, ignored)."},
    {"allow_experimental_analyzer", SET_BOOL, "1", "Alias of enable_analyzer."},
    {"enable_analyzer", SET_BOOL, "1",
     "0: the old analyzer's narrower name scope for joined tables (only their ordinary columns)."},
    {"prefer_column_name_to_alias", SET_BOOL, "0", "Prefer column names to aliases.", SETF_DEFAULT_ONLY},
    {"optimize_on_insert", SET_BOOL, "1", "Apply the engine's merge logic to inserted blocks."},
    {"insert_deduplicate", SET_BOOL, "1", "Deduplicate retried inserts of identical blocks."},
    {"insert_deduplication_token", SET_STRING, "", "Deduplicate inserts by this token instead of the data's hash."},
    {"max_partitions_per_insert_block", SET_UINT, "100", "Maximum partitions in one inserted block (0 = unlimited)."},
    {"background_pool_size", SET_UINT, "16", "Threads merging parts of a MergeTree table (capped by cores)."},
    {"max_insert_memory_usage", SET_UINT, "0",
     "Memory budget of an INSERT into MergeTree; with max_insert_threads = 0 and min_insert_block_size_bytes = 0 it "
     "picks threads = cores / 2 and block bytes = budget / (3 x threads) (shale)."},
    {"optimize_throw_if_noop", SET_BOOL, "0", "OPTIMIZE throws when it merged nothing."},
    {"resumable_insert", SET_BOOL, "0",
     "INSERT INTO <MergeTree> SELECT … FROM file()/s3(): load source objects one at a time and skip those an earlier "
     "run of the statement finished (shale)."},
    {"max_insert_block_size", SET_UINT, "1048449", "Rows per block formed for insertion."},
    {"s3_throw_on_zero_files_match", SET_BOOL, "0", "Throw when an s3 glob matches nothing."},
    {"s3_truncate_on_insert", SET_BOOL, "0", "INSERT INTO FUNCTION s3 replaces an existing object."},
    {"s3_min_upload_part_size", SET_UINT, "16777216", "Size of the first parts of a multipart upload."},
    {"s3_max_upload_part_size", SET_UINT, "5368709120", "Largest part of a multipart upload."},
    {"s3_upload_part_size_multiply_factor", SET_UINT, "2", "Part size growth factor of multipart uploads."},
    {"s3_upload_part_size_multiply_parts_count_threshold", SET_UINT, "500", "Parts between part size increases."},
    {"s3_max_single_part_upload_size", SET_UINT, "33554432", "Largest object written with one PUT."},
    {"s3_max_inflight_parts_for_one_file", SET_UINT, "20", "Parts of one object uploaded concurrently."},
    {"s3_retry_attempts", SET_UINT, "500", "Retries of one S3 request that failed before its body (5xx, SlowDown, 429, reset, refused, timeout)."},
    {"s3_max_single_read_retries", SET_UINT, "4", "Retries of one S3 read whose body was cut, reset or stalled (resumed from the last byte received)."},
    {"s3_request_timeout_ms", SET_UINT, "30000", "Idleness timeout for sending and receiving data to/from S3."},
    {"s3_connect_timeout_ms", SET_UINT, "1000", "Connection timeout for S3 hosts."},
    {"http_retry_initial_backoff_ms", SET_UINT, "100", "Min milliseconds for backoff, when retrying read via http."},
    {"http_retry_max_backoff_ms", SET_UINT, "10000", "Max milliseconds for backoff, when retrying read via http."},
    {"s3_slow_all_threads_after_network_error", SET_BOOL, "1", "After a retryable network error, all requests to the same S3 endpoint are slowed down."},
    {"s3_retry_budget_ms", SET_UINT, "30000", "Time one S3 request may spend retrying (attempts, backoff, waits for the endpoint's rate limit) before it fails; 0 = no limit (shale)."},
    {"input_format_parquet_filter_push_down", SET_BOOL, "1", "Skip row groups using Parquet statistics."},
    {"input_format_parquet_page_filter_push_down", SET_BOOL, "1", "Skip pages using min/max values from the column index."},
    {"input_format_parquet_verify_checksums", SET_BOOL, "1", "Verify page checksums when reading parquet files."},
    {"input_format_parquet_prefer_block_bytes", SET_UINT, "16744704", "Bytes per block the Parquet reader aims at: fewer rows per block for wide rows (by the footer's uncompressed sizes; 0 = 65409 rows always)."},
    {"use_parquet_metadata_cache", SET_BOOL, "1", "Keep decoded Parquet footers of files and objects (keyed by path and ETag or size and mtime) in the process's Parquet metadata cache."},
    {"input_format_parquet_local_file_min_bytes_for_seek", SET_UINT, "8192", "Parquet: needed column chunks of a row group closer than this are fetched with one read."},
    {"schema_inference_use_cache_for_file", SET_BOOL, "1", "Cache inferred schemas of files."},
    {"schema_inference_use_cache_for_s3", SET_BOOL, "1", "Cache inferred schemas of S3 objects."},
    {"schema_inference_use_cache_for_url", SET_BOOL, "1", "Cache inferred schemas of URLs."},
    {"http_skip_not_found_url_for_globs", SET_BOOL, "1", "url(): skip URLs generated by a glob that answer 404."},
    {"output_format_pretty_single_large_number_tip_threshold", SET_UINT, "1000000", "Readable tip for a single large number in Pretty output (0 = off)."},
    {"max_execution_time", SET_FLOAT, "0", "Maximum query execution time in seconds (0 = unlimited)."},
    {"default_format", SET_STRING, "", "Default result format of the HTTP interface (empty = TabSeparated)."},
    {"enable_http_compression", SET_BOOL, "0", "Compress the HTTP response as the client's Accept-Encoding allows."},
    {"http_zlib_compression_level", SET_INT, "3", "Compression level of HTTP responses."},
    {"add_http_cors_header", SET_BOOL, "0", "Write the CORS headers (Access-Control-Allow-Origin: *) in HTTP responses."},
    {"cluster_table_function_worker_timeout_ms", SET_UINT, "10000",
     "How long an s3Cluster worker may send nothing (not even Progress) before it is lost: its unfinished objects go "
     "to the other nodes and its partial results are dropped (shale)."},
    {"network_compression_method", SET_STRING, "LZ4", "Codec of ClickHouse's compressed blocks over HTTP (compress=1): LZ4, LZ4HC, ZSTD or NONE."},
    {"network_zstd_compression_level", SET_INT, "1", "ZSTD level of compressed blocks (network_compression_method = 'ZSTD')."},
    {"connect_timeout_with_failover_ms", SET_UINT, "1000", "remote(): the timeout of one connection attempt to a replica before the next is tried."},
    {"distributed_foreground_insert", SET_BOOL, "0",
     "INSERT into a Distributed table: 1 writes every shard's rows before it returns; 0 (ClickHouse's default) "
     "queues the remote shards' rows on the initiator's disk and a background sender delivers them "
     "(storage/dist_queue.h)."},
    {"parallel_distributed_insert_select", SET_UINT, "2",
     "INSERT INTO <Distributed> SELECT … FROM s3Cluster(…): every node of the s3Cluster reads its objects and inserts "
     "them through the Distributed table (1) or into its own shard table (2); 0: the initiator inserts every row."},
    {"prefer_localhost_replica", SET_BOOL, "1",
     "A Distributed table reads and writes a shard that has this server as a replica in the server itself."},
    {"skip_unavailable_shards", SET_BOOL, "0", "remote(): a shard none of whose replicas answers is left out of the result instead of failing the query."},
    {"load_balancing", SET_STRING, "random", "remote(), cluster(): the order a shard's replicas are tried in (storage/native_client.h)."},
    {"load_balancing_first_offset", SET_UINT, "0", "The replica load_balancing = 'first_or_random' tries first."},
    {"connections_with_failover_max_tries", SET_UINT, "3", "remote(), cluster(): rounds of connection attempts over a shard's replicas."},
    {"send_progress_in_http_headers", SET_BOOL, "0", "Send X-ClickHouse-Progress headers while the query runs."},
    {"http_headers_progress_interval_ms", SET_UINT, "100", "Minimum interval between X-ClickHouse-Progress headers."},
    {"cancel_http_readonly_queries_on_client_close", SET_BOOL, "0", "Cancel a read-only HTTP query when its client disconnects (shale cancels every query of a disconnected client)."},
    {"date_time_input_format", SET_STRING, "basic", "'basic' or 'best_effort' parsing of DateTime text.", SETF_DEFAULT_ONLY},
    {"date_time_output_format", SET_STRING, "simple", "DateTime text output format.", SETF_DEFAULT_ONLY},
    {"limit", SET_UINT, "0", "Limit the number of result rows (0 = none)."},
    {"offset", SET_UINT, "0", "Skip this many result rows."},
    {"cast_keep_nullable", SET_BOOL, "0", "CAST keeps Nullable.", SETF_DEFAULT_ONLY},
    {"joined_subquery_requires_alias", SET_BOOL, "1", ""},
    {"transform_null_in", SET_BOOL, "0", "NULL IN (NULL) is true."},
    {"optimize_injective_functions_inside_uniq", SET_BOOL, "1",
     "Delete injective functions of one argument inside uniq*() functions (changes uniq's estimate)."},
    {"totals_mode", SET_STRING, "after_having_exclusive",
     "Which groups WITH TOTALS aggregates: before_having (all) or after_having_* (those HAVING keeps; no "
     "max_rows_to_group_by overflow here, so the after_having modes agree)."},
    {"use_with_fill_by_sorting_prefix", SET_BOOL, "1", "WITH FILL fills each group of the ORDER BY keys before the first WITH FILL key on its own."},
    {"group_by_use_nulls", SET_BOOL, "0", "ROLLUP, CUBE and GROUPING SETS: keys become Nullable, NULL outside a row's set."},
    {"force_grouping_standard_compatibility", SET_BOOL, "1", "grouping() returns 1 for a key outside the row's set.",
     SETF_DEFAULT_ONLY},
    {"totals_auto_threshold", SET_FLOAT, "0.5", "The threshold for totals_mode = 'after_having_auto'."},
    {"union_default_mode", SET_STRING, "", "Default mode for UNION without ALL/DISTINCT."},
    {"intersect_default_mode", SET_STRING, "ALL", "Default mode for INTERSECT without ALL/DISTINCT."},
    {"except_default_mode", SET_STRING, "ALL", "Default mode for EXCEPT without ALL/DISTINCT."},
    {"optimize_trivial_insert_select", SET_BOOL, "0",
     "A trivial INSERT … SELECT reads in blocks of max_insert_block_size rows (what materialized views see)."},
    {"ignore_materialized_views_with_dropped_target_table", SET_BOOL, "0",
     "INSERT skips the materialized views whose target table was dropped (else it fails)."},
    {"materialized_views_ignore_errors", SET_BOOL, "0",
     "An error while pushing an INSERT's rows through a materialized view is dropped and the INSERT succeeds."},
    {"mutations_sync", SET_UINT, "1", "Wait for ALTER … UPDATE / DELETE (and column rewrites) to finish: 0 = no, 1 / 2 = yes."},
    {"lightweight_deletes_sync", SET_UINT, "2", "Wait for DELETE FROM (only the default: shale always waits).",
     SETF_DEFAULT_ONLY},
};


#define NOWN ((int)(sizeof own / sizeof own[0]))

static const struct {
    const char *type;
    int code;
    const char *code_name;
    int multi;
    const char *values;
    size_t size;
} ch_enums[] = {
#define CH_ENUM(t, c, cn, m, v) {t, c, cn, m, v, sizeof v - 1},
#include "exec/settings_ch.inc"
#undef CH_ENUM
};
#define NENUMS ((int)(sizeof ch_enums / sizeof ch_enums[0]))

static const struct {
    const char *name, *type, *def, *description, *alias_for;
    int obsolete, tier;
} ch_settings[] = {
#define CH_SETTING(n, t, d, desc, a, o, tier) {n, t, d, desc, a, o, tier},
#include "exec/settings_ch.inc"
#undef CH_SETTING
};
#define NCH ((int)(sizeof ch_settings / sizeof ch_settings[0]))
#define MAXDEFS (NCH + NOWN)

static setting_def defs[MAXDEFS];
static int ndefs;

/* Settings that only tune speed, resources, logging, caches or the transport, or that
 * concern replication and distribution a single node does not have: shale
 * accepts any valid value for them and does nothing (docs/differences.md lists the
 * classes). Everything else that shale does not implement is known at its default only. */
static const char *const no_effect_prefixes[] = {
    "optimize_", "query_plan_", "query_cache_", "compile_", "min_count_to_compile", "distributed_", "parallel_replica",
    "max_parallel_replicas", "prefer_localhost_replica", "skip_unavailable_shards", "connect_timeout",
    "receive_", "send_timeout", "tcp_", "hedged_", "filesystem_", "remote_fs_", "remote_read_", "read_backoff_", "merge_tree_",
    "background_", "async_", "wait_for_async_insert", "memory_profiler_", "memory_tracker_", "memory_overcommit",
    "memory_usage_overcommit", "jemalloc_", "opentelemetry_", "log_", "query_profiler_", "trace_profile_events",
    "keeper_", "insert_keeper_",
    "insert_quorum", "replication_", "http_", "use_query_cache", "use_query_condition_cache", "use_uncompressed_cache",
    "use_skip_indexes", "use_index_for_in_with_subqueries", "use_primary_key", "use_partition_pruning",
    "use_partition_minmax", "use_lightweight_primary_key", "use_statistics", "use_concurrency_control",
    "use_hedged_requests", "use_page_cache", "use_cache_for_count",
    "use_text_index", "use_top_k", "use_hash_table_stats", "use_join_disjunctions", "use_reader_executor",
    "use_async_executor", "use_constant_folding_in_index", "use_roaring_bitmap", "use_streaming_marks",
    "use_compact_format_in_distributed", "enable_filesystem_", "enable_blob_storage_log", "enable_s3_requests_logging",
    "enable_hdfs_pread", "enable_software_prefetch", "enable_memory_bound_merging", "enable_multiple_prewhere",
    "enable_job_stack_trace", "enable_sharding_aggregator", "enable_scalar_subquery_optimization",
    "enable_optimize_predicate_expression", "enable_writes_to_query_cache", "enable_reads_from_query_cache",
    "enable_sharing_sets", "enable_shared_storage", "enable_identifier_resolve_cache", "enable_producing_buckets",
    "enable_parallel_blocks", "enable_join_", "enable_adaptive_memory", "enable_lazy_columns", "enable_vertical_final",
    "enable_automatic_decision", "enable_early_constant_folding", "enable_parsing_to_custom_serialization",
    "enable_parallel_replicas", "enable_http_compression", "max_bytes_before_external_", "max_bytes_ratio_before_external",
    "max_bytes_before_remerge_sort", "prefer_external_sort_block_bytes", "group_by_two_level_threshold",
    "aggregation_memory_efficient", "aggregation_in_order_", "preferred_block_size_bytes",
    "preferred_max_column_in_block_size_bytes", "min_bytes_to_use_", "min_compress_block_size", "max_compress_block_size",
    "min_insert_block_size", "max_insert_block_size", "min_free_disk", "max_read_buffer_size", "max_streams_",
    "max_final_threads", "max_download_", "max_upload_", "max_network_", "max_concurrent_", "max_distributed_",
    "max_replica_delay", "max_untracked_memory", "max_memory_usage_for_user", "max_backup_", "max_temporary_data_on_disk",
    "max_insert_delayed_streams", "max_alter_threads", "max_parsing_threads", "max_build_vector_similarity",
    "max_size_to_preallocate", "max_entries_for_hash_table_stats", "min_hit_rate_to_use_consecutive_keys",
    "collect_hash_table_stats", "prefer_global_in_and_join", "prefer_warmed_unmerged_parts", "prefetch_buffer_size",
    "read_in_order_", "read_through_distributed_cache", "read_from_filesystem_cache", "read_from_page_cache",
    "read_priority", "priority", "os_threads_nice", "os_thread_priority", "interactive_delay", "idle_connection_timeout",
    "poll_interval", "network_", "enable_deflate_qpl", "enable_zstd_qat", "skip_download_if_exceeds",
    "cache_warmer_", "page_cache_", "query_condition_cache_", "schema_inference_use_cache", "schema_inference_cache",
    "stream_flush_interval", "stream_poll_timeout", "table_function_remote", "temporary_data_in_cache",
    "temporary_files_codec", "workload", "max_threads_for_indexes", "parallel_hash_join", "parallel_view_processing",
    "parallel_distributed_insert", "parallel_non_joined", "force_aggregation_in_order", "distributed_cache",
    "dictionary_use_async_executor", "dictionary_validate_primary_key", "join_to_sort_", "join_runtime_",
    "join_output_by_rowlist", "join_on_disk_max_files", "partial_merge_join_", "default_max_bytes_in_join",
    "merge_table_max_tables", "lock_acquire_timeout", "alter_sync",
    "insert_deduplicate", "deduplicate_insert", "deduplicate_blocks", "throw_on_max_partitions", "fsync_metadata", "ignore_on_cluster",
    "shared_merge_tree", "cloud_mode", "storage_file_read_method", "local_filesystem_read", "remote_filesystem_read",
    "min_external_", "min_joined_block_size", "max_joined_block_size", "min_table_rows_to_use_projection_index",
    "count_distinct_optimization", "min_chunk_bytes_for_parallel_parsing", "exact_rows_before_limit",
    "rewrite_count_distinct_if_with_count_distinct_implementation",
    "ignore_data_skipping_indices", /* shale uses no data skipping index (a bad value: sql/analyze.c) */
};

/* Names matching a prefix above that do change results. */
static const char *const result_changing[] = {
    "optimize_skip_unused_shards_rewrite_in", "optimize_throw_if_noop", "optimize_on_insert",
    "optimize_count_from_files", "log_comment", "log_queries_cut_to_length",
    "http_write_exception_in_output_format", "http_response_headers", "max_size_to_preallocate_for_joins",
    "join_runtime_filter_exact_values_limit", "async_insert", "insert_quorum_parallel", "exact_rows_before_limit",
    "allow_nullable_tuple_in_extracted_subcolumns", "allow_custom_error_code_in_throwif",
    "use_skip_indexes_if_final_exact_mode", /* 0: ClickHouse's FINAL may miss rows; shale never does */
};

/* allow_* (and the enable_* that admit an experimental type or statement): turning them on
 * lets a statement through that shale either runs or refuses on its own account, so any value
 * is accepted where the default is off; turning off what is on by default is not supported. */
static const char *const feature_gates[] = {
    "allow_", "enable_json_type", "enable_dynamic_type", "enable_variant_type", "enable_time_time64_type",
    "enable_full_text_index", "enable_lightweight_delete", "enable_lightweight_update", "enable_materialized_cte",
    "enable_streaming_queries", "enable_unaligned_array_join",
    "implicit_select", /* bare expressions as queries: clickhouse-local's clients (chdb) send it on */
};

static bool has_prefix(const char *s, const char *p) { return strncmp(s, p, strlen(p)) == 0; }

static bool in_list(const char *name, const char *const *list, size_t n, bool prefix)
{
    for (size_t i = 0; i < n; i++)
        if (prefix ? has_prefix(name, list[i]) : strcmp(name, list[i]) == 0)
            return true;
    return false;
}
#define IN_LIST(name, list, prefix) in_list(name, list, sizeof list / sizeof list[0], prefix)

static int classify(const char *name, const char *def, bool obsolete)
{
    if (obsolete) /* ClickHouse itself accepts and ignores them */
        return SETF_NO_EFFECT;
    if (IN_LIST(name, result_changing, false))
        return SETF_DEFAULT_ONLY;
    if (IN_LIST(name, no_effect_prefixes, true))
        return SETF_NO_EFFECT;
    if (IN_LIST(name, feature_gates, true))
        return strcmp(def, "0") == 0 ? SETF_NO_EFFECT : SETF_DEFAULT_ONLY;
    /* Thread counts, pool sizes and timeouts tune speed or limit waiting, never results. */
    if (strstr(name, "_threads") || strstr(name, "pool_size") || strstr(name, "_timeout") || strstr(name, "timeout_ms") ||
        strstr(name, "_sleep_") || strstr(name, "_backoff_") || strstr(name, "_retries") || strstr(name, "prefetch") ||
        strstr(name, "_cache_size"))
        return strstr(name, "overflow_mode") ? SETF_DEFAULT_ONLY : SETF_NO_EFFECT;
    return SETF_DEFAULT_ONLY;
}

static setting_kind kind_of(const char *type)
{
    if (!strcmp(type, "Bool"))
        return SET_BOOL;
    if (!strcmp(type, "UInt64") || !strcmp(type, "NonZeroUInt64") || !strcmp(type, "Milliseconds"))
        return SET_UINT;
    if (!strcmp(type, "Int64") || !strcmp(type, "Int32"))
        return SET_INT;
    if (!strcmp(type, "Float") || !strcmp(type, "Double") || !strcmp(type, "Seconds"))
        return SET_FLOAT;
    if (!strcmp(type, "MaxThreads"))
        return SET_MAXTHREADS;
    return SET_STRING;
}

static const char *type_of_kind(setting_kind k)
{
    static const char *names[] = {"UInt64", "Int64", "Bool", "Float", "String", "MaxThreads"};
    return names[k];
}

int settings_count(void)
{
    settings_init();
    return ndefs;
}

const setting_def *settings_def_at(int i) { return &defs[i]; }

/* Settings are looked up by name on every use (a server does it many times per request):
 * an open-addressing table of the definitions' indexes, built once. */
#define INDEX_SLOTS 8192
static int16_t index_slots[INDEX_SLOTS];
static pthread_once_t index_once = PTHREAD_ONCE_INIT;
static double default_num[MAXDEFS];

static uint32_t name_hash(const char *s)
{
    uint32_t h = 2166136261u;
    for (; *s; s++)
        h = (h ^ (uint8_t)*s) * 16777619u;
    return h;
}

static int parse_value(const setting_def *d, const char *value, double *num, char *canon, size_t cap);

static int find(const char *name)
{
    for (uint32_t h = name_hash(name) & (INDEX_SLOTS - 1); index_slots[h] >= 0; h = (h + 1) & (INDEX_SLOTS - 1))
        if (strcmp(defs[index_slots[h]].name, name) == 0)
            return index_slots[h];
    return -1;
}

static void add_def(const setting_def *d)
{
    int i = ndefs++;
    defs[i] = *d;
    uint32_t h = name_hash(d->name) & (INDEX_SLOTS - 1);
    while (index_slots[h] >= 0)
        h = (h + 1) & (INDEX_SLOTS - 1);
    index_slots[h] = (int16_t)i;
}

static const own_def *own_find(const char *name)
{
    for (int i = 0; i < NOWN; i++)
        if (strcmp(own[i].name, name) == 0)
            return &own[i];
    return NULL;
}

static void build_index(void)
{
    _Static_assert(MAXDEFS < INDEX_SLOTS / 2, "grow INDEX_SLOTS");
    for (int i = 0; i < INDEX_SLOTS; i++)
        index_slots[i] = -1;
    for (int i = 0; i < NCH; i++) {
        const own_def *o = own_find(ch_settings[i].name);
        setting_def d = {.name = ch_settings[i].name,
                         .kind = o ? o->kind : kind_of(ch_settings[i].type),
                         .def = o ? o->def : ch_settings[i].def,
                         .description = ch_settings[i].description,
                         .flags = o ? o->flags : classify(ch_settings[i].name, ch_settings[i].def, ch_settings[i].obsolete),
                         .type = ch_settings[i].type,
                         .ch_default = ch_settings[i].def,
                         .obsolete = ch_settings[i].obsolete != 0,
                         .tier = ch_settings[i].tier,
                         .alias = -1};
        add_def(&d);
    }
    for (int i = 0; i < NOWN; i++)
        if (find(own[i].name) < 0) {
            setting_def d = {.name = own[i].name,
                             .kind = own[i].kind,
                             .def = own[i].def,
                             .description = own[i].description,
                             .flags = own[i].flags,
                             .type = type_of_kind(own[i].kind),
                             .ch_default = own[i].def,
                             .alias = -1};
            add_def(&d);
        }
    /* An alias reads and writes the setting it names. */
    for (int i = 0; i < NCH; i++)
        if (ch_settings[i].alias_for[0]) {
            int k = find(ch_settings[i].name), target = find(ch_settings[i].alias_for);
            defs[k].alias = target;
            defs[k].alias_for = ch_settings[i].alias_for;
        }
    for (int i = 0; i < ndefs; i++) {
        if (!defs[i].alias_for)
            defs[i].alias_for = "";
        char canon[64];
        parse_value(&defs[i], defs[i].def, &default_num[i], canon, sizeof canon);
    }
}

void settings_init(void) { pthread_once(&index_once, build_index); }

int settings_index(const char *name)
{
    settings_init();
    int i = find(name);
    return i >= 0 && defs[i].alias >= 0 ? defs[i].alias : i;
}

/* The overlay entry of setting i, or NULL when it is at its default. */
static setting_value *lookup(const settings *s, int i)
{
    for (int k = 0; k < s->nset; k++)
        if (s->set[k].index == i)
            return &s->set[k];
    return NULL;
}

const char *settings_text_at(const settings *s, int i)
{
    const setting_value *v = lookup(s, i);
    return v ? v->text : defs[i].def;
}

double settings_num_at(const settings *s, int i)
{
    const setting_value *v = lookup(s, i);
    return v ? v->num : default_num[i];
}

bool settings_changed_at(const settings *s, int i) { return lookup(s, i) != NULL; }

static int edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 64 || lb > 64)
        return 1000;
    int d[65][65];
    for (size_t i = 0; i <= la; i++)
        d[i][0] = (int)i;
    for (size_t j = 0; j <= lb; j++)
        d[0][j] = (int)j;
    for (size_t i = 1; i <= la; i++)
        for (size_t j = 1; j <= lb; j++) {
            int c = tolower((unsigned char)a[i - 1]) == tolower((unsigned char)b[j - 1]) ? 0 : 1;
            int m = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < m)
                m = d[i][j - 1] + 1;
            if (d[i - 1][j - 1] + c < m)
                m = d[i - 1][j - 1] + c;
            d[i][j] = m;
        }
    return d[la][lb];
}

static int enum_index(const char *type)
{
    for (int i = 0; i < NENUMS; i++)
        if (strcmp(ch_enums[i].type, type) == 0)
            return i;
    return -1;
}

static bool enum_has(int e, const char *v, size_t len)
{
    for (const char *p = ch_enums[e].values; p < ch_enums[e].values + ch_enums[e].size; p += strlen(p) + 1)
        if (strlen(p) == len && strncmp(p, v, len) == 0)
            return true;
    return false;
}

static int enum_error(int e, const char *value)
{
    char list[1024];
    size_t len = 0;
    for (const char *p = ch_enums[e].values; p < ch_enums[e].values + ch_enums[e].size && len < sizeof list - 64;
         p += strlen(p) + 1)
        len += (size_t)snprintf(list + len, sizeof list - len, "%s'%s'", len ? ", " : "", p);
    return err_set(ch_enums[e].code, "Unexpected value of %s: '%s'. Must be one of [%s]", ch_enums[e].type, value, list);
}

/* An enumeration's value, or for a set type its values separated by commas (spaces around
 * them dropped, as ClickHouse writes them back). */
static int check_enum(int e, const char *value, char *canon, size_t cap)
{
    if (!ch_enums[e].multi) {
        if (!enum_has(e, value, strlen(value)))
            return enum_error(e, value);
        snprintf(canon, cap, "%s", value);
        return 0;
    }
    size_t len = 0;
    canon[0] = 0;
    for (const char *p = value; *p;) {
        while (*p == ' ')
            p++;
        const char *q = p;
        while (*q && *q != ',')
            q++;
        const char *end = q;
        while (end > p && end[-1] == ' ')
            end--;
        if (end > p) {
            if (!enum_has(e, p, (size_t)(end - p))) {
                char one[256];
                snprintf(one, sizeof one, "%.*s", (int)(end - p), p);
                return enum_error(e, one);
            }
            len += (size_t)snprintf(canon + len, len < cap ? cap - len : 0, "%s%.*s", len ? "," : "", (int)(end - p), p);
        }
        p = *q ? q + 1 : q;
    }
    return 0;
}

static int parse_number(const setting_def *d, const char *value, double *v)
{
    char *end;
    uint64_t u;
    if (d->kind != SET_FLOAT && parse_u64_size_suffix(value, &u) == 0) { /* '10Mi', '5G' */
        *v = (double)u;
        return 0;
    }
    *v = strtod(value, &end);
    if (end == value || *end || isnan(*v))
        return err_set(ERR_CANNOT_PARSE_INPUT_ASSERTION_FAILED,
                       "Cannot parse input: expected 'eof' before: '%s' (the value of setting %s must be a number)",
                       end == value ? value : end, d->name);
    return 0;
}

/* Checks a value as ClickHouse checks one of the setting's type; *num is its number (0 for
 * text) and canon the text system.settings shows. */
static int parse_value(const setting_def *d, const char *value, double *num, char *canon, size_t cap)
{
    const char *type = d->type;
    *num = 0;
    snprintf(canon, cap, "%s", value);
    bool is_auto = strcmp(value, "auto") == 0;
    if ((!strcmp(type, "UInt64Auto") || !strcmp(type, "BoolAuto") || !strcmp(type, "FloatAuto")) && is_auto)
        return 0;
    if (!strcmp(type, "Bool") || !strcmp(type, "BoolAuto")) {
        double v;
        if (!strcasecmp(value, "true") || !strcasecmp(value, "false"))
            v = tolower((unsigned char)value[0]) == 't';
        else if (parse_number(d, value, &v)) {
            return err_set(ERR_CANNOT_PARSE_BOOL, "Cannot parse bool from string '%s' (setting %s)", value, d->name);
        } else if (v != floor(v) ? v < 0 || v > 1 : v != 0 && v != 1)
            return err_set(ERR_CANNOT_CONVERT_TYPE, "Field value %s is out of range of bool type (setting %s)", value,
                           d->name);
        *num = v != 0;
        snprintf(canon, cap, "%d", v != 0);
        return 0;
    }
    if (!strcmp(type, "Char")) {
        if (strlen(value) > 1)
            return err_set(ERR_SIZE_OF_FIXED_STRING_DOESNT_MATCH,
                           "A setting's value string has to be an exactly one character long (setting %s)", d->name);
        return 0;
    }
    if (!strcmp(type, "Map")) {
        if (value[0] != '{')
            return err_set(ERR_CANNOT_PARSE_INPUT_ASSERTION_FAILED, "Cannot parse input: expected '{' before: '%s'", value);
        return 0;
    }
    if (!strcmp(type, "Timezone")) {
        if (value[0] && !tz_get(value))
            return err_set(ERR_BAD_ARGUMENTS, "Invalid time zone: %s", value);
        return 0;
    }
    int e = enum_index(type);
    if (e >= 0)
        return check_enum(e, value, canon, cap);
    if (d->kind == SET_STRING)
        return 0;
    if (d->kind == SET_MAXTHREADS && (is_auto || strcmp(value, "0") == 0 || strncmp(value, "'auto", 5) == 0)) {
        long n = sysconf(_SC_NPROCESSORS_ONLN);
        *num = n > 0 ? (double)n : 1;
        snprintf(canon, cap, "auto");
        return 0;
    }
    double v;
    if (parse_number(d, value, &v))
        return -1;
    if (d->kind == SET_BOOL) { /* a shale setting */
        if (v != 0 && v != 1)
            return err_set(ERR_CANNOT_CONVERT_TYPE, "Field value %s is out of range of bool type (setting %s)", value,
                           d->name);
        *num = v;
        snprintf(canon, cap, "%d", v != 0);
        return 0;
    }
    if (d->kind == SET_UINT || d->kind == SET_MAXTHREADS || !strcmp(type, "UInt64Auto")) {
        if (v < 0)
            return err_set(ERR_CANNOT_CONVERT_TYPE, "Field value %s is out of range of unsigned long type (setting %s)",
                           value, d->name);
        v = floor(v);
        if (!strcmp(type, "NonZeroUInt64") && v == 0)
            return err_set(ERR_BAD_ARGUMENTS, "A setting's value has to be greater than 0 (setting %s)", d->name);
        snprintf(canon, cap, "%.0f", v);
    } else if (d->kind == SET_INT) {
        v = trunc(v);
        snprintf(canon, cap, "%.0f", v);
    }
    *num = v;
    return 0;
}

settings *settings_new(void)
{
    settings_init();
    return xcalloc(1, sizeof(settings));
}

settings *settings_clone(const settings *src)
{
    settings *s = xcalloc(1, sizeof *s);
    if (src->nset) {
        s->cap = s->nset = src->nset;
        s->set = xmalloc(sizeof *s->set * (size_t)s->cap);
        for (int k = 0; k < src->nset; k++)
            s->set[k] = (setting_value){src->set[k].index, xstrdup(src->set[k].text), src->set[k].num};
    }
    return s;
}

const char *settings_first_difference(const settings *a, const settings *b)
{
    /* Only settings set in a or in b can differ. */
    for (int pass = 0; pass < 2; pass++) {
        const settings *x = pass ? b : a;
        for (int k = 0; k < x->nset; k++) {
            int i = x->set[k].index;
            const char *ta = settings_text_at(a, i), *tb = settings_text_at(b, i);
            if (strcmp(ta, tb) != 0 && settings_num_at(a, i) != settings_num_at(b, i))
                return defs[i].name;
        }
    }
    return NULL;
}

void settings_free(settings *s)
{
    if (!s)
        return;
    for (int k = 0; k < s->nset; k++)
        free(s->set[k].text);
    free(s->set);
    free(s);
}

static int unknown_setting(const char *name)
{
    char hint[512] = "";
    size_t len = 0;
    int best = 1000;
    for (int k = 0; k < ndefs; k++) {
        int d = edit_distance(name, defs[k].name);
        if (d < best)
            best = d;
    }
    if (best <= 3 && best < (int)strlen(name))
        for (int k = 0; k < ndefs && len < sizeof hint - 80; k++)
            if (edit_distance(name, defs[k].name) == best)
                len += (size_t)snprintf(hint + len, sizeof hint - len, "%s'%s'", len ? ", " : "", defs[k].name);
    if (len)
        return err_set(ERR_UNKNOWN_SETTING, "Unknown setting '%s': Maybe you meant [%s]", name, hint);
    return err_set(ERR_UNKNOWN_SETTING, "Unknown setting '%s'", name);
}

int settings_set(settings *s, const char *name, const char *value)
{
    int i = settings_index(name);
    if (i < 0)
        return unknown_setting(name);
    const setting_def *d = &defs[i];
    double num;
    char canon[4096];
    if (parse_value(d, value, &num, canon, sizeof canon))
        return -1;
    if (d->flags & SETF_DEFAULT_ONLY) {
        double dnum = 0;
        char dcanon[256];
        bool is_default = d->kind == SET_STRING ? strcmp(canon, d->def) == 0
                                                : parse_value(d, d->def, &dnum, dcanon, sizeof dcanon) == 0 && dnum == num;
        if (!is_default)
            return err_set(ERR_NOT_IMPLEMENTED, "Setting %s = %s is not supported yet (only its default, '%s')", name,
                           value, d->def);
    }
    setting_value *v = lookup(s, i);
    if (v)
        free(v->text);
    else {
        if (s->nset == s->cap) {
            s->cap = s->cap ? 2 * s->cap : 8;
            s->set = xrealloc(s->set, sizeof *s->set * (size_t)s->cap);
        }
        v = &s->set[s->nset++];
        v->index = i;
    }
    v->text = xstrdup(canon);
    v->num = num;
    return 0;
}

int settings_reset(settings *s, const char *name)
{
    int i = settings_index(name);
    if (i < 0)
        return unknown_setting(name);
    setting_value *v = lookup(s, i);
    if (v) {
        free(v->text);
        *v = s->set[--s->nset];
    }
    return 0;
}

/* The accessors are called with literal names many times per query (a SELECT 1 over HTTP
 * reads ~60 settings): a per-thread cache keyed by the name's address skips the hashing. A
 * hit is confirmed by comparing the name with the registered one, so an address reused
 * for another name never returns the wrong setting. */
#define NAME_CACHE_SLOTS 128
static _Thread_local struct {
    const char *name;
    int16_t found, index; /* find()'s entry (for the check) and the setting it stands for */
} name_cache[NAME_CACHE_SLOTS];

static int must_index(const char *name)
{
    uint32_t slot = (uint32_t)(((uintptr_t)name >> 3) * 2654435761u) % NAME_CACHE_SLOTS;
    if (name_cache[slot].name == name && strcmp(defs[name_cache[slot].found].name, name) == 0)
        return name_cache[slot].index;
    settings_init();
    int f = find(name);
    if (f < 0) {
        fprintf(stderr, "shale: internal error: setting %s is not registered\n", name);
        abort();
    }
    int i = defs[f].alias >= 0 ? defs[f].alias : f;
    name_cache[slot].name = name;
    name_cache[slot].found = (int16_t)f;
    name_cache[slot].index = (int16_t)i;
    return i;
}

int64_t settings_int(const settings *s, const char *name) { return (int64_t)settings_num_at(s, must_index(name)); }
double settings_float(const settings *s, const char *name) { return settings_num_at(s, must_index(name)); }
const char *settings_str(const settings *s, const char *name) { return settings_text_at(s, must_index(name)); }
bool settings_bool(const settings *s, const char *name) { return settings_num_at(s, must_index(name)) != 0; }
