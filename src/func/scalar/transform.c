/* transform(x, from, to[, default]): maps the values listed in the constant array `from`
 * to those at the same position in `to`; other values give `default` (4 arguments) or x
 * itself (3 arguments), as ClickHouse's FunctionTransform.
 *
 * Types: x and from's elements are compared as their least supertype (both numbers or
 * both strings); the result is the supertype of to's elements and default (4 arguments)
 * or x's type, which to's elements must fit (3 arguments). A Nullable x is an error with
 * 3 arguments, as in ClickHouse (the signature is printed); with 4 a NULL x matches a NULL
 * in from, else gives the default. NULLs inside to or default make the result Nullable. The two arrays must be constants of equal size.
 *
 * The resolver casts both arrays once and builds an open-addressing table from from's
 * values to their first position; the kernel probes it per row. The state is read-only
 * after resolution, so calls are shared by threads safely. */
#include "func/func.h"
#include "func/supertype.h"

#include "base/err.h"
#include "base/mem.h"

#include <stdlib.h>
#include <string.h>

typedef struct tf_state {
    column *from;      /* from's elements as the comparison type */
    column *to;        /* to's elements as the result type */
    const type *cmp;   /* comparison type of x and from */
    uint32_t *slots;   /* open addressing: element index + 1, 0 = empty */
    size_t mask;
} tf_state;

static void tf_free(void *p)
{
    tf_state *s = p;
    if (!s)
        return;
    if (s->from)
        col_free(s->from);
    if (s->to)
        col_free(s->to);
    free(s->slots);
    free(s);
}

static int signature_error(const fn_call *c)
{
    return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT,
                   "Function %s has signature: transform(T, Array(T), Array(U), U) -> U; or transform(T, Array(T), "
                   "Array(T)) -> T; where T and U are types",
                   c->name);
}

/* The position in s->from of row i of x (already of type s->cmp), or -1. */
static int64_t tf_find(const tf_state *s, const column *x, size_t i)
{
    if (!s->slots)
        return -1;
    for (size_t h = (size_t)col_hash_row(x, i) & s->mask;; h = (h + 1) & s->mask) {
        uint32_t e = s->slots[h];
        if (!e)
            return -1;
        if (col_equal_rows(s->from, e - 1, x, i))
            return (int64_t)e - 1;
    }
}

static int tf_exec(const fn_call *c, column **a, size_t n, column **out)
{
    const tf_state *s = c->state;
    column *x = fn_cast_arg(c, col_ref(a[0]), c->arg_types[0], s->cmp, n);
    if (!x)
        return -1;
    /* what rows not found give: the default, or x itself as the result type */
    column *dflt = c->nargs == 4 ? fn_cast_arg(c, col_ref(a[3]), c->arg_types[3], c->ret, n)
                                 : fn_cast_arg(c, col_ref(a[0]), c->arg_types[0], c->ret, n);
    if (!dflt) {
        col_free(x);
        return -1;
    }
    column *res = col_new(c->ret);
    col_reserve(res, n);
    for (size_t i = 0; i < n; i++) {
        int64_t e = tf_find(s, x, i);
        if (e >= 0)
            col_push_from(res, s->to, (size_t)e);
        else
            col_push_from(res, dflt, i);
    }
    col_free(x);
    col_free(dflt);
    *out = res;
    return 0;
}

/* The elements of constant array argument i, or NULL (then *t is left alone). */
static const column *const_elems(const fn_call *c, int i, size_t *from, size_t *cnt)
{
    const column *k = c->const_args[i];
    if (!k || type_phys(k->type)->id != T_ARRAY || (k->len == 0 && !k->is_const))
        return NULL;
    const uint64_t *o = col_offs(k);
    *from = (size_t)o[0];
    *cnt = (size_t)(o[1] - o[0]);
    return k->inner;
}

static bool same_kind(const type *a, const type *b)
{
    a = type_base(a), b = type_base(b);
    if (a->id == T_NOTHING || b->id == T_NOTHING)
        return true;
    if (type_is_string(a) || type_is_string(b))
        return type_is_string(a) && type_is_string(b);
    return true;
}

