/* INSERT into a MergeTree table.
 *
 * The sink squashes incoming blocks into insert blocks (min_insert_block_size_rows /
 * _bytes, 0 disables a threshold) and hands each to one of max_insert_threads writer
 * threads as soon as one is free, so that reading the source, sorting and compressing
 * overlap and memory stays bounded (at most threads + 1 insert blocks in flight). A writer
 * splits its block by partition, sorts each piece by the sorting key (stable), optionally
 * collapses it (optimize_on_insert, Replacing/Summing), and writes it as a new part with
 * a fresh block number: tmp_insert_… directory, fsync, rename.
 *
 * Deduplication (insert_deduplicate with non_replicated_deduplication_window > 0): the ID
 * of each part's data (partition ID + a hash of the rows, or insert_deduplication_token)
 * is remembered in dedup.log; a part whose ID is already there is skipped. */
#include "storage/mergetree/mt.h"

#include "base/err.h"
#include "base/mem.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* ---- deduplication log ---- */

void mt_dedup_load(mt_table *m)
{
    buf b = {0};
    if (mt_read_small_file(m->t->data_dir, "dedup.log", &b)) {
        err_clear();
        buf_free(&b);
        return;
    }
    const char *p = (const char *)b.p, *end = p + b.len;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        if (!nl)
            break; /* a torn last line: never acknowledged */
        if (nl > p) {
            m->dedup = xrealloc(m->dedup, sizeof *m->dedup * (size_t)(m->ndedup + 1));
            m->dedup[m->ndedup++] = xstrndup(p, (size_t)(nl - p));
        }
        p = nl + 1;
    }
    buf_free(&b);
}

static bool dedup_has_locked(mt_table *m, const char *id)
{
    for (int i = m->ndedup - 1; i >= 0; i--)
        if (!strcmp(m->dedup[i], id))
            return true;
    return false;
}

/* Records id (under the lock, after the part was committed). */
static void dedup_add_locked(mt_table *m, const char *id)
{
    m->dedup = xrealloc(m->dedup, sizeof *m->dedup * (size_t)(m->ndedup + 1));
    m->dedup[m->ndedup++] = xstrdup(id);
    uint64_t window = m->set.non_replicated_deduplication_window;
    char *path = mt_sprintf("%sdedup.log", m->t->data_dir);
    if ((uint64_t)m->ndedup > window * 2) {
        /* Rewrite keeping the newest `window` IDs. */
        int drop = m->ndedup - (int)window;
        for (int i = 0; i < drop; i++)
            free(m->dedup[i]);
        memmove(m->dedup, m->dedup + drop, sizeof *m->dedup * (size_t)(m->ndedup - drop));
        m->ndedup -= drop;
        buf all = {0};
        for (int i = 0; i < m->ndedup; i++)
            buf_printf(&all, "%s\n", m->dedup[i]);
        char *tmp = mt_sprintf("%sdedup.log.tmp", m->t->data_dir);
        char *dir = xstrdup(m->t->data_dir);
        if (!mt_write_small_file(dir, "dedup.log.tmp", all.p, all.len, NULL))
            rename(tmp, path);
        err_clear();
        free(tmp);
        free(dir);
        buf_free(&all);
    } else {
        int fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
        if (fd >= 0) {
            char *line = mt_sprintf("%s\n", id);
            ssize_t w = write(fd, line, strlen(line));
            (void)w;
            fsync(fd);
            close(fd);
            free(line);
        }
    }
    free(path);
}

/* The ID of an insert block's data: as ClickHouse, a hash of the whole block as it
 * arrived (before the split by partition and the sort), so the same rows in another
 * order are a different insert. Each part's ID is its partition ID + '_' + this
 * (batch_hash below). */

/* ---- writing one sorted piece as a part ---- */

