/* The native protocol's client side (see native_client.h). */
#include "storage/native_client.h"

#include "base/err.h"
#include "base/mem.h"
#include "codec/compress.h"
#include "exec/settings.h"
#include "format/native_block.h"
#include "base/rand.h"
#include "io/crypto.h"
#include "io/tcp.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/random.h>
#include <unistd.h>

struct nclient {
    int fd;
    rbuf *in;
    instream *sock;            /* owned by in */
    char peer[300];
    char *user;
    char *client_name;
    uint64_t rev;
    native_server_hello server;
    mt_codec *codec;           /* NULL: no compression */
    int send_timeout_ms;
    buf wbuf, scratch;
    outstream *pass_native;    /* nclient_pass_native (not owned) */
    bool serves_read_tasks;    /* ReadTaskRequest is a packet, not an error */
    char *secret;              /* the cluster's inter-server secret, NULL: none */
    unsigned char salt[32];
};

static int send_buf(nclient *c, const buf *b) { return tcp_send_all(c->fd, b->p, b->len, c->send_timeout_ms, c->peer); }
static int send_piece(void *ctx, buf *b) { return send_buf(ctx, b); }

int nclient_raise(const nclient *c, const nclient_packet *p)
{
    return err_set(p->code ? p->code : ERR_LOGICAL_ERROR, "Received from %s. %s", c->peer, p->message ? p->message : "");
}

void nclient_close(nclient *c)
{
    if (!c)
        return;
    if (c->in)
        rbuf_free(c->in);
    if (c->fd >= 0)
        close(c->fd);
    native_server_hello_free(&c->server);
    mt_codec_free(c->codec);
    free(c->user);
    free(c->client_name);
    if (c->secret) {
        memset(c->secret, 0, strlen(c->secret));
        free(c->secret);
    }
    buf_free(&c->wbuf);
    buf_free(&c->scratch);
    free(c);
}

int nclient_connect(const nclient_opts *o, nclient **out)
{
    *out = NULL;
    nclient *c = xcalloc(1, sizeof *c);
    c->fd = -1;
    snprintf(c->peer, sizeof c->peer, "%s:%d", o->host, o->port);
    c->user = xstrdup(o->user ? o->user : "default");
    c->client_name = xstrdup(o->client_name ? o->client_name : "shale");
    c->send_timeout_ms = o->send_timeout_ms > 0 ? o->send_timeout_ms : 300000;
    int recv_ms = o->receive_timeout_ms > 0 ? o->receive_timeout_ms : 300000;
    int conn_ms = o->connect_timeout_ms > 0 ? o->connect_timeout_ms : 1000;
    if (o->compression && o->compression[0]) {
        const char *spec = !strcasecmp(o->compression, "lz4") ? "LZ4" : !strcasecmp(o->compression, "zstd") ? "ZSTD" : NULL;
        if (!spec) {
            nclient_close(c);
            return err_set(ERR_UNKNOWN_COMPRESSION_METHOD, "Unknown network compression method '%s' (lz4 or zstd)",
                           o->compression);
        }
        if (mt_codec_parse(spec, NULL, &c->codec)) {
            nclient_close(c);
            return -1;
        }
    }
    if (tcp_connect(o->host, o->port, conn_ms, &c->fd)) {
        nclient_close(c);
        return -1;
    }
    /* The handshake must come within the connect timeout too (a port that accepts and
     * says nothing is not a server). */
    c->sock = tcp_instream(c->fd, c->peer, conn_ms > 10000 ? conn_ms : 10000);
    /* 1 MiB: a result streamed at full speed arrives in large reads (fewer system calls),
     * and FORMAT Native passed on goes out in spans of that size (native_block_pass). */
    c->in = rbuf_new(c->sock, 1 << 20);
    buf b = {0};
    if (o->secret) {
        /* ClickHouse's Connection::sendHello with a cluster secret; the salt is the SHA-256
         * of 8 random bytes, as its initiator makes it. */
        if (crypto_load()) {
            nclient_close(c);
            return -1;
        }
        c->secret = xstrdup(o->secret);
        uint64_t r;
        if (getrandom(&r, sizeof r, 0) != (ssize_t)sizeof r)
            r = rand_u64();
        crypto_sha256(&r, sizeof r, c->salt);
        native_write_client_hello(&b, c->client_name, o->database ? o->database : "", NATIVE_INTERSERVER_USER, "");
        native_write_cluster_and_salt(&b, o->cluster ? o->cluster : "", c->salt, sizeof c->salt);
    } else {
        native_write_client_hello(&b, c->client_name, o->database ? o->database : "", c->user,
                                  o->password ? o->password : "");
    }
    int rc = send_buf(c, &b);
    uint64_t type = 0;
    if (!rc)
        rc = native_read_varuint(c->in, &type);
    if (!rc && type == NS_EXCEPTION) {
        nclient_packet p = {.type = NS_EXCEPTION};
        rc = native_read_exception(c->in, &p.code, &p.message);
        if (!rc)
            rc = nclient_raise(c, &p);
        free(p.message);
    } else if (!rc && type != NS_HELLO) {
        rc = err_set(ERR_UNEXPECTED_PACKET_FROM_SERVER, "Unexpected packet from server %s (expected Hello, got %llu)",
                     c->peer, (unsigned long long)type);
    } else if (!rc) {
        rc = native_read_server_hello(c->in, NATIVE_SERVER_REVISION, &c->server);
    }
    if (!rc) {
        c->rev = c->server.revision < NATIVE_SERVER_REVISION ? c->server.revision : NATIVE_SERVER_REVISION;
        if (c->rev < NATIVE_MIN_CLIENT_REVISION)
            rc = err_set(ERR_UNEXPECTED_PACKET_FROM_SERVER,
                         "The server %s speaks protocol revision %llu; shale needs at least %d", c->peer,
                         (unsigned long long)c->server.revision, NATIVE_MIN_CLIENT_REVISION);
    }
    if (!rc) {
        b.len = 0;
        native_write_addendum(&b, c->rev);
        if (b.len)
            rc = send_buf(c, &b);
    }
    buf_free(&b);
    if (rc) {
        nclient_close(c);
        return -1;
    }
    tcp_instream_set_timeout(c->sock, recv_ms);
    *out = c;
    return 0;
}

