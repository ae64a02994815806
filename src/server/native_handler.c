/* ClickHouse's native TCP protocol on tcp_port: one connection, one thread, one session
 * (see native_proto.h for the packets).
 *
 * The conversation:
 *   1. Hello from the client → the user is authenticated as over HTTP (users.c), a session
 *      is made with the user's profile and database → our Hello → the client's addendum.
 *      The revision both sides use is min(client's, NATIVE_SERVER_REVISION).
 *   2. Then, until the client goes away or the server stops: Ping → Pong; TablesStatusRequest
 *      → TablesStatusResponse; Cancel between queries → nothing; Query → run_query.
 *   3. A query: the Query packet, then the client's external tables (Data packets up to an
 *      empty block; shale has no external tables, so only the empty block is accepted).
 *      The statement goes through interp_run with hooks:
 *        - a result goes out as blocks (open_blocks): first a Data packet with the header,
 *          then one per block, Totals for WITH TOTALS, Extremes for extremes = 1; then ProfileInfo, Progress, an empty
 *          Data packet and EndOfStream, as ClickHouse's server ends a SELECT;
 *        - an INSERT whose data comes from the client (no inline data) reads it as Native
 *          blocks (open_input): our Data packet with the insert's columns (and TableColumns
 *          before it) asks for the data, the client's Data packets follow until an empty one;
 *        - a failure is an Exception packet with shale's code and message.
 *      While a statement runs without reading from the client, a listener thread owns the
 *      socket's input: Cancel cancels the query (the reply is EndOfStream), Ping is
 *      answered, a closed connection cancels the query; every 100 ms it sends Progress.
 *   4. A malformed packet gets an Exception when the stream is still in step, and the
 *      connection is closed (the client cannot be trusted to be in step any more).
 *
 * Locking: out_mu serialises whole packets on the socket (the query's thread and the
 * listener both write). The input is read by one thread at a time: the connection's
 * thread, except while the listener runs (started and joined around interp_run). */
#include "format/native_proto.h"
#include "server/send_thread.h"
#include "server/server_int.h"

#include "base/arena.h"
#include "base/err.h"
#include "base/mem.h"
#include "column/datetime.h"
#include "format/native_block.h"
#include "interp/interp.h"
#include "parse/ast.h"
#include "sql/dist_split.h"
#include "storage/catalog.h"
#include "storage/cluster.h"
#include "codec/compress.h"
#include "storage/table.h"

#include <netinet/in.h>

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

enum {
    IDLE_TIMEOUT_S = 3600,        /* ClickHouse's idle_connection_timeout */
    PROGRESS_INTERVAL_MS = 100,   /* ClickHouse's interactive_delay */
};

typedef struct nconn nconn;

/* Where a result's blocks go: Data packets. */
typedef struct data_sink {
    block_sink base;
    nconn *c;
} data_sink;

struct nconn {
    server *srv;
    int fd;
    char peer[64];
    rbuf *in;
    int recv_timeout_ms;          /* for the next read */
    bool idle_wait;               /* waiting for a packet between queries (the server may stop) */
    pthread_mutex_t out_mu;
    _Atomic bool broken;          /* a write failed: nothing more can be sent */
    _Atomic bool desync;          /* the input is out of step: answer, then close */
    uint64_t rev;
    native_hello hello;
    bool has_nonce;               /* our Hello's inter-server nonce */
    uint64_t nonce;
    server_auth *auth;
    const user_def *user;
    session *sess;
    /* the running query */
    native_query nq;
    mt_codec *codec;
    schema *header;
    uint64_t blocks_sent;
    _Atomic(query_ctx *) running;
    _Atomic bool cancelled;       /* Cancel or a closed connection */
    bool reads_input;             /* the statement reads Data packets from the client */
    char insert_db[256];          /* its table ("" = the session's database; no table: INSERT INTO FUNCTION) */
    char insert_table[256];
    bool input_done;
    bool input_opened;
    pthread_t listener;
    _Atomic bool listen_stop;
    native_progress sent;         /* what Progress packets reported so far */
    double query_start;
    data_sink sink;
    buf wbuf, scratch;            /* a Data packet being written, its uncompressed block */
    send_thread *sender;          /* large packets' pieces go through it (made at the first) */
    buf zbuf;                     /* a frame compressed by the sender (or, drained, by the query) */
    /* s3Cluster's worker: one ReadTaskRequest at a time (task_req_mu); the listener puts
     * the answer in task_path and signals task_cv. */
    pthread_mutex_t task_req_mu, task_mu;
    pthread_cond_t task_cv;
    char *task_path;
    bool task_ready;
    err_saved task_err;
    bool task_failed;
};

/* ---- the socket ---- */

typedef struct sock_stream {
    instream base;
    nconn *c;
} sock_stream;

static int sock_read(instream *s, void *dst, size_t cap, size_t *got)
{
    nconn *c = ((sock_stream *)s)->c;
    *got = 0;
    int waited = 0;
    for (;;) {
        struct pollfd pfd = {.fd = c->fd, .events = POLLIN};
        int n = poll(&pfd, 1, 200);
        if (n < 0 && errno != EINTR)
            return err_set(ERR_NETWORK_ERROR, "poll on the connection from %s failed: %s", c->peer, strerror(errno));
        if (n > 0)
            break;
        waited += 200;
        if (c->idle_wait && c->srv->stop) /* shutting down: an idle connection ends */
            return 0;
        if (waited >= c->recv_timeout_ms)
            return err_set(ERR_SOCKET_TIMEOUT, "Timeout exceeded while reading from the client %s (%d ms)", c->peer,
                           c->recv_timeout_ms);
    }
    ssize_t n;
    do
        n = recv(c->fd, dst, cap, 0);
    while (n < 0 && errno == EINTR);
    if (n < 0)
        return err_set(ERR_NETWORK_ERROR, "Cannot read from the client %s: %s", c->peer, strerror(errno));
    *got = (size_t)n;
    s->offset += (uint64_t)n;
    return 0;
}

static void sock_close(instream *s) { free(s); }

/* Sends a whole packet (or several); a failure marks the connection broken. */
static int send_bytes(nconn *c, const buf *b)
{
    if (atomic_load(&c->broken))
        return err_set(ERR_NETWORK_ERROR, "The connection to %s is closed", c->peer);
    size_t off = 0;
    /* send first, poll only when the socket's buffer is full: one system call per piece
     * while the client keeps up (a Native SELECT sends gigabytes in 1 MiB pieces). */
    bool wait = false;
    while (off < b->len) {
        if (wait) {
            struct pollfd pfd = {.fd = c->fd, .events = POLLOUT};
            int n = poll(&pfd, 1, c->srv->send_timeout_s * 1000);
            if (n == 0) {
                atomic_store(&c->broken, true);
                return err_set(ERR_SOCKET_TIMEOUT, "Timeout exceeded while writing to the client %s", c->peer);
            }
            if (n < 0 && errno == EINTR)
                continue;
        }
        ssize_t w = send(c->fd, b->p + off, b->len - off, MSG_NOSIGNAL | MSG_DONTWAIT);
        wait = w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK);
        if (w < 0 && (errno == EINTR || wait))
            continue;
        if (w <= 0) {
            atomic_store(&c->broken, true);
            return err_set(ERR_NETWORK_ERROR, "Cannot write to the client %s: %s", c->peer, strerror(errno));
        }
        off += (size_t)w;
    }
    return 0;
}

