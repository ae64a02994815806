/* Private helpers shared by the aggregate function families (not part of the API). */
#ifndef SHALE_FUNC_AGG_IMPL_H
#define SHALE_FUNC_AGG_IMPL_H

#include "base/err.h"
#include "base/mem.h"
#include "func/agg.h"

#include <string.h>

/* -State / -Merge layers (state.c). agg_wrap_state takes nested (freed on error); the type
 * name of the state is name[0..base_len) with nested's parameters unless ret is given. */
int agg_wrap_state(agg_call *nested, const char *name, size_t base_len, int nargs, const type *const *types,
                   const type *ret, agg_call **out);
/* nparams > 0: the nested function takes these parameters instead of the state type's
 * (quantileMerge(0.9) of quantile states), as ClickHouse does. */
int agg_wrap_merge(const char *name, size_t base_len, int nargs, const type *const *types, int nparams,
                   const double *params, agg_call **out);
void agg_state_install_hooks(void);


/* Generates the four add entry points from an inline per-row function
 * ROW(const agg_call *a, void *state, column *const *args, size_t i). Because ROW is a
 * static inline function, the loops have no indirect call per row. */
#define AGG_ROW_OPS(P, ROW)                                                                        \
    static void P##_add_all(const agg_call *a, void *st, column *const *args, size_t rows)         \
    {                                                                                              \
        for (size_t i = 0; i < rows; i++)                                                          \
            ROW(a, st, args, i);                                                                   \
    }                                                                                              \
    static void P##_add_rows(const agg_call *a, char *const *sts, size_t off, column *const *args, \
                             size_t rows)                                                          \
    {                                                                                              \
        for (size_t i = 0; i < rows; i++)                                                          \
            ROW(a, sts[i] + off, args, i);                                                         \
    }                                                                                              \
    static void P##_add_all_mask(const agg_call *a, void *st, column *const *args, size_t rows,    \
                                 const uint8_t *m)                                                 \
    {                                                                                              \
        for (size_t i = 0; i < rows; i++)                                                          \
            if (m[i])                                                                              \
                ROW(a, st, args, i);                                                               \
    }                                                                                              \
    static void P##_add_rows_mask(const agg_call *a, char *const *sts, size_t off,                 \
                                  column *const *args, size_t rows, const uint8_t *m)              \
    {                                                                                              \
        for (size_t i = 0; i < rows; i++)                                                          \
            if (m[i])                                                                              \
                ROW(a, sts[i] + off, args, i);                                                     \
    }

#define AGG_SET_ADD_OPS(a, P)                    \
    do {                                         \
        (a)->ops.add_all = P##_add_all;          \
        (a)->ops.add_rows = P##_add_rows;        \
        (a)->ops.add_all_mask = P##_add_all_mask; \
        (a)->ops.add_rows_mask = P##_add_rows_mask; \
    } while (0)

/* True for the -If, -OrNull, -OrDefault and Nullable wrappers: their state is the nested
 * state followed by bytes of their own (up to state_size). */
bool agg_wraps_state(const agg_call *a);

/* uniq.c, shared with uniqCombined: a value's bytes as ClickHouse's IColumn::getDataAt
 * gives them (false when not contiguous: Nullable, arrays...), and ClickHouse's variadic
 * CityHash chain over the values of n columns at row i (UniqVariadicHash<false, ...>). */
bool agg_uniq_data_at(const column *c, size_t i, const void **p, size_t *n);
uint64_t agg_uniq_var_hash(column *const *cols, int n, size_t i);
/* uniq_combined.c: 0 when the arguments (several, one tuple's fields, or one other type)
 * are all contiguous values that agg_uniq_var_hash covers; else -1 with NOT_IMPLEMENTED. */
int agg_uniq_variadic_mode(const agg_call *a);

/* For spill_write / spill_read (spill_state.c): a column that may be NULL, whole. */
void agg_spill_put_col(buf *out, const column *c);
column *agg_spill_get_col(const char **p, const type *t);

/* Spilling a state as its serialized bytes, length first (families whose state owns
 * memory and has a serializer: uniqExact, uniqCombined...); read inits the state first. */
void agg_spill_write_serialized(const agg_call *a, const void *st, buf *out,
                                void (*ser)(const agg_call *, const void *, buf *));
void agg_spill_read_serialized(const agg_call *a, void *st, const char **p,
                               int (*de)(const agg_call *, void *, agg_rd *));

/* "Illegal type T of argument for aggregate function f" (ILLEGAL_TYPE_OF_ARGUMENT). */
static inline int agg_bad_type(const agg_call *a, int i)
{
    return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type %s of argument for aggregate function %s",
                   a->arg_types[i]->name, a->def->name);
}

static inline int agg_need_args(const agg_call *a, int n)
{
    if (a->nargs == n)
        return 0;
    if (n == 1)
        return err_set(ERR_NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Aggregate function %s requires single argument",
                       a->def->name);
    return err_set(ERR_NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Aggregate function %s requires %d arguments",
                   a->def->name, n);
}

static inline int agg_no_params(const agg_call *a)
{
    if (a->nparams == 0)
        return 0;
    return err_set(ERR_NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Aggregate function %s cannot have parameters",
                   a->def->name);
}

/* Number of selected rows in a mask. */
static inline size_t agg_mask_count(const uint8_t *m, size_t rows)
{
    size_t n = 0;
    for (size_t i = 0; i < rows; i++)
        n += m[i] != 0;
    return n;
}

/* Physical type of an argument as kernels see it (Nullable/LowCardinality stripped). */
static inline type_id agg_tid(const type *t)
{
    t = type_base(t);
    switch (t->id) {
    case T_BOOL: return T_UINT8;
    case T_DATE: return T_UINT16;
    case T_DATE32: return T_INT32;
    case T_DATETIME: return T_UINT32;
    case T_DATETIME64: return T_INT64;
    case T_ENUM8: return T_INT8;
    case T_ENUM16: return T_INT16;
    case T_DECIMAL32: return T_INT32;
    case T_DECIMAL64: return T_INT64;
    case T_DECIMAL128: return T_INT128;
    case T_UUID: return T_UINT128;
    default: return t->id;
    }
}

/* The integer value of row i of c (UInt8..Int64 and the types stored as one, agg_tid), as
 * ClickHouse widens it to 64 bits: unsigned zero-extended, signed sign-extended. Other
 * types are read as 64-bit words. */
static inline uint64_t agg_int_as_u64(const column *c, size_t i)
{
    size_t j = col_idx(c, i);
    const void *p = c->data.p;
    switch (agg_tid(c->type)) {
    case T_UINT8: return ((const uint8_t *)p)[j];
    case T_UINT16: return ((const uint16_t *)p)[j];
    case T_UINT32: return ((const uint32_t *)p)[j];
    case T_UINT64: return ((const uint64_t *)p)[j];
    case T_INT8: return (uint64_t)(int64_t)((const int8_t *)p)[j];
    case T_INT16: return (uint64_t)(int64_t)((const int16_t *)p)[j];
    case T_INT32: return (uint64_t)(int64_t)((const int32_t *)p)[j];
    default: return (uint64_t)((const int64_t *)p)[j];
    }
}

#endif
