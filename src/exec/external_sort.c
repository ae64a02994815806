/* External ORDER BY: see external_sort.h for the design. */
#include "exec/external_sort.h"

#include "base/err.h"
#include "base/mem.h"
#include "exec/spill.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct run_span {
    uint64_t off, end; /* [u64 length, FORMAT Native block]... */
} run_span;

typedef struct cursor {
    block *b;          /* current block; NULL when exhausted */
    uint32_t *perm;    /* a held block's sorted order (rows of b), or NULL: b is sorted */
    size_t row, end;   /* the next position and the end (a held block: cut to `want`) */
    uint64_t pos, stop; /* a file run: where its next block starts and where the run ends */
} cursor;

typedef struct xsort {
    step base;
    query_ctx *q;
    uint64_t threshold;
    int first, nkeys;
    const bool *desc;
    const int *nulls;
    size_t want;
    block **held;
    int n, cap;
    size_t held_bytes, held_rows;
    spill_file *f;
    schema *hdr;       /* c0, c1, … with the types of the first block */
    run_span *runs;
    int nruns, capruns;
    buf io;            /* a run block's bytes, read or written */
} xsort;

/* ---- the k-way merge ---- */

typedef struct merger {
    xsort *s;
    cursor *cs;
    int *heap, nheap;
    /* the rows of the output block being built, and the blocks they come from that are
     * exhausted but still referenced */
    block **src;
    uint32_t *rows;
    size_t nout, out_cap;
    block **retired;
    int nretired, capretired;
} merger;

/* a before b: by the keys, ties by cursor (input) order */
static bool less(const merger *m, int a, int b)
{
    const xsort *s = m->s;
    const cursor *x = &m->cs[a], *y = &m->cs[b];
    size_t rx = x->perm ? x->perm[x->row] : x->row, ry = y->perm ? y->perm[y->row] : y->row;
    for (int k = 0; k < s->nkeys; k++) {
        const column *cx = x->b->cols[s->first + k], *cy = y->b->cols[s->first + k];
        int c = col_compare(cx, rx, cy, ry, s->nulls[k]);
        if (c)
            return s->desc[k] ? c > 0 : c < 0;
    }
    return a < b;
}

static void sift_down(merger *m, int i)
{
    for (;;) {
        int l = 2 * i + 1, r = l + 1, best = i;
        if (l < m->nheap && less(m, m->heap[l], m->heap[best]))
            best = l;
        if (r < m->nheap && less(m, m->heap[r], m->heap[best]))
            best = r;
        if (best == i)
            return;
        int t = m->heap[i];
        m->heap[i] = m->heap[best];
        m->heap[best] = t;
        i = best;
    }
}

/* The next block of a file run into c->b (NULL at the run's end). */
static int load_next(xsort *s, cursor *c)
{
    c->b = NULL;
    free(c->perm);
    c->perm = NULL;
    c->row = c->end = 0;
    if (c->pos >= c->stop)
        return 0;
    int rc = spill_read_block(s->f, &c->pos, &s->io, &c->b);
    c->end = c->b ? c->b->rows : 0;
    return rc;
}

/* Builds the output block from the recorded rows and hands it to emit. */
static int flush(merger *m, int (*emit)(xsort *, block *))
{
    int rc = 0;
    if (m->nout) {
        const block *first = m->src[0];
        block *o = block_new(first->ncols, m->nout);
        for (int c = 0; c < first->ncols; c++) {
            int e = block_twin_column(m->src, m->nout, c);
            if (e >= 0) { /* shared again instead of a second copy */
                o->cols[c] = col_ref(o->cols[e]);
                continue;
            }
            column *col = col_new(first->cols[c]->type);
            for (size_t i = 0; i < m->nout; i++)
                col_push_from(col, m->src[i]->cols[c], m->rows[i]);
            o->cols[c] = col;
        }
        m->nout = 0;
        rc = emit(m->s, o);
    }
    for (int i = 0; i < m->nretired; i++)
        block_free(m->retired[i]);
    m->nretired = 0;
    return rc;
}

/* Merges the cursors (each positioned on its first block, or NULL) into blocks of out_rows
 * rows handed to emit, at most `limit` rows. emit's STEP_ENOUGH stops the merge. */
