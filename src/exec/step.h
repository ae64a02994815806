/* Steps: the stages of a SELECT after its workers, as one chain of small modules with one
 * interface (ARCHITECTURE.md, "The shape of a query plan").
 *
 * A step receives blocks (push), is told its input ended (finish) and pushes its own
 * blocks to the next step; finish flushes what the step holds and then finishes the next
 * step. A step that needs its whole input (sort, window) holds blocks until finish; the
 * others work block by block. The last step of a chain writes to a block_sink.
 *
 * The chain of a SELECT (select.c builds it from the plan):
 *   [filter: HAVING] → [window] → [project: output + ORDER BY columns] → [distinct] →
 *   [sort / top-n] → [limit by] → [offset / limit] → sink
 * Blocks between project and sink are [outputs..., ORDER BY keys...]; the sink step drops
 * the helper columns.
 *
 * Ownership: push takes the block. step_chain_free frees a step and every step after it.
 * Errors: push and finish return -1 with err_set; STEP_ENOUGH (1) from push means no more
 * input is wanted (a LIMIT is satisfied): the caller stops pushing and finishes the chain.
 * Thread-safety: a chain runs on one thread (a step may use threads inside). */
#ifndef SHALE_EXEC_STEP_H
#define SHALE_EXEC_STEP_H

#include "base/mem.h"
#include "column/block.h"
#include "exec/expr.h"

#include <stdbool.h>
#include <stdint.h>

#define STEP_ENOUGH 1

typedef struct step step;

typedef struct step_ops {
    const char *name;
    int (*push)(step *s, block *b);
    int (*finish)(step *s);
    void (*destroy)(step *s); /* frees the step's own state, not next */
} step_ops;

struct step {
    const step_ops *ops;
    step *next;
};

int step_push(step *s, block *b);
int step_finish(step *s);
void step_chain_free(step *s);
/* Links a chain: steps[i]->next = steps[i + 1] for the non-NULL entries, in order; returns
 * the first one. */
step *step_chain(step **steps, int n);

/* Keeps the rows for which mask (evaluated over the block; owned by the caller) is true. */
step *step_filter_new(const expr *mask);
/* Replaces each block by the values of exprs over it (the array is copied; the
 * expressions stay the caller's). */
step *step_project_new(expr *const *exprs, int n);
/* Keeps the first occurrence of each distinct value of the first nkey columns; fails with
 * SET_SIZE_LIMIT_EXCEEDED past max_rows distinct rows or max_bytes of its set (0: no
 * limit). */
step *step_distinct_new(int nkey, uint64_t max_rows, uint64_t max_bytes);
/* Sorts by the columns [first, first + nkeys) (desc / nulls per key, as select_plan's
 * order_desc / order_nulls) and keeps the first `want` rows (SIZE_MAX: all). Each block is
 * sorted on its own and the blocks are merged into blocks of at most 65409 rows, so memory
 * stays at the input plus a row number per row (external_sort.c implements it: the
 * external sort that never spills). */
step *step_sort_new(int first, int nkeys, const bool *desc, const int *nulls, size_t want);
/* LIMIT n OFFSET m BY keys: keys are evaluated over each block. */
step *step_limit_by_new(expr *const *keys, int nkeys, uint64_t limit, uint64_t offset);
/* OFFSET / LIMIT (limit UINT64_MAX: none); push answers STEP_ENOUGH once the limit is reached. */
step *step_limit_new(uint64_t offset, uint64_t limit);

struct block_sink;
/* Writes the first ncols columns of each non-empty block to sink, in blocks of at most
 * chunk rows (SIZE_MAX: as received). With mem (may be NULL), every block and the finish
 * first check the query's memory limit (MEMORY_LIMIT_EXCEEDED). */
step *step_sink_new(struct block_sink *sink, int ncols, size_t chunk, mem_tracker *mem);

/* Sorts b (taken) by its columns [first, first + nkeys) — stable: ties keep input order —
 * and returns its first `want` rows. Also used by workers to keep their top rows. */
block *sort_rows(block *b, int first, int nkeys, const bool *desc, const int *nulls, size_t want);
/* The order of b's rows by those columns (stable), as a new array of b->rows row numbers
 * (free()); b's key columns are materialised in place. */
uint32_t *sort_perm(block *b, int first, int nkeys, const bool *desc, const int *nulls);
/* The earlier column (< c) that column c of each of the n blocks is the same column as (a
 * projection shares a column that is both an output and an ORDER BY key), or -1. */
int block_twin_column(block *const *bs, size_t n, int c);
/* Concatenates blocks (not taken); with n == 0, an empty block of types' types. Columns
 * shared in every block (block_twin_column) stay shared in the result. */
block *concat_blocks(block **bs, int n, int ncols, const type *const *types);

#endif