typedef struct insert_opts {
    bool dedup;            /* the table keeps a deduplication window */
    const char *token;     /* insert_deduplication_token, or NULL */
    char *block_hash;      /* the hash of the insert block being written (owned) */
    bool optimize_on_insert;
    int part_seq;          /* parts written by this insert (token suffix) */
} insert_opts;

/* The part holds b, or when b is NULL the rows ids[0..n) of the blocks bs
 * (mt_part_writer_write_picked). */
typedef struct part_rows {
    block *b;
    block *const *bs;
    int nb;
    const uint64_t *ids;
    size_t n;
    bool last;  /* the last part of bs: free each column once written */
    const block *minmax_rows; /* rows (before collapsing) the part's min/max cover too, or NULL */
} part_rows;

static int write_part(mt_table *m, const part_rows *pr, const block *partition, const char *partition_id,
                      insert_opts *o)
{
    char *dedup_id = NULL;
    if (o->dedup) {
        dedup_id = o->token ? mt_sprintf("%s_%s_%d", partition_id, o->token, o->part_seq++)
                            : mt_sprintf("%s_%s", partition_id, o->block_hash);
        pthread_mutex_lock(&m->lock);
        bool seen = dedup_has_locked(m, dedup_id);
        pthread_mutex_unlock(&m->lock);
        if (seen) {
            free(dedup_id);
            return 0; /* an identical insert was committed before: skip, with success */
        }
    }
    pthread_mutex_lock(&m->lock);
    int64_t blk = m->next_block++;
    uint64_t seq = ++m->tmp_seq;
    pthread_mutex_unlock(&m->lock);
    char *tmp = mt_sprintf("tmp_insert_%s_%" PRId64 "_%" PRIu64, partition_id, blk, seq);
    double t0 = clock_monotonic();
    mt_part *done = NULL;
    mt_part_writer *w;
    int rc = mt_part_writer_open(m, tmp, &w);
    if (!rc) {
        rc = pr->b ? mt_part_writer_write(w, pr->b) : mt_part_writer_write_picked(w, pr->bs, pr->nb, pr->ids, pr->n, pr->last);
        if (!rc && pr->minmax_rows)
            mt_part_writer_widen_minmax(w, pr->minmax_rows);
        if (!rc)
            rc = mt_part_writer_finish(w, partition);
        if (rc) {
            mt_part_writer_abort(w);
        } else {
            char *dir = xstrdup(mt_part_writer_dir(w));
            char *prefix = mt_part_writer_prefix(w, partition_id);
            mt_part_writer_free(w);
            /* a part collapsed on insert (Replacing/Summing/Aggregating with
               optimize_on_insert) counts as merged: level 1, as ClickHouse names it */
            uint32_t level = o->optimize_on_insert && m->kind != MT_PLAIN ? 1 : 0;
            rc = mt_commit_part(m, dir, prefix, blk, blk, level, NULL, 0, &done);
            free(prefix);
            if (rc)
                mt_remove_tree(dir);
            free(dir);
        }
    }
    if (done) {
        mt_log_event(m, PART_LOG_NEW, done->name, partition_id, done->rows, done->bytes_on_disk,
                     clock_monotonic() - t0, NULL, 0, 0, 0, "", MERGE_UNDECIDED);
        mt_part_unref(done);
    }
    if (!rc && dedup_id) {
        pthread_mutex_lock(&m->lock);
        dedup_add_locked(m, dedup_id);
        pthread_mutex_unlock(&m->lock);
    }
    free(dedup_id);
    free(tmp);
    return rc;
}

/* ---- insert blocks as lists of source blocks ---- */

/* An insert block as the squashed source blocks themselves: partitioning, sorting and
 * the gather into each part's order read them in place, so the rows are copied once. */
typedef struct batch {
    block **bs;
    int n;
    size_t rows;
} batch;

static void batch_free(batch *b)
{
    if (!b)
        return;
    for (int i = 0; i < b->n; i++)
        block_free(b->bs[i]);
    free(b->bs);
    free(b);
}

