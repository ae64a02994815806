/* HTTP/1.1 requests and responses on one connection (see http_conn.h). */
#include "server/http_conn.h"

#include "base/err.h"
#include "base/mem.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

void http_conn_init(http_conn *c, int fd)
{
    memset(c, 0, sizeof *c);
    c->fd = fd;
    c->in_cap = 16 * 1024; /* grows for large heads; idle connections stay small */
    c->in = xmalloc(c->in_cap);
    c->recv_timeout_ms = 30000;
    c->send_timeout_ms = 30000;
    c->max_header_bytes = 64 * 1024;
}

void http_conn_free(http_conn *c)
{
    free(c->in);
    c->in = NULL;
}

static int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Waits until fd is ready for `events` or timeout_ms passes (the server's stop flag ends
 * the wait early when `stoppable`). 1 = ready, 0 = timed out or stopped, -1 = error. */
static int wait_fd(http_conn *c, short events, int timeout_ms, bool stoppable)
{
    int64_t deadline = now_ms() + timeout_ms;
    for (;;) {
        if (stoppable && c->stop && *c->stop)
            return 0;
        int64_t left = deadline - now_ms();
        if (left <= 0)
            return 0;
        struct pollfd p = {.fd = c->fd, .events = events};
        int slice = left > 200 ? 200 : (int)left;
        int n = poll(&p, 1, slice);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return -1;
        if (n > 0)
            return 1;
    }
}

/* Receives up to cap bytes into buf, waiting up to timeout_ms for the first. >0 = bytes
 * received, 0 = the peer closed, -1 = error or timeout (err_set, the connection is broken). */
static ssize_t recv_some(http_conn *c, char *buf, size_t cap, int timeout_ms, bool stoppable)
{
    /* The bytes are often there already (a pipelined or quick client): no poll then. */
    ssize_t first = recv(c->fd, buf, cap, MSG_DONTWAIT);
    if (first >= 0)
        return first;
    int w = wait_fd(c, POLLIN, timeout_ms, stoppable);
    if (w < 0) {
        c->broken = true;
        return err_set(ERR_NETWORK_ERROR, "Cannot read from socket (%s): %s", c->peer, strerror(errno));
    }
    if (w == 0) {
        c->broken = true;
        return err_set(ERR_SOCKET_TIMEOUT, "Timeout exceeded while reading from socket (%s, %d ms)", c->peer,
                       timeout_ms);
    }
    for (;;) {
        ssize_t n = recv(c->fd, buf, cap, 0);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            c->broken = true;
            return err_set(ERR_NETWORK_ERROR, "Cannot read from socket (%s): %s", c->peer, strerror(errno));
        }
        return n;
    }
}

/* Receives more bytes into the input buffer. 1 = got some, 0 = the peer closed, -1 =
 * error or timeout (err_set). */
static int recv_more(http_conn *c, int timeout_ms, bool stoppable)
{
    if (c->in_pos > 0 && c->in_pos == c->in_len)
        c->in_pos = c->in_len = 0;
    if (c->in_len == c->in_cap) {
        if (c->in_pos > 0) {
            memmove(c->in, c->in + c->in_pos, c->in_len - c->in_pos);
            c->in_len -= c->in_pos;
            c->in_pos = 0;
        } else {
            c->in_cap *= 2;
            c->in = xrealloc(c->in, c->in_cap);
        }
    }
    ssize_t n = recv_some(c, c->in + c->in_len, c->in_cap - c->in_len, timeout_ms, stoppable);
    if (n <= 0)
        return (int)n;
    c->in_len += (size_t)n;
    return 1;
}

