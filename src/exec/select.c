/* SELECT execution: workers, thread-local aggregation or collection, and the final
 * stage on the main thread. See select.h for the data flow. */
#include "exec/select.h"

#include "base/err.h"
#include "base/mem.h"
#include "exec/agg_hash.h"
#include "exec/agg_spill.h"
#include "exec/external_sort.h"
#include "exec/grouping_sets.h"
#include "exec/spill.h"
#include "exec/select_codes.h"
#include "exec/step.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

void select_plan_free(select_plan *p)
{
    if (!p)
        return;
    source_free(p->src);
    free(p->src_cols);
    array_join_plan_free(p->array_join);
    expr_free(p->where);
    for (int i = 0; i < p->nkeys; i++)
        expr_free(p->keys[i]);
    free(p->keys);
    for (int i = 0; i < p->naggs; i++) {
        for (int j = 0; j < p->agg_nargs[i]; j++)
            expr_free(p->agg_args[i][j]);
        free(p->agg_args[i]);
        agg_call_free(p->aggs[i]);
    }
    free(p->aggs);
    free(p->agg_args);
    free(p->agg_nargs);
    free(p->agg_offsets);
    free(p->set_masks);
    free(p->key_post_types);
    for (int i = 0; i < p->ngrouping; i++)
        free(p->grouping_args[i]);
    free(p->grouping_args);
    free(p->grouping_nargs);
    expr_free(p->having);
    for (int i = 0; i < p->nout; i++)
        expr_free(p->out[i]);
    free(p->out);
    schema_free(p->out_schema);
    for (int i = 0; i < p->norder; i++)
        expr_free(p->order[i]);
    free(p->order);
    free(p->order_desc);
    free(p->order_nulls);
    fill_plan_free(p->fill);
    for (int i = 0; i < p->nlimit_by; i++)
        expr_free(p->limit_by[i]);
    free(p->limit_by);
    window_plan_free(p->windows);
    free(p);
}

/* ---- shared state of one run ---- */

#define STREAM_WINDOW 64

typedef struct stream_slot {
    block **blocks;
    int n, cap;
    bool done;
    int task;          /* which task occupies the slot, -1 = free */
    size_t bytes;
} stream_slot;

typedef struct run {
    select_plan *p;
    query_ctx *q;
    codes_plan *codes;       /* columns taken dictionary-coded, or NULL (select_codes.h) */
    bool *pre_cols;          /* columns the WHERE reads, decoded first (source.set_prefilter) */
    bool streaming;
    _Atomic int next_task;
    _Atomic int stop;        /* enough rows (LIMIT) or an error */
    pthread_mutex_t lock;
    pthread_cond_t cond;
    /* streaming */
    int head;                /* the task the consumer is draining */
    int window;
    stream_slot slots[STREAM_WINDOW];
    size_t slot_bytes_max;
    size_t two_level_threshold;
    uint64_t agg_spill_at;   /* external GROUP BY: tracked bytes past which workers spill; 0 = never */
    _Atomic uint64_t spill_round; /* bumped when the query passes agg_spill_at: every worker spills */
    /* errors */
    bool failed;
    err_saved err;
    /* One worker on the calling thread (select_run's fast path): stream_push hands each
     * block straight to the chain of steps, in task order. */
    struct step *direct;
    int direct_rc;           /* the chain's failure (its error is in the thread's slot) */
} run;

typedef struct worker {
    run *r;
    pthread_t thread;
    agg_table table;
    char *single;            /* states when there are no keys */
    block **collected;
    int ncollected, capcollected;
    buf keybuf;              /* serialized GROUP BY keys of the current block */
    codes_cache *codes;      /* dictionary masks (with run.codes) */
    char **code_states;      /* coded GROUP BY key: a dictionary entry's states, or NULL */
    size_t code_states_cap;
    uint32_t *touched;       /* entries of code_states set by the current block */
    agg_table *buckets;      /* two-level: NBUCKETS tables by the hash's top bits, or NULL */
    agg_spill *spill;        /* external GROUP BY: the buckets this worker wrote out, or NULL */
    uint64_t spill_round;    /* the last round of r->spill_round this worker spilled in */
} worker;

/* Two-level aggregation: past group_by_two_level_threshold keys a worker's table is split
 * into NBUCKETS tables by the top bits of the key hash. Bucket b of every worker holds the
 * same keys, so the final merge and finalisation run bucket by bucket on all threads. */
#define NBUCKETS AGG_BUCKETS
#define BUCKET_OF(h) AGG_BUCKET_OF(h)

static void fail(run *r)
{
    pthread_mutex_lock(&r->lock);
    if (!r->failed) {
        r->failed = true;
        err_save(&r->err);
    }
    atomic_store(&r->stop, 1);
    pthread_cond_broadcast(&r->cond);
    pthread_mutex_unlock(&r->lock);
}

/* The rows of b (taken) with keep[i] set; kept of them. */
static block *filter_rows(block *b, const uint8_t *keep, size_t kept)
{
    if (kept == b->rows)
        return b;
    block *out = block_new(b->ncols, kept);
    for (int c = 0; c < b->ncols; c++)
        out->cols[c] = col_filter(b->cols[c], keep, kept);
    block_free(b);
    return out;
}

static void init_states(select_plan *p, char *states)
{
    for (int a = 0; a < p->naggs; a++)
        p->aggs[a]->ops.init(p->aggs[a], states + p->agg_offsets[a]);
}

/* Moves every group of the worker's table into NBUCKETS tables (keys are copied, states
 * moved by value: their ownership of any heap data moves with them). */
static void convert_two_level(worker *w)
{
    select_plan *p = w->r->p;
    w->buckets = xcalloc(NBUCKETS, sizeof *w->buckets);
    for (int b = 0; b < NBUCKETS; b++)
        agg_table_init(&w->buckets[b]);
    for (size_t i = 0; i < w->table.cap; i++) {
        agg_slot *s = &w->table.slots[i];
        if (!s->states)
            continue;
        bool inserted;
        agg_slot *d = agg_table_find_or_insert(&w->buckets[BUCKET_OF(s->hash)], agg_slot_key(s), s->key_len, s->hash,
                                               p->state_size, p->state_align, &inserted);
        memcpy(d->states, s->states, p->state_size);
    }
    agg_table_free(&w->table);
    agg_table_init(&w->table);
}

