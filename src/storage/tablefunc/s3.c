/* s3(url [, NOSIGN | key, secret [, token]] [, format] [, structure] [, compression]):
 * objects in S3 (or any S3-compatible server), one read task per object, read through a
 * prefetching stream of ranged GETs (io/s3.h). Globs in the key are matched against a
 * listing of the glob's literal prefix. Format and compression come from the key's
 * extension when omitted; the schema is inferred from the first object. Virtual columns:
 * _path ("bucket/key"), _file (the key's last segment), _size. */
#include "base/err.h"
#include "base/mem.h"
#include "codec/stream_codec.h"
#include "format/split.h"
#include "io/glob.h"
#include "io/s3.h"
#include "storage/schema_cache.h"
#include "storage/structure.h"
#include "storage/tablefunc.h"
#include "storage/tablefunc/read_common.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

struct s3_it;

/* Open-ahead of objects read by ranges: each costs a couple of requests whose latency
 * (tens of ms on some servers) dwarfs the decoding, so a pool opens the next objects —
 * footer, then the first row group's column chunks — while the workers decode, keeping
 * many requests in flight. A few opener threads read the footers (the Parquet metadata
 * cache usually has them: no request) and ask the reader which byte ranges its first row
 * group needs (fmt_reader_prefetch_ranges); those GETs go to one http_multi (io/http.h),
 * whose single thread keeps up to the pool's request count in flight, instead of a thread
 * per request blocked in curl. A GET that fails there (any status but 2xx, a network
 * error, a short body) is simply not served from the prefetch: the reader's read of the
 * range then runs it with s3_get_range, with every retry, limiter and ETag rule.
 *
 * Bounds: a window of objects past the last one taken, and 128 MiB of prefetched column
 * chunks not yet taken: an opener that has the footer reserves the bytes its ranges will
 * hold and waits while they do not fit, unless nothing is held or a worker is waiting for
 * that very object (so the workers, which take objects in order, never wait on a
 * reservation that waits on them). Openers exit when no object is left to open, so
 * stopping joins nothing that still works; the multi's transfers still running are
 * cancelled by ahead_stop.
 *
 * Slot states: NONE → RUNNING (an opener has it) → FETCHING (its ranges are on the multi)
 * → READY (all ranges ended, or opened without ranges, or failed with err) → TAKEN (a
 * worker took it; also NONE → TAKEN when a worker gets there first and opens it itself). */
enum { AHEAD_NONE, AHEAD_RUNNING, AHEAD_FETCHING, AHEAD_READY, AHEAD_TAKEN };

typedef struct ahead_slot {
    int state;
    bool wanted;            /* a worker waits for it: its reservation may exceed the bound */
    int pending;            /* AHEAD_FETCHING: ranges not yet ended */
    uint64_t held;          /* bytes reserved for its prefetched chunks */
    struct s3_it *it;       /* AHEAD_FETCHING/READY: the opened iterator, or NULL with err */
    err_saved err;
} ahead_slot;

/* Requests in flight: AHEAD_PER_DOWNLOAD_THREAD × max_download_threads per worker, at most
 * AHEAD_MAX_REQUESTS; one opener thread (footers, ranges) per 8 of them, 2 to AHEAD_OPENERS:
 * a footer missing from the metadata cache is read by its opener. */
enum { AHEAD_PER_DOWNLOAD_THREAD = 16, AHEAD_MAX_REQUESTS = 128, AHEAD_OPENERS = 16 };

typedef struct s3_ahead {
    pthread_mutex_t mu;
    pthread_cond_t open_cv; /* openers: the horizon moved, bytes were released, stop */
    pthread_cond_t take_cv; /* workers: an object they want became READY */
    ahead_slot *slots;      /* per object */
    size_t next;            /* next object to open */
    size_t horizon;         /* open only objects below this */
    size_t window;
    uint64_t held, max_held;  /* bytes reserved by objects opened ahead and not yet taken */
    int reserving;          /* openers waiting in ahead_reserve */
    int nthreads;
    pthread_t threads[AHEAD_OPENERS];
    bool stop;
    http_multi *multi;      /* the GETs of the prefetched ranges; NULL: openers read them */
    struct s3_src *f;
    query_ctx *q;
    int *cols;
    int ncols;
} s3_ahead;

typedef struct s3_src {
    s3_client *client;      /* counts into the query's io counters */
    s3_ahead *ahead;        /* started by the first open in ranged mode, or NULL */
    pthread_mutex_t ahead_once;
    s3_read_opts ropts;     /* max_download_threads, max_download_buffer_size, remote_filesystem_read_method */
    s3_object *objs;
    size_t nobjs;           /* objects read (keep_objects may lower it) */
    size_t nall;            /* objects listed (freed at the end) */
    char **names, **etags;  /* objects(): views of objs' keys and ETags */
    char *format;
    char *compression;
    schema *file_schema;
    bool *coded;            /* per file column: may come dictionary-coded (accept_codes) */
    src_filter *filters;    /* WHERE conjuncts on file columns (set_filter), values owned */
    int nfilters;
    fmt_filter *ffilters;   /* the same for the readers: row groups skipped by statistics */
    int nffilters;
    bool pq_cache;          /* use_parquet_metadata_cache: footers by URL and ETag */
} s3_src;

typedef struct s3_it {
    fmt_reader *reader;
    struct s3_ra *ra;      /* the reader's ranged reads (owned by the reader), or NULL when streamed */
    read_prefilter pre;    /* set_prefilter */
    const s3_object *obj;
    char *path;            /* bucket/key */
    int ncols;
    int *cols;
    int nfile;
    query_ctx *q;
} s3_it;