static int send_all(http_conn *c, const void *p, size_t n)
{
    const char *s = p;
    while (n) {
        ssize_t w = send(c->fd, s, n, MSG_NOSIGNAL | MSG_DONTWAIT);
        if (w < 0 && errno == EINTR)
            continue;
        if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            int r = wait_fd(c, POLLOUT, c->send_timeout_ms, false);
            if (r <= 0) {
                c->broken = true;
                return err_set(r == 0 ? ERR_SOCKET_TIMEOUT : ERR_NETWORK_ERROR,
                               "Timeout exceeded while writing to socket (%s, %d ms)", c->peer, c->send_timeout_ms);
            }
            continue;
        }
        if (w < 0) {
            c->broken = true;
            return err_set(ERR_NETWORK_ERROR, "Cannot write to socket (%s): %s", c->peer, strerror(errno));
        }
        s += w;
        n -= (size_t)w;
    }
    return 0;
}

/* ---- requests ---- */

static int hexval(int ch)
{
    if (ch >= '0' && ch <= '9')
        return ch - '0';
    if (ch >= 'a' && ch <= 'f')
        return ch - 'a' + 10;
    if (ch >= 'A' && ch <= 'F')
        return ch - 'A' + 10;
    return -1;
}

void http_url_decode(buf *out, const char *s, size_t n, bool plus_is_space)
{
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '%' && i + 2 < n && hexval((unsigned char)s[i + 1]) >= 0 && hexval((unsigned char)s[i + 2]) >= 0) {
            buf_putc(out, (char)(hexval((unsigned char)s[i + 1]) * 16 + hexval((unsigned char)s[i + 2])));
            i += 2;
        } else if (s[i] == '+' && plus_is_space) {
            buf_putc(out, ' ');
        } else {
            buf_putc(out, s[i]);
        }
    }
}

bool http_query_next(const char *query, size_t *pos, buf *name, buf *value)
{
    size_t n = strlen(query);
    while (*pos < n && query[*pos] == '&')
        (*pos)++;
    if (*pos >= n)
        return false;
    size_t start = *pos;
    while (*pos < n && query[*pos] != '&')
        (*pos)++;
    const char *kv = query + start;
    size_t len = *pos - start;
    const char *eq = memchr(kv, '=', len);
    name->len = 0;
    value->len = 0;
    http_url_decode(name, kv, eq ? (size_t)(eq - kv) : len, true);
    if (eq)
        http_url_decode(value, eq + 1, len - (size_t)(eq + 1 - kv), true);
    buf_cstr(name);
    buf_cstr(value);
    return true;
}

const char *http_header_get(const srv_request *rq, const char *name)
{
    for (int i = 0; i < rq->nheaders; i++)
        if (strcasecmp(rq->headers[i].name, name) == 0)
            return rq->headers[i].value;
    return NULL;
}

void srv_request_free(srv_request *rq)
{
    arena_free(&rq->mem);
    memset(rq, 0, sizeof *rq);
}

static char *trimmed(arena *a, const char *s, size_t n)
{
    while (n && (*s == ' ' || *s == '\t')) {
        s++;
        n--;
    }
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
        n--;
    return arena_strndup(a, s, n);
}

/* Finds the end of the header block ("\r\n\r\n", or "\n\n" from lax clients). */
static const char *header_end(const char *p, size_t n, size_t *skip)
{
    for (size_t i = 0; i + 1 < n; i++) {
        if (p[i] == '\n' && p[i + 1] == '\n') {
            *skip = 2;
            return p + i;
        }
        if (i + 3 < n && p[i] == '\r' && p[i + 1] == '\n' && p[i + 2] == '\r' && p[i + 3] == '\n') {
            *skip = 4;
            return p + i;
        }
    }
    return NULL;
}

static int bad(int *status, int code, int err, const char *what)
{
    *status = code;
    return err_set(err, "%s", what);
}

