#include "exec/source.h"

#include "base/mem.h"

#include <stdlib.h>
#include <string.h>

void source_free(source *s)
{
    if (!s)
        return;
    if (s->destroy)
        s->destroy(s);
    for (int i = 0; (s->col_qual || s->col_bare) && i < s->sch->n; i++) {
        if (s->col_qual)
            free(s->col_qual[i]);
        if (s->col_qual2)
            free(s->col_qual2[i]);
        if (s->col_bare)
            free(s->col_bare[i]);
    }
    free(s->col_qual);
    free(s->col_qual2);
    free(s->col_bare);
    for (int i = 0; i < s->nalias; i++) {
        free(s->alias_name[i]);
        free(s->alias_sql[i]);
    }
    free(s->alias_name);
    free(s->alias_sql);
    schema_free(s->sch);
    free(s);
}

/* ---- in-memory blocks ---- */

typedef struct mem_source {
    block **blocks;
    int n;
} mem_source;

typedef struct mem_it {
    mem_source *m;
    int task;
    int *cols;
    int ncols;
    bool done;
} mem_it;

static int mem_open(source *s, int task, const int *cols, int ncols, query_ctx *q, void **it)
{
    (void)q;
    mem_it *m = xcalloc(1, sizeof *m);
    m->m = s->impl;
    m->task = task;
    m->cols = xcalloc((size_t)ncols + 1, sizeof *m->cols);
    for (int i = 0; i < ncols; i++)
        m->cols[i] = cols[i];
    m->ncols = ncols;
    *it = m;
    return 0;
}

static int mem_next(void *itp, block **out)
{
    mem_it *it = itp;
    if (it->done) {
        *out = NULL;
        return 0;
    }
    it->done = true;
    block *src = it->m->blocks[it->task];
    block *b = block_new(it->ncols, src->rows);
    for (int i = 0; i < it->ncols; i++)
        b->cols[i] = col_ref(src->cols[it->cols[i]]);
    *out = b;
    return 0;
}

static void mem_close(void *itp)
{
    mem_it *it = itp;
    free(it->cols);
    free(it);
}

static void mem_destroy(source *s)
{
    mem_source *m = s->impl;
    for (int i = 0; i < m->n; i++)
        block_free(m->blocks[i]);
    free(m->blocks);
    free(m);
}

static int64_t mem_count(source *s, query_ctx *q)
{
    (void)q;
    mem_source *m = s->impl;
    int64_t n = 0;
    for (int i = 0; i < m->n; i++)
        n += (int64_t)m->blocks[i]->rows;
    return n;
}

source *source_from_blocks(schema *sch, block **blocks, int nblocks)
{
    source *s = xcalloc(1, sizeof *s);
    mem_source *m = xcalloc(1, sizeof *m);
    m->blocks = blocks;
    m->n = nblocks;
    s->impl = m;
    s->sch = sch;
    s->nvisible = sch->n;
    s->ntasks = nblocks;
    s->open = mem_open;
    s->next = mem_next;
    s->close = mem_close;
    s->destroy = mem_destroy;
    s->count_rows = mem_count;
    return s;
}

int source_read_until(source *s, query_ctx *q, bool (*enough)(const block *sofar, void *arg), void *arg,
                      block **out, source_pause *paused)
{
    int n = s->sch->n;
    int *cols = xcalloc((size_t)n + 1, sizeof *cols);
    for (int i = 0; i < n; i++)
        cols[i] = i;
    block *all = block_new_empty(s->sch);
    int rc = 0;
    *out = NULL;
    for (int t = 0; t < s->ntasks && !rc; t++) {
        void *it;
        if ((rc = s->open(s, t, cols, n, q, &it)))
            break;
        for (;;) {
            block *b;
            if ((rc = query_check(q)) || (rc = s->next(it, &b)) || !b)
                break;
            block_append(all, b);
            block_free(b);
            if (enough && enough(all, arg)) {
                *paused = (source_pause){all, t, it};
                free(cols);
                return 0;
            }
        }
        s->close(it);
    }
    free(cols);
    if (rc) {
        block_free(all);
        return -1;
    }
    *out = all;
    return 0;
}

