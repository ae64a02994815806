#include "exec/settings.h"

#include "base/err.h"
#include "base/mem.h"

#include <ctype.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

/* Defaults follow ClickHouse's; max_threads' default "auto" means the number of cores. */
static const setting_def defs[] = {
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
    {"output_format_pretty_row_numbers", SET_BOOL, "1", "Add row numbers before each row in Pretty formats."},
    {"output_format_pretty_color", SET_STRING, "auto", "Use ANSI escapes in Pretty formats (auto = on a terminal)."},
    {"output_format_csv_crlf_end_of_line", SET_BOOL, "0", "Use CRLF line endings in CSV."},
    {"output_format_tsv_crlf_end_of_line", SET_BOOL, "0", "Use CRLF line endings in TSV."},
    {"output_format_parquet_row_group_size", SET_UINT, "1000000", "Target row group size in rows."},
    {"output_format_parquet_row_group_size_bytes", SET_UINT, "536870912", "Target row group size in bytes (uncompressed)."},
    {"output_format_parquet_compression_method", SET_STRING, "zstd", "Compression for Parquet output."},
    {"engine_file_truncate_on_insert", SET_BOOL, "0", "Truncate the file before INSERT INTO FUNCTION file."},
    {"engine_file_allow_create_multiple_files", SET_BOOL, "0", "Create a new file per insert when the file exists."},
    {"session_timezone", SET_STRING, "", "The session time zone (empty = the server's)."},
    {"timezone", SET_STRING, "", "Alias-like setting kept for compatibility; use session_timezone."},
    {"join_use_nulls", SET_BOOL, "0", "Fill non-matched rows of outer joins with NULLs instead of defaults.", SETF_DEFAULT_ONLY},
    {"join_algorithm", SET_STRING, "default", "The join algorithm (hash)."},
    {"aggregate_functions_null_for_empty", SET_BOOL, "0", "Return NULL from aggregates over no rows.", SETF_DEFAULT_ONLY},
    {"group_by_two_level_threshold", SET_UINT, "100000", "Keys after which aggregation goes two-level."},
    {"group_by_two_level_threshold_bytes", SET_UINT, "50000000", "Bytes after which aggregation goes two-level."},
    {"max_bytes_before_external_group_by", SET_UINT, "0", "Spill GROUP BY to disk beyond this (unsupported: 0)."},
    {"max_bytes_before_external_sort", SET_UINT, "0", "Spill ORDER BY to disk beyond this (unsupported: 0)."},
    {"extremes", SET_BOOL, "0", "Output extremes (unsupported).", SETF_DEFAULT_ONLY},
    {"log_queries", SET_BOOL, "1", "Log queries to system.query_log."},
    {"readonly", SET_UINT, "0", "1: only reading queries, no setting changes; 2: reading queries and setting changes."},
    {"send_logs_level", SET_STRING, "fatal", "Server log level sent to the client."},
    {"use_query_cache", SET_BOOL, "0", "Use the query cache (unsupported, ignored)."},
    {"allow_experimental_analyzer", SET_BOOL, "1", "Compatibility; ignored."},
    {"enable_analyzer", SET_BOOL, "1", "Compatibility; ignored."},
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
    {"network_compression_method", SET_STRING, "LZ4", "Codec of ClickHouse's compressed blocks over HTTP (compress=1): LZ4, LZ4HC, ZSTD or NONE."},
    {"network_zstd_compression_level", SET_INT, "1", "ZSTD level of compressed blocks (network_compression_method = 'ZSTD')."},
    {"send_progress_in_http_headers", SET_BOOL, "0", "Send X-ClickHouse-Progress headers while the query runs."},
    {"http_headers_progress_interval_ms", SET_UINT, "100", "Minimum interval between X-ClickHouse-Progress headers."},
    {"cancel_http_readonly_queries_on_client_close", SET_BOOL, "0", "Cancel a read-only HTTP query when its client disconnects (shale cancels every query of a disconnected client)."},
    {"date_time_input_format", SET_STRING, "basic", "'basic' or 'best_effort' parsing of DateTime text.", SETF_DEFAULT_ONLY},
    {"date_time_output_format", SET_STRING, "simple", "DateTime text output format.", SETF_DEFAULT_ONLY},
    {"limit", SET_UINT, "0", "Limit the number of result rows (0 = none)."},
    {"offset", SET_UINT, "0", "Skip this many result rows."},
    {"cast_keep_nullable", SET_BOOL, "0", "CAST keeps Nullable.", SETF_DEFAULT_ONLY},
    {"transform_null_in", SET_BOOL, "0", "NULL IN (NULL) is true."},
    {"totals_mode", SET_STRING, "after_having_exclusive",
     "Which groups WITH TOTALS aggregates: before_having (all) or after_having_* (those HAVING keeps; no "
     "max_rows_to_group_by overflow here, so the after_having modes agree)."},
    {"totals_auto_threshold", SET_FLOAT, "0.5", "The threshold for totals_mode = 'after_having_auto'."},
    {"union_default_mode", SET_STRING, "", "Default mode for UNION without ALL/DISTINCT.", SETF_DEFAULT_ONLY},
};