/* The states of each row of a block whose only GROUP BY key arrived dictionary-coded:
 * each distinct code of the block finds (or inserts) its group once. */
static void coded_key_states(worker *w, const column *key, char **states)
{
    select_plan *p = w->r->p;
    const column *dict = key->dict;
    if (w->code_states_cap < dict->len) {
        free(w->code_states);
        free(w->touched);
        w->code_states_cap = dict->len;
        w->code_states = xcalloc(dict->len, sizeof *w->code_states);
        w->touched = xmalloc(sizeof *w->touched * dict->len);
    }
    char **cs = w->code_states;
    const uint32_t *code = col_codes(key);
    size_t nt = 0;
    buf *kb = &w->keybuf;
    for (size_t i = 0; i < key->len; i++) {
        uint32_t c = code[i];
        if (!cs[c]) {
            kb->len = 0;
            column *d = (column *)(uintptr_t)dict;
            agg_key_serialize(kb, &d, 1, c);
            uint64_t h = agg_key_hash((const char *)kb->p, kb->len);
            agg_table *t = w->buckets ? &w->buckets[BUCKET_OF(h)] : &w->table;
            bool inserted;
            agg_slot *s = agg_table_find_or_insert(t, (const char *)kb->p, kb->len, h, p->state_size, p->state_align,
                                                   &inserted);
            if (inserted)
                init_states(p, s->states);
            cs[c] = s->states;
            w->touched[nt++] = c;
        }
        states[i] = cs[c];
    }
    for (size_t i = 0; i < nt; i++) /* the table may move states before the next block */
        cs[w->touched[i]] = NULL;
}

static int aggregate_block(worker *w, block *b, const uint8_t *mask)
{
    select_plan *p = w->r->p;
    int rc = -1;
    column *keys[64] = {0};
    column **args[64] = {0};
    for (int k = 0; k < p->nkeys; k++)
        if (expr_eval(p->keys[k], b, &keys[k]))
            goto out;
    for (int a = 0; a < p->naggs; a++) {
        args[a] = xcalloc((size_t)p->agg_nargs[a] + 1, sizeof *args[a]);
        for (int j = 0; j < p->agg_nargs[a]; j++)
            if (expr_eval(p->agg_args[a][j], b, &args[a][j]))
                goto out;
    }
    if (p->nkeys == 0) {
        for (int a = 0; a < p->naggs; a++) {
            if (mask)
                p->aggs[a]->ops.add_all_mask(p->aggs[a], w->single + p->agg_offsets[a], args[a], b->rows, mask);
            else
                p->aggs[a]->ops.add_all(p->aggs[a], w->single + p->agg_offsets[a], args[a], b->rows);
        }
    } else if (p->nkeys == 1 && keys[0]->dict && !p->nsets) {
        /* the WHERE's mask, if any, applies here: only the codes and the arguments of the
         * kept rows are gathered (nothing else of the block is filtered) */
        size_t rows = b->rows;
        if (mask) {
            size_t kept = 0;
            for (size_t i = 0; i < b->rows; i++)
                kept += mask[i];
            column *k = col_filter(keys[0], mask, kept);
            col_free(keys[0]);
            keys[0] = k;
            for (int a = 0; a < p->naggs; a++)
                for (int j = 0; j < p->agg_nargs[a]; j++) {
                    column *f = col_filter(args[a][j], mask, kept);
                    col_free(args[a][j]);
                    args[a][j] = f;
                }
            rows = kept;
        }
        char **states = xmalloc(sizeof *states * (rows ? rows : 1));
        coded_key_states(w, keys[0], states);
        for (int a = 0; a < p->naggs; a++)
            p->aggs[a]->ops.add_rows(p->aggs[a], states, p->agg_offsets[a], args[a], rows);
        free(states);
        if (!w->buckets && w->table.count > w->r->two_level_threshold)
            convert_two_level(w);
    } else {
        for (int k = 0; k < p->nkeys; k++)
            keys[k] = col_materialize(keys[k]);
        /* ROLLUP / CUBE / GROUPING SETS: each row goes to one group per set, whose key is
         * the set's keys (the others at their defaults) and the set's number. */
        for (int set = 0; set < (p->nsets ? p->nsets : 1); set++) {
        column *set_keys[64];
        grouping_sets_keys(p, set, keys, b->rows, set_keys);
        /* Three passes over the block: serialize every key, hash them all, then probe
         * with the slot of a row PREFETCH rows ahead already on its way from memory. */
        enum { PREFETCH = 16 };
        size_t rows = b->rows;
        char **states = xmalloc(sizeof *states * (rows ? rows : 1));
        uint32_t *koff = xmalloc(sizeof *koff * (rows + 1));
        uint64_t *hashes = xmalloc(sizeof *hashes * (rows ? rows : 1));
        buf *key = &w->keybuf;
        key->len = 0;
        for (size_t i = 0; i < rows; i++) {
            koff[i] = (uint32_t)key->len;
            agg_key_serialize(key, p->nsets ? set_keys : keys, p->nkeys, i);
            if (p->nsets)
                buf_append(key, &(uint16_t){(uint16_t)set}, sizeof(uint16_t));
        }
        koff[rows] = (uint32_t)key->len;
        /* keys of no bytes (GROUP BY of an empty tuple) leave the buffer unallocated */
        const char *kp = key->p ? (const char *)key->p : "";
        for (size_t i = 0; i < rows; i++)
            hashes[i] = agg_key_hash(kp + koff[i], koff[i + 1] - koff[i]);
        agg_table *bk = w->buckets;
#define TABLE_FOR(h) (bk ? &bk[BUCKET_OF(h)] : &w->table)
        for (size_t i = 0; i < rows; i++) {
            if (i + PREFETCH < rows)
                agg_table_prefetch(TABLE_FOR(hashes[i + PREFETCH]), hashes[i + PREFETCH]);
            if (i + PREFETCH / 2 < rows)
                agg_table_prefetch_key(TABLE_FOR(hashes[i + PREFETCH / 2]), hashes[i + PREFETCH / 2]);
            bool inserted;
            agg_slot *s = agg_table_find_or_insert(TABLE_FOR(hashes[i]), kp + koff[i], koff[i + 1] - koff[i], hashes[i],
                                                   p->state_size, p->state_align, &inserted);
            if (inserted)
                init_states(p, s->states);
            states[i] = s->states;
        }
#undef TABLE_FOR
        free(koff);
        free(hashes);
        for (int a = 0; a < p->naggs; a++)
            p->aggs[a]->ops.add_rows(p->aggs[a], states, p->agg_offsets[a], args[a], b->rows);
        free(states);
        grouping_sets_keys_free(p, set, set_keys);
        }
        /* Only now: the states pointers of this block point into the current table. */
        if (!w->buckets && w->table.count > w->r->two_level_threshold)
            convert_two_level(w);
    }
    rc = 0;
out:
    for (int k = 0; k < p->nkeys; k++)
        col_free(keys[k]);
    for (int a = 0; a < p->naggs; a++) {
        if (!args[a])
            continue;
        for (int j = 0; j < p->agg_nargs[a]; j++)
            col_free(args[a][j]);
        free(args[a]);
    }
    return rc;
}

