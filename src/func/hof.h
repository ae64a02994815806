/* Higher-order array functions: arrayMap(x -> expr, arr, …) and its family.
 *
 * A lambda is evaluated by the executor (exec/expr.c), not here: the executor flattens the
 * arrays' elements into one block (captured outer columns repeated per element), runs the
 * lambda's body over it once, and hands this module the "mapped" column, one value per
 * element of the first array. The kernels here then combine the arrays and the mapped
 * values: arrayFilter keeps the elements whose mapped value is true, arraySort orders them
 * by it, arraySum adds the mapped values up, and so on. Without a lambda (arrayCount(arr),
 * arrayCumSum(arr)) the mapped values are the first array's elements.
 *
 * Types follow ClickHouse: LowCardinality is stripped from elements and from the lambda's
 * result; functions taking a condition want UInt8 or Nullable(UInt8) (NULL is false).
 *
 * arrayFold is resolved here (types) but iterated by the executor, because its lambda runs
 * once per position with the accumulator of the previous one.
 *
 * Ownership: hof_resolve returns a call owned by the caller (hof_call_free). hof_exec takes
 * materialised arrays with offsets starting at 0 (they keep their owners) and returns a new
 * column. Thread-safety: a resolved call is read-only and shared by worker threads.
 * Errors: -1 with err_set (ILLEGAL_TYPE_OF_ARGUMENT, NUMBER_OF_ARGUMENTS_DOESNT_MATCH,
 * TYPE_MISMATCH, SIZES_OF_ARRAYS_DONT_MATCH), messages as ClickHouse words them. */
#ifndef SHALE_FUNC_HOF_H
#define SHALE_FUNC_HOF_H

#include "func/func.h"

typedef enum hof_kind {
    HOF_MAP,
    HOF_FILTER,
    HOF_COUNT,
    HOF_EXISTS,
    HOF_ALL,
    HOF_FIRST,
    HOF_LAST,
    HOF_FIRST_OR_NULL,
    HOF_LAST_OR_NULL,
    HOF_FIRST_INDEX,
    HOF_LAST_INDEX,
    HOF_SORT,
    HOF_REVERSE_SORT,
    HOF_CUMSUM,
    HOF_CUMSUM_NONNEG,
    HOF_DIFFERENCE,
    HOF_FILL,
    HOF_REVERSE_FILL,
    HOF_SPLIT,
    HOF_REVERSE_SPLIT,
    HOF_REDUCE, /* arraySum/Avg/Min/Max/Product with a lambda: the plain function over the
                   mapped values */
    HOF_FOLD,
} hof_kind;

typedef struct hof_def {
    const char *name;
    hof_kind kind;
    bool needs_lambda;   /* arrayMap(arr) is an error; arrayCount(arr) is not */
    bool plain_exists;   /* without a lambda the ordinary function of the same name runs */
} hof_def;

typedef struct hof_call {
    const hof_def *def;
    int narrays;
    bool has_lambda;
    const type *elem;    /* element type of the first array, LowCardinality stripped */
    const type *mapped;  /* the lambda's result type (or elem) */
    const type *ret;
    fn_call *reduce;     /* HOF_REDUCE: the plain function over Array(mapped) */
} hof_call;

/* The higher-order functions, for listings. */
int hof_count(void);
const hof_def *hof_at(int i);
/* The definition of a higher-order function, or NULL. */
const hof_def *hof_lookup(const char *name);
/* The element type a lambda parameter gets for an argument of type array_type (which must
 * be an Array). */
const type *hof_elem_type(const type *array_type);
/* Resolves name(lambda, arrays…) (mapped = the lambda's result type) or name(arrays…)
 * (has_lambda false, mapped ignored). For HOF_FOLD, arrays exclude the accumulator and
 * acc is its type; otherwise acc is NULL. */
int hof_resolve(const hof_def *d, int narrays, const type *const *arrays, bool has_lambda, const type *mapped,
                const type *acc, const func_env *env, hof_call **out);
/* Runs the call over `rows` rows: arrays as above (equal sizes checked by the caller),
 * mapped = one value per element of arrays[0] (NULL without a lambda); only HOF_REDUCE takes
 * a constant column there (ClickHouse's arrayAvg of a constant is that constant, never a
 * wrapped sum divided back). */
int hof_exec(const hof_call *c, column *const *arrays, column *mapped, size_t rows, column **out);
void hof_call_free(hof_call *c);

#endif
