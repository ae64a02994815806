/* The executable form of one SELECT, and its runner.
 *
 * Data flow (see ARCHITECTURE.md):
 *   workers (max_threads): take a read task from the source → blocks of the needed
 *     columns → WHERE filter → either
 *       aggregation: key and argument expressions → thread-local hash table of states, or
 *       projection: output + ORDER BY expressions → thread-local list / ordered stream
 *   main thread: merge thread-local states → HAVING → projection → DISTINCT →
 *     ORDER BY (sort or top-n) → LIMIT BY → OFFSET/LIMIT → the sink.
 * A query with neither aggregation, ORDER BY nor DISTINCT streams: blocks reach the sink
 * in source order while workers run ahead within a memory bound.
 *
 * Expressions of the "pre" stage index the source block (columns in plan->src_cols
 * order); "post" expressions index the post block: [keys..., aggregates...] when
 * aggregating, else the pre-stage block. */
#ifndef SHALE_EXEC_SELECT_H
#define SHALE_EXEC_SELECT_H

#include "exec/array_join.h"
#include "exec/expr.h"
#include "exec/fill.h"
#include "exec/query.h"
#include "func/agg.h"
#include "exec/source.h"
#include "exec/window.h"

typedef struct select_plan {
    source *src;                 /* owned */
    int nsrc_cols;
    int *src_cols;               /* columns read from the source */
    array_join_plan *array_join; /* ARRAY JOIN / arrayJoin(), or NULL: applied to source
                                  * blocks before WHERE; the pre stage then sees the
                                  * source columns followed by the joined elements */
    bool where_before_array_join;/* the WHERE reads no joined element: it filters the
                                  * source block first (fewer rows to multiply) */
    expr *where;                 /* pre stage, may be NULL */

    bool aggregate;
    int nkeys;
    expr **keys;                 /* pre stage */
    int naggs;
    agg_call **aggs;
    int *agg_nargs;
    expr ***agg_args;            /* pre stage */
    size_t *agg_offsets;         /* offsets of each state in a group's state row */
    size_t state_size;
    size_t state_align;

    /* GROUP BY ROLLUP / CUBE / GROUPING SETS (exec/grouping_sets.h): the groups are
     * aggregated by every key, then re-aggregated once per set. nsets = 0: a plain GROUP
     * BY. The post block is then [keys..., aggregates..., grouping(…) columns...]. */
    int nsets;
    uint64_t *set_masks;         /* bit k: key k is in the set */
    bool sets_empty_row;         /* GROUPING SETS with (): its row exists with no input */
    uint64_t sets_const_mask;    /* constant keys: in every set, never NULL */
    const type **key_post_types; /* key types in the post block (group_by_use_nulls: the
                                  * Nullable ones, NULL outside a row's set); NULL: keys' */
    int ngrouping;               /* grouping(…) calls */
    int *grouping_nargs;
    int **grouping_args;         /* key indexes of each call's arguments */

    expr *having;                /* post stage */
    int nout;
    expr **out;                  /* post stage */
    schema *out_schema;          /* names and types of the result */
    int norder;
    expr **order;                /* post stage */
    bool *order_desc;
    int *order_nulls;            /* nan/null direction: 1 = last, -1 = first */
    bool distinct;
    fill_plan *fill;             /* ORDER BY … WITH FILL (exec/fill.h), or NULL */
    uint64_t limit;              /* UINT64_MAX = none */
    uint64_t offset;
    int nlimit_by;
    expr **limit_by;             /* post stage */
    uint64_t limit_by_limit;
    uint64_t limit_by_offset;
    bool with_totals;            /* WITH TOTALS: one more row aggregating every group (or,
                                  * unless totals_before_having, those HAVING keeps) */
    bool totals_before_having;   /* totals_mode = 'before_having' */
    bool count_only;             /* SELECT count() FROM src with no WHERE: use count_rows */
    uint64_t count_known;        /* SELECT count() … WHERE: rows the source counted without
                                  * reading (take_matching), added to the count */
    /* Window functions (exec/window.h): computed over the post block after HAVING; their
     * results are columns win_base + i of the block the output and ORDER BY expressions
     * read. Without aggregation the workers then collect source blocks unprojected. */
    window_plan *windows;        /* NULL when the query has none */
} select_plan;

void select_plan_free(select_plan *p);

/* Receives result blocks; returns -1 to stop the query with an error. */
typedef struct block_sink {
    int (*write)(struct block_sink *s, block *b); /* takes b */
    void *ctx;
    /* Optional: the WITH TOTALS row (one row of the result's columns), after the last
     * write; takes b. A sink without it drops totals, as a subquery does. */
    int (*totals)(struct block_sink *s, block *b);
    /* Optional: the extremes (extremes = 1; two rows, minimums then maximums), after the
     * totals; takes b. A front end's sink without it cannot show them (NOT_IMPLEMENTED). */
    int (*extremes)(struct block_sink *s, block *b);
} block_sink;

int select_run(select_plan *p, query_ctx *q, block_sink *sink);

#endif
