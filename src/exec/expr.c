#include "exec/expr.h"

#include "base/err.h"
#include "base/mem.h"

#include <stdlib.h>
#include <string.h>

expr *expr_col(int col, const type *t)
{
    expr *e = xcalloc(1, sizeof *e);
    e->kind = EX_COL;
    e->col = col;
    e->type = t;
    return e;
}

expr *expr_const(column *one_row)
{
    expr *e = xcalloc(1, sizeof *e);
    e->kind = EX_CONST;
    e->value = one_row;
    e->type = one_row->type;
    return e;
}

bool expr_is_const(const expr *e) { return e->kind == EX_CONST; }

void expr_free(expr *e)
{
    if (!e)
        return;
    for (int i = 0; i < e->nargs; i++)
        expr_free(e->args[i]);
    free(e->args);
    if (e->value)
        col_free(e->value);
    if (e->call)
        fn_call_free(e->call);
    if (e->set)
        in_set_free(e->set);
    if (e->hof)
        hof_call_free(e->hof);
    if (e->lambda) {
        expr_free(e->lambda->body);
        free(e->lambda);
    }
    free(e);
}

/* ---- IN sets: open addressing over row numbers of a values column ---- */

struct in_set {
    column *values;
    uint32_t *slots; /* row + 1; 0 = empty */
    size_t cap;
    bool has_null;
};

in_set *in_set_new(const type *t)
{
    in_set *s = xcalloc(1, sizeof *s);
    s->values = col_new(type_strip_nullable(t));
    s->cap = 16;
    s->slots = xcalloc(s->cap, sizeof *s->slots);
    return s;
}

const type *in_set_type(const in_set *s) { return s->values->type; }
bool in_set_has_null(const in_set *s) { return s->has_null; }
void in_set_mark_null(in_set *s) { s->has_null = true; }

static long find_slot(const in_set *s, const column *c, size_t row, uint64_t h)
{
    size_t mask = s->cap - 1;
    for (size_t i = h & mask;; i = (i + 1) & mask) {
        uint32_t r = s->slots[i];
        if (!r)
            return -(long)i - 1;
        if (col_equal_rows(s->values, r - 1, c, row))
            return (long)i;
    }
}

static void grow(in_set *s)
{
    size_t cap = s->cap * 2;
    uint32_t *slots = xcalloc(cap, sizeof *slots);
    for (size_t r = 0; r < s->values->len; r++) {
        size_t mask = cap - 1, i = col_hash_row(s->values, r) & mask;
        while (slots[i])
            i = (i + 1) & mask;
        slots[i] = (uint32_t)r + 1;
    }
    free(s->slots);
    s->slots = slots;
    s->cap = cap;
}

void in_set_add_column(in_set *s, const column *c)
{
    const column *vals = c;
    if (type_phys(c->type)->id == T_NULLABLE)
        vals = c->inner;
    for (size_t r = 0; r < c->len; r++) {
        if (col_is_null(c, r)) {
            s->has_null = true;
            continue;
        }
        uint64_t h = col_hash_row(vals, r);
        long slot = find_slot(s, vals, r, h);
        if (slot >= 0)
            continue;
        col_push_from(s->values, vals, r);
        s->slots[-slot - 1] = (uint32_t)s->values->len;
        if (s->values->len * 2 > s->cap)
            grow(s);
    }
}

void in_set_free(in_set *s)
{
    col_free(s->values);
    free(s->slots);
    free(s);
}

static bool tuple_has_null(const column *t, size_t r)
{
    for (int k = 0; k < t->nfields; k++)
        if (col_is_null(t->fields[k], r))
            return true;
    return false;
}