/* The compression of object o: the function's argument, or from the key's extension. */
/* How the client retries, from the query's settings. */
static void s3_client_apply_settings(s3_client *c, const settings *st)
{
    /* 0 means "no retries" for the attempt counts, but "default" in http_request */
    int64_t tries = settings_int(st, "s3_retry_attempts");
    int64_t reads = settings_int(st, "s3_max_single_read_retries");
    s3_retry_opts o = {
        .max_retries = tries > 0 ? (int)(tries > 100000 ? 100000 : tries) : -1,
        .max_read_retries = reads > 0 ? (int)(reads > 100000 ? 100000 : reads) : -1,
        .initial_backoff_ms = (uint64_t)settings_int(st, "http_retry_initial_backoff_ms"),
        .max_backoff_ms = (uint64_t)settings_int(st, "http_retry_max_backoff_ms"),
        .connect_timeout_ms = (long)settings_int(st, "s3_connect_timeout_ms"),
        .request_timeout_ms = (long)settings_int(st, "s3_request_timeout_ms"),
        .time_budget_ms = (uint64_t)settings_int(st, "s3_retry_budget_ms"),
        .slow_all_on_network_error = settings_bool(st, "s3_slow_all_threads_after_network_error"),
    };
    s3_client_set_retry(c, &o);
}

static const char *object_method(const s3_src *f, const s3_object *o)
{
    return strcmp(f->compression, "auto") == 0 ? codec_method_from_path(o->key) : f->compression;
}

/* Schema inference reads only the start of an object: synchronous 1 MiB pieces, so that
 * no download runs ahead of what the inference needs. */
static int open_stream(s3_src *f, const s3_object *o, bool infer, rbuf **out)
{
    instream *in;
    s3_read_opts small = {.piece = 1u << 20, .threads = 1, .sync = true};
    if (instream_open_s3_opts(f->client, o->key, o->size, o->etag, infer ? &small : &f->ropts, &in))
        return -1;
    const char *method = object_method(f, o);
    if (strcmp(method, "none") != 0 && instream_decompress(in, method, &in))
        return -1;
    *out = rbuf_new(in, 1 << 20);
    return 0;
}

/* A range the open-ahead pool fetched on its multi for an object's reader. */
enum { PRE_PENDING, PRE_OK, PRE_FAILED };

typedef struct ra_pre {
    uint64_t off;
    size_t len;
    uint8_t *p;             /* PRE_OK: the bytes, freed once all were read out */
    size_t served;
    int state;              /* PRE_*, under the pool's mutex until the slot is READY */
    s3_ahead *a;            /* for the completion (pre_done) */
    size_t slot;
} ra_pre;

/* Ranged reads of one object for formats with random access (Parquet): the footer and
 * the needed column chunks are fetched, not the whole object. */
typedef struct s3_ra {
    s3_client *client;
    const char *key, *etag;   /* the source's object (outlives the reader) */
    uint8_t *dst;
    size_t want, got;
    ra_pre *pre;              /* ranges fetched ahead (read only once the slot is READY) */
    int npre;
} s3_ra;

static int ra_data(void *ctx, const void *p, size_t n)
{
    s3_ra *ra = ctx;
    if (n > ra->want - ra->got)
        return err_set(ERR_S3_ERROR, "GET of %s returned more bytes than the range asked for", ra->key);
    memcpy(ra->dst + ra->got, p, n);
    ra->got += n;
    return 0;
}

/* Serves [off, off + n) from a range fetched ahead: true when one holds it. */
static bool ra_from_pre(s3_ra *ra, uint64_t off, size_t n, uint8_t *dst)
{
    for (int i = 0; i < ra->npre; i++) {
        ra_pre *pr = &ra->pre[i];
        if (pr->state != PRE_OK || !pr->p || off < pr->off || off + n > pr->off + pr->len)
            continue;
        memcpy(dst, pr->p + (off - pr->off), n);
        pr->served += n;
        if (pr->served >= pr->len) {
            free(pr->p);
            pr->p = NULL;
        }
        return true;
    }
    return false;
}

static int ra_read(void *ctx, uint64_t off, size_t n, uint8_t *dst)
{
    s3_ra *ra = ctx;
    if (!n || ra_from_pre(ra, off, n, dst))
        return 0;
    ra->dst = dst;
    ra->want = n;
    ra->got = 0;
    if (s3_get_range(ra->client, ra->key, ra->etag, off, off + n - 1, ra_data, ra))
        return -1;
    if (ra->got != n)
        return err_set(ERR_CANNOT_READ_ALL_DATA, "Cannot read all data from %s: %zu of %zu bytes at offset %llu",
                       ra->key, ra->got, n, (unsigned long long)off);
    return 0;
}

static void ra_free(void *ctx)
{
    s3_ra *ra = ctx;
    for (int i = 0; i < ra->npre; i++)
        free(ra->pre[i].p);
    free(ra->pre);
    free(ra);
}

/* Opens the reader of object o: by ranges when the format allows (Parquet, uncompressed,
 * unless remote_filesystem_read_method = 'read' asked for plain streaming), else as a
 * prefetched stream. */
/* The metadata cache key of object o (its URL and ETag) in *ck when the cache is on: the
 * URL to free, else NULL (no cache: objects without an ETag are never cached). */
static char *cache_key(const s3_src *f, const s3_object *o, query_ctx *q, fmt_cache_key *ck)
{
    if (!f->pq_cache || !o->etag || !o->etag[0])
        return NULL;
    char *url = s3_object_url(f->client, o->key);
    *ck = (fmt_cache_key){.key = url, .version = o->etag, .hits = &q->io.pq_meta_hits, .misses = &q->io.pq_meta_misses};
    return url;
}

