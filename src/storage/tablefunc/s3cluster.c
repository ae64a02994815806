/* s3Cluster(cluster, url [, NOSIGN | key, secret [, token]] [, format] [, structure]
 * [, compression]): the objects of a glob read by the nodes of a cluster.
 *
 * The initiator (the query's own server) lists the glob once and infers the schema, as
 * s3() does, then sends one replica of every shard (the first that accepts a connection,
 * in the config's order) the query
 *     SELECT <columns> FROM s3Cluster('cluster', url, …, format, structure, compression)
 * as a secondary query. A worker recognises it by the query kind (q->read_task is set
 * only there) and asks the initiator for objects one at a time over ClickHouse's
 * ReadTaskRequest / ReadTaskResponse packets; each object is read by an ordinary s3()
 * source over that object's URL (ranged Parquet reads, row-group pruning by the pushed
 * filters, dictionary codes), its rows stream back in Data packets, and the initiator
 * runs the whole query over them (so every query is right: aggregates, ORDER BY, LIMIT,
 * DISTINCT).
 *
 * Handout (the initiator): each object's preferred node is the one with the highest
 * hash of (object key, node) — rendezvous hashing, so the same node tends to get the same
 * object across queries and the same objects when a node joins or leaves. A node that
 * asks takes the next of its own objects in listing order; when it has none left it
 * steals the last one of the node with the most left (work stealing: no node idles while
 * objects remain). A node asks only when it is free, so the handout follows the nodes'
 * speed.
 *
 * Threads on the initiator: one pump per node connects, sends the query, answers the
 * node's ReadTaskRequests at once and puts its blocks in a queue bounded to QUEUE_BLOCKS
 * (pumps wait when it is full); the query's threads take blocks from the queue whatever
 * node they came from. A failure of any node fails the query (its message names the
 * node). Stopping early (LIMIT, an error) cancels every node's query.
 *
 * On a worker, the source has one task per thread (max_threads); each task asks for an
 * object, reads it, asks again, until the initiator answers with an empty path. */
#include "base/buf.h"
#include "base/err.h"
#include "base/mem.h"
#include "base/cityhash.h"
#include "io/s3.h"
#include "parse/ast.h"
#include "storage/cluster.h"
#include "storage/native_client.h"
#include "storage/structure.h"
#include "storage/tablefunc.h"
#include "storage/tablefunc/read_common.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

enum { QUEUE_BLOCKS_PER_NODE = 4 };

/* ---- arguments ---- */

typedef struct s3c_args {
    char *v[7];
    const char *a[7];           /* url, key, secret, token, format, structure, compression */
    bool nosign;
    int n;
} s3c_args;

static void args_free(s3c_args *x)
{
    for (int i = 0; i < x->n; i++) {
        if (x->v[i])
            memset(x->v[i], 0, strlen(x->v[i]));
        free(x->v[i]);
    }
    memset(x, 0, sizeof *x);
}

static int args_read(column *const *args, int nargs, s3c_args *x)
{
    memset(x, 0, sizeof *x);
    if (nargs < 1 || nargs > 7)
        return err_set(ERR_NUMBER_OF_ARGUMENTS_DOESNT_MATCH,
                       "Table function 's3Cluster' requires 2 to 8 arguments: cluster, url [, NOSIGN | "
                       "access_key_id, secret_access_key [, session_token]] [, format] [, structure] [, "
                       "compression_method]");
    x->n = nargs;
    for (int i = 0; i < nargs; i++) {
        if (type_base(args[i]->type)->id != T_STRING) {
            args_free(x);
            return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT,
                           "Argument %d of table function 's3Cluster' must be a string literal", i + 2);
        }
        size_t n;
        const char *s = col_str(args[i], 0, &n);
        x->v[i] = xstrndup(s, n);
    }
    if (tablefunc_s3_split_args(x->v, nargs, x->a, &x->nosign)) {
        args_free(x);
        return -1;
    }
    return 0;
}

static column *const_str(const char *s)
{
    column *c = col_new(type_simple(T_STRING));
    col_push_str(c, s, strlen(s));
    return col_new_const(c, 1);
}

