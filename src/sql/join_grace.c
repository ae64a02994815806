/* The grace hash join (join_algorithm = 'grace_hash', join.h), as ClickHouse defines it.
 *
 * 1. The right side is read block by block; each row goes to bucket
 *    (hash(key) >> 32) mod B — the top half of the hash, because the in-memory hash table
 *    indexes by the bottom half — and each block's rows of one bucket are appended to the
 *    right side's temporary file as one record (spill.h). B starts at
 *    grace_hash_join_initial_buckets (rounded up to a power of two) and doubles, up to
 *    grace_hash_join_max_buckets, whenever the right side's bytes read so far exceed B
 *    times the budget of one bucket (below) — or from the start, when the source knows
 *    its rows. Records written under a smaller B hold rows of several final buckets
 *    (bucket b of B/2 is buckets b and b + B/2 of B): a bucket reads them and keeps its
 *    own rows, so nothing is rewritten when B grows.
 * 2. The left side is partitioned the same way under the final B.
 * 3. The result is a source whose task b joins bucket b: the right rows of b in a hash
 *    table, the left records of b probed one at a time, then (RIGHT, FULL) the right rows
 *    no probe matched. Equal keys share a bucket, so every kind and strictness the
 *    in-memory join supports gives the same rows (in another order). A NULL key hashes to
 *    bucket 0; it never matches, as in memory.
 *
 * The budget of one bucket: the smallest of max_bytes_in_join, the threshold of
 * max_bytes_before_external_join (or its ratio of the memory left under the server's
 * limit) and max_memory_usage / (2 × max_threads) — max_threads buckets are joined at
 * once, each with its right rows, their keys and the hash table (join_cost) and a left
 * record with its result; max_rows_in_join bounds its rows likewise. With none of them
 * set B stays at grace_hash_join_initial_buckets, as in ClickHouse.
 *
 * The two temporary files are anonymous (spill.h): they vanish when the source is freed
 * — after the query, on an error or on cancellation. Tasks run on several threads: each
 * reads the files with pread into its own buffers. */
#include "base/err.h"
#include "base/mem.h"
#include "exec/spill.h"
#include "sql/join.h"

#include <stdlib.h>
#include <string.h>

typedef struct seg {
    uint64_t off;
    uint32_t nbuckets, bucket; /* written when there were nbuckets buckets, to this one */
} seg;

typedef struct side {
    spill_file *f;
    seg *segs;
    size_t n, cap;
    uint64_t bytes, rows; /* read from the source */
} side;

typedef struct grace {
    join_spec spec;
    uint32_t nbuckets;
    side l, r;
} grace;

typedef struct grace_it {
    grace *g;
    query_ctx *q;
    uint32_t bucket;
    int *cols, ncols;
    buf io, key;
    block *R;
    join_table t;
    size_t seg;       /* the next left record to look at */
    bool tail_done;
} grace_it;

static uint32_t bucket_of(uint64_t h, uint32_t nbuckets) { return (uint32_t)(h >> 32) & (nbuckets - 1); }

static uint32_t pow2_at_least(uint64_t v)
{
    uint32_t p = 1;
    while (p < v && p < (1u << 30))
        p <<= 1;
    return p;
}

/* Bytes and rows one bucket's right side may have (0: no limit). */
static int bucket_budget(query_ctx *q, uint64_t *bytes, uint64_t *rows)
{
    uint64_t b = 0, t;
    int64_t v = settings_int(q->st, "max_bytes_in_join");
    if (v > 0)
        b = (uint64_t)v;
    if (spill_threshold(q, "max_bytes_before_external_join", "max_bytes_ratio_before_external_join", &t))
        return -1;
    if (t && (!b || t < b))
        b = t;
    int64_t mem = settings_int(q->st, "max_memory_usage");
    if (mem > 0) {
        t = (uint64_t)mem / (2 * (uint64_t)(q->max_threads > 1 ? q->max_threads : 1));
        if (!b || t < b)
            b = t;
    }
    *bytes = b;
    v = settings_int(q->st, "max_rows_in_join");
    *rows = v > 0 ? (uint64_t)v : 0;
    return 0;
}

static void seg_push(side *sd, uint64_t off, uint32_t nbuckets, uint32_t bucket)
{
    if (sd->n == sd->cap) {
        sd->cap = sd->cap ? sd->cap * 2 : 256;
        sd->segs = xrealloc(sd->segs, sizeof *sd->segs * sd->cap);
    }
    sd->segs[sd->n++] = (seg){off, nbuckets, bucket};
}

