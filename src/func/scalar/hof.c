/* Higher-order array functions (see func/hof.h), and the plain arrayAvg/arrayProduct that
 * their lambda forms reduce with. Kernels walk the first array's rows and read the mapped
 * values by element position (arrays are materialised, offsets start at 0). */
#include "func/agg.h"
#include "func/hof.h"
#include "func/scalar/num.h"

#include "base/err.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const hof_def defs[] = {
    {"arrayMap", HOF_MAP, true, false},
    {"arrayFilter", HOF_FILTER, true, false},
    {"arrayCount", HOF_COUNT, false, false},
    {"arrayExists", HOF_EXISTS, false, false},
    {"arrayAll", HOF_ALL, false, false},
    {"arrayFirst", HOF_FIRST, true, false},
    {"arrayLast", HOF_LAST, true, false},
    {"arrayFirstOrNull", HOF_FIRST_OR_NULL, true, false},
    {"arrayLastOrNull", HOF_LAST_OR_NULL, true, false},
    {"arrayFirstIndex", HOF_FIRST_INDEX, true, false},
    {"arrayLastIndex", HOF_LAST_INDEX, true, false},
    {"arraySort", HOF_SORT, false, true},
    {"arrayReverseSort", HOF_REVERSE_SORT, false, true},
    {"arrayCumSum", HOF_CUMSUM, false, false},
    {"arrayCumSumNonNegative", HOF_CUMSUM_NONNEG, false, false},
    {"arrayDifference", HOF_DIFFERENCE, false, false},
    {"arrayFill", HOF_FILL, true, false},
    {"arrayReverseFill", HOF_REVERSE_FILL, true, false},
    {"arraySplit", HOF_SPLIT, true, false},
    {"arrayReverseSplit", HOF_REVERSE_SPLIT, true, false},
    {"arraySum", HOF_REDUCE, false, true},
    {"arrayAvg", HOF_REDUCE, false, true},
    {"arrayMin", HOF_REDUCE, false, true},
    {"arrayMax", HOF_REDUCE, false, true},
    {"arrayProduct", HOF_REDUCE, false, true},
    {"arrayFold", HOF_FOLD, true, false},
};

int hof_count(void) { return (int)(sizeof defs / sizeof defs[0]); }
const hof_def *hof_at(int i) { return &defs[i]; }

const hof_def *hof_lookup(const char *name)
{
    for (size_t i = 0; i < sizeof defs / sizeof defs[0]; i++)
        if (strcmp(defs[i].name, name) == 0)
            return &defs[i];
    return NULL;
}

const type *hof_elem_type(const type *array_type) { return type_phys(type_phys(array_type)->inner); }

void hof_call_free(hof_call *c)
{
    if (!c)
        return;
    if (c->reduce)
        fn_call_free(c->reduce);
    free(c);
}

/* A condition's type: UInt8 (or Bool), maybe Nullable; a NULL literal counts as false. */
static bool cond_type(const type *t)
{
    const type *b = type_base(t);
    return b->id == T_UINT8 || b->id == T_BOOL || b->id == T_NOTHING;
}

static inline bool cond_at(const column *m, size_t e)
{
    if (type_phys(m->type)->id == T_NULLABLE) {
        if (m->nulls.p[e])
            return false;
        m = m->inner;
    }
    if (type_phys(m->type)->id == T_NOTHING)
        return false;
    return m->data.p[e] != 0;
}

/* Result types of arrayCumSum and arrayDifference, NULL when the type does not add up. */
static const type *cumsum_type(const type *t)
{
    if (t->id == T_NULLABLE || t->id == T_LOWCARDINALITY)
        return NULL;
    if (type_is_decimal(t))
        return type_decimal(38, t->scale);
    if (num_is_float(t))
        return type_simple(T_FLOAT64);
    if (num_is_int(t) && t->width <= 8)
        return type_simple(num_is_uint(t) ? T_UINT64 : T_INT64);
    return NULL;
}