static int send_locked(nconn *c, const buf *b)
{
    pthread_mutex_lock(&c->out_mu);
    int rc = send_bytes(c, b);
    pthread_mutex_unlock(&c->out_mu);
    return rc;
}

static void send_exception(nconn *c, int code, const char *msg)
{
    buf b = {0};
    native_write_exception(&b, code ? code : ERR_LOGICAL_ERROR, msg);
    send_locked(c, &b);
    buf_free(&b);
}

static void send_simple(nconn *c, int packet)
{
    buf b = {0};
    buf_putc(&b, (char)packet);
    send_locked(c, &b);
    buf_free(&b);
}

/* ---- progress ---- */

static void progress_now(nconn *c, query_ctx *q, native_progress *p)
{
    memset(p, 0, sizeof *p);
    if (q) {
        p->read_rows = atomic_load(&q->read_rows);
        p->read_bytes = atomic_load(&q->read_bytes);
        p->total_rows = atomic_load(&q->total_rows_to_read);
    }
    p->elapsed_ns = (uint64_t)((clock_monotonic() - c->query_start) * 1e9);
}

/* A Progress packet with what changed since the last one (the client adds them up);
 * caller holds out_mu. */
static void send_progress_locked(nconn *c, query_ctx *q, uint64_t written_rows, uint64_t written_bytes)
{
    native_progress now, d;
    progress_now(c, q, &now);
    now.written_rows = written_rows;
    now.written_bytes = written_bytes;
    d.read_rows = now.read_rows - c->sent.read_rows;
    d.read_bytes = now.read_bytes - c->sent.read_bytes;
    d.total_rows = now.total_rows > c->sent.total_rows ? now.total_rows - c->sent.total_rows : 0;
    d.total_bytes = 0;
    d.written_rows = now.written_rows - c->sent.written_rows;
    d.written_bytes = now.written_bytes - c->sent.written_bytes;
    d.elapsed_ns = now.elapsed_ns - c->sent.elapsed_ns;
    if (now.total_rows < c->sent.total_rows)
        now.total_rows = c->sent.total_rows;
    c->sent = now;
    buf b = {0};
    native_write_progress(&b, c->rev, &d);
    send_bytes(c, &b);
    buf_free(&b);
}

/* ---- the listener: Cancel, Ping and a closed connection while a statement runs ---- */

/* `running` is read and changed under out_mu: the query is freed right after on_finished
 * clears it, so the listener may use it only while holding the lock. */
static void cancel_query(nconn *c)
{
    atomic_store(&c->cancelled, true);
    pthread_mutex_lock(&c->out_mu);
    query_ctx *q = atomic_load(&c->running);
    if (q)
        atomic_store(&q->cancelled, 1);
    pthread_mutex_unlock(&c->out_mu);
}

/* ReadTaskResponse (after its packet number): the cluster-processing protocol version
 * and the object's path, handed to the waiting read_task. */
static int read_task_response(nconn *c)
{
    uint64_t version;
    char *path = NULL;
    int rc = native_read_varuint(c->in, &version);
    if (!rc && (version < 1 || version > NATIVE_CLUSTER_PROTOCOL_VERSION))
        rc = err_set(ERR_UNKNOWN_PROTOCOL, "Supported protocol versions are in range [1, %d], got: %llu",
                     NATIVE_CLUSTER_PROTOCOL_VERSION, (unsigned long long)version);
    if (!rc)
        rc = native_read_string(c->in, "the object's path", &path);
    pthread_mutex_lock(&c->task_mu);
    free(c->task_path);
    c->task_path = path;
    c->task_failed = rc != 0;
    if (rc)
        err_save(&c->task_err);
    c->task_ready = true;
    pthread_cond_broadcast(&c->task_cv);
    pthread_mutex_unlock(&c->task_mu);
    return rc;
}

/* query_ctx.read_task: ReadTaskRequest, then wait for the listener to read the answer
 * (bounded by receive_timeout; a cancelled query or a closed connection ends the wait). */
static int read_task(void *ctx, char **path)
{
    nconn *c = ctx;
    *path = NULL;
    pthread_mutex_lock(&c->task_req_mu);
    pthread_mutex_lock(&c->task_mu);
    c->task_ready = false;
    pthread_mutex_unlock(&c->task_mu);
    send_simple(c, NS_READ_TASK_REQUEST);
    double deadline = clock_monotonic() + c->srv->receive_timeout_s;
    int rc = 0;
    pthread_mutex_lock(&c->task_mu);
    while (!c->task_ready && !rc) {
        query_ctx *q = atomic_load(&c->running);
        if (atomic_load(&c->broken) || atomic_load(&c->desync) || atomic_load(&c->cancelled) ||
            (q && atomic_load(&q->cancelled)))
            rc = err_set(ERR_QUERY_WAS_CANCELLED, "The initiator went away or cancelled the query while a worker "
                                                  "waited for its next object");
        else if (clock_monotonic() > deadline) {
            rc = err_set(ERR_SOCKET_TIMEOUT, "The initiator did not answer a ReadTaskRequest within %d s",
                         c->srv->receive_timeout_s);
            server_log("Warning", "Secondary query of %s: %s; the query ends", c->peer, err_msg());
        }
        else {
            struct timespec ts;
            clock_gettime(CLOCK_REALTIME, &ts);
            ts.tv_nsec += 50 * 1000 * 1000;
            if (ts.tv_nsec >= 1000000000L) {
                ts.tv_sec++;
                ts.tv_nsec -= 1000000000L;
            }
            pthread_cond_timedwait(&c->task_cv, &c->task_mu, &ts);
        }
    }
    if (!rc && c->task_failed)
        rc = err_restore(&c->task_err);
    if (!rc) {
        *path = c->task_path ? c->task_path : xstrdup("");
        c->task_path = NULL;
    }
    c->task_ready = false;
    pthread_mutex_unlock(&c->task_mu);
    pthread_mutex_unlock(&c->task_req_mu);
    return rc;
}

