/* MergeTree internals shared by the engine's files (not a public API: the engine is used
 * through storage/table.h).
 *
 * A table is a set of immutable parts. Each part covers one partition and a range of
 * block numbers [min_block, max_block]; inserts create level-0 parts with a fresh block
 * number, merges replace adjacent parts of a partition by one part of a higher level.
 * The list of parts is guarded by the table's mutex; a part is reference counted so a
 * query reading a snapshot keeps it alive after a merge made it outdated.
 *
 * On disk (ClickHouse's Wide part layout, see docs/mergetree.md):
 *   data_dir/<partition>_<min>_<max>_<level>/   columns.txt count.txt checksums.txt
 *       primary.idx partition.dat minmax_<col>.idx default_compression_codec.txt
 *       <stream>.bin <stream>.mrk2 for every column substream
 *   data_dir/tmp_insert_… / tmp_merge_…          parts being written (removed at start)
 *   data_dir/detached/                            parts for ALTER TABLE … ATTACH PART
 * A part appears only by rename() of its complete, fsync'd temporary directory. */
#ifndef SHALE_STORAGE_MERGETREE_MT_H
#define SHALE_STORAGE_MERGETREE_MT_H

#include "exec/expr.h"
#include "codec/compress.h"
#include "storage/mergetree/serial.h"
#include "storage/table.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

typedef enum mt_kind {
    MT_PLAIN, MT_REPLACING, MT_SUMMING, MT_AGGREGATING,
    MT_COLLAPSING,  /* CollapsingMergeTree(sign) */
    MT_VERSIONED,   /* VersionedCollapsingMergeTree(sign, version) */
    MT_COALESCING,  /* CoalescingMergeTree([cols]) */
} mt_kind;

/* Table-level settings (SETTINGS of CREATE TABLE), ClickHouse's names and defaults. */
typedef struct mt_settings {
    uint64_t index_granularity;                      /* 8192 */
    uint64_t index_granularity_bytes;                /* 10 MiB; 0 = fixed granularity */
    uint64_t min_compress_block_size;                /* 65536 */
    uint64_t max_compress_block_size;                /* 1048576 */
    uint64_t parts_to_delay_insert;                  /* 1000 */
    uint64_t parts_to_throw_insert;                  /* 3000 */
    uint64_t max_delay_to_insert;                    /* 1 s */
    uint64_t max_bytes_to_merge_at_max_space_in_pool; /* 150 GiB */
    uint64_t max_parts_to_merge_at_once;             /* 100 */
    uint64_t old_parts_lifetime;                     /* 480 s */
    uint64_t non_replicated_deduplication_window;    /* 0 */
    uint64_t merge_max_block_size;                   /* 8192 rows per merge output block */
    bool enable_vertical_merge_algorithm;            /* true: wide merges go column by column */
    bool allow_dimensions_outside_sorting_key;       /* false: AggregatingMergeTree refuses plain
                                                        columns outside the sorting key */
    uint64_t vertical_merge_algorithm_min_rows_to_activate;    /* 131072 */
    uint64_t vertical_merge_algorithm_min_columns_to_activate; /* 11 gathered columns */
} mt_settings;

/* One part. Immutable after loading except `state`, `merging` and `remove_time`. */
typedef enum mt_part_state { PART_ACTIVE, PART_OUTDATED } mt_part_state;