/* s3()'s arguments in their full form with url, format, structure and compression given
 * (NULL: keep the caller's). */
static int full_args(const s3c_args *x, const char *url, const char *format, const char *structure,
                     const char *compression, column **out)
{
    int n = 0;
    out[n++] = const_str(url ? url : x->a[0]);
    if (x->nosign)
        out[n++] = const_str("NOSIGN");
    else if (x->a[1]) {
        out[n++] = const_str(x->a[1]);
        out[n++] = const_str(x->a[2] ? x->a[2] : "");
        if (x->a[3])
            out[n++] = const_str(x->a[3]);
    }
    out[n++] = const_str(format ? format : x->a[4] ? x->a[4] : "auto");
    out[n++] = const_str(structure ? structure : x->a[5] ? x->a[5] : "auto");
    out[n++] = const_str(compression ? compression : x->a[6] ? x->a[6] : "auto");
    return n;
}

static void free_cols(column **c, int n)
{
    for (int i = 0; i < n; i++)
        col_free(c[i]);
}

/* The file columns as a structure argument: `name` Type, … */
static char *structure_of(const source *s)
{
    buf b = {0};
    for (int i = 0; i < s->nvisible; i++) {
        if (i)
            buf_puts(&b, ", ");
        buf_putc(&b, '`');
        for (const char *p = s->sch->names[i]; *p; p++) {
            if (*p == '`' || *p == '\\')
                buf_putc(&b, '\\');
            buf_putc(&b, *p);
        }
        buf_printf(&b, "` %s", s->sch->types[i]->name);
    }
    char *r = xstrdup(buf_cstr(&b));
    buf_free(&b);
    return r;
}

/* ======================= the worker ======================= */

typedef struct worker_src {
    s3c_args args;
    char *url_prefix;           /* the URL up to the key */
    schema *file_schema;        /* nvisible columns, for the structure */
    int nvisible;
    src_filter *filters;        /* copies of the file-column filters, for each object's source */
    int nfilters;
    bool *coded;
    int nfile;
} worker_src;

typedef struct worker_it {
    worker_src *w;
    query_ctx *q;
    int *cols;
    int ncols;
    source *obj;                /* the current object's s3() source */
    int task;                   /* its task being read */
    void *it;
    bool done;
    const bool *pre_cols;       /* set_prefilter, applied to every object's iterators */
    long (*pre_fn)(void *ctx, const block *b, uint8_t *keep);
    void *pre_ctx;
    bool *pre_copy;
} worker_it;

static void wk_drop_object(worker_it *it)
{
    if (it->it)
        it->obj->close(it->it);
    it->it = NULL;
    source_free(it->obj);
    it->obj = NULL;
}

/* The next object from the initiator as an s3() source; false when none is left. */
static int wk_next_object(worker_it *it, bool *got)
{
    *got = false;
    char *key;
    if (it->q->read_task(it->q->read_task_ctx, &key))
        return -1;
    if (!key[0]) {
        free(key);
        return 0;
    }
    worker_src *w = it->w;
    buf url = {0};
    buf_puts(&url, w->url_prefix);
    buf_puts(&url, key);
    free(key);
    column *a[8];
    int n = full_args(&w->args, buf_cstr(&url), NULL, NULL, NULL, a);
    buf_free(&url);
    int rc = tablefunc_s3(a, n, it->q, &it->obj);
    free_cols(a, n);
    if (rc)
        return -1;
    if (it->obj->sch->n != it->w->nfile + 3)
        return err_set(ERR_LOGICAL_ERROR, "s3Cluster worker: an object's source has %d columns, expected %d",
                       it->obj->sch->n, it->w->nfile + 3);
    if (w->nfilters && it->obj->set_filter)
        it->obj->set_filter(it->obj, w->filters, w->nfilters, it->q);
    if (w->coded && it->obj->accept_codes)
        it->obj->accept_codes(it->obj, w->coded);
    it->task = -1;
    *got = true;
    return 0;
}