static void *listener_thread(void *p)
{
    nconn *c = p;
    mem_thread_init();
    double last_progress = clock_monotonic();
    while (!atomic_load(&c->listen_stop)) {
        bool have = c->in->pos < c->in->end;
        if (!have) {
            struct pollfd pfd = {.fd = c->fd, .events = POLLIN};
            have = poll(&pfd, 1, 20) > 0;
        }
        if (have && !atomic_load(&c->cancelled)) {
            uint64_t type;
            c->recv_timeout_ms = c->srv->receive_timeout_s * 1000;
            if (native_read_varuint(c->in, &type)) {
                /* Closed or unreadable: the query has no one to answer to. */
                atomic_store(&c->desync, true);
                cancel_query(c);
                if (c->nq.query_kind == 2 && c->nq.initial_query_id)
                    server_log("Warning", "Secondary query of %s (initial query %s): the initiator's connection "
                               "closed or broke; the query is cancelled",
                               c->peer, c->nq.initial_query_id);
                break;
            }
            if (type == NC_CANCEL) {
                cancel_query(c);
            } else if (type == NC_PING) {
                send_simple(c, NS_PONG);
            } else if (type == NC_READ_TASK_RESPONSE) {
                if (read_task_response(c)) {
                    send_exception(c, err_code(), err_msg());
                    atomic_store(&c->desync, true);
                    cancel_query(c);
                    break;
                }
            } else {
                err_set(type <= NC_READ_TASK_RESPONSE ? ERR_UNEXPECTED_PACKET_FROM_CLIENT : ERR_UNKNOWN_PACKET_FROM_CLIENT,
                        "Unexpected packet %llu from the client while a query runs", (unsigned long long)type);
                send_exception(c, err_code(), err_msg());
                atomic_store(&c->desync, true);
                cancel_query(c);
                break;
            }
        } else if (have) {
            /* Cancelled: what else the client sends is read only after the query ends. */
            struct timespec ts = {0, 20 * 1000 * 1000};
            nanosleep(&ts, NULL);
        }
        if (clock_monotonic() - last_progress >= PROGRESS_INTERVAL_MS / 1000.0) {
            last_progress = clock_monotonic();
            pthread_mutex_lock(&c->out_mu);
            query_ctx *q = atomic_load(&c->running);
            if (q && !atomic_load(&c->broken))
                send_progress_locked(c, q, c->sent.written_rows, c->sent.written_bytes);
            pthread_mutex_unlock(&c->out_mu);
        }
    }
    return NULL;
}

/* ---- hooks ---- */


enum { PIECE_BYTES, PIECE_FRAME }; /* what send_thread_fn gets: bytes as they go, or a frame to compress */

static int send_kind(nconn *c, const buf *b, int kind)
{
    if (kind == PIECE_BYTES)
        return send_bytes(c, b);
    c->zbuf.len = 0;
    buf_reserve(&c->zbuf, b->len + b->len / 128 + 64);
    mt_compress_block(c->codec, b->p, b->len, &c->zbuf);
    return send_bytes(c, &c->zbuf);
}

static int send_thread_fn(void *ctx, const buf *b, int kind) { return send_kind(ctx, b, kind); }

/* A piece of at least SEND_THREAD_MIN bytes goes through the connection's sending thread,
 * so the query writes the next piece meanwhile (and a frame is compressed there); a small
 * one (a small result's whole packet) is sent here once what was put before has gone,
 * not worth a thread switch. */
enum { SEND_THREAD_MIN = 64 << 10 };

static int send_via_thread(nconn *c, buf *b, int kind)
{
    if (!c->sender && b->len >= SEND_THREAD_MIN)
        c->sender = send_thread_new(send_thread_fn, c);
    if (c->sender && b->len >= SEND_THREAD_MIN)
        return send_thread_put(c->sender, b, kind);
    if (c->sender && send_thread_drain(c->sender))
        return -1;
    return send_kind(c, b, kind);
}

static int send_piece(void *ctx, buf *b) { return send_via_thread(ctx, b, PIECE_BYTES); }
static int send_frame(void *ctx, buf *b) { return send_via_thread(ctx, b, PIECE_FRAME); }

/* The packet goes in pieces as it is written (native_send_block), under out_mu throughout
 * (and until the sending thread has sent them all) so that no Progress or Pong lands
 * inside it. The buffers are the connection's, reused from block to block (only the
 * query's thread sends blocks). */
static int send_block(nconn *c, int packet, const block *b)
{
    pthread_mutex_lock(&c->out_mu);
    int rc = c->codec ? native_send_block_frames(&c->wbuf, &c->scratch, packet, c->rev, c->header, b, send_piece,
                                                 send_frame, c)
                      : native_send_block(&c->wbuf, &c->scratch, packet, c->rev, NULL, c->header, b, send_piece, c);
    if (c->sender && send_thread_drain(c->sender))
        rc = -1;
    pthread_mutex_unlock(&c->out_mu);
    return rc;
}

static int sink_write(block_sink *bs, block *b)
{
    nconn *c = ((data_sink *)bs)->c;
    int rc = 0;
    if (b->rows) {
        rc = send_block(c, NS_DATA, b);
        c->blocks_sent++;
    }
    block_free(b);
    return rc;
}

static int sink_totals(block_sink *bs, block *b)
{
    nconn *c = ((data_sink *)bs)->c;
    int rc = send_block(c, NS_TOTALS, b);
    block_free(b);
    return rc;
}

static int sink_extremes(block_sink *bs, block *b)
{
    nconn *c = ((data_sink *)bs)->c;
    int rc = send_block(c, NS_EXTREMES, b);
    block_free(b);
    return rc;
}

static int open_blocks(void *ctx, query_ctx *q, const schema *header, block_sink **out)
{
    nconn *c = ctx;
    (void)q;
    schema_free(c->header);
    c->header = schema_clone(header);
    c->sink.base.write = sink_write;
    c->sink.base.totals = sink_totals;
    c->sink.base.extremes = sink_extremes;
    c->sink.c = c;
    *out = &c->sink.base;
    /* The header first: the client prepares its output from it, even for no rows. */
    return send_block(c, NS_DATA, NULL);
}

/* The INSERT's data: the client's blocks as FORMAT Native bytes for the statement's
 * Native reader. */
typedef struct input_stream {
    instream base;
    nconn *c;
    query_ctx *q;
    buf pending;
    size_t pos;
} input_stream;

static int next_input_block(input_stream *is)
{
    nconn *c = is->c;
    for (;;) {
        uint64_t type;
        c->recv_timeout_ms = c->srv->receive_timeout_s * 1000;
        if (native_read_varuint(c->in, &type)) {
            atomic_store(&c->desync, true);
            return -1;
        }
        if (type == NC_PING) {
            send_simple(c, NS_PONG);
            continue;
        }
        if (type == NC_CANCEL) {
            c->input_done = true;
            atomic_store(&c->cancelled, true);
            return err_set(ERR_QUERY_WAS_CANCELLED, "Received 'Cancel' packet from the client, canceling the query");
        }
        if (type != NC_DATA) {
            atomic_store(&c->desync, true);
            return err_set(type <= NC_READ_TASK_RESPONSE ? ERR_UNEXPECTED_PACKET_FROM_CLIENT
                                                         : ERR_UNKNOWN_PACKET_FROM_CLIENT,
                           "Unexpected packet %llu from the client while reading the data of an INSERT",
                           (unsigned long long)type);
        }
        schema *h;
        block *b;
        if (native_read_data(c->in, c->rev, c->nq.compression, &h, &b)) {
            atomic_store(&c->desync, true);
            return -1;
        }
        if (h->n == 0 && b->rows == 0) {
            c->input_done = true;
            schema_free(h);
            block_free(b);
            return 0;
        }
        native_block_write(&is->pending, h, b, 0);
        schema_free(h);
        block_free(b);
        return 0;
    }
}

