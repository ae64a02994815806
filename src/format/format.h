/* Input and output formats.
 *
 * A writer turns a stream of blocks into bytes on an outstream; a reader turns bytes from
 * an rbuf into blocks of a given schema. Both are looked up by ClickHouse's format names
 * (case-sensitive, with ClickHouse's aliases such as TSV = TabSeparated).
 *
 * Ownership: fmt_writer_new borrows the outstream and copies the header; the caller closes
 * the outstream after fmt_writer_finish. fmt_reader_new takes over the rbuf.
 * Errors: -1 with err_set; reader errors name the source (rbuf->in->name), the row number
 * and byte offset, and the column, as ClickHouse does ("Cannot parse input: expected ','
 * before: 'abc': (at row 3)").
 * Thread-safety: one writer or reader per thread; different instances are independent. */
#ifndef SHALE_FORMAT_FORMAT_H
#define SHALE_FORMAT_FORMAT_H

#include "column/block.h"
#include "io/stream.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

/* Format settings (ClickHouse setting names in comments); filled from the query's
 * settings by the caller, defaults by fmt_settings_default. */
typedef struct fmt_settings {
    char csv_delimiter;                 /* format_csv_delimiter (',') */
    bool csv_crlf;                      /* output_format_csv_crlf_end_of_line */
    bool tsv_crlf;                      /* output_format_tsv_crlf_end_of_line */
    bool skip_unknown_fields;           /* input_format_skip_unknown_fields (true) */
    bool null_as_default;               /* input_format_null_as_default (true) */
    bool json_quote_64bit_integers;     /* output_format_json_quote_64bit_integers (true) */
    bool json_quote_decimals;           /* output_format_json_quote_decimals (false) */
    bool json_quote_denormals;          /* output_format_json_quote_denormals (false) */
    int pretty_max_rows;                /* output_format_pretty_max_rows (10000) */
    int pretty_max_column_pad_width;    /* output_format_pretty_max_column_pad_width (250) */
    int pretty_max_value_width;         /* output_format_pretty_max_value_width (10000) */
    bool pretty_row_numbers;            /* output_format_pretty_row_numbers (true) */
    bool pretty_footer_names;           /* output_format_pretty_display_footer_column_names (true) */
    int64_t pretty_footer_min_rows;     /* output_format_pretty_display_footer_column_names_min_rows (50) */
    bool pretty_fallback_to_vertical;   /* output_format_pretty_fallback_to_vertical (true) */
    int64_t pretty_fallback_max_rows;   /* output_format_pretty_fallback_to_vertical_max_rows_per_chunk (10) */
    int64_t pretty_fallback_min_columns; /* output_format_pretty_fallback_to_vertical_min_columns (5) */
    int64_t pretty_fallback_min_width;  /* output_format_pretty_fallback_to_vertical_min_table_width (250) */
    bool pretty_color;                  /* output_format_pretty_color: false when not a tty */
    int64_t pretty_single_large_number_tip_threshold; /* 1000000 */
    bool pretty_highlight_digit_groups;    /* output_format_pretty_highlight_digit_groups (true) */
    bool pretty_highlight_trailing_spaces; /* output_format_pretty_highlight_trailing_spaces (true) */
    bool pretty_multiline_fields;       /* output_format_pretty_multiline_fields (true) */
    int64_t pretty_name_cut_to;         /* output_format_pretty_max_column_name_width_cut_to (24) */
    int64_t pretty_name_min_chars_to_cut; /* output_format_pretty_max_column_name_width_min_chars_to_cut (4) */
    bool pretty_max_value_width_single; /* output_format_pretty_max_value_width_apply_for_single_value (0) */
    bool pretty_ascii;                  /* output_format_pretty_grid_charset = 'ASCII' */
    bool pretty_squash;                 /* output_format_pretty_squash_consecutive_ms != 0 (50): one table */
    bool write_statistics;              /* output_format_write_statistics (true) */
    int max_block_rows;                 /* rows per block produced by readers (65536) */
    int64_t max_block_bytes;            /* bytes per block produced by readers (1 MiB..) */
    bool schema_inference_make_columns_nullable; /* (true: infer Nullable(T) for text formats) */
    bool try_infer_integers;            /* input_format_try_infer_integers (true) */
    bool try_infer_dates;               /* input_format_try_infer_dates (true) */
    bool try_infer_datetimes;           /* input_format_try_infer_datetimes (true) */
    int64_t max_rows_to_read_for_schema_inference; /* 25000 */
    bool with_names_use_header;         /* input_format_with_names_use_header (true) */
    bool csv_detect_header;             /* input_format_csv_detect_header (true) */
    bool tsv_detect_header;             /* input_format_tsv_detect_header (true) */
    const char *timezone;               /* session time zone for DateTime text */
    int64_t parquet_row_group_rows;     /* output_format_parquet_row_group_size (1000000) */
    int64_t parquet_row_group_bytes;    /* output_format_parquet_row_group_size_bytes (512 MiB) */
    bool parquet_verify_checksums;      /* input_format_parquet_verify_checksums (true) */
    int64_t parquet_prefer_block_bytes; /* input_format_parquet_prefer_block_bytes (16744704) */
    bool skip_prefix;                   /* the writer leaves out its header (names and types lines):
                                           a file with data is appended to (file(), ENGINE = File) */
    const char *parquet_compression;    /* output_format_parquet_compression_method ("zstd");
                                           points at a string that outlives the writer */
} fmt_settings;