static const type *difference_type(const type *t)
{
    if (t->id == T_NULLABLE || t->id == T_LOWCARDINALITY)
        return NULL;
    if (type_is_decimal(t))
        return t;
    if (num_is_float(t))
        return type_simple(T_FLOAT64);
    if (num_is_int(t) && t->width <= 8)
        return num_int_type(true, t->width >= 4 ? 8 : t->width * 2);
    return NULL;
}

int hof_resolve(const hof_def *d, int narrays, const type *const *arrays, bool has_lambda, const type *mapped,
                const type *acc, const func_env *env, hof_call **out)
{
    const type *elem = hof_elem_type(arrays[0]);
    if (!has_lambda)
        mapped = elem;
    mapped = type_phys(mapped);
    hof_call *c = xcalloc(1, sizeof *c);
    c->def = d;
    c->narrays = narrays;
    c->has_lambda = has_lambda;
    c->elem = elem;
    c->mapped = mapped;
    const char *name = d->name;
    switch (d->kind) {
    case HOF_MAP: c->ret = type_array(mapped); break;
    case HOF_FILTER:
    case HOF_COUNT:
    case HOF_EXISTS:
    case HOF_ALL:
    case HOF_FIRST:
    case HOF_LAST:
    case HOF_FIRST_OR_NULL:
    case HOF_LAST_OR_NULL:
    case HOF_FIRST_INDEX:
    case HOF_LAST_INDEX:
    case HOF_FILL:
    case HOF_REVERSE_FILL:
    case HOF_SPLIT:
    case HOF_REVERSE_SPLIT:
        if (!cond_type(mapped)) {
            if (has_lambda)
                err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT,
                        "Expression for function %s must return UInt8 or Nullable(UInt8), found %s", name, mapped->name);
            else
                err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT,
                        "The 1st and only argument for function %s must be array of UInt8. Found %s instead", name,
                        arrays[0]->name);
            goto fail;
        }
        if (d->kind == HOF_COUNT || d->kind == HOF_FIRST_INDEX || d->kind == HOF_LAST_INDEX)
            c->ret = type_simple(T_UINT32);
        else if (d->kind == HOF_EXISTS || d->kind == HOF_ALL)
            c->ret = type_simple(T_UINT8);
        else if (d->kind == HOF_FIRST || d->kind == HOF_LAST)
            c->ret = elem;
        else if (d->kind == HOF_FIRST_OR_NULL || d->kind == HOF_LAST_OR_NULL) {
            if (elem->id != T_NULLABLE && !type_can_be_nullable(elem)) {
                err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "Nested type %s cannot be inside Nullable type", elem->name);
                goto fail;
            }
            c->ret = type_nullable(elem);
        } else if (d->kind == HOF_SPLIT || d->kind == HOF_REVERSE_SPLIT)
            c->ret = type_array(type_array(elem));
        else
            c->ret = type_array(elem);
        break;
    case HOF_SORT:
    case HOF_REVERSE_SORT: c->ret = type_array(elem); break;
    case HOF_CUMSUM:
    case HOF_CUMSUM_NONNEG:
    case HOF_DIFFERENCE: {
        const type *rt = d->kind == HOF_DIFFERENCE ? difference_type(mapped) : cumsum_type(mapped);
        if (!rt) {
            if (d->kind == HOF_DIFFERENCE)
                err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "arrayDifference cannot process values of type %s", mapped->name);
            else
                err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "%s cannot add values of type %s", name, mapped->name);
            goto fail;
        }
        c->ret = type_array(rt);
        break;
    }
    case HOF_REDUCE: {
        const type *at = type_array(mapped);
        if (func_resolve(name, 1, &at, NULL, env, &c->reduce))
            goto fail;
        c->ret = c->reduce->result_type;
        break;
    }
    case HOF_FOLD:
        if (acc != mapped && type_phys(acc) != mapped) {
            err_set(ERR_TYPE_MISMATCH,
                    "Return type of lambda function must be the same as the accumulator type, inferred return type "
                    "of lambda: %s, inferred type of accumulator: %s",
                    mapped->name, acc->name);
            goto fail;
        }
        c->ret = type_phys(acc);
        break;
    }
    *out = c;
    return 0;
fail:
    hof_call_free(c);
    return -1;
}

