/* ORDER BY … WITH FILL: see fill.h. A "field" is a one-row column of the key's type, or
 * NULL for ClickHouse's Null field (no FROM / TO, or a NULL value), which compares equal
 * to anything and never steps. */
#include "exec/fill.h"

#include "base/err.h"
#include "base/mem.h"

#include <stdlib.h>
#include <string.h>

void fill_plan_free(fill_plan *p)
{
    if (!p)
        return;
    for (int k = 0; k < p->nkeys; k++) {
        if (p->keys[k].from)
            col_free(p->keys[k].from);
        if (p->keys[k].to)
            col_free(p->keys[k].to);
        expr_free(p->keys[k].step);
    }
    for (int j = 0; p->interp && j < p->ncols; j++)
        expr_free(p->interp[j]);
    free(p->interp);
    free(p->keys);
    free(p->prefix);
    free(p->src);
    free(p->src_arg);
    free(p->types);
    free(p);
}

typedef struct fill_step {
    step base;
    const fill_plan *p;
    block **in;
    int nin, cap;
} fill_step;

/* The state of one group: its input, its output, the filling row. */
typedef struct filler {
    const fill_plan *p;
    const block *in;
    block *out;
    column **row;  /* the filling row: a field per key */
    column **next; /* the real row (or the TO values) being filled towards */
} filler;

static void field_set(column **slot, column *v)
{
    if (*slot)
        col_free(*slot);
    *slot = v;
}

static column *field_clone(const column *v) { return v ? col_clone(v) : NULL; }

static column *field_at(const column *c, size_t row, const type *t)
{
    if (type_is_nullable(c->type)) {
        if (col_is_null(c, row))
            return NULL;
        c = c->inner;
    }
    column *f = col_new(t);
    col_push_from(f, c, row);
    return f;
}

static int cmp(const column *a, const column *b, int dir) { return col_compare(a, 0, b, 0, 1) * dir; }
static bool field_eq(const column *a, const column *b) { return col_compare(a, 0, b, 0, 1) == 0; }

/* FillingRow's order: the first key where both are set and differ decides. */
static bool row_less(const filler *f, column **a, column **b)
{
    for (int i = 0; i < f->p->nkeys; i++) {
        if (!a[i] || !b[i] || field_eq(a[i], b[i]))
            continue;
        return cmp(a[i], b[i], f->p->keys[i].dir) < 0;
    }
    return false;
}

static void init_from_defaults(filler *f, int from)
{
    for (int i = from; i < f->p->nkeys; i++)
        field_set(&f->row[i], field_clone(f->p->keys[i].from));
}

/* value + STEP; an error when the step does not move the value in the key's direction (a
 * zero or wrong-signed STEP would never end). */
static int apply_step(const fill_key *k, const column *v, column **out)
{
    block *b = block_new(1, 1);
    b->cols[0] = col_clone(v);
    column *r;
    int rc = expr_eval(k->step, b, &r);
    block_free(b);
    if (rc)
        return -1;
    r = col_materialize(r);
    if (r->len != 1 || type_is_nullable(r->type) || cmp(v, r, k->dir) >= 0) {
        col_free(r);
        return err_set(ERR_INVALID_WITH_FILL_EXPRESSION,
                       "WITH FILL STEP does not move the value in the sorting direction (a zero STEP, or one whose sign "
                       "does not match ASC/DESC, or an overflow of the column's type)");
    }
    *out = r;
    return 0;
}

/* FillingRow::next: steps the filling row towards f->next; 1 when it made a row to
 * insert, 0 when the filling is done, -1 on error. */