/* *ra: the reader's ranged reads when it reads by ranges, else NULL. */
static int open_reader(s3_src *f, const s3_object *o, const char *name, query_ctx *q, fmt_reader **out, s3_ra **rap)
{
    *rap = NULL;
    if (strcmp(object_method(f, o), "none") == 0 && !f->ropts.sync && o->size) {
        s3_ra *ra = xcalloc(1, sizeof *ra);
        *ra = (s3_ra){.client = f->client, .key = o->key, .etag = o->etag};
        fmt_cache_key ck;
        char *url = cache_key(f, o, q, &ck);
        int rc = fmt_reader_new_ra(f->format, name, o->size, ra_read, ra, ra_free, url ? &ck : NULL, f->file_schema,
                                   &q->fmt, out);
        free(url);
        if (rc == 0)
            *rap = ra;
        if (rc <= 0)
            return rc;
        free(ra);
    }
    rbuf *rb;
    if (open_stream(f, o, false, &rb))
        return -1;
    return fmt_reader_new(f->format, rb, f->file_schema, &q->fmt, out);
}

static int open_iter(s3_src *f, int task, const int *cols, int ncols, query_ctx *q, s3_it **out);
static int iter_prefetch(s3_it *it);
static void s3_close(void *itp);

static bool ranged_mode(const s3_src *f)
{
    if (f->ropts.sync || strcasecmp(f->format, "Parquet") != 0)
        return false;
    for (size_t i = 0; i < f->nobjs; i++)
        if (strcmp(object_method(f, &f->objs[i]), "none") != 0)
            return false;
    return true;
}

/* Reserves the bytes object i's prefetch will hold; false when the pool is stopping. Called
 * and returns with a->mu held. */
static bool ahead_reserve(s3_ahead *a, size_t i, uint64_t need)
{
    ahead_slot *sl = &a->slots[i];
    while (!a->stop && a->held && a->held + need > a->max_held && !sl->wanted) {
        a->reserving++;
        pthread_cond_wait(&a->open_cv, &a->mu);
        a->reserving--;
    }
    if (a->stop)
        return false;
    a->held += need;
    sl->held = need;
    return true;
}

/* Slot i is READY (a->mu held): wakes the workers if one waits for it. */
static void ahead_ready(s3_ahead *a, ahead_slot *sl)
{
    sl->state = AHEAD_READY;
    if (sl->wanted)
        pthread_cond_broadcast(&a->take_cv);
}

/* A range fetched on the multi ended (the multi's thread). A failed one is read again,
 * with every retry rule, when the reader gets to it (ra_read). */
static void pre_done(void *ctx, bool ok)
{
    ra_pre *pr = ctx;
    s3_ahead *a = pr->a;
    pthread_mutex_lock(&a->mu);
    pr->state = ok ? PRE_OK : PRE_FAILED;
    if (!ok) {
        free(pr->p);
        pr->p = NULL;
    }
    ahead_slot *sl = &a->slots[pr->slot];
    if (--sl->pending == 0)
        ahead_ready(a, sl);
    pthread_mutex_unlock(&a->mu);
}

/* Opens object i (an opener thread, a->mu not held): the footer, then its first row
 * group's ranges queued on the multi (or, when the reader cannot tell them, read here). */
static void ahead_open(s3_ahead *a, size_t i)
{
    ahead_slot *sl = &a->slots[i];
    s3_it *it = NULL;
    int rc = open_iter(a->f, (int)i, a->cols, a->ncols, a->q, &it);
    fmt_range *rg = NULL;
    int nr = 0;
    bool async = !rc && a->multi && it->ra && fmt_reader_prefetch_ranges(it->reader, &rg, &nr) == 0;
    uint64_t need = 0;
    if (async) {
        for (int k = 0; k < nr; k++)
            need += rg[k].len;
    } else if (!rc) { /* unknown: the whole object */
        int64_t b = fmt_reader_prefetch_bytes(it->reader);
        need = b < 0 ? a->f->objs[i].size : (uint64_t)b;
    }
    pthread_mutex_lock(&a->mu);
    bool go = !rc && ahead_reserve(a, i, need);
    if (go && async && nr) {
        s3_ra *ra = it->ra;
        ra->pre = xcalloc((size_t)nr, sizeof *ra->pre);
        ra->npre = nr;
        for (int k = 0; k < nr; k++)
            ra->pre[k] = (ra_pre){.off = rg[k].off, .len = rg[k].len, .p = xmalloc(rg[k].len ? rg[k].len : 1),
                                  .state = PRE_PENDING, .a = a, .slot = i};
        sl->pending = nr;
        sl->state = AHEAD_FETCHING;
        sl->it = it;
        pthread_mutex_unlock(&a->mu);
        const s3_object *o = &a->f->objs[i];
        for (int k = 0; k < nr; k++) {
            ra_pre *pr = &ra->pre[k];
            if (s3_get_range_async(a->f->client, a->multi, o->key, o->etag, pr->off, pr->off + pr->len - 1, pr->p,
                                   pre_done, pr)) {
                err_clear(); /* the reader's own read reports it */
                pre_done(pr, false);
            }
        }
        free(rg);
        return;
    }
    pthread_mutex_unlock(&a->mu);
    free(rg);
    if (go && !async && iter_prefetch(it)) {
        s3_close(it);
        it = NULL;
        rc = -1;
    }
    pthread_mutex_lock(&a->mu);
    if (rc)
        err_save(&sl->err);
    sl->it = it; /* not prefetched when stopping: ahead_stop closes it */
    ahead_ready(a, sl);
    pthread_mutex_unlock(&a->mu);
}

static void *ahead_main(void *arg)
{
    s3_ahead *a = arg;
    mem_tracker *prev = mem_tracker_attach(&a->q->mem);
    pthread_mutex_lock(&a->mu);
    for (;;) {
        while (!a->stop && a->next < a->f->nobjs && a->next >= a->horizon)
            pthread_cond_wait(&a->open_cv, &a->mu);
        if (a->stop || a->next >= a->f->nobjs)
            break; /* nothing left to open: the thread ends */
        size_t i = a->next++;
        if (a->slots[i].state != AHEAD_NONE)
            continue;
        a->slots[i].state = AHEAD_RUNNING;
        pthread_mutex_unlock(&a->mu);
        ahead_open(a, i);
        pthread_mutex_lock(&a->mu);
    }
    pthread_mutex_unlock(&a->mu);
    mem_tracker_attach(prev);
    return NULL;
}

