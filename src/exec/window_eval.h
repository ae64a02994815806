/* window_eval: computing window functions over rows of one partition, shared by the
 * in-memory window step (window.c: the whole partition at once) and the bounded one
 * (window_stream.c: rows as they become computable, older rows released).
 *
 * Rows are numbered within the partition's sorted order ("absolute" numbers); the columns
 * handed in (arguments, the RANGE key, peer arrays) hold the rows from `base` on, so row i
 * is at index i - base. Memory: nothing here keeps the columns; win_run owns an aggregate
 * state (win_run_free). Errors: -1 with err_set (BAD_ARGUMENTS for bad offsets read from a
 * column, or the aggregate's own errors). Thread-safety: none shared; one thread per call. */
#ifndef SHALE_EXEC_WINDOW_EVAL_H
#define SHALE_EXEC_WINDOW_EVAL_H

#include "exec/window.h"

typedef struct part_ctx {
    const win_spec *sp;
    size_t base;              /* the row at index 0 of the columns below */
    size_t ps, pe;            /* the partition's rows (pe: the rows known so far when unfinished) */
    const size_t *peer_start; /* per row from base: the first row of its peer group */
    const size_t *peer_end;   /* per row from base: one past the last row of its peer group */
    const column *range_col;  /* RANGE with offsets: the ORDER BY key */
} part_ctx;

/* What a function carries from one call to the next within a partition. */
typedef struct win_run {
    void *state;              /* an aggregate whose frame starts at UNBOUNDED PRECEDING */
    size_t added;             /* rows [ps, added) are in state */
    uint64_t dense;           /* dense_rank: peer groups so far */
} win_run;

/* Appends f's values for rows [from, to) (absolute; every row their frames reach and
 * their peer groups are in the columns) to out. */
int win_func_rows(const part_ctx *pc, const win_func *f, column *const *args, win_run *run, size_t from, size_t to,
                  column *out);
void win_run_free(const win_func *f, win_run *run);

/* Evaluates ex[0..n) over b into out (materialised; freed again on an error). */
int win_eval_cols(expr *const *ex, int n, const block *b, column **out);
/* f's arguments over b (lag / lead defaults cast to the result type). */
int win_eval_args(const win_func *f, const block *b, column **args);
/* Whether the frame of sp is RANGE with an offset bound (it then reads range_col). */
bool win_range_offsets(const win_spec *sp);

#endif
