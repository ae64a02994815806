/* Array functions: array (the [a, b] constructor), arrayElement (a[i]), has, indexOf,
 * countEqual, arraySum, range, arrayStringConcat, splitByChar, splitByString.
 * (length/empty/notEmpty on arrays live in string.c.)
 *
 * array() takes the least supertype of its arguments (Array(Nothing) without any) and
 * keeps Nullable elements, so it handles NULLs itself. has/indexOf/countEqual compare
 * elements with the value after casting both to their supertype (so has([1, 2], 2.0)
 * works); a NULL searched value finds NULL elements (has([NULL, 1], NULL) = 1), and
 * types without a supertype (Int64 vs UInt64) are an error rather than compared exactly.
 * Kernels build results row by row with col_push_from for generic element types. */
#include "func/func.h"
#include "func/scalar/num.h"
#include "func/supertype.h"

#include "base/err.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void func_register_array_more(void);
static column *cast_to(const fn_call *c, column *m, const type *from, const type *to, size_t n);

/* ---- array(...) ---- */

static int array_exec(const fn_call *c, column **a, size_t n, column **out)
{
    const type *et = c->ret->inner;
    column *res = col_new(c->ret);
    col_reserve(res, n);
    column *cast[64];
    int k = c->nargs;
    for (int j = 0; j < k; j++) {
        if (type_base(c->arg_types[j])->id == T_NOTHING) {
            /* NULL literal: all defaults (NULLs). Done here because type_cast_super's
             * Nullable(Nothing) path frees its result column twice. */
            cast[j] = col_new_defaults(et, n);
            continue;
        }
        column *m = col_materialize(col_ref(a[j]));
        if (a[j]->type != et && c->arg_types[j] != et) {
            cast[j] = type_cast_super(m, c->arg_types[j], et, c->env ? c->env->timezone : NULL);
            col_free(m);
            if (!cast[j]) {
                for (int q = 0; q < j; q++)
                    col_free(cast[q]);
                col_free(res);
                return -1;
            }
        } else {
            cast[j] = m;
        }
    }
    for (size_t i = 0; i < n; i++) {
        for (int j = 0; j < k; j++)
            col_push_from(res->inner, cast[j], i);
        col_array_commit(res);
    }
    for (int j = 0; j < k; j++)
        col_free(cast[j]);
    *out = res;
    return 0;
}

static int array_resolve(fn_call *c)
{
    if (c->nargs > 64)
        return err_set(ERR_NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Too many arguments for function array: %d", c->nargs);
    const type *et = type_simple(T_NOTHING);
    if (c->nargs > 0) {
        et = type_supertype_consts(c->nargs, c->arg_types, c->const_args);
        if (!et)
            return -1;
    }
    c->ret = type_array(et);
    c->exec = array_exec;
    return 0;
}

/* ---- arrayElement ---- */

static int element_exec(const fn_call *c, column **a, size_t n, column **out)
{
    const type *it = c->arg_types[1];
    column *res = col_new(c->ret);
    col_reserve(res, n);
    const column *in = a[0]->inner;
    const uint64_t *o = col_offs(a[0]);
    bool sgn = type_is_signed(it);
    for (size_t i = 0; i < n; i++) {
        size_t r = col_idx(a[0], i);
        uint64_t b = o[r], len = o[r + 1] - o[r];
        int64_t s = sgn ? col_get_i64(a[1], col_idx(a[1], i)) : 0;
        uint64_t u = sgn ? 0 : col_get_u64(a[1], col_idx(a[1], i));
        bool ok = false;
        uint64_t at = 0;
        if (sgn && s < 0) {
            uint64_t back = (uint64_t)0 - (uint64_t)s;
            if (back <= len)
                ok = true, at = len - back;
        } else {
            uint64_t pos = sgn ? (uint64_t)s : u;
            if (pos >= 1 && pos <= len)
                ok = true, at = pos - 1;
        }
        if (ok)
            col_push_from(res, in, b + at);
        else
            col_push_default(res);
    }
    *out = res;
    return 0;
}

static int element_resolve(fn_call *c)
{
    if (c->nargs != 2)
        return fn_bad_nargs(c, "2");
    const type *at = c->arg_types[0], *it = c->arg_types[1];
    if (at->id == T_MAP)
        return map_element_resolve(c);
    if (at->id != T_ARRAY)
        return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "First argument for function %s must be array, got %s instead",
                       c->name, at->name);
    if (!num_is_int(it) || num_size(it) > 8)
        return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "Second argument for function %s must be integer, got %s instead",
                       c->name, it->name);
    c->ret = at->inner;
    c->exec = element_exec;
    return 0;
}

/* ---- has / indexOf / countEqual ---- */

