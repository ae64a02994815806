/* Aggregate functions.
 *
 * An aggregate keeps a fixed-size state per group (state_size bytes, aligned to
 * state_align), allocated by the caller in an arena. Variable-size data (groupArray,
 * uniqExact, quantileExact) lives behind pointers in the state, allocated with mem_*
 * and released by destroy.
 *
 * Resolution (agg_resolve) checks arguments and parameters (quantile(0.9)(x)), applies
 * combinators written as suffixes (-If, -Distinct, -OrNull, -OrDefault) and the Nullable
 * rule (NULL argument rows are skipped; the result is Nullable and NULL when no row was
 * seen, except for count and uniq*, which stay non-Nullable).
 *
 * Kernels receive argument columns with the same number of rows; for -If the last
 * argument is the condition (UInt8). They may receive constant columns.
 * Thread-safety: a resolved agg_call is read-only and shared by workers; states are
 * per thread until merged. */
#ifndef SHALE_FUNC_AGG_H
#define SHALE_FUNC_AGG_H

#include "base/arena.h"
#include "column/column.h"

#include <stdbool.h>

struct agg_call;

typedef struct agg_ops {
    void (*init)(const struct agg_call *a, void *state);
    /* Adds rows [0, rows) of args to the single state (no GROUP BY). */
    void (*add_all)(const struct agg_call *a, void *state, column *const *args, size_t rows);
    /* Adds row i of args to states[i] + offset, for i in [0, rows) (GROUP BY). */
    void (*add_rows)(const struct agg_call *a, char *const *states, size_t offset, column *const *args, size_t rows);
    void (*merge)(const struct agg_call *a, void *dst, void *src); /* src is consumed */
    /* Appends the final value of state to out (a column of a->ret's type). */
    int (*finalize)(const struct agg_call *a, void *state, column *out);
    void (*destroy)(const struct agg_call *a, void *state); /* may be NULL */
} agg_ops;

typedef struct agg_call {
    const struct agg_def *def;
    const char *name;           /* as written */
    int nargs;
    const type **arg_types;
    int nparams;
    double *params;             /* numeric parameters, e.g. quantile level */
    const type *ret;
    size_t state_size;
    size_t state_align;
    agg_ops ops;
    void *data;                 /* resolver's data; freed with free() when not NULL */
    const struct agg_call *nested; /* for combinators and the Nullable wrapper */
} agg_call;

typedef struct agg_def {
    const char *name;
    int flags;                  /* FN_CASE_INSENSITIVE */
    /* Sets ret, state_size/align, ops; may set data. -1 with an error on bad arguments. */
    int (*resolve)(agg_call *a);
    const char *description;
} agg_def;

void agg_register(const agg_def *def);
void agg_register_alias(const char *alias, const char *name);
const agg_def *agg_lookup(const char *name);
/* True if name (possibly with combinator suffixes) names an aggregate function. */
bool agg_exists(const char *name);
int agg_count(void);
const agg_def *agg_at(int i);

int agg_resolve(const char *name, int nargs, const type *const *arg_types, int nparams, const double *params,
                agg_call **out);
void agg_call_free(agg_call *a);

/* Built-in families. */
void agg_register_basic(void);     /* count sum avg min max any anyLast argMin argMax */
void agg_register_uniq(void);      /* uniq uniqExact count(DISTINCT) */
void agg_register_quantile(void);  /* quantile quantileExact median groupArray */

#endif