/* Can every column be gathered across blocks directly (fixed-width values or strings)? */
static bool gatherable(const batch *b)
{
    const block *f = b->bs[0];
    for (int c = 0; c < f->ncols; c++) {
        const type *t = type_phys(f->cols[c]->type);
        if (!(t->width && t->id != T_NULLABLE && t->id != T_ARRAY && t->id != T_TUPLE) && t->id != T_STRING)
            return false;
    }
    return true;
}

/* Frees the sorting and partition key columns evaluated per source block. */
static void drop_keys(const mt_table *m, column ***keys, column ***pk, int nb)
{
    for (int i = 0; i < nb; i++) {
        for (int k = 0; keys[i] && k < m->sort.n; k++)
            col_free(keys[i][k]);
        for (int k = 0; pk[i] && k < m->part_key.n; k++)
            col_free(pk[i][k]);
        free(keys[i]);
        free(pk[i]);
        keys[i] = pk[i] = NULL;
    }
}

static char *batch_hash(const batch *b)
{
    mt_hasher h;
    mt_hasher_init(&h);
    for (int c = 0; c < b->bs[0]->ncols; c++)
        for (int i = 0; i < b->n; i++) {
            buf v = {0};
            for (size_t r = 0; r < b->bs[i]->rows; r++)
                mt_value_write(b->bs[i]->cols[c], r, &v);
            mt_hasher_update(&h, v.p, v.len);
            buf_free(&v);
        }
    u128 x = mt_hasher_final(&h);
    return mt_sprintf("%016" PRIx64 "%016" PRIx64, x.hi, x.lo);
}