/* An Array column of type t over `inner` (taken), with the offsets of src's rows. */
static column *array_over(const type *t, const column *src, size_t rows, column *inner)
{
    column *r = col_new(t);
    col_free(r->inner);
    r->inner = inner;
    r->offs.len = 0;
    buf_append(&r->offs, src->offs.p, (rows + 1) * sizeof(uint64_t));
    r->len = rows;
    return r;
}

static column *numbers_u32(size_t rows, uint32_t **d)
{
    column *r = col_new(type_simple(T_UINT32));
    *d = buf_grow(&r->data, rows * 4);
    r->len = rows;
    return r;
}

typedef struct sort_keys {
    const column *keys;
    bool desc;
} sort_keys;

/* By key, NaN and NULL last in both directions; equal keys keep their order. */
static int key_cmp(const void *x, const void *y, void *ctx)
{
    const sort_keys *s = ctx;
    uint64_t i = *(const uint64_t *)x, j = *(const uint64_t *)y;
    int r = s->desc ? -col_compare(s->keys, i, s->keys, j, -1) : col_compare(s->keys, i, s->keys, j, 1);
    return r ? r : (i > j) - (i < j);
}

static int sort_exec(const hof_call *c, const column *a, const column *m, size_t rows, column **out)
{
    const uint64_t *o = col_offs(a);
    column *res = col_new(c->ret);
    col_reserve(res, rows);
    sort_keys sk = {m, c->def->kind == HOF_REVERSE_SORT};
    buf idx = {0};
    for (size_t i = 0; i < rows; i++) {
        size_t len = o[i + 1] - o[i];
        uint64_t *ix = buf_grow(&idx, len * 8 + 8);
        idx.len = 0;
        for (size_t k = 0; k < len; k++)
            ix[k] = o[i] + k;
        qsort_r(ix, len, 8, key_cmp, &sk);
        for (size_t k = 0; k < len; k++)
            col_push_from(res->inner, a->inner, ix[k]);
        col_array_commit(res);
    }
    buf_free(&idx);
    *out = res;
    return 0;
}

/* One pass over each row's values v[] of compute type T, in place: differences, or running
 * sums (set back to 0 for arrayCumSumNonNegative whenever NEG(acc)). */
#define RUNNING(T, v, NEG)                                                                        \
    for (size_t i = 0; i < rows; i++) {                                                            \
        T acc = 0, prev = 0;                                                                       \
        for (uint64_t e = o[i]; e < o[i + 1]; e++) {                                               \
            T x = v[e];                                                                            \
            if (k == HOF_DIFFERENCE) {                                                             \
                v[e] = e == o[i] ? 0 : x - prev;                                                   \
                prev = x;                                                                          \
            } else {                                                                               \
                acc += x;                                                                          \
                if (k == HOF_CUMSUM_NONNEG && NEG(acc))                                            \
                    acc = 0;                                                                       \
                v[e] = acc;                                                                        \
            }                                                                                      \
        }                                                                                          \
    }
#define NEG_VALUE(x) ((x) < 0)
#define NEG_NEVER(x) ((void)(x), 0)
#define NEG_INT64(x) ((int64_t)(x) < 0)

/* arrayCumSum, arrayCumSumNonNegative, arrayDifference over the mapped values. */
static int running_exec(const hof_call *c, const column *a, const column *m, size_t rows, column **out)
{
    const uint64_t *o = col_offs(a);
    size_t ne = o[rows];
    const type *mt = type_phys(m->type), *rt = c->ret->inner;
    hof_kind k = c->def->kind;
    column *vals;
    if (num_is_float(mt)) {
        double *v = mem_alloc(ne * sizeof *v + 8);
        num_load_f64(mt, m->data.p, ne, v);
        RUNNING(double, v, NEG_VALUE)
        vals = num_store_f64(rt, v, ne);
        mem_free(v);
    } else if (type_is_decimal(mt)) {
        int128_t *v = mem_alloc(ne * sizeof *v + 16);
        num_load_i128(mt, m->data.p, ne, v);
        RUNNING(int128_t, v, NEG_VALUE)
        vals = num_store_i128(rt, v, ne);
        mem_free(v);
    } else {
        /* integers as uint64: two's-complement arithmetic wraps as ClickHouse's does */
        uint64_t *v = mem_alloc(ne * sizeof *v + 8);
        if (num_is_uint(mt)) {
            num_load_u64(mt, m->data.p, ne, v);
            RUNNING(uint64_t, v, NEG_NEVER)
        } else {
            num_load_i64(mt, m->data.p, ne, (int64_t *)v);
            RUNNING(uint64_t, v, NEG_INT64)
        }
        vals = num_store_u64(rt, v, ne);
        mem_free(v);
    }
    *out = array_over(c->ret, a, rows, vals);
    return 0;
}
#undef RUNNING
#undef NEG_VALUE
#undef NEG_NEVER
#undef NEG_INT64