static column *eval_in(const expr *e, column *arg)
{
    size_t n = arg->len;
    bool nullable = type_phys(e->type)->id == T_NULLABLE;
    column *res = col_new(e->type);
    column *out = nullable ? res->inner : res;
    uint8_t *d = buf_grow(&out->data, n);
    out->len = n;
    if (nullable) {
        uint8_t *nl = buf_grow(&res->nulls, n);
        for (size_t r = 0; r < n; r++)
            nl[r] = col_is_null(arg, r);
        res->len = n;
    }
    const column *vals = type_phys(arg->type)->id == T_NULLABLE ? arg->inner : arg;
    const column *set = e->set->values;
    /* a NULL row: NULL (0 under the null map), or with transform_null_in whether the set
     * holds NULL */
    uint8_t null_hit = e->null_in ? (uint8_t)(e->set->has_null != e->negate) : 0;
    if (type_phys(vals->type)->id == T_STRING && type_phys(set->type)->id == T_STRING && set->len <= 8) {
        /* a few strings (x NOT IN ('', 'anon')): comparing lengths first beats hashing */
        const uint64_t *so = col_offs(set), *vo = col_offs(vals);
        for (size_t r = 0; r < n; r++) {
            size_t len = (size_t)(vo[r + 1] - vo[r]);
            const uint8_t *p = vals->data.p + vo[r];
            bool found = false;
            for (size_t k = 0; k < set->len && !found; k++)
                found = so[k + 1] - so[k] == len && memcmp(set->data.p + so[k], p, len) == 0;
            d[r] = col_is_null(arg, r) ? null_hit : (uint8_t)(found != e->negate);
        }
        return res;
    }
    bool tuple_nulls = e->tuple_null_misses && type_phys(vals->type)->id == T_TUPLE;
    for (size_t r = 0; r < n; r++) {
        bool found;
        if (col_is_null(arg, r))
            found = false;
        else if (tuple_nulls && tuple_has_null(vals, r))
            found = false;
        else
            found = find_slot(e->set, vals, r, col_hash_row(vals, r)) >= 0;
        d[r] = col_is_null(arg, r) ? null_hit : (uint8_t)(found != e->negate);
    }
    return res;
}

/* ---- higher-order functions ---- */

column *expr_plain_array(column *c)
{
    c = col_materialize(c);
    const uint64_t *o = col_offs(c);
    if (o[0] != 0 || c->inner->len != o[c->len]) {
        column *n = col_slice(c, 0, c->len);
        col_free(c);
        c = n;
    }
    return c;
}

/* The lambda's block: params (already `n` rows, taken) then the captured values of the
 * outer block repeated by rep[] (outer row of each of the n rows). */
static int lambda_block(const expr *e, const block *in, column **params, int np, const uint32_t *rep, size_t n,
                        block **out)
{
    int ncap = e->nargs - e->ncaps_from;
    block *b = block_new(np + ncap, n);
    for (int i = 0; i < np; i++)
        b->cols[i] = params[i];
    for (int k = 0; k < ncap; k++) {
        column *v;
        if (expr_eval(e->args[e->ncaps_from + k], in, &v)) {
            for (int j = np + k; j < np + ncap; j++)
                b->cols[j] = col_new_defaults(type_simple(T_UINT8), 0);
            block_free(b);
            return -1;
        }
        if (v->is_const) {
            column *one = col_new(v->type);
            col_push_from(one, v, 0);
            b->cols[np + k] = col_new_const(one, n);
        } else {
            b->cols[np + k] = col_gather(v, rep, n);
        }
        col_free(v);
    }
    *out = b;
    return 0;
}

/* arrayFold: the lambda runs once per position k over the rows whose arrays are longer
 * than k, with the accumulator those rows reached. */
static int eval_fold(const expr *e, const block *in, column **arrays, column **out)
{
    column *acc;
    if (expr_eval(e->args[e->narrays], in, &acc))
        return -1;
    acc = col_materialize(acc);
    if (acc->type != e->type && acc->refs == 1)
        acc->type = e->type;
    const uint64_t *o = col_offs(arrays[0]);
    size_t rows = in->rows, maxlen = 0;
    for (size_t r = 0; r < rows; r++)
        if (o[r + 1] - o[r] > maxlen)
            maxlen = o[r + 1] - o[r];
    uint32_t *act = xmalloc(rows * sizeof *act + 4), *el = xmalloc(rows * sizeof *el + 4);
    int rc = 0;
    for (size_t k = 0; k < maxlen && !rc; k++) {
        size_t m = 0;
        for (size_t r = 0; r < rows; r++)
            if (o[r + 1] - o[r] > k) {
                act[m] = (uint32_t)r;
                el[m++] = (uint32_t)(o[r] + k);
            }
        int np = e->lambda->nparams;
        column *params[64];
        params[0] = col_gather(acc, act, m);
        for (int i = 0; i < e->narrays; i++)
            params[1 + i] = col_gather(arrays[i]->inner, el, m);
        block *b;
        if ((rc = lambda_block(e, in, params, np, act, m, &b)))
            break;
        column *v;
        rc = expr_eval(e->lambda->body, b, &v);
        block_free(b);
        if (rc)
            break;
        v = col_materialize(v);
        column *next = col_new(e->type);
        col_reserve(next, rows);
        for (size_t r = 0, j = 0; r < rows; r++) {
            if (j < m && act[j] == r)
                col_push_from(next, v, j++);
            else
                col_push_from(next, acc, r);
        }
        col_free(v);
        col_free(acc);
        acc = next;
    }
    free(act);
    free(el);
    if (rc) {
        col_free(acc);
        return -1;
    }
    *out = acc;
    return 0;
}