static int parse_head(srv_request *rq, const char *p, size_t n, int *status)
{
    const char *end = p + n;
    const char *eol = memchr(p, '\n', n);
    if (!eol)
        eol = end;
    size_t llen = (size_t)(eol - p);
    if (llen && p[llen - 1] == '\r')
        llen--;
    /* METHOD SP target SP HTTP/1.x */
    const char *sp1 = memchr(p, ' ', llen);
    const char *sp2 = sp1 ? memchr(sp1 + 1, ' ', (size_t)(p + llen - sp1 - 1)) : NULL;
    if (!sp1 || !sp2 || sp1 == p || sp2 == sp1 + 1 || (size_t)(sp1 - p) >= sizeof rq->method)
        return bad(status, 400, ERR_BAD_ARGUMENTS, "Malformed HTTP request line");
    memcpy(rq->method, p, (size_t)(sp1 - p));
    rq->method[sp1 - p] = 0;
    for (char *m = rq->method; *m; m++)
        if (*m < 'A' || *m > 'Z')
            return bad(status, 400, ERR_BAD_ARGUMENTS, "Malformed HTTP method");
    const char *ver = sp2 + 1;
    size_t vlen = (size_t)(p + llen - ver);
    if (vlen != 8 || strncmp(ver, "HTTP/1.", 7) != 0 || (ver[7] != '0' && ver[7] != '1'))
        return bad(status, 505, ERR_BAD_ARGUMENTS, "Unsupported HTTP version");
    rq->version_minor = ver[7] - '0';
    rq->target = arena_strndup(&rq->mem, sp1 + 1, (size_t)(sp2 - sp1 - 1));
    const char *q = strchr(rq->target, '?');
    buf path = {0};
    http_url_decode(&path, rq->target, q ? (size_t)(q - rq->target) : strlen(rq->target), false);
    rq->path = arena_strdup(&rq->mem, buf_cstr(&path));
    buf_free(&path);
    rq->query = arena_strdup(&rq->mem, q ? q + 1 : "");
    rq->keep_alive = rq->version_minor == 1;
    /* headers */
    const char *h = eol < end ? eol + 1 : end;
    int cap = 0;
    while (h < end) {
        const char *e = memchr(h, '\n', (size_t)(end - h));
        if (!e)
            e = end;
        size_t len = (size_t)(e - h);
        if (len && h[len - 1] == '\r')
            len--;
        if (len == 0)
            break;
        const char *colon = memchr(h, ':', len);
        if (!colon || colon == h || h[0] == ' ' || h[0] == '\t')
            return bad(status, 400, ERR_BAD_ARGUMENTS, "Malformed HTTP header line");
        if (rq->nheaders == cap) {
            cap = cap ? cap * 2 : 16;
            if (cap > 1024)
                return bad(status, 431, ERR_BAD_ARGUMENTS, "Too many HTTP headers");
            http_header *grown = ARENA_ARRAY(&rq->mem, http_header, cap);
            if (rq->nheaders)
                memcpy(grown, rq->headers, sizeof *grown * (size_t)rq->nheaders);
            rq->headers = grown;
        }
        http_header *hd = &rq->headers[rq->nheaders++];
        hd->name = arena_strndup(&rq->mem, h, (size_t)(colon - h));
        hd->value = trimmed(&rq->mem, colon + 1, (size_t)(h + len - colon - 1));
        h = e + 1;
    }
    const char *conn = http_header_get(rq, "Connection");
    if (conn && strcasecmp(conn, "close") == 0)
        rq->keep_alive = false;
    if (conn && strcasecmp(conn, "keep-alive") == 0)
        rq->keep_alive = true;
    const char *te = http_header_get(rq, "Transfer-Encoding");
    const char *cl = http_header_get(rq, "Content-Length");
    if (te) {
        if (strcasecmp(te, "chunked") != 0)
            return bad(status, 501, ERR_BAD_ARGUMENTS, "Unsupported Transfer-Encoding");
        rq->chunked = true;
    } else if (cl) {
        char *endp;
        errno = 0;
        unsigned long long v = strtoull(cl, &endp, 10);
        if (errno || *endp || endp == cl || cl[0] == '-')
            return bad(status, 400, ERR_BAD_ARGUMENTS, "Malformed Content-Length");
        rq->has_length = true;
        rq->content_length = v;
        rq->body_left = v;
    }
    if (!rq->chunked && !rq->has_length)
        rq->body_done = true; /* no body */
    if (rq->has_length && rq->content_length == 0)
        rq->body_done = true;
    const char *ex = http_header_get(rq, "Expect");
    rq->expect_continue = ex && strcasecmp(ex, "100-continue") == 0;
    return 0;
}