static int input_read(instream *s, void *dst, size_t cap, size_t *got)
{
    input_stream *is = (input_stream *)s;
    *got = 0;
    while (is->pos == is->pending.len) {
        is->pending.len = 0;
        is->pos = 0;
        if (is->c->input_done)
            return 0;
        if (query_check(is->q) || next_input_block(is))
            return -1;
    }
    size_t n = is->pending.len - is->pos;
    if (n > cap)
        n = cap;
    memcpy(dst, is->pending.p + is->pos, n);
    is->pos += n;
    *got = n;
    s->offset += n;
    return 0;
}

static void input_close(instream *s)
{
    input_stream *is = (input_stream *)s;
    buf_free(&is->pending);
    free(is);
}

/* TableColumns for the INSERT's table (ClickHouse sends it when the INSERT names a table,
 * so that the client can compute the defaults of fields its input omits). */
static void table_columns(nconn *c, buf *out)
{
    table *t;
    if (catalog_get(c->srv->inst->catalog, c->insert_db[0] ? c->insert_db : c->sess->database, c->insert_table, &t)) {
        err_clear();
        return;
    }
    const char **names = xcalloc((size_t)t->ncols + 1, sizeof(char *));
    const char **types = xcalloc((size_t)t->ncols + 1, sizeof(char *));
    const char **kinds = xcalloc((size_t)t->ncols + 1, sizeof(char *));
    char **exprs = xcalloc((size_t)t->ncols + 1, sizeof(char *));
    for (int i = 0; i < t->ncols; i++) {
        names[i] = t->cols[i].name;
        types[i] = t->cols[i].type->name;
        if (t->cols[i].default_kind && t->cols[i].default_expr) {
            buf e = {0};
            ast_format_expr(&e, t->cols[i].default_expr);
            kinds[i] = t->cols[i].default_kind;
            exprs[i] = xstrdup(buf_cstr(&e));
            buf_free(&e);
        }
    }
    native_write_table_columns(out, t->ncols, names, types, kinds, (const char *const *)exprs);
    for (int i = 0; i < t->ncols; i++)
        free(exprs[i]);
    free(names);
    free(types);
    free(kinds);
    free(exprs);
    table_unref(t);
}

static int open_input(void *ctx, query_ctx *q, instream **out)
{
    nconn *c = ctx;
    if (!c->reads_input || c->input_opened)
        return err_set(ERR_NOT_IMPLEMENTED, "This statement reads data that the native protocol does not carry here");
    c->input_opened = true;
    if (!q->input_schema)
        return err_set(ERR_LOGICAL_ERROR, "The INSERT's columns are unknown");
    schema_free(c->header);
    c->header = schema_clone(q->input_schema);
    buf b = {0};
    if (c->rev >= 54410 && c->insert_table[0])
        table_columns(c, &b);
    native_write_block(&b, &c->scratch, NS_DATA, c->rev, c->codec, c->header, NULL);
    int rc = send_locked(c, &b);
    buf_free(&b);
    if (rc)
        return -1;
    input_stream *is = xcalloc(1, sizeof *is);
    is->base.read = input_read;
    is->base.close = input_close;
    is->base.name = "the client's data";
    is->c = c;
    is->q = q;
    *out = &is->base;
    return 0;
}

/* Settings from the Query packet, applied to each query after the session's. */
static int apply_settings(void *ctx, settings *st)
{
    nconn *c = ctx;
    /* A secondary query (from an initiator) under readonly = 1: as ClickHouse, its setting
     * changes are dropped quietly rather than refused. */
    if (c->nq.query_kind == 2 && settings_int(c->sess->st, "readonly") == 1)
        return 0;
    for (int i = 0; i < c->nq.nsettings; i++) {
        const native_kv *kv = &c->nq.settings[i];
        if (!strcmp(kv->name, "network_compression_method") || !strcmp(kv->name, "network_zstd_compression_level"))
            continue; /* the connection's, read by run_query */
        if (settings_index(kv->name) < 0) {
            /* As ClickHouse: an unknown setting is an error only when the client marks it
             * important; others come from a newer peer that changed it for itself. */
            if (kv->flags & 1)
                return err_set(ERR_UNKNOWN_SETTING, "Unknown setting '%s'", kv->name);
            continue;
        }
        if (settings_set(st, kv->name, kv->value)) {
            /* A native client formats results and parses INSERT data itself: its format
             * settings are its own (chdb sends clickhouse-local's changes). Where shale
             * does not implement a value, the server can leave it to the client. */
            bool client_side = !strncmp(kv->name, "output_format_", 14) || !strncmp(kv->name, "input_format_", 13) ||
                               !strncmp(kv->name, "format_", 7);
            if (!client_side || err_code() != ERR_NOT_IMPLEMENTED || (kv->flags & 1))
                return -1;
            err_clear();
        }
    }
    return 0;
}

static void on_started(void *ctx, query_ctx *q)
{
    nconn *c = ctx;
    pthread_mutex_lock(&c->out_mu);
    atomic_store(&c->running, q);
    if (atomic_load(&c->cancelled))
        atomic_store(&q->cancelled, 1);
    pthread_mutex_unlock(&c->out_mu);
    /* A secondary query may be a worker of s3Cluster: its objects come from the initiator,
     * through the listener (which does not run while the client sends an INSERT's data). */
    if (c->nq.query_kind == 2 && !c->reads_input) {
        q->read_task = read_task;
        q->read_task_ctx = c;
    }
    /* The server's shutdown cancels what it finds in the watch list. */
    watched *w = xcalloc(1, sizeof *w);
    w->fd = c->fd;
    w->q = q;
    pthread_mutex_lock(&c->srv->mu);
    w->next = c->srv->watch;
    c->srv->watch = w;
    pthread_mutex_unlock(&c->srv->mu);
}