static int wk_next(void *itp, block **out)
{
    worker_it *it = itp;
    *out = NULL;
    while (!it->done) {
        if (query_check(it->q))
            return -1;
        if (it->it) {
            if (it->obj->next(it->it, out))
                return -1;
            if (*out)
                return 0;
            it->obj->close(it->it);
            it->it = NULL;
        }
        if (it->obj && it->task + 1 < it->obj->ntasks) {
            it->task++;
            if (it->obj->open(it->obj, it->task, it->cols, it->ncols, it->q, &it->it))
                return -1;
            if (it->pre_fn && it->obj->set_prefilter)
                it->obj->set_prefilter(it->it, it->pre_cols, it->pre_fn, it->pre_ctx);
            continue;
        }
        wk_drop_object(it);
        bool got;
        if (wk_next_object(it, &got))
            return -1;
        it->done = !got;
    }
    return 0;
}

static int wk_open(source *s, int task, const int *cols, int ncols, query_ctx *q, void **itp)
{
    (void)task;
    worker_it *it = xcalloc(1, sizeof *it);
    it->w = s->impl;
    it->q = q;
    it->cols = read_cols_copy(cols, ncols);
    it->ncols = ncols;
    *itp = it;
    return 0;
}

static void wk_close(void *itp)
{
    worker_it *it = itp;
    wk_drop_object(it);
    free(it->cols);
    free(it->pre_copy);
    free(it);
}

static void wk_set_prefilter(void *itp, const bool *cols, long (*fn)(void *ctx, const block *b, uint8_t *keep),
                             void *ctx)
{
    worker_it *it = itp;
    free(it->pre_copy);
    it->pre_copy = xcalloc((size_t)it->ncols + 1, sizeof(bool));
    memcpy(it->pre_copy, cols, sizeof(bool) * (size_t)it->ncols);
    it->pre_cols = it->pre_copy;
    it->pre_fn = fn;
    it->pre_ctx = ctx;
}

static void wk_set_filter(source *s, const src_filter *f, int n, query_ctx *q)
{
    (void)q;
    worker_src *w = s->impl;
    read_filters_free(w->filters, w->nfilters);
    w->filters = read_file_filters(f, n, w->nfile, &w->nfilters);
}

static void wk_accept_codes(source *s, const bool *coded)
{
    worker_src *w = s->impl;
    read_accept_codes(&w->coded, coded, w->nfile);
}

static void wk_destroy(source *s)
{
    worker_src *w = s->impl;
    args_free(&w->args);
    free(w->url_prefix);
    schema_free(w->file_schema);
    read_filters_free(w->filters, w->nfilters);
    free(w->coded);
    free(w);
}

static int worker_source(column *const *args, int nargs, query_ctx *q, source **out)
{
    worker_src *w = xcalloc(1, sizeof *w);
    if (args_read(args, nargs, &w->args)) {
        free(w);
        return -1;
    }
    int rc = 0;
    if (!w->args.a[5] || strcmp(w->args.a[5], "auto") == 0)
        rc = err_set(ERR_BAD_ARGUMENTS, "s3Cluster on a worker needs the structure from its initiator");
    else
        rc = structure_parse(w->args.a[5], strlen(w->args.a[5]), &w->file_schema);
    s3_url u = {0};
    if (!rc)
        rc = s3_url_parse(w->args.a[0], &u);
    if (!rc) {
        buf b = {0};
        buf_puts(&b, u.endpoint);
        buf_putc(&b, '/');
        if (!u.virtual_host)
            buf_printf(&b, "%s/", u.bucket);
        w->url_prefix = xstrdup(buf_cstr(&b));
        buf_free(&b);
    }
    s3_url_free(&u);
    if (rc) {
        wk_destroy(&(source){.impl = w});
        return -1;
    }
    w->nfile = w->file_schema->n;
    source *s = xcalloc(1, sizeof *s);
    s->sch = read_source_schema(w->file_schema, true);
    s->nvisible = w->nfile;
    s->ntasks = q->max_threads > 0 ? q->max_threads : 1;
    s->impl = w;
    s->open = wk_open;
    s->next = wk_next;
    s->close = wk_close;
    s->destroy = wk_destroy;
    s->set_filter = wk_set_filter;
    s->accept_codes = wk_accept_codes;
    s->set_prefilter = wk_set_prefilter;
    *out = s;
    return 0;
}