int hof_exec(const hof_call *c, column *const *arrays, column *mapped, size_t rows, column **out)
{
    const column *a = arrays[0];
    const column *in = a->inner;
    const column *m = mapped ? mapped : in;
    const uint64_t *o = col_offs(a);
    switch (c->def->kind) {
    case HOF_MAP: {
        column *inner = col_ref(mapped);
        if (inner->type != c->ret->inner && inner->refs == 1)
            inner->type = c->ret->inner; /* LowCardinality(T) and T share a layout */
        else if (inner->type != c->ret->inner) {
            col_free(inner);
            inner = col_new(c->ret->inner);
            col_push_range(inner, mapped, 0, mapped->len);
        }
        *out = array_over(c->ret, a, rows, inner);
        return 0;
    }
    case HOF_FILTER: {
        column *res = col_new(c->ret);
        col_reserve(res, rows);
        for (size_t i = 0; i < rows; i++) {
            for (uint64_t e = o[i]; e < o[i + 1]; e++)
                if (cond_at(m, e))
                    col_push_from(res->inner, in, e);
            col_array_commit(res);
        }
        *out = res;
        return 0;
    }
    case HOF_COUNT:
    case HOF_FIRST_INDEX:
    case HOF_LAST_INDEX: {
        uint32_t *d;
        column *res = numbers_u32(rows, &d);
        for (size_t i = 0; i < rows; i++) {
            uint32_t v = 0;
            if (c->def->kind == HOF_COUNT) {
                for (uint64_t e = o[i]; e < o[i + 1]; e++)
                    v += cond_at(m, e);
            } else if (c->def->kind == HOF_FIRST_INDEX) {
                for (uint64_t e = o[i]; e < o[i + 1] && !v; e++)
                    if (cond_at(m, e))
                        v = (uint32_t)(e - o[i] + 1);
            } else {
                for (uint64_t e = o[i + 1]; e > o[i] && !v; e--)
                    if (cond_at(m, e - 1))
                        v = (uint32_t)(e - o[i]);
            }
            d[i] = v;
        }
        *out = res;
        return 0;
    }
    case HOF_EXISTS:
    case HOF_ALL: {
        uint8_t *d;
        column *res = num_new_u8(rows, &d);
        bool all = c->def->kind == HOF_ALL;
        for (size_t i = 0; i < rows; i++) {
            uint8_t v = all;
            for (uint64_t e = o[i]; e < o[i + 1] && v == all; e++)
                if (cond_at(m, e) != all)
                    v = !all;
            d[i] = v;
        }
        *out = res;
        return 0;
    }
    case HOF_FIRST:
    case HOF_LAST:
    case HOF_FIRST_OR_NULL:
    case HOF_LAST_OR_NULL: {
        bool last = c->def->kind == HOF_LAST || c->def->kind == HOF_LAST_OR_NULL;
        bool or_null = c->def->kind == HOF_FIRST_OR_NULL || c->def->kind == HOF_LAST_OR_NULL;
        bool wrap = or_null && type_phys(in->type)->id != T_NULLABLE;
        column *res = col_new(c->ret);
        col_reserve(res, rows);
        for (size_t i = 0; i < rows; i++) {
            int64_t hit = -1;
            if (!last) {
                for (uint64_t e = o[i]; e < o[i + 1] && hit < 0; e++)
                    if (cond_at(m, e))
                        hit = (int64_t)e;
            } else {
                for (uint64_t e = o[i + 1]; e > o[i] && hit < 0; e--)
                    if (cond_at(m, e - 1))
                        hit = (int64_t)e - 1;
            }
            if (hit < 0 && or_null)
                col_push_null(res);
            else if (hit < 0)
                col_push_default(res);
            else if (wrap) {
                col_push_from(res->inner, in, (size_t)hit);
                col_nullable_commit(res, false);
            } else
                col_push_from(res, in, (size_t)hit);
        }
        *out = res;
        return 0;
    }
    case HOF_SORT:
    case HOF_REVERSE_SORT: return sort_exec(c, a, m, rows, out);
    case HOF_CUMSUM:
    case HOF_CUMSUM_NONNEG:
    case HOF_DIFFERENCE: return running_exec(c, a, m, rows, out);
    case HOF_FILL:
    case HOF_REVERSE_FILL: {
        column *res = col_new(c->ret);
        col_reserve(res, rows);
        for (size_t i = 0; i < rows; i++) {
            if (c->def->kind == HOF_FILL) {
                uint64_t keep = o[i];
                for (uint64_t e = o[i]; e < o[i + 1]; e++) {
                    if (e == o[i] || cond_at(m, e))
                        keep = e;
                    col_push_from(res->inner, in, keep);
                }
            } else {
                /* filled from the end: collect the picks, then push them in order */
                size_t len = o[i + 1] - o[i], base = res->inner->len;
                uint64_t keep = o[i + 1] ? o[i + 1] - 1 : 0;
                uint64_t *pick = xmalloc(len * sizeof *pick + 8);
                for (uint64_t e = o[i + 1]; e > o[i]; e--) {
                    if (e == o[i + 1] || cond_at(m, e - 1))
                        keep = e - 1;
                    pick[e - 1 - o[i]] = keep;
                }
                for (size_t k = 0; k < len; k++)
                    col_push_from(res->inner, in, pick[k]);
                free(pick);
                (void)base;
            }
            col_array_commit(res);
        }
        *out = res;
        return 0;
    }
    case HOF_SPLIT:
    case HOF_REVERSE_SPLIT: {
        column *res = col_new(c->ret);
        col_reserve(res, rows);
        column *parts = res->inner;
        bool rev = c->def->kind == HOF_REVERSE_SPLIT;
        for (size_t i = 0; i < rows; i++) {
            for (uint64_t e = o[i]; e < o[i + 1]; e++) {
                /* arraySplit cuts before a true element, arrayReverseSplit after one */
                if (!rev && e > o[i] && cond_at(m, e))
                    col_array_commit(parts);
                col_push_from(parts->inner, in, e);
                if (rev && e + 1 < o[i + 1] && cond_at(m, e))
                    col_array_commit(parts);
            }
            if (o[i + 1] > o[i])
                col_array_commit(parts);
            col_array_commit(res);
        }
        *out = res;
        return 0;
    }
    case HOF_REDUCE: {
        if (mapped->is_const && mapped->len > 0 && strcmp(c->def->name, "arrayAvg") == 0) {
            /* ClickHouse: the value (as a Float64) for every row, an empty array's too */
            const column *v = type_phys(mapped->type)->id == T_NULLABLE ? mapped->inner : mapped;
            const type *vt = type_phys(v->type);
            double x = col_get_f64(v, 0);
            if (type_is_decimal(vt))
                x /= pow(10.0, vt->scale);
            column *res = col_new(c->ret);
            double *r = buf_grow(&res->data, rows * 8);
            res->len = rows;
            for (size_t i = 0; i < rows; i++)
                r[i] = x;
            *out = res;
            return 0;
        }
        column *arr = array_over(type_array(c->mapped), a, rows, col_materialize(col_ref(mapped)));
        int rc = fn_exec(c->reduce, &arr, rows, out);
        col_free(arr);
        return rc;
    }
    case HOF_FOLD: break;
    }
    return err_set(ERR_LOGICAL_ERROR, "%s is evaluated by the executor", c->def->name);
}