static void on_finished(void *ctx, query_ctx *q, const interp_result *res, int code)
{
    nconn *c = ctx;
    pthread_mutex_lock(&c->srv->mu);
    for (watched **pp = &c->srv->watch; *pp; pp = &(*pp)->next)
        if ((*pp)->q == q) {
            watched *w = *pp;
            *pp = w->next;
            free(w);
            break;
        }
    pthread_mutex_unlock(&c->srv->mu);
    /* The listener must not touch q once it is freed. */
    pthread_mutex_lock(&c->out_mu);
    atomic_store(&c->running, NULL);
    if (!code && !atomic_load(&c->broken)) {
        if (res->has_result) {
            buf b = {0};
            native_write_profile_info(&b, c->rev, res->result_rows, c->blocks_sent, res->result_bytes, false, 0);
            send_bytes(c, &b);
            buf_free(&b);
        }
        /* Not after an INSERT fed by the client: ClickHouse's client expects none there. */
        if (!c->reads_input)
            send_progress_locked(c, q, res->written_rows, res->written_bytes);
    }
    pthread_mutex_unlock(&c->out_mu);
}

/* ---- query parameters ---- */

/* ClickHouse's client sends a parameter as a quoted literal ('text' with backslash
 * escapes); anything else is taken as it is. */
static char *param_value(const char *v)
{
    size_t n = strlen(v);
    if (n < 2 || v[0] != '\'' || v[n - 1] != '\'')
        return xstrdup(v);
    buf b = {0};
    for (size_t i = 1; i + 1 < n; i++) {
        char ch = v[i];
        if (ch == '\\' && i + 2 < n) {
            ch = v[++i];
            switch (ch) {
            case 'n': ch = '\n'; break;
            case 't': ch = '\t'; break;
            case 'r': ch = '\r'; break;
            case '0': ch = '\0'; break;
            case 'b': ch = '\b'; break;
            case 'f': ch = '\f'; break;
            default: break;
            }
        }
        buf_putc(&b, ch);
    }
    char *r = xstrndup(b.len ? (const char *)b.p : "", b.len);
    buf_free(&b);
    return r;
}

/* ---- the processing stage ---- */

/* The stages a shard of a distributed query runs to (QueryProcessingStage):
 *   Complete (2)                   everything;
 *   WithMergeableStateAfterAggregation (3) and …AndLimit (4)
 *                                  everything but the initiator's final merge of sorted
 *                                  streams, OFFSET and LIMIT BY: shale runs the query
 *                                  whole, which gives the same rows as long as the query has
 *                                  no OFFSET or LIMIT BY (refused: the offset belongs to the
 *                                  initiator);
 *   WithMergeableState (1)         the same without aggregation; with aggregation the shard
 *                                  runs to the mergeable stage (sql/dist_split.h): the
 *                                  GROUP BY keys and one AggregateFunction(f, T…) state per
 *                                  aggregate, in blocks of a single-level aggregation
 *                                  (bucket_num -1); HAVING, ORDER BY, LIMIT, OFFSET and
 *                                  LIMIT BY are the initiator's;
 *   FetchColumns (0)               read the columns; a query without aggregation, OFFSET or
 *                                  LIMIT BY gives the initiator rows it may filter, sort and
 *                                  limit again, so it runs whole too. */
/* Below Complete the initiator merges the shards' sorted streams and applies the final
 * projection itself: besides the select list it wants the columns the ORDER BY keys and
 * the select list read, named as ClickHouse's planner names them (`__table1`.`k` →
 * "__table1.k"). Only keys that are columns are handled; other keys get a clear error
 * rather than a header the initiator cannot use. */
static void add_column_refs(arena *a, ast *sel, const ast *e, int depth)
{
    if (!e || depth > 200)
        return;
    if (e->kind == AST_IDENT && e->nparts >= 2) {
        buf name = {0};
        for (int k = 0; k < e->nparts; k++) {
            if (k)
                buf_putc(&name, '.');
            buf_puts(&name, e->parts[k]);
        }
        bool seen = false;
        for (int i = 0; i < sel->select.n && !seen; i++)
            seen = sel->select.items[i]->alias && strcmp(sel->select.items[i]->alias, buf_cstr(&name)) == 0;
        if (!seen) {
            ast *col = ARENA_NEW(a, ast);
            *col = *e;
            col->alias = arena_strdup(a, buf_cstr(&name));
            ast_list_push(a, &sel->select, col);
        }
        buf_free(&name);
        return;
    }
    if (e->kind == AST_SUBQUERY)
        return;
    for (int i = 0; i < e->args.n; i++)
        add_column_refs(a, sel, e->args.items[i], depth + 1);
}

static int add_sort_columns(arena *a, ast *sel, const char *stage)
{
    int n = sel->select.n;
    for (int i = 0; i < n; i++) {
        ast *item = sel->select.items[i];
        add_column_refs(a, sel, item, 0);
        /* An expression of the select list also goes by its planner name (the initiator
         * projects it to its alias itself). */
        buf name = {0};
        if (item->kind != AST_IDENT && item->kind != AST_ASTERISK && dist_planner_name(item, &name) == 0 &&
            !(item->alias && strcmp(item->alias, buf_cstr(&name)) == 0)) {
            ast *col = ARENA_NEW(a, ast);
            *col = *item;
            col->alias = arena_strdup(a, buf_cstr(&name));
            ast_list_push(a, &sel->select, col);
        }
        buf_free(&name);
    }
    for (int i = 0; i < sel->order_by.n; i++) {
        ast *key = sel->order_by.items[i]->sub;
        if (key && key->kind == AST_IDENT) {
            add_column_refs(a, sel, key, 0);
            continue;
        }
        buf name = {0};
        if (!key || dist_planner_name(key, &name)) {
            buf_free(&name);
            return err_set(ERR_NOT_IMPLEMENTED, "This ORDER BY key in a shard query (stage %s) is not supported; order "
                                                "by columns or by functions of columns and constants",
                           stage);
        }
        /* The key's value under that name (and the columns it reads, for the initiator). */
        bool seen = false;
        for (int k = 0; k < sel->select.n && !seen; k++)
            seen = sel->select.items[k]->alias && strcmp(sel->select.items[k]->alias, buf_cstr(&name)) == 0;
        if (!seen) {
            ast *col = ARENA_NEW(a, ast);
            *col = *key;
            col->alias = arena_strdup(a, buf_cstr(&name));
            ast_list_push(a, &sel->select, col);
        }
        buf_free(&name);
        add_column_refs(a, sel, key, 0);
    }
    return 0;
}

