/* The generic steps of a SELECT's chain (step.h): filter, project, distinct, sort, LIMIT BY,
 * OFFSET/LIMIT and the sink. */
#include "exec/step.h"

#include "base/err.h"
#include "base/mem.h"
#include "exec/agg_hash.h"
#include "exec/select.h"

#include <stdlib.h>
#include <string.h>

int step_push(step *s, block *b)
{
    return s->ops->push(s, b);
}

int step_finish(step *s)
{
    return s->ops->finish(s);
}

void step_chain_free(step *s)
{
    while (s) {
        step *n = s->next;
        s->ops->destroy(s);
        s = n;
    }
}

step *step_chain(step **steps, int n)
{
    step *first = NULL, *last = NULL;
    for (int i = 0; i < n; i++) {
        if (!steps[i])
            continue;
        if (last)
            last->next = steps[i];
        else
            first = steps[i];
        last = steps[i];
    }
    return first;
}

/* The finish of a step that holds nothing. */
static int pass_finish(step *s)
{
    return s->next ? step_finish(s->next) : 0;
}

static void plain_destroy(step *s)
{
    free(s);
}

/* The rows of b (taken) with keep[i] set, `kept` of them. */
static block *keep_rows(block *b, const uint8_t *keep, size_t kept)
{
    if (kept == b->rows)
        return b;
    block *o = block_new(b->ncols, kept);
    for (int c = 0; c < b->ncols; c++)
        o->cols[c] = col_filter(b->cols[c], keep, kept);
    block_free(b);
    return o;
}

/* ---- filter ---- */

typedef struct filter_step {
    step base;
    const expr *mask;
} filter_step;

static int filter_push(step *s, block *b)
{
    filter_step *f = (filter_step *)s;
    column *m;
    if (expr_eval(f->mask, b, &m)) {
        block_free(b);
        return -1;
    }
    m = col_materialize(m);
    uint8_t *keep = xmalloc(b->rows ? b->rows : 1);
    size_t kept = expr_truth_mask(m, keep);
    col_free(m);
    b = keep_rows(b, keep, kept);
    free(keep);
    return step_push(s->next, b);
}

static const step_ops filter_ops = {"filter", filter_push, pass_finish, plain_destroy};

step *step_filter_new(const expr *mask)
{
    filter_step *f = xcalloc(1, sizeof *f);
    f->base.ops = &filter_ops;
    f->mask = mask;
    return &f->base;
}

/* ---- project ---- */

typedef struct project_step {
    step base;
    expr **exprs; /* the array is the step's, the expressions the caller's */
    int n;
} project_step;

static int project_push(step *s, block *b)
{
    project_step *ps = (project_step *)s;
    block *o = block_new(ps->n, b->rows);
    for (int i = 0; i < ps->n; i++)
        if (expr_eval(ps->exprs[i], b, &o->cols[i])) {
            block_free(o);
            block_free(b);
            return -1;
        }
    block_free(b);
    return step_push(s->next, o);
}

static void project_destroy(step *s)
{
    free(((project_step *)s)->exprs);
    free(s);
}

static const step_ops project_ops = {"project", project_push, pass_finish, project_destroy};

step *step_project_new(expr *const *exprs, int n)
{
    project_step *p = xcalloc(1, sizeof *p);
    p->base.ops = &project_ops;
    p->exprs = xmalloc(sizeof *p->exprs * (size_t)(n + 1));
    if (n)
        memcpy(p->exprs, exprs, sizeof *p->exprs * (size_t)n);
    p->n = n;
    return &p->base;
}

/* ---- distinct ---- */

typedef struct distinct_step {
    step base;
    int nkey;
    uint64_t max_rows, max_bytes;
    agg_table seen;
    buf key;
} distinct_step;

/* max_rows_in_distinct / max_bytes_in_distinct (distinct_overflow_mode 'throw', the only
 * mode shale has), checked after each block as ClickHouse does. DISTINCT never spills
 * in ClickHouse either: past these limits or max_memory_usage it fails. */
static int distinct_check(const distinct_step *d)
{
    size_t rows = d->seen.count, bytes = d->seen.cap * sizeof *d->seen.slots + d->seen.mem.total;
    if (d->max_rows && rows > d->max_rows)
        return err_set(ERR_SET_SIZE_LIMIT_EXCEEDED, "Limit for DISTINCT exceeded, max rows: %llu, current rows: %zu",
                       (unsigned long long)d->max_rows, rows);
    if (d->max_bytes && bytes > d->max_bytes)
        return err_set(ERR_SET_SIZE_LIMIT_EXCEEDED, "Limit for DISTINCT exceeded, max bytes: %llu, current bytes: %zu",
                       (unsigned long long)d->max_bytes, bytes);
    return 0;
}