int srv_read_request(http_conn *c, srv_request *rq, int *status)
{
    memset(rq, 0, sizeof *rq);
    rq->conn = c;
    *status = 400;
    int64_t started = now_ms();
    bool first = true;
    for (;;) {
        size_t skip = 0;
        const char *he = header_end(c->in + c->in_pos, c->in_len - c->in_pos, &skip);
        if (he) {
            size_t n = (size_t)(he - (c->in + c->in_pos));
            if (n > c->max_header_bytes) {
                c->broken = true;
                return bad(status, 431, ERR_BAD_ARGUMENTS, "HTTP request headers are too large");
            }
            int rc = parse_head(rq, c->in + c->in_pos, n, status);
            c->in_pos += n + skip;
            if (rc)
                c->broken = true;
            return rc;
        }
        if (c->in_len - c->in_pos > c->max_header_bytes) {
            c->broken = true;
            return bad(status, 431, ERR_BAD_ARGUMENTS, "HTTP request headers are too large");
        }
        bool idle = c->in_len == c->in_pos;
        /* Between requests the keep-alive timeout applies; once a request has begun, the
         * whole head must arrive within the receive timeout (a client sending one byte a
         * second is cut off). */
        int timeout = c->recv_timeout_ms - (int)(now_ms() - started);
        if (timeout <= 0) {
            c->broken = true;
            return bad(status, 408, ERR_SOCKET_TIMEOUT, "Timeout exceeded while reading the HTTP request");
        }
        int r = recv_more(c, timeout, idle);
        if (r == 0 || (r < 0 && idle && first)) {
            c->broken = true;
            return 1; /* closed, timed out idle, or stopping: no request */
        }
        if (r < 0) {
            *status = 408;
            return -1;
        }
        first = false;
    }
}

/* ---- request bodies ---- */

typedef struct body_stream {
    instream base;
    srv_request *rq;
} body_stream;

/* Parses a chunk-size line, [start, nl) with nl at its '\n'. 0 or -1 (err_set). */
static int parse_chunk_size(const char *start, const char *nl, uint64_t *size)
{
    uint64_t v = 0;
    int digits = 0;
    const char *p = start;
    for (; p < nl && hexval((unsigned char)*p) >= 0; p++, digits++) {
        if (v >> 60)
            return err_set(ERR_BAD_ARGUMENTS, "Chunk size is too large in the HTTP body");
        v = v * 16 + (uint64_t)hexval((unsigned char)*p);
    }
    if (!digits || (p < nl && *p != ';' && *p != '\r'))
        return err_set(ERR_BAD_ARGUMENTS, "Malformed chunk size in the HTTP body");
    *size = v;
    return 0;
}

/* Reads a line of the chunked framing ("size[;ext]\r\n"). */
static int read_chunk_size(srv_request *rq, uint64_t *size)
{
    http_conn *c = rq->conn;
    for (;;) {
        char *start = c->in + c->in_pos;
        char *nl = memchr(start, '\n', c->in_len - c->in_pos);
        if (nl) {
            if (parse_chunk_size(start, nl, size))
                return -1;
            c->in_pos = (size_t)(nl + 1 - c->in);
            return 0;
        }
        if (c->in_len - c->in_pos > 4096)
            return err_set(ERR_BAD_ARGUMENTS, "Malformed chunk header in the HTTP body");
        int r = recv_more(c, c->recv_timeout_ms, false);
        if (r < 0)
            return -1;
        if (r == 0)
            return err_set(ERR_CANNOT_READ_ALL_DATA, "The client closed the connection in the middle of the body");
    }
}