static int check_stage(nconn *c, arena *a, ast *stmt)
{
    uint64_t stage = c->nq.stage;
    if (stage == NATIVE_STAGE_COMPLETE || stmt->kind != AST_STMT_SELECT)
        return 0;
    static const char *names[] = {"FetchColumns", "WithMergeableState", "Complete",
                                  "WithMergeableStateAfterAggregation",
                                  "WithMergeableStateAfterAggregationAndLimit"};
    if (stage > 4)
        return err_set(ERR_NOT_IMPLEMENTED, "Query processing stage %llu is not supported (shale runs FetchColumns, "
                                            "WithMergeableState, "
                                            "WithMergeableStateAfterAggregation[AndLimit] and Complete)",
                       (unsigned long long)stage);
    const ast *sel = stmt->sub;
    if (sel->kind != AST_SELECT)
        return err_set(ERR_NOT_IMPLEMENTED, "UNION in a shard query (stage %s) is not supported", names[stage]);
    bool agg = stage < 3 && dist_select_aggregates(sel);
    if (agg && stage == 1) {
        /* Run to the mergeable stage: the keys and each aggregate's state, under the
         * names ClickHouse's planner gives them (sql/dist_split.h); the initiator merges,
         * filters (HAVING), sorts and limits. */
        dist_split ds;
        if (dist_split_select(a, sel, &ds))
            return -1;
        stmt->sub = ds.shard_states;
        return 0;
    }
    if (sel->offset || sel->limit_by_offset || sel->limit_by.n)
        return err_set(ERR_NOT_IMPLEMENTED, "OFFSET and LIMIT BY in a shard query (stage %s) are not supported",
                       names[stage]);
    if (agg)
        return err_set(ERR_NOT_IMPLEMENTED,
                       "A shard query that aggregates at stage FetchColumns is not supported (shale's shards "
                       "aggregate at WithMergeableState)");
    if (stage >= 1 && sel->order_by.n && add_sort_columns(a, stmt->sub, names[stage]))
        return -1;
    return 0;
}

/* ---- one query ---- */

static void skip_external_tables(nconn *c, int *code)
{
    /* External tables and scalars come as Data (or Scalar) packets ended by an empty block. */
    for (;;) {
        uint64_t type;
        if (native_read_varuint(c->in, &type)) {
            atomic_store(&c->desync, true);
            *code = err_code();
            return;
        }
        if (type == NC_PING) {
            send_simple(c, NS_PONG);
            continue;
        }
        if (type != NC_DATA && type != NC_SCALAR) {
            atomic_store(&c->desync, true);
            err_set(ERR_UNEXPECTED_PACKET_FROM_CLIENT, "Unexpected packet %llu after a Query (expected Data)",
                    (unsigned long long)type);
            *code = err_code();
            return;
        }
        schema *h;
        block *b;
        if (native_read_data(c->in, c->rev, c->nq.compression, &h, &b)) {
            atomic_store(&c->desync, true);
            *code = err_code();
            return;
        }
        bool empty = h->n == 0 && b->rows == 0;
        schema_free(h);
        block_free(b);
        /* Scalars (_shard_num, _shard_count, subquery results) are values the initiator
         * offers; shale computes its own, so they are dropped. */
        if (type == NC_SCALAR)
            continue;
        if (empty)
            return;
        if (!*code) {
            err_set(ERR_NOT_IMPLEMENTED, "External tables sent with a query are not supported");
            *code = err_code();
        }
    }
}

static int interserver_login(nconn *c);

static void run_query(nconn *c)
{
    server *srv = c->srv;
    c->recv_timeout_ms = srv->receive_timeout_s * 1000;
    native_query_free(&c->nq);
    if (native_read_query(c->in, c->rev, &c->nq)) {
        send_exception(c, err_code(), err_msg());
        atomic_store(&c->desync, true);
        return;
    }
    int code = 0;
    skip_external_tables(c, &code);
    if (atomic_load(&c->desync)) {
        send_exception(c, code, err_msg());
        return;
    }
    if (c->hello.interserver) {
        /* Each query of another server names its own user: a session of its own. */
        if (c->sess)
            session_free(c->sess);
        c->sess = NULL;
        if (code) {
            send_exception(c, code, err_msg());
            return;
        }
        if (interserver_login(c)) {
            /* The peer is not who it says: answer, then close. */
            send_exception(c, err_code(), err_msg());
            atomic_store(&c->desync, true);
            return;
        }
    }
    char msg[ERR_MSG_MAX] = "";
    if (code)
        snprintf(msg, sizeof msg, "%s", err_msg());
    c->query_start = clock_monotonic();
    memset(&c->sent, 0, sizeof c->sent);
    c->blocks_sent = 0;
    atomic_store(&c->cancelled, false);
    c->reads_input = c->input_done = c->input_opened = false;
    c->insert_db[0] = c->insert_table[0] = 0;
    mt_codec_free(c->codec);
    c->codec = NULL;
    /* The compression of this query's blocks. */
    if (!code && c->nq.compression) {
        const char *method = "LZ4", *level = NULL;
        for (int i = 0; i < c->nq.nsettings; i++) {
            if (!strcmp(c->nq.settings[i].name, "network_compression_method"))
                method = c->nq.settings[i].value;
            else if (!strcmp(c->nq.settings[i].name, "network_zstd_compression_level"))
                level = c->nq.settings[i].value;
        }
        char spec[64];
        if (!strcasecmp(method, "ZSTD"))
            snprintf(spec, sizeof spec, "ZSTD(%s)", level ? level : "1");
        else if (!strcasecmp(method, "LZ4") || !strcasecmp(method, "NONE"))
            snprintf(spec, sizeof spec, "%s", !strcasecmp(method, "LZ4") ? "LZ4" : "NONE");
        else
            spec[0] = 0;
        if (!spec[0])
            code = (err_set(ERR_UNKNOWN_COMPRESSION_METHOD, "Unknown network_compression_method '%s' (shale "
                                                           "supports LZ4, ZSTD and NONE)", method), err_code());
        else if (mt_codec_parse(spec, NULL, &c->codec))
            code = err_code();
        if (code)
            snprintf(msg, sizeof msg, "%s", err_msg());
    }
    for (int i = 0; !code && i < c->nq.nparams; i++) {
        char *v = param_value(c->nq.params[i].value);
        session_set_param(c->sess, c->nq.params[i].name, v);
        free(v);
    }
    arena a;
    arena_init(&a);
    ast *stmt = NULL;
    const char *sql = c->nq.text;
    size_t len = strlen(sql), pos = 0;
    if (!code) {
        if (sql_parse_statement(&a, sql, len, &pos, 1000, &stmt))
            code = err_code();
        else if (!stmt)
            code = (err_set(ERR_SYNTAX_ERROR, "Empty query"), err_code());
        else {
            size_t rest = pos;
            while (rest < len && strchr(" \t\r\n;", sql[rest]))
                rest++;
            bool has_data = stmt->kind == AST_STMT_INSERT && stmt->insert_data;
            if (!has_data && rest < len)
                code = (err_set(ERR_SYNTAX_ERROR, "Multi-statements are not allowed"), err_code());
        }
        /* The result belongs to the client (clickhouse-client writes INTO OUTFILE itself);
         * a server never writes a file on a native client's behalf. */
        if (!code && stmt->outfile) {
            err_set(ERR_NOT_IMPLEMENTED, "INTO OUTFILE is done by the client, not over the native protocol");
            code = err_code();
        }
        if (!code)
            code = check_stage(c, &a, stmt) ? err_code() : 0;
        if (code)
            snprintf(msg, sizeof msg, "%s", err_msg());
    }
    /* An INSERT without inline data gets its rows from the client as Native blocks,
     * whatever format it names (clickhouse-client parses the format itself). */
    if (!code && stmt->kind == AST_STMT_INSERT && !stmt->sub && stmt->format) {
        size_t skip = 0;
        while (skip < stmt->insert_data_len && strchr(" \t\r\n;", stmt->insert_data[skip]))
            skip++;
        if (skip == stmt->insert_data_len) {
            c->reads_input = true;
            snprintf(c->insert_db, sizeof c->insert_db, "%s", stmt->database ? stmt->database : "");
            snprintf(c->insert_table, sizeof c->insert_table, "%s",
                     stmt->table_name && !stmt->table_func ? stmt->table_name : "");
            stmt->format = "Native";
            stmt->insert_data_len = 0;
        }
    }
    bool counted = false;
    if (!code && srv->max_concurrent_queries > 0) {
        int n = atomic_fetch_add(&srv->running_queries, 1) + 1;
        counted = true;
        if (n > srv->max_concurrent_queries) {
            code = (err_set(ERR_TOO_MANY_SIMULTANEOUS_QUERIES, "Too many simultaneous queries. Maximum: %lld",
                           (long long)srv->max_concurrent_queries), err_code());
            snprintf(msg, sizeof msg, "%s", err_msg());
        }
    }
    interp_hooks h = {.ctx = c,
                      .open_blocks = open_blocks,
                      .open_input = open_input,
                      .apply_settings = apply_settings,
                      .started = on_started,
                      .finished = on_finished};
    interp_request ireq = {.stmt = code ? NULL : stmt,
                           .script = sql,
                           .script_len = len,
                           .text = sql,
                           .text_len = code ? len : pos,
                           .query_id = c->nq.query_id[0] ? c->nq.query_id : NULL};
    if (code) {
        /* Refused before it ran: the query log still gets its row. */
        interp_hooks none = {.ctx = c};
        interp_result res;
        err_set(code, "%s", msg);
        interp_run(c->sess, &ireq, &none, &res);
    } else {
        atomic_store(&c->listen_stop, false);
        bool listening = !c->reads_input && pthread_create(&c->listener, NULL, listener_thread, c) == 0;
        interp_result res;
        code = interp_run(c->sess, &ireq, &h, &res);
        if (code)
            snprintf(msg, sizeof msg, "%s", err_msg());
        if (listening) {
            atomic_store(&c->listen_stop, true);
            pthread_join(c->listener, NULL);
        }
        /* An INSERT that failed before reading all of its data: the rest is read and
         * dropped so that the connection stays in step (ClickHouse's skipData). */
        if (c->reads_input && c->input_opened && !c->input_done && !atomic_load(&c->desync)) {
            input_stream tmp = {.c = c};
            while (!c->input_done && !atomic_load(&c->desync)) {
                tmp.pending.len = 0;
                if (next_input_block(&tmp))
                    break;
            }
            buf_free(&tmp.pending);
        }
    }
    if (counted)
        atomic_fetch_sub(&srv->running_queries, 1);
    if (!atomic_load(&c->broken)) {
        if (code && !atomic_load(&c->cancelled)) {
            send_exception(c, code, msg);
        } else {
            buf b = {0};
            if (!code && c->header && stmt && stmt->kind != AST_STMT_INSERT) {
                /* The end of the data, then the final progress (as ClickHouse's server). */
                native_write_block(&b, &c->scratch, NS_DATA, c->rev, c->codec, &(schema){0}, NULL);
            }
            buf_putc(&b, NS_END_OF_STREAM);
            send_locked(c, &b);
            buf_free(&b);
        }
    }
    schema_free(c->header);
    c->header = NULL;
    arena_free(&a);
}