static int fill_next(filler *f)
{
    const fill_plan *p = f->p;
    int n = p->nkeys, pos = 0;
    column **row = f->row, **to = f->next;
    for (; pos < n; pos++)
        if (row[pos] && to[pos] && !field_eq(row[pos], to[pos]))
            break;
    if (pos == n || cmp(to[pos], row[pos], p->keys[pos].dir) < 0)
        return 0;
    /* a later key with a TO is filled up to it before the key at pos moves */
    for (int i = n - 1; i > pos; i--) {
        if (!p->keys[i].to || !row[i])
            continue;
        column *nv;
        if (apply_step(&p->keys[i], row[i], &nv))
            return -1;
        if (cmp(nv, p->keys[i].to, p->keys[i].dir) < 0) {
            field_set(&row[i], nv);
            init_from_defaults(f, i + 1);
            return 1;
        }
        col_free(nv);
    }
    column *nv;
    if (apply_step(&p->keys[pos], row[pos], &nv))
        return -1;
    if (cmp(to[pos], nv, p->keys[pos].dir) < 0 || (p->keys[pos].to && field_eq(nv, p->keys[pos].to))) {
        col_free(nv);
        return 0;
    }
    field_set(&row[pos], nv);
    if (field_eq(row[pos], to[pos])) {
        bool is_less = false;
        for (int i = pos + 1; i < n; i++) {
            field_set(&row[i], field_clone(p->keys[i].from ? p->keys[i].from : to[i]));
            is_less |= row[i] && to[i] && cmp(row[i], to[i], p->keys[i].dir) < 0;
        }
        return is_less;
    }
    init_from_defaults(f, pos + 1);
    return 1;
}

static void push_value(column *dst, const column *v)
{
    if (type_is_nullable(dst->type)) {
        col_push_from(dst->inner, v, 0);
        col_nullable_commit(dst, false);
    } else {
        col_push_from(dst, v, 0);
    }
}

/* ClickHouse fills the other columns with the column's zero, which an Enum without a 0
 * element cannot print (UNKNOWN_ELEMENT_OF_ENUM); shale's default would be the first
 * element, an answer ClickHouse does not give. */
static int check_enum_zero(const column *dst)
{
    const type *t = type_phys(dst->type);
    if (t->id != T_ENUM8 && t->id != T_ENUM16)
        return 0;
    for (int i = 0; i < t->nitems; i++)
        if (t->items[i].value == 0)
            return 0;
    return err_set(ERR_UNKNOWN_ELEMENT_OF_ENUM, "Unexpected value 0 in enum");
}

/* Appends the filling row; `tmpl` is a row of the group (its prefix values), or -1. */
static int insert_row(filler *f, long tmpl)
{
    const fill_plan *p = f->p;
    block *o = f->out;
    for (int j = 0; j < p->ncols; j++) {
        column *dst = o->cols[j];
        switch (p->src[j]) {
        case FILL_VALUE:
            if (f->row[p->src_arg[j]])
                push_value(dst, f->row[p->src_arg[j]]);
            else
                col_push_default(dst);
            break;
        case FILL_PREFIX:
            if (tmpl >= 0)
                col_push_from(dst, f->in->cols[p->src_arg[j]], (size_t)tmpl);
            else
                col_push_default(dst);
            break;
        case FILL_INTERP:
            if (o->rows > 0) {
                block *prev = block_slice(o, o->rows - 1, 1);
                column *v;
                int rc = expr_eval(p->interp[j], prev, &v);
                block_free(prev);
                if (rc)
                    return -1;
                v = col_materialize(v);
                col_push_from(dst, v, 0);
                col_free(v);
            } else {
                col_push_default(dst);
            }
            break;
        case FILL_DEFAULT:
            if (check_enum_zero(dst))
                return -1;
            col_push_default(dst);
            break;
        }
    }
    o->rows++;
    return 0;
}

static void load_row(filler *f, size_t r)
{
    for (int k = 0; k < f->p->nkeys; k++)
        field_set(&f->next[k], field_at(f->in->cols[f->p->keys[k].col], r, f->p->keys[k].t));
}