/* Consumes the CRLF after a chunk's data. */
static int read_crlf(srv_request *rq)
{
    http_conn *c = rq->conn;
    while (c->in_len - c->in_pos < 2) {
        if (c->in_len - c->in_pos == 1 && c->in[c->in_pos] == '\n')
            break;
        int r = recv_more(c, c->recv_timeout_ms, false);
        if (r < 0)
            return -1;
        if (r == 0)
            return err_set(ERR_CANNOT_READ_ALL_DATA, "The client closed the connection in the middle of the body");
    }
    if (c->in[c->in_pos] == '\r')
        c->in_pos++;
    if (c->in_pos < c->in_len && c->in[c->in_pos] == '\n') {
        c->in_pos++;
        return 0;
    }
    return err_set(ERR_BAD_ARGUMENTS, "Malformed chunk terminator in the HTTP body");
}

/* Below this a reader's request goes through the input buffer (small reads would each be a
 * system call). */
#define DIRECT_RECV_MIN 8192

static int send_continue(srv_request *rq)
{
    if (!rq->expect_continue || rq->continue_sent)
        return 0;
    rq->continue_sent = true;
    static const char msg[] = "HTTP/1.1 100 Continue\r\n\r\n";
    return send_all(rq->conn, msg, sizeof msg - 1);
}

/* Bookkeeping after n bytes of the body reached the reader; at the end of a chunk the CRLF
 * that closes it is consumed. 0 or -1 (err_set, the connection is broken). */
static int body_consumed(srv_request *rq, instream *s, size_t n, size_t *got)
{
    rq->body_left -= n;
    s->offset += n;
    *got = n;
    if (rq->body_left == 0) {
        if (rq->chunked) {
            if (read_crlf(rq)) {
                rq->conn->broken = true;
                return -1;
            }
        } else {
            rq->body_done = true;
        }
    }
    return 0;
}

/* Keeps bytes received past what the reader can take (the framing of a chunk not yet
 * complete, the last chunk and trailers, a pipelined next request) in the input buffer,
 * which is empty when this is called. */
static void stash_input(http_conn *c, const char *p, size_t n)
{
    if (n > c->in_cap) {
        c->in_cap = n;
        c->in = xrealloc(c->in, c->in_cap);
    }
    memcpy(c->in, p, n);
    c->in_pos = 0;
    c->in_len = n;
}

/* Removes the chunked framing from the n bytes received into d (which began inside a chunk
 * with rq->body_left bytes left in it), moving data down over it. What cannot be decided
 * yet — an incomplete size line, the last chunk — is stashed in the input buffer for the
 * ordinary path. *got = data bytes left in d, possibly 0 (the caller reads again). */
static int dechunk_in_place(srv_request *rq, instream *s, char *d, size_t n, size_t *got)
{
    http_conn *c = rq->conn;
    size_t r = 0, w = 0;
    bool crlf_pending = false;
    for (;;) {
        size_t take = n - r < rq->body_left ? n - r : (size_t)rq->body_left;
        if (take && w != r)
            memmove(d + w, d + r, take);
        w += take;
        r += take;
        rq->body_left -= take;
        if (r == n) {
            crlf_pending = rq->body_left == 0;
            break;
        }
        /* the CRLF that ends the chunk (a bare LF is accepted, as read_crlf does) */
        if (d[r] == '\n') {
            r++;
        } else if (d[r] == '\r' && r + 1 == n) {
            stash_input(c, d + r, 1);
            crlf_pending = true;
            break;
        } else if (d[r] == '\r' && d[r + 1] == '\n') {
            r += 2;
        } else {
            err_set(ERR_BAD_ARGUMENTS, "Malformed chunk terminator in the HTTP body");
            goto fail;
        }
        const char *nl = memchr(d + r, '\n', n - r);
        uint64_t size = 0;
        if (nl && parse_chunk_size(d + r, nl, &size))
            goto fail;
        if (!nl || size == 0) { /* read_chunk_size takes it from there */
            stash_input(c, d + r, n - r);
            break;
        }
        r = (size_t)(nl + 1 - d);
        rq->body_left = size;
    }
    s->offset += w;
    *got = w;
    if (crlf_pending && read_crlf(rq))
        goto fail;
    return 0;
fail:
    c->broken = true;
    return -1;
}