/* ======================= the initiator ======================= */

typedef struct init_src init_src;

typedef struct node {
    init_src *is;
    int index;
    const cluster_shard *shard;
    char *id;                   /* host:port of the shard's first replica (the hash's node) */
    pthread_t thread;
    bool started;
    nclient *c;
    pthread_mutex_t cmu;        /* c, for the canceller */
    int *queue;                 /* objects preferring this node, in listing order */
    int qhead, qtail;
    int handed;                 /* objects handed to it */
} node;

typedef struct qblock {
    block *b;
    struct qblock *next;
} qblock;

struct init_src {
    cluster_set *cs;
    const cluster_def *c;
    source *listing;            /* s3() over the glob: objects and schema, never read */
    s3c_args args;
    char *structure;
    char *cluster_name;
    int connect_ms;
    native_kv *settings;
    int nsettings;
    query_ctx *q;
    /* what the nodes are asked for (set by the first open) */
    char *sql;
    int ncols;
    int *cols;
    /* handout */
    pthread_mutex_t mu;
    pthread_cond_t cv;          /* queue space, queue data, pump ended */
    int nobj;
    char *const *keys;
    bool *taken;
    int nnodes;
    node *nodes;
    /* results */
    qblock *head, *tail;
    int queued;
    int running;                /* pumps not ended */
    bool failed, stop, pumps_started;
    err_saved err;
};

static uint64_t mix64(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    x ^= x >> 33;
    return x;
}

/* Rendezvous hashing: each object goes to the queue of the node with the highest
 * mix(hash(key) ^ hash(node)). */
static void plan_handout(init_src *is)
{
    uint64_t *nh = xcalloc((size_t)is->nnodes + 1, sizeof *nh);
    for (int k = 0; k < is->nnodes; k++) {
        nh[k] = cityhash64_v102(is->nodes[k].id, strlen(is->nodes[k].id));
        is->nodes[k].queue = xcalloc((size_t)is->nobj + 1, sizeof(int));
    }
    for (int i = 0; i < is->nobj; i++) {
        uint64_t h = cityhash64_v102(is->keys[i], strlen(is->keys[i]));
        int best = 0;
        uint64_t bw = 0;
        for (int k = 0; k < is->nnodes; k++) {
            uint64_t wgt = mix64(h ^ nh[k]);
            if (k == 0 || wgt > bw) {
                bw = wgt;
                best = k;
            }
        }
        node *n = &is->nodes[best];
        n->queue[n->qtail++] = i;
    }
    free(nh);
}

/* The next object for node k (-1: none left). Caller holds is->mu. */
static int take_object(init_src *is, int k)
{
    node *n = &is->nodes[k];
    while (n->qhead < n->qtail && is->taken[n->queue[n->qhead]])
        n->qhead++;
    int o = -1;
    if (n->qhead < n->qtail) {
        o = n->queue[n->qhead++];
    } else {
        int victim = -1, most = 0;
        for (int j = 0; j < is->nnodes; j++) {
            node *m = &is->nodes[j];
            while (m->qtail > m->qhead && is->taken[m->queue[m->qtail - 1]])
                m->qtail--;
            if (m->qtail - m->qhead > most) {
                most = m->qtail - m->qhead;
                victim = j;
            }
        }
        if (victim >= 0)
            o = is->nodes[victim].queue[--is->nodes[victim].qtail];
    }
    if (o >= 0) {
        is->taken[o] = true;
        n->handed++;
    }
    return o;
}

static void pump_fail(init_src *is)
{
    pthread_mutex_lock(&is->mu);
    if (!is->failed) {
        is->failed = true;
        err_save(&is->err);
    }
    pthread_cond_broadcast(&is->cv);
    pthread_mutex_unlock(&is->mu);
}

/* A connection to the shard's first replica that accepts one. */
static int connect_node(init_src *is, node *n, nclient **out)
{
    nclient_opts *o = xcalloc((size_t)n->shard->nreplicas + 1, sizeof *o);
    for (int i = 0; i < n->shard->nreplicas; i++) {
        const cluster_replica *r = &n->shard->replicas[i];
        o[i] = (nclient_opts){.host = r->host,
                              .port = r->port,
                              .user = r->user,
                              .password = r->password,
                              .connect_timeout_ms = is->connect_ms,
                              .compression = "lz4"};
    }
    int rc = nclient_connect_any(o, n->shard->nreplicas, out);
    free(o);
    return rc;
}