const char *nclient_peer(const nclient *c) { return c->peer; }
const native_server_hello *nclient_server(const nclient *c) { return &c->server; }
uint64_t nclient_revision(const nclient *c) { return c->rev; }

static int send_byte(nclient *c, int packet)
{
    char b = (char)packet;
    return tcp_send_all(c->fd, &b, 1, c->send_timeout_ms, c->peer);
}

int nclient_ping(nclient *c)
{
    if (send_byte(c, NC_PING))
        return -1;
    nclient_packet p;
    if (nclient_receive(c, &p))
        return -1;
    int type = p.type;
    nclient_packet_clear(&p);
    if (type != NS_PONG)
        return err_set(ERR_UNEXPECTED_PACKET_FROM_SERVER, "Unexpected packet from server %s (expected Pong, got %d)",
                       c->peer, type);
    return 0;
}

int nclient_cancel(nclient *c) { return send_byte(c, NC_CANCEL); }

/* Tries o[order[k]] for k in [0, n), the round max_tries times. */
static int connect_in_order(const nclient_opts *o, int n, const int *order, int max_tries, int timeout_ms,
                            nclient **out)
{
    buf log = {0};
    for (int t = 0; t < max_tries; t++)
        for (int k = 0; k < n; k++) {
            nclient_opts one = o[order ? order[k] : k];
            if (timeout_ms > 0)
                one.connect_timeout_ms = timeout_ms;
            if (nclient_connect(&one, out) == 0) {
                buf_free(&log);
                return 0;
            }
            /* A server that answers with an error (a wrong password) is no reason to try
             * another replica: ClickHouse fails at once too. */
            int code = err_code();
            if (code != ERR_NETWORK_ERROR && code != ERR_SOCKET_TIMEOUT && code != ERR_DNS_ERROR &&
                code != ERR_CANNOT_READ_ALL_DATA) {
                buf_free(&log);
                return -1;
            }
            buf_printf(&log, "\n\nCode: %d. DB::NetException: %s. (%s)", code, err_msg(), err_name(code));
        }
    int rc = err_set(ERR_ALL_CONNECTION_TRIES_FAILED, "All connection tries failed. Log: %s", buf_cstr(&log));
    buf_free(&log);
    return rc;
}

int nclient_connect_any(const nclient_opts *o, int n, nclient **out) { return connect_in_order(o, n, NULL, 1, 0, out); }

void nclient_failover_from(const settings *st, nclient_failover *f)
{
    static const char *const names[] = {"random", "nearest_hostname", "hostname_levenshtein_distance",
                                        "hostname_longest_common_prefix", "hostname_longest_common_suffix",
                                        "in_order", "first_or_random", "round_robin"};
    const char *lb = settings_str(st, "load_balancing");
    f->lb = NLB_RANDOM;
    for (int i = 0; i < (int)(sizeof names / sizeof names[0]); i++)
        if (!strcmp(lb, names[i]))
            f->lb = i; /* the setting's type admits no other value */
    int64_t off = settings_int(st, "load_balancing_first_offset");
    f->first_offset = off > 0 && off < 1000000 ? (int)off : 0;
    int64_t tries = settings_int(st, "connections_with_failover_max_tries");
    f->max_tries = tries < 1 ? 1 : tries > 1000 ? 1000 : (int)tries;
    int64_t ms = settings_int(st, "connect_timeout_with_failover_ms");
    f->connect_timeout_ms = ms > 0 && ms < 3600000 ? (int)ms : 1000;
}