static int write_batch(mt_table *m, batch *bt, insert_opts *o, int64_t max_partitions)
{
    int nb = bt->n;
    column ***keys = xcalloc((size_t)nb + 1, sizeof *keys);
    column ***pk = xcalloc((size_t)nb + 1, sizeof *pk);
    int rc = 0;
    for (int i = 0; i < nb && !rc; i++) {
        keys[i] = xcalloc((size_t)m->sort.n + 1, sizeof **keys);
        pk[i] = xcalloc((size_t)m->part_key.n + 1, sizeof **pk);
        if ((rc = mt_key_eval(&m->sort, bt->bs[i], keys[i])) != 0) {
            free(keys[i]);
            keys[i] = NULL;
            break;
        }
        if ((rc = mt_key_eval(&m->part_key, bt->bs[i], pk[i])) != 0) {
            free(pk[i]);
            pk[i] = NULL;
        }
    }
    /* Group rows by partition (first appearance order). */
    uint64_t *ids = xmalloc(sizeof *ids * (bt->rows + 1));
    uint32_t *group = xmalloc(sizeof *group * (bt->rows + 1));
    uint64_t *reps = NULL;
    size_t ngroups = 0, last = 0, at = 0;
    for (int i = 0; i < nb && !rc; i++) {
        for (size_t r = 0; r < bt->bs[i]->rows && !rc; r++, at++) {
            ids[at] = (uint64_t)i << 32 | r;
            size_t g = SIZE_MAX;
            for (size_t k = 0; k < ngroups && g == SIZE_MAX; k++) {
                size_t cand = (last + k) % ngroups;
                bool eq = true;
                for (int j = 0; j < m->part_key.n && eq; j++)
                    eq = col_equal_rows(pk[i][j], r, pk[reps[cand] >> 32][j], (uint32_t)reps[cand]);
                if (eq)
                    g = cand;
            }
            if (g == SIZE_MAX) {
                if (max_partitions > 0 && (int64_t)ngroups >= max_partitions)
                    rc = err_set(ERR_TOO_MANY_PARTS,
                                 "Too many partitions for single INSERT block (more than %" PRId64
                                 "). The limit is controlled by 'max_partitions_per_insert_block' setting",
                                 max_partitions);
                reps = xrealloc(reps, sizeof *reps * (ngroups + 1));
                reps[ngroups] = ids[at];
                g = ngroups++;
            }
            group[at] = (uint32_t)g;
            last = g;
        }
    }
    /* Per group: its ids in key order. Then the columns are gathered one at a time into
     * every group's piece, and each source column is freed once gathered, so the batch
     * and its sorted copy are never both whole in memory. */
    uint64_t **gsorted = xcalloc(ngroups + 1, sizeof *gsorted);
    size_t *gn = xcalloc(ngroups + 1, sizeof *gn);
    block **pvals = xcalloc(ngroups + 1, sizeof *pvals);
    for (size_t g = 0; g < ngroups && !rc; g++) {
        uint64_t *gids = xmalloc(sizeof *gids * (bt->rows + 1));
        size_t n = 0;
        for (size_t k = 0; k < bt->rows; k++)
            if (group[k] == g)
                gids[n++] = ids[k];
        uint32_t *order = mt_sort_multi(keys, nb, m->sort.n, gids, n);
        gsorted[g] = xmalloc(sizeof **gsorted * (n + 1));
        for (size_t k = 0; k < n; k++)
            gsorted[g][k] = gids[order[k]];
        gn[g] = n;
        free(order);
        free(gids);
        if (m->part_key.n) {
            pvals[g] = block_new(m->part_key.n, 1);
            for (int j = 0; j < m->part_key.n; j++)
                pvals[g]->cols[j] = col_slice(pk[reps[g] >> 32][j], (uint32_t)reps[g], 1);
        }
    }
    /* Keys may hold references to source columns: drop them before the gather. */
    drop_keys(m, keys, pk, nb);
    int ncols = bt->bs[0]->ncols;
    block **pieces = xcalloc(ngroups + 1, sizeof *pieces);
    /* Each part straight from the source blocks, through its sort order: the rows are
     * copied once, into the compressor's buffer. Collapsing on insert needs the sorted
     * rows as a block, and types the picked writer does not read in place are gathered
     * first: then the columns are gathered one at a time into every group's piece, and
     * each source column is freed once gathered, so the batch and its sorted copy are
     * never both whole in memory. */
    bool collapse = o->optimize_on_insert && m->kind != MT_PLAIN;
    bool picked = !collapse && mt_part_writer_can_pick(bt->bs, nb);
    for (size_t g = 0; g < ngroups && !rc && !picked; g++)
        pieces[g] = block_new(ncols, gn[g]);
    for (int c = 0; c < ncols && !rc && !picked; c++) {
        for (size_t g = 0; g < ngroups; g++)
            pieces[g]->cols[c] = mt_gather_rows(bt->bs, nb, c, gsorted[g], gn[g]);
        for (int i = 0; i < nb; i++) {
            /* keep the column's type for the next gathers' col_new: only the data goes */
            column *old = bt->bs[i]->cols[c];
            bt->bs[i]->cols[c] = col_new(old->type);
            col_free(old);
        }
    }
    for (size_t g = 0; g < ngroups && !rc; g++) {
        block *piece = pieces[g];
        pieces[g] = NULL;
        char *pid = m->part_key.n ? mt_partition_id(&m->part_key, pvals[g]->cols, 0) : xstrdup("all");
        /* ClickHouse takes the part's min/max (and so an old-syntax part's dates) from the
           rows inserted, before they collapse */
        block *pre = NULL;
        if (collapse && m->nminmax) {
            pre = block_new(ncols, piece->rows);
            for (int i = 0; i < m->nminmax; i++)
                pre->cols[m->minmax_cols[i]] = col_clone(piece->cols[m->minmax_cols[i]]);
        }
        if (collapse && !(piece = mt_collapse_sorted(m, piece, NULL, false)))
            rc = -1;
        part_rows pr = {.b = piece, .bs = bt->bs, .nb = nb, .ids = gsorted[g], .n = gn[g], .last = g + 1 == ngroups,
                        .minmax_rows = pre};
        /* rows that collapsed to nothing (a Summing table's sums all zero) make no part,
           as in ClickHouse */
        if (!rc && !(collapse && piece->rows == 0))
            rc = write_part(m, &pr, pvals[g], pid, o);
        block_free(piece);
        block_free(pre);
        free(pid);
    }
    for (size_t g = 0; g < ngroups; g++) {
        block_free(pieces[g]);
        block_free(pvals[g]);
        free(gsorted[g]);
    }
    free(pieces);
    free(pvals);
    free(gsorted);
    free(gn);
    drop_keys(m, keys, pk, nb);
    free(keys);
    free(pk);
    free(ids);
    free(group);
    free(reps);
    return rc;
}