static int check_block(init_src *is, nclient *c, const nclient_packet *p)
{
    int want = is->ncols ? is->ncols : 1;
    if (p->header->n != want)
        return err_set(ERR_INCORRECT_DATA, "Server %s sent a block of %d columns for %d requested", nclient_peer(c),
                       p->header->n, want);
    for (int i = 0; i < is->ncols; i++) {
        const type *t = is->listing->sch->types[is->cols[i]];
        if (strcmp(p->header->types[i]->name, t->name) != 0)
            return err_set(ERR_TYPE_MISMATCH, "Server %s sent column %s as %s, expected %s", nclient_peer(c),
                           p->header->names[i], p->header->types[i]->name, t->name);
    }
    return 0;
}

static int pump_run(init_src *is, node *n)
{
    nclient *c;
    if (connect_node(is, n, &c))
        return -1;
    nclient_serve_read_tasks(c);
    pthread_mutex_lock(&n->cmu);
    n->c = c;
    pthread_mutex_unlock(&n->cmu);
    pthread_mutex_lock(&is->mu);
    bool stop = is->stop;
    pthread_mutex_unlock(&is->mu);
    if (stop)
        return 0;
    if (nclient_query(c, NULL, is->q->query_id, is->sql, is->settings, is->nsettings, NULL, 0,
                      NATIVE_STAGE_COMPLETE, NULL))
        return -1;
    for (;;) {
        nclient_packet p;
        if (nclient_receive(c, &p))
            return -1;
        int rc = 0;
        switch (p.type) {
        case NS_EXCEPTION: rc = nclient_raise(c, &p); break;
        case NS_END_OF_STREAM: nclient_packet_clear(&p); return 0;
        case NS_PROGRESS: query_add_read(is->q, p.progress.read_rows, p.progress.read_bytes); break;
        case NS_READ_TASK_REQUEST: {
            pthread_mutex_lock(&is->mu);
            int o = is->stop || is->failed ? -1 : take_object(is, n->index);
            pthread_mutex_unlock(&is->mu);
            rc = nclient_send_read_task_response(c, o >= 0 ? is->keys[o] : "");
            break;
        }
        case NS_DATA:
            if (p.b && p.b->rows && !(rc = check_block(is, c, &p))) {
                block *b = p.b;
                p.b = NULL;
                if (is->ncols == 0) {
                    block *e = block_new(0, b->rows);
                    block_free(b);
                    b = e;
                }
                qblock *qb = xcalloc(1, sizeof *qb);
                qb->b = b;
                pthread_mutex_lock(&is->mu);
                while (!is->stop && !is->failed && is->queued >= QUEUE_BLOCKS_PER_NODE * is->nnodes)
                    pthread_cond_wait(&is->cv, &is->mu);
                if (is->stop || is->failed) {
                    pthread_mutex_unlock(&is->mu);
                    block_free(qb->b);
                    free(qb);
                    break;
                }
                if (is->tail)
                    is->tail->next = qb;
                else
                    is->head = qb;
                is->tail = qb;
                is->queued++;
                pthread_cond_broadcast(&is->cv);
                pthread_mutex_unlock(&is->mu);
            }
            break;
        default: break;
        }
        nclient_packet_clear(&p);
        if (rc)
            return -1;
    }
}

static void *pump_main(void *arg)
{
    node *n = arg;
    init_src *is = n->is;
    mem_thread_init();
    if (pump_run(is, n)) {
        pthread_mutex_lock(&is->mu);
        bool stopping = is->stop;
        pthread_mutex_unlock(&is->mu);
        if (!stopping) {
            err_prefix("s3Cluster node %s: ", n->id);
            pump_fail(is);
        }
    }
    pthread_mutex_lock(&is->mu);
    is->running--;
    pthread_cond_broadcast(&is->cv);
    pthread_mutex_unlock(&is->mu);
    return NULL;
}

