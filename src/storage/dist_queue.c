/* The background INSERT queue of a Distributed table (storage/dist_queue.h). */
#include "storage/dist_queue.h"

#include "base/buf.h"
#include "base/err.h"
#include "base/mem.h"
#include "base/rand.h"
#include "column/datetime.h"
#include "exec/settings.h"
#include "format/native_block.h"
#include "format/native_proto.h"
#include "io/stream.h"
#include "storage/cluster.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define QUEUE_MAGIC "shale-distributed-queue-1"
/* the blocks' layout: the native protocol's at this revision (BlockInfo, serialization kinds) */
#define QUEUE_REVISION NATIVE_REVISION_WITH_CUSTOM_SERIALIZATION

/* A directory's errors, for system.distribution_queue. */
typedef struct dir_status {
    struct dir_status *next;
    char *name;
    uint64_t error_count;
    char *last_exception;
    time_t last_exception_time;
} dir_status;

struct dist_queue {
    char *dir, *db, *name, *cluster, *target, *columns;
    pthread_mutex_t mu;          /* the fields below */
    pthread_cond_t cv;           /* wakes the sender */
    pthread_mutex_t send_mu;     /* one sender at a time (the thread, FLUSH) */
    pthread_t thread;
    bool started, stop, blocked, pending;
    _Atomic uint64_t next_file;  /* the next file's number */
    dir_status *status;          /* per directory that has failed */
    int64_t sleep_ms, max_sleep_ms;
    struct dist_queue *next;     /* the registry */
};

static dist_queue *registry;
static pthread_mutex_t registry_mu = PTHREAD_MUTEX_INITIALIZER;

/* ---- files ---- */

static int fsync_dir(const char *path)
{
    int fd = open(path, O_RDONLY | O_DIRECTORY);
    if (fd < 0)
        return err_set(ERR_CANNOT_OPEN_FILE, "Cannot open directory %s: %s", path, strerror(errno));
    int rc = fsync(fd) ? err_set(ERR_CANNOT_FSYNC, "Cannot fsync directory %s: %s", path, strerror(errno)) : 0;
    close(fd);
    return rc;
}

static int make_dir(const char *path)
{
    if (mkdir(path, 0755) && errno != EEXIST)
        return err_set(ERR_CANNOT_CREATE_DIRECTORY, "Cannot create directory %s: %s", path, strerror(errno));
    return 0;
}

/* The number of a queued file's name ("<digits>.bin"), or 0. */
static uint64_t file_number(const char *name)
{
    char *end;
    if (name[0] < '0' || name[0] > '9')
        return 0;
    unsigned long long n = strtoull(name, &end, 10);
    return strcmp(end, ".bin") == 0 ? n : 0;
}

static bool is_queue_dir(const char *name) { return strncmp(name, "shard", 5) == 0; }

typedef struct names {
    int n;
    char **s;
} names;

static void names_free(names *v)
{
    for (int i = 0; i < v->n; i++)
        free(v->s[i]);
    free(v->s);
    memset(v, 0, sizeof *v);
}

static int cmp_number(const void *a, const void *b)
{
    uint64_t x = file_number(*(char *const *)a), y = file_number(*(char *const *)b);
    return x < y ? -1 : x > y;
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* The entries of dir: queue directories (dirs) or queued files in number order. */
static void list_dir(const char *dir, bool dirs, names *out)
{
    memset(out, 0, sizeof *out);
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (dirs ? !is_queue_dir(e->d_name) : !file_number(e->d_name))
            continue;
        out->s = xrealloc(out->s, sizeof(char *) * (size_t)(out->n + 1));
        out->s[out->n++] = xstrdup(e->d_name);
    }
    closedir(d);
    if (out->n)
        qsort(out->s, (size_t)out->n, sizeof(char *), dirs ? cmp_str : cmp_number);
}

static uint64_t file_size(const char *path)
{
    struct stat st;
    return stat(path, &st) ? 0 : (uint64_t)st.st_size;
}

/* ---- the sink: one file per destination and INSERT ---- */

typedef struct queue_sink {
    table_sink base;
    dist_queue *dq;
    char *dir, *tmp, *final;     /* the directory, tmp/<n>.bin, <n>.bin */
    int fd;                      /* -1 until the first rows */
    buf head;                    /* the file's header, written with the first rows */
    schema *sch;
    pthread_mutex_t mu;
} queue_sink;