static int distinct_push(step *s, block *b)
{
    distinct_step *d = (distinct_step *)s;
    uint8_t *keep = xmalloc(b->rows ? b->rows : 1);
    size_t kept = 0;
    for (int c = 0; c < d->nkey; c++)
        b->cols[c] = col_materialize(b->cols[c]);
    for (size_t i = 0; i < b->rows; i++) {
        d->key.len = 0;
        agg_key_serialize(&d->key, b->cols, d->nkey, i);
        bool inserted;
        agg_table_find_or_insert(&d->seen, (const char *)d->key.p, d->key.len,
                                 agg_key_hash((const char *)d->key.p, d->key.len), 1, 1, &inserted);
        keep[i] = inserted;
        kept += inserted;
    }
    b = keep_rows(b, keep, kept);
    free(keep);
    if (distinct_check(d)) {
        block_free(b);
        return -1;
    }
    return step_push(s->next, b);
}

static void distinct_destroy(step *s)
{
    distinct_step *d = (distinct_step *)s;
    agg_table_free(&d->seen);
    buf_free(&d->key);
    free(d);
}

static const step_ops distinct_ops = {"distinct", distinct_push, pass_finish, distinct_destroy};

step *step_distinct_new(int nkey, uint64_t max_rows, uint64_t max_bytes)
{
    distinct_step *d = xcalloc(1, sizeof *d);
    d->base.ops = &distinct_ops;
    d->nkey = nkey;
    d->max_rows = max_rows;
    d->max_bytes = max_bytes;
    agg_table_init(&d->seen);
    return &d->base;
}

/* ---- sort ---- */

int block_twin_column(block *const *bs, size_t n, int c)
{
    for (int e = 0; n && e < c; e++) {
        size_t i = 0;
        while (i < n && bs[i]->cols[c] == bs[i]->cols[e])
            i++;
        if (i == n)
            return e;
    }
    return -1;
}

block *concat_blocks(block **bs, int n, int ncols, const type *const *types)
{
    block *all = block_new(ncols, 0);
    if (n == 0) { /* types is only needed (and may be NULL otherwise) when n == 0 */
        for (int c = 0; c < ncols; c++)
            all->cols[c] = col_new(types[c]);
        return all;
    }
    int *twin = xmalloc(sizeof *twin * (size_t)ncols);
    for (int c = 0; c < ncols; c++)
        if ((twin[c] = block_twin_column(bs, (size_t)n, c)) < 0)
            all->cols[c] = col_new(bs[0]->cols[c]->type);
    for (int i = 0; i < n; i++) {
        for (int c = 0; c < ncols; c++)
            if (twin[c] < 0)
                col_push_range(all->cols[c], bs[i]->cols[c], 0, bs[i]->rows);
        all->rows += bs[i]->rows;
    }
    for (int c = 0; c < ncols; c++) /* a shared column stays shared: one copy, not two */
        if (twin[c] >= 0)
            all->cols[c] = col_ref(all->cols[twin[c]]);
    free(twin);
    return all;
}

typedef struct sort_ctx {
    column **cols;
    int n;
    const bool *desc;
    const int *nulls;
} sort_ctx;

static int cmp_rows(const void *a, const void *b, void *arg)
{
    const sort_ctx *s = arg;
    uint32_t i = *(const uint32_t *)a, j = *(const uint32_t *)b;
    for (int k = 0; k < s->n; k++) {
        int c = col_compare(s->cols[k], i, s->cols[k], j, s->nulls[k]);
        if (c)
            return s->desc[k] ? -c : c;
    }
    return (i > j) - (i < j); /* stable */
}

uint32_t *sort_perm(block *b, int first, int nkeys, const bool *desc, const int *nulls)
{
    sort_ctx sc = {.cols = b->cols + first, .n = nkeys, .desc = desc, .nulls = nulls};
    for (int k = 0; k < nkeys; k++)
        b->cols[first + k] = col_materialize(b->cols[first + k]);
    uint32_t *perm = xmalloc(sizeof *perm * (b->rows ? b->rows : 1));
    for (size_t i = 0; i < b->rows; i++)
        perm[i] = (uint32_t)i;
    qsort_r(perm, b->rows, sizeof *perm, cmp_rows, &sc);
    return perm;
}

block *sort_rows(block *b, int first, int nkeys, const bool *desc, const int *nulls, size_t want)
{
    if (b->rows <= 1)
        return b;
    uint32_t *perm = sort_perm(b, first, nkeys, desc, nulls);
    if (want > b->rows)
        want = b->rows;
    block *o = block_new(b->ncols, want);
    for (int c = 0; c < b->ncols; c++) {
        int e = block_twin_column(&b, 1, c);
        o->cols[c] = e >= 0 ? col_ref(o->cols[e]) : col_gather(b->cols[c], perm, want);
    }
    block_free(b);
    free(perm);
    return o;
}

/* ---- LIMIT BY ---- */

typedef struct limit_by_step {
    step base;
    expr *const *keys;
    int nkeys;
    uint64_t limit, offset;
    agg_table seen; /* key → rows seen so far (a uint64_t state) */
    buf key;
} limit_by_step;