static int body_read_some(instream *s, void *dst, size_t cap, size_t *got)
{
    body_stream *b = (body_stream *)s;
    srv_request *rq = b->rq;
    http_conn *c = rq->conn;
    *got = 0;
    if (rq->body_done || cap == 0)
        return 0;
    if (send_continue(rq))
        return -1;
    if (rq->chunked && rq->body_left == 0) {
        uint64_t size = 0;
        if (read_chunk_size(rq, &size))
            goto fail;
        if (size == 0) {
            /* trailers until an empty line */
            for (;;) {
                char *start = c->in + c->in_pos;
                char *nl = memchr(start, '\n', c->in_len - c->in_pos);
                if (nl) {
                    bool empty = nl == start || (nl == start + 1 && *start == '\r');
                    c->in_pos = (size_t)(nl + 1 - c->in);
                    if (empty)
                        break;
                    continue;
                }
                int r = recv_more(c, c->recv_timeout_ms, false);
                if (r <= 0) {
                    if (r == 0)
                        err_set(ERR_CANNOT_READ_ALL_DATA, "The client closed the connection in the chunked trailer");
                    goto fail;
                }
            }
            rq->body_done = true;
            return 0;
        }
        rq->body_left = size;
    }
    /* Nothing buffered and the reader wants a large piece: receive straight into its
     * buffer instead of through the 16 KiB input buffer and a copy (an INSERT's body is
     * almost all of a connection's bytes). A chunked body is received across chunk
     * boundaries and its framing removed in place: fewer, larger receives also mean
     * fewer window updates, which on loopback each run the peer's packet processing. */
    bool direct = c->in_pos == c->in_len && cap >= DIRECT_RECV_MIN;
    if (c->in_pos == c->in_len) {
        size_t want = cap;
        if (!rq->chunked && want > rq->body_left)
            want = (size_t)rq->body_left;
        ssize_t r = direct ? recv_some(c, dst, want, c->recv_timeout_ms, false)
                           : recv_more(c, c->recv_timeout_ms, false);
        if (r < 0)
            goto fail;
        if (r == 0) {
            err_set(ERR_CANNOT_READ_ALL_DATA,
                    "The client closed the connection before the end of the body (%llu bytes missing)",
                    (unsigned long long)rq->body_left);
            goto fail;
        }
        if (direct && !rq->chunked)
            return body_consumed(rq, s, (size_t)r, got);
        if (direct)
            return dechunk_in_place(rq, s, dst, (size_t)r, got) ? -1 : 0;
    }
    size_t n = c->in_len - c->in_pos;
    if (n > cap)
        n = cap;
    if (n > rq->body_left)
        n = (size_t)rq->body_left;
    memcpy(dst, c->in + c->in_pos, n);
    c->in_pos += n;
    return body_consumed(rq, s, n, got);
fail:
    c->broken = true;
    return -1;
}

/* A receive may bring only framing (a chunk's CRLF and size line): read until there is
 * data or the body ends, since 0 bytes would mean the end to the caller. */
static int body_read(instream *s, void *dst, size_t cap, size_t *got)
{
    body_stream *b = (body_stream *)s;
    int rc;
    do
        rc = body_read_some(s, dst, cap, got);
    while (rc == 0 && *got == 0 && cap > 0 && !b->rq->body_done);
    return rc;
}

static void body_close(instream *s) { free(s); }

instream *http_body_stream(srv_request *rq)
{
    body_stream *b = xcalloc(1, sizeof *b);
    b->base.read = body_read;
    b->base.close = body_close;
    b->base.name = "HTTP request body";
    b->base.size_hint = rq->has_length ? rq->content_length : 0;
    b->rq = rq;
    return &b->base;
}