static int64_t levenshtein(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    int64_t *row = xcalloc(lb + 1, sizeof *row);
    for (size_t j = 0; j <= lb; j++)
        row[j] = (int64_t)j;
    for (size_t i = 1; i <= la; i++) {
        int64_t diag = row[0];
        row[0] = (int64_t)i;
        for (size_t j = 1; j <= lb; j++) {
            int64_t up = row[j];
            int64_t best = diag + (a[i - 1] != b[j - 1]);
            if (up + 1 < best)
                best = up + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            row[j] = best;
            diag = up;
        }
    }
    int64_t d = row[lb];
    free(row);
    return d;
}

/* The strategy's priority of replica i (lower first), ClickHouse's getPriorityFunc. */
static int64_t lb_priority(const nclient_failover *f, const char *local, const char *host, int i, int n,
                           unsigned last_used)
{
    size_t ll = strlen(local), lh = strlen(host), m = ll < lh ? ll : lh, k = 0;
    switch (f->lb) {
    case NLB_NEAREST_HOSTNAME: {
        int64_t d = 0;
        for (size_t j = 0; j < m; j++)
            d += local[j] != host[j];
        return d;
    }
    case NLB_LEVENSHTEIN: return levenshtein(local, host);
    case NLB_COMMON_PREFIX:
        while (k < m && local[k] == host[k])
            k++;
        return -(int64_t)k;
    case NLB_COMMON_SUFFIX:
        while (k < m && local[ll - 1 - k] == host[lh - 1 - k])
            k++;
        return -(int64_t)k;
    case NLB_IN_ORDER: return i;
    case NLB_FIRST_OR_RANDOM: return i != f->first_offset;
    case NLB_ROUND_ROBIN: {
        int u = (int)(last_used % (unsigned)n);
        if (i < u)
            return n - 1 - (u - i);
        if (i > u)
            return i - u - 1;
        return n - 1;
    }
    default: return 0;
    }
}

void nclient_replica_order(const nclient_failover *f, const char *const *hosts, int n, _Atomic unsigned *rr,
                           int *order)
{
    char local[256] = "";
    if (f->lb >= NLB_NEAREST_HOSTNAME && f->lb <= NLB_COMMON_SUFFIX && gethostname(local, sizeof local - 1))
        local[0] = 0;
    unsigned last_used = 0;
    if (f->lb == NLB_ROUND_ROBIN && rr)
        last_used = atomic_fetch_add(rr, 1u);
    int64_t *prio = xcalloc((size_t)n + 1, sizeof *prio);
    uint64_t *tie = xcalloc((size_t)n + 1, sizeof *tie);
    for (int i = 0; i < n; i++) {
        order[i] = i;
        prio[i] = lb_priority(f, local, hosts[i], i, n, last_used);
        tie[i] = rand_u64();
    }
    /* insertion sort by (priority, random): shards have a handful of replicas */
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0; j--) {
            int a = order[j - 1], b = order[j];
            if (prio[a] < prio[b] || (prio[a] == prio[b] && tie[a] <= tie[b]))
                break;
            order[j - 1] = b;
            order[j] = a;
        }
    free(prio);
    free(tie);
}

int nclient_connect_replicas(const nclient_opts *o, int n, const nclient_failover *f, _Atomic unsigned *rr,
                             nclient **out)
{
    const char **hosts = xcalloc((size_t)n + 1, sizeof *hosts);
    int *order = xcalloc((size_t)n + 1, sizeof *order);
    for (int i = 0; i < n; i++)
        hosts[i] = o[i].host;
    nclient_replica_order(f, hosts, n, rr, order);
    int rc = connect_in_order(o, n, order, f->max_tries, f->connect_timeout_ms, out);
    free(hosts);
    free(order);
    return rc;
}

void nclient_serve_read_tasks(nclient *c) { c->serves_read_tasks = true; }

int nclient_send_read_task_response(nclient *c, const char *path)
{
    c->wbuf.len = 0;
    native_put_varuint(&c->wbuf, NC_READ_TASK_RESPONSE);
    native_put_varuint(&c->wbuf, NATIVE_CLUSTER_PROTOCOL_VERSION);
    native_put_string(&c->wbuf, path);
    return send_buf(c, &c->wbuf);
}

