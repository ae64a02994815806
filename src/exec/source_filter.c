/* A source keeping only the rows a condition holds for (exec/source.h source_filter):
 * SAMPLE on a MergeTree table. */
#include "exec/source.h"

#include "base/err.h"
#include "base/mem.h"
#include "exec/expr.h"

#include <stdlib.h>
#include <string.h>

typedef struct filter_src {
    source *inner;
    expr *mask;   /* over inner->sch */
    bool *needs;  /* per inner column: the mask reads it */
} filter_src;

typedef struct filter_it {
    const source *s;
    void *inner_it;
    int ncols;    /* the columns asked for; the iterator reads them, then the mask's others */
    int nread;
    int *read;    /* inner column of each column read */
} filter_it;

static void mark_columns(const expr *e, bool *needs, int n)
{
    if (e->kind == EX_COL && e->col >= 0 && e->col < n)
        needs[e->col] = true;
    for (int i = 0; i < e->nargs; i++)
        mark_columns(e->args[i], needs, n);
}

static int fl_open(source *s, int task, const int *cols, int ncols, query_ctx *q, void **itp)
{
    filter_src *f = s->impl;
    int n = s->sch->n;
    filter_it *it = xcalloc(1, sizeof *it);
    it->s = s;
    it->ncols = ncols;
    it->read = xmalloc(sizeof(int) * (size_t)(ncols + n + 1));
    if (ncols)
        memcpy(it->read, cols, sizeof(int) * (size_t)ncols);
    it->nread = ncols;
    for (int c = 0; c < n; c++) {
        bool have = false;
        for (int i = 0; i < ncols && !have; i++)
            have = cols[i] == c;
        if (f->needs[c] && !have)
            it->read[it->nread++] = c;
    }
    if (f->inner->open(f->inner, task, it->read, it->nread, q, &it->inner_it)) {
        free(it->read);
        free(it);
        return -1;
    }
    *itp = it;
    return 0;
}

static int fl_next(void *itp, block **out)
{
    filter_it *it = itp;
    filter_src *f = it->s->impl;
    for (;;) {
        block *b;
        if (f->inner->next(it->inner_it, &b))
            return *out = NULL, -1;
        if (!b)
            return *out = NULL, 0;
        /* the mask reads columns by their index in the source's schema */
        block *wide = block_new(it->s->sch->n, b->rows);
        for (int i = 0; i < it->nread; i++)
            if (!wide->cols[it->read[i]])
                wide->cols[it->read[i]] = col_ref(b->cols[i]);
        for (int c = 0; c < wide->ncols; c++)
            if (!wide->cols[c])
                wide->cols[c] = col_new(it->s->sch->types[c]); /* not read: empty, never evaluated */
        column *m;
        int rc = expr_eval(f->mask, wide, &m);
        block_free(wide);
        if (rc) {
            block_free(b);
            return *out = NULL, -1;
        }
        if (m->is_const)
            m = col_materialize(m);
        if (m->len != b->rows) {
            err_set(ERR_LOGICAL_ERROR, "A filter gave %zu rows for a block of %zu", m->len, b->rows);
            col_free(m);
            block_free(b);
            return *out = NULL, -1;
        }
        uint8_t *keep = xmalloc(b->rows ? b->rows : 1);
        size_t kept = expr_truth_mask(m, keep);
        col_free(m);
        block *o = NULL;
        if (kept) {
            o = block_new(it->ncols, kept);
            for (int i = 0; i < it->ncols; i++)
                o->cols[i] = kept == b->rows ? col_ref(b->cols[i]) : col_filter(b->cols[i], keep, kept);
        }
        free(keep);
        block_free(b);
        if (o) {
            *out = o;
            return 0;
        }
    }
}

static void fl_close(void *itp)
{
    filter_it *it = itp;
    filter_src *f = it->s->impl;
    f->inner->close(it->inner_it);
    free(it->read);
    free(it);
}

static void fl_destroy(source *s)
{
    filter_src *f = s->impl;
    source_free(f->inner);
    expr_free(f->mask);
    free(f->needs);
    free(f);
}

static void fl_set_filter(source *s, const src_filter *flt, int n, query_ctx *q)
{
    filter_src *f = s->impl;
    f->inner->set_filter(f->inner, flt, n, q);
    s->ntasks = f->inner->ntasks;
}

source *source_filter(source *inner, expr *mask)
{
    source *s = xcalloc(1, sizeof *s);
    filter_src *f = xcalloc(1, sizeof *f);
    f->inner = inner;
    f->mask = mask;
    f->needs = xcalloc((size_t)inner->sch->n + 1, sizeof *f->needs);
    mark_columns(mask, f->needs, inner->sch->n);
    s->sch = schema_clone(inner->sch);
    s->nvisible = inner->nvisible;
    s->ntasks = inner->ntasks;
    s->total_rows_hint = inner->total_rows_hint;
    s->open = fl_open;
    s->next = fl_next;
    s->close = fl_close;
    s->destroy = fl_destroy;
    s->set_filter = inner->set_filter ? fl_set_filter : NULL;
    s->impl = f;
    /* the alias columns stay usable (they are the table's) */
    s->nalias = inner->nalias;
    s->alias_name = inner->alias_name;
    s->alias_sql = inner->alias_sql;
    inner->nalias = 0;
    inner->alias_name = NULL;
    inner->alias_sql = NULL;
    return s;
}