/* ---- the sink ---- */

#define QUEUE_MAX 64

typedef struct mt_sink {
    table_sink base;
    mt_table *m;
    query_ctx *q;
    block **acc;          /* blocks being squashed into one insert block */
    int nacc, capacc;
    size_t acc_rows, acc_bytes;
    uint64_t min_rows, min_bytes;
    insert_opts opts;
    int64_t max_partitions;
    _Atomic int blocks;   /* insert blocks handed out (token suffixes) */
    /* writer threads */
    int nthreads;
    pthread_t threads[QUEUE_MAX];
    pthread_mutex_t lock;
    pthread_cond_t cond;
    batch *queue[QUEUE_MAX];
    int qhead, qlen;
    int busy;             /* writers working on a batch */
    bool closing;
    int failed;
    int errcode;
    char errmsg[ERR_MSG_MAX];
} mt_sink;

/* Waits while the partition has too many parts (parts_to_delay_insert), refuses above
 * parts_to_throw_insert (TOO_MANY_PARTS), as ClickHouse does. */
static int check_parts_count(mt_table *m)
{
    pthread_mutex_lock(&m->lock);
    int worst = 0, cur = 0;
    const char *pid = NULL;
    for (int i = 0; i < m->nparts; i++) {
        const mt_part *p = m->parts[i];
        if (p->state != PART_ACTIVE)
            continue;
        if (!pid || strcmp(pid, p->partition_id)) {
            pid = p->partition_id;
            cur = 0;
        }
        if (++cur > worst)
            worst = cur;
    }
    pthread_cond_broadcast(&m->cond); /* wake the merger */
    pthread_mutex_unlock(&m->lock);
    if ((uint64_t)worst >= m->set.parts_to_throw_insert)
        return err_set(ERR_TOO_MANY_PARTS,
                       "Too many parts (%d with average size of a part). Merges are processing significantly slower "
                       "than inserts",
                       worst);
    if ((uint64_t)worst >= m->set.parts_to_delay_insert) {
        /* Linear in how far past the delay threshold, up to max_delay_to_insert. */
        double span = (double)(m->set.parts_to_throw_insert - m->set.parts_to_delay_insert);
        double frac = span > 0 ? (double)((uint64_t)worst - m->set.parts_to_delay_insert) / span : 1;
        double delay = frac * (double)m->set.max_delay_to_insert;
        struct timespec ts = {(time_t)delay, (long)((delay - (double)(time_t)delay) * 1e9)};
        nanosleep(&ts, NULL);
    }
    return 0;
}

static int process(mt_sink *s, batch *bt)
{
    int rc = check_parts_count(s->m);
    insert_opts o = s->opts; /* per block: writer threads run blocks concurrently */
    o.part_seq = atomic_fetch_add(&s->blocks, 1) * 1000;
    o.block_hash = o.dedup && !o.token ? batch_hash(bt) : NULL;
    if (!rc && bt->n > 1 && !gatherable(bt)) {
        /* Types the direct gather across blocks does not cover: concatenate first. */
        block *b = block_new(bt->bs[0]->ncols, 0);
        for (int c = 0; c < b->ncols; c++) {
            b->cols[c] = col_new(bt->bs[0]->cols[c]->type);
            col_reserve(b->cols[c], bt->rows);
        }
        for (int i = 0; i < bt->n; i++) {
            block_append(b, bt->bs[i]);
            block_free(bt->bs[i]);
        }
        bt->bs[0] = b;
        bt->n = 1;
    }
    if (!rc)
        rc = write_batch(s->m, bt, &o, s->max_partitions);
    free(o.block_hash);
    batch_free(bt);
    return rc;
}