static int merge(xsort *s, cursor *cs, int nc, size_t out_rows, size_t limit, int (*emit)(xsort *, block *))
{
    merger m = {.s = s, .cs = cs, .out_cap = out_rows};
    m.heap = xmalloc(sizeof *m.heap * (size_t)(nc + 1));
    m.src = xmalloc(sizeof *m.src * out_rows);
    m.rows = xmalloc(sizeof *m.rows * out_rows);
    for (int i = 0; i < nc; i++)
        if (cs[i].b && cs[i].end)
            m.heap[m.nheap++] = i;
    for (int i = m.nheap / 2 - 1; i >= 0; i--)
        sift_down(&m, i);
    int rc = 0;
    size_t produced = 0;
    while (m.nheap && produced < limit && !rc) {
        cursor *c = &cs[m.heap[0]];
        m.src[m.nout] = c->b;
        m.rows[m.nout++] = c->perm ? c->perm[c->row] : (uint32_t)c->row;
        produced++;
        if (++c->row == c->end) {
            if (m.nretired == m.capretired) {
                m.capretired = m.capretired ? m.capretired * 2 : 8;
                m.retired = xrealloc(m.retired, sizeof *m.retired * (size_t)m.capretired);
            }
            m.retired[m.nretired++] = c->b;
            if ((rc = load_next(s, c)))
                break;
            if (!c->b || !c->end) {
                block_free(c->b);
                c->b = NULL;
                m.heap[0] = m.heap[--m.nheap];
            }
        }
        if (m.nheap)
            sift_down(&m, 0);
        if (m.nout == m.out_cap) {
            rc = flush(&m, emit);
            if (!rc && s->q)
                rc = query_check(s->q);
        }
    }
    if (!rc)
        rc = flush(&m, emit); /* after an error, the recorded rows are dropped */
    for (int i = 0; i < m.nretired; i++)
        block_free(m.retired[i]);
    free(m.retired);
    free(m.heap);
    free(m.src);
    free(m.rows);
    return rc;
}

/* ---- runs ---- */

/* Rows per block of a run: blocks of about threshold / 256 bytes (64 KiB to 1 MiB), so
 * that the final merge, which holds one block per run, stays well under the threshold
 * with a few hundred runs. */
static size_t run_block_rows(const xsort *s)
{
    size_t target = s->threshold / 256;
    if (target < ((size_t)64 << 10))
        target = (size_t)64 << 10;
    if (target > ((size_t)1 << 20))
        target = (size_t)1 << 20;
    size_t per_row = s->held_rows ? s->held_bytes / s->held_rows : 1;
    size_t rows = target / (per_row ? per_row : 1);
    return rows < 16 ? 16 : rows > 65409 ? 65409 : rows;
}

static int write_block(xsort *s, block *b)
{
    int rc = spill_write_block(s->f, &s->io, s->hdr, b);
    block_free(b);
    return rc;
}

/* The held blocks as cursors, each in its own sorted order (a permutation: sorting a
 * block without copying it keeps the memory of a spill at the held blocks). */
static cursor *held_cursors(xsort *s)
{
    cursor *cs = xcalloc((size_t)s->n + 1, sizeof *cs);
    for (int i = 0; i < s->n; i++) {
        block *b = s->held[i];
        cs[i].b = b;
        cs[i].perm = sort_perm(b, s->first, s->nkeys, s->desc, s->nulls);
        cs[i].end = b->rows < s->want ? b->rows : s->want;
    }
    return cs;
}

static void free_cursors(cursor *cs, int n)
{
    for (int i = 0; i < n; i++) {
        block_free(cs[i].b);
        free(cs[i].perm);
    }
    free(cs);
}

/* Merges the held blocks into a new run in the spill file. */
static int spill_run(xsort *s)
{
    if (!s->f) {
        char dir[4096];
        spill_dir(s->q, dir, sizeof dir);
        if (spill_file_create(dir, &s->f))
            return -1;
        const block *b = s->held[0];
        s->hdr = schema_new(b->ncols);
        for (int c = 0; c < b->ncols; c++) {
            char name[32];
            snprintf(name, sizeof name, "c%d", c);
            schema_set(s->hdr, c, name, b->cols[c]->type);
        }
    }
    if (s->nruns == s->capruns) {
        s->capruns = s->capruns ? s->capruns * 2 : 8;
        s->runs = xrealloc(s->runs, sizeof *s->runs * (size_t)s->capruns);
    }
    run_span *r = &s->runs[s->nruns++];
    r->off = spill_size(s->f);
    cursor *cs = held_cursors(s);
    int n = s->n;
    size_t rows = run_block_rows(s);
    s->n = 0;
    s->held_bytes = s->held_rows = 0;
    int rc = merge(s, cs, n, rows, s->want, write_block);
    free_cursors(cs, n);
    r->end = spill_size(s->f);
    return rc ? rc : spill_flush(s->f);
}

