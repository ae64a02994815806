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
#include "base/buf.h"
#include "column/column.h"

#include <stdbool.h>
#include <stdint.h>

struct agg_call;

/* A bounded reader over one serialized state (see func/agg_state.h). */
typedef struct agg_rd {
    const uint8_t *p, *end;
    size_t short_by;  /* set on CANNOT_READ_ALL_DATA: how many more bytes were needed */
} agg_rd;

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
    /* Like add_all / add_rows, but only rows with mask[i] != 0 are added. Used by -If and
     * the Nullable wrapper so that no argument column is ever filtered or copied. */
    void (*add_all_mask)(const struct agg_call *a, void *state, column *const *args, size_t rows,
                         const uint8_t *mask);
    void (*add_rows_mask)(const struct agg_call *a, char *const *states, size_t offset, column *const *args,
                          size_t rows, const uint8_t *mask);
    /* ClickHouse's binary serialization of the state (AggregateFunction columns, -State).
     * NULL when this function's state cannot be written in ClickHouse's format yet: then
     * -State and AggregateFunction(f, ...) are NOT_IMPLEMENTED. */
    void (*serialize)(const struct agg_call *a, const void *state, buf *out);
    /* Reads one serialized state into an initialised state; -1 with CANNOT_READ_ALL_DATA or
     * INCORRECT_DATA on truncated or malformed input (the state stays destroyable). */
    int (*deserialize)(const struct agg_call *a, void *state, agg_rd *in);
    /* Spilling (external GROUP BY) of a state that owns memory; NULL for plain states and
     * for states that cannot be spilled yet (agg_state_spill_check). spill_write appends
     * the state's contents to out (the state is unchanged); spill_read rebuilds a state
     * (uninitialised memory) from them, advancing *p. The bytes are this process's own. */
    void (*spill_write)(const struct agg_call *a, const void *state, buf *out);
    void (*spill_read)(const struct agg_call *a, void *state, const char **p);
} agg_ops;

/* agg_def flags. */
enum {
    AGG_CASE_INSENSITIVE = 1 << 0, /* same bit as FN_CASE_INSENSITIVE: SUM(), Count() */
    AGG_NULLS_KEEP_TYPE = 1 << 1,  /* Nullable arguments: NULL rows are skipped but the result
                                      stays non-Nullable (count, uniq*, groupArray) */
    AGG_NULL_NO_FLAG = 1 << 2,     /* with Nullable arguments the serialized state has no
                                      leading "seen" byte (count, groupArray), as ClickHouse */
    AGG_NULL_LITERAL_NULL = 1 << 3, /* with AGG_NULLS_KEEP_TYPE: a NULL literal argument still
                                      gives NULL (ClickHouse's AggregateFunctionNothing), as
                                      for groupArray(NULL), topK(NULL); count(NULL) stays 0 */
};

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
    const struct agg_call *nested; /* for combinators and the Nullable wrapper; owned */
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
void agg_register_alias_ci(const char *alias, const char *name); /* matched in any letter case */
const agg_def *agg_lookup(const char *name);
/* True if name (possibly with combinator suffixes) names an aggregate function. */
bool agg_exists(const char *name);
int agg_count(void);
const agg_def *agg_at(int i);
/* Alias i (for system.functions): returns the alias, sets the aggregate it names. */
int agg_alias_count(void);
const char *agg_alias_at(int i, const char **name, bool *case_insensitive);

/* Registers every built-in family; idempotent and thread-safe. The lookup functions call
 * it themselves. */
void agg_registry_init(void);

/* Resolves name(params)(args). Combinator suffixes are parsed from the end of the name and
 * may stack (sumIfOrNull = OrNull(If(sum))); count + Distinct means uniqExact. Argument
 * types may be Nullable / LowCardinality: the Nullable wrapper is applied outermost and
 * the chain below sees the stripped types. On success *out is owned by the caller
 * (agg_call_free). Errors: ERR_UNKNOWN_AGGREGATE_FUNCTION, ERR_ILLEGAL_TYPE_OF_ARGUMENT,
 * ERR_NUMBER_OF_ARGUMENTS_DOESNT_MATCH, PARAMETER_OUT_OF_BOUND (12), with ClickHouse's
 * messages. */
int agg_resolve(const char *name, int nargs, const type *const *arg_types, int nparams, const double *params,
                agg_call **out);
void agg_call_free(agg_call *a);

/* Convenience for callers that hold one state: allocates (mem_alloc, aligned) and inits. */
void *agg_state_new(const agg_call *a);
/* Destroys and frees a state from agg_state_new. */
void agg_state_free(const agg_call *a, void *state);

/* Spilling states to temporary files (external GROUP BY; func/agg/spill_state.c).
 * A plain state (no pointer to memory it owns: count, sum, avg, min/max of numbers,
 * variance…) is copied as its state_size bytes; a state that owns memory is written by its
 * family's spill_write (any/min/max/argMin/argMax of any type, groupArray, uniqExact,
 * quantile*); the -If, -OrNull, -OrDefault and Nullable wrappers add their own bytes.
 * agg_state_spill_check: 0, or -1 with NOT_IMPLEMENTED naming the aggregate whose state
 * cannot be spilled yet (-Distinct, uniq, groupUniqArray, topK…). write leaves the state
 * as it was (the caller destroys it); read fills uninitialised state memory, which the
 * caller then owns (merge or destroy). */
int agg_state_spill_check(const agg_call *a);
void agg_state_spill_write(const agg_call *a, const void *state, buf *out);
void agg_state_spill_read(const agg_call *a, void *state, const char **p);

/* Built-in families. */
void agg_register_basic(void);     /* count sum avg min max any anyLast argMin argMax groupArray */
void agg_register_uniq(void);      /* uniq uniqExact count(DISTINCT) */
void agg_register_quantile(void);  /* quantile quantileExact median medianExact quantiles */

#endif