int http_body_drain(srv_request *rq)
{
    if (rq->body_done)
        return 0;
    /* A client waiting for 100 Continue has sent nothing: there is nothing to drain, but
     * the connection cannot be reused either. */
    if (rq->expect_continue && !rq->continue_sent) {
        rq->conn->broken = true;
        return -1;
    }
    instream *s = http_body_stream(rq);
    char tmp[16384];
    int rc = 0;
    uint64_t total = 0;
    for (;;) {
        size_t got;
        if ((rc = s->read(s, tmp, sizeof tmp, &got)) || got == 0)
            break;
        total += got;
        if (total > (64u << 20)) { /* not worth reading a large unread body: close instead */
            rq->conn->broken = true;
            rc = -1;
            break;
        }
    }
    s->close(s);
    return rc;
}

/* ---- responses ---- */

const char *http_status_text(int status)
{
    switch (status) {
    case 100: return "Continue";
    case 200: return "OK";
    case 204: return "No Content";
    case 400: return "Bad Request";
    case 401: return "Unauthorized";
    case 403: return "Forbidden";
    case 404: return "Not Found";
    case 405: return "Method Not Allowed";
    case 408: return "Request Timeout";
    case 411: return "Length Required";
    case 413: return "Payload Too Large";
    case 414: return "URI Too Long";
    case 418: return "I'm a teapot";
    case 431: return "Request Header Fields Too Large";
    case 500: return "Internal Server Error";
    case 501: return "Not Implemented";
    case 503: return "Service Unavailable";
    case 505: return "HTTP Version Not Supported";
    default: return "Unknown";
    }
}

void srv_response_init(srv_response *r, http_conn *c, bool keep_alive)
{
    memset(r, 0, sizeof *r);
    r->conn = c;
    r->status = 200;
    r->keep_alive = keep_alive;
    pthread_mutex_init(&r->mu, NULL);
}

void srv_response_free(srv_response *r)
{
    arena_free(&r->mem);
    r->headers = NULL;
    r->nheaders = r->cap_headers = 0;
    buf_free(&r->out);
    pthread_mutex_destroy(&r->mu);
}

static int out_put(srv_response *r, const void *p, size_t n);

void srv_response_set_header(srv_response *r, const char *name, const char *value)
{
    if (r->headers_sent)
        return;
    pthread_mutex_lock(&r->mu);
    int i = 0;
    while (i < r->nheaders && strcasecmp(r->headers[i].name, name) != 0)
        i++;
    if (i < r->nheaders && r->headers[i].sent) {
        /* already on the wire (srv_response_begin_headers): it stays as sent */
    } else if (i < r->nheaders) {
        r->headers[i].value = arena_strdup(&r->mem, value);
    } else {
        if (r->nheaders == r->cap_headers) {
            r->cap_headers = r->cap_headers ? r->cap_headers * 2 : 16;
            http_header *grown = ARENA_ARRAY(&r->mem, http_header, r->cap_headers);
            if (r->nheaders)
                memcpy(grown, r->headers, sizeof *grown * (size_t)r->nheaders);
            r->headers = grown;
        }
        r->headers[r->nheaders++] =
            (http_header){.name = arena_strdup(&r->mem, name), .value = arena_strdup(&r->mem, value)};
    }
    pthread_mutex_unlock(&r->mu);
}

/* The status line, Date and Connection, then the headers not sent yet. */
static void put_head_start(srv_response *r, buf *h)
{
    if (!r->headers_open) {
        buf_printf(h, "HTTP/1.1 %d %s\r\n", r->status, http_status_text(r->status));
        char date[64];
        time_t t = time(NULL);
        struct tm tm;
        gmtime_r(&t, &tm);
        strftime(date, sizeof date, "%a, %d %b %Y %H:%M:%S GMT", &tm);
        buf_printf(h, "Date: %s\r\n", date);
        buf_printf(h, "Connection: %s\r\n", r->keep_alive ? "Keep-Alive" : "Close");
    }
    for (int i = 0; i < r->nheaders; i++)
        if (!r->headers[i].sent) {
            buf_printf(h, "%s: %s\r\n", r->headers[i].name, r->headers[i].value);
            r->headers[i].sent = true;
        }
}