void fmt_settings_default(fmt_settings *s);

/* Statistics the JSON formats print at the end. */
typedef struct fmt_stats {
    double elapsed;
    uint64_t rows_read;
    uint64_t bytes_read;
    uint64_t rows_before_limit; /* 0 = unknown */
    bool has_rows_before_limit;
} fmt_stats;

typedef struct fmt_writer fmt_writer;

/* Names a known output format? Also resolves aliases to the canonical name. */
const char *fmt_output_canonical(const char *name);
const char *fmt_input_canonical(const char *name);

int fmt_writer_new(const char *format, const schema *header, const fmt_settings *s, outstream *out,
                   fmt_writer **w);
int fmt_writer_write(fmt_writer *w, const block *b);
/* The WITH TOTALS row (one row of the header's columns; takes b), written by
 * fmt_writer_finish where the format prints totals (TabSeparated, CSV, JSON, JSONCompact,
 * Pretty, Vertical) and dropped by the others, as ClickHouse does. */
int fmt_writer_totals(fmt_writer *w, block *b);
/* The extremes (setting extremes = 1): two rows, the minimums then the maximums of the
 * header's columns (takes b), printed by fmt_writer_finish after the totals where the
 * format prints them (the same formats as totals) and dropped by the others. */
int fmt_writer_extremes(fmt_writer *w, block *b);
int fmt_writer_finish(fmt_writer *w, const fmt_stats *stats);
void fmt_writer_free(fmt_writer *w);

typedef struct fmt_reader fmt_reader;

/* Reads blocks of schema s (the columns the file provides, in file order for formats
 * without names; by name for *WithNames and JSONEachRow). */
int fmt_reader_new(const char *format, rbuf *in, const schema *s, const fmt_settings *st, fmt_reader **r);
/* Random access to a remote object: fill dst with bytes [off, off + n), or -1 with
 * err_set. */
typedef int (*fmt_read_at_fn)(void *ctx, uint64_t off, size_t n, uint8_t *dst);
/* An object's identity for the Parquet metadata cache (format/parquet/meta_cache.h): key
 * (the object's URL or absolute path) and version (its ETag); the hit and miss counters
 * to bump (may be NULL). A NULL fmt_cache_key, or one without key or version, bypasses the
 * cache (use_parquet_metadata_cache = 0). */
typedef struct fmt_cache_key {
    const char *key;
    const char *version;
    _Atomic uint64_t *hits, *misses;
} fmt_cache_key;
/* A reader over an object read by ranges (only the bytes the format needs are fetched).
 * Formats with random access only (Parquet); returns 1 without an error for the others
 * (ctx not taken: read it as a stream). On 0 or -1, ctx_free(ctx) runs when the reader is
 * freed or at once on failure. name is borrowed. */
int fmt_reader_new_ra(const char *format, const char *name, uint64_t size, fmt_read_at_fn read_at, void *ctx,
                      void (*ctx_free)(void *ctx), const fmt_cache_key *ck, const schema *s, const fmt_settings *st,
                      fmt_reader **r);