enum { SEARCH_HAS, SEARCH_INDEX, SEARCH_COUNT };

typedef struct search_state {
    int kind;
    const type *super; /* common type of elements and the value */
} search_state;

static int search_exec(const fn_call *c, column **a, size_t n, column **out)
{
    const search_state *st = c->state;
    const type *et = c->arg_types[0]->inner, *vt = c->arg_types[1];
    column *arr = col_materialize(col_ref(a[0]));
    column *elems = arr->inner->type == st->super ? col_ref(arr->inner) : type_cast_super(arr->inner, et, st->super, c->env ? c->env->timezone : NULL);
    column *vals = cast_to(c, col_materialize(col_ref(a[1])), vt, st->super, n);
    if (!elems || !vals) {
        col_free(elems);
        col_free(vals);
        col_free(arr);
        return -1;
    }
    const uint64_t *o = col_offs(arr);
    column *res;
    if (st->kind == SEARCH_HAS) {
        uint8_t *d;
        res = num_new_u8(n, &d);
        for (size_t i = 0; i < n; i++) {
            d[i] = 0;
            for (uint64_t e = o[i]; e < o[i + 1]; e++)
                if (col_equal_rows(elems, e, vals, i)) {
                    d[i] = 1;
                    break;
                }
        }
    } else {
        res = col_new(type_simple(T_UINT64));
        uint64_t *d = buf_grow(&res->data, n * 8);
        res->len = n;
        for (size_t i = 0; i < n; i++) {
            d[i] = 0;
            for (uint64_t e = o[i]; e < o[i + 1]; e++)
                if (col_equal_rows(elems, e, vals, i)) {
                    if (st->kind == SEARCH_INDEX) {
                        d[i] = e - o[i] + 1;
                        break;
                    }
                    d[i]++;
                }
        }
    }
    col_free(elems);
    col_free(vals);
    col_free(arr);
    *out = res;
    return 0;
}

static int search_resolve(fn_call *c)
{
    if (c->nargs != 2)
        return fn_bad_nargs(c, "2");
    if (c->arg_types[0]->id != T_ARRAY)
        return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "First argument for function %s must be an array.", c->name);
    const type *pair[2] = {c->arg_types[0]->inner, c->arg_types[1]};
    column *consts[2] = {NULL, c->const_args ? c->const_args[1] : NULL};
    const type *sup = type_supertype_consts(2, pair, consts);
    const type *eb = type_base(pair[0]), *vb = type_base(pair[1]);
    if (!sup && num_is_int(eb) && num_is_int(vb) && num_size(eb) <= 8 && num_size(vb) <= 8) {
        /* ClickHouse compares any two integers (Int32 with UInt64 too): Int128 holds both */
        err_clear();
        sup = type_simple(T_INT128);
        if (type_is_nullable(pair[0]) || type_is_nullable(pair[1]))
            sup = type_nullable(sup);
    }
    if (!sup)
        return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "Types of array and 2nd argument of function `%s` must be "
                       "identical up to nullability, cardinality, numeric types, or Enum and numeric type. "
                       "Passed: %s and %s.", c->name, c->arg_types[0]->name, c->arg_types[1]->name);
    search_state *st = xcalloc(1, sizeof *st);
    c->state = st;
    st->super = sup;
    const char *nm = c->def->name;
    st->kind = !strcmp(nm, "has") ? SEARCH_HAS : !strcmp(nm, "indexOf") ? SEARCH_INDEX : SEARCH_COUNT;
    c->ret = type_simple(st->kind == SEARCH_HAS ? T_UINT8 : T_UINT64);
    c->exec = search_exec;
    return 0;
}

/* ---- arraySum ---- */

static int sum_exec(const fn_call *c, column **a, size_t n, column **out)
{
    const type *et = type_phys(c->arg_types[0]->inner);
    const column *in = a[0]->inner;
    const uint64_t *o = col_offs(a[0]);
    size_t ne = o[n] - o[0];
    column *res = col_new(c->ret);
    void *d = buf_grow(&res->data, n * 8);
    res->len = n;
    const uint8_t *p = in->data.p + o[0] * et->width;
    if (num_is_float(et)) {
        double *v = mem_alloc(ne * sizeof *v + 1), *r = d;
        num_load_f64(et, p, ne, v);
        for (size_t i = 0; i < n; i++) {
            double s = 0;
            for (uint64_t e = o[i]; e < o[i + 1]; e++)
                s += v[e - o[0]];
            r[i] = s;
        }
        mem_free(v);
    } else {
        /* two's-complement sums wrap identically for Int64 and UInt64 results */
        uint64_t *v = mem_alloc(ne * sizeof *v + 1), *r = d;
        if (num_is_uint(et))
            num_load_u64(et, p, ne, v);
        else
            num_load_i64(et, p, ne, (int64_t *)v);
        for (size_t i = 0; i < n; i++) {
            uint64_t s = 0;
            for (uint64_t e = o[i]; e < o[i + 1]; e++)
                s += v[e - o[0]];
            r[i] = s;
        }
        mem_free(v);
    }
    *out = res;
    return 0;
}