/* ---- arrayAvg, arrayProduct (Float64, as ClickHouse's) ----
 * Both compute in the element's own arithmetic and convert the result: integers wrap in
 * 64 bits, decimal sums divide with truncation at their scale, decimal products carry the
 * sum of the scales; floats compute in Float64. An empty array gives 0. */

static int avgprod_exec(const fn_call *c, column **a, size_t n, column **out)
{
    const type *et = type_phys(c->arg_types[0]->inner);
    const column *in = a[0]->inner;
    const uint64_t *o = col_offs(a[0]);
    size_t ne = o[n] - o[0];
    const uint8_t *p = in->data.p + o[0] * et->width;
    bool avg = c->state != NULL, dec = type_is_decimal(et);
    double scale = dec ? pow(10.0, et->scale) : 1;
    double *f = NULL;
    int128_t *w = NULL;
    if (!num_is_float(et)) {
        w = mem_alloc(ne * sizeof *w + 16);
        num_load_i128(et, p, ne, w); /* UInt128 keeps its bits */
    } else {
        f = mem_alloc(ne * sizeof *f + 8);
        num_load_f64(et, p, ne, f);
    }
    column *res = col_new(c->ret);
    double *r = buf_grow(&res->data, n * 8);
    res->len = n;
    for (size_t i = 0; i < n; i++) {
        size_t b = o[i] - o[0], len = o[i + 1] - o[i];
        double v = 0;
        if (len && w && dec) {
            int128_t acc = avg ? 0 : 1;
            for (size_t e = b; e < b + len; e++)
                acc = avg ? acc + w[e] : acc * w[e];
            v = avg ? (double)(acc / (int128_t)len) / scale : (double)acc / pow(scale, (double)len);
        } else if (len && w) {
            /* wraps as ClickHouse's (U)Int64 arithmetic, or (U)Int128 for 128-bit elements */
            uint128_t acc = avg ? 0 : 1;
            for (size_t e = b; e < b + len; e++)
                acc = avg ? acc + (uint128_t)w[e] : acc * (uint128_t)w[e];
            bool uns = num_is_uint(et);
            if (et->width <= 8)
                v = uns ? (double)(uint64_t)acc : (double)(int64_t)(uint64_t)acc;
            else
                v = uns ? (double)acc : (double)(int128_t)acc;
            if (avg)
                v /= (double)len;
        } else if (len) {
            v = avg ? 0 : 1;
            for (size_t e = b; e < b + len; e++)
                v = avg ? v + f[e] / scale : v * (f[e] / scale);
            if (avg)
                v /= (double)len;
        }
        r[i] = v;
    }
    mem_free(w);
    mem_free(f);
    *out = res;
    return 0;
}

