/* Conditional and NULL-handling functions: if, multiIf, caseWithExpression, coalesce, ifNull, nullIf, isNull,
 * isNotNull, assumeNotNull, toNullable, greatest, least.
 *
 * Branch results unify to the least supertype (func/supertype.h); each branch column is
 * converted once and rows are then picked per row. A NULL condition counts as false.
 * if/multiIf/coalesce/ifNull/isNull/isNotNull/assumeNotNull/toNullable handle NULLs
 * themselves (FN_OWN_NULLS). */
#include "func/func.h"
#include "func/scalar/num.h"
#include "func/supertype.h"

#include "base/err.h"

#include <stdlib.h>

/* Truth of each row of a condition column (Nullable or not): NULL is false. */
static void cond_truth(const column *c, const type *t, size_t n, uint8_t *out)
{
    const uint8_t *nulls = NULL;
    if (type_phys(t)->id == T_NULLABLE) {
        nulls = c->nulls.p;
        c = c->inner;
        t = type_strip_nullable(t);
    }
    t = type_phys(t);
    bool cst = c->is_const;
    if (t->id == T_NOTHING) {
        memset(out, 0, n);
        return;
    }
    if (t->width == 1) {
        for (size_t i = 0; i < n; i++)
            out[i] = c->data.p[cst ? 0 : i] != 0;
    } else {
        for (size_t i = 0; i < n; i++)
            out[i] = col_get_f64(c, i) != 0;
    }
    if (nulls)
        for (size_t i = 0; i < n; i++)
            if (nulls[cst ? 0 : i])
                out[i] = 0;
}

static bool cond_type_ok(const type *t)
{
    t = type_base(t);
    return num_is_int(t) || num_is_float(t) || t->id == T_NOTHING;
}

/* Builds a column of type rt whose row i is row i of srcs[pick[i]] (srcs have type rt). */
static column *pick_rows(const type *rt, column **srcs, const uint8_t *pick, size_t n)
{
    column *r = col_new(rt);
    const type *p = type_phys(rt);
    if (p->width && p->id != T_NULLABLE) {
        uint32_t w = p->width;
        uint8_t *d = buf_grow(&r->data, n * w);
        for (size_t i = 0; i < n; i++) {
            const column *s = srcs[pick[i]];
            memcpy(d + i * w, s->data.p + col_idx(s, i) * w, w);
        }
        r->len = n;
        return r;
    }
    col_reserve(r, n);
    for (size_t i = 0; i < n; i++)
        col_push_from(r, srcs[pick[i]], i);
    return r;
}

/* Converts args[idx[k]] to rt for k < m into conv[k]; -1 on error. pad: a FixedString
 * keeps its zero padding as a String at the top level (ClickHouse's if, multiIf when it is
 * rewritten to if, coalesce and ifNull); otherwise it is CAST, which drops it (multiIf,
 * CASE, greatest/least). */
static int convert_all(const fn_call *c, column **args, const int *idx, int m, const type *rt, column **conv,
                       bool pad)
{
    const char *zone = c->env ? c->env->timezone : NULL;
    for (int k = 0; k < m; k++) {
        conv[k] = pad ? type_cast_super_padded(args[idx[k]], c->arg_types[idx[k]], rt, zone)
                      : type_cast_super(args[idx[k]], c->arg_types[idx[k]], rt, zone);
        if (!conv[k]) {
            for (int j = 0; j < k; j++)
                col_free(conv[j]);
            return -1;
        }
    }
    return 0;
}

/* ---- if / multiIf ---- */

static int multiif_run(const fn_call *c, column **args, size_t n, bool pad, column **out)
{
    int nb = c->nargs / 2 + 1; /* branches incl. else */
    int idx[64];
    for (int k = 0; k < nb - 1; k++)
        idx[k] = 2 * k + 1;
    idx[nb - 1] = c->nargs - 1;
    column *conv[64];
    if (convert_all(c, args, idx, nb, c->ret, conv, pad) < 0)
        return -1;
    uint8_t *pick = mem_alloc(n ? n : 1), *t = mem_alloc(n ? n : 1), *done = mem_calloc(n ? n : 1);
    memset(pick, (uint8_t)(nb - 1), n);
    for (int k = 0; k < nb - 1; k++) {
        cond_truth(args[2 * k], c->arg_types[2 * k], n, t);
        for (size_t i = 0; i < n; i++)
            if (!done[i] && t[i]) {
                pick[i] = (uint8_t)k;
                done[i] = 1;
            }
    }
    *out = pick_rows(c->ret, conv, pick, n);
    for (int k = 0; k < nb; k++)
        col_free(conv[k]);
    mem_free(pick);
    mem_free(t);
    mem_free(done);
    return 0;
}

