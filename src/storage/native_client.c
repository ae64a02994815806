/* The native protocol's client side (see native_client.h). */
#include "storage/native_client.h"

#include "base/err.h"
#include "base/mem.h"
#include "codec/compress.h"
#include "format/native_block.h"
#include "io/tcp.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
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
    bool serves_read_tasks;    /* ReadTaskRequest is a packet, not an error */
};

static int send_buf(nclient *c, const buf *b) { return tcp_send_all(c->fd, b->p, b->len, c->send_timeout_ms, c->peer); }

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
    c->in = rbuf_new(c->sock, 1 << 16);
    buf b = {0};
    native_write_client_hello(&b, c->client_name, o->database ? o->database : "", c->user,
                              o->password ? o->password : "");
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

int nclient_connect_any(const nclient_opts *o, int n, nclient **out)
{
    buf log = {0};
    for (int i = 0; i < n; i++) {
        if (nclient_connect(&o[i], out) == 0) {
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
    c->wbuf.len = 0;
    native_write_block(&c->wbuf, &c->scratch, NC_DATA, c->rev, c->codec, b ? header : &empty, b);
    return send_buf(c, &c->wbuf);
}

int nclient_query(nclient *c, const char *query_id, const char *initial_query_id, const char *text, const native_kv *settings, int nsettings,
                  const native_kv *params, int nparams, int stage, const char *secret_hash)
{
    c->wbuf.len = 0;
    native_write_query(&c->wbuf, c->rev, query_id ? query_id : "", initial_query_id, c->client_name, c->user, settings, nsettings,
                       secret_hash, (uint64_t)stage, c->codec != NULL, text, params, nparams);
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