static int eval_hof(const expr *e, const block *in, column **out)
{
    column *arrays[64];
    int na = e->narrays, done = 0, rc = 0;
    for (; done < na; done++) {
        if ((rc = expr_eval(e->args[done], in, &arrays[done])))
            break;
        arrays[done] = expr_plain_array(arrays[done]);
    }
    size_t rows = in->rows;
    for (int i = 1; !rc && i < na; i++)
        if (memcmp(arrays[i]->offs.p, arrays[0]->offs.p, (rows + 1) * sizeof(uint64_t)) != 0)
            rc = err_set(ERR_SIZES_OF_ARRAYS_DONT_MATCH, "Arrays passed to %s must have equal size",
                         e->hof->def->name);
    if (!rc && e->hof->def->kind == HOF_FOLD) {
        rc = eval_fold(e, in, arrays, out);
    } else if (!rc && e->lambda) {
        const uint64_t *o = col_offs(arrays[0]);
        size_t n = o[rows];
        uint32_t *rep = xmalloc(n * sizeof *rep + 4);
        for (size_t r = 0; r < rows; r++)
            for (uint64_t k = o[r]; k < o[r + 1]; k++)
                rep[k] = (uint32_t)r;
        column *params[64];
        for (int i = 0; i < na; i++)
            params[i] = col_ref(arrays[i]->inner);
        block *b;
        rc = lambda_block(e, in, params, na, rep, n, &b);
        free(rep);
        column *mapped = NULL;
        if (!rc) {
            rc = expr_eval(e->lambda->body, b, &mapped);
            block_free(b);
        }
        if (!rc) {
            if (!mapped->is_const || e->hof->def->kind != HOF_REDUCE) /* see hof_exec */
                mapped = col_materialize(mapped);
            rc = hof_exec(e->hof, arrays, mapped, rows, out);
            col_free(mapped);
        }
    } else if (!rc) {
        rc = hof_exec(e->hof, arrays, NULL, rows, out);
    }
    for (int i = 0; i < done; i++)
        col_free(arrays[i]);
    return rc;
}

int expr_eval(const expr *e, const block *in, column **out)
{
    switch (e->kind) {
    case EX_COL:
        *out = col_ref(in->cols[e->col]);
        return 0;
    case EX_CONST: {
        column *one = col_new(e->value->type);
        col_push_from(one, e->value, 0);
        *out = col_new_const(one, in->rows);
        return 0;
    }
    case EX_IN: {
        column *arg;
        if (expr_eval(e->args[0], in, &arg))
            return -1;
        arg = col_materialize(arg);
        *out = eval_in(e, arg);
        col_free(arg);
        return 0;
    }
    case EX_HOF:
        return eval_hof(e, in, out);
    case EX_FUNC: {
        column *stack_args[8];
        column **args = e->nargs <= 8 ? stack_args : xcalloc((size_t)e->nargs, sizeof *args);
        int rc = 0, done = 0;
        for (; done < e->nargs; done++)
            if ((rc = expr_eval(e->args[done], in, &args[done])))
                break;
        if (!rc)
            rc = fn_exec(e->call, args, in->rows, out);
        for (int i = 0; i < done; i++)
            col_free(args[i]);
        if (args != stack_args)
            free(args);
        return rc;
    }
    }
    return err_set(ERR_LOGICAL_ERROR, "unknown expression kind");
}

size_t expr_truth_mask(const column *m, uint8_t *restrict keep)
{
    const column *vals = type_phys(m->type)->id == T_NULLABLE ? m->inner : m;
    size_t n = m->len;
    const type *vt = type_phys(vals->type);
    if (vt->width == 1 && vt->id != T_FIXEDSTRING) {
        const uint8_t *restrict d = vals->data.p;
        for (size_t i = 0; i < n; i++)
            keep[i] = d[i] != 0;
    } else {
        for (size_t i = 0; i < n; i++)
            keep[i] = col_get_f64(vals, i) != 0;
    }
    if (m->nulls.p) {
        const uint8_t *restrict nl = m->nulls.p;
        for (size_t i = 0; i < n; i++)
            keep[i] &= (uint8_t)(nl[i] == 0);
    }
    /* A separate counting pass vectorises; a running count in the loops above does not. */
    size_t kept = 0;
    for (size_t i = 0; i < n; i++)
        kept += keep[i];
    return kept;
}

bool expr_columns(const expr *e, uint8_t *used)
{
    if (e->kind == EX_COL) {
        used[e->col] = 1;
        return true;
    }
    bool det = !(e->kind == EX_FUNC && e->call && (e->call->def->flags & FN_NOT_DETERMINISTIC));
    for (int i = 0; i < e->nargs; i++)
        det &= expr_columns(e->args[i], used);
    return det;
}
