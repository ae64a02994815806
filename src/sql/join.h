/* join: the pieces of a hash join, shared by the in-memory join (join.c) and the grace
 * hash join (join_grace.c), which runs the same pieces bucket by bucket.
 *
 * A join_spec is what the JOIN clause asks (kind, strictness, keys compiled against each
 * side's schema, the common key types, USING columns, residual ON terms) and the layout
 * of the result (left's columns, then right's without USING keys). A join_table is the
 * right side of one bucket (or of the whole join) in a hash table; probing it with left
 * rows gives pairs of row numbers (NO_ROW: no partner), which join_gather turns into a
 * result block of the layout's types.
 *
 * Ownership: a join_spec owns its expressions and layout; a join_table refers to the
 * right block it was built from (the caller keeps it alive). Thread-safety: a join_spec is
 * read-only after join_spec_init and may be shared by threads; a join_table belongs to one
 * thread. Errors: -1 with err_set. */
#ifndef SHALE_SQL_JOIN_H
#define SHALE_SQL_JOIN_H

#include "exec/agg_hash.h"
#include "exec/expr.h"
#include "exec/source.h"
#include "parse/ast.h"

#include <stdint.h>

#define JOIN_MAX_KEYS 64
#define NO_ROW UINT32_MAX

typedef struct rowvec {
    uint32_t *v;
    size_t n, cap;
} rowvec;

typedef struct join_spec {
    bool is_left, is_right, is_full, is_cross, any, semi, anti, null_left, null_right;
    bool take_last; /* join_any_take_last_row: ANY LEFT/INNER and SEMI pick a key's last right row */
    int nkeys, nusing, nresidual;
    expr *lk[JOIN_MAX_KEYS], *rk[JOIN_MAX_KEYS];
    const type *common[JOIN_MAX_KEYS];
    int using_right[JOIN_MAX_KEYS];  /* right columns that are USING keys */
    int using_left[JOIN_MAX_KEYS];   /* the left column of each (-1: none) */
    const ast *residual[JOIN_MAX_KEYS]; /* borrowed from the AST, which outlives the join */
    expr *residual_ex[JOIN_MAX_KEYS];   /* compiled over the layout (join_compile_residual) */
    schema *lsch, *rsch;             /* copies of both sides' schemas */
    /* the result's layout: schema, qualifiers and bare names (source.h) */
    schema *out;
    char **qual, **qual2, **bare;
} join_spec;

typedef struct join_table {
    const block *R;
    column *rkeys[JOIN_MAX_KEYS];
    agg_table ht;
    uint32_t *next;     /* rows of equal keys chained in insertion order */
    uint8_t *matched;   /* right rows that found a partner (RIGHT/FULL) */
} join_table;

/* What the right rows of b cost in a join_table: their bytes and per row a hash table
 * slot, the serialized key and the chains (JOIN_TABLE_ROW_BYTES, measured). */
#define JOIN_TABLE_ROW_BYTES 96
static inline uint64_t join_cost(const block *b) { return block_bytes(b) + b->rows * JOIN_TABLE_ROW_BYTES; }

/* Reads the JOIN clause j between left and right; a CROSS (or comma) join takes the
 * equalities of where (the query's WHERE, or NULL) between the two sides as its keys. */
int join_spec_init(join_spec *s, const source *left, const source *right, const ast *j, const ast *where, query_ctx *q);
void join_spec_free(join_spec *s);
/* A source with the result's layout (schema, qualifiers) over blocks (taken). */
source *join_layout_source(const join_spec *s, block **blocks, int n);
/* Copies the layout's qualifiers and bare names to src (whose schema is a copy of s->out). */
void join_layout_names(const join_spec *s, source *src);

/* Evaluates the key expressions over b (left or right side) as the common types. */
int join_eval_keys(const join_spec *s, bool right, const block *b, const char *zone, column **out);
/* The hash of row `row`'s key (NULL keys: 0) — the same for equal keys of both sides.
 * key is scratch. */
uint64_t join_key_hash(column *const *keys, int nkeys, size_t row, buf *key);

int join_table_build(const join_spec *s, const block *R, query_ctx *q, join_table *t);
/* Appends the pairs of L's rows with t's rows. */
int join_table_probe(const join_spec *s, join_table *t, const block *L, query_ctx *q, rowvec *li, rowvec *ri);
/* Appends (NO_ROW, r) for the right rows no probe matched (RIGHT and FULL joins). */
void join_table_unmatched(const join_spec *s, const join_table *t, rowvec *li, rowvec *ri);
void join_table_free(join_table *t);

/* The result rows (li[i], ri[i]) of L and R; takes nothing, rewrites NO_ROW entries. */
block *join_gather(const join_spec *s, const block *L, const block *R, rowvec *li, rowvec *ri);
/* Keeps the rows of b with keep[row] set (kept of them). */
void join_keep_rows(block *b, const uint8_t *keep, size_t kept);
/* Compiles the residual ON terms over layout (a source with the result's layout). */
int join_compile_residual(join_spec *s, const source *layout, query_ctx *q);
/* Keeps the rows of b (of the result's layout) where every residual ON term holds. */
int join_filter_residual(const join_spec *s, block *b);

/* The grace hash join (join_grace.c): both sides partitioned by key hash into buckets in
 * temporary files now; the result is a source whose task b joins bucket b in memory.
 * Takes s (moved out: *s is left empty); r (NULL: read right from its start; else where the
 * in-memory join's read of the right side paused at max_bytes_before_external_join) is used up
 * (its block freed, its iterator closed). */
int join_grace(join_spec *s, source *left, source *right, source_pause *r, query_ctx *q, source **out);

#endif