int srv_response_begin_headers(srv_response *r)
{
    if (r->headers_sent || r->headers_open)
        return 0;
    buf h = {0};
    pthread_mutex_lock(&r->mu);
    put_head_start(r, &h);
    r->headers_open = true;
    pthread_mutex_unlock(&r->mu);
    int rc = out_put(r, h.p, h.len) || srv_response_flush(r) ? -1 : 0;
    buf_free(&h);
    return rc;
}

int srv_response_header_line(srv_response *r, const char *name, const char *value)
{
    if (r->headers_sent)
        return 0;
    if (!r->headers_open && srv_response_begin_headers(r))
        return -1;
    buf h = {0};
    buf_printf(&h, "%s: %s\r\n", name, value);
    int rc = out_put(r, h.p, h.len) || srv_response_flush(r) ? -1 : 0;
    buf_free(&h);
    return rc;
}

/* The response's bytes are gathered in r->out and sent when it holds OUT_FLUSH bytes or
 * the response ends: a short answer is one send(2), not one per header block and chunk. */
#define OUT_FLUSH 65536

int srv_response_flush(srv_response *r)
{
    if (!r->out.len)
        return 0;
    int rc = send_all(r->conn, r->out.p, r->out.len);
    r->out.len = 0;
    return rc;
}

static int out_put(srv_response *r, const void *p, size_t n)
{
    if (r->out.len + n >= OUT_FLUSH) {
        if (srv_response_flush(r))
            return -1;
        if (n >= OUT_FLUSH)
            return send_all(r->conn, p, n);
    }
    buf_append(&r->out, p, n);
    return 0;
}

static int send_head(srv_response *r, const char *length)
{
    buf h = {0};
    pthread_mutex_lock(&r->mu);
    put_head_start(r, &h);
    pthread_mutex_unlock(&r->mu);
    if (length)
        buf_printf(&h, "Content-Length: %s\r\n", length);
    else
        buf_puts(&h, "Transfer-Encoding: chunked\r\n");
    if (r->keep_alive)
        buf_printf(&h, "Keep-Alive: timeout=%d\r\n", 10);
    buf_puts(&h, "\r\n");
    r->headers_sent = true;
    r->chunked = length == NULL;
    int rc = out_put(r, h.p, h.len);
    buf_free(&h);
    return rc;
}

int srv_response_start(srv_response *r)
{
    if (r->headers_sent)
        return 0;
    return send_head(r, NULL);
}

int srv_response_write(srv_response *r, const void *p, size_t n)
{
    if (!r->headers_sent && srv_response_start(r))
        return -1;
    if (r->head_only || n == 0)
        return 0;
    r->body_bytes += n;
    if (!r->chunked)
        return out_put(r, p, n);
    char size[32];
    int k = snprintf(size, sizeof size, "%zx\r\n", n);
    if (out_put(r, size, (size_t)k) || out_put(r, p, n) || out_put(r, "\r\n", 2))
        return -1;
    return 0;
}

int srv_response_finish(srv_response *r)
{
    if (r->finished)
        return 0;
    if (!r->headers_sent && srv_response_start(r))
        return -1;
    r->finished = true;
    if (r->chunked && !r->head_only && out_put(r, "0\r\n\r\n", 5))
        return -1;
    return srv_response_flush(r);
}

int srv_response_send_full(srv_response *r, int status, const char *content_type, const void *body, size_t n)
{
    r->status = status;
    if (content_type)
        srv_response_set_header(r, "Content-Type", content_type);
    char len[32];
    snprintf(len, sizeof len, "%zu", n);
    if (send_head(r, len))
        return -1;
    r->finished = true;
    if (!r->head_only && n) {
        r->body_bytes = n;
        if (out_put(r, body, n))
            return -1;
    }
    return srv_response_flush(r);
}