int nclient_send_data(nclient *c, const schema *header, const block *b)
{
    static const schema empty = {0};
    return native_send_block(&c->wbuf, &c->scratch, NC_DATA, c->rev, c->codec, b ? header : &empty, b, send_piece,
                             c);
}

int nclient_query(nclient *c, const char *query_id, const char *initial_query_id, const char *text, const native_kv *settings, int nsettings,
                  const native_kv *params, int nparams, int stage, const char *initial_user)
{
    const char *qid = query_id ? query_id : "";
    const char *iuser = initial_user ? initial_user : c->user;
    unsigned char hash[32];
    bool hashed = false;
    if (c->secret) {
        /* As ClickHouse's Connection::sendQuery: only a secondary query carries the hash. */
        if (!initial_query_id)
            return err_set(ERR_NOT_IMPLEMENTED, "An initial query over an inter-server connection to %s "
                                                "(only queries of another query carry the secret's hash)", c->peer);
        if (native_interserver_hash(c->salt, sizeof c->salt, c->server.has_nonce, c->server.nonce, c->secret, text,
                                    qid, iuser, hash))
            return -1;
        hashed = true;
    }
    c->wbuf.len = 0;
    native_write_query(&c->wbuf, c->rev, qid, initial_query_id, c->client_name, iuser, settings, nsettings,
                       hashed ? hash : NULL, (uint64_t)stage, c->codec != NULL, text, params, nparams);
    if (send_buf(c, &c->wbuf))
        return -1;
    return nclient_send_data(c, NULL, NULL);
}

void nclient_packet_clear(nclient_packet *p)
{
    schema_free(p->header);
    block_free(p->b);
    free(p->message);
    free(p->text);
    memset(p, 0, sizeof *p);
}

void nclient_pass_native(nclient *c, outstream *out) { c->pass_native = out; }

int nclient_receive(nclient *c, nclient_packet *p)
{
    memset(p, 0, sizeof *p);
    uint64_t type;
    if (native_read_varuint(c->in, &type))
        return err_prefix("Reading a packet from server %s: ", c->peer);
    p->type = (int)type;
    int rc = 0;
    switch (type) {
    case NS_DATA:
        if (c->pass_native) {
            rc = native_pass_data(c->in, c->rev, c->codec != NULL, c->pass_native, &p->rows);
            break;
        }
        rc = native_read_data(c->in, c->rev, c->codec != NULL, &p->header, &p->b);
        break;
    case NS_TOTALS:
    case NS_EXTREMES:
        rc = native_read_data(c->in, c->rev, c->codec != NULL, &p->header, &p->b);
        break;
    case NS_LOG:
    case NS_PROFILE_EVENTS:
        /* Never compressed: the server writes them to the connection directly. */
        rc = native_read_data(c->in, c->rev, false, &p->header, &p->b);
        break;
    case NS_EXCEPTION: rc = native_read_exception(c->in, &p->code, &p->message); break;
    case NS_PROGRESS: rc = native_read_progress(c->in, c->rev, &p->progress); break;
    case NS_PROFILE_INFO: rc = native_read_profile_info(c->in, c->rev, &p->profile); break;
    case NS_TABLE_COLUMNS: rc = native_read_table_columns(c->in, &p->text); break;
    case NS_TIMEZONE_UPDATE: rc = native_read_string(c->in, "the time zone", &p->text); break;
    case NS_PONG:
    case NS_END_OF_STREAM: break;
    case NS_READ_TASK_REQUEST:
        /* A worker of s3Cluster asks for its next object (no body). */
        if (!c->serves_read_tasks)
            rc = err_set(ERR_UNEXPECTED_PACKET_FROM_SERVER, "Unexpected packet ReadTaskRequest from server %s (it "
                                                            "only comes to the initiator of a *Cluster function)",
                         c->peer);
        break;
    case NS_HELLO:
    case NS_TABLES_STATUS_RESPONSE:
    case NS_PART_UUIDS:
    case 15: /* MergeTreeAllRangesAnnouncement */
    case 16: /* MergeTreeReadTaskRequest */
        rc = err_set(ERR_UNEXPECTED_PACKET_FROM_SERVER, "Unexpected packet %llu from server %s (shale does not ask for it)",
                     (unsigned long long)type, c->peer);
        break;
    default:
        rc = err_set(ERR_UNKNOWN_PACKET_FROM_SERVER, "Unknown packet %llu from server %s", (unsigned long long)type,
                     c->peer);
    }
    if (rc) {
        nclient_packet_clear(p);
        return err_prefix("Reading a packet from server %s: ", c->peer);
    }
    return 0;
}