/* if() copies FixedString bytes into a String result as they are; multiIf CASTs them (which
 * drops the trailing zero bytes) unless ClickHouse rewrites it to if (below). */
static int multiif_exec(const fn_call *c, column **args, size_t n, column **out)
{
    return multiif_run(c, args, n, false, out);
}

static int if_exec(const fn_call *c, column **args, size_t n, column **out)
{
    return multiif_run(c, args, n, true, out);
}

static int multiif_resolve(fn_call *c)
{
    if (c->nargs < 3 || c->nargs % 2 == 0 || c->nargs > 127) {
        if (!strcmp(c->def->name, "if"))
            return fn_bad_nargs(c, "3");
        return err_set(ERR_NUMBER_OF_ARGUMENTS_DOESNT_MATCH,
                       "Invalid number of arguments for function %s", c->name);
    }
    const type *bt[64];
    int nb = 0;
    for (int i = 0; i < c->nargs - 1; i += 2) {
        if (!cond_type_ok(c->arg_types[i]))
            return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type %s of %s argument of function %s, must be a number",
                           c->arg_types[i]->name, i == 0 ? "first" : "condition", c->name);
        bt[nb++] = c->arg_types[i + 1];
    }
    bt[nb++] = c->arg_types[c->nargs - 1];
    column *bc[64] = {0}; /* the branches' constants */
    for (int i = 1, k = 0; c->const_args && i < c->nargs; i += 2)
        bc[k++] = c->const_args[i];
    if (c->const_args)
        bc[nb - 1] = c->const_args[c->nargs - 1];
    const type *rt = type_supertype_consts(nb, bt, bc);
    if (!rt)
        return -1;
    c->ret = type_phys(rt);
    /* ClickHouse rewrites multiIf(c, a, b) with a non-constant c to if(c, a, b)
     * (optimize_multiif_to_if). */
    bool as_if = !strcmp(c->def->name, "if") ||
                 (c->nargs == 3 && c->env && c->env->multiif_to_if && !(c->const_args && c->const_args[0]));
    c->exec = as_if ? if_exec : multiif_exec;
    return 0;
}

/* ---- caseWithExpression ----
 * CASE x WHEN w1 THEN t1 ... ELSE e END. Each WHEN is compared with x through a resolved
 * equals() call (which converts both sides to a common type); the first true comparison
 * picks its THEN, else the ELSE (NULL when the query has none). A NULL comparison is
 * false. The result type is the supertype of the THEN values and the ELSE. */

typedef struct case_state {
    int nw;          /* number of WHEN branches */
    fn_call **eq;    /* equals(x, w_k) */
} case_state;

static void case_free(void *p)
{
    case_state *st = p;
    if (!st)
        return;
    for (int k = 0; k < st->nw; k++)
        if (st->eq[k])
            fn_call_free(st->eq[k]);
    free(st->eq);
    free(st);
}

static int case_exec(const fn_call *c, column **args, size_t n, column **out)
{
    const case_state *st = c->state;
    int nb = st->nw + 1;
    int idx[64];
    for (int k = 0; k < st->nw; k++)
        idx[k] = 2 * k + 2;
    idx[nb - 1] = c->nargs - 1;
    column *conv[64];
    if (convert_all(c, args, idx, nb, c->ret, conv, false) < 0)
        return -1;
    uint8_t *pick = mem_alloc(n ? n : 1), *t = mem_alloc(n ? n : 1), *done = mem_calloc(n ? n : 1);
    memset(pick, (uint8_t)(nb - 1), n);
    int rc = 0;
    for (int k = 0; k < st->nw; k++) {
        column *eq;
        column *a[2] = {args[0], args[2 * k + 1]};
        if (fn_exec(st->eq[k], a, n, &eq) < 0) {
            rc = -1;
            break;
        }
        cond_truth(eq, eq->type, n, t);
        col_free(eq);
        for (size_t i = 0; i < n; i++)
            if (!done[i] && t[i]) {
                pick[i] = (uint8_t)k;
                done[i] = 1;
            }
    }
    if (rc == 0)
        *out = pick_rows(c->ret, conv, pick, n);
    for (int k = 0; k < nb; k++)
        col_free(conv[k]);
    mem_free(pick);
    mem_free(t);
    mem_free(done);
    return rc;
}