static int sum_resolve(fn_call *c)
{
    if (c->nargs != 1)
        return fn_bad_nargs(c, "1");
    const type *at = c->arg_types[0];
    if (at->id != T_ARRAY || at->inner->id == T_NULLABLE || type_phys(at->inner)->width == 0 ||
        !(num_is_int(type_phys(at->inner)) || num_is_float(type_phys(at->inner))) || num_size(type_phys(at->inner)) > 8)
        return fn_bad_types(c);
    const type *et = type_phys(at->inner);
    c->ret = type_simple(num_is_float(et) ? T_FLOAT64 : num_is_uint(et) ? T_UINT64 : T_INT64);
    c->exec = sum_exec;
    return 0;
}

/* ---- range ---- */

#define RANGE_MAX_ELEMENTS 500000000ull

static int range_exec(const fn_call *c, column **a, size_t n, column **out)
{
    const type *et = c->ret->inner;
    column *res = col_new(c->ret);
    col_reserve(res, n);
    int k = c->nargs;
    buf vals = {0};
    uint64_t total = 0;
    for (size_t i = 0; i < n; i++) {
        int64_t start = 0, end, step = 1;
        bool uns = num_is_uint(et);
        if (k == 1) {
            end = col_get_i64(a[0], col_idx(a[0], i));
        } else {
            start = col_get_i64(a[0], col_idx(a[0], i));
            end = col_get_i64(a[1], col_idx(a[1], i));
            if (k == 3)
                step = col_get_i64(a[2], col_idx(a[2], i));
        }
        if (step == 0)
            return col_free(res), buf_free(&vals),
                   err_set(ERR_BAD_ARGUMENTS, "A call to function %s overflows, investigate the values of arguments "
                           "you are passing", c->name);
        vals.len = 0;
        if (uns || step > 0) {
            for (int64_t x = start; uns ? (uint64_t)x < (uint64_t)end : x < end; x += step) {
                if (++total > RANGE_MAX_ELEMENTS)
                    goto too_big;
                buf_append(&vals, &x, 8);
                if (x > INT64_MAX - step)
                    break;
            }
        } else {
            for (int64_t x = start; x > end; x += step) {
                if (++total > RANGE_MAX_ELEMENTS)
                    goto too_big;
                buf_append(&vals, &x, 8);
                if (x < INT64_MIN - step)
                    break;
            }
        }
        column *part = num_store_i64(et, (const int64_t *)(void *)vals.p, vals.len / 8);
        col_push_range(res->inner, part, 0, part->len);
        col_free(part);
        col_array_commit(res);
    }
    buf_free(&vals);
    *out = res;
    return 0;
too_big:
    buf_free(&vals);
    col_free(res);
    return err_set(ERR_BAD_ARGUMENTS, "A call to function %s would produce more than %llu array elements", c->name,
                   (unsigned long long)RANGE_MAX_ELEMENTS);
}

static int range_resolve(fn_call *c)
{
    if (c->nargs < 1 || c->nargs > 3)
        return fn_bad_nargs(c, "1, 2 or 3");
    for (int i = 0; i < c->nargs; i++)
        if (!num_is_int(c->arg_types[i]) || c->arg_types[i]->id == T_BOOL || num_size(c->arg_types[i]) > 8)
            return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type %s of argument of function %s",
                           c->arg_types[i]->name, c->name);
    const type *t = type_supertype(c->nargs, c->arg_types);
    if (!t)
        return -1;
    c->ret = type_array(t);
    c->exec = range_exec;
    return 0;
}

/* ---- arrayStringConcat ---- */