static int limit_by_push(step *s, block *b)
{
    limit_by_step *l = (limit_by_step *)s;
    column *keys[256];
    for (int k = 0; k < l->nkeys; k++)
        if (expr_eval(l->keys[k], b, &keys[k])) {
            for (int j = 0; j < k; j++)
                col_free(keys[j]);
            block_free(b);
            return -1;
        } else {
            keys[k] = col_materialize(keys[k]);
        }
    uint8_t *keep = xmalloc(b->rows ? b->rows : 1);
    size_t kept = 0;
    for (size_t i = 0; i < b->rows; i++) {
        l->key.len = 0;
        agg_key_serialize(&l->key, keys, l->nkeys, i);
        bool inserted;
        agg_slot *sl = agg_table_find_or_insert(&l->seen, (const char *)l->key.p, l->key.len,
                                                agg_key_hash((const char *)l->key.p, l->key.len), 8, 8, &inserted);
        uint64_t *cnt = (uint64_t *)(void *)sl->states;
        if (inserted)
            *cnt = 0;
        uint64_t seen = (*cnt)++;
        keep[i] = seen >= l->offset && seen - l->offset < l->limit;
        kept += keep[i];
    }
    for (int k = 0; k < l->nkeys; k++)
        col_free(keys[k]);
    b = keep_rows(b, keep, kept);
    free(keep);
    return step_push(s->next, b);
}

static void limit_by_destroy(step *s)
{
    limit_by_step *l = (limit_by_step *)s;
    agg_table_free(&l->seen);
    buf_free(&l->key);
    free(l);
}

static const step_ops limit_by_ops = {"limit_by", limit_by_push, pass_finish, limit_by_destroy};

step *step_limit_by_new(expr *const *keys, int nkeys, uint64_t limit, uint64_t offset)
{
    limit_by_step *l = xcalloc(1, sizeof *l);
    l->base.ops = &limit_by_ops;
    l->keys = keys;
    l->nkeys = nkeys < 256 ? nkeys : 256;
    l->limit = limit;
    l->offset = offset;
    agg_table_init(&l->seen);
    return &l->base;
}

/* ---- OFFSET / LIMIT ---- */

typedef struct limit_step {
    step base;
    uint64_t offset, limit;
    uint64_t skipped, emitted;
} limit_step;

static int limit_push(step *s, block *b)
{
    limit_step *l = (limit_step *)s;
    if (l->limit != UINT64_MAX && l->emitted >= l->limit) {
        block_free(b);
        return STEP_ENOUGH;
    }
    if (l->skipped < l->offset) {
        uint64_t skip = l->offset - l->skipped < b->rows ? l->offset - l->skipped : b->rows;
        l->skipped += skip;
        if (skip) {
            block *rest = block_slice(b, skip, b->rows - skip);
            block_free(b);
            b = rest;
        }
    }
    bool finished = false;
    if (l->limit != UINT64_MAX && l->emitted + b->rows >= l->limit) {
        uint64_t take = l->limit - l->emitted;
        if (take < b->rows) {
            block *head = block_slice(b, 0, take);
            block_free(b);
            b = head;
        }
        finished = true;
    }
    l->emitted += b->rows;
    int rc = step_push(s->next, b);
    return rc ? rc : finished ? STEP_ENOUGH : 0;
}

static const step_ops limit_ops = {"limit", limit_push, pass_finish, plain_destroy};

step *step_limit_new(uint64_t offset, uint64_t limit)
{
    limit_step *l = xcalloc(1, sizeof *l);
    l->base.ops = &limit_ops;
    l->offset = offset;
    l->limit = limit;
    return &l->base;
}

/* ---- sink ---- */

typedef struct sink_step {
    step base;
    block_sink *sink;
    int ncols;
    size_t chunk;
    mem_tracker *mem;
} sink_step;

/* Workers check the memory limit at their block boundaries, but what the steps after them
 * allocate (merging the threads' states, a sort, a finalisation) has no later boundary:
 * no block reaches the client once the query has passed max_memory_usage. */
static int sink_push(step *s, block *b)
{
    sink_step *k = (sink_step *)s;
    if (mem_tracker_check(k->mem)) {
        block_free(b);
        return -1;
    }
    if (b->rows == 0) {
        block_free(b);
        return 0;
    }
    /* Drop helper columns (ORDER BY keys). */
    for (int c = k->ncols; c < b->ncols; c++)
        col_free(b->cols[c]);
    if (b->ncols > k->ncols)
        b->ncols = k->ncols;
    if (b->rows <= k->chunk)
        return k->sink->write(k->sink, b);
    for (size_t from = 0; from < b->rows; from += k->chunk) {
        size_t n = b->rows - from < k->chunk ? b->rows - from : k->chunk;
        if (k->sink->write(k->sink, block_slice(b, from, n))) {
            block_free(b);
            return -1;
        }
    }
    block_free(b);
    return 0;
}

static int sink_finish(step *s)
{
    return mem_tracker_check(((sink_step *)s)->mem);
}

static const step_ops sink_ops = {"sink", sink_push, sink_finish, plain_destroy};

step *step_sink_new(struct block_sink *sink, int ncols, size_t chunk, mem_tracker *mem)
{
    sink_step *k = xcalloc(1, sizeof *k);
    k->base.ops = &sink_ops;
    k->mem = mem;
    k->sink = sink;
    k->ncols = ncols;
    k->chunk = chunk;
    return &k->base;
}