static void ahead_start(s3_src *f, const int *cols, int ncols, query_ctx *q)
{
    s3_ahead *a = xcalloc(1, sizeof *a);
    pthread_mutex_init(&a->mu, NULL);
    pthread_cond_init(&a->open_cv, NULL);
    pthread_cond_init(&a->take_cv, NULL);
    a->slots = xcalloc(f->nobjs + 1, sizeof *a->slots);
    a->f = f;
    a->q = q;
    a->cols = read_cols_copy(cols, ncols);
    a->ncols = ncols;
    /* requests in flight: 16 × max_download_threads per worker, at most 128. Each request
     * costs ~25–50 ms of latency on a local radosgw and its rate grows with the requests in
     * flight: parallel curl fetching the posts set's 189 chunks from the same radosgw took
     * 0.30 s with 32 in flight, 0.19 s with 64, 0.165 s with 128 (bench posts_q1_s3_rate).
     * On the multi a request costs no thread, so the pool can keep that many. */
    int n = f->ropts.threads > 0 ? f->ropts.threads : 4;
    n *= AHEAD_PER_DOWNLOAD_THREAD * (q->max_threads > 0 ? q->max_threads : 1);
    if (n > AHEAD_MAX_REQUESTS)
        n = AHEAD_MAX_REQUESTS;
    if ((size_t)n > f->nobjs)
        n = (int)f->nobjs;
    http_trace_note("s3 pool start");
    a->window = (size_t)n * 2;
    /* memory: what the objects ahead may hold (their size bounds the chunks read) */
    a->max_held = (uint64_t)128 << 20;
    a->horizon = a->window;
    a->multi = http_multi_new(n);
    if (!a->multi)
        err_clear(); /* the openers read the ranges themselves */
    int openers = a->multi ? n / 8 : n;
    if (openers < 2)
        openers = 2;
    if (openers > AHEAD_OPENERS)
        openers = AHEAD_OPENERS;
    if ((size_t)openers > f->nobjs)
        openers = (int)f->nobjs;
    for (int i = 0; i < openers; i++)
        if (pthread_create(&a->threads[a->nthreads], NULL, ahead_main, a) == 0)
            a->nthreads++;
    f->ahead = a;
}

static void ahead_stop(s3_ahead *a)
{
    if (!a)
        return;
    pthread_mutex_lock(&a->mu);
    a->stop = true;
    pthread_cond_broadcast(&a->open_cv);
    pthread_mutex_unlock(&a->mu);
    for (int i = 0; i < a->nthreads; i++)
        pthread_join(a->threads[i], NULL);
    http_multi_free(a->multi); /* cancels what still runs: every slot becomes READY */
    for (size_t i = 0; i < a->f->nobjs; i++)
        if (a->slots[i].state == AHEAD_READY && a->slots[i].it)
            s3_close(a->slots[i].it);
    free(a->slots);
    free(a->cols);
    pthread_mutex_destroy(&a->mu);
    pthread_cond_destroy(&a->open_cv);
    pthread_cond_destroy(&a->take_cv);
    free(a);
}

/* The iterator of `task` from the open-ahead pool: 1 when the pool does not have it (the
 * caller opens it), 0 with *out, or -1 with the error the pool met. */
static int ahead_take(s3_ahead *a, int task, s3_it **out)
{
    pthread_mutex_lock(&a->mu);
    ahead_slot *sl = &a->slots[task];
    if (sl->state == AHEAD_NONE)
        sl->state = AHEAD_TAKEN;
    while (sl->state == AHEAD_RUNNING || sl->state == AHEAD_FETCHING) {
        if (!sl->wanted) {
            sl->wanted = true;
            if (a->reserving) /* its reservation may now exceed the bound */
                pthread_cond_broadcast(&a->open_cv);
        }
        pthread_cond_wait(&a->take_cv, &a->mu);
    }
    int rc = 1;
    if (sl->state == AHEAD_READY) {
        a->held -= sl->held;
        if (sl->held && a->reserving)
            pthread_cond_broadcast(&a->open_cv);
        sl->held = 0;
        sl->state = AHEAD_TAKEN;
        *out = sl->it;
        sl->it = NULL;
        rc = *out ? 0 : err_restore(&sl->err);
    }
    if ((size_t)task + a->window > a->horizon) {
        a->horizon = (size_t)task + a->window; /* let the pool run further ahead */
        pthread_cond_broadcast(&a->open_cv); /* a few openers, not a thread per request */
    }
    pthread_mutex_unlock(&a->mu);
    return rc;
}

static int s3_open(source *s, int task, const int *cols, int ncols, query_ctx *q, void **itp)
{
    s3_src *f = s->impl;
    pthread_mutex_lock(&f->ahead_once);
    if (!f->ahead && f->nobjs > 1 && ranged_mode(f))
        ahead_start(f, cols, ncols, q);
    pthread_mutex_unlock(&f->ahead_once);
    s3_it *it = NULL;
    int rc = f->ahead ? ahead_take(f->ahead, task, &it) : 1;
    if (rc == 1)
        rc = open_iter(f, task, cols, ncols, q, &it);
    if (rc)
        return -1;
    *itp = it;
    return 0;
}