#define NDEFS ((int)(sizeof defs / sizeof defs[0]))

int settings_count(void) { return NDEFS; }
const setting_def *settings_def_at(int i) { return &defs[i]; }

/* Settings are looked up by name on every use (a server does it many times per request):
 * an open-addressing table of the definitions' indexes, built once. */
#define INDEX_SLOTS 4096
static int16_t index_slots[INDEX_SLOTS];
static pthread_once_t index_once = PTHREAD_ONCE_INIT;
static double default_num[NDEFS];

static uint32_t name_hash(const char *s)
{
    uint32_t h = 2166136261u;
    for (; *s; s++)
        h = (h ^ (uint8_t)*s) * 16777619u;
    return h;
}

static int parse_value(const setting_def *d, const char *value, double *num);

static void build_index(void)
{
    _Static_assert(NDEFS < INDEX_SLOTS / 2, "grow INDEX_SLOTS");
    for (int i = 0; i < INDEX_SLOTS; i++)
        index_slots[i] = -1;
    for (int i = 0; i < NDEFS; i++) {
        uint32_t h = name_hash(defs[i].name) & (INDEX_SLOTS - 1);
        while (index_slots[h] >= 0)
            h = (h + 1) & (INDEX_SLOTS - 1);
        index_slots[h] = (int16_t)i;
        parse_value(&defs[i], defs[i].def, &default_num[i]);
    }
}

int settings_index(const char *name)
{
    pthread_once(&index_once, build_index);
    for (uint32_t h = name_hash(name) & (INDEX_SLOTS - 1); index_slots[h] >= 0; h = (h + 1) & (INDEX_SLOTS - 1))
        if (strcmp(defs[index_slots[h]].name, name) == 0)
            return index_slots[h];
    return -1;
}

/* A value's text is the definition's own default string until the setting is set, so
 * that new and cloned settings copy pointers, not strings. */
static bool owned(const settings *s, int i) { return s->text[i] != defs[i].def; }

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

static int parse_value(const setting_def *d, const char *value, double *num)
{
    *num = 0;
    switch (d->kind) {
    case SET_STRING: return 0;
    case SET_BOOL:
        if (strcasecmp(value, "true") == 0 || strcmp(value, "1") == 0) {
            *num = 1;
            return 0;
        }
        if (strcasecmp(value, "false") == 0 || strcmp(value, "0") == 0)
            return 0;
        return err_set(ERR_CANNOT_PARSE_INPUT_ASSERTION_FAILED,
                       "Cannot parse boolean value '%s' of setting %s: expected true, false, 1 or 0", value, d->name);
    case SET_MAXTHREADS:
        if (strcmp(value, "auto") == 0 || strcmp(value, "0") == 0 || strncmp(value, "'auto", 5) == 0) {
            long n = sysconf(_SC_NPROCESSORS_ONLN);
            *num = n > 0 ? (double)n : 1;
            return 0;
        }
        /* fallthrough */
    case SET_UINT:
    case SET_INT:
    case SET_FLOAT: {
        char *end;
        double v = strtod(value, &end);
        if (end == value || *end || isnan(v))
            return err_set(ERR_CANNOT_PARSE_INPUT_ASSERTION_FAILED,
                           "Cannot parse input: expected 'eof' before: '%s' (the value of setting %s must be a number)",
                           end == value ? value : end, d->name);
        if (d->kind != SET_FLOAT && d->kind != SET_INT && v < 0)
            return err_set(ERR_CANNOT_PARSE_NUMBER, "Setting %s takes a non-negative value, got '%s'", d->name, value);
        if (d->kind != SET_FLOAT && v != floor(v))
            return err_set(ERR_CANNOT_PARSE_NUMBER, "Setting %s takes an integer, got '%s'", d->name, value);
        *num = v;
        return 0;
    }
    }
    return 0;
}