static int concat_exec(const fn_call *c, column **a, size_t n, column **out)
{
    size_t sl = 0;
    const char *sep = c->nargs > 1 ? fn_const_str(c, 1, &sl) : "";
    if (!sep)
        sep = "", sl = 0;
    column *res = col_new(type_simple(T_STRING));
    col_reserve(res, n);
    /* Array(Nullable(String)): NULL elements are left out, separators too (ClickHouse's) */
    const column *in = a[0]->inner;
    const uint8_t *nulls = type_phys(in->type)->id == T_NULLABLE ? in->nulls.p : NULL;
    if (nulls)
        in = in->inner;
    buf tmp = {0};
    for (size_t i = 0; i < n; i++) {
        size_t r = col_idx(a[0], i);
        const uint64_t *o = col_offs(a[0]);
        tmp.len = 0;
        bool first = true;
        for (uint64_t e = o[r]; e < o[r + 1]; e++) {
            if (nulls && nulls[e])
                continue;
            if (!first)
                buf_append(&tmp, sep, sl);
            first = false;
            size_t l;
            const char *s = col_str(in, e, &l);
            buf_append(&tmp, s, l);
        }
        col_push_str(res, (const char *)tmp.p, tmp.len);
    }
    buf_free(&tmp);
    *out = res;
    return 0;
}

static int concat_resolve(fn_call *c)
{
    if (c->nargs < 1 || c->nargs > 2)
        return fn_bad_nargs(c, "1 or 2");
    const type *at = c->arg_types[0];
    if (at->id != T_ARRAY || !type_is_string(type_phys(at->inner)))
        return fn_bad_types(c);
    if (c->nargs == 2 && (!type_is_string(c->arg_types[1]) || !c->const_args[1]))
        return err_set(ERR_ILLEGAL_COLUMN, "Second argument for function %s must be constant string.", c->name);
    c->ret = type_simple(T_STRING);
    c->exec = concat_exec;
    return 0;
}

/* ---- splitByChar / splitByString ---- */

static int split_exec(const fn_call *c, column **a, size_t n, column **out)
{
    size_t sl = 0;
    const char *sep = fn_const_str(c, 0, &sl);
    column *res = col_new(c->ret);
    col_reserve(res, n);
    for (size_t i = 0; i < n; i++) {
        size_t l;
        const char *s = col_str(a[1], i, &l);
        if (sl == 0) {
            /* empty separator: one element per UTF-8 character */
            size_t b = 0;
            while (b < l) {
                size_t e = b + 1;
                while (e < l && ((unsigned char)s[e] & 0xC0) == 0x80)
                    e++;
                col_push_str(res->inner, s + b, e - b);
                b = e;
            }
        } else {
            size_t b = 0;
            for (;;) {
                const char *f = l - b >= sl ? memmem(s + b, l - b, sep, sl) : NULL;
                if (!f) {
                    col_push_str(res->inner, s + b, l - b);
                    break;
                }
                size_t at = (size_t)(f - s);
                col_push_str(res->inner, s + b, at - b);
                b = at + sl;
            }
        }
        col_array_commit(res);
    }
    *out = res;
    return 0;
}

static int split_resolve(fn_call *c)
{
    if (c->nargs != 2)
        return fn_bad_nargs(c, "2");
    if (c->arg_types[0]->id != T_STRING || c->arg_types[1]->id != T_STRING)
        return fn_bad_types(c);
    if (!c->const_args[0])
        return err_set(ERR_ILLEGAL_COLUMN, "Illegal column %s of first argument of function %s. Must be constant string.",
                       c->arg_types[0]->name, c->name);
    size_t sl = 0;
    fn_const_str(c, 0, &sl);
    if (!strcmp(c->def->name, "splitByChar") && sl != 1)
        return err_set(ERR_BAD_ARGUMENTS, "Illegal separator for function %s. Must be exactly one byte.", c->name);
    c->ret = type_array(type_simple(T_STRING));
    c->exec = split_exec;
    return 0;
}

void func_register_array(void)
{
    static const func_def defs[] = {
        {"array", FN_OWN_NULLS, array_resolve, NULL, "array of the arguments ([a, b])"},
        {"arrayElement", 0, element_resolve, NULL, "element of an array by 1-based index (a[i])"},
        {"has", FN_OWN_NULLS, search_resolve, free, "1 if the array contains the value"},
        {"indexOf", FN_OWN_NULLS, search_resolve, free, "1-based position of the value in the array, or 0"},
        {"countEqual", FN_OWN_NULLS, search_resolve, free, "number of array elements equal to the value"},
        {"arraySum", 0, sum_resolve, NULL, "sum of the array's elements"},
        {"range", 0, range_resolve, NULL, "array of integers from start to end (exclusive) by step"},
        {"arrayStringConcat", 0, concat_resolve, NULL, "joins an array of strings with a separator"},
        {"splitByChar", 0, split_resolve, NULL, "splits a string by a one-byte separator"},
        {"splitByString", 0, split_resolve, NULL, "splits a string by a separator string"},
    };
    for (size_t i = 0; i < sizeof defs / sizeof defs[0]; i++)
        func_register(&defs[i]);
    func_register_array_more();
}

/* ==== arrayMin/arrayMax, arrayConcat, arrayReverse, arraySort, arrayDistinct, arrayUniq,
 * arrayPushBack/arrayPushFront, arraySlice, emptyArray<T>() ==== */