static int open_iter(s3_src *f, int task, const int *cols, int ncols, query_ctx *q, s3_it **out)
{
    s3_it *it = xcalloc(1, sizeof *it);
    it->obj = &f->objs[task];
    size_t len = strlen(s3_client_url(f->client)->bucket) + strlen(it->obj->key) + 2;
    it->path = xmalloc(len);
    snprintf(it->path, len, "%s/%s", s3_client_url(f->client)->bucket, it->obj->key);
    it->ncols = ncols;
    it->cols = read_cols_copy(cols, ncols);
    it->nfile = f->file_schema->n;
    it->q = q;
    if (open_reader(f, it->obj, it->path, q, &it->reader, &it->ra)) {
        err_suffix(" (in object %s)", it->path);
        free(it->path);
        free(it->cols);
        free(it);
        return -1;
    }
    read_select_columns(it->reader, cols, ncols, it->nfile, f->coded);
    if (f->nffilters)
        fmt_reader_set_filters(it->reader, f->ffilters, f->nffilters);
    *out = it;
    return 0;
}

/* Fetches what the first s3_next needs (the pool's threads do the waiting). */
static int iter_prefetch(s3_it *it)
{
    if (!fmt_reader_prefetch(it->reader))
        return 0;
    if (!strstr(err_msg(), it->path))
        err_suffix(" (in object %s)", it->path);
    return -1;
}

static int s3_next(void *itp, block **out)
{
    s3_it *it = itp;
    block *b;
    if (fmt_reader_next(it->reader, &b)) {
        if (!strstr(err_msg(), it->path))
            err_suffix(" (in object %s)", it->path);
        return -1;
    }
    if (!b) {
        *out = NULL;
        return 0;
    }
    query_add_read(it->q, b->rows, block_bytes(b));
    *out = read_project(b, it->cols, it->ncols, it->nfile, it->path, (int64_t)it->obj->size);
    return 0;
}

static void s3_close(void *itp)
{
    s3_it *it = itp;
    fmt_reader_free(it->reader);
    read_prefilter_free(&it->pre);
    free(it->path);
    free(it->cols);
    free(it);
}

static void src_free(s3_src *f)
{
    ahead_stop(f->ahead);
    pthread_mutex_destroy(&f->ahead_once);
    s3_client_free(f->client);
    s3_objects_free(f->objs, f->nall > f->nobjs ? f->nall : f->nobjs);
    free(f->names);
    free(f->etags);
    free(f->format);
    free(f->compression);
    schema_free(f->file_schema);
    free(f->coded);
    read_filters_free(f->filters, f->nfilters);
    free(f->ffilters);
    free(f);
}

static void s3_destroy(source *s) { src_free(s->impl); }

static void s3_set_prefilter(void *itp, const bool *cols, fmt_prefilter_fn fn, void *ctx)
{
    s3_it *it = itp;
    read_prefilter_free(&it->pre);
    bool *file_cols = read_prefilter_init(&it->pre, it->cols, it->ncols, it->nfile, it->path, cols, fn, ctx);
    if (file_cols)
        fmt_reader_set_prefilter(it->reader, file_cols, read_prefilter_call, &it->pre);
    free(file_cols);
}

static void s3_accept_codes(source *s, const bool *coded)
{
    s3_src *f = s->impl;
    read_accept_codes(&f->coded, coded, f->file_schema->n);
}

static int s3_objects(source *s, int *n, char *const **names, char *const **versions)
{
    s3_src *f = s->impl;
    if (!f->names) {
        f->names = xcalloc(f->nobjs + 1, sizeof *f->names);
        f->etags = xcalloc(f->nobjs + 1, sizeof *f->etags);
        for (size_t i = 0; i < f->nobjs; i++) {
            f->names[i] = f->objs[i].key;
            f->etags[i] = f->objs[i].etag ? f->objs[i].etag : (char *)"";
        }
    }
    *n = (int)f->nobjs;
    *names = f->names;
    *versions = f->etags;
    return 0;
}

/* Moves the kept objects to the front (one task per object); the rest stay allocated
 * after nobjs until the source is freed. */
static void s3_keep_objects(source *s, const uint8_t *keep)
{
    s3_src *f = s->impl;
    if (!f->nall)
        f->nall = f->nobjs;
    size_t k = 0;
    for (size_t i = 0; i < f->nobjs; i++)
        if (keep[i]) {
            s3_object t = f->objs[k];
            f->objs[k] = f->objs[i];
            f->objs[i] = t;
            k++;
        }
    f->nobjs = k;
    s->ntasks = (int)k;
    free(f->names);
    free(f->etags);
    f->names = f->etags = NULL;
}

/* Drops the objects whose _path ("bucket/key") or _file cannot satisfy the filters, so
 * that a glob over many objects opens only those the WHERE clause names. */
/* Drops the objects whose _path/_file cannot satisfy the filters, and keeps the filters
 * on file columns so that Parquet readers skip row groups by their statistics (never
 * fetching their chunks) when input_format_parquet_filter_push_down is on. */
static void s3_set_filter(source *s, const src_filter *fl, int n, query_ctx *q)
{
    s3_src *f = s->impl;
    int nfile = f->file_schema->n;
    if (settings_bool(q->st, "input_format_parquet_filter_push_down")) {
        read_filters_free(f->filters, f->nfilters);
        f->filters = read_file_filters(fl, n, nfile, &f->nfilters);
        free(f->ffilters);
        f->ffilters = read_format_filters(f->filters, f->nfilters, f->file_schema, &f->nffilters);
    }
    if (!read_has_path_filter(fl, n, nfile))
        return;
    const char *bucket = s3_client_url(f->client)->bucket;
    uint8_t *keep = xcalloc(f->nobjs + 1, 1);
    buf path = {0};
    for (size_t i = 0; i < f->nobjs; i++) {
        path.len = 0;
        buf_printf(&path, "%s/%s", bucket, f->objs[i].key);
        keep[i] = read_object_may_match(fl, n, nfile, buf_cstr(&path));
    }
    buf_free(&path);
    s3_keep_objects(s, keep);
    free(keep);
}