static int avgprod_resolve(fn_call *c)
{
    if (c->nargs != 1)
        return fn_bad_nargs(c, "1");
    const type *at = c->arg_types[0];
    if (at->id != T_ARRAY)
        return fn_bad_types(c);
    const type *et = type_phys(at->inner);
    if (!(num_is_int(et) || num_is_float(et) || type_is_decimal(et)) || et->width > 16)
        return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "array aggregation function cannot be performed on type %s",
                       et->name);
    c->ret = type_simple(T_FLOAT64);
    c->exec = avgprod_exec;
    c->state = !strcmp(c->def->name, "arrayAvg") ? (void *)1 : NULL;
    return 0;
}

/* ---- arrayEnumerate: [1, 2, …, length] ---- */

static int enumerate_exec(const fn_call *c, column **a, size_t n, column **out)
{
    const uint64_t *o = col_offs(a[0]);
    size_t ne = o[n] - o[0];
    uint32_t *d;
    column *inner = numbers_u32(ne, &d);
    for (size_t i = 0; i < n; i++)
        for (uint64_t e = o[i]; e < o[i + 1]; e++)
            d[e - o[0]] = (uint32_t)(e - o[i] + 1);
    column *res = col_new(c->ret);
    col_free(res->inner);
    res->inner = inner;
    uint64_t *ro = buf_grow(&res->offs, n * 8);
    for (size_t i = 0; i < n; i++)
        ro[i] = o[i + 1] - o[0];
    res->len = n;
    *out = res;
    return 0;
}