/* External GROUP BY: when the query's memory passes the threshold with a two-level table
 * (as ClickHouse, a small table does not spill), a spill round starts and every worker
 * writes out its tables at its next block. (If only the worker that noticed spilled, the
 * others' tables would keep the memory above the threshold and it would spill a block's
 * worth of groups after every block.) */
static int maybe_spill(worker *w)
{
    run *r = w->r;
    uint64_t round = atomic_load(&r->spill_round);
    if (w->spill_round == round && w->buckets && (uint64_t)atomic_load(&r->q->mem.used) > r->agg_spill_at &&
        atomic_compare_exchange_strong(&r->spill_round, &round, round + 1))
        round++;
    if (w->spill_round == round)
        return 0;
    w->spill_round = round;
    if (!w->buckets)
        convert_two_level(w);
    return agg_spill_write(&w->spill, r->p, r->q, w->buckets);
}

/* Post-stage expressions of a non-aggregating query: output columns then ORDER BY keys. */
static int project_block(select_plan *p, const block *b, bool with_order, block **out)
{
    int n = p->nout + (with_order ? p->norder : 0);
    block *o = block_new(n, b->rows);
    for (int i = 0; i < p->nout; i++)
        if (expr_eval(p->out[i], b, &o->cols[i]))
            goto bad;
    if (with_order)
        for (int i = 0; i < p->norder; i++)
            if (expr_eval(p->order[i], b, &o->cols[p->nout + i]))
                goto bad;
    *out = o;
    return 0;
bad:
    block_free(o);
    return -1;
}

/* ORDER BY … LIMIT n without aggregation: a worker keeps only its best offset + n rows,
 * compacting its collected blocks (sort, cut) whenever they grow past a bound, so memory
 * stays proportional to the limit instead of the input. */
static void maybe_compact_top(worker *w)
{
    select_plan *p = w->r->p;
    if (!p->norder || p->limit == UINT64_MAX || p->distinct || p->nlimit_by || p->windows)
        return;
    size_t want = (size_t)(p->offset + p->limit);
    size_t rows = 0, bytes = 0;
    for (int i = 0; i < w->ncollected; i++) {
        rows += w->collected[i]->rows;
        bytes += block_bytes(w->collected[i]);
    }
    /* past twice the limit and past 2^18 rows or 32 MiB (long strings: a row count alone
     * would let a worker hold hundreds of MiB for a LIMIT 10) */
    if (rows <= want * 2 || (rows <= (1u << 18) && bytes <= ((size_t)32 << 20)) || w->ncollected < 2)
        return;
    block *all = concat_blocks(w->collected, w->ncollected, p->nout + p->norder, NULL);
    for (int i = 0; i < w->ncollected; i++)
        block_free(w->collected[i]);
    w->ncollected = 1;
    w->collected[0] = sort_rows(all, p->nout, p->norder, p->order_desc, p->order_nulls, want);
}

static void collect(worker *w, block *b)
{
    if (w->ncollected == w->capcollected) {
        w->capcollected = w->capcollected ? w->capcollected * 2 : 16;
        w->collected = xrealloc(w->collected, sizeof *w->collected * (size_t)w->capcollected);
    }
    w->collected[w->ncollected++] = b;
    maybe_compact_top(w);
}


/* Streaming: hands a block of task t to the consumer, waiting while the slot is full.
 * The task being drained gets more room (4 slots' worth) but is bounded too: when the
 * consumer is slow (an INSERT writing parts) the reader must not run a whole file ahead.
 * Returns false when the run stopped. */
static bool stream_push(run *r, int t, block *b)
{
    if (r->direct) {
        bool finished = false;
        if (atomic_load(&r->stop)) {
            block_free(b);
            return false;
        }
        int rc = step_push(r->direct, b);
        finished = rc == STEP_ENOUGH;
        r->direct_rc = finished ? 0 : rc;
        if (r->direct_rc || finished) {
            atomic_store(&r->stop, 1);
            return false;
        }
        return true;
    }
    pthread_mutex_lock(&r->lock);
    stream_slot *s = &r->slots[t % r->window];
    while (!atomic_load(&r->stop) && s->bytes > (t == r->head ? 4 * r->slot_bytes_max : r->slot_bytes_max))
        pthread_cond_wait(&r->cond, &r->lock);
    if (atomic_load(&r->stop)) {
        pthread_mutex_unlock(&r->lock);
        block_free(b);
        return false;
    }
    if (s->n == s->cap) {
        s->cap = s->cap ? s->cap * 2 : 8;
        s->blocks = xrealloc(s->blocks, sizeof *s->blocks * (size_t)s->cap);
    }
    s->blocks[s->n++] = b;
    s->bytes += block_bytes(b);
    pthread_cond_broadcast(&r->cond);
    pthread_mutex_unlock(&r->lock);
    return true;
}

