/* A source read under another schema, by column name (exec/source.h source_convert):
 * what a materialized view shows of its target table. */
#include "exec/source.h"

#include "base/err.h"
#include "base/mem.h"
#include "func/func.h"

#include <stdlib.h>
#include <string.h>

typedef struct convert_src {
    source *inner;
    int *map;      /* outer column i is inner column map[i], or -1 (missing) */
    char *what;    /* the table, for messages */
} convert_src;

typedef struct convert_it {
    const source *s;
    void *inner_it;
    query_ctx *q;
    int ncols;
    const type **cast; /* per opened column: the type to cast to, or NULL */
} convert_it;

static int cv_open(source *s, int task, const int *cols, int ncols, query_ctx *q, void **itp)
{
    convert_src *c = s->impl;
    for (int i = 0; i < ncols; i++)
        if (c->map[cols[i]] < 0)
            return err_set(ERR_NOT_FOUND_COLUMN_IN_BLOCK, "Column `%s` not found in table %s", s->sch->names[cols[i]],
                           c->what);
    int *inner_cols = xmalloc(sizeof(int) * (size_t)(ncols + 1));
    convert_it *it = xcalloc(1, sizeof *it);
    it->s = s;
    it->q = q;
    it->ncols = ncols;
    it->cast = xcalloc((size_t)ncols + 1, sizeof *it->cast);
    for (int i = 0; i < ncols; i++) {
        int k = c->map[cols[i]];
        inner_cols[i] = k;
        const type *want = s->sch->types[cols[i]];
        if (strcmp(c->inner->sch->types[k]->name, want->name) != 0)
            it->cast[i] = want;
    }
    int rc = c->inner->open(c->inner, task, inner_cols, ncols, q, &it->inner_it);
    free(inner_cols);
    if (rc) {
        free(it->cast);
        free(it);
        return -1;
    }
    *itp = it;
    return 0;
}

static int cv_next(void *itp, block **out)
{
    convert_it *it = itp;
    convert_src *c = it->s->impl;
    if (c->inner->next(it->inner_it, out) || !*out)
        return *out = NULL, err_code() ? -1 : 0;
    block *b = *out;
    for (int i = 0; i < it->ncols && i < b->ncols; i++) {
        if (!it->cast[i])
            continue;
        column *to;
        if (func_cast_column(b->cols[i], it->cast[i], &it->q->env, &to)) {
            block_free(b);
            *out = NULL;
            return -1;
        }
        col_free(b->cols[i]);
        b->cols[i] = to;
    }
    return 0;
}

static void cv_close(void *itp)
{
    convert_it *it = itp;
    convert_src *c = it->s->impl;
    c->inner->close(it->inner_it);
    free(it->cast);
    free(it);
}

static void cv_destroy(source *s)
{
    convert_src *c = s->impl;
    source_free(c->inner);
    free(c->map);
    free(c->what);
    free(c);
}

static int64_t cv_count(source *s, query_ctx *q)
{
    convert_src *c = s->impl;
    return c->inner->count_rows ? c->inner->count_rows(c->inner, q) : -1;
}

static void cv_set_limit(source *s, uint64_t rows)
{
    convert_src *c = s->impl;
    c->inner->set_limit(c->inner, rows);
    s->ntasks = c->inner->ntasks;
    s->total_rows_hint = c->inner->total_rows_hint;
}

source *source_convert(source *inner, schema *sch, const int *map, int nvisible, const char *what)
{
    source *s = xcalloc(1, sizeof *s);
    convert_src *c = xcalloc(1, sizeof *c);
    c->inner = inner;
    c->map = xmalloc(sizeof(int) * (size_t)(sch->n + 1));
    memcpy(c->map, map, sizeof(int) * (size_t)sch->n);
    c->what = xstrdup(what);
    s->sch = sch;
    s->nvisible = nvisible;
    s->ntasks = inner->ntasks;
    s->total_rows_hint = inner->total_rows_hint;
    s->open = cv_open;
    s->next = cv_next;
    s->close = cv_close;
    s->destroy = cv_destroy;
    s->count_rows = inner->count_rows ? cv_count : NULL;
    s->set_limit = inner->set_limit ? cv_set_limit : NULL;
    s->impl = c;
    return s;
}