static int case_resolve(fn_call *c)
{
    if (c->nargs < 4 || c->nargs % 2 != 0 || c->nargs > 127)
        return err_set(ERR_NUMBER_OF_ARGUMENTS_DOESNT_MATCH,
                       "Invalid number of arguments for function %s", c->name);
    case_state *st = xcalloc(1, sizeof *st);
    st->nw = (c->nargs - 2) / 2;
    st->eq = xcalloc((size_t)st->nw, sizeof *st->eq);
    c->state = st;
    const type *bt[64];
    int nb = 0;
    for (int k = 0; k < st->nw; k++) {
        const type *et[2] = {c->arg_types[0], c->arg_types[2 * k + 1]};
        if (func_resolve("equals", 2, et, NULL, c->env, &st->eq[k]) < 0)
            return -1;
        bt[nb++] = c->arg_types[2 * k + 2];
    }
    bt[nb++] = c->arg_types[c->nargs - 1];
    const type *rt = type_supertype(nb, bt);
    if (!rt)
        return -1;
    c->ret = type_phys(rt);
    c->exec = case_exec;
    return 0;
}

/* ---- coalesce / ifNull ---- */

static int coalesce_exec(const fn_call *c, column **args, size_t n, column **out)
{
    int m = (int)(intptr_t)c->state, idx[64];
    for (int k = 0; k < m; k++)
        idx[k] = k;
    /* Convert each argument to Nullable(ret) (or ret) so rows can be picked uniformly. */
    const type *full = type_can_be_nullable(c->ret) ? type_nullable(c->ret) : c->ret;
    column *conv[64];
    if (convert_all(c, args, idx, m, full, conv, true) < 0)
        return -1;
    uint8_t *pick = mem_alloc(n ? n : 1), *done = mem_calloc(n ? n : 1);
    memset(pick, (uint8_t)(m - 1), n);
    for (int k = 0; k < m; k++) {
        const column *a = conv[k];
        bool nullable = type_phys(a->type)->id == T_NULLABLE;
        for (size_t i = 0; i < n; i++)
            if (!done[i] && !(nullable && a->nulls.p[col_idx(a, i)])) {
                pick[i] = (uint8_t)k;
                done[i] = 1;
            }
    }
    column *r = pick_rows(full, conv, pick, n);
    if (full != c->ret) {
        /* The result is not Nullable when some argument never is: take the values. */
        column *v = col_ref(r->inner);
        col_free(r);
        r = v;
    }
    *out = r;
    for (int k = 0; k < m; k++)
        col_free(conv[k]);
    mem_free(pick);
    mem_free(done);
    return 0;
}

static int coalesce_resolve(fn_call *c)
{
    if (c->nargs < 1 || c->nargs > 64)
        return fn_bad_nargs(c, "at least 1");
    if (!strcmp(c->def->name, "ifNull") && c->nargs != 2)
        return fn_bad_nargs(c, "2");
    /* As ClickHouse: the arguments after the first that cannot be NULL are never reached,
     * so they take no part in the result type (coalesce(number, -1) is UInt64,
     * ifNull(1, 'x') is UInt8) and are not evaluated. */
    int m = 0;
    bool any_not_null = false;
    while (m < c->nargs && !any_not_null) {
        const type *t = c->arg_types[m++];
        any_not_null = !type_is_nullable(t) && type_base(t)->id != T_NOTHING;
    }
    const type *st = type_supertype(m, c->arg_types);
    if (!st)
        return -1;
    st = type_phys(st);
    c->ret = any_not_null ? type_phys(type_strip_nullable(st)) : st;
    c->state = (void *)(intptr_t)m;
    c->exec = coalesce_exec;
    return 0;
}

/* ---- nullIf ---- */