static void stream_done(run *r, int t)
{
    pthread_mutex_lock(&r->lock);
    r->slots[t % r->window].done = true;
    pthread_cond_broadcast(&r->cond);
    pthread_mutex_unlock(&r->lock);
}

/* Takes the next task number, or -1 when none is left (or, streaming, waits for the
 * window to move). */
static int take_task(run *r)
{
    if (!r->streaming || r->direct) {
        if (r->direct && atomic_load(&r->stop))
            return -1;
        int t = atomic_fetch_add(&r->next_task, 1);
        return t < r->p->src->ntasks ? t : -1;
    }
    pthread_mutex_lock(&r->lock);
    int t = -1;
    for (;;) {
        if (atomic_load(&r->stop))
            break;
        int next = atomic_load(&r->next_task);
        if (next >= r->p->src->ntasks)
            break;
        if (next < r->head + r->window) {
            atomic_store(&r->next_task, next + 1);
            stream_slot *s = &r->slots[next % r->window];
            s->task = next;
            s->done = false;
            s->n = 0;
            s->bytes = 0;
            t = next;
            break;
        }
        pthread_cond_wait(&r->cond, &r->lock);
    }
    pthread_mutex_unlock(&r->lock);
    return t;
}

/* The WHERE over block b: keep[i] for the rows that pass; returns how many, or -1 with
 * err_set. Also the callback of sources that decode the WHERE's columns first
 * (source.set_prefilter), whose blocks hold only those columns. */
static long where_keep(void *ctx, const block *b, uint8_t *keep)
{
    worker *w = ctx;
    run *r = w->r;
    if (r->codes) {
        if (!w->codes)
            w->codes = codes_cache_new(r->codes);
        return codes_where(r->codes, w->codes, b, keep);
    }
    column *m;
    if (expr_eval(r->p->where, b, &m))
        return -1;
    m = col_materialize(m);
    long kept = (long)expr_truth_mask(m, keep);
    col_free(m);
    return kept;
}

/* The columns to decode first: those of a deterministic WHERE, when some other column is
 * read too (else there is nothing to spare). NULL when not worth it. */
static bool *prefilter_columns(const select_plan *p)
{
    if (!p->where || !p->src->set_prefilter || p->nsrc_cols < 2 || p->array_join)
        return NULL;
    uint8_t *used = xcalloc((size_t)p->nsrc_cols + 1, 1);
    bool det = expr_columns(p->where, used);
    int n = 0;
    for (int i = 0; i < p->nsrc_cols; i++)
        n += used[i];
    bool *cols = NULL;
    if (det && n > 0 && n < p->nsrc_cols) {
        cols = xcalloc((size_t)p->nsrc_cols + 1, sizeof *cols);
        for (int i = 0; i < p->nsrc_cols; i++)
            cols[i] = used[i];
    }
    free(used);
    return cols;
}

static void *worker_main(void *arg)
{
    worker *w = arg;
    run *r = w->r;
    select_plan *p = r->p;
    mem_thread_init();
    mem_tracker *prev = mem_tracker_attach(&r->q->mem);
    int t;
    while ((t = take_task(r)) >= 0) {
        void *it = NULL;
        if (p->src->open(p->src, t, p->src_cols, p->nsrc_cols, r->q, &it)) {
            fail(r);
            break;
        }
        if (r->pre_cols)
            p->src->set_prefilter(it, r->pre_cols, where_keep, w);
        block *b;
        bool ok = true;
        while (ok && !atomic_load(&r->stop)) {
            if (query_check(r->q) || p->src->next(it, &b)) {
                ok = false;
                break;
            }
            if (!b)
                break;
            bool filtered = false;
            if (p->array_join) {
                if (p->where && p->where_before_array_join) {
                    uint8_t *keep = xmalloc(b->rows + 1);
                    long kept = where_keep(w, b, keep);
                    if (kept > 0)
                        b = filter_rows(b, keep, (size_t)kept);
                    free(keep);
                    if (kept <= 0) {
                        block_free(b);
                        if (kept < 0) {
                            ok = false;
                            break;
                        }
                        continue;
                    }
                    filtered = true;
                }
                if (array_join_apply(p->array_join, &b)) {
                    ok = false;
                    break;
                }
                if (b->rows == 0) {
                    block_free(b);
                    continue;
                }
            }
            uint8_t *mask = NULL;
            if (p->where && !filtered) {
                uint8_t *keep = xmalloc(b->rows + 1);
                long kept = where_keep(w, b, keep);
                if (kept <= 0) {
                    free(keep);
                    block_free(b);
                    if (kept < 0) {
                        ok = false;
                        break;
                    }
                    continue;
                }
                int kc = r->codes ? codes_plan_key_col(r->codes) : -1;
                if (p->aggregate && (p->nkeys == 0 || (kc >= 0 && b->cols[kc]->dict && !p->nsets))) {
                    /* aggregates without keys, or by a coded key, take the mask directly:
                     * no column is filtered or copied (not with ROLLUP, CUBE or GROUPING
                     * SETS: aggregate_block's path for them reads whole blocks) */
                    mask = keep;
                } else {
                    b = filter_rows(b, keep, (size_t)kept);
                    free(keep);
                }
            }
            if (p->aggregate) {
                ok = aggregate_block(w, b, mask) == 0;
                free(mask);
                block_free(b);
                if (ok && r->agg_spill_at)
                    ok = maybe_spill(w) == 0;
            } else if (p->windows) { /* projected after the window step */
                if (r->streaming)
                    ok = stream_push(r, t, b) || !r->failed;
                else
                    collect(w, b);
            } else {
                block *o;
                ok = project_block(p, b, !r->streaming || p->norder, &o) == 0;
                block_free(b);
                if (!ok)
                    break;
                if (r->streaming)
                    ok = stream_push(r, t, o) || !r->failed;
                else
                    collect(w, o);
            }
        }
        p->src->close(it);
        if (!ok) {
            if (!atomic_load(&r->stop) || err_code())
                fail(r);
            break;
        }
        if (r->streaming && !r->direct)
            stream_done(r, t);
    }
    codes_cache_free(w->codes);
    w->codes = NULL;
    mem_tracker_attach(prev);
    return NULL;
}