static bool is_format_name(const char *s) { return strcmp(s, "auto") == 0 || fmt_input_canonical(s) != NULL; }

/* ClickHouse's reading of the positional arguments (TableFunctionS3): NOSIGN or key/secret
 * [/token] after the URL, told apart from format/structure by whether an argument names a
 * format. Fills a[0..6] = url, key, secret, token, format, structure, compression. */
static int split_args(char **v, int n, const char **a, bool *nosign)
{
    for (int i = 0; i < 7; i++)
        a[i] = NULL;
    a[0] = v[0];
    *nosign = n >= 2 && strcasecmp(v[1], "NOSIGN") == 0;
    enum { KEY = 1, SECRET, TOKEN, FORMAT, STRUCTURE, COMPRESSION };
    static const int layouts[][7] = {
        /* 0: url, format, structure, compression */
        {FORMAT, STRUCTURE, COMPRESSION},
        /* 1: url, NOSIGN, format, structure, compression */
        {-1, FORMAT, STRUCTURE, COMPRESSION},
        /* 2: url, key, secret, format, structure, compression */
        {KEY, SECRET, FORMAT, STRUCTURE, COMPRESSION},
        /* 3: url, key, secret, token, format, structure, compression */
        {KEY, SECRET, TOKEN, FORMAT, STRUCTURE, COMPRESSION},
    };
    static const int maxn[] = {4, 5, 6, 7};
    int layout;
    if (n == 1 || (n >= 2 && !*nosign && is_format_name(v[1]) && n <= 4))
        layout = 0;
    else if (*nosign)
        layout = 1;
    else if (n == 3 || (n >= 4 && is_format_name(v[3])))
        layout = 2;
    else
        layout = 3;
    if (n == 2 && !*nosign && !is_format_name(v[1]))
        return err_set(ERR_BAD_ARGUMENTS, "Unknown format %s in table function s3", v[1]);
    if (n > maxn[layout])
        return err_set(ERR_NUMBER_OF_ARGUMENTS_DOESNT_MATCH,
                       "Table function 's3' requires 1 to 7 arguments: url [, NOSIGN | access_key_id, "
                       "secret_access_key [, session_token]] [, format] [, structure] [, compression_method]");
    for (int i = 1; i < n; i++) {
        int role = layouts[layout][i - 1];
        if (role > 0)
            a[role] = v[i];
    }
    return 0;
}

int tablefunc_s3_split_args(char **v, int n, const char **a, bool *nosign) { return split_args(v, n, a, nosign); }

