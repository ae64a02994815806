/* source: the interface storage implements for queries (defined here, below storage,
 * so that operators depend only on it). What a table or table function offers a query — a schema and a set of read
 * tasks that workers take one at a time (a file, a range of numbers, a row group).
 *
 * open() starts task `task` reading only the columns `cols` (indexes into the schema);
 * next() returns blocks with exactly those columns in that order, NULL at the end.
 * Different tasks may run on different threads at once; one task iterator is used by one
 * thread. Errors: -1 with err_set naming the file/object and offset. */
#ifndef SHALE_EXEC_SOURCE_H
#define SHALE_EXEC_SOURCE_H

#include "column/block.h"
#include "exec/query.h"

/* A conjunct of the WHERE clause of the form `column op constant(s)` (filter push-down).
 * vals: the constant (IN / NOT IN: the list), NULLs left out, of a number type when the
 * column is a number, else converted to the column's type without Nullable.
 * SF_LIKE … SF_NOT_ILIKE (`col [NOT] [I]LIKE 'pattern'`, on String columns only): vals is
 * the pattern as one String row. A consumer must treat an op it does not know as "may
 * match" (never prune, never count as "all match"); only the _path/_file pruning of
 * file(), s3() and url() uses the LIKE ops so far. */
typedef enum src_filter_op {
    SF_EQ, SF_NE, SF_LT, SF_LE, SF_GT, SF_GE, SF_IN, SF_NOT_IN,
    SF_LIKE, SF_NOT_LIKE, SF_ILIKE, SF_NOT_ILIKE
} src_filter_op;
typedef struct src_filter {
    int col;                     /* index into the source schema */
    src_filter_op op;
    column *vals;                /* owned by the caller */
} src_filter;

typedef struct source {
    schema *sch;                 /* owned */
    int nvisible;                /* columns of SELECT *; the rest are virtual (_path, _file) */
    int ntasks;
    uint64_t total_rows_hint;    /* for progress; 0 = unknown */
    int (*open)(struct source *s, int task, const int *cols, int ncols, query_ctx *q, void **it);
    int (*next)(void *it, block **out);
    void (*close)(void *it);
    void (*destroy)(struct source *s);
    /* Exact row count without reading data (count() optimisation); -1 if unknown. */
    int64_t (*count_rows)(struct source *s, query_ctx *q);
    void *impl;
    /* Optional hint, called once before any open(): every row the query keeps satisfies
     * all of f[0..n). The source may skip data that cannot match (Parquet row groups by
     * statistics) and must return everything that might; rows it returns are still
     * filtered by WHERE. It copies what it keeps (f is the caller's). */
    void (*set_filter)(struct source *s, const src_filter *f, int n, query_ctx *q);
    /* Optional hint, called once before any open(): the query keeps only the first `rows`
     * rows the source returns, in its order (no filter, grouping or sort in between). The
     * source may return just those, in blocks of at most `rows` rows (as ClickHouse's
     * numbers() does): what stops `SELECT f(number) FROM system.numbers LIMIT n` from
     * evaluating f over whole blocks, and lets a join read an unbounded left side. */
    void (*set_limit)(struct source *s, uint64_t rows);
    /* Optional, after set_filter, for a query that only counts the rows satisfying its
     * WHERE when f[0..n) express that WHERE exactly: drops from the tasks the rows the
     * source knows satisfy every filter without reading them (a MergeTree's granules
     * that lie wholly inside the key ranges) and returns how many they were. Call before
     * any open(); updates ntasks. */
    uint64_t (*take_matching)(struct source *s, query_ctx *q);
    /* Optional (file(), s3(), url()), called once before any open(): source columns with
     * coded[i] (String columns) may come back dictionary-coded (column.h) where the data
     * is stored that way (Parquet dictionary pages), so that filters run once per distinct
     * value and GROUP BY works on codes. Only exec/select.c asks, for the columns it
     * evaluates through their dictionary. The source copies the flags. */
    void (*accept_codes)(struct source *s, const bool *coded);
    /* Optional (Parquet row groups in file()), right after open(): filter columns first.
     * For each block the iterator decodes the columns with cols[i] (indexes into the block
     * next() returns) first and calls fn with a block holding only those (the others
     * NULL); fn sets keep[row] and returns how many rows it keeps, or -1 with err_set.
     * Blocks with none are skipped without decoding their other columns; the others come
     * back with the kept rows only. fn runs on the thread calling next(). */
    void (*set_prefilter)(void *it, const bool *cols, long (*fn)(void *ctx, const block *b, uint8_t *keep),
                          void *ctx);
    /* Optional (file(), s3()), for resumable INSERTs: the objects the source reads, each
     * with a version (S3: the ETag; local files: size and modification time). The arrays
     * belong to the source. */
    int (*objects)(struct source *s, int *n, char *const **names, char *const **versions);
    /* Optional, with objects(): read only the objects whose keep[i] is set (before open();
     * updates ntasks). */
    void (*keep_objects)(struct source *s, const uint8_t *keep);
    /* Optional, for joined sources: per column the table qualifier (alias or table name,
     * may be NULL) and the bare column name, so that t.col resolves. Owned. */
    char **col_qual;
    char **col_bare;
    /* Optional, with col_qual: a second qualifier (a USING key is also the right
     * table's column), else NULL entries. Owned. */
    char **col_qual2;
    /* Optional, for tables with ALIAS columns: their names and defining expressions as SQL
     * text, which queries may use like columns (computed, never stored). Owned. */
    int nalias;
    char **alias_name;
    char **alias_sql;
} source;

/* Reads every task of s, all columns, into one block (*out, owned by the caller). */
int source_read_all(source *s, query_ctx *q, block **out);

/* Where source_read_until paused: the rows read so far (pre, owned), the task being read and
 * its open iterator (owned: go on with s->next, then s->close). */
typedef struct source_pause {
    block *pre;
    int task;
    void *it;
} source_pause;

/* source_read_all that asks enough(rows so far, arg) after each block (enough may be NULL);
 * once it says true the read pauses: *out is NULL and *paused says where, for the caller to
 * go on (a JOIN's right side turning into a grace hash join past its memory threshold). */
int source_read_until(source *s, query_ctx *q, bool (*enough)(const block *sofar, void *arg), void *arg,
                      block **out, source_pause *paused);

void source_free(source *s);

/* inner with its columns reordered: outer column i is inner column perm[i]; the first
 * nvisible are what SELECT * shows. Takes inner. */
source *source_reorder(source *inner, const int *perm, int nvisible);

/* inner read under the schema sch (taken): outer column i is inner column map[i], cast to
 * sch->types[i] where the types differ; map[i] = -1 marks a column inner lacks, and
 * opening it fails with NOT_FOUND_COLUMN_IN_BLOCK naming `what` (a table). The first nvisible
 * are what SELECT * shows. Takes inner. (A materialized view over its target table.) */
source *source_convert(source *inner, schema *sch, const int *map, int nvisible, const char *what);

/* inner's rows for which mask (an expression over inner's schema, taken) is true: the
 * rows SAMPLE keeps. The mask's columns are read along with those a query asks for.
 * Takes inner. */
struct expr;
source *source_filter(source *inner, struct expr *mask);

/* A source over blocks already in memory (subquery results). Takes the blocks. */
source *source_from_blocks(schema *sch, block **blocks, int nblocks);
/* Block i of a source made by source_from_blocks (still owned by the source). */
block *source_memory_block(source *s, int i);

#endif