/* ---- final stage ---- */

static block *new_post_block(select_plan *p)
{
    block *b = block_new(p->nkeys + p->naggs, 0);
    for (int k = 0; k < p->nkeys; k++)
        b->cols[k] = col_new(p->keys[k]->type);
    for (int a = 0; a < p->naggs; a++)
        b->cols[p->nkeys + a] = col_new(p->aggs[a]->ret);
    return b;
}

/* Appends every group of t to the post block b ([keys..., aggregates...]). */
static int finalize_table(select_plan *p, agg_table *t, block *b)
{
    int rc = 0;
    for (size_t i = 0; i < t->cap && !rc; i++) {
        agg_slot *s = &t->slots[i];
        if (!s->states)
            continue;
        const char *kp = agg_slot_key(s);
        agg_key_deserialize(&kp, b->cols, p->nkeys);
        for (int a = 0; a < p->naggs && !rc; a++)
            rc = p->aggs[a]->ops.finalize(p->aggs[a], s->states + p->agg_offsets[a], b->cols[p->nkeys + a]);
        b->rows++;
    }
    return rc;
}

static void destroy_states(select_plan *p, char *states)
{
    for (int a = 0; a < p->naggs; a++)
        if (p->aggs[a]->ops.destroy)
            p->aggs[a]->ops.destroy(p->aggs[a], states + p->agg_offsets[a]);
}

static void destroy_table_states(select_plan *p, agg_table *t)
{
    for (size_t i = 0; i < t->cap; i++)
        if (t->slots[i].states)
            destroy_states(p, t->slots[i].states);
}

/* Merges src's groups into dst; src's states are consumed (merged and destroyed, or moved). */
static void merge_tables(select_plan *p, agg_table *dst, agg_table *src)
{
    for (size_t i = 0; i < src->cap; i++) {
        agg_slot *s = &src->slots[i];
        if (!s->states)
            continue;
        bool inserted;
        agg_slot *d = agg_table_find_or_insert(dst, agg_slot_key(s), s->key_len, s->hash, p->state_size, p->state_align,
                                               &inserted);
        if (inserted) {
            memcpy(d->states, s->states, p->state_size);
        } else {
            for (int a = 0; a < p->naggs; a++)
                p->aggs[a]->ops.merge(p->aggs[a], d->states + p->agg_offsets[a], s->states + p->agg_offsets[a]);
            destroy_states(p, s->states);
        }
        s->states = NULL; /* consumed */
    }
}

static void free_worker_states(select_plan *p, worker *w)
{
    if (!p->aggregate)
        return;
    if (p->nkeys == 0) {
        destroy_states(p, w->single);
        return;
    }
    destroy_table_states(p, &w->table);
    for (int b = 0; w->buckets && b < NBUCKETS; b++)
        destroy_table_states(p, &w->buckets[b]);
}

/* The final merge of a two-level aggregation: thread k merges and finalises the buckets
 * b with b % nthreads == k, into blocks[b]. */
typedef struct merge_job {
    select_plan *p;
    query_ctx *q;
    worker *ws;
    int nworkers;
    int k, nthreads;
    int from, to;            /* the buckets of this round */
    block **blocks;
    int rc;
    err_saved err;
} merge_job;

static void *merge_buckets(void *arg)
{
    merge_job *j = arg;
    mem_tracker *prev = mem_tracker_attach(&j->q->mem);
    agg_spill **spills = xcalloc((size_t)j->nworkers, sizeof *spills);
    for (int w = 0; w < j->nworkers; w++)
        spills[w] = j->ws[w].spill;
    for (int b = j->from + j->k; b < j->to && !j->rc; b += j->nthreads) {
        agg_table *dst = &j->ws[0].buckets[b];
        for (int w = 1; w < j->nworkers; w++)
            merge_tables(j->p, dst, &j->ws[w].buckets[b]);
        j->blocks[b] = new_post_block(j->p);
        if (agg_spill_merge_bucket(j->p, spills, j->nworkers, b, dst) || finalize_table(j->p, dst, j->blocks[b])) {
            j->rc = -1;
            err_save(&j->err);
        }
        destroy_table_states(j->p, dst);
        agg_table_free(dst);
        agg_table_init(dst);
    }
    free(spills);
    mem_tracker_attach(prev);
    return NULL;
}

/* Merges and finalises buckets [from, to) of two-level workers on max_threads threads,
 * bucket b into blocks[b]. */
static int merge_round(select_plan *p, query_ctx *q, worker *ws, int n, int from, int to, block **blocks)
{
    int nthreads = q->max_threads > 1 ? q->max_threads : 1;
    merge_job *jobs = xcalloc((size_t)nthreads, sizeof *jobs);
    pthread_t *th = xcalloc((size_t)nthreads, sizeof *th);
    for (int k = 0; k < nthreads; k++) {
        jobs[k] = (merge_job){.p = p, .q = q, .ws = ws, .nworkers = n, .k = k, .nthreads = nthreads,
                              .from = from, .to = to, .blocks = blocks};
        if (k > 0)
            pthread_create(&th[k], NULL, merge_buckets, &jobs[k]);
    }
    merge_buckets(&jobs[0]);
    for (int k = 1; k < nthreads; k++)
        pthread_join(th[k], NULL);
    int rc = 0;
    for (int k = 0; k < nthreads && !rc; k++)
        if (jobs[k].rc)
            rc = err_restore(&jobs[k].err);
    free(jobs);
    free(th);
    return rc;
}

/* WITH TOTALS over one table of groups (finalised into post, in slot order): merges the
 * states of the groups HAVING keeps (all with totals_before_having) into one state row
 * and finalises it into *totals, whose keys are their types' defaults. */