typedef struct mt_part {
    char *name;                  /* 202401_1_1_0 */
    char *dir;                   /* data_dir + name + '/' */
    char *partition_id;
    int64_t min_block, max_block;
    uint32_t level;
    uint64_t rows;
    uint64_t bytes_on_disk;
    uint64_t data_compressed_bytes;
    uint64_t data_uncompressed_bytes;
    size_t ngranules;            /* marks without the final one */
    uint64_t *granule_start;     /* ngranules + 1 row offsets: granule g = [start[g], start[g+1]) */
    column **index;              /* per primary-key column: ngranules (+1 with a final mark) values */
    size_t nindex;               /* values per index column */
    column **minmax;             /* per minmax column: 2 rows (min, max); NULL for "all" */
    block *partition;            /* the partition key's values (1 row); NULL when no key */
    int64_t modification_time;   /* seconds */
    int64_t mutation;            /* the name's mutation version (all_1_1_0_5 → 5), 0 = none */
    schema *psch;                /* the part's own columns (columns.txt, with the renames of
                                    mutations newer than the part applied) */
    int *colmap;                 /* per stored column of the table: its index in psch, or -1
                                    when the part predates the column (read as its default) */
    bool same_layout;            /* psch is the table's stored columns, same names and types */
    mt_serial_opts *opts;        /* per column of psch: how its streams are laid out */
    uint64_t *col_bytes;         /* per column of psch: its streams' uncompressed bytes
                                    (checksums.txt), to size a block's buffers once */
    mt_part_state state;
    bool merging;                /* chosen by a running merge */
    double remove_time;          /* when it became outdated (monotonic seconds) */
    _Atomic int refs;
} mt_part;

mt_part *mt_part_ref(mt_part *p);

/* Is t one of the MergeTree family (its impl an mt_table)? */
static inline bool mt_is_mergetree(const table *t)
{
    return t->engine == &engine_mergetree || t->engine == &engine_replacing_mergetree ||
           t->engine == &engine_summing_mergetree || t->engine == &engine_aggregating_mergetree ||
           t->engine == &engine_collapsing_mergetree || t->engine == &engine_versioned_collapsing_mergetree ||
           t->engine == &engine_coalescing_mergetree;
}
void mt_part_unref(mt_part *p);

/* Sorting / primary / partition keys compiled against the table's stored columns. */
typedef struct mt_key {
    int n;
    expr **exprs;
    const type **types;
    char **names;                /* the expression text (the key column's name) */
    int *src_col;                /* the stored column when the expression is just a column, else -1 */
    int *mono_col;               /* f(column) with f monotonic non-decreasing (toDate, toYear, …):
                                    the column, else -1 — conditions on it prune through f */
} mt_key;

/* A running merge (system.merges). */
typedef struct mt_merge_info {
    struct mt_merge_info *next;
    char *result_name;
    char *partition_id;
    int nsources;
    char **sources;
    uint64_t total_bytes, total_rows;
    _Atomic uint64_t rows_read, rows_written;
    _Atomic uint64_t columns_written;  /* vertical: gathered columns done */
    bool vertical;               /* merge_algorithm 'Vertical' (else 'Horizontal') */
    int columns_total, columns_gathered;
    double start;                /* clock_monotonic() */
} mt_merge_info;

typedef struct mt_table {
    table *t;
    mt_kind kind;
    const ast *cr;               /* the CREATE's storage clauses: t->create, or for the old
                                    engine syntax what it stands for (old_syntax.h) */
    arena cr_arena;              /* holds cr's nodes then */
    bool old_format;             /* old syntax: parts named by their dates, no partition.dat
                                    nor minmax file */
    int date_col;                /* old syntax: the date column (stored column index) */
    mt_settings set;
    mt_key sort;                 /* ORDER BY (empty = tuple()) */
    int nprimary;                /* PRIMARY KEY: a prefix of the sorting key */
    mt_key part_key;             /* PARTITION BY (n = 0: one partition "all") */
    int nminmax;                 /* columns used by the partition key */
    int *minmax_cols;
    mt_codec **codecs;           /* per stored column */
    mt_codec *default_codec;
    int replacing_ver;           /* ReplacingMergeTree(ver): column, or -1 */
    int nsum;                    /* Summing: columns to sum; Coalescing: columns to coalesce */
    int *sum_cols;
    int sign_col;                /* (Versioned)Collapsing: the Int8 sign column, or -1 */

    pthread_mutex_t lock;        /* guards everything below */
    pthread_cond_t cond;
    int nparts, capparts;
    mt_part **parts;             /* active and outdated, sorted by (partition_id, min_block) */
    int64_t next_block;          /* the next block number to allocate */
    uint64_t tmp_seq;
    /* deduplication: hashes of recent inserted blocks (newest last) */
    int ndedup;
    char **dedup;
    /* background merges */
    mt_merge_info *merges;       /* running merges */
    int64_t resume_floor;        /* parts from this block on belong to a running resumable
                                    load and are not merged (INT64_MAX: none) */
    char *part_log;              /* <path>/system/part_log.tsv, or NULL */
    int nthreads, nthreads_wanted; /* background_pool_size, capped by cores */
    pthread_t *threads;
    bool stopping;
    _Atomic int stopping_merges;   /* running merges abort when set */
    _Atomic int merges_stopped;    /* SYSTEM STOP MERGES: no background merges or mutations */
    int running_merges;
    /* ALTER: compiled defaults per stored column (NULL: type default or not compilable,
       default_ok says which) and the table's mutations (mutate.c) */
    expr **defaults;
    bool *default_ok;
    struct mt_mutation *mutations; /* sorted by version */
    int nmutations;
    pthread_mutex_t mutate_lock; /* one mutation pass at a time (foreground or background) */
    /* The context the defaults and mutation expressions are compiled in: compiled calls
     * keep a pointer to its function environment (time zone …), so it lives as long as
     * the table, with its strings copied (mutate.c). */
    query_ctx *cq;
    char *cq_strs[3];
} mt_table;