static int enumerate_resolve(fn_call *c)
{
    if (c->nargs != 1)
        return fn_bad_nargs(c, "1");
    if (c->arg_types[0]->id != T_ARRAY)
        return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type %s of argument of function %s",
                       c->arg_types[0]->name, c->name);
    c->ret = type_array(type_simple(T_UINT32));
    c->exec = enumerate_exec;
    return 0;
}

/* ---- arrayReduce('agg', arr…): the aggregate over each row's elements ---- */

static int reduce_exec(const fn_call *c, column **a, size_t n, column **out)
{
    const agg_call *agg = c->state;
    int na = c->nargs - 1;
    column *res = col_new(c->ret);
    column *slices[64];
    for (size_t i = 0; i < n; i++) {
        const uint64_t *o0 = col_offs(a[1]);
        size_t r0 = col_idx(a[1], i), len = o0[r0 + 1] - o0[r0];
        for (int k = 0; k < na; k++) {
            const uint64_t *o = col_offs(a[1 + k]);
            size_t r = col_idx(a[1 + k], i);
            if (o[r + 1] - o[r] != len) {
                for (int j = 0; j < k; j++)
                    col_free(slices[j]);
                col_free(res);
                return err_set(ERR_SIZES_OF_ARRAYS_DONT_MATCH, "All arrays must be of the same size");
            }
            slices[k] = col_slice(a[1 + k]->inner, o[r], len);
        }
        void *st = agg_state_new(agg);
        agg->ops.add_all(agg, st, slices, len);
        int rc = agg->ops.finalize(agg, st, res);
        agg_state_free(agg, st);
        for (int k = 0; k < na; k++)
            col_free(slices[k]);
        if (rc) {
            col_free(res);
            return -1;
        }
    }
    *out = res;
    return 0;
}

static void reduce_free(void *state) { agg_call_free(state); }

static int reduce_resolve(fn_call *c)
{
    if (c->nargs < 2)
        return fn_bad_nargs(c, "at least 2");
    if (c->nargs > 65)
        return fn_bad_nargs(c, "at most 65");
    size_t len;
    const char *spec = fn_const_str(c, 0, &len);
    if (!spec)
        return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT,
                       "First argument for function %s must be constant string: name of aggregate function", c->name);
    /* 'name' or 'name(p1, p2)' */
    char name[256];
    double params[16];
    int np = 0;
    size_t nl = 0;
    while (nl < len && spec[nl] != '(' && nl + 1 < sizeof name) {
        name[nl] = spec[nl];
        nl++;
    }
    name[nl] = 0;
    if (nl < len && spec[nl] == '(') {
        const char *p = spec + nl + 1, *end = spec + len;
        while (p < end && *p != ')' && np < 16) {
            char *e;
            params[np++] = strtod(p, &e);
            if (e == p)
                return err_set(ERR_BAD_ARGUMENTS, "Cannot parse the parameters of aggregate function %.*s", (int)len, spec);
            p = e;
            while (p < end && (*p == ',' || *p == ' '))
                p++;
        }
    }
    const type *elems[64];
    for (int i = 1; i < c->nargs; i++) {
        if (c->arg_types[i]->id != T_ARRAY)
            return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "Argument %d for function %s must be an array but it has type %s.",
                           i, c->name, c->arg_types[i]->name);
        elems[i - 1] = c->arg_types[i]->inner;
    }
    agg_call *agg;
    if (agg_resolve(name, c->nargs - 1, elems, np, params, &agg))
        return -1;
    c->state = agg;
    c->ret = agg->ret;
    c->exec = reduce_exec;
    return 0;
}

void func_register_hof(void)
{
    static const func_def plain[] = {
        {"arrayEnumerate", 0, enumerate_resolve, NULL, "[1, 2, …, length(arr)]: the positions of an array's elements"},
        {"arrayReduce", 0, reduce_resolve, reduce_free, "arrayReduce('agg', arr, …): an aggregate function over the elements"},
        {"arrayAvg", 0, avgprod_resolve, NULL, "average of the array's elements (Float64)"},
        {"arrayProduct", 0, avgprod_resolve, NULL, "product of the array's elements (Float64)"},
    };
    for (size_t i = 0; i < sizeof plain / sizeof plain[0]; i++)
        func_register(&plain[i]);
}