settings *settings_new(void)
{
    settings *s = xcalloc(1, sizeof *s);
    s->n = NDEFS;
    s->text = xcalloc(NDEFS, sizeof *s->text);
    s->num = xcalloc(NDEFS, sizeof *s->num);
    s->changed = xcalloc(NDEFS, sizeof *s->changed);
    pthread_once(&index_once, build_index);
    for (int i = 0; i < NDEFS; i++)
        s->text[i] = (char *)defs[i].def;
    memcpy(s->num, default_num, sizeof default_num);
    return s;
}

settings *settings_clone(const settings *src)
{
    settings *s = xcalloc(1, sizeof *s);
    s->n = src->n;
    s->text = xcalloc((size_t)s->n, sizeof *s->text);
    s->num = xcalloc((size_t)s->n, sizeof *s->num);
    s->changed = xcalloc((size_t)s->n, sizeof *s->changed);
    for (int i = 0; i < s->n; i++)
        s->text[i] = owned(src, i) ? xstrdup(src->text[i]) : src->text[i];
    memcpy(s->num, src->num, sizeof *s->num * (size_t)s->n);
    memcpy(s->changed, src->changed, sizeof *s->changed * (size_t)s->n);
    return s;
}

const char *settings_first_difference(const settings *a, const settings *b)
{
    for (int i = 0; i < a->n && i < b->n; i++)
        if (a->text[i] != b->text[i] && strcmp(a->text[i], b->text[i]) != 0 && a->num[i] != b->num[i])
            return defs[i].name;
    return NULL;
}

void settings_free(settings *s)
{
    if (!s)
        return;
    for (int i = 0; i < s->n; i++)
        if (owned(s, i))
            free(s->text[i]);
    free(s->text);
    free(s->num);
    free(s->changed);
    free(s);
}

int settings_set(settings *s, const char *name, const char *value)
{
    int i = settings_index(name);
    if (i < 0) {
        char hint[512] = "";
        size_t len = 0;
        int best = 1000;
        for (int k = 0; k < NDEFS; k++) {
            int d = edit_distance(name, defs[k].name);
            if (d < best)
                best = d;
        }
        if (best <= 3 && best < (int)strlen(name))
            for (int k = 0; k < NDEFS && len < sizeof hint - 80; k++)
                if (edit_distance(name, defs[k].name) == best)
                    len += (size_t)snprintf(hint + len, sizeof hint - len, "%s'%s'", len ? ", " : "", defs[k].name);
        if (len)
            return err_set(ERR_UNKNOWN_SETTING, "Unknown setting '%s': Maybe you meant [%s]", name, hint);
        return err_set(ERR_UNKNOWN_SETTING, "Unknown setting '%s'", name);
    }
    double num;
    if (parse_value(&defs[i], value, &num))
        return -1;
    if (defs[i].flags & SETF_DEFAULT_ONLY) {
        double dnum = 0;
        bool is_default = defs[i].kind == SET_STRING ? strcmp(value, defs[i].def) == 0
                                                     : parse_value(&defs[i], defs[i].def, &dnum) == 0 && dnum == num;
        if (!is_default)
            return err_set(ERR_NOT_IMPLEMENTED, "Setting %s = %s is not supported yet (only its default, '%s')", name,
                           value, defs[i].def);
    }
    if (owned(s, i))
        free(s->text[i]);
    s->text[i] = xstrdup(value);
    s->num[i] = num;
    s->changed[i] = true;
    return 0;
}

static int must_index(const char *name)
{
    int i = settings_index(name);
    if (i < 0) {
        fprintf(stderr, "shale: internal error: setting %s is not registered\n", name);
        abort();
    }
    return i;
}

int64_t settings_int(const settings *s, const char *name) { return (int64_t)s->num[must_index(name)]; }
double settings_float(const settings *s, const char *name) { return s->num[must_index(name)]; }
const char *settings_str(const settings *s, const char *name) { return s->text[must_index(name)]; }
bool settings_bool(const settings *s, const char *name) { return s->num[must_index(name)] != 0; }