/* ---- part files (part.c) ---- */
/* Parses "<partition>_<min>_<max>_<level>[_<mutation>]"; -1 if not a part name. */
int mt_parse_part_name(const char *name, char **partition_id, int64_t *min_block, int64_t *max_block,
                       uint32_t *level);
/* A part name as table m names its parts. */
typedef struct mt_name {
    char *prefix;                /* what precedes the block numbers: the partition ID, or for
                                    the old syntax "<min date>_<max date>" (YYYYMMDD) */
    char *partition_id;
    int64_t min_block, max_block;
    uint32_t level;
    int64_t mutation;            /* 0 = none */
    int32_t min_date, max_date;  /* old syntax: days since 1970-01-01 */
} mt_name;
/* -1 (no error set) when name is not one of m's part names; else 0, free with mt_name_free. */
int mt_name_parse(const mt_table *m, const char *name, mt_name *out);
void mt_name_free(mt_name *n);
/* 0 when name is one of m's part names, else BAD_DATA_PART_NAME as ClickHouse words it. */
int mt_check_part_name(const mt_table *m, const char *name);
/* The name prefix of an existing part (new memory). */
char *mt_part_prefix(const mt_table *m, const mt_part *p);
/* "YYYYMMDD_YYYYMMDD" (new memory). */
char *mt_date_prefix(int32_t min_date, int32_t max_date);
/* The mutation version of a part name (the fifth field), 0 when absent. */
int64_t mt_part_name_mutation(const char *name);
char *mt_part_name(const char *partition_id, int64_t min_block, int64_t max_block, uint32_t level);
/* With a mutation version (0 = none): all_1_1_0_5. */
char *mt_part_name_ex(const char *partition_id, int64_t min_block, int64_t max_block, uint32_t level,
                      int64_t mutation);
/* Loads a part directory's metadata (count, marks of the first column, primary index,
 * partition and minmax values, sizes). Checks that every file of every column exists. */
int mt_part_load(mt_table *m, const char *dir, const char *name, mt_part **out);
/* Verifies every file's size and checksum against checksums.txt (CHECK TABLE). */
int mt_part_check(mt_table *m, const mt_part *p);

/* checksums.txt */
typedef struct mt_checksums {
    int n, cap;
    char **names;
    mt_file_checksum *sums;
} mt_checksums;
void mt_checksums_add(mt_checksums *c, const char *name, const mt_file_checksum *s);
int mt_checksums_write(const mt_checksums *c, const char *dir);
int mt_checksums_read(const char *dir, mt_checksums *out);
void mt_checksums_free(mt_checksums *c);
/* Writes a small file (fsync'd) and records its checksum when c is not NULL. */
int mt_write_small_file(const char *dir, const char *name, const void *data, size_t n, mt_checksums *c);
int mt_read_small_file(const char *dir, const char *name, buf *out);