static void *writer_main(void *arg)
{
    mt_sink *s = arg;
    mem_tracker *prev = mem_tracker_attach(&s->q->mem);
    for (;;) {
        pthread_mutex_lock(&s->lock);
        while (!s->qlen && !s->closing)
            pthread_cond_wait(&s->cond, &s->lock);
        if (!s->qlen) {
            pthread_mutex_unlock(&s->lock);
            break;
        }
        batch *b = s->queue[s->qhead];
        s->qhead = (s->qhead + 1) % QUEUE_MAX;
        s->qlen--;
        s->busy++;
        bool skip = s->failed;
        pthread_cond_broadcast(&s->cond);
        pthread_mutex_unlock(&s->lock);
        int rc = 0;
        if (skip)
            batch_free(b);
        else
            rc = process(s, b);
        pthread_mutex_lock(&s->lock);
        s->busy--;
        if (rc && !s->failed) {
            s->failed = 1;
            s->errcode = err_code();
            snprintf(s->errmsg, sizeof s->errmsg, "%s", err_msg());
            atomic_store(&s->q->cancelled, 1);
        }
        pthread_cond_broadcast(&s->cond);
        pthread_mutex_unlock(&s->lock);
    }
    mem_tracker_attach(prev);
    return NULL;
}

static int enqueue(mt_sink *s, batch *b)
{
    if (s->nthreads == 0)
        return process(s, b);
    /* Hand a batch over only when a writer is free: at most one batch per writer plus the
     * one being squashed are in memory. */
    pthread_mutex_lock(&s->lock);
    while (s->qlen + s->busy >= s->nthreads && !s->failed)
        pthread_cond_wait(&s->cond, &s->lock);
    if (s->failed) {
        int code = s->errcode;
        pthread_mutex_unlock(&s->lock);
        batch_free(b);
        return err_set(code, "%s", s->errmsg);
    }
    s->queue[(s->qhead + s->qlen) % QUEUE_MAX] = b;
    s->qlen++;
    pthread_cond_broadcast(&s->cond);
    pthread_mutex_unlock(&s->lock);
    return 0;
}

static bool squash_full(const mt_sink *s, size_t rows, size_t bytes)
{
    return (s->min_rows && rows >= s->min_rows) || (s->min_bytes && bytes >= s->min_bytes) ||
           (!s->min_rows && !s->min_bytes);
}

/* The squashed blocks as one batch (the sink's list is handed over). */
static batch *take_squashed(mt_sink *s)
{
    batch *b = xcalloc(1, sizeof *b);
    b->bs = s->acc;
    b->n = s->nacc;
    b->rows = s->acc_rows;
    s->acc = NULL;
    s->nacc = s->capacc = 0;
    s->acc_rows = s->acc_bytes = 0;
    return b;
}

static batch *one_block(block *blk)
{
    batch *b = xcalloc(1, sizeof *b);
    b->bs = xcalloc(1, sizeof *b->bs);
    b->bs[0] = blk;
    b->n = 1;
    b->rows = blk->rows;
    return b;
}

/* Source blocks often hold buffers grown by doubling, up to twice their contents; a
 * squashed insert block keeps them for a while, so give the slack back (shrinking in
 * place is cheap) — memory then matches what the squash thresholds count. */
static void shrink_buf(buf *b)
{
    if (b->p && b->cap > b->len + 65536 && b->cap > b->len + b->len / 4) {
        b->p = mem_realloc(b->p, b->len ? b->len : 1);
        b->cap = b->len ? b->len : 1;
    }
}