/* arrayMin/arrayMax: NULL elements are skipped (all NULL or empty -> NULL for Nullable
 * elements, the type's default otherwise); a NaN is replaced by any later number, as in
 * ClickHouse where arrayMin([nan, 1]) = 1 but arrayMin([nan]) = nan. */
static bool elem_is_nan(const column *in, size_t e)
{
    const type *t = type_phys(in->type);
    if (t->id == T_FLOAT64)
        return isnan(COL_DATA(in, double)[e]);
    if (t->id == T_FLOAT32)
        return isnan(COL_DATA(in, float)[e]);
    return false;
}

static int minmax_exec(const fn_call *c, column **a, size_t n, column **out)
{
    bool is_max = c->state != NULL;
    const column *in = a[0]->inner;
    bool nullable = type_phys(in->type)->id == T_NULLABLE;
    const column *vals = nullable ? in->inner : in;
    const uint64_t *o = col_offs(a[0]);
    column *res = col_new(c->ret);
    col_reserve(res, n);
    for (size_t i = 0; i < n; i++) {
        int64_t best = -1;
        bool best_nan = false;
        for (uint64_t e = o[i]; e < o[i + 1]; e++) {
            if (nullable && in->nulls.p[e])
                continue;
            bool nan = elem_is_nan(vals, e);
            if (best < 0 || (best_nan && !nan)) {
                best = (int64_t)e, best_nan = nan;
                continue;
            }
            if (nan)
                continue;
            int r = col_compare(vals, e, vals, (size_t)best, 1);
            if (is_max ? r > 0 : r < 0)
                best = (int64_t)e;
        }
        if (best < 0)
            col_push_default(res);
        else
            col_push_from(res, in, (size_t)best);
    }
    *out = res;
    return 0;
}

static int minmax_resolve(fn_call *c)
{
    if (c->nargs != 1)
        return fn_bad_nargs(c, "1");
    const type *at = c->arg_types[0];
    if (at->id != T_ARRAY)
        return fn_bad_types(c);
    const type *et = type_base(at->inner);
    if (et->id == T_ARRAY || et->id == T_TUPLE)
        return fn_bad_types(c);
    c->ret = at->inner->id == T_NOTHING ? type_nullable(at->inner) : at->inner;
    c->state = !strcmp(c->def->name, "arrayMax") ? (void *)1 : NULL;
    c->exec = minmax_exec;
    return 0;
}

/* Casts column m (type from) to type to; a NULL literal (Nullable(Nothing)) becomes NULLs.
 * Takes m. */
static column *cast_to(const fn_call *c, column *m, const type *from, const type *to, size_t n)
{
    if (from == to || m->type == to)
        return m;
    if (type_base(from)->id == T_NOTHING && from->id != T_ARRAY) {
        col_free(m);
        return col_new_defaults(to, n);
    }
    column *r = type_cast_super(m, from, to, c->env ? c->env->timezone : NULL);
    col_free(m);
    return r;
}

static int aconcat_exec(const fn_call *c, column **a, size_t n, column **out)
{
    column *cast[64];
    for (int j = 0; j < c->nargs; j++) {
        cast[j] = cast_to(c, col_materialize(col_ref(a[j])), c->arg_types[j], c->ret, n);
        if (!cast[j]) {
            for (int q = 0; q < j; q++) col_free(cast[q]);
            return -1;
        }
    }
    column *res = col_new(c->ret);
    col_reserve(res, n);
    for (size_t i = 0; i < n; i++) {
        for (int j = 0; j < c->nargs; j++) {
            const uint64_t *o = col_offs(cast[j]);
            col_push_range(res->inner, cast[j]->inner, o[i], o[i + 1] - o[i]);
        }
        col_array_commit(res);
    }
    for (int j = 0; j < c->nargs; j++) col_free(cast[j]);
    *out = res;
    return 0;
}

static int aconcat_resolve(fn_call *c)
{
    if (c->nargs < 1)
        return err_set(ERR_NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Function %s requires at least one argument", c->name);
    if (c->nargs > 64)
        return fn_bad_nargs(c, "at most 64");
    for (int j = 0; j < c->nargs; j++)
        if (c->arg_types[j]->id != T_ARRAY)
            return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "Argument %d for function %s must be an array but it has type %s.",
                           j, c->name, c->arg_types[j]->name);
    const type *t = type_supertype(c->nargs, c->arg_types);
    if (!t)
        return -1;
    c->ret = t;
    c->exec = aconcat_exec;
    return 0;
}