int tablefunc_s3(column *const *args, int nargs, query_ctx *q, source **out)
{
    if (nargs < 1 || nargs > 7)
        return err_set(ERR_NUMBER_OF_ARGUMENTS_DOESNT_MATCH,
                       "Table function 's3' requires 1 to 7 arguments: url [, NOSIGN | access_key_id, "
                       "secret_access_key [, session_token]] [, format] [, structure] [, compression_method]");
    char *v[7] = {0};
    for (int i = 0; i < nargs; i++) {
        if (type_base(args[i]->type)->id != T_STRING) {
            for (int k = 0; k < i; k++)
                free(v[k]);
            return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "Argument %d of table function 's3' must be a string literal",
                           i + 1);
        }
        size_t n;
        const char *s = col_str(args[i], 0, &n);
        v[i] = xstrndup(s, n);
    }
    const char *a[7];
    bool nosign;
    s3_src *f = NULL;
    s3_url u = {0};
    int rc = -1;
    if (split_args(v, nargs, a, &nosign))
        goto out;
    if (s3_url_parse(a[0], &u))
        goto out;
    f = xcalloc(1, sizeof *f);
    pthread_mutex_init(&f->ahead_once, NULL);
    s3_creds cr = {.key_id = a[1], .secret = a[2], .token = a[3], .nosign = nosign};
    f->client = s3_client_new(&u, &cr, &q->io);
    s3_client_apply_settings(f->client, q->st);
    f->ropts.piece = (size_t)settings_int(q->st, "max_download_buffer_size");
    f->ropts.threads = (int)settings_int(q->st, "max_download_threads");
    f->ropts.sync = strcmp(settings_str(q->st, "remote_filesystem_read_method"), "read") == 0;
    f->compression = xstrdup(a[6] ? a[6] : "auto");
    f->pq_cache = settings_bool(q->st, "use_parquet_metadata_cache");
    bool has_structure = a[5] && strcmp(a[5], "auto") != 0;
    bool has_format = a[4] && strcmp(a[4], "auto") != 0;
    if (glob_has_magic(u.key)) {
        size_t pl = s3_glob_prefix_len(u.key);
        char *prefix = xstrndup(u.key, pl);
        s3_object *all;
        size_t n;
        int lrc = s3_list(f->client, prefix, &all, &n);
        free(prefix);
        if (lrc)
            goto out;
        http_trace_note("s3 listed");
        f->objs = xcalloc(n + 1, sizeof *f->objs);
        for (size_t i = 0; i < n; i++) {
            if (glob_match(u.key, all[i].key) && all[i].key[strlen(all[i].key) - 1] != '/') {
                f->objs[f->nobjs++] = all[i];
            } else {
                free(all[i].key);
                free(all[i].etag);
            }
        }
        free(all);
        if (f->nobjs == 0 && !has_structure) {
            err_set(ERR_CANNOT_EXTRACT_TABLE_STRUCTURE,
                    "Cannot extract table structure from %s format file, because there are no files with provided "
                    "path in S3 or all files are empty. You can specify table structure manually (pattern '%s' in bucket '%s')",
                    has_format ? a[4] : "auto", u.key, u.bucket);
            goto out;
        }
    } else {
        f->objs = xcalloc(1, sizeof *f->objs);
        uint64_t size;
        char *etag = NULL;
        if (s3_head(f->client, u.key, &size, &etag)) {
            err_prefix("Cannot read object '%s' in bucket '%s': ", u.key, u.bucket);
            goto out;
        }
        f->objs[0] = (s3_object){.key = xstrdup(u.key), .size = size, .etag = etag};
        f->nobjs = 1;
    }
    if (has_format) {
        const char *canon = fmt_input_canonical(a[4]);
        if (!canon) {
            err_set(ERR_UNKNOWN_FORMAT, "Unknown input format %s", a[4]);
            goto out;
        }
        f->format = xstrdup(canon);
    } else {
        const char *det = fmt_from_filename(f->nobjs ? f->objs[0].key : u.key);
        if (!det) {
            err_set(ERR_CANNOT_EXTRACT_TABLE_STRUCTURE,
                    "Cannot detect the format of '%s' from its name; specify the format explicitly: s3(url, format)",
                    f->nobjs ? f->objs[0].key : u.key);
            goto out;
        }
        f->format = xstrdup(det);
    }
    if (has_structure) {
        if (structure_parse(a[5], strlen(a[5]), &f->file_schema))
            goto out;
    } else {
        /* The first object with data, or a cached inference of it (by URL and ETag). */
        bool use_cache = settings_bool(q->st, "schema_inference_use_cache_for_s3");
        char *info = use_cache ? schema_cache_format_info(&q->fmt) : NULL;
        int irc = 0;
        for (size_t i = 0; i < f->nobjs && !f->file_schema && !irc; i++) {
            char *src_url = s3_object_url(f->client, f->objs[i].key);
            schema_cache_key key = {.storage = "S3", .source = src_url, .format = f->format, .info = info,
                                    .version = use_cache ? f->objs[i].etag : NULL};
            if (!(f->file_schema = schema_cache_get(&key))) {
                rbuf *rb;
                /* Parquet: the footer by a ranged read, not the object */
                const s3_object *o = &f->objs[i];
                s3_ra ra = {.client = f->client, .key = o->key, .etag = o->etag};
                fmt_cache_key ck;
                char *url = cache_key(f, o, q, &ck);
                int rrc = strcmp(object_method(f, o), "none") == 0 && o->size
                              ? fmt_infer_schema_ra(f->format, src_url, o->size, ra_read, &ra, url ? &ck : NULL,
                                                    &f->file_schema)
                              : 1;
                free(url);
                if (rrc <= 0) {
                    irc = rrc;
                    if (irc)
                        err_suffix(" (while inferring the structure of %s/%s)", u.bucket, o->key);
                    else
                        schema_cache_put(&key, f->file_schema);
                } else if (open_stream(f, &f->objs[i], true, &rb)) {
                    irc = -1;
                } else {
                    irc = fmt_infer_schema(f->format, rb, &q->fmt, &f->file_schema);
                    rbuf_free(rb);
                    if (irc && err_code() == ERR_EMPTY_DATA_PASSED && i + 1 < f->nobjs)
                        irc = 0;
                    else if (irc)
                        err_suffix(" (while inferring the structure of %s/%s)", u.bucket, f->objs[i].key);
                    else
                        schema_cache_put(&key, f->file_schema);
                }
            }
            free(src_url);
        }
        free(info);
        if (irc)
            goto out;
    }
    source *src = xcalloc(1, sizeof *src);
    src->sch = read_source_schema(f->file_schema, true);
    src->nvisible = f->file_schema->n;
    src->ntasks = (int)f->nobjs;
    src->impl = f;
    src->open = s3_open;
    src->next = s3_next;
    src->close = s3_close;
    src->destroy = s3_destroy;
    src->objects = s3_objects;
    src->keep_objects = s3_keep_objects;
    src->set_filter = s3_set_filter;
    src->accept_codes = s3_accept_codes;
    src->set_prefilter = s3_set_prefilter;
    *out = src;
    f = NULL;
    rc = 0;
out:
    if (f)
        src_free(f);
    s3_url_free(&u);
    for (int i = 0; i < nargs; i++) {
        if (v[i]) /* the secret must not linger in freed memory */
            memset(v[i], 0, strlen(v[i]));
        free(v[i]);
    }
    return rc;
}

/* ---- INSERT INTO FUNCTION s3(url [, NOSIGN | key, secret [, token]] [, format] [, structure] [, compression]) ---- */

/* Between the compressor (which closes what it wraps) and the S3 stream: closing it
 * completes the object unless the insert is being abandoned, when it aborts the upload. */
typedef struct abort_guard {
    outstream base;
    outstream *raw;
    bool aborting;
} abort_guard;

static int guard_write(outstream *s, const void *src, size_t n)
{
    abort_guard *g = (abort_guard *)s;
    int rc = g->raw->write(g->raw, src, n);
    g->base.offset = g->raw->offset;
    return rc;
}

static int guard_close(outstream *s)
{
    abort_guard *g = (abort_guard *)s;
    int rc = 0;
    if (g->aborting)
        outstream_s3_abort(g->raw);
    else
        rc = g->raw->close(g->raw);
    free(g);
    return rc;
}

typedef struct s3_sink {
    table_sink base;
    s3_client *client;
    abort_guard *guard; /* owned by os (the compressor) or os itself */
    outstream *os;      /* what the writer writes to */
    fmt_writer *w;
} s3_sink;

static int s3_sink_write(block_sink *s, block *b)
{
    s3_sink *k = (s3_sink *)s;
    int rc = fmt_writer_write(k->w, b);
    block_free(b);
    return rc;
}

static void s3_sink_close(s3_sink *k, bool abandon)
{
    err_saved e;
    err_save(&e);
    k->guard->aborting = abandon;
    k->os->close(k->os);
    err_restore(&e);
    s3_client_free(k->client);
    free(k);
}