/* Writes b's rows to their buckets' records in sd's file. */
static int split_block(grace *g, side *sd, bool right, const block *b, const schema *hdr, query_ctx *q, buf *io,
                       buf *key)
{
    const join_spec *s = &g->spec;
    uint32_t nb = g->nbuckets;
    column *keys[JOIN_MAX_KEYS] = {0};
    int rc = join_eval_keys(s, right, b, q->env.timezone, keys);
    uint32_t *bucket = xmalloc(sizeof *bucket * (b->rows + 1));
    uint32_t *start = xcalloc((size_t)nb + 1, sizeof *start);
    for (size_t i = 0; !rc && i < b->rows; i++) {
        bucket[i] = bucket_of(join_key_hash(keys, s->nkeys, i, key), nb);
        start[bucket[i] + 1]++;
    }
    for (int k = 0; k < s->nkeys; k++)
        col_free(keys[k]);
    for (uint32_t k = 0; k < nb; k++)
        start[k + 1] += start[k];
    /* rows grouped by bucket, in input order within each */
    uint32_t *rows = xmalloc(sizeof *rows * (b->rows + 1)), *fill = xmalloc(sizeof *fill * ((size_t)nb + 1));
    memcpy(fill, start, sizeof *fill * nb);
    for (size_t i = 0; !rc && i < b->rows; i++)
        rows[fill[bucket[i]]++] = (uint32_t)i;
    for (uint32_t k = 0; !rc && k < nb; k++) {
        size_t n = start[k + 1] - start[k];
        if (!n)
            continue;
        block *part = block_new(b->ncols, n);
        for (int c = 0; c < b->ncols; c++)
            part->cols[c] = col_gather(b->cols[c], rows + start[k], n);
        seg_push(sd, spill_size(sd->f), nb, k);
        rc = spill_write_block(sd->f, io, hdr, part);
        block_free(part);
    }
    free(bucket);
    free(start);
    free(rows);
    free(fill);
    return rc;
}

/* Reads every block of src (after what r says was read) into sd's buckets; for the right
 * side, grows the buckets past the budget. */
static int partition(grace *g, side *sd, bool right, source *src, source_pause *r, query_ctx *q)
{
    source_pause none = {0};
    if (!r)
        r = &none;
    const schema *hdr = right ? g->spec.rsch : g->spec.lsch;
    uint64_t budget_bytes = 0, budget_rows = 0;
    uint32_t max_buckets = 1;
    if (right) {
        if (bucket_budget(q, &budget_bytes, &budget_rows))
            return -1;
        int64_t m = settings_int(q->st, "grace_hash_join_max_buckets");
        max_buckets = pow2_at_least(m > 0 ? (uint64_t)m : 1);
        /* A source that knows its rows (numbers(), MergeTree) gives the buckets up front
         * — from the hash table's share of the cost, a lower bound —, so that few records
         * are written under fewer buckets and read again by several. */
        uint64_t hint = src->total_rows_hint, want = 1;
        if (hint && budget_bytes)
            want = hint > UINT64_MAX / JOIN_TABLE_ROW_BYTES ? UINT64_MAX : hint * JOIN_TABLE_ROW_BYTES / budget_bytes + 1;
        if (hint && budget_rows && hint / budget_rows + 1 > want)
            want = hint / budget_rows + 1;
        while (g->nbuckets < max_buckets && g->nbuckets < want)
            g->nbuckets *= 2;
    }
    char dir[4096];
    spill_dir(q, dir, sizeof dir);
    int n = src->sch->n, rc = spill_file_create(dir, &sd->f);
    int *cols = xcalloc((size_t)n + 1, sizeof *cols);
    for (int i = 0; i < n; i++)
        cols[i] = i;
    buf io = {0}, key = {0};
    for (int t = r->task; t < src->ntasks && !rc; t++) {
        void *it = r->it;
        r->it = NULL;
        if (!it && (rc = src->open(src, t, cols, n, q, &it)))
            break;
        for (;;) {
            block *b = r->pre;
            r->pre = NULL;
            if (!b && ((rc = query_check(q)) || (rc = src->next(it, &b)) || !b))
                break;
            sd->bytes += join_cost(b);
            sd->rows += b->rows;
            while (right && g->nbuckets < max_buckets &&
                   ((budget_bytes && sd->bytes > budget_bytes * g->nbuckets) ||
                    (budget_rows && sd->rows > budget_rows * g->nbuckets)))
                g->nbuckets *= 2;
            rc = split_block(g, sd, right, b, hdr, q, &io, &key);
            block_free(b);
            if (rc)
                break;
        }
        src->close(it);
    }
    if (r->it)
        src->close(r->it);
    block_free(r->pre);
    r->it = NULL;
    r->pre = NULL;
    free(cols);
    buf_free(&io);
    buf_free(&key);
    return rc ? rc : spill_flush(sd->f);
}

/* ---- the result: task b joins bucket b ---- */

static bool seg_in_bucket(const seg *s, uint32_t b) { return (b & (s->nbuckets - 1)) == s->bucket; }

/* Keeps the rows of a record written under fewer buckets that belong to bucket it->bucket. */
static int keep_own_rows(grace_it *it, block *b)
{
    const join_spec *s = &it->g->spec;
    column *keys[JOIN_MAX_KEYS] = {0};
    if (join_eval_keys(s, true, b, it->q->env.timezone, keys))
        return -1;
    uint8_t *keep = xmalloc(b->rows + 1);
    size_t kept = 0;
    for (size_t i = 0; i < b->rows; i++) {
        keep[i] = bucket_of(join_key_hash(keys, s->nkeys, i, &it->key), it->g->nbuckets) == it->bucket;
        kept += keep[i];
    }
    for (int k = 0; k < s->nkeys; k++)
        col_free(keys[k]);
    join_keep_rows(b, keep, kept);
    free(keep);
    return 0;
}