static int group_totals(select_plan *p, agg_table *t, const block *post, block **totals)
{
    uint8_t *keep = NULL;
    if (p->having && !p->totals_before_having) {
        column *m;
        if (expr_eval(p->having, post, &m))
            return -1;
        m = col_materialize(m);
        keep = xmalloc(post->rows + 1);
        expr_truth_mask(m, keep);
        col_free(m);
    }
    arena a;
    arena_init(&a);
    char *states = arena_alloc(&a, p->state_size ? p->state_size : 1, p->state_align ? p->state_align : 8);
    init_states(p, states);
    size_t row = 0;
    for (size_t i = 0; i < t->cap; i++) {
        agg_slot *s = &t->slots[i];
        if (!s->states || (p->nsets && !grouping_sets_slot_in_first(p, s)))
            continue; /* totals of ROLLUP / CUBE: the groups of all keys (the first set) */
        if (!keep || keep[row])
            for (int k = 0; k < p->naggs; k++)
                p->aggs[k]->ops.merge(p->aggs[k], states + p->agg_offsets[k], s->states + p->agg_offsets[k]);
        row++;
    }
    free(keep);
    block *b = new_post_block(p);
    int rc = 0;
    for (int k = 0; k < p->nkeys; k++) /* a constant key keeps its value, as in ClickHouse */
        if (p->keys[k]->kind == EX_CONST) {
            column *v = col_materialize(col_ref(p->keys[k]->value));
            col_push_from(b->cols[k], v, 0);
            col_free(v);
        } else
            col_push_default(b->cols[k]);
    for (int k = 0; k < p->naggs && !rc; k++)
        rc = p->aggs[k]->ops.finalize(p->aggs[k], states + p->agg_offsets[k], b->cols[p->nkeys + k]);
    b->rows = 1;
    destroy_states(p, states);
    arena_free(&a);
    if (rc) {
        block_free(b);
        return -1;
    }
    *totals = b;
    return 0;
}

/* Merges the workers' states and builds the post block [keys..., aggregates...]; with
 * totals (WITH TOTALS), also the totals post block. */
static int merge_and_finalize(select_plan *p, query_ctx *q, worker *ws, int n, block **out, block **totals)
{
    block *b = new_post_block(p);
    if (p->nkeys == 0) {
        int rc = 0;
        for (int i = 1; i < n; i++) {
            for (int a = 0; a < p->naggs; a++)
                p->aggs[a]->ops.merge(p->aggs[a], ws[0].single + p->agg_offsets[a], ws[i].single + p->agg_offsets[a]);
            destroy_states(p, ws[i].single);
        }
        if (p->count_known) /* count() only: the rows the source counted for us */
            p->aggs[0]->ops.add_all(p->aggs[0], ws[0].single + p->agg_offsets[0], NULL, (size_t)p->count_known);
        for (int a = 0; a < p->naggs && !rc; a++)
            rc = p->aggs[a]->ops.finalize(p->aggs[a], ws[0].single + p->agg_offsets[a], b->cols[a]);
        destroy_states(p, ws[0].single);
        b->rows = 1;
        if (!rc && totals) /* the only row is its own total */
            *totals = block_slice(b, 0, 1);
        *out = b;
        return rc;
    }
    bool two_level = false;
    for (int i = 0; i < n; i++)
        two_level |= ws[i].buckets != NULL;
    if (!two_level) {
        for (int i = 1; i < n; i++)
            merge_tables(p, &ws[0].table, &ws[i].table);
        int rc = 0;
        if (p->nsets) { /* ROLLUP / CUBE / GROUPING SETS: the groups of every set */
            block_free(b);
            b = NULL;
            rc = grouping_sets_finalize(p, &ws[0].table, &b);
        } else {
            rc = finalize_table(p, &ws[0].table, b);
        }
        if (!rc && totals)
            rc = group_totals(p, &ws[0].table, b, totals);
        if (!rc && totals && p->nsets)
            *totals = grouping_sets_totals(p, *totals);
        destroy_table_states(p, &ws[0].table);
        *out = b;
        return rc;
    }
    for (int i = 0; i < n; i++)
        if (!ws[i].buckets)
            convert_two_level(&ws[i]);
    block **blocks = xcalloc(NBUCKETS, sizeof *blocks);
    int rc = merge_round(p, q, ws, n, 0, NBUCKETS, blocks);
    for (int bk = 0; bk < NBUCKETS; bk++) {
        if (blocks[bk] && !rc)
            block_append(b, blocks[bk]);
        block_free(blocks[bk]);
    }
    free(blocks);
    *out = b;
    return rc;
}

static step *build_chain(select_plan *p, query_ctx *q, block_sink *sink, bool projected, bool streaming);

/* After an external GROUP BY: the buckets are merged max_threads at a time and each round
 * goes down the chain before the next is read, so the groups are never all in memory. */
static int merge_spilled(select_plan *p, query_ctx *q, worker *ws, int n, block_sink *sink)
{
    for (int i = 0; i < n; i++)
        if (!ws[i].buckets)
            convert_two_level(&ws[i]);
    int step_n = q->max_threads > 1 ? q->max_threads : 1;
    step *chain = build_chain(p, q, sink, false, false);
    block **blocks = xcalloc(NBUCKETS, sizeof *blocks);
    int rc = 0;
    for (int from = 0; from < NBUCKETS && !rc; from += step_n) {
        int to = from + step_n < NBUCKETS ? from + step_n : NBUCKETS;
        rc = merge_round(p, q, ws, n, from, to, blocks);
        for (int b = from; b < to; b++) {
            if (!rc && blocks[b])
                rc = step_push(chain, blocks[b]);
            else
                block_free(blocks[b]);
            blocks[b] = NULL;
        }
        if (!rc)
            rc = query_check(q);
    }
    if (rc == STEP_ENOUGH)
        rc = 0;
    if (!rc)
        rc = step_finish(chain);
    step_chain_free(chain);
    free(blocks);
    return rc;
}