static void shrink_column(column *c)
{
    if (!c || c->refs > 1)
        return;
    shrink_buf(&c->data);
    shrink_buf(&c->offs);
    shrink_buf(&c->nulls);
    shrink_column(c->inner);
    for (int f = 0; f < c->nfields; f++)
        shrink_column(c->fields[f]);
}

static int sink_write(block_sink *bs, block *b)
{
    mt_sink *s = (mt_sink *)bs;
    if (!b->rows) {
        block_free(b);
        return 0;
    }
    for (int c = 0; c < b->ncols; c++)
        shrink_column(b->cols[c]);
    size_t bytes = block_bytes(b);
    if (!s->nacc && squash_full(s, b->rows, bytes))
        return enqueue(s, one_block(b));
    if (s->nacc == s->capacc) {
        s->capacc = s->capacc ? s->capacc * 2 : 16;
        s->acc = xrealloc(s->acc, sizeof *s->acc * (size_t)s->capacc);
    }
    s->acc[s->nacc++] = b;
    s->acc_rows += b->rows;
    s->acc_bytes += bytes;
    if (squash_full(s, s->acc_rows, s->acc_bytes))
        return enqueue(s, take_squashed(s));
    return 0;
}

static int stop_threads(mt_sink *s)
{
    pthread_mutex_lock(&s->lock);
    s->closing = true;
    pthread_cond_broadcast(&s->cond);
    pthread_mutex_unlock(&s->lock);
    for (int i = 0; i < s->nthreads; i++)
        pthread_join(s->threads[i], NULL);
    s->nthreads = 0;
    if (s->failed)
        return err_set(s->errcode, "%s", s->errmsg);
    return 0;
}

static void sink_destroy(mt_sink *s)
{
    for (int i = 0; i < s->nacc; i++)
        block_free(s->acc[i]);
    free(s->acc);
    for (int i = 0; i < s->qlen; i++)
        batch_free(s->queue[(s->qhead + i) % QUEUE_MAX]);
    pthread_mutex_destroy(&s->lock);
    pthread_cond_destroy(&s->cond);
    free(s);
}

static int sink_finish(table_sink *ts)
{
    mt_sink *s = (mt_sink *)ts;
    int rc = 0;
    if (s->nacc)
        rc = enqueue(s, take_squashed(s));
    int rc2 = stop_threads(s);
    sink_destroy(s);
    return rc ? rc : rc2;
}

static void sink_abort(table_sink *ts)
{
    mt_sink *s = (mt_sink *)ts;
    char saved[ERR_MSG_MAX];
    int code = err_code();
    snprintf(saved, sizeof saved, "%s", err_msg());
    pthread_mutex_lock(&s->lock);
    s->failed = s->failed ? s->failed : 2;
    pthread_mutex_unlock(&s->lock);
    stop_threads(s);
    sink_destroy(s);
    err_set(code, "%s", saved);
}

/* The guide's rule when max_insert_threads = 0 and min_insert_block_size_bytes = 0 and a
 * memory budget is given: threads ≈ cores / 2, bytes = budget / (3 × threads). */
static void auto_tune(mt_sink *s, query_ctx *q, int *threads)
{
    int64_t budget = settings_int(q->st, "max_insert_memory_usage");
    if (budget <= 0 || settings_int(q->st, "max_insert_threads") != 0 ||
        settings_int(q->st, "min_insert_block_size_bytes") != 0)
        return;
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    int t = (int)(ncpu / 2 > 0 ? ncpu / 2 : 1);
    *threads = t;
    s->min_bytes = (uint64_t)budget / (3u * (uint64_t)t);
    s->min_rows = 0;
}

