/* Parquet input format: schema mapping (ClickHouse's rules) and the column reader that
 * plugs into the input-format registry through rd_bin (format/rd.h).
 *
 * The reader reads the file with positioned reads when the rbuf is over a local file
 * (only the footer and the column chunks of the selected columns), and otherwise reads the
 * whole stream into memory first. The chunks a row group needs are read with few reads:
 * their byte ranges sorted, and ranges closer than min_bytes_for_seek merged. Columns
 * without repeated levels are decoded page by page into blocks of at most 65409 rows, so
 * memory stays near one block plus one page per column whatever the row group size;
 * Array columns (rows spanning pages) decode their row group whole and hand it out in
 * blocks of the same size.
 *
 * Parallel reading (storage/tablefunc/file.c): parquet_file_open reads and decodes one
 * file's footer once; parquet_reader_open then opens readers over any range of its row
 * groups, on any threads, sharing that footer. parquet_rg_may_match tests a simple
 * predicate against a row group's min/max statistics (filter push-down).
 *
 * Types follow ClickHouse's reading of each writer's layouts: MAP / MAP_KEY_VALUE groups are
 * Map(K, V), legacy two-level lists and repeated fields without annotation are arrays,
 * INT96 is DateTime64(9, 'UTC'), a field is Nullable when it or a group between it and its
 * nearest repeated ancestor is optional. A page carrying a CRC is checked before it is
 * decoded (fmt_settings.parquet_verify_checksums, ClickHouse's
 * input_format_parquet_verify_checksums): a mismatch fails the read.
 *
 * Errors: -1 with err_set naming the file, column and byte offset. A reader is not
 * thread-safe; a parquet_file is read-only after opening and may be shared by readers on
 * different threads (it must outlive them). */
#ifndef SHALE_FORMAT_PARQUET_READER_H
#define SHALE_FORMAT_PARQUET_READER_H

#include "format/parquet/thrift.h"
#include "format/rd.h"

int parquet_reader_new(rbuf *in, const schema *s, const fmt_settings *st, rd_bin **out);
/* A reader over a remote object read by ranges: only its footer (one read of the tail) and
 * the column chunks of the selected columns are fetched, through read_at, which must fill
 * dst with bytes [off, off + n) or return -1 with err_set. ctx_free(ctx) runs when the
 * reader is freed (also on failure here). name is borrowed and must outlive the reader.
 * ck: the object's key and version for the metadata cache (meta_cache.h), or NULL. */
int parquet_reader_new_ra(const char *name, uint64_t size, fmt_read_at_fn read_at, void *ctx,
                          void (*ctx_free)(void *ctx), const fmt_cache_key *ck, const schema *s,
                          const fmt_settings *st, rd_bin **out);
int parquet_infer_schema(rbuf *in, const fmt_settings *st, schema **out);

/* Reads and decodes the footer of a Parquet file held in memory (tests, fuzzing). */
pq_meta *parquet_read_meta_mem(const uint8_t *p, size_t n, const char *name);

/* ClickHouse's input_format_parquet_local_file_min_bytes_for_seek default. */
#define PARQUET_DEFAULT_MIN_BYTES_FOR_SEEK 8192

/* One file's decoded footer and schema. */
typedef struct parquet_file parquet_file;

/* Reads the footer of the file at path (positioned reads for a local regular file, else
 * the whole stream is read into memory). Returns -1 with err_set on a bad file. */
int parquet_file_open(const char *path, parquet_file **out);
/* The same through the metadata cache (meta_cache.h) when ck is not NULL and the file is a
 * regular one: keyed by ck->key (NULL: the file's absolute path), versioned by the size,
 * mtime and inode of the descriptor read (ck->version is ignored); ck's counters count the
 * hit or miss. */
int parquet_file_open_cached(const char *path, const fmt_cache_key *ck, parquet_file **out);
void parquet_file_free(parquet_file *pf);
int parquet_file_row_groups(const parquet_file *pf);
int64_t parquet_file_row_group_rows(const parquet_file *pf, int rg);
/* Positioned reads of column data done so far by readers of pf (tests of coalescing). */
uint64_t parquet_file_reads(parquet_file *pf);

/* Filter columns first: for each block the reader decodes the columns with cols[i] (the
 * reader's schema) first and calls fn with a block holding only those (the others NULL);
 * fn sets keep[row] and returns how many rows it keeps, or -1 with err_set. A block with
 * none is skipped and its other columns are never decoded (nor their pages wholly inside
 * it decompressed); otherwise the other columns are decoded and the block comes back
 * with the kept rows only. fn runs on the thread calling next(). */
typedef fmt_prefilter_fn parquet_prefilter_fn;
void parquet_reader_set_prefilter(rd_bin *r, const bool *cols, parquet_prefilter_fn fn, void *ctx);

/* Predicates for parquet_rg_may_match and page-index pruning: column op constant(s). */
enum { PQF_EQ = FMT_EQ, PQF_NE = FMT_NE, PQF_LT = FMT_LT, PQF_LE = FMT_LE, PQF_GT = FMT_GT, PQF_GE = FMT_GE,
       PQF_IN = FMT_IN, PQF_NOT_IN = FMT_NOT_IN };
typedef fmt_filter pq_filter;

typedef struct parquet_read_opts {
    int rg_first, rg_count;       /* row groups to read; rg_count < 0: to the end */
    uint64_t min_bytes_for_seek;  /* gaps below this between needed chunks are read through */
    /* Row groups whose statistics, and rows of pages whose column-index min/max, cannot
     * satisfy every filter are skipped (neither read nor decoded); the rest still need the
     * query's WHERE. Borrowed for the reader's life (also fmt_reader_set_filters). */
    const pq_filter *filters;
    int nfilters;
} parquet_read_opts;

/* A reader over row groups of pf (all of them when o is NULL), producing schema s
 * (columns matched by name, converted to s's types). The reader borrows pf. */
int parquet_reader_open(parquet_file *pf, const schema *s, const fmt_settings *st, const parquet_read_opts *o,
                        rd_bin **out);


/* May some row of row group rg satisfy `col op vals`? vals holds one constant (IN / NOT
 * IN: the list), non-NULL, of a number type or of col's type without Nullable; `want` is
 * the type the query reads col as. Rows where col is NULL never satisfy (SQL
 * comparisons with NULL are NULL). Answers true whenever the statistics cannot decide:
 * no statistics, legacy statistics of an order that may differ (unsigned, strings),
 * NaN, a type conversion, a nested column, an unknown column. */
bool parquet_rg_may_match(const parquet_file *pf, int rg, const char *col, const type *want, int op,
                          const column *vals);

#endif