static int nullif_exec(const fn_call *c, column **args, size_t n, column **out)
{
    column *eq;
    column *a[2] = {args[0], args[1]};
    if (fn_exec((const fn_call *)c->state, a, n, &eq) < 0)
        return -1;
    column *w = col_new(c->ret);
    col_free(w->inner);
    bool nullable = type_phys(c->arg_types[0])->id == T_NULLABLE;
    column *src = col_materialize(col_ref(args[0]));
    w->inner = col_clone(nullable ? src->inner : src);
    w->inner->type = type_phys(c->ret)->inner;
    uint8_t *nm = buf_grow(&w->nulls, n);
    const column *ev = type_phys(eq->type)->id == T_NULLABLE ? eq->inner : eq;
    for (size_t i = 0; i < n; i++)
        nm[i] = (ev->data.p[col_idx(ev, i)] != 0 && !col_is_null(eq, i)) || (nullable && src->nulls.p[i]);
    col_free(src);
    w->len = n;
    col_free(eq);
    *out = w;
    return 0;
}

static void nullif_free(void *p) { fn_call_free(p); }

static int nullif_resolve(fn_call *c)
{
    if (c->nargs != 2)
        return fn_bad_nargs(c, "2");
    fn_call *eq;
    if (func_resolve("equals", 2, c->arg_types, NULL, c->env, &eq) < 0)
        return -1;
    c->state = eq;
    if (!type_can_be_nullable(c->arg_types[0]))
        return fn_bad_types(c);
    c->ret = type_nullable(c->arg_types[0]);
    c->exec = nullif_exec;
    return 0;
}

/* ---- isNull / isNotNull / assumeNotNull / toNullable ---- */

static int isnull_exec(const fn_call *c, column **args, size_t n, column **out)
{
    bool neg = c->state != NULL;
    uint8_t *r;
    *out = num_new_u8(n, &r);
    const column *a = args[0];
    bool nullable = type_phys(c->arg_types[0])->id == T_NULLABLE;
    for (size_t i = 0; i < n; i++)
        r[i] = (nullable && a->nulls.p[col_idx(a, i)]) != neg;
    return 0;
}

static int isnull_resolve(fn_call *c)
{
    if (c->nargs != 1)
        return fn_bad_nargs(c, "1");
    c->ret = type_simple(T_UINT8);
    c->state = strcmp(c->def->name, "isNotNull") == 0 ? (void *)1 : NULL;
    c->exec = isnull_exec;
    return 0;
}

static int assume_exec(const fn_call *c, column **args, size_t n, column **out)
{
    column *a = args[0];
    if (type_phys(c->arg_types[0])->id == T_NULLABLE)
        *out = col_materialize(col_ref(a->inner));
    else
        *out = col_materialize(col_ref(a));
    if ((*out)->refs > 1) {
        column *cp = col_clone(*out);
        col_free(*out);
        *out = cp;
    }
    (*out)->type = c->ret;
    return 0;
}

static int assume_resolve(fn_call *c)
{
    if (c->nargs != 1)
        return fn_bad_nargs(c, "1");
    const type *t = c->arg_types[0];
    c->ret = type_phys(t)->id == T_NULLABLE ? type_phys(type_phys(t)->inner) : type_phys(t);
    c->exec = assume_exec;
    return 0;
}

static int tonullable_exec(const fn_call *c, column **args, size_t n, column **out)
{
    if (type_phys(c->arg_types[0])->id == T_NULLABLE || !type_can_be_nullable(c->arg_types[0])) {
        *out = col_clone(args[0]);
        (*out)->type = c->ret;
        return 0;
    }
    column *w = col_new(c->ret);
    col_free(w->inner);
    w->inner = col_clone(args[0]);
    w->inner->type = type_phys(c->arg_types[0]);
    buf_resize_zero(&w->nulls, n);
    w->len = n;
    *out = w;
    return 0;
}

static int tonullable_resolve(fn_call *c)
{
    if (c->nargs != 1)
        return fn_bad_nargs(c, "1");
    const type *t = type_phys(c->arg_types[0]);
    c->ret = type_can_be_nullable(t) ? type_nullable(t) : t;
    c->exec = tonullable_exec;
    return 0;
}

/* ---- greatest / least ---- */