static void put_ident(buf *b, const char *name)
{
    buf_putc(b, '`');
    for (const char *p = name; *p; p++) {
        if (*p == '`' || *p == '\\')
            buf_putc(b, '\\');
        buf_putc(b, *p);
    }
    buf_putc(b, '`');
}

static void put_quoted(buf *b, const char *s) { ast_format_quoted(b, s, strlen(s)); }

/* What the nodes run for a SELECT: the columns read, from the task-driven s3Cluster(). */
static char *select_sql(init_src *is, const int *cols, int ncols)
{
    buf sql = {0};
    buf_puts(&sql, "SELECT ");
    if (ncols == 0)
        buf_puts(&sql, "1");
    for (int i = 0; i < ncols; i++) {
        if (i)
            buf_puts(&sql, ", ");
        put_ident(&sql, is->listing->sch->names[cols[i]]);
    }
    buf_puts(&sql, " FROM s3Cluster(");
    put_quoted(&sql, is->cluster_name);
    column *a[8];
    int n = full_args(&is->args, NULL, NULL, is->structure, NULL, a);
    for (int i = 0; i < n; i++) {
        size_t len;
        const char *s = col_str(a[i], 0, &len);
        buf_puts(&sql, ", ");
        ast_format_quoted(&sql, s, len);
    }
    free_cols(a, n);
    buf_putc(&sql, ')');
    char *text = xstrdup(buf_cstr(&sql));
    buf_free(&sql);
    return text;
}

/* Starts the pumps, once, with the columns of the first open (every task of a query reads
 * the same columns). Caller holds is->mu. */
static void start_pumps(init_src *is, const int *cols, int ncols)
{
    is->pumps_started = true;
    is->ncols = ncols;
    is->cols = read_cols_copy(cols, ncols);
    if (!is->sql)
        is->sql = select_sql(is, cols, ncols);
    for (int k = 0; k < is->nnodes; k++) {
        is->running++;
        if (pthread_create(&is->nodes[k].thread, NULL, pump_main, &is->nodes[k]) != 0) {
            is->running--;
            if (!is->failed) {
                is->failed = true;
                err_set(ERR_CANNOT_SCHEDULE_TASK, "s3Cluster: cannot start a thread for node %s", is->nodes[k].id);
                err_save(&is->err);
            }
        } else {
            is->nodes[k].started = true;
        }
    }
}

typedef struct init_it {
    init_src *is;
} init_it;

static int in_open(source *s, int task, const int *cols, int ncols, query_ctx *q, void **itp)
{
    (void)task;
    (void)q;
    init_src *is = s->impl;
    pthread_mutex_lock(&is->mu);
    if (!is->pumps_started)
        start_pumps(is, cols, ncols);
    pthread_mutex_unlock(&is->mu);
    init_it *it = xcalloc(1, sizeof *it);
    it->is = is;
    *itp = it;
    return 0;
}

static int in_next(void *itp, block **out)
{
    init_src *is = ((init_it *)itp)->is;
    *out = NULL;
    pthread_mutex_lock(&is->mu);
    for (;;) {
        if (is->failed) {
            pthread_mutex_unlock(&is->mu);
            return err_restore(&is->err);
        }
        if (atomic_load(&is->q->cancelled)) {
            pthread_mutex_unlock(&is->mu);
            return query_check(is->q);
        }
        if (is->head) {
            qblock *qb = is->head;
            is->head = qb->next;
            if (!is->head)
                is->tail = NULL;
            is->queued--;
            pthread_cond_broadcast(&is->cv);
            pthread_mutex_unlock(&is->mu);
            *out = qb->b;
            free(qb);
            return 0;
        }
        if (is->running == 0) {
            pthread_mutex_unlock(&is->mu);
            return 0;
        }
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        ts.tv_nsec += 50 * 1000 * 1000;
        if (ts.tv_nsec >= 1000000000L) {
            ts.tv_sec++;
            ts.tv_nsec -= 1000000000L;
        }
        pthread_cond_timedwait(&is->cv, &is->mu, &ts);
    }
}