/* Fills the rows [s, e) of one sorting-prefix group (s == e: no input at all). */
static int fill_group(filler *f, size_t s, size_t e)
{
    const fill_plan *p = f->p;
    int n = p->nkeys, rc;
    long tmpl = s < e ? (long)s : -1;
    for (int k = 0; k < n; k++) {
        field_set(&f->row[k], NULL);
        field_set(&f->next[k], NULL);
    }
    if (s < e) {
        for (int k = 0; k < n; k++) {
            column *cur = field_at(f->in->cols[p->keys[k].col], s, p->keys[k].t);
            const column *from = p->keys[k].from;
            if (from && (!cur || !field_eq(cur, from))) {
                init_from_defaults(f, k);
                bool before = cur && cmp(from, cur, p->keys[k].dir) < 0;
                if (cur)
                    col_free(cur);
                if (before && insert_row(f, tmpl))
                    return -1;
                break;
            }
            field_set(&f->row[k], cur);
        }
    } else {
        init_from_defaults(f, 0);
    }
    bool have_prev = false;
    for (size_t r = s; r < e; r++) {
        bool insert_first = have_prev && row_less(f, f->next, f->row);
        load_row(f, r);
        if (insert_first && row_less(f, f->row, f->next) && insert_row(f, tmpl))
            return -1;
        while ((rc = fill_next(f)) == 1)
            if (insert_row(f, tmpl))
                return -1;
        if (rc < 0)
            return -1;
        for (int j = 0; j < p->ncols; j++)
            col_push_from(f->out->cols[j], f->in->cols[j], r);
        f->out->rows++;
        have_prev = true;
    }
    /* after the group's last row: towards TO */
    /* (no input at all: the FROM row itself, when it is before TO) */
    bool insert_first = have_prev ? row_less(f, f->next, f->row) : s == e;
    for (int k = 0; k < n; k++)
        field_set(&f->next[k], field_clone(p->keys[k].to));
    if (insert_first && row_less(f, f->row, f->next) && insert_row(f, tmpl))
        return -1;
    while ((rc = fill_next(f)) == 1)
        if (insert_row(f, tmpl))
            return -1;
    return rc < 0 ? -1 : 0;
}

static bool same_prefix(const fill_plan *p, const block *b, size_t i, size_t j)
{
    for (int k = 0; k < p->nprefix; k++)
        if (col_compare(b->cols[p->prefix[k]], i, b->cols[p->prefix[k]], j, 1) != 0)
            return false;
    return true;
}

static int fill_all(const fill_plan *p, const block *in, block **out)
{
    filler f = {.p = p, .in = in};
    f.out = block_new(p->ncols, 0);
    for (int j = 0; j < p->ncols; j++)
        f.out->cols[j] = col_new(p->types[j]);
    f.row = xcalloc((size_t)p->nkeys, sizeof *f.row);
    f.next = xcalloc((size_t)p->nkeys, sizeof *f.next);
    int rc = 0;
    if (in->rows == 0)
        rc = fill_group(&f, 0, 0);
    for (size_t s = 0; s < in->rows && !rc;) {
        size_t e = s + 1;
        while (e < in->rows && same_prefix(p, in, s, e))
            e++;
        rc = fill_group(&f, s, e);
        s = e;
    }
    for (int k = 0; k < p->nkeys; k++) {
        field_set(&f.row[k], NULL);
        field_set(&f.next[k], NULL);
    }
    free(f.row);
    free(f.next);
    if (rc) {
        block_free(f.out);
        return -1;
    }
    *out = f.out;
    return 0;
}

static int fill_push(step *s, block *b)
{
    fill_step *fs = (fill_step *)s;
    if (fs->nin == fs->cap) {
        fs->cap = fs->cap ? fs->cap * 2 : 8;
        fs->in = xrealloc(fs->in, sizeof *fs->in * (size_t)fs->cap);
    }
    fs->in[fs->nin++] = b;
    return 0;
}

static int fill_finish(step *s)
{
    fill_step *fs = (fill_step *)s;
    block *all = concat_blocks(fs->in, fs->nin, fs->p->ncols, fs->p->types);
    for (int i = 0; i < fs->nin; i++)
        block_free(fs->in[i]);
    fs->nin = 0;
    block *out;
    int rc = fill_all(fs->p, all, &out);
    block_free(all);
    if (rc)
        return -1;
    rc = step_push(s->next, out);
    if (rc < 0)
        return -1;
    return step_finish(s->next);
}

static void fill_destroy(step *s)
{
    fill_step *fs = (fill_step *)s;
    for (int i = 0; i < fs->nin; i++)
        block_free(fs->in[i]);
    free(fs->in);
    free(fs);
}

static const step_ops fill_ops = {"fill", fill_push, fill_finish, fill_destroy};

step *step_fill_new(const fill_plan *p)
{
    fill_step *s = xcalloc(1, sizeof *s);
    s->base.ops = &fill_ops;
    s->p = p;
    return &s->base;
}