/* A formatted string in new memory (xmalloc'd). */
char *mt_sprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Reads a stream's marks (.mrk2, or .cmrk2 decompressed): 3 UInt64 per mark. */
int mt_read_marks(const char *dir, const char *stream, buf *out);

/* fsync of a directory (after creating or renaming entries in it). */
int mt_fsync_dir(const char *dir);
/* Removes a directory tree; errors are ignored (best effort). */
void mt_remove_tree(const char *path);

/* ---- writing parts (part_write.c) ---- */
typedef struct mt_part_writer mt_part_writer;
/* Starts a part in data_dir/<tmp_name>/; blocks passed to write() must be sorted and in
 * the table's stored-column layout. */
int mt_part_writer_open(mt_table *m, const char *tmp_name, mt_part_writer **out);
int mt_part_writer_write(mt_part_writer *w, const block *b);
/* Vertical merges write a part column by column. write_some() writes the rows of b in
 * granules of g rows to every column except those marked in `later` (whose columns in b
 * are placeholders), and takes the index and min/max from b; write_column() then appends
 * rows of one of the later columns, called with the same sequence of row counts and g so
 * that the marks line up. */
int mt_part_writer_write_some(mt_part_writer *w, const block *b, const uint8_t *later, size_t g);
int mt_part_writer_write_column(mt_part_writer *w, int c, const column *col, size_t g);
/* An INSERT writes each sorted part straight from its source blocks: the rows ids[0..n)
 * ((block << 32) | row of bs[block], in the part's order) are serialized granule by
 * granule without a gathered copy; the part's files are those write() of the gathered
 * rows would make. Only when mt_part_writer_can_pick(bs): every column fixed-width or
 * String, neither constant nor dictionary-coded. release: the last part of these blocks,
 * so each source column is freed (replaced by an empty one) as soon as it is written,
 * and its memory serves the blocks being read meanwhile. */
bool mt_part_writer_can_pick(block *const *bs, int nb);
int mt_part_writer_write_picked(mt_part_writer *w, block *const *bs, int nb, const uint64_t *ids, size_t n,
                                bool release);
/* Column c of the rows ids[0..n) (as above), gathered: any type when nb == 1, else
 * fixed-width and String columns. */
column *mt_gather_rows(block *const *bs, int nb, int c, const uint64_t *ids, size_t n);
/* Rows per granule for rows of about row_bytes: index_granularity, fewer for wide rows
 * (index_granularity_bytes). */
size_t mt_granule_rows(const mt_table *m, size_t row_bytes);
/* Finishes the part's files (fsync'd); the directory is still temporary. partition: one
 * row of partition key values (or NULL), minmax: computed by the writer. */
int mt_part_writer_finish(mt_part_writer *w, const block *partition);
void mt_part_writer_abort(mt_part_writer *w); /* removes the temporary directory */
void mt_part_writer_free(mt_part_writer *w);
uint64_t mt_part_writer_rows(const mt_part_writer *w);
/* Widens the part's min/max (of the partition key's columns) to cover b's rows too; b
 * needs only those columns. */
void mt_part_writer_widen_minmax(mt_part_writer *w, const block *b);
/* The name prefix of the part written (after finish): partition_id, or for the old syntax
 * the dates of its rows (new memory). */
char *mt_part_writer_prefix(const mt_part_writer *w, const char *partition_id);
const char *mt_part_writer_dir(const mt_part_writer *w);

/* Renames tmp dir into place as a part with this name and adds it to the active set,
 * replacing `replaced` (merges) — all under the table lock, after fsync. name_prefix:
 * the name before the block numbers (mt_name's prefix: the partition ID, or the dates). */
int mt_commit_part(mt_table *m, const char *tmp_dir, const char *name_prefix, int64_t min_block,
                   int64_t max_block, uint32_t level, mt_part **replaced, int nreplaced, mt_part **out);
/* The same with a mutation version in the name (merges of mutated parts, mutations). */
int mt_commit_part_ex(mt_table *m, const char *tmp_dir, const char *name_prefix, int64_t min_block,
                      int64_t max_block, uint32_t level, int64_t mutation, mt_part **replaced, int nreplaced,
                      mt_part **out);

