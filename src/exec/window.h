/* Window functions: their plan (built by the analyzer) and the window step (step.h).
 *
 * f(…) OVER (PARTITION BY … ORDER BY … frame): the step holds its whole input (the post
 * block of the SELECT: after GROUP BY and HAVING), then per window sorts the rows by
 * (partition keys ASC, order keys as written) — stably: peers keep their input order —,
 * walks partitions and peer groups and computes each function of that window into a new
 * column. The block it pushes on is its input in the order of the last window, with one
 * more column per function (column base + i for function i).
 *
 * Frames follow ClickHouse: without a frame, RANGE BETWEEN UNBOUNDED PRECEDING AND
 * CURRENT ROW when there is an ORDER BY, else the whole partition (the analyzer writes the
 * default into the spec). ROWS frames take row offsets; RANGE frames with offsets take one
 * numeric, non-Nullable ORDER BY key. GROUPS frames are NOT_IMPLEMENTED (as in ClickHouse).
 *
 * Aggregates over a frame reuse the aggregate functions (func/agg.h): a frame whose start
 * is UNBOUNDED PRECEDING grows one state row by row (finalize does not consume a state);
 * other frames compute a fresh state per distinct frame.
 *
 * Partitions: with max_threads > 1 (and 64 Ki rows or more) each function's partitions are
 * split into contiguous runs of about equal rows computed on separate threads; the sort
 * before is one thread.
 *
 * Bounded: when the query may spill its sorts (max_bytes_before_external_sort or its ratio
 * gives a threshold) or has a memory limit, each window runs as three steps instead, as
 * ClickHouse's sort + WindowTransform: its keys are appended as columns, the rows are
 * sorted by them (the external sort past the threshold), and a step over the sorted rows
 * (window_stream.c) holds only the current partition's rows from the first one a frame not
 * computed yet can reach: rows are computed as soon as their frames are complete and
 * pushed on, older rows released. An aggregate whose frame starts at UNBOUNDED PRECEDING
 * keeps its growing state, not its rows; lag / lead (offsets from a column), a frame
 * reaching the partition's end, RANGE offsets, percent_rank / cume_dist / ntile hold the
 * partition (past max_memory_usage: MEMORY_LIMIT_EXCEEDED). One thread; the output order
 * is the in-memory step's.
 *
 * Memory: the step owns the blocks it holds; allocations go to the query's memory tracker
 * like every other allocation of the thread. Errors: BAD_ARGUMENTS for bad offsets found
 * while running (lag offsets read from a column). Thread-safety: one thread per step. */
#ifndef SHALE_EXEC_WINDOW_H
#define SHALE_EXEC_WINDOW_H

#include "exec/expr.h"
#include "exec/query.h"
#include "exec/step.h"
#include "func/agg.h"

typedef enum win_kind {
    WK_AGG,            /* an aggregate function over the frame */
    WK_ROW_NUMBER,
    WK_RANK,
    WK_DENSE_RANK,
    WK_PERCENT_RANK,
    WK_CUME_DIST,
    WK_NTILE,
    WK_LAG,            /* lag / lead: within the partition, whatever the frame */
    WK_LEAD,
    WK_LAG_IN_FRAME,   /* lagInFrame / leadInFrame: within the frame */
    WK_LEAD_IN_FRAME,
    WK_NTH_VALUE,
} win_kind;

typedef struct win_spec {
    int npart;
    expr **part;
    int norder;
    expr **order;
    bool *order_desc;
    int *order_nulls;          /* as select_plan.order_nulls */
    int frame_kind;            /* WF_ROWS or WF_RANGE (parse/ast.h) */
    int start, end;            /* window_bound */
    int64_t start_off, end_off;
    bool frame_default;        /* no frame written (ntile accepts only this or a whole-partition one) */
} win_spec;

typedef struct win_func {
    win_kind kind;
    int spec;                  /* index into window_plan.specs */
    agg_call *agg;             /* WK_AGG, owned */
    int nargs;
    expr **args;               /* evaluated over the step's input block */
    const type *ret;
    int64_t n;                 /* ntile: buckets */
} win_func;

typedef struct window_plan {
    int nspecs;
    win_spec *specs;
    int nfuncs;
    win_func *funcs;
    int base;                  /* width of the input block: function i is column base + i */
} window_plan;

void window_plan_free(window_plan *w);

/* The window step of plan w (not owned; outlives the step). With q->max_threads > 1 the
 * partitions of a window are computed on several threads (each charging q's tracker). */
step *step_window_new(const window_plan *w, query_ctx *q);
/* The steps of plan w into out (room for 3 per window): the in-memory step, or the bounded
 * ones (above) when sorts may spill or memory is limited. Returns how many. */
int window_steps(const window_plan *w, query_ctx *q, step **out);
/* Whether q runs its windows with the bounded steps (their input then streams in). */
bool window_bounded(const query_ctx *q);

#endif