static int reverse_exec(const fn_call *c, column **a, size_t n, column **out)
{
    const column *in = a[0]->inner;
    const uint64_t *o = col_offs(a[0]);
    column *res = col_new(c->ret);
    col_reserve(res, n);
    for (size_t i = 0; i < n; i++) {
        for (uint64_t e = o[i + 1]; e > o[i]; e--)
            col_push_from(res->inner, in, e - 1);
        col_array_commit(res);
    }
    *out = res;
    return 0;
}

/* arraySort: ascending, NaN after numbers, NULL last (ClickHouse's nan_direction_hint 1). */
static int sort_cmp(const void *x, const void *y, void *ctx)
{
    uint64_t i = *(const uint64_t *)x, j = *(const uint64_t *)y;
    int r = col_compare(ctx, i, ctx, j, 1);
    return r ? r : (i > j) - (i < j); /* stable */
}

static int sort_exec(const fn_call *c, column **a, size_t n, column **out)
{
    const column *in = a[0]->inner;
    const uint64_t *o = col_offs(a[0]);
    column *res = col_new(c->ret);
    col_reserve(res, n);
    bool rev = c->state != NULL;
    buf idx = {0};
    for (size_t i = 0; i < n; i++) {
        size_t len = o[i + 1] - o[i];
        uint64_t *ix = buf_grow(&idx, len * 8 + 8);
        idx.len = 0;
        for (size_t k = 0; k < len; k++) ix[k] = o[i] + k;
        qsort_r(ix, len, 8, sort_cmp, (void *)in);
        if (rev) {
            /* arrayReverseSort: descending, but NaN and NULL still last */
            size_t m = 0;
            while (m < len && !(type_phys(in->type)->id == T_NULLABLE && in->nulls.p[ix[m]]) &&
                   !elem_is_nan(type_phys(in->type)->id == T_NULLABLE ? in->inner : in, ix[m]))
                m++;
            for (size_t k = 0; k < m / 2; k++) {
                uint64_t t = ix[k];
                ix[k] = ix[m - 1 - k];
                ix[m - 1 - k] = t;
            }
        }
        for (size_t k = 0; k < len; k++) col_push_from(res->inner, in, ix[k]);
        col_array_commit(res);
    }
    buf_free(&idx);
    *out = res;
    return 0;
}

static int array1_resolve(fn_call *c)
{
    if (c->nargs != 1)
        return fn_bad_nargs(c, "1");
    if (c->arg_types[0]->id != T_ARRAY)
        return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "Argument for function %s must be array.", c->name);
    c->ret = c->arg_types[0];
    if (!strcmp(c->def->name, "arrayReverse")) {
        c->exec = reverse_exec;
    } else {
        c->exec = sort_exec;
        c->state = !strcmp(c->def->name, "arrayReverseSort") ? (void *)1 : NULL;
    }
    return 0;
}

/* Distinct rows of an array slice, by hash: a small open-addressing table of element
 * positions, rebuilt per array row. */
typedef struct dset {
    uint64_t *slots; /* position + 1, 0 = empty */
    size_t cap;
} dset;

static void dset_reset(dset *s, size_t len)
{
    size_t cap = 16;
    while (cap < len * 2) cap <<= 1;
    if (cap > s->cap) {
        mem_free(s->slots);
        s->slots = mem_alloc(cap * 8);
        s->cap = cap;
    }
    memset(s->slots, 0, s->cap * 8);
}

/* Inserts position e (element e of each of the k columns); returns true when new. */
static bool dset_insert(dset *s, column *const *cols, int k, uint64_t e)
{
    uint64_t h = 0x9E3779B97F4A7C15ull;
    for (int j = 0; j < k; j++)
        h = (h ^ col_hash_row(cols[j], e)) * 0xff51afd7ed558ccdull;
    size_t m = s->cap - 1, p = (size_t)(h ^ (h >> 29)) & m;
    for (;; p = (p + 1) & m) {
        if (!s->slots[p]) {
            s->slots[p] = e + 1;
            return true;
        }
        uint64_t f = s->slots[p] - 1;
        bool eq = true;
        for (int j = 0; j < k && eq; j++)
            eq = col_equal_rows(cols[j], f, cols[j], e);
        if (eq)
            return false;
    }
}

static int distinct_exec(const fn_call *c, column **a, size_t n, column **out)
{
    column *in = a[0]->inner;
    bool nullable = type_phys(in->type)->id == T_NULLABLE;
    column *vals = nullable ? in->inner : in;
    const uint64_t *o = col_offs(a[0]);
    column *res = col_new(c->ret);
    col_reserve(res, n);
    dset s = {0};
    for (size_t i = 0; i < n; i++) {
        dset_reset(&s, o[i + 1] - o[i]);
        for (uint64_t e = o[i]; e < o[i + 1]; e++) {
            if (nullable && in->nulls.p[e])
                continue;
            if (dset_insert(&s, &vals, 1, e))
                col_push_from(res->inner, vals, e);
        }
        col_array_commit(res);
    }
    mem_free(s.slots);
    *out = res;
    return 0;
}