static void grace_close(void *p)
{
    grace_it *it = p;
    if (!it)
        return;
    join_table_free(&it->t);
    block_free(it->R);
    buf_free(&it->io);
    buf_free(&it->key);
    free(it->cols);
    free(it);
}

static int grace_open(source *src, int task, const int *cols, int ncols, query_ctx *q, void **out)
{
    grace *g = src->impl;
    grace_it *it = xcalloc(1, sizeof *it);
    it->g = g;
    it->q = q;
    it->bucket = (uint32_t)task;
    it->cols = xcalloc((size_t)ncols + 1, sizeof *it->cols);
    memcpy(it->cols, cols, sizeof *cols * (size_t)ncols);
    it->ncols = ncols;
    it->R = block_new_empty(g->spec.rsch);
    for (size_t i = 0; i < g->r.n; i++) {
        const seg *s = &g->r.segs[i];
        if (!seg_in_bucket(s, it->bucket))
            continue;
        uint64_t pos = s->off;
        block *b = NULL;
        if (query_check(q) || spill_read_block(g->r.f, &pos, &it->io, &b) ||
            (s->nbuckets < g->nbuckets && keep_own_rows(it, b))) {
            block_free(b);
            grace_close(it);
            return -1;
        }
        block_append(it->R, b);
        block_free(b);
    }
    if (join_table_build(&g->spec, it->R, q, &it->t)) {
        grace_close(it);
        return -1;
    }
    *out = it;
    return 0;
}

/* The requested columns of a result block (takes full). */
static block *project(const grace_it *it, block *full)
{
    block *o = block_new(it->ncols, full->rows);
    for (int i = 0; i < it->ncols; i++) {
        o->cols[i] = full->cols[it->cols[i]];
        full->cols[it->cols[i]] = NULL;
    }
    for (int c = 0; c < full->ncols; c++)
        col_free(full->cols[c]);
    full->ncols = 0;
    block_free(full);
    return o;
}

static int grace_next(void *p, block **out)
{
    grace_it *it = p;
    grace *g = it->g;
    *out = NULL;
    for (;;) {
        rowvec li = {0}, ri = {0};
        block *L = NULL;
        if (it->seg < g->l.n) {
            const seg *s = &g->l.segs[it->seg++];
            if (s->bucket != it->bucket)
                continue;
            uint64_t pos = s->off;
            if (spill_read_block(g->l.f, &pos, &it->io, &L) ||
                join_table_probe(&g->spec, &it->t, L, it->q, &li, &ri)) {
                block_free(L);
                free(li.v);
                free(ri.v);
                return -1;
            }
        } else if (!it->tail_done) {
            it->tail_done = true;
            L = block_new_empty(g->spec.lsch);
            join_table_unmatched(&g->spec, &it->t, &li, &ri);
        } else {
            return 0;
        }
        block *full = join_gather(&g->spec, L, it->R, &li, &ri);
        block_free(L);
        free(li.v);
        free(ri.v);
        if (g->spec.nresidual && join_filter_residual(&g->spec, full)) {
            block_free(full);
            return -1;
        }
        if (!full->rows) {
            block_free(full);
            continue;
        }
        *out = project(it, full);
        return 0;
    }
}

static void grace_destroy(source *src)
{
    grace *g = src->impl;
    join_spec_free(&g->spec);
    spill_file_close(g->l.f);
    spill_file_close(g->r.f);
    free(g->l.segs);
    free(g->r.segs);
    free(g);
}

int join_grace(join_spec *s, source *left, source *right, source_pause *r, query_ctx *q, source **out)
{
    grace *g = xcalloc(1, sizeof *g);
    g->spec = *s;
    memset(s, 0, sizeof *s);
    int64_t init = settings_int(q->st, "grace_hash_join_initial_buckets");
    g->nbuckets = pow2_at_least(init > 0 ? (uint64_t)init : 1);
    source *src = xcalloc(1, sizeof *src);
    src->impl = g;
    src->destroy = grace_destroy;
    if (partition(g, &g->r, true, right, r, q) || partition(g, &g->l, false, left, NULL, q)) {
        /* src has no schema yet: free by hand */
        grace_destroy(src);
        free(src);
        return -1;
    }
    src->sch = schema_clone(g->spec.out);
    src->nvisible = src->sch->n;
    src->ntasks = (int)g->nbuckets;
    src->open = grace_open;
    src->next = grace_next;
    src->close = grace_close;
    join_layout_names(&g->spec, src);
    if (join_compile_residual(&g->spec, src, q)) {
        source_free(src);
        return -1;
    }
    *out = src;
    return 0;
}
