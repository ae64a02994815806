/* HTTP/1.1 on one connection: requests in, responses out.
 *
 * A request is read into a bounded buffer (request line and headers; oversized headers,
 * malformed lines and a client that stalls past the receive timeout end the request with
 * the status to answer). Its body is read as a stream (Content-Length or chunked), never
 * held whole. A response sends its status and headers lazily, just before the first body
 * bytes (so an error found before any output still gets its own status), then a chunked
 * body; or, for responses that know their whole body, a Content-Length one.
 *
 * Thread-safety: a connection belongs to one thread. Errors: -1 with err_set; the
 * connection is then unusable (http_conn.broken). */
#ifndef SHALE_SERVER_HTTP_CONN_H
#define SHALE_SERVER_HTTP_CONN_H

#include "base/arena.h"
#include "base/buf.h"
#include "io/stream.h"

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct http_conn {
    int fd;
    char peer[64];             /* "ip" of the client */
    char *in;                  /* bytes received and not consumed: in[in_pos..in_len) */
    size_t in_pos, in_len, in_cap;
    int recv_timeout_ms;       /* each wait for bytes from the client */
    int send_timeout_ms;       /* each wait for the client to take bytes */
    size_t max_header_bytes;   /* request line + headers */
    bool broken;               /* an I/O error or a protocol violation: close after this */
    volatile int *stop;        /* set by the server on shutdown: idle waits end early */
} http_conn;

typedef struct http_header {
    char *name;
    char *value;
    bool sent;                 /* already on the wire (after srv_response_begin_headers) */
} http_header;

typedef struct srv_request {
    char method[16];
    char *target;              /* as sent: /path?query */
    char *path;                /* percent-decoded path */
    char *query;               /* the raw query string (after '?'), or "" */
    int version_minor;         /* HTTP/1.x */
    int nheaders;
    http_header *headers;
    bool keep_alive;
    bool chunked;              /* Transfer-Encoding: chunked */
    bool has_length;
    uint64_t content_length;
    bool expect_continue;
    /* body reading state */
    uint64_t body_left;        /* Content-Length bytes left, or bytes left in the chunk */
    bool body_done;
    bool continue_sent;
    http_conn *conn;
    arena mem;                 /* target, path, query and the headers: one allocation, not two per header */
} srv_request;

void http_conn_init(http_conn *c, int fd);
void http_conn_free(http_conn *c);

/* Reads the next request. Returns 0 with *rq filled, 1 when the client closed the
 * connection (or stopped) between requests, or -1 with *status the HTTP status to answer
 * (400, 408, 413, 414, 431, 501, 505) and the error in err_msg(). */
int srv_read_request(http_conn *c, srv_request *rq, int *status);
void srv_request_free(srv_request *rq);
/* The header's value (case-insensitive name), or NULL. */
const char *http_header_get(const srv_request *rq, const char *name);

/* The request body as a stream (borrows the connection; closing it does not close the
 * connection). Sends "100 Continue" first when the client asked for it. */
instream *http_body_stream(srv_request *rq);
/* Reads and discards what is left of the body, so the next request can be read. -1 when
 * the body cannot be consumed (the connection must then be closed). */
int http_body_drain(srv_request *rq);

/* Percent-decoding ('+' is a space in query strings). Appends to out. */
void http_url_decode(buf *out, const char *s, size_t n, bool plus_is_space);
/* Iterates over name=value pairs of a query string: *pos starts at 0; returns false at the
 * end. name and value are decoded into the buffers (reset each call). */
bool http_query_next(const char *query, size_t *pos, buf *name, buf *value);

/* ---- responses ---- */

typedef struct srv_response {
    http_conn *conn;
    int status;
    int nheaders;
    http_header *headers;
    bool head_only;            /* HEAD: headers only */
    bool keep_alive;
    bool headers_sent;
    bool chunked;              /* body sent in chunks (set when headers go out without a length) */
    bool finished;
    uint64_t body_bytes;
    buf out;                   /* bytes not sent yet (sent at 64 KiB, at the end, or on flush) */
    bool headers_open;         /* status line and some headers sent; more header lines may follow */
    pthread_mutex_t mu;        /* headers: set by the handler while another thread sends progress lines */
    arena mem;                 /* the headers' names and values (a replaced value stays until the end) */
    int cap_headers;
} srv_response;

void srv_response_init(srv_response *r, http_conn *c, bool keep_alive);
void srv_response_free(srv_response *r);
/* Sets (replaces) a header; only before the headers are sent. */
void srv_response_set_header(srv_response *r, const char *name, const char *value);
/* Sends the status line and the headers set so far, leaving the header block open, so that
 * header lines can follow while the result is not ready (X-ClickHouse-Progress); the status
 * can no longer change. Then srv_response_header_line sends one more line at once. Both may
 * run on another thread than the handler's, which must not write meanwhile (it may set
 * headers: they are guarded). */
int srv_response_begin_headers(srv_response *r);
int srv_response_header_line(srv_response *r, const char *name, const char *value);
/* Sends the status line and headers for a chunked body (nothing if already sent). */
int srv_response_start(srv_response *r);
/* Writes body bytes (sending the headers first if needed). */
int srv_response_write(srv_response *r, const void *p, size_t n);
/* Sends what is gathered (writes are gathered up to 64 KiB before they go out). */
int srv_response_flush(srv_response *r);
/* Ends the body (the last chunk) and sends what is gathered. */
int srv_response_finish(srv_response *r);
/* A whole response with a known body: status, headers, Content-Length and the body. */
int srv_response_send_full(srv_response *r, int status, const char *content_type, const void *body, size_t n);
/* The reason phrase of a status code. */
const char *http_status_text(int status);

#endif