/* ---- the step ---- */

static int xsort_push(step *st, block *b)
{
    xsort *s = (xsort *)st;
    if (!b->rows) {
        block_free(b);
        return 0;
    }
    for (int c = 0; c < b->ncols; c++)
        b->cols[c] = col_materialize(b->cols[c]);
    if (s->n == s->cap) {
        s->cap = s->cap ? s->cap * 2 : 16;
        s->held = xrealloc(s->held, sizeof *s->held * (size_t)s->cap);
    }
    s->held[s->n++] = b;
    s->held_bytes += block_bytes(b);
    s->held_rows += b->rows;
    /* The held bytes past the threshold, or the query's memory (the readers, the blocks on
     * their way here) past it while the held blocks are a fair share of it (not a run
     * per block when the rest alone is above it). */
    if (!s->threshold)
        return 0; /* the in-memory sort (step_sort_new) */
    bool over = s->held_bytes > s->threshold ||
                ((uint64_t)atomic_load(&s->q->mem.used) > s->threshold && s->held_bytes > s->threshold / 8);
    return over ? spill_run(s) : 0;
}

static int emit_next(xsort *s, block *b)
{
    return step_push(s->base.next, b);
}

static int xsort_finish(step *st)
{
    xsort *s = (xsort *)st;
    int rc = 0;
    if (s->nruns && s->n)
        rc = spill_run(s); /* the rest becomes the last run: one kind of cursor to merge */
    if (!rc && s->nruns) {
        cursor *cs = xcalloc((size_t)s->nruns, sizeof *cs);
        for (int i = 0; i < s->nruns && !rc; i++) {
            cs[i].pos = s->runs[i].off;
            cs[i].stop = s->runs[i].end;
            rc = load_next(s, &cs[i]);
        }
        if (!rc)
            rc = merge(s, cs, s->nruns, 65409, s->want, emit_next);
        free_cursors(cs, s->nruns);
    } else if (!rc && s->n) {
        /* nothing spilled: each block sorted on its own (a permutation), then merged into
         * blocks of bounded size — no concatenation of the input and no sorted copy of it,
         * so memory stays at the held blocks plus their permutations */
        cursor *cs = held_cursors(s);
        int n = s->n;
        s->n = 0;
        rc = merge(s, cs, n, 65409, s->want, emit_next);
        free_cursors(cs, n);
    }
    if (rc == STEP_ENOUGH)
        rc = 0;
    return rc ? rc : step_finish(s->base.next);
}

static void xsort_destroy(step *st)
{
    xsort *s = (xsort *)st;
    for (int i = 0; i < s->n; i++)
        block_free(s->held[i]);
    free(s->held);
    spill_file_close(s->f);
    schema_free(s->hdr);
    free(s->runs);
    buf_free(&s->io);
    free(s);
}

static const step_ops xsort_ops = {"external_sort", xsort_push, xsort_finish, xsort_destroy};

/* threshold 0 (and q NULL): never spills — the in-memory sort of step_sort_new */
static step *xsort_new(query_ctx *q, uint64_t threshold, int first, int nkeys, const bool *desc, const int *nulls,
                       size_t want)
{
    xsort *s = xcalloc(1, sizeof *s);
    s->base.ops = &xsort_ops;
    s->q = q;
    s->threshold = threshold;
    s->first = first;
    s->nkeys = nkeys;
    s->desc = desc;
    s->nulls = nulls;
    s->want = want;
    return &s->base;
}

step *step_external_sort_new(query_ctx *q, uint64_t threshold, int first, int nkeys, const bool *desc,
                             const int *nulls, size_t want)
{
    return xsort_new(q, threshold, first, nkeys, desc, nulls, want);
}

step *step_sort_new(int first, int nkeys, const bool *desc, const int *nulls, size_t want)
{
    return xsort_new(NULL, 0, first, nkeys, desc, nulls, want);
}

int external_sort_runs(const step *st)
{
    return st->ops == &xsort_ops ? ((const xsort *)st)->nruns : 0;
}
