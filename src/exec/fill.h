/* ORDER BY … WITH FILL [FROM x] [TO y] [STEP z] [INTERPOLATE (col AS expr, …)]: a step
 * after the sort that inserts the missing rows, as ClickHouse's FillingTransform does.
 *
 * The sorted rows are split by the sorting prefix (the ORDER BY keys before the first
 * WITH FILL key: use_with_fill_by_sorting_prefix, ClickHouse's default); each group is
 * filled on its own. A "filling row" holds one value per fill key; it starts at FROM (or
 * the group's first value), steps towards each real row (the first fill key whose value
 * differs from the real row's is the one that steps; the keys after it restart at their
 * FROM) and, after the group's last row, towards TO (exclusive). Generated rows carry the
 * filling values in the fill columns, the group's values in the prefix columns, the
 * INTERPOLATE expressions over the previous row, and defaults elsewhere.
 *
 * Values are compared in the key's direction; STEP is applied by a compiled expression
 * (value + STEP cast to the key's type: numbers, dates, date-times, INTERVALs).
 *
 * Ownership: the plan stays the caller's (select_plan's); it outlives the step. Errors: -1 with err_set (a STEP expression
 * failing, a step that does not move the value). Thread-safety: one chain, one thread. */
#ifndef SHALE_EXEC_FILL_H
#define SHALE_EXEC_FILL_H

#include "exec/step.h"

typedef enum fill_src { FILL_DEFAULT, FILL_VALUE, FILL_PREFIX, FILL_INTERP } fill_src;

typedef struct fill_key {
    int col;        /* its column in the chain block */
    int dir;        /* 1 ascending, -1 descending */
    const type *t;  /* the value's type (the column's without Nullable) */
    column *from;   /* one-row values of type t, or NULL */
    column *to;
    expr *step;     /* over a block of one column of type t: the next value, of type t */
} fill_key;

typedef struct fill_plan {
    int ncols;            /* columns of the chain block */
    const type **types;   /* their types */
    int nkeys;
    fill_key *keys;
    int nprefix;
    int *prefix;          /* chain columns of the sorting prefix */
    fill_src *src;        /* per chain column: where a generated row's value comes from */
    int *src_arg;         /* FILL_VALUE: the key; FILL_PREFIX: the column to copy */
    expr **interp;        /* per chain column, FILL_INTERP: over the previous row's block */
} fill_plan;

void fill_plan_free(fill_plan *p);
step *step_fill_new(const fill_plan *p);

#endif