static int tf_resolve(fn_call *c)
{
    if (c->nargs != 3 && c->nargs != 4)
        return err_set(ERR_NUMBER_OF_ARGUMENTS_DOESNT_MATCH,
                       "Number of arguments for function %s doesn't match: passed %d, should be 3 or 4", c->name,
                       c->nargs);
    const type *xt = c->arg_types[0];
    if (type_phys(c->arg_types[1])->id != T_ARRAY || type_phys(c->arg_types[2])->id != T_ARRAY ||
        (type_is_nullable(xt) && c->nargs == 3) || type_phys(xt)->id == T_ARRAY || type_phys(xt)->id == T_MAP)
        return signature_error(c);
    for (int i = 1; i <= 2; i++)
        if (!c->const_args[i])
            return err_set(ERR_ILLEGAL_COLUMN, "Argument at index %d for function %s must be constant", i, c->name);
    size_t f0, fn, t0, tn;
    const column *fe = const_elems(c, 1, &f0, &fn), *te = const_elems(c, 2, &t0, &tn);
    if (!fe || !te)
        return signature_error(c);
    if (fn != tn)
        return err_set(ERR_BAD_ARGUMENTS, "Second and third arguments of function %s must be arrays of same size",
                       c->name);
    const type *ft = type_phys(c->arg_types[1])->inner, *tt = type_phys(c->arg_types[2])->inner;
    if (!same_kind(xt, ft))
        return signature_error(c);
    const type *pair[2] = {xt, ft};
    const type *cmp = type_supertype(2, pair);
    if (!cmp && type_is_integer(type_base(xt)) && type_is_integer(type_base(ft)) && type_base(xt)->width <= 8 &&
        type_base(ft)->width <= 8) {
        /* UInt64 against signed values: ClickHouse still matches them by value */
        err_clear();
        cmp = type_is_nullable(xt) ? type_nullable(type_simple(T_INT128)) : type_simple(T_INT128);
    }
    if (!cmp)
        return signature_error(c);
    const type *rt;
    if (c->nargs == 4) {
        const type *dt = c->arg_types[3];
        if (!same_kind(tt, dt))
            return signature_error(c);
        const type *rp[2] = {tt, dt};
        rt = type_supertype(2, rp);
    } else {
        const type *rp[2] = {xt, tt};
        rt = same_kind(xt, tt) ? type_supertype(2, rp) : NULL;
        if (rt && rt != xt)
            rt = NULL;
    }
    if (!rt)
        return signature_error(c);
    tf_state *s = xcalloc(1, sizeof *s);
    s->cmp = cmp;
    column *fs = col_slice(fe, f0, fn), *ts = col_slice(te, t0, tn);
    s->from = fn_cast_arg(c, fs, ft, cmp, fn);
    s->to = s->from ? fn_cast_arg(c, ts, tt, rt, tn) : (col_free(ts), NULL);
    if (!s->from || !s->to) {
        tf_free(s);
        return -1;
    }
    for (size_t i = 0; i < fn; i++)
        if (type_is_nullable(cmp) && col_is_null(s->from, i) && !type_is_nullable(xt)) {
            tf_free(s);
            return err_set(ERR_CANNOT_INSERT_NULL_IN_ORDINARY_COLUMN, "Cannot convert NULL value to non-Nullable type");
        }
    if (fn) {
        size_t cap = 4;
        while (cap < fn * 2)
            cap *= 2;
        s->slots = xcalloc(cap, sizeof *s->slots);
        s->mask = cap - 1;
        for (size_t i = 0; i < fn; i++) {
            size_t h = (size_t)col_hash_row(s->from, i) & s->mask;
            bool dup = false;
            for (; s->slots[h]; h = (h + 1) & s->mask)
                if (col_equal_rows(s->from, s->slots[h] - 1, s->from, i)) {
                    dup = true; /* the first position wins */
                    break;
                }
            if (!dup)
                s->slots[h] = (uint32_t)i + 1;
        }
    }
    c->state = s;
    c->ret = rt;
    c->exec = tf_exec;
    return 0;
}

void func_register_transform(void)
{
    static const func_def def = {"transform", FN_OWN_NULLS, tf_resolve, tf_free,
                                 "maps values listed in one array to those of another"};
    func_register(&def);
}