static void in_close(void *itp) { free(itp); }

static void in_set_filter(source *s, const src_filter *f, int n, query_ctx *q)
{
    /* _path / _file filters drop objects before the handout */
    init_src *is = s->impl;
    if (is->listing->set_filter)
        is->listing->set_filter(is->listing, f, n, q);
}

static void in_destroy(source *s)
{
    init_src *is = s->impl;
    pthread_mutex_lock(&is->mu);
    is->stop = true;
    pthread_cond_broadcast(&is->cv);
    pthread_mutex_unlock(&is->mu);
    for (int k = 0; k < is->nnodes; k++) {
        node *n = &is->nodes[k];
        if (!n->started)
            continue;
        /* A pump still receiving: Cancel makes its node end the query (EndOfStream). */
        pthread_mutex_lock(&n->cmu);
        if (n->c)
            nclient_cancel(n->c);
        pthread_mutex_unlock(&n->cmu);
        pthread_join(n->thread, NULL);
    }
    for (int k = 0; k < is->nnodes; k++) {
        nclient_close(is->nodes[k].c);
        pthread_mutex_destroy(&is->nodes[k].cmu);
        free(is->nodes[k].id);
        free(is->nodes[k].queue);
    }
    free(is->nodes);
    while (is->head) {
        qblock *qb = is->head;
        is->head = qb->next;
        block_free(qb->b);
        free(qb);
    }
    for (int i = 0; i < is->nsettings; i++) {
        free(is->settings[i].name);
        free(is->settings[i].value);
    }
    free(is->settings);
    free(is->taken);
    free(is->cols);
    free(is->sql);
    free(is->structure);
    free(is->cluster_name);
    args_free(&is->args);
    source_free(is->listing);
    cluster_set_put(is->cs);
    pthread_mutex_destroy(&is->mu);
    pthread_cond_destroy(&is->cv);
    free(is);
}

static int in_objects(source *s, int *n, char *const **names, char *const **versions)
{
    init_src *is = s->impl;
    return is->listing->objects(is->listing, n, names, versions);
}

static void in_keep_objects(source *s, const uint8_t *keep)
{
    init_src *is = s->impl;
    is->listing->keep_objects(is->listing, keep);
}

/* The handout is planned at the first open, after set_filter / keep_objects pruned the
 * listing; plan lazily. */
static int in_open_planned(source *s, int task, const int *cols, int ncols, query_ctx *q, void **itp)
{
    init_src *is = s->impl;
    pthread_mutex_lock(&is->mu);
    if (!is->taken) {
        char *const *versions;
        is->listing->objects(is->listing, &is->nobj, &is->keys, &versions);
        is->taken = xcalloc((size_t)is->nobj + 1, sizeof(bool));
        plan_handout(is);
    }
    pthread_mutex_unlock(&is->mu);
    return in_open(s, task, cols, ncols, q, itp);
}

static void changed_settings(query_ctx *q, native_kv **out, int *n)
{
    *out = NULL;
    *n = 0;
    for (int k = 0; k < q->st->nset; k++) {
        *out = xrealloc(*out, sizeof **out * (size_t)(*n + 1));
        native_kv *kv = &(*out)[(*n)++];
        kv->name = xstrdup(settings_def_at(q->st->set[k].index)->name);
        kv->value = xstrdup(q->st->set[k].text);
        kv->flags = 0;
    }
}