/* ---- reading parts (part_read.c) ---- */
typedef struct mt_part_reader mt_part_reader;
/* Reads columns cols (indexes into t->sch) of part p, granules [g0, g1). */
int mt_part_reader_open(mt_table *m, mt_part *p, const int *cols, int ncols, size_t g0, size_t g1,
                        mt_part_reader **out);
/* Next block of up to max_rows rows (whole granules), NULL at the end. */
int mt_part_reader_next(mt_part_reader *r, size_t max_rows, block **out);
/* Requested columns i with coded[i] that are Strings come back dictionary-coded (column.h,
 * serial.h's mt_codes) while their values repeat enough; call before the first next(). */
void mt_part_reader_accept_codes(mt_part_reader *r, const bool *coded);
/* The bytes of the block next() returned last as its columns take decoded (col_bytes). */
size_t mt_part_reader_block_bytes(const mt_part_reader *r);
void mt_part_reader_close(mt_part_reader *r);

/* The source of a SELECT (read.c). */
int mt_read_source(mt_table *m, bool final, query_ctx *q, source **out);

/* ---- keys and sorting (keys.c) ---- */
int mt_key_compile(mt_table *m, const ast_list *exprs, mt_key *out, query_ctx *q);
void mt_key_free(mt_key *k);
/* Appends stored column col to the key (VersionedCollapsing's version). */
void mt_key_append_column(mt_table *m, mt_key *k, int col);
/* Evaluates the key over b: k->n columns (owned by the caller). */
int mt_key_eval(const mt_key *k, const block *b, column **out);
/* Stable permutation sorting b by the first n key columns (ascending, NULLs last). */
uint32_t *mt_sort_perm(column *const *keys, int n, size_t rows);
/* Rows spread over blocks: ids[i] = (block << 32) | row, keys[block] the key columns of
 * each block; returns the positions 0..rows-1 of ids in stable key order. */
uint32_t *mt_sort_multi(column **const *keys, int nblocks, int n, const uint64_t *ids, size_t rows);
/* ClickHouse's partition ID of a row of partition key values. */
char *mt_partition_id(const mt_key *k, column *const *vals, size_t row);

/* ---- merges (merge.c) ---- */
/* Merges parts (all of one partition, adjacent, sorted by min_block) into one part. */
int mt_merge_parts(mt_table *m, mt_part **parts, int n, bool final, query_ctx *q);
/* Picks parts to merge in a partition (ClickHouse's simple merge selector; aggressive, for
 * OPTIMIZE, takes any range whatever the parts' sizes and ages); returns how many (>= 2)
 * with the chosen parts marked `merging` and referenced, or 0. */
int mt_select_merge(mt_table *m, bool aggressive, mt_part ***out);
int mt_start_background(mt_table *m);
/* SYSTEM STOP / START MERGES: stopping cancels the running merges and waits for them. */
void mt_set_merges_stopped(mt_table *m, bool stop);
void mt_stop_background(mt_table *m);
/* Removes outdated parts older than old_parts_lifetime (or all with force). */
void mt_remove_outdated(mt_table *m, bool force);

/* Collapsing rows with equal sorting keys (Replacing/Summing/Aggregating/Collapsing/…) in
 * a sorted block; final: for a SELECT … FINAL (CollapsingMergeTree then shows no cancel
 * row). Takes b. Returns NULL with an error (a malformed aggregate state, a sign that is
 * not ±1). */
block *mt_collapse_sorted(mt_table *m, block *b, const uint32_t *perm, bool final);

/* The row rules of the collapsing engines over one group of equal keys (collapsing.c):
 * rows[0..n) in merge order; the kept rows are written to keep (room for n), their count
 * returned. mt_collapsing_group fails (-1, INCORRECT_DATA) on a sign other than ±1. */