static void qsink_free(queue_sink *s, bool remove_tmp)
{
    if (s->fd >= 0)
        close(s->fd);
    if (remove_tmp && s->fd >= 0)
        unlink(s->tmp);
    free(s->dir);
    free(s->tmp);
    free(s->final);
    buf_free(&s->head);
    schema_free(s->sch);
    pthread_mutex_destroy(&s->mu);
    free(s);
}

static int write_all(int fd, const unsigned char *p, size_t n, const char *path)
{
    while (n) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return err_set(ERR_CANNOT_WRITE_TO_FILE_DESCRIPTOR, "Cannot write to %s: %s", path,
                           w < 0 ? strerror(errno) : "no progress");
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

static int qsink_write(block_sink *bs, block *b)
{
    queue_sink *s = (queue_sink *)bs;
    int rc = 0;
    pthread_mutex_lock(&s->mu);
    if (b->rows && s->fd < 0) {
        char tmpdir[4096];
        snprintf(tmpdir, sizeof tmpdir, "%stmp", s->dir);
        rc = make_dir(s->dq->dir) || make_dir(s->dir) || make_dir(tmpdir) ? -1 : 0;
        if (!rc && (s->fd = open(s->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644)) < 0)
            rc = err_set(ERR_CANNOT_OPEN_FILE, "Cannot create %s: %s", s->tmp, strerror(errno));
        if (!rc)
            rc = write_all(s->fd, s->head.p, s->head.len, s->tmp);
    }
    if (!rc && b->rows) {
        block *m = block_new(b->ncols, b->rows);
        for (int i = 0; i < b->ncols; i++)
            m->cols[i] = b->cols[i]->is_const ? col_materialize(col_ref(b->cols[i])) : col_ref(b->cols[i]);
        buf out = {0};
        native_block_write(&out, s->sch, m, QUEUE_REVISION);
        rc = write_all(s->fd, out.p, out.len, s->tmp);
        buf_free(&out);
        block_free(m);
    }
    pthread_mutex_unlock(&s->mu);
    block_free(b);
    return rc;
}

static void wake(dist_queue *dq)
{
    pthread_mutex_lock(&dq->mu);
    dq->pending = true;
    pthread_cond_broadcast(&dq->cv);
    pthread_mutex_unlock(&dq->mu);
}

static void start_sender(dist_queue *dq);

/* Durable before the INSERT is acknowledged: the file's data, its name, the directory. */
static int qsink_finish(table_sink *ts)
{
    queue_sink *s = (queue_sink *)ts;
    int rc = 0;
    if (s->fd >= 0) {
        if (fsync(s->fd))
            rc = err_set(ERR_CANNOT_FSYNC, "Cannot fsync %s: %s", s->tmp, strerror(errno));
        close(s->fd);
        s->fd = -1;
        if (!rc && rename(s->tmp, s->final))
            rc = err_set(ERR_CANNOT_OPEN_FILE, "Cannot rename %s to %s: %s", s->tmp, s->final, strerror(errno));
        if (!rc)
            rc = fsync_dir(s->dir);
        if (rc)
            unlink(s->tmp);
        else {
            start_sender(s->dq);
            wake(s->dq);
        }
    }
    qsink_free(s, false);
    return rc;
}

static void qsink_abort(table_sink *ts) { qsink_free((queue_sink *)ts, true); }

int dist_queue_sink(dist_queue *dq, const char *dir_name, const schema *sch, query_ctx *q, table_sink **out)
{
    *out = NULL;
    queue_sink *s = xcalloc(1, sizeof *s);
    pthread_mutex_init(&s->mu, NULL);
    s->dq = dq;
    s->fd = -1;
    s->sch = schema_clone(sch);
    uint64_t n = atomic_fetch_add(&dq->next_file, 1);
    buf p = {0};
    buf_printf(&p, "%s%s/", dq->dir, dir_name);
    s->dir = xstrdup(buf_cstr(&p));
    p.len = 0;
    buf_printf(&p, "%stmp/%" PRIu64 ".bin", s->dir, n);
    s->tmp = xstrdup(buf_cstr(&p));
    p.len = 0;
    buf_printf(&p, "%s%" PRIu64 ".bin", s->dir, n);
    s->final = xstrdup(buf_cstr(&p));
    buf_free(&p);
    /* the header: the statement, the user, the block id, the changed settings */
    native_put_string(&s->head, QUEUE_MAGIC);
    native_put_string(&s->head, dq->target);
    native_put_string(&s->head, dq->columns);
    native_put_string(&s->head, q->env.user ? q->env.user : "");
    const char *token = settings_str(q->st, "insert_deduplication_token");
    buf id = {0};
    buf_printf(&id, "%s_%s", token && token[0] ? token : q->query_id, dir_name);
    native_put_string(&s->head, buf_cstr(&id));
    buf_free(&id);
    int nset = 0;
    for (int k = 0; k < q->st->nset; k++)
        nset += strcmp(settings_def_at(q->st->set[k].index)->name, "insert_deduplication_token") != 0;
    native_put_varuint(&s->head, (uint64_t)nset);
    for (int k = 0; k < q->st->nset; k++) {
        const char *name = settings_def_at(q->st->set[k].index)->name;
        if (strcmp(name, "insert_deduplication_token") == 0)
            continue;
        native_put_string(&s->head, name);
        native_put_string(&s->head, q->st->set[k].text);
    }
    pthread_mutex_lock(&dq->mu);
    dq->sleep_ms = settings_int(q->st, "distributed_background_insert_sleep_time_ms");
    dq->max_sleep_ms = settings_int(q->st, "distributed_background_insert_max_sleep_time_ms");
    pthread_mutex_unlock(&dq->mu);
    s->base.base.write = qsink_write;
    s->base.finish = qsink_finish;
    s->base.abort = qsink_abort;
    *out = &s->base;
    return 0;
}

/* ---- sending ---- */

typedef struct file_head {
    char *target, *columns, *user, *block_id;
    int nset;
    char **names, **values;
} file_head;

static void head_free(file_head *h)
{
    free(h->target);
    free(h->columns);
    free(h->user);
    free(h->block_id);
    for (int i = 0; i < h->nset; i++) {
        free(h->names[i]);
        free(h->values[i]);
    }
    free(h->names);
    free(h->values);
    memset(h, 0, sizeof *h);
}

static int read_head(rbuf *in, const char *path, file_head *h)
{
    char *magic = NULL;
    uint64_t n = 0;
    int rc = native_read_string(in, "the queue file's magic", &magic);
    if (!rc && strcmp(magic, QUEUE_MAGIC) != 0)
        rc = err_set(ERR_INCORRECT_DATA, "%s is not a queue file of a shale Distributed table", path);
    free(magic);
    if (!rc)
        rc = native_read_string(in, "the shards' table", &h->target);
    if (!rc)
        rc = native_read_string(in, "the column list", &h->columns);
    if (!rc)
        rc = native_read_string(in, "the initial user", &h->user);
    if (!rc)
        rc = native_read_string(in, "the block id", &h->block_id);
    if (!rc)
        rc = native_read_varuint(in, &n);
    if (!rc && n > 10000)
        rc = err_set(ERR_INCORRECT_DATA, "%s: %" PRIu64 " settings", path, n);
    for (uint64_t i = 0; !rc && i < n; i++) {
        h->names = xrealloc(h->names, sizeof(char *) * (size_t)(h->nset + 1));
        h->values = xrealloc(h->values, sizeof(char *) * (size_t)(h->nset + 1));
        h->names[h->nset] = h->values[h->nset] = NULL;
        h->nset++;
        rc = native_read_string(in, "a setting's name", &h->names[h->nset - 1]);
        if (!rc)
            rc = native_read_string(in, "a setting's value", &h->values[h->nset - 1]);
    }
    return rc ? err_prefix("Queue file %s: ", path) : 0;
}

static void put_address(buf *b, const cluster_replica *r)
{
    bool v6 = strchr(r->host, ':') != NULL;
    buf_printf(b, "%s%s%s:%d", v6 ? "[" : "", r->host, v6 ? "]" : "", r->port);
}

/* Where the directory's files go: remote()'s addresses of its replica (or of every replica
 * of its shard, for shard<N>_all_replicas), the user, password and secret. */
typedef struct route {
    char *addresses, *user, *password, *cluster, *secret;
} route;

static void route_free(route *r)
{
    free(r->addresses);
    free(r->user);
    free(r->cluster);
    if (r->password)
        memset(r->password, 0, strlen(r->password));
    free(r->password);
    if (r->secret)
        memset(r->secret, 0, strlen(r->secret));
    free(r->secret);
    memset(r, 0, sizeof *r);
}

static int find_route(const dist_queue *dq, const char *dir_name, route *out)
{
    memset(out, 0, sizeof *out);
    int shard = 0, replica = 0, used = 0;
    bool all = false;
    if (sscanf(dir_name, "shard%d_replica%d%n", &shard, &replica, &used) == 2 && !dir_name[used])
        all = false;
    else if (sscanf(dir_name, "shard%d_all_replicas%n", &shard, &used) == 1 && !dir_name[used])
        all = true;
    else
        return err_set(ERR_INCORRECT_DATA, "Distributed table %s.%s: the queue directory %s is not shard<N>_replica<M> "
                       "nor shard<N>_all_replicas", dq->db, dq->name, dir_name);
    cluster_set *cs = cluster_set_get();
    char *cname = NULL;
    const cluster_def *c = NULL;
    int rc = cluster_expand_macros(cs, dq->cluster, &cname);
    if (!rc && !(c = cluster_find(cs, cname)))
        rc = -1;
    if (!rc && (shard < 1 || shard > c->nshards || (!all && (replica < 1 || replica > c->shards[shard - 1].nreplicas))))
        rc = err_set(ERR_BAD_ARGUMENTS, "Distributed table %s.%s: the queue directory %s names a %s that cluster "
                     "'%s' no longer has", dq->db, dq->name, dir_name, shard < 1 || shard > c->nshards ? "shard" : "replica",
                     cname);
    if (!rc) {
        const cluster_shard *sh = &c->shards[shard - 1];
        buf a = {0};
        for (int r = all ? 0 : replica - 1; r < (all ? sh->nreplicas : replica); r++) {
            if (a.len)
                buf_putc(&a, '|');
            put_address(&a, &sh->replicas[r]);
        }
        const cluster_replica *first = &sh->replicas[all ? 0 : replica - 1];
        out->addresses = xstrdup(buf_cstr(&a));
        buf_free(&a);
        out->user = xstrdup(first->user);
        out->password = xstrdup(first->password);
        out->cluster = xstrdup(c->name);
        out->secret = c->secret ? xstrdup(c->secret) : NULL;
    }
    free(cname);
    cluster_set_put(cs);
    return rc;
}

/* The query context of one file's INSERT: the INSERT's settings, its block id as the
 * deduplication token, its user as the initial user. */
static query_ctx *send_ctx(const file_head *h)
{
    query_ctx *q = xcalloc(1, sizeof *q);
    q->st = settings_new();
    for (int i = 0; i < h->nset; i++)
        if (settings_set(q->st, h->names[i], h->values[i]))
            err_clear(); /* a setting this server no longer knows: the shard decides */
    settings_set(q->st, "insert_deduplication_token", h->block_id);
    q->env.timezone = tz_default_name();
    q->env.user = h->user;
    q->max_threads = 1;
    mem_tracker_init(&q->mem, 0, &mem_global);
    rand_uuid_text(q->query_id);
    q->start_time = clock_monotonic();
    return q;
}

/* Whether a block follows (false at the end of the file; a read error sets *rc). */
static bool more_blocks(rbuf *in, const char *path, int *rc)
{
    long got = rbuf_need(in, 1);
    if (got < 0)
        *rc = err_prefix("Cannot read queue file %s: ", path);
    return got > 0;
}

/* Sends one file; *broken when the file itself is bad (it can never be sent). */
static int send_file(dist_queue *dq, const char *dir_name, const char *path, bool *broken)
{
    *broken = false;
    instream *is = NULL;
    if (instream_open_file(path, &is))
        return -1;
    rbuf *in = rbuf_new(is, 1 << 16);
    file_head h = {0};
    route r = {0};
    query_ctx *q = NULL;
    table_sink *sink = NULL;
    schema *hdr = NULL;
    block *b = NULL;
    int rc = read_head(in, path, &h);
    if (!rc && more_blocks(in, path, &rc) && (rc = native_block_read(in, QUEUE_REVISION, &hdr, &b)))
        err_prefix("Queue file %s: ", path);
    if (rc || !b) {
        *broken = rc != 0;
        goto done; /* a file with no block has nothing to send */
    }
    if ((rc = find_route(dq, dir_name, &r)))
        goto done;
    q = send_ctx(&h);
    mem_tracker *prev = mem_tracker_attach(&q->mem);
    /* the table and columns are the file's (the Distributed table's at the INSERT) */
    rc = tablefunc_remote_sink(r.addresses, h.target, r.user, r.password, false, r.cluster, r.secret, h.columns, hdr,
                               q, &sink);
    while (!rc && b) {
        rc = sink->base.write(&sink->base, b);
        b = NULL;
        schema_free(hdr);
        hdr = NULL;
        if (!rc && more_blocks(in, path, &rc) && native_block_read(in, QUEUE_REVISION, &hdr, &b)) {
            err_prefix("Queue file %s: ", path);
            *broken = true;
            rc = -1;
        }
    }
    if (sink) {
        if (rc)
            sink->abort(sink);
        else
            rc = sink->finish(sink);
    }
    if (rc && !*broken)
        err_prefix("Distributed table %s.%s, %s (%s): ", dq->db, dq->name, dir_name, r.addresses);
    mem_tracker_attach(prev);
done:
    if (b)
        block_free(b);
    schema_free(hdr);
    head_free(&h);
    route_free(&r);
    if (q) {
        settings_free(q->st);
        free(q);
    }
    rbuf_free(in);
    return rc;
}

/* The directory's status (created empty). Caller holds mu. */
static dir_status *status_of(dist_queue *dq, const char *dir_name)
{
    dir_status *st = dq->status;
    while (st && strcmp(st->name, dir_name))
        st = st->next;
    if (!st) {
        st = xcalloc(1, sizeof *st);
        st->name = xstrdup(dir_name);
        st->last_exception = xstrdup("");
        st->next = dq->status;
        dq->status = st;
    }
    return st;
}

static void note_error(dist_queue *dq, const char *dir_name)
{
    pthread_mutex_lock(&dq->mu);
    dir_status *st = status_of(dq, dir_name);
    st->error_count++;
    free(st->last_exception);
    st->last_exception = xstrdup(err_msg());
    st->last_exception_time = time(NULL);
    pthread_mutex_unlock(&dq->mu);
}

/* One pass over every directory, oldest file first; a directory stops at its first
 * failure (its order is kept) and the others go on. stop_on_error: return at once.
 * Caller holds send_mu. 0 when nothing is left. */
static int send_pass(dist_queue *dq, bool stop_on_error)
{
    names dirs;
    list_dir(dq->dir, true, &dirs);
    int rc = 0;
    err_saved first = {0};
    for (int d = 0; d < dirs.n; d++) {
        char dpath[4096];
        snprintf(dpath, sizeof dpath, "%s%s/", dq->dir, dirs.s[d]);
        names files;
        list_dir(dpath, false, &files);
        for (int f = 0; f < files.n; f++) {
            char path[4200];
            snprintf(path, sizeof path, "%s%s", dpath, files.s[f]);
            bool broken;
            if (!send_file(dq, dirs.s[d], path, &broken)) {
                unlink(path);
                fsync_dir(dpath);
                err_clear();
                continue;
            }
            note_error(dq, dirs.s[d]);
            if (broken) {
                /* kept for the operator, never resent */
                char bdir[4200], bpath[4400];
                snprintf(bdir, sizeof bdir, "%sbroken", dpath);
                snprintf(bpath, sizeof bpath, "%s/%s", bdir, files.s[f]);
                fprintf(stderr, "Distributed table %s.%s: %s; the file is moved to broken/\n", dq->db, dq->name,
                        err_msg());
                if (make_dir(bdir) || rename(path, bpath))
                    err_clear();
                continue;
            }
            if (!rc)
                err_save(&first);
            rc = -1;
            break;
        }
        names_free(&files);
        if (rc && stop_on_error)
            break;
    }
    names_free(&dirs);
    return rc ? err_restore(&first) : 0;
}

static void *sender_main(void *arg)
{
    dist_queue *dq = arg;
    mem_thread_init();
    int failures = 0;
    pthread_mutex_lock(&dq->mu);
    while (!dq->stop) {
        if (dq->blocked || !dq->pending) {
            pthread_cond_wait(&dq->cv, &dq->mu);
            continue;
        }
        dq->pending = false;
        pthread_mutex_unlock(&dq->mu);
        pthread_mutex_lock(&dq->send_mu);
        int rc = send_pass(dq, false);
        pthread_mutex_unlock(&dq->send_mu);
        err_clear();
        pthread_mutex_lock(&dq->mu);
        if (!rc) {
            failures = 0;
            continue;
        }
        /* retry after the base sleep, doubled per failure in a row up to the maximum */
        dq->pending = true;
        int64_t ms = dq->sleep_ms > 0 ? dq->sleep_ms : 100;
        for (int i = 0; i < failures && ms < dq->max_sleep_ms; i++)
            ms *= 2;
        if (dq->max_sleep_ms > 0 && ms > dq->max_sleep_ms)
            ms = dq->max_sleep_ms;
        failures++;
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        ts.tv_sec += ms / 1000;
        ts.tv_nsec += (ms % 1000) * 1000000;
        if (ts.tv_nsec >= 1000000000) {
            ts.tv_sec++;
            ts.tv_nsec -= 1000000000;
        }
        pthread_cond_timedwait(&dq->cv, &dq->mu, &ts);
    }
    pthread_mutex_unlock(&dq->mu);
    return NULL;
}

static void start_sender(dist_queue *dq)
{
    pthread_mutex_lock(&dq->mu);
    if (!dq->started && !dq->stop) {
        int e = pthread_create(&dq->thread, NULL, sender_main, dq);
        dq->started = e == 0;
        if (e)
            fprintf(stderr, "Distributed table %s.%s: cannot start the sender thread: %s (files stay queued until "
                    "SYSTEM FLUSH DISTRIBUTED)\n", dq->db, dq->name, strerror(e));
    }
    pthread_mutex_unlock(&dq->mu);
}

/* ---- the queue ---- */

dist_queue *dist_queue_open(const char *dir, const char *db, const char *name, const char *cluster,
                            const char *target, const char *columns)
{
    dist_queue *dq = xcalloc(1, sizeof *dq);
    dq->dir = xstrdup(dir);
    dq->db = xstrdup(db);
    dq->name = xstrdup(name);
    dq->cluster = xstrdup(cluster);
    dq->target = xstrdup(target);
    dq->columns = xstrdup(columns);
    pthread_mutex_init(&dq->mu, NULL);
    pthread_mutex_init(&dq->send_mu, NULL);
    pthread_cond_init(&dq->cv, NULL);
    settings *st = settings_new();
    dq->sleep_ms = settings_int(st, "distributed_background_insert_sleep_time_ms");
    dq->max_sleep_ms = settings_int(st, "distributed_background_insert_max_sleep_time_ms");
    settings_free(st);
    /* recovery: tmp/ files were never acknowledged; numbering goes on past the highest */
    uint64_t max = 0;
    bool queued = false;
    names dirs;
    list_dir(dir, true, &dirs);
    for (int d = 0; d < dirs.n; d++) {
        char path[4096];
        snprintf(path, sizeof path, "%s%s/", dir, dirs.s[d]);
        for (int pass = 0; pass < 3; pass++) {
            char sub[4200];
            snprintf(sub, sizeof sub, "%s%s", path, pass == 0 ? "" : pass == 1 ? "tmp/" : "broken/");
            names files;
            list_dir(sub, false, &files);
            for (int f = 0; f < files.n; f++) {
                uint64_t n = file_number(files.s[f]);
                max = n > max ? n : max;
                if (pass == 1) {
                    char p[4400];
                    snprintf(p, sizeof p, "%s%s", sub, files.s[f]);
                    unlink(p);
                }
            }
            queued |= pass == 0 && files.n > 0;
            names_free(&files);
        }
    }
    names_free(&dirs);
    atomic_store(&dq->next_file, max + 1);
    pthread_mutex_lock(&registry_mu);
    dq->next = registry;
    registry = dq;
    pthread_mutex_unlock(&registry_mu);
    if (queued) {
        start_sender(dq);
        wake(dq);
    }
    return dq;
}

void dist_queue_close(dist_queue *dq)
{
    if (!dq)
        return;
    pthread_mutex_lock(&registry_mu);
    for (dist_queue **p = &registry; *p; p = &(*p)->next)
        if (*p == dq) {
            *p = dq->next;
            break;
        }
    pthread_mutex_unlock(&registry_mu);
    pthread_mutex_lock(&dq->mu);
    dq->stop = true;
    pthread_cond_broadcast(&dq->cv);
    bool started = dq->started;
    pthread_mutex_unlock(&dq->mu);
    if (started)
        pthread_join(dq->thread, NULL);
    pthread_mutex_destroy(&dq->mu);
    pthread_mutex_destroy(&dq->send_mu);
    pthread_cond_destroy(&dq->cv);
    free(dq->dir);
    free(dq->db);
    free(dq->name);
    free(dq->cluster);
    free(dq->target);
    free(dq->columns);
    while (dq->status) {
        dir_status *st = dq->status;
        dq->status = st->next;
        free(st->name);
        free(st->last_exception);
        free(st);
    }
    free(dq);
}

int dist_queue_flush(dist_queue *dq)
{
    pthread_mutex_lock(&dq->send_mu);
    int rc = send_pass(dq, true);
    pthread_mutex_unlock(&dq->send_mu);
    return rc;
}

void dist_queue_set_blocked(dist_queue *dq, bool blocked)
{
    pthread_mutex_lock(&registry_mu);
    for (dist_queue *p = registry; p; p = p->next) {
        if (dq && p != dq)
            continue;
        pthread_mutex_lock(&p->mu);
        p->blocked = blocked;
        pthread_cond_broadcast(&p->cv);
        pthread_mutex_unlock(&p->mu);
    }
    pthread_mutex_unlock(&registry_mu);
}

/* ---- system.distribution_queue ---- */

static void push_str(column *c, const char *s) { col_push_str(c, s, strlen(s)); }

static void push_u64(column *c, uint64_t v) { col_push_fixed(c, &v); }

static void dir_totals(const char *dir, uint64_t *files, uint64_t *bytes)
{
    names v;
    list_dir(dir, false, &v);
    *files = (uint64_t)v.n;
    *bytes = 0;
    for (int i = 0; i < v.n; i++) {
        char p[4400];
        snprintf(p, sizeof p, "%s%s", dir, v.s[i]);
        *bytes += file_size(p);
    }
    names_free(&v);
}

int dist_queue_system_table(query_ctx *q, source **out)
{
    (void)q;
    static const struct {
        const char *name, *type;
    } cols[] = {{"database", "String"},          {"table", "String"},
                {"data_path", "String"},         {"is_blocked", "UInt8"},
                {"error_count", "UInt64"},       {"data_files", "UInt64"},
                {"data_compressed_bytes", "UInt64"}, {"broken_data_files", "UInt64"},
                {"broken_data_compressed_bytes", "UInt64"}, {"last_exception", "String"},
                {"last_exception_time", "DateTime"}};
    int ncols = (int)(sizeof cols / sizeof cols[0]);
    schema *sch = schema_new(ncols);
    for (int i = 0; i < ncols; i++)
        schema_set(sch, i, cols[i].name, type_parse_cstr(cols[i].type));
    block *b = block_new_empty(sch);
    pthread_mutex_lock(&registry_mu);
    for (dist_queue *dq = registry; dq; dq = dq->next) {
        names dirs;
        list_dir(dq->dir, true, &dirs);
        for (int d = 0; d < dirs.n; d++) {
            char path[4096], broken[4200];
            snprintf(path, sizeof path, "%s%s/", dq->dir, dirs.s[d]);
            snprintf(broken, sizeof broken, "%sbroken/", path);
            uint64_t files, bytes, bfiles, bbytes;
            dir_totals(path, &files, &bytes);
            dir_totals(broken, &bfiles, &bbytes);
            pthread_mutex_lock(&dq->mu);
            push_str(b->cols[0], dq->db);
            push_str(b->cols[1], dq->name);
            push_str(b->cols[2], path);
            uint8_t blocked = dq->blocked;
            col_push_fixed(b->cols[3], &blocked);
            dir_status *st = status_of(dq, dirs.s[d]);
            push_u64(b->cols[4], st->error_count);
            push_u64(b->cols[5], files);
            push_u64(b->cols[6], bytes);
            push_u64(b->cols[7], bfiles);
            push_u64(b->cols[8], bbytes);
            push_str(b->cols[9], st->last_exception);
            uint32_t t = (uint32_t)st->last_exception_time;
            col_push_fixed(b->cols[10], &t);
            pthread_mutex_unlock(&dq->mu);
            b->rows++;
        }
        names_free(&dirs);
    }
    pthread_mutex_unlock(&registry_mu);
    block **bs = xcalloc(1, sizeof *bs);
    bs[0] = b;
    *out = source_from_blocks(sch, bs, 1);
    return 0;
}