/* ---- the connection ---- */

static void tables_status(nconn *c)
{
    char **names;
    int n;
    c->recv_timeout_ms = c->srv->receive_timeout_s * 1000;
    if (native_read_tables_status(c->in, &names, &n)) {
        send_exception(c, err_code(), err_msg());
        atomic_store(&c->desync, true);
        return;
    }
    bool *exists = xcalloc((size_t)n + 1, sizeof(bool));
    for (int i = 0; i < n; i++) {
        table *t;
        const char *db = names[2 * i][0] ? names[2 * i] : c->sess ? c->sess->database : "default";
        /* system.* tables are made when queried: a wrong name fails in the query itself. */
        exists[i] = strcmp(db, "system") == 0 || catalog_get(c->srv->inst->catalog, db, names[2 * i + 1], &t) == 0;
        if (exists[i] && strcmp(db, "system") != 0)
            table_unref(t);
        err_clear();
    }
    buf out = {0};
    native_write_tables_status(&out, names, exists, n);
    send_locked(c, &out);
    buf_free(&out);
    for (int i = 0; i < 2 * n; i++)
        free(names[i]);
    free(names);
    free(exists);
}

/* A new session of c->user with its profile and database (db "": the user's default). */
static int bind_session(nconn *c, const char *db)
{
    if (c->sess)
        session_free(c->sess);
    c->sess = session_new(c->srv->inst);
    c->sess->remote = true;
    snprintf(c->sess->user, sizeof c->sess->user, "%s", c->user->name);
    if (c->user->profile && users_apply_profile(c->auth->cfg, c->user->profile, c->sess->st))
        return -1;
    if (!db[0])
        db = c->user->default_database;
    if (db && strlen(db) >= sizeof c->sess->database)
        return err_set(ERR_BAD_ARGUMENTS, "Database name is too long");
    if (db)
        snprintf(c->sess->database, sizeof c->sess->database, "%s", db);
    return 0;
}

/* A query over an inter-server connection, as ClickHouse's TCPHandler::receiveQuery checks
 * it: the hash must be the one made with this server's secret of the cluster the Hello
 * named, and the query then runs as its initial user, in a session of its own. */
