/* ARRAY JOIN: row multiplication by arrays, ClickHouse's ArrayJoinStep.
 *
 * A plan is a sequence of steps, applied in order to every source block after the scan
 * and before WHERE (exec/select.c's worker stage). A step zips one or more arrays of equal
 * length per row (`ARRAY JOIN a AS x, b AS y`): each input row becomes one row per element,
 * its columns repeated, and the step appends one column per array holding the elements.
 * Several steps give the cross product (`ARRAY JOIN a ARRAY JOIN b`, or two different
 * arrayJoin() calls). A LEFT step keeps a row whose arrays are empty, with the element
 * columns at their type's default (NULL for Nullable).
 *
 * Block layout: the input block's columns, then step 1's element columns, then step 2's…;
 * a step's array expressions read the block as the steps before it left it.
 *
 * Ownership: the plan owns its expressions (array_join_plan_free). array_join_apply takes
 * the block and replaces it. Thread-safety: a plan is read-only while queries run, shared by
 * the worker threads. Errors: -1 with err_set — SIZES_OF_ARRAYS_DONT_MATCH when zipped
 * arrays differ in length in some row, or an expression's own error. */
#ifndef SHALE_EXEC_ARRAY_JOIN_H
#define SHALE_EXEC_ARRAY_JOIN_H

#include "exec/expr.h"

typedef struct array_join_step {
    int narrays;
    expr **arrays;   /* each of an Array type */
    bool left;       /* LEFT ARRAY JOIN */
} array_join_step;

typedef struct array_join_plan {
    int nsteps;
    array_join_step *steps;
    /* Columns of the joined block that something reads (1 per column, input columns then
     * elements), or NULL for all: the others are not repeated per element but become a
     * constant placeholder (`FROM t ARRAY JOIN splitByChar(',', s) AS x` never copies s). */
    uint8_t *needed;
    int nneeded;
} array_join_plan;

/* Adds a step of n arrays (takes the expressions); returns the step's index. */
int array_join_add_step(array_join_plan *aj, expr **arrays, int n, bool left);
/* Applies every step to *b (taken; replaced by the multiplied block, maybe of 0 rows). */
int array_join_apply(const array_join_plan *aj, block **b);
void array_join_plan_free(array_join_plan *aj);

#endif