int mt_insert(table *t, query_ctx *q, table_sink **out)
{
    mt_table *m = t->impl;
    mt_sink *s = xcalloc(1, sizeof *s);
    s->base.base.write = sink_write;
    s->base.base.ctx = s;
    s->base.finish = sink_finish;
    s->base.abort = sink_abort;
    s->m = m;
    s->q = q;
    s->min_rows = (uint64_t)settings_int(q->st, "min_insert_block_size_rows");
    s->min_bytes = (uint64_t)settings_int(q->st, "min_insert_block_size_bytes");
    /* As in ClickHouse, insert_deduplicate concerns Replicated tables; a MergeTree table
     * deduplicates when it keeps a window. */
    s->opts.dedup = m->set.non_replicated_deduplication_window > 0;
    const char *token = settings_str(q->st, "insert_deduplication_token");
    s->opts.token = token && *token ? token : NULL;
    s->opts.optimize_on_insert = settings_bool(q->st, "optimize_on_insert");
    s->max_partitions = settings_int(q->st, "max_partitions_per_insert_block");
    int threads = (int)settings_int(q->st, "max_insert_threads");
    auto_tune(s, q, &threads);
    if (threads < 1)
        threads = 1;
    if (threads > QUEUE_MAX / 2)
        threads = QUEUE_MAX / 2;
    pthread_mutex_init(&s->lock, NULL);
    pthread_cond_init(&s->cond, NULL);
    for (int i = 0; i < threads; i++) {
        if (pthread_create(&s->threads[s->nthreads], NULL, writer_main, s) == 0)
            s->nthreads++;
    }
    *out = &s->base;
    return 0;
}

/* ---- partitions named in statements ---- */

int mt_partition_id_from_text(mt_table *m, const char *text, query_ctx *q, char **out)
{
    /* Evaluate the literal as `SELECT <text>` and cast its values to the key types. */
    arena a;
    arena_init(&a);
    char *sql = mt_sprintf("SELECT %s", text);
    size_t pos = 0;
    ast *st = NULL;
    int rc = sql_parse_statement(&a, sql, strlen(sql), &pos, 1000, &st);
    if (!rc && (!st || st->kind != AST_STMT_SELECT || !st->sub || st->sub->kind != AST_SELECT ||
                st->sub->select.n != 1))
        rc = err_set(ERR_SYNTAX_ERROR, "Cannot parse the partition value %s", text);
    column **vals = NULL;
    int nvals = 0;
    if (!rc) {
        const ast *e = st->sub->select.items[0];
        const ast_list *items = e->kind == AST_FUNC && !strcmp(e->name, "tuple") ? &e->args : NULL;
        nvals = items ? items->n : 1;
        if (nvals != m->part_key.n)
            rc = err_set(ERR_INVALID_PARTITION_VALUE, "Wrong number of fields in the partition expression: %d, must be: %d",
                         nvals, m->part_key.n);
        vals = xcalloc((size_t)nvals + 1, sizeof *vals);
        source fake = {.sch = m->t->sch, .nvisible = m->t->sch->n};
        block *empty = block_new_empty(m->t->sch);
        empty->rows = 1;
        for (int i = 0; i < nvals && !rc; i++) {
            const ast *v = items ? items->items[i] : e;
            /* CAST(v AS key type) */
            ast *cast = ast_new(&a, AST_FUNC, v->pos);
            cast->name = "CAST";
            ast_list_push(&a, &cast->args, (ast *)v);
            ast *ty = ast_new(&a, AST_LITERAL, v->pos);
            ty->lit = LIT_STRING;
            ty->str = m->part_key.types[i]->name;
            ty->str_len = strlen(ty->str);
            ast_list_push(&a, &cast->args, ty);
            expr *ex;
            rc = query_compile_expr(q, cast, &fake, &ex);
            if (!rc) {
                rc = expr_eval(ex, empty, &vals[i]);
                expr_free(ex);
                if (!rc && vals[i]->is_const)
                    vals[i] = col_materialize(vals[i]);
            }
        }
        empty->rows = 0;
        block_free(empty);
    }
    if (!rc)
        *out = mt_partition_id(&m->part_key, vals, 0);
    for (int i = 0; vals && i < nvals; i++)
        col_free(vals[i]);
    free(vals);
    free(sql);
    arena_free(&a);
    return rc;
}