static int interserver_login(nconn *c)
{
    cluster_set *cs = cluster_set_get();
    const cluster_def *cl = cluster_find(cs, c->hello.cluster);
    int rc = 0;
    if (!cl) {
        /* ClickHouse's: the lookup's message under AUTHENTICATION_FAILED */
        char msg[ERR_MSG_MAX];
        snprintf(msg, sizeof msg, "%s", err_msg());
        rc = err_set(ERR_AUTHENTICATION_FAILED, "%s", msg);
    }
    else if (!c->hello.salt_len || !cl->secret || !cl->secret[0])
        rc = err_set(ERR_AUTHENTICATION_FAILED, "Interserver authentication failed (no salt/cluster secret)");
    else if (c->rev >= 54462 && !c->has_nonce)
        rc = err_set(ERR_AUTHENTICATION_FAILED, "Interserver authentication failed (no nonce)");
    unsigned char want[32];
    const char *iuser = c->nq.initial_user ? c->nq.initial_user : "";
    if (!rc && native_interserver_hash(c->hello.salt, c->hello.salt_len, c->has_nonce, c->nonce, cl->secret,
                                       c->nq.text, c->nq.query_id, iuser, want))
        rc = -1;
    cluster_set_put(cs);
    if (!rc && (c->nq.hash_len != sizeof want || memcmp(want, c->nq.hash, sizeof want) != 0))
        rc = err_set(ERR_AUTHENTICATION_FAILED, "Interserver authentication failed");
    /* ClickHouse runs a query without an initial user (a Distributed INSERT from a Buffer
     * table) with no user at all; shale's sessions always have one. */
    if (!rc && !iuser[0])
        rc = err_set(ERR_NOT_IMPLEMENTED, "An inter-server query without an initial user");
    if (!rc)
        rc = users_find(c->auth->users, iuser, &c->user);
    if (!rc)
        rc = bind_session(c, c->hello.database);
    return rc;
}

static int handshake(nconn *c)
{
    uint64_t type;
    c->recv_timeout_ms = c->srv->receive_timeout_s * 1000;
    if (native_read_varuint(c->in, &type))
        return -1;
    if (type == 'G' || type == 'P') {
        /* An HTTP client on the native port, as ClickHouse answers it. */
        buf b = {0};
        struct sockaddr_storage sa;
        socklen_t sl = sizeof sa;
        int port = 0;
        if (getsockname(c->fd, (struct sockaddr *)&sa, &sl) == 0)
            port = ntohs(sa.ss_family == AF_INET6 ? ((struct sockaddr_in6 *)&sa)->sin6_port
                                                  : ((struct sockaddr_in *)&sa)->sin_port);
        buf_printf(&b, "HTTP/1.0 400 Bad Request\r\n\r\nPort %d is for clickhouse-client program\r\n", port);
        send_bytes(c, &b);
        buf_free(&b);
        return err_set(ERR_CLIENT_HAS_CONNECTED_TO_WRONG_PORT, "Client has connected to wrong port");
    }
    if (type != NC_HELLO) {
        err_set(ERR_UNEXPECTED_PACKET_FROM_CLIENT, "Unexpected packet from client (expected Hello, got %llu)",
                (unsigned long long)type);
        send_exception(c, err_code(), err_msg());
        return -1;
    }
    if (native_read_hello(c->in, &c->hello)) {
        send_exception(c, err_code(), err_msg());
        return -1;
    }
    if (c->hello.revision < NATIVE_MIN_CLIENT_REVISION) {
        err_set(ERR_NOT_IMPLEMENTED, "The client's protocol revision %llu is older than shale supports (%d)",
                (unsigned long long)c->hello.revision, NATIVE_MIN_CLIENT_REVISION);
        send_exception(c, err_code(), err_msg());
        return -1;
    }
    c->rev = c->hello.revision < NATIVE_SERVER_REVISION ? c->hello.revision : NATIVE_SERVER_REVISION;
    if (!c->hello.user[0]) {
        err_set(ERR_UNEXPECTED_PACKET_FROM_CLIENT, "Unexpected packet from client (no user in Hello package)");
        send_exception(c, err_code(), err_msg());
        return -1;
    }
    c->auth = server_auth_get(c->srv);
    /* Another server of a cluster with a <secret>: no user yet, each query names its
     * initial user and proves the secret (interserver_login). */
    if (!c->hello.interserver &&
        (users_authenticate(c->auth->users, c->hello.user, c->hello.password, c->peer, &c->user) ||
         bind_session(c, c->hello.database))) {
        send_exception(c, err_code(), err_msg());
        return -1;
    }
    buf b = {0};
    c->has_nonce = native_write_hello(&b, c->rev, tz_default_name(), c->srv->display_name, &c->nonce);
    int rc = send_locked(c, &b);
    buf_free(&b);
    if (rc || native_read_addendum(c->in, c->rev))
        return -1;
    return 0;
}

void native_serve(server *srv, int fd, const char *peer)
{
    nconn *c = xcalloc(1, sizeof *c);
    c->srv = srv;
    c->fd = fd;
    snprintf(c->peer, sizeof c->peer, "%s", peer);
    pthread_mutex_init(&c->out_mu, NULL);
    pthread_mutex_init(&c->task_req_mu, NULL);
    pthread_mutex_init(&c->task_mu, NULL);
    pthread_cond_init(&c->task_cv, NULL);
    sock_stream *ss = xcalloc(1, sizeof *ss);
    ss->base.read = sock_read;
    ss->base.close = sock_close;
    ss->base.name = "the connection";
    ss->c = c;
    c->in = rbuf_new(&ss->base, 1 << 16);
    if (handshake(c) == 0) {
        while (!srv->stop && !atomic_load(&c->broken) && !atomic_load(&c->desync)) {
            uint64_t type;
            c->idle_wait = true;
            c->recv_timeout_ms = IDLE_TIMEOUT_S * 1000;
            long avail = rbuf_need(c->in, 1);
            c->idle_wait = false;
            if (avail <= 0)
                break; /* closed, idle too long, or the server stops */
            c->recv_timeout_ms = srv->receive_timeout_s * 1000;
            if (native_read_varuint(c->in, &type))
                break;
            if (type == NC_PING) {
                send_simple(c, NS_PONG);
            } else if (type == NC_CANCEL) {
                /* A Cancel that arrives after its query ended. */
            } else if (type == NC_TABLES_STATUS_REQUEST) {
                tables_status(c);
            } else if (type == NC_QUERY) {
                run_query(c);
            } else {
                err_set(type <= NC_READ_TASK_RESPONSE ? ERR_UNEXPECTED_PACKET_FROM_CLIENT
                                                      : ERR_UNKNOWN_PACKET_FROM_CLIENT,
                        "Unexpected packet %llu from the client (expected Query, Ping, Cancel or "
                        "TablesStatusRequest)",
                        (unsigned long long)type);
                send_exception(c, err_code(), err_msg());
                break;
            }
        }
    }
    if (c->sess)
        session_free(c->sess);
    if (c->auth)
        server_auth_put(c->auth);
    native_hello_free(&c->hello);
    native_query_free(&c->nq);
    mt_codec_free(c->codec);
    schema_free(c->header);
    send_thread_free(c->sender);
    buf_free(&c->zbuf);
    buf_free(&c->wbuf);
    buf_free(&c->scratch);
    rbuf_free(c->in);
    pthread_mutex_destroy(&c->out_mu);
    pthread_mutex_destroy(&c->task_req_mu);
    pthread_mutex_destroy(&c->task_mu);
    pthread_cond_destroy(&c->task_cv);
    free(c->task_path);
    free(c);
}