static int consume_stream(run *r, step *chain)
{
    select_plan *p = r->p;
    int rc = 0;
    pthread_mutex_lock(&r->lock);
    while (r->head < p->src->ntasks) {
        stream_slot *s = &r->slots[r->head % r->window];
        if (r->failed)
            break;
        bool started = r->head < atomic_load(&r->next_task) && s->task == r->head;
        if (!started || (s->n == 0 && !s->done)) {
            if (!started && atomic_load(&r->stop))
                break;
            pthread_cond_wait(&r->cond, &r->lock);
            continue;
        }
        if (s->n == 0 && s->done) {
            s->task = -1;
            r->head++;
            pthread_cond_broadcast(&r->cond);
            continue;
        }
        block *b = s->blocks[0];
        memmove(s->blocks, s->blocks + 1, sizeof *s->blocks * (size_t)(s->n - 1));
        s->n--;
        s->bytes -= block_bytes(b);
        pthread_cond_broadcast(&r->cond);
        pthread_mutex_unlock(&r->lock);
        /* OFFSET and LIMIT on the fly (the limit step answers STEP_ENOUGH when done). */
        rc = step_push(chain, b);
        bool finished = rc == STEP_ENOUGH;
        if (finished)
            rc = 0;
        pthread_mutex_lock(&r->lock);
        if (rc || finished) {
            atomic_store(&r->stop, 1);
            pthread_cond_broadcast(&r->cond);
            break;
        }
    }
    pthread_mutex_unlock(&r->lock);
    return rc ? rc : step_finish(chain);
}

/* The steps after the workers (step.h): [HAVING] → [window] → [project] → [DISTINCT] → [ORDER BY] →
 * [LIMIT BY] → [OFFSET/LIMIT] → sink. With `projected` (workers already evaluated the
 * output and ORDER BY columns), the chain starts after the projection. */
static step *build_chain(select_plan *p, query_ctx *q, block_sink *sink, bool projected, bool streaming)
{
    step **s = xcalloc(9 + 3 * (size_t)(p->windows ? p->windows->nspecs : 0), sizeof *s);
    int n = 0;
    if (!projected) {
        if (p->having)
            s[n++] = step_filter_new(p->having);
        if (p->windows)
            n += window_steps(p->windows, q, s + n);
        expr **proj = xmalloc(sizeof *proj * (size_t)(p->nout + p->norder + 1));
        memcpy(proj, p->out, sizeof *proj * (size_t)p->nout);
        if (p->norder)
            memcpy(proj + p->nout, p->order, sizeof *proj * (size_t)p->norder);
        s[n++] = step_project_new(proj, p->nout + p->norder);
        free(proj);
    }
    if (p->distinct)
        s[n++] = step_distinct_new(p->nout, (uint64_t)settings_int(q->st, "max_rows_in_distinct"),
                                   (uint64_t)settings_int(q->st, "max_bytes_in_distinct"));
    uint64_t sort_at = 0; /* validated by select_run */
    if (p->norder && spill_threshold(q, "max_bytes_before_external_sort", "max_bytes_ratio_before_external_sort", &sort_at))
        err_clear();
    if (p->norder && (!streaming || sort_at)) {
        size_t want = SIZE_MAX;
        if (p->nlimit_by == 0 && !p->fill && p->limit != UINT64_MAX && p->offset + p->limit >= p->offset)
            want = (size_t)(p->offset + p->limit);
        s[n++] = sort_at ? step_external_sort_new(q, sort_at, p->nout, p->norder, p->order_desc, p->order_nulls, want)
                         : step_sort_new(p->nout, p->norder, p->order_desc, p->order_nulls, want);
    }
    if (p->nlimit_by)
        s[n++] = step_limit_by_new(p->limit_by, p->nlimit_by, p->limit_by_limit, p->limit_by_offset);
    if (p->fill) /* after LIMIT BY, before LIMIT, as in ClickHouse */
        s[n++] = step_fill_new(p->fill);
    if (p->offset || p->limit != UINT64_MAX)
        s[n++] = step_limit_new(p->offset, p->limit);
    s[n++] = step_sink_new(sink, p->nout, streaming ? SIZE_MAX : 65409, &q->mem);
    step *chain = step_chain(s, n);
    free(s);
    return chain;
}