static int s3_sink_finish(table_sink *s)
{
    s3_sink *k = (s3_sink *)s;
    fmt_stats st = {0};
    int rc = fmt_writer_finish(k->w, &st);
    fmt_writer_free(k->w);
    if (rc) {
        s3_sink_close(k, true);
        return -1;
    }
    rc = k->os->close(k->os); /* a failed completion aborts the upload itself */
    s3_client_free(k->client);
    free(k);
    return rc;
}

static void s3_sink_abort(table_sink *s)
{
    s3_sink *k = (s3_sink *)s;
    fmt_writer_free(k->w);
    s3_sink_close(k, true);
}

int tablefunc_s3_sink(column *const *args, int nargs, const schema *sch, query_ctx *q, table_sink **out)
{
    if (nargs < 1 || nargs > 7)
        return err_set(ERR_NUMBER_OF_ARGUMENTS_DOESNT_MATCH,
                       "Table function 's3' requires 1 to 7 arguments: url [, NOSIGN | access_key_id, "
                       "secret_access_key [, session_token]] [, format] [, structure] [, compression_method]");
    char *v[7] = {0};
    for (int i = 0; i < nargs; i++) {
        if (type_base(args[i]->type)->id != T_STRING) {
            for (int k = 0; k < i; k++)
                free(v[k]);
            return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "Argument %d of table function 's3' must be a string literal",
                           i + 1);
        }
        size_t n;
        const char *s = col_str(args[i], 0, &n);
        v[i] = xstrndup(s, n);
    }
    const char *a[7];
    bool nosign;
    s3_url u = {0};
    s3_client *client = NULL;
    int rc = -1;
    if (split_args(v, nargs, a, &nosign) || s3_url_parse(a[0], &u))
        goto out;
    if (!u.key[0] || u.key[strlen(u.key) - 1] == '/' || glob_has_magic(u.key)) {
        err_set(ERR_BAD_ARGUMENTS, "Cannot write to S3 URL %s: it must name one object (no globs, not a directory)", a[0]);
        goto out;
    }
    const char *format;
    if (a[4] && strcmp(a[4], "auto") != 0) {
        format = fmt_output_canonical(a[4]);
        if (!format) {
            err_set(ERR_UNKNOWN_FORMAT, "Unknown output format %s", a[4]);
            goto out;
        }
    } else {
        const char *det = fmt_from_filename(u.key);
        format = det ? fmt_output_canonical(det) : NULL;
        if (!format) {
            err_set(ERR_BAD_ARGUMENTS, "Cannot detect the output format from the key %s; pass the format explicitly",
                    u.key);
            goto out;
        }
    }
    const char *method = NULL;
    if (!a[6] || strcmp(a[6], "auto") == 0)
        method = codec_method_from_path(u.key);
    else if (codec_method_canonical(a[6], &method))
        goto out;
    s3_creds cr = {.key_id = a[1], .secret = a[2], .token = a[3], .nosign = nosign};
    client = s3_client_new(&u, &cr, &q->io);
    s3_client_apply_settings(client, q->st);
    if (!settings_bool(q->st, "s3_truncate_on_insert")) {
        /* ClickHouse refuses to replace an object unless told to; a listing of the key as
         * prefix also reports a missing bucket. */
        s3_object *objs;
        size_t n;
        if (s3_list(client, u.key, &objs, &n))
            goto out;
        bool exists = false;
        for (size_t i = 0; i < n; i++)
            exists |= strcmp(objs[i].key, u.key) == 0;
        s3_objects_free(objs, n);
        if (exists) {
            err_set(ERR_BAD_ARGUMENTS,
                    "Object in bucket %s with key %s already exists. If you want to overwrite it, enable setting "
                    "s3_truncate_on_insert, if you want to create a new file on each insert, enable setting "
                    "s3_create_new_file_on_insert",
                    u.bucket, u.key);
            goto out;
        }
    }
    s3_write_opts wo = {.min_part = (uint64_t)settings_int(q->st, "s3_min_upload_part_size"),
                        .max_part = (uint64_t)settings_int(q->st, "s3_max_upload_part_size"),
                        .factor = (uint64_t)settings_int(q->st, "s3_upload_part_size_multiply_factor"),
                        .threshold = (uint64_t)settings_int(q->st, "s3_upload_part_size_multiply_parts_count_threshold"),
                        .max_single = (uint64_t)settings_int(q->st, "s3_max_single_part_upload_size"),
                        .max_inflight = (int)settings_int(q->st, "s3_max_inflight_parts_for_one_file")};
    outstream *raw;
    if (outstream_open_s3(client, u.key, &wo, &raw))
        goto out;
    abort_guard *g = xcalloc(1, sizeof *g);
    g->raw = raw;
    g->base.write = guard_write;
    g->base.close = guard_close;
    g->base.name = raw->name;
    outstream *os = &g->base;
    if (strcmp(method, "none") != 0 && outstream_compress(os, method, 0, &os)) {
        g->aborting = true;
        guard_close(&g->base);
        goto out;
    }
    s3_sink *k = xcalloc(1, sizeof *k);
    k->client = client;
    k->guard = g;
    k->os = os;
    if (fmt_writer_new(format, sch, &q->fmt, os, &k->w)) {
        s3_sink_close(k, true);
        client = NULL;
        goto out;
    }
    client = NULL;
    k->base.base.write = s3_sink_write;
    k->base.finish = s3_sink_finish;
    k->base.abort = s3_sink_abort;
    *out = &k->base;
    rc = 0;
out:
    s3_client_free(client);
    s3_url_free(&u);
    for (int i = 0; i < nargs; i++) {
        if (v[i])
            memset(v[i], 0, strlen(v[i]));
        free(v[i]);
    }
    return rc;
}