static int initiator_source(const char *cluster, column *const *args, int nargs, query_ctx *q, source **out)
{
    init_src *is = xcalloc(1, sizeof *is);
    pthread_mutex_init(&is->mu, NULL);
    pthread_cond_init(&is->cv, NULL);
    is->q = q;
    is->cs = cluster_set_get();
    source *s = xcalloc(1, sizeof *s);
    s->impl = is;
    s->destroy = in_destroy;
    int rc = 0;
    if (!(is->c = cluster_find(is->cs, cluster)))
        rc = -1;
    if (!rc && is->c->secret)
        rc = err_set(ERR_NOT_IMPLEMENTED, "Cluster '%s' has an inter-server <secret>, which shale does not implement",
                     cluster);
    for (int k = 0; !rc && k < is->c->nshards; k++)
        for (int r = 0; r < is->c->shards[k].nreplicas; r++)
            if (is->c->shards[k].replicas[r].secure)
                rc = err_set(ERR_NOT_IMPLEMENTED, "Cluster '%s' has a <secure> replica: shale has no TLS on the "
                                                  "native protocol", cluster);
    if (!rc)
        rc = args_read(args, nargs, &is->args);
    if (!rc)
        rc = tablefunc_s3(args, nargs, q, &is->listing);
    if (rc) {
        source_free(s);
        return -1;
    }
    if (!is->listing->objects) {
        source_free(s);
        return err_set(ERR_LOGICAL_ERROR, "s3Cluster: s3() gave no object list");
    }
    is->structure = structure_of(is->listing);
    is->cluster_name = xstrdup(cluster);
    int64_t ms = settings_int(q->st, "connect_timeout_with_failover_ms");
    is->connect_ms = ms > 0 && ms < 3600000 ? (int)ms : 1000;
    changed_settings(q, &is->settings, &is->nsettings);
    is->nnodes = is->c->nshards;
    is->nodes = xcalloc((size_t)is->nnodes + 1, sizeof *is->nodes);
    for (int k = 0; k < is->nnodes; k++) {
        node *n = &is->nodes[k];
        n->is = is;
        n->index = k;
        n->shard = &is->c->shards[k];
        buf id = {0};
        buf_printf(&id, "%s:%d", n->shard->replicas[0].host, n->shard->replicas[0].port);
        n->id = xstrdup(buf_cstr(&id));
        buf_free(&id);
        pthread_mutex_init(&n->cmu, NULL);
    }
    s->sch = schema_clone(is->listing->sch);
    s->nvisible = is->listing->nvisible;
    s->ntasks = is->nnodes;
    s->open = in_open_planned;
    s->next = in_next;
    s->close = in_close;
    s->set_filter = in_set_filter;
    s->objects = in_objects;
    s->keep_objects = in_keep_objects;
    *out = s;
    return 0;
}

int tablefunc_s3cluster(const char *cluster, column *const *args, int nargs, query_ctx *q, source **out)
{
    *out = NULL;
    if (q->read_task)
        return worker_source(args, nargs, q, out);
    return initiator_source(cluster, args, nargs, q, out);
}

/* ---- parallel_distributed_insert_select: the nodes insert themselves ---- */

int tablefunc_s3cluster_call_args(source *s, char ***out, int *n)
{
    *out = NULL;
    *n = 0;
    if (s->destroy != in_destroy)
        return err_set(ERR_LOGICAL_ERROR, "s3Cluster: not an initiator's source");
    init_src *is = s->impl;
    column *a[8];
    int na = full_args(&is->args, NULL, NULL, is->structure, NULL, a);
    char **v = xcalloc((size_t)na + 2, sizeof *v);
    v[0] = xstrdup(is->cluster_name);
    for (int i = 0; i < na; i++) {
        size_t len;
        const char *str = col_str(a[i], 0, &len);
        v[i + 1] = xstrndup(str, len);
    }
    free_cols(a, na);
    *out = v;
    *n = na + 1;
    return 0;
}

int tablefunc_s3cluster_run(source *s, const char *sql, query_ctx *q)
{
    (void)q;
    if (s->destroy != in_destroy)
        return err_set(ERR_LOGICAL_ERROR, "s3Cluster: not an initiator's source");
    init_src *is = s->impl;
    pthread_mutex_lock(&is->mu);
    if (is->pumps_started) {
        pthread_mutex_unlock(&is->mu);
        return err_set(ERR_LOGICAL_ERROR, "s3Cluster: the nodes were already asked");
    }
    is->sql = xstrdup(sql);
    pthread_mutex_unlock(&is->mu);
    void *it;
    if (in_open_planned(s, 0, NULL, 0, is->q, &it))
        return -1;
    int rc;
    for (;;) {
        block *b = NULL;
        if ((rc = in_next(it, &b)) || !b)
            break;
        block_free(b); /* an INSERT sends no rows; check_block refused any that came */
    }
    in_close(it);
    return rc;
}