long mt_collapsing_group(const column *sign, const uint32_t *rows, size_t n, bool only_positive, uint32_t *keep);
size_t mt_versioned_group(const column *sign, const uint32_t *rows, size_t n, uint32_t *keep);
/* Coalescing: the row holding column c's last non-NULL value in the group. */
uint32_t mt_coalesce_pick(const column *c, const uint32_t *rows, size_t n);
/* AggregatingMergeTree (aggregating.c): o holds the first row of each group of b (the
 * rows order[bounds[g] .. bounds[g+1])); its AggregateFunction / SimpleAggregateFunction
 * columns are replaced by the groups' merged states / values. */
int mt_aggregate_groups(const block *b, const uint32_t *order, const size_t *bounds, size_t ng, block *o);

/* system.part_log events (log.c): 1 NewPart, 2 MergeParts, 4 RemovePart. */
enum { PART_LOG_NEW = 1, PART_LOG_MERGE = 2, PART_LOG_REMOVE = 4 };
/* merge_algorithm: ClickHouse's MergeAlgorithm values */
enum { MERGE_UNDECIDED = 0, MERGE_VERTICAL = 1, MERGE_HORIZONTAL = 2 };
void mt_log_event(mt_table *m, int type, const char *part_name, const char *partition_id, uint64_t rows,
                  uint64_t bytes, double duration_s, mt_part *const *from, int nfrom, uint64_t read_rows,
                  int error, const char *exception, int merge_algorithm);
/* Sets m->part_log to path, first setting aside a log written with an older layout. */
void mt_part_log_open(mt_table *m, const char *path);

/* Resumable loads (resume.c): removes the parts of a load a crash interrupted. */
void mt_resume_recover(mt_table *m);

/* INSERT (insert.c). */
int mt_insert(table *t, query_ctx *q, table_sink **out);
void mt_dedup_load(mt_table *m);
/* The partition ID of a partition value written in SQL ("2024", "('a', 3)"). */
int mt_partition_id_from_text(mt_table *m, const char *text, query_ctx *q, char **out);
/* ALTER TABLE … DETACH/DROP PART 'name', … PARTITION (detach.c). */
int mt_detach_part(mt_table *m, const char *name, bool drop);
int mt_detach_partition(mt_table *m, const char *partition_id, bool drop);


/* ---- mutations and ALTER (mutate.c) ---- */
/* The version of the data in a part: its mutation version, else its first block. */
static inline int64_t mt_part_version(const mt_part *p) { return p->mutation ? p->mutation : p->min_block; }
/* Loads the table's mutation_<N>.txt files (at open, before the parts). */
int mt_mutations_load(mt_table *m, query_ctx *q);
void mt_mutations_free(mt_table *m);
/* Renames the columns of psch (a part at data version v) as the mutations newer than v
 * renamed them, so the part's columns line up with the table's. */
void mt_mutations_rename(mt_table *m, int64_t v, schema *psch);
/* The lowest version of an unfinished mutation that a part at version v still needs
 * (INT64_MAX when none): merges leave such parts to the mutation. */
int64_t mt_mutation_needed(mt_table *m, const mt_part *p);
/* Background: mutates one part that needs it; returns 1 if it did some work. */
int mt_mutate_step(mt_table *m, query_ctx *q);
/* Compiles the DEFAULT / MATERIALIZED expressions of the stored columns (read as the
 * value of a column a part predates). */
void mt_compile_defaults(mt_table *m, query_ctx *q);

/* Current active parts, referenced (snapshot), sorted by (partition, min_block). */
int mt_snapshot(mt_table *m, mt_part ***out); /* returns the count; the array is NULL-terminated */
void mt_snapshot_free(mt_part **parts, int n);

/* The system tables over every MergeTree table (system.parts, system.merges,
 * system.mutations) share one walk: a block with the given columns, filled by rows() for
 * each MergeTree table while the table's lock is held (rows() must not take it or block).
 * On success *out is a source owning the block; -1 with the error set otherwise. */
typedef void (*mt_system_rows_fn)(const table *t, mt_table *m, block *b);
int mt_system_table(query_ctx *q, const char *const *names, const type *const *types, int nc, mt_system_rows_fn rows,
                    source **out);

#endif