static int minmax_exec(const fn_call *c, column **args, size_t n, column **out)
{
    bool greatest = c->state != NULL;
    int idx[64];
    for (int k = 0; k < c->nargs; k++)
        idx[k] = k;
    column *conv[64];
    if (convert_all(c, args, idx, c->nargs, c->ret, conv, false) < 0)
        return -1;
    uint8_t *pick = mem_calloc(n ? n : 1);
    /* NULL arguments are skipped (ClickHouse 26.7's default); a row is NULL only when every
     * argument is: then pick stays on the first, which is NULL. */
    for (int k = 1; k < c->nargs; k++)
        for (size_t i = 0; i < n; i++) {
            const column *cur = conv[pick[i]];
            if (col_is_null(conv[k], i))
                continue;
            if (col_is_null(cur, i)) {
                pick[i] = (uint8_t)k;
                continue;
            }
            int d = col_compare(conv[k], col_idx(conv[k], i), cur, col_idx(cur, i), 1);
            if (greatest ? d > 0 : d < 0)
                pick[i] = (uint8_t)k;
        }
    *out = pick_rows(c->ret, conv, pick, n);
    for (int k = 0; k < c->nargs; k++)
        col_free(conv[k]);
    mem_free(pick);
    return 0;
}

static int minmax_resolve(fn_call *c)
{
    if (c->nargs < 1 || c->nargs > 64)
        return fn_bad_nargs(c, "at least 1");
    /* ClickHouse computes least/greatest of numbers with its binary arithmetic, which has
     * no 256-bit integer with a float, nor UInt256 with a signed integer. */
    for (int i = 0; i < c->nargs; i++)
        for (int j = 0; j < c->nargs; j++) {
            const type *a = type_base(c->arg_types[i]), *b = type_base(c->arg_types[j]);
            bool b_signed_int = num_is_int(b) && !num_is_uint(b) && b->id != T_BOOL;
            if ((type_is_wide(a) && a->id != T_DECIMAL256 && num_is_float(b)) ||
                (a->id == T_UINT256 && (b_signed_int || b->id == T_INT256)))
                return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "Illegal types %s and %s of arguments of function %s",
                               type_base(c->arg_types[i < j ? i : j])->name, type_base(c->arg_types[i < j ? j : i])->name,
                               c->name);
        }
    const type *st = type_supertype(c->nargs, c->arg_types);
    if (!st)
        return -1;
    c->ret = type_phys(st);
    c->state = strcmp(c->def->name, "greatest") == 0 ? (void *)1 : NULL;
    c->exec = minmax_exec;
    return 0;
}

void func_register_cond(void)
{
    static const func_def defs[] = {
        {"if", FN_OWN_NULLS | FN_CASE_INSENSITIVE | FN_NO_LOWCARD_RESULT, multiif_resolve, NULL, "if(cond, then, else)"},
        {"multiIf", FN_OWN_NULLS | FN_NO_LOWCARD_RESULT, multiif_resolve, NULL, "multiIf(c1, v1, c2, v2, ..., else)"},
        {"caseWithExpression", FN_OWN_NULLS, case_resolve, case_free, "CASE x WHEN w THEN t ... ELSE e END"},
        {"coalesce", FN_OWN_NULLS | FN_CASE_INSENSITIVE, coalesce_resolve, NULL, "first non-NULL argument"},
        {"ifNull", FN_OWN_NULLS | FN_CASE_INSENSITIVE, coalesce_resolve, NULL, "ifNull(x, alt)"},
        {"nullIf", FN_OWN_NULLS | FN_CASE_INSENSITIVE, nullif_resolve, nullif_free, "NULL if a = b, else a"},
        {"isNull", FN_OWN_NULLS, isnull_resolve, NULL, "1 if the value is NULL"},
        {"isNotNull", FN_OWN_NULLS, isnull_resolve, NULL, "1 if the value is not NULL"},
        {"assumeNotNull", FN_OWN_NULLS, assume_resolve, NULL, "the value without Nullable"},
        {"toNullable", FN_OWN_NULLS, tonullable_resolve, NULL, "the value as Nullable"},
        {"greatest", FN_CASE_INSENSITIVE | FN_OWN_NULLS, minmax_resolve, NULL, "the largest argument"},
        {"least", FN_CASE_INSENSITIVE | FN_OWN_NULLS, minmax_resolve, NULL, "the smallest argument"},
    };
    for (size_t i = 0; i < sizeof defs / sizeof defs[0]; i++)
        func_register(&defs[i]);
}