static int distinct_resolve(fn_call *c)
{
    if (c->nargs != 1)
        return fn_bad_nargs(c, "1");
    if (c->arg_types[0]->id != T_ARRAY)
        return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "Argument for function %s must be array but it has type %s.",
                       c->name, c->arg_types[0]->name);
    const type *et = c->arg_types[0]->inner;
    c->ret = type_array(type_phys(et)->id == T_NULLABLE ? type_phys(et)->inner : et);
    c->exec = distinct_exec;
    return 0;
}

static int uniq_exec(const fn_call *c, column **a, size_t n, column **out)
{
    int k = c->nargs;
    column *cols[64];
    const uint64_t *o0 = col_offs(a[0]);
    for (int j = 0; j < k; j++) {
        const uint64_t *o = col_offs(a[j]);
        for (size_t i = 0; i < n; i++)
            if (o[i + 1] - o[i] != o0[i + 1] - o0[i]) {
                for (int m = 0; m < j; m++)
                    col_free(cols[m]);
                return err_set(ERR_SIZES_OF_ARRAYS_DONT_MATCH, "Lengths of all arrays passed to %s must be equal.", c->name);
            }
        cols[j] = col_ref(a[j]->inner); /* equal lengths: element positions line up */
    }
    column *res = col_new(c->ret);
    uint32_t *d = buf_grow(&res->data, n * 4);
    res->len = n;
    dset s = {0};
    for (size_t i = 0; i < n; i++) {
        dset_reset(&s, o0[i + 1] - o0[i]);
        uint32_t cnt = 0;
        for (uint64_t e = o0[i]; e < o0[i + 1]; e++) {
            cnt += dset_insert(&s, cols, k, e);
        }
        d[i] = cnt;
    }
    mem_free(s.slots);
    for (int j = 0; j < k; j++) col_free(cols[j]);
    *out = res;
    return 0;
}

static int uniq_resolve(fn_call *c)
{
    if (c->nargs < 1 || c->nargs > 64)
        return fn_bad_nargs(c, "at least 1");
    for (int j = 0; j < c->nargs; j++)
        if (c->arg_types[j]->id != T_ARRAY)
            return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "The arguments for function %s must be arrays.", c->name);
    c->ret = type_simple(T_UINT32);
    c->exec = uniq_exec;
    return 0;
}

static int push_exec(const fn_call *c, column **a, size_t n, column **out)
{
    bool front = c->state != NULL;
    column *arr = cast_to(c, col_materialize(col_ref(a[0])), c->arg_types[0], c->ret, n);
    if (!arr)
        return -1;
    column *v = cast_to(c, col_materialize(col_ref(a[1])), c->arg_types[1], c->ret->inner, n);
    if (!v) {
        col_free(arr);
        return -1;
    }
    const uint64_t *o = col_offs(arr);
    column *res = col_new(c->ret);
    col_reserve(res, n);
    for (size_t i = 0; i < n; i++) {
        if (front)
            col_push_from(res->inner, v, i);
        col_push_range(res->inner, arr->inner, o[i], o[i + 1] - o[i]);
        if (!front)
            col_push_from(res->inner, v, i);
        col_array_commit(res);
    }
    col_free(arr);
    col_free(v);
    *out = res;
    return 0;
}

static int push_resolve(fn_call *c)
{
    if (c->nargs != 2)
        return fn_bad_nargs(c, "2");
    if (c->arg_types[0]->id != T_ARRAY)
        return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "First argument for function %s must be an array but it has type %s.",
                       c->name, c->arg_types[0]->name);
    const type *pair[2] = {c->arg_types[0]->inner, c->arg_types[1]};
    const type *et = type_supertype(2, pair);
    if (!et)
        return -1;
    c->ret = type_array(et);
    c->state = !strcmp(c->def->name, "arrayPushFront") ? (void *)1 : NULL;
    c->exec = push_exec;
    return 0;
}