/* *out = next block, or NULL at the end. */
int fmt_reader_next(fmt_reader *r, block **out);
/* Fetches what the first fmt_reader_next needs (binary formats that support it; else
 * nothing), so that a thread other than the consumer waits for the I/O. */
int fmt_reader_prefetch(fmt_reader *r);
/* About how many bytes fmt_reader_prefetch would fetch and hold (for a caller bounding the
 * memory of readers opened ahead): 0 when nothing, -1 when the format cannot tell. Call
 * after the column selection and filters are set. */
int64_t fmt_reader_prefetch_bytes(fmt_reader *r);
/* The byte ranges fmt_reader_prefetch would read through read_at, in order (Parquet: the
 * coalesced column chunks of the first row group to read), so that a caller can fetch them
 * concurrently beforehand: 0 with *out (malloc'ed, the caller frees; NULL when *n is 0), or
 * -1 without an error when the format cannot tell. Call after the column selection and
 * filters are set. */
typedef struct fmt_range {
    uint64_t off;
    size_t len;
} fmt_range;
int fmt_reader_prefetch_ranges(fmt_reader *r, fmt_range **out, int *n);
/* Only columns with needed[i] are parsed; the others come back as constant defaults (the
 * row structure is still checked). Text formats only; binary formats ignore it. */
void fmt_reader_select(fmt_reader *r, const bool *needed);
/* Columns with coded[i] (a String column) may come back dictionary-coded (column.h) where
 * the data stores them so (Parquet dictionary pages); other formats ignore it. Only for a
 * caller that handles coded columns (exec/select.c via source.accept_codes). */
void fmt_reader_keep_codes(fmt_reader *r, const bool *coded);
/* A simple predicate `col op vals` that formats with statistics (Parquet) use to skip row
 * groups and pages: op is one of FMT_EQ … FMT_NOT_IN, vals one constant (IN / NOT IN: the
 * list, NULLs left out), of a number type or of col's type without Nullable; `want` is
 * the type the query reads col as. Rows that come back still need the query's WHERE. */
enum { FMT_EQ, FMT_NE, FMT_LT, FMT_LE, FMT_GT, FMT_GE, FMT_IN, FMT_NOT_IN };
typedef struct fmt_filter {
    const char *col;
    const type *want;
    int op;
    const column *vals;
} fmt_filter;
/* Filters every returned row satisfies (borrowed for the reader's life); other formats
 * ignore them. Call before the first fmt_reader_next / fmt_reader_prefetch. */
void fmt_reader_set_filters(fmt_reader *r, const fmt_filter *f, int n);
/* Filter columns first (Parquet; see parquet_reader_set_prefilter): for each block the
 * columns with cols[i] are decoded first and fn decides which rows to keep (-1 with
 * err_set on error); blocks without any are skipped undecoded. Others ignore it. */
typedef long (*fmt_prefilter_fn)(void *ctx, const block *b, uint8_t *keep);
void fmt_reader_set_prefilter(fmt_reader *r, const bool *cols, fmt_prefilter_fn fn, void *ctx);
/* The total number of rows without reading the data (Parquet: from the footer).
 * Returns 0 with *rows set, or -1 when the format cannot tell (no error is set). */
int fmt_reader_count_rows(fmt_reader *r, int64_t *rows);
void fmt_reader_free(fmt_reader *r);

/* Schema inference from the start of the data (ClickHouse's rules). The rbuf is consumed;
 * *out is a new schema owned by the caller. */
int fmt_infer_schema(const char *format, rbuf *in, const fmt_settings *st, schema **out);
/* Inference over an object read by ranges (Parquet: its footer only); 1 without an error
 * for formats that need a stream. ctx stays the caller's. */
int fmt_infer_schema_ra(const char *format, const char *name, uint64_t size, fmt_read_at_fn read_at, void *ctx,
                        const fmt_cache_key *ck, schema **out);

/* Format from a file name's extension (after stripping a compression extension), as
 * ClickHouse does: ".csv" → "CSV", ".tsv" → "TSV", ".parquet" → "Parquet",
 * ".jsonl"/".ndjson" → "JSONEachRow", ".native" → "Native", ... NULL if unknown. */
const char *fmt_from_filename(const char *path);

#endif