int select_run(select_plan *p, query_ctx *q, block_sink *sink)
{
    q->started = true;
    /* A plain projection with LIMIT keeps the source's first offset + limit rows: say so,
     * so that an unbounded source (system.numbers) stops and reads blocks of that size. */
    if (p->src->set_limit && p->limit != UINT64_MAX && p->offset + p->limit >= p->offset && !p->where && !p->having &&
        !p->array_join && !p->aggregate && !p->norder && !p->distinct && !p->nlimit_by && !p->windows && !p->fill)
        p->src->set_limit(p->src, p->offset + p->limit);
    if (p->src->total_rows_hint)
        atomic_fetch_add(&q->total_rows_to_read, p->src->total_rows_hint);
    /* count() known from metadata: no task runs; the count reaches the aggregate's state
     * through count_known and the rest of the query (projection, HAVING, ORDER BY, LIMIT)
     * runs as usual. */
    bool counted = false;
    if (p->count_only && p->src->count_rows) {
        int64_t n = p->src->count_rows(p->src, q);
        if (n >= 0) {
            query_add_read(q, (uint64_t)n, 0);
            p->count_known = (uint64_t)n;
            counted = true;
        }
    }
    uint64_t agg_spill_at = 0, sort_at = 0;
    if (p->aggregate && p->nkeys && spill_threshold(q, "max_bytes_before_external_group_by",
                                                    "max_bytes_ratio_before_external_group_by", &agg_spill_at))
        return -1;
    if ((p->norder || p->windows) &&
        spill_threshold(q, "max_bytes_before_external_sort", "max_bytes_ratio_before_external_sort", &sort_at))
        return -1;
    run r = {.p = p, .q = q};
    if ((r.codes = codes_plan_new(p)))
        p->src->accept_codes(p->src, codes_plan_flags(r.codes));
    r.pre_cols = prefilter_columns(p);
    int64_t tl = settings_int(q->st, "group_by_two_level_threshold");
    /* totals and grouping sets read one table of every group (so they never spill) */
    r.two_level_threshold = tl > 0 && !p->with_totals && !p->nsets ? (size_t)tl : SIZE_MAX;
    r.agg_spill_at = agg_spill_at;
    pthread_mutex_init(&r.lock, NULL);
    pthread_cond_init(&r.cond, NULL);
    /* An external sort without LIMIT takes the rows as they come (streaming, ORDER BY
     * columns projected): the workers must not collect them all (with a LIMIT they keep
     * only their top rows). */
    bool ext_sort = sort_at && p->limit == UINT64_MAX;
    /* Bounded window steps (window.h) take the filtered rows as they come, too. */
    bool bounded_windows = p->windows && window_bounded(q);
    r.streaming = !p->aggregate && (p->norder == 0 || ext_sort) && !p->distinct && p->nlimit_by == 0 &&
                  (!p->windows || bounded_windows);
    int nthreads = q->max_threads > 0 ? q->max_threads : 1;
    if (nthreads > p->src->ntasks)
        nthreads = p->src->ntasks > 0 ? p->src->ntasks : 1;
    r.window = nthreads * 2 < STREAM_WINDOW ? nthreads * 2 : STREAM_WINDOW;
    r.slot_bytes_max = (64u << 20) / (size_t)r.window;
    if (ext_sort || bounded_windows) { /* the blocks on their way count against the sort's memory: one per worker */
        r.window = nthreads;
        r.slot_bytes_max = 0;
    }
    for (int i = 0; i < STREAM_WINDOW; i++)
        r.slots[i].task = -1;
    if (p->limit == 0)
        atomic_store(&r.stop, 1);
    if (counted)
        atomic_store(&r.next_task, p->src->ntasks);
    worker *ws = xcalloc((size_t)nthreads, sizeof *ws);
    for (int i = 0; i < nthreads; i++) {
        ws[i].r = &r;
        if (p->aggregate) {
            agg_table_init(&ws[i].table);
            ws[i].single = arena_alloc(&ws[i].table.mem, p->state_size ? p->state_size : 1,
                                       p->state_align ? p->state_align : 8);
            if (p->nkeys == 0)
                init_states(p, ws[i].single);
        }
    }
    int rc = 0;
    step *chain = NULL;
    if (r.streaming)
        chain = build_chain(p, q, sink, !p->windows, true);
    if (r.streaming && nthreads == 1) {
        /* One worker: it runs on this thread and pushes into the chain itself (no thread
         * to start and no hand-over per block; what a short query costs most). */
        r.direct = chain;
        worker_main(&ws[0]);
        rc = r.direct_rc ? r.direct_rc : step_finish(chain);
    } else if (r.streaming) {
        for (int i = 0; i < nthreads; i++)
            pthread_create(&ws[i].thread, NULL, worker_main, &ws[i]);
        rc = consume_stream(&r, chain);
        for (int i = 0; i < nthreads; i++)
            pthread_join(ws[i].thread, NULL);
        for (int i = 0; i < STREAM_WINDOW; i++) {
            for (int k = 0; k < r.slots[i].n; k++)
                block_free(r.slots[i].blocks[k]);
            free(r.slots[i].blocks);
        }
    } else {
        if (nthreads == 1) {
            worker_main(&ws[0]);
        } else {
            for (int i = 0; i < nthreads; i++)
                pthread_create(&ws[i].thread, NULL, worker_main, &ws[i]);
            for (int i = 0; i < nthreads; i++)
                pthread_join(ws[i].thread, NULL);
        }
    }
    if (r.failed) {
        err_restore(&r.err);
        rc = -1;
    }
    if (!rc && !r.streaming)
        rc = mem_tracker_check(&q->mem);

    /* The blocks entering the chain: the post block [keys..., aggregates...] when
     * aggregating, else the workers' projected blocks. */
    block **in = NULL, *totals = NULL;
    int nin = 0;
    bool spilled = false;
    for (int i = 0; i < nthreads && p->aggregate; i++)
        spilled |= ws[i].spill != NULL;
    if (!rc && spilled) {
        rc = merge_spilled(p, q, ws, nthreads, sink);
        for (int i = 0; i < nthreads; i++)
            free_worker_states(p, &ws[i]);
    } else if (!rc && !r.streaming) {
        if (p->aggregate) {
            block *post, *tpost = NULL;
            rc = merge_and_finalize(p, q, ws, nthreads, &post, p->with_totals && sink->totals ? &tpost : NULL);
            if (!rc && tpost)
                rc = project_block(p, tpost, false, &totals);
            block_free(tpost);
            in = xmalloc(sizeof *in);
            in[nin++] = post;
        } else {
            for (int i = 0; i < nthreads; i++) {
                for (int k = 0; k < ws[i].ncollected; k++) {
                    in = xrealloc(in, sizeof *in * (size_t)(nin + 1));
                    in[nin++] = ws[i].collected[k];
                }
                ws[i].ncollected = 0;
            }
        }
    } else if (p->aggregate) {
        for (int i = 0; i < nthreads; i++)
            free_worker_states(p, &ws[i]);
    }
    for (int i = 0; i < nthreads; i++) {
        if (p->aggregate) {
            agg_table_free(&ws[i].table);
            for (int b = 0; ws[i].buckets && b < NBUCKETS; b++)
                agg_table_free(&ws[i].buckets[b]);
            free(ws[i].buckets);
        }
        for (int k = 0; k < ws[i].ncollected; k++)
            block_free(ws[i].collected[k]);
        buf_free(&ws[i].keybuf);
        free(ws[i].collected);
        free(ws[i].code_states);
        free(ws[i].touched);
        agg_spill_free(ws[i].spill);
    }
    free(ws);
    codes_plan_free(r.codes);
    free(r.pre_cols);
    pthread_mutex_destroy(&r.lock);
    pthread_cond_destroy(&r.cond);
    step_chain_free(chain);
    if (rc || r.streaming || spilled) {
        for (int i = 0; i < nin; i++)
            block_free(in[i]);
        free(in);
        block_free(totals);
        return rc;
    }

    chain = build_chain(p, q, sink, !p->aggregate && !p->windows, false);
    int i = 0;
    for (; i < nin && !rc; i++)
        rc = step_push(chain, in[i]);
    for (; i < nin; i++)
        block_free(in[i]);
    free(in);
    if (rc == STEP_ENOUGH)
        rc = 0;
    if (!rc)
        rc = step_finish(chain);
    step_chain_free(chain);
    if (totals && !rc)
        return sink->totals(sink, totals);
    block_free(totals);
    return rc;
}