static int slice_exec(const fn_call *c, column **a, size_t n, column **out)
{
    const column *in = a[0]->inner;
    const uint64_t *o = col_offs(a[0]);
    column *res = col_new(c->ret);
    col_reserve(res, n);
    for (size_t i = 0; i < n; i++) {
        int64_t size = (int64_t)(o[i + 1] - o[i]);
        int64_t off = col_get_i64(a[1], i), start, end;
        if (off == 0) {
            col_array_commit(res);
            continue;
        }
        start = off > 0 ? off - 1 : size + off;
        if (c->nargs < 3) {
            end = size;
        } else {
            int64_t len = col_get_i64(a[2], i);
            end = len >= 0 ? (start > INT64_MAX - len ? INT64_MAX : start + len) : size + len;
        }
        if (start < 0) start = 0;
        if (end > size) end = size;
        if (end > start)
            col_push_range(res->inner, in, o[i] + (uint64_t)start, (size_t)(end - start));
        col_array_commit(res);
    }
    *out = res;
    return 0;
}

static int slice_resolve(fn_call *c)
{
    if (c->nargs != 2 && c->nargs != 3)
        return fn_bad_nargs(c, "2 or 3");
    if (c->arg_types[0]->id != T_ARRAY)
        return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "First argument for function %s must be an array but it has type %s.",
                       c->name, c->arg_types[0]->name);
    for (int j = 1; j < c->nargs; j++)
        if (!num_is_int(c->arg_types[j]) || c->arg_types[j]->id == T_UINT128 || c->arg_types[j]->id == T_INT128)
            return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "Argument %d for function %s must be integer but it has type %s.",
                           j + 1, c->name, c->arg_types[j]->name);
    c->ret = c->arg_types[0];
    c->exec = slice_exec;
    return 0;
}

static int empty_exec(const fn_call *c, column **a, size_t n, column **out)
{
    (void)a;
    column *one = col_new(c->ret);
    col_array_commit(one);
    *out = col_new_const(one, n);
    return 0;
}

static int empty_resolve(fn_call *c)
{
    if (c->nargs != 0)
        return fn_bad_nargs(c, "0");
    const type *t = type_parse_cstr(c->def->name + strlen("emptyArray"));
    if (!t)
        return -1;
    c->ret = type_array(t);
    c->exec = empty_exec;
    return 0;
}

void func_register_array_more(void)
{
    static const func_def defs[] = {
        {"arrayMin", 0, minmax_resolve, NULL, "smallest element of an array (NULLs skipped)"},
        {"arrayMax", 0, minmax_resolve, NULL, "largest element of an array (NULLs skipped)"},
        {"arrayConcat", 0, aconcat_resolve, NULL, "concatenates arrays"},
        {"arrayReverse", 0, array1_resolve, NULL, "array in reverse order"},
        {"arraySort", 0, array1_resolve, NULL, "array sorted ascending (NaN, then NULL last)"},
        {"arrayReverseSort", 0, array1_resolve, NULL, "array sorted descending (NaN, then NULL last)"},
        {"arrayDistinct", 0, distinct_resolve, NULL, "distinct elements, in order of first occurrence, NULLs dropped"},
        {"arrayUniq", 0, uniq_resolve, NULL, "number of distinct elements (or tuples of elements across arrays)"},
        {"arrayPushBack", FN_OWN_NULLS, push_resolve, NULL, "appends a value to an array"},
        {"arrayPushFront", FN_OWN_NULLS, push_resolve, NULL, "prepends a value to an array"},
        {"arraySlice", 0, slice_resolve, NULL, "arraySlice(arr, offset[, length]): part of an array"},
        {"emptyArrayUInt8", 0, empty_resolve, NULL, "an empty Array(UInt8)"},
        {"emptyArrayUInt16", 0, empty_resolve, NULL, "an empty Array(UInt16)"},
        {"emptyArrayUInt32", 0, empty_resolve, NULL, "an empty Array(UInt32)"},
        {"emptyArrayUInt64", 0, empty_resolve, NULL, "an empty Array(UInt64)"},
        {"emptyArrayInt8", 0, empty_resolve, NULL, "an empty Array(Int8)"},
        {"emptyArrayInt16", 0, empty_resolve, NULL, "an empty Array(Int16)"},
        {"emptyArrayInt32", 0, empty_resolve, NULL, "an empty Array(Int32)"},
        {"emptyArrayInt64", 0, empty_resolve, NULL, "an empty Array(Int64)"},
        {"emptyArrayFloat32", 0, empty_resolve, NULL, "an empty Array(Float32)"},
        {"emptyArrayFloat64", 0, empty_resolve, NULL, "an empty Array(Float64)"},
        {"emptyArrayDate", 0, empty_resolve, NULL, "an empty Array(Date)"},
        {"emptyArrayDateTime", 0, empty_resolve, NULL, "an empty Array(DateTime)"},
        {"emptyArrayString", 0, empty_resolve, NULL, "an empty Array(String)"},
    };
    for (size_t i = 0; i < sizeof defs / sizeof defs[0]; i++)
        func_register(&defs[i]);
}