int source_read_all(source *s, query_ctx *q, block **out)
{
    return source_read_until(s, q, NULL, NULL, out, NULL);
}

block *source_memory_block(source *s, int i)
{
    mem_source *m = s->impl;
    return m->blocks[i];
}

/* ---- a source with its columns in another order ---- */

typedef struct reorder_src {
    source *inner;
    int *perm;   /* outer column i is inner column perm[i] */
} reorder_src;

static int ro_open(source *s, int task, const int *cols, int ncols, query_ctx *q, void **it)
{
    reorder_src *r = s->impl;
    int *inner_cols = xmalloc(sizeof(int) * (size_t)(ncols + 1));
    for (int i = 0; i < ncols; i++)
        inner_cols[i] = r->perm[cols[i]];
    int rc = r->inner->open(r->inner, task, inner_cols, ncols, q, it);
    free(inner_cols);
    return rc;
}

static void ro_destroy(source *s)
{
    reorder_src *r = s->impl;
    source_free(r->inner);
    free(r->perm);
    free(r);
}

static int64_t ro_count(source *s, query_ctx *q)
{
    reorder_src *r = s->impl;
    return r->inner->count_rows ? r->inner->count_rows(r->inner, q) : -1;
}

static void ro_set_filter(source *s, const src_filter *f, int n, query_ctx *q)
{
    reorder_src *r = s->impl;
    if (!r->inner->set_filter)
        return;
    src_filter *g = xmalloc(sizeof *g * (size_t)(n + 1));
    for (int i = 0; i < n; i++) {
        g[i] = f[i];
        g[i].col = f[i].col >= 0 && f[i].col < s->sch->n ? r->perm[f[i].col] : f[i].col;
    }
    r->inner->set_filter(r->inner, g, n, q);
    free(g);
    s->ntasks = r->inner->ntasks;
}

static void ro_accept_codes(source *s, const bool *coded)
{
    reorder_src *r = s->impl;
    bool *inner = xcalloc((size_t)s->sch->n + 1, sizeof *inner);
    for (int i = 0; i < s->sch->n; i++)
        inner[r->perm[i]] = coded[i];
    r->inner->accept_codes(r->inner, inner);
    free(inner);
}

static uint64_t ro_take_matching(source *s, query_ctx *q)
{
    reorder_src *r = s->impl;
    uint64_t n = r->inner->take_matching(r->inner, q);
    s->ntasks = r->inner->ntasks;
    return n;
}

static void ro_set_limit(source *s, uint64_t rows)
{
    reorder_src *r = s->impl;
    r->inner->set_limit(r->inner, rows);
    s->ntasks = r->inner->ntasks;
    s->total_rows_hint = r->inner->total_rows_hint;
}

source *source_reorder(source *inner, const int *perm, int nvisible)
{
    source *s = xcalloc(1, sizeof *s);
    reorder_src *r = xcalloc(1, sizeof *r);
    int n = inner->sch->n;
    r->inner = inner;
    r->perm = xmalloc(sizeof(int) * (size_t)(n + 1));
    memcpy(r->perm, perm, sizeof(int) * (size_t)n);
    s->sch = schema_new(n);
    for (int i = 0; i < n; i++)
        schema_set(s->sch, i, inner->sch->names[perm[i]], inner->sch->types[perm[i]]);
    s->nvisible = nvisible;
    s->ntasks = inner->ntasks;
    s->total_rows_hint = inner->total_rows_hint;
    s->open = ro_open;
    s->next = inner->next;   /* iterators are the inner source's */
    s->close = inner->close;
    s->destroy = ro_destroy;
    s->count_rows = inner->count_rows ? ro_count : NULL;
    s->set_filter = inner->set_filter ? ro_set_filter : NULL;
    s->take_matching = inner->take_matching ? ro_take_matching : NULL;
    s->accept_codes = inner->accept_codes ? ro_accept_codes : NULL;
    s->set_limit = inner->set_limit ? ro_set_limit : NULL;
    s->set_prefilter = inner->set_prefilter; /* iterators are the inner source's */
    s->impl = r;
    return s;
}
