/* ClickHouse's HTTP interface: one request → one statement (see server.h).
 *
 * The query is the `query` URL parameter, followed (for POST) by a newline and the body;
 * an INSERT's data is whatever follows its FORMAT clause, streamed from the body. Other URL
 * parameters are settings, except the reserved ones below and param_<name> (query
 * parameters). The result is buffered up to buffer_size bytes (all of it with
 * wait_end_of_query=1) before the headers go out, so an error found early still gets its
 * own status; an error after that is written into the body between __exception__
 * markers with the response's exception tag, as ClickHouse 25.11+ does. */
#include "server/server_int.h"

#include "base/err.h"
#include "base/mem.h"
#include "codec/stream_codec.h"
#include "interp/interp.h"
#include "parse/ast.h"
#include "server/http_blocks.h"
#include "server/http_progress.h"
#include "server/play.h"

#include <ctype.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "base/version.h"

/* ---- status codes and content types ---- */

static int status_for(int code)
{
    static const struct {
        int status;
        const char *names;
    } groups[] = {
        {401, " REQUIRED_PASSWORD "},
        {403, " UNKNOWN_USER WRONG_PASSWORD AUTHENTICATION_FAILED SET_NON_GRANTED_ROLE ACCESS_DENIED "
              "IP_ADDRESS_NOT_ALLOWED "},
        {400, " BAD_ARGUMENTS CANNOT_COMPILE_REGEXP CANNOT_PARSE_TEXT CANNOT_PARSE_ESCAPE_SEQUENCE "
              "CANNOT_PARSE_QUOTED_STRING CANNOT_PARSE_DATE CANNOT_PARSE_DATETIME CANNOT_PARSE_NUMBER "
              "CANNOT_PARSE_DOMAIN_VALUE_FROM_STRING CANNOT_PARSE_IPV4 CANNOT_PARSE_IPV6 "
              "CANNOT_PARSE_INPUT_ASSERTION_FAILED CANNOT_PARSE_UUID DUPLICATE_COLUMN ILLEGAL_COLUMN "
              "UNKNOWN_ELEMENT_IN_AST UNKNOWN_TYPE_OF_AST_NODE THERE_IS_NO_COLUMN TOO_DEEP_AST TOO_BIG_AST "
              "UNEXPECTED_AST_STRUCTURE SYNTAX_ERROR INCORRECT_DATA TYPE_MISMATCH VALUE_IS_OUT_OF_RANGE_OF_DATA_TYPE "},
        {404, " UNKNOWN_TABLE UNKNOWN_FUNCTION UNKNOWN_IDENTIFIER UNKNOWN_TYPE UNKNOWN_STORAGE UNKNOWN_DATABASE "
              "UNKNOWN_SETTING UNKNOWN_DIRECTION_OF_SORTING UNKNOWN_AGGREGATE_FUNCTION UNKNOWN_FORMAT "
              "UNKNOWN_DATABASE_ENGINE UNKNOWN_TYPE_OF_QUERY UNKNOWN_ROLE "},
        {413, " QUERY_IS_TOO_LARGE "},
        {501, " NOT_IMPLEMENTED "},
        {503, " SOCKET_TIMEOUT CANNOT_OPEN_FILE CANNOT_SCHEDULE_TASK "},
        {411, " HTTP_LENGTH_REQUIRED "},
        {408, " TIMEOUT_EXCEEDED "},
    };
    char name[96];
    snprintf(name, sizeof name, " %s ", err_name(code));
    for (size_t i = 0; i < sizeof groups / sizeof groups[0]; i++)
        if (strstr(groups[i].names, name))
            return groups[i].status;
    return 500;
}

static const char *content_type_for(const char *format)
{
    if (!strncmp(format, "TabSeparated", 12) || !strncmp(format, "TSV", 3))
        return "text/tab-separated-values; charset=UTF-8";
    if (!strncmp(format, "CSV", 3))
        return "text/csv; charset=UTF-8; header=absent";
    if (!strcmp(format, "JSONEachRow") || !strcmp(format, "JSONLines") || !strcmp(format, "NDJSON"))
        return "application/x-ndjson; charset=UTF-8";
    if (!strncmp(format, "JSON", 4))
        return "application/json; charset=UTF-8";
    if (!strcmp(format, "Parquet") || !strcmp(format, "Native") || !strncmp(format, "RowBinary", 9))
        return "application/octet-stream";
    if (!strcmp(format, "XML"))
        return "application/xml; charset=UTF-8";
    return "text/plain; charset=UTF-8";
}

/* ---- the response body as an outstream ---- */

/* Buffers the formatted result; the headers go out when the buffer first overflows (or
 * at the end). With wait_end_of_query the buffer grows instead (spilled to a temporary
 * file beyond buffer_size). */
typedef struct resp_stream {
    outstream base;
    srv_response *resp;
    buf pending;
    size_t limit;             /* flush beyond this; SIZE_MAX with wait_end_of_query */
    FILE *spill;              /* wait_end_of_query beyond buffer_size */
    size_t spill_after;
    void (*before_headers)(void *ctx);
    void *ctx;
} resp_stream;

static int rs_flush(resp_stream *r)
{
    if (!r->resp->headers_sent && r->before_headers)
        r->before_headers(r->ctx);
    int rc = srv_response_write(r->resp, r->pending.p, r->pending.len);
    r->pending.len = 0;
    return rc;
}

static int rs_write(outstream *os, const void *p, size_t n)
{
    resp_stream *r = (resp_stream *)os;
    os->offset += n;
    if (r->spill) {
        if (fwrite(p, 1, n, r->spill) != n)
            return err_set(ERR_CANNOT_CREATE_FILE, "Cannot write the buffered result to a temporary file");
        return 0;
    }
    buf_append(&r->pending, p, n);
    if (r->limit == SIZE_MAX && r->pending.len > r->spill_after) {
        r->spill = tmpfile();
        if (!r->spill)
            return err_set(ERR_CANNOT_CREATE_FILE, "Cannot create a temporary file for the buffered result");
        if (fwrite(r->pending.p, 1, r->pending.len, r->spill) != r->pending.len)
            return err_set(ERR_CANNOT_CREATE_FILE, "Cannot write the buffered result to a temporary file");
        r->pending.len = 0;
        return 0;
    }
    /* The buffer is full: what is formatted goes to the client now (buffer_size decides
     * how soon a client sees the first rows); the end of the result waits for the last
     * chunk, so that a short answer leaves in one send. */
    if (r->pending.len >= r->limit)
        return rs_flush(r) || srv_response_flush(r->resp) ? -1 : 0;
    return 0;
}

/* Sends what is buffered (and spilled). */
static int rs_drain(resp_stream *r)
{
    if (r->spill) {
        if (!r->resp->headers_sent && r->before_headers)
            r->before_headers(r->ctx);
        rewind(r->spill);
        char chunk[65536];
        size_t n;
        while ((n = fread(chunk, 1, sizeof chunk, r->spill)) > 0)
            if (srv_response_write(r->resp, chunk, n))
                return -1;
        fclose(r->spill);
        r->spill = NULL;
    }
    if (r->pending.len)
        return rs_flush(r);
    return 0;
}

/* close() of the format writer's stream: the result is complete only when the statement
 * ends, so nothing is sent here. */
static int rs_close(outstream *os)
{
    (void)os;
    return 0;
}

/* Compressed output: the compressor writes into this, which forwards to the response
 * stream without closing it. */
typedef struct fwd_stream {
    outstream base;
    outstream *to;
} fwd_stream;

static int fwd_write(outstream *os, const void *p, size_t n)
{
    fwd_stream *f = (fwd_stream *)os;
    return f->to->write(f->to, p, n);
}

static int fwd_close(outstream *os)
{
    free(os);
    return 0;
}

/* ---- the request's input: buffered prefix + the rest of the body ---- */

typedef struct concat_stream {
    instream base;
    const char *head;         /* borrowed */
    size_t head_len, head_pos;
    instream *tail;           /* borrowed (the handler closes it) */
} concat_stream;

static int cs_read(instream *s, void *dst, size_t cap, size_t *got)
{
    concat_stream *c = (concat_stream *)s;
    if (c->head_pos < c->head_len) {
        size_t n = c->head_len - c->head_pos;
        if (n > cap)
            n = cap;
        memcpy(dst, c->head + c->head_pos, n);
        c->head_pos += n;
        *got = n;
        s->offset += n;
        return 0;
    }
    if (!c->tail) {
        *got = 0;
        return 0;
    }
    int rc = c->tail->read(c->tail, dst, cap, got);
    s->offset += *got;
    return rc;
}

static void cs_close(instream *s) { free(s); }

/* ---- one request ---- */

typedef struct request_ctx {
    server *srv;
    http_conn *conn;
    srv_request *rq;
    srv_response *resp;
    server_auth *auth;
    const user_def *user;
    session *sess;
    http_session *named;
    bool owns_session;
    /* parameters */
    buf query_param;
    int nsettings;            /* settings from the URL, for this query only */
    char **setting_names;
    char **setting_values;
    const char *default_format;
    char query_id[64];
    bool wait_end_of_query;
    size_t buffer_size;
    http_progress *progress;  /* the thread sending X-ClickHouse-Progress, while it runs */
    bool cors;
    char compression[16];     /* response Content-Encoding, "" = none */
    int compression_level;    /* http_zlib_compression_level */
    bool compress_blocks;     /* compress=1: the response in ClickHouse's compressed blocks */
    bool decompress_blocks;   /* decompress=1: the body is in compressed blocks */
    char block_method[16];    /* network_compression_method */
    int64_t block_zstd_level;
    char tag[24];             /* exception tag */
    /* the statement's input */
    const char *data;         /* inline data after the statement, in the buffered text */
    size_t data_len;
    instream *body;           /* the (decompressed) request body, or NULL */
    /* output */
    resp_stream *out;
    outstream *compressor;
    const char *format;
    query_ctx *running;
    bool counted;
} request_ctx;

/* ClickHouse's CORS headers (add_http_cors_header, and the answer to OPTIONS). */
static void add_cors_headers(srv_response *resp)
{
    srv_response_set_header(resp, "Access-Control-Allow-Origin", "*");
    srv_response_set_header(resp, "Access-Control-Allow-Headers",
                            "origin, x-requested-with, x-clickhouse-format, x-clickhouse-user, "
                            "x-clickhouse-key, Authorization");
    srv_response_set_header(resp, "Access-Control-Allow-Methods", "POST, GET, OPTIONS");
    srv_response_set_header(resp, "Access-Control-Max-Age", "86400");
}

static void add_common_headers(request_ctx *r)
{
    srv_response *resp = r->resp;
    srv_response_set_header(resp, "X-ClickHouse-Server-Display-Name", r->srv->display_name);
    srv_response_set_header(resp, "X-ClickHouse-Exception-Tag", r->tag);
    if (r->cors) {
        add_cors_headers(resp);
        srv_response_set_header(resp, "Access-Control-Expose-Headers",
                                 "X-ClickHouse-Query-Id,X-ClickHouse-Summary,X-ClickHouse-Server-Display-Name,"
                                 "X-ClickHouse-Format,X-ClickHouse-Timezone,X-ClickHouse-Exception-Code,"
                                 "X-ClickHouse-Exception-Tag");
    }
}

static void summary_json(buf *b, query_ctx *q, const interp_result *res, double elapsed)
{
    buf_printf(b,
               "{\"read_rows\":\"%llu\",\"read_bytes\":\"%llu\",\"written_rows\":\"%llu\",\"written_bytes\":\"%llu\","
               "\"total_rows_to_read\":\"%llu\",\"result_rows\":\"%llu\",\"result_bytes\":\"%llu\","
               "\"elapsed_ns\":\"%llu\",\"memory_usage\":\"%llu\"}",
               (unsigned long long)atomic_load(&q->read_rows), (unsigned long long)atomic_load(&q->read_bytes),
               (unsigned long long)(res ? res->written_rows : 0), (unsigned long long)(res ? res->written_bytes : 0),
               (unsigned long long)atomic_load(&q->total_rows_to_read),
               (unsigned long long)(res ? res->result_rows : 0), (unsigned long long)(res ? res->result_bytes : 0),
               (unsigned long long)(elapsed * 1e9), (unsigned long long)atomic_load(&q->mem.peak));
}

static void progress_json(buf *b, query_ctx *q)
{
    summary_json(b, q, NULL, clock_monotonic() - q->start_time);
}

/* Headers that depend on the query, set just before the first body byte. */
static void before_headers(void *ctx)
{
    request_ctx *r = ctx;
    http_progress_stop(r->progress); /* the result starts: no more progress lines */
    r->progress = NULL;
    if (!r->running)
        return;
    buf s = {0};
    summary_json(&s, r->running, NULL, clock_monotonic() - r->running->start_time);
    srv_response_set_header(r->resp, "X-ClickHouse-Summary", buf_cstr(&s));
    buf_free(&s);
}

static int open_output(void *ctx, query_ctx *q, const char *format, outstream **os)
{
    request_ctx *r = ctx;
    r->format = format;
    srv_response_set_header(r->resp, "Content-Type", content_type_for(format));
    srv_response_set_header(r->resp, "X-ClickHouse-Format", format);
    resp_stream *rs = xcalloc(1, sizeof *rs);
    rs->base.write = rs_write;
    rs->base.close = rs_close;
    rs->base.name = "HTTP response";
    rs->resp = r->resp;
    rs->limit = r->wait_end_of_query ? SIZE_MAX : r->buffer_size;
    rs->spill_after = r->buffer_size;
    rs->before_headers = before_headers;
    rs->ctx = r;
    r->out = rs;
    /* The chain, format side first: [compressed blocks] → [Content-Encoding] → the
     * response buffer. Each wrapper owns the one below; the bottom is a forwarder so that
     * closing the chain does not free the response buffer. The format writer closes what
     * it is given, and the chain must outlive it (trailers are written after the last
     * block): it gets a forwarder too, and run_query closes the chain. */
    if (!r->compression[0] && !r->compress_blocks) {
        *os = &rs->base;
        (void)q;
        return 0;
    }
    fwd_stream *f = xcalloc(1, sizeof *f);
    f->base.write = fwd_write;
    f->base.close = fwd_close;
    f->base.name = "HTTP response";
    f->to = &rs->base;
    outstream *top = &f->base;
    if (r->compression[0]) {
        srv_response_set_header(r->resp, "Content-Encoding", r->compression);
        if (outstream_compress(top, r->compression, r->compression_level, &top))
            return -1;
    }
    if (r->compress_blocks && outstream_blocks(top, r->block_method, r->block_zstd_level, &top))
        return -1;
    r->compressor = top;
    fwd_stream *g = xcalloc(1, sizeof *g);
    g->base.write = fwd_write;
    g->base.close = fwd_close;
    g->base.name = "HTTP response";
    g->to = top;
    *os = &g->base;
    (void)q;
    return 0;
}

static int open_input(void *ctx, query_ctx *q, instream **is)
{
    request_ctx *r = ctx;
    (void)q;
    concat_stream *c = xcalloc(1, sizeof *c);
    c->base.read = cs_read;
    c->base.close = cs_close;
    c->base.name = "HTTP request body";
    c->head = r->data;
    c->head_len = r->data_len;
    c->tail = r->body;
    *is = &c->base;
    return 0;
}

static void on_started(void *ctx, query_ctx *q)
{
    request_ctx *r = ctx;
    r->running = q;
    srv_response_set_header(r->resp, "X-ClickHouse-Query-Id", q->query_id);
    srv_response_set_header(r->resp, "X-ClickHouse-Timezone", q->env.timezone);
    /* The watchdog cancels the query when the client goes away; a client still sending
     * the body is watched only once the body has been read. */
    watched *w = xcalloc(1, sizeof *w);
    w->fd = r->conn->fd;
    w->q = q;
    pthread_mutex_lock(&r->srv->mu);
    w->next = r->srv->watch;
    r->srv->watch = w;
    pthread_mutex_unlock(&r->srv->mu);
    /* The query's settings: the URL's and the statement's SETTINGS. */
    if (settings_bool(q->st, "send_progress_in_http_headers"))
        r->progress = http_progress_start(r->resp, q, settings_int(q->st, "http_headers_progress_interval_ms"),
                                          progress_json);
}

static void on_finished(void *ctx, query_ctx *q, const interp_result *res, int code)
{
    request_ctx *r = ctx;
    http_progress_stop(r->progress);
    r->progress = NULL;
    pthread_mutex_lock(&r->srv->mu);
    for (watched **pp = &r->srv->watch; *pp; pp = &(*pp)->next)
        if ((*pp)->q == q) {
            watched *w = *pp;
            *pp = w->next;
            free(w);
            break;
        }
    pthread_mutex_unlock(&r->srv->mu);
    if (!r->resp->headers_sent) {
        buf s = {0};
        summary_json(&s, q, res, clock_monotonic() - q->start_time);
        srv_response_set_header(r->resp, "X-ClickHouse-Summary", buf_cstr(&s));
        buf_free(&s);
    }
    r->running = NULL;
    (void)code;
}

static void exception_text(buf *b, int code, const char *msg)
{
    size_t n = strlen(msg);
    buf_printf(b, "Code: %d. DB::Exception: %s%s (%s) (version %s)\n", code, msg, n && msg[n - 1] == '.' ? "" : ".",
               err_name(code), SHALE_VERSION);
}

/* An error before any byte of the result went out: its own status and body. */
static void send_error(request_ctx *r, int code, const char *msg)
{
    buf b = {0};
    exception_text(&b, code, msg);
    char c[16];
    snprintf(c, sizeof c, "%d", code);
    srv_response_set_header(r->resp, "X-ClickHouse-Exception-Code", c);
    srv_response_send_full(r->resp, status_for(code), "text/plain; charset=UTF-8", b.p, b.len);
    buf_free(&b);
}

/* An error after the result began: ClickHouse's tagged block at the end of the body. */
static void send_error_in_body(request_ctx *r, int code, const char *msg)
{
    buf e = {0};
    exception_text(&e, code, msg);
    buf b = {0};
    /* As ClickHouse 25.11+: CRLF, the marker, the tag, the message with its length
     * (counting its line break), the tag and the marker again. */
    buf_printf(&b, "\r\n__exception__\r\n%s\n", r->tag);
    buf_append(&b, e.p, e.len);
    buf_printf(&b, "%zu %s\r\n__exception__\r\n", e.len, r->tag);
    srv_response_write(r->resp, b.p, b.len);
    srv_response_finish(r->resp);
    buf_free(&b);
    buf_free(&e);
}

/* Reserved parameters are not settings. */
static bool reserved_param(const char *name)
{
    static const char *names[] = {"query", "database", "default_format", "query_id", "session_id", "session_timeout",
                                  "session_check", "user", "password", "quota_key", "buffer_size",
                                  "wait_end_of_query", "compress", "decompress", "stacktrace", "role",
                                  "client_protocol_version", "close_session", "with_stacktrace", NULL};
    for (int i = 0; names[i]; i++)
        if (strcmp(name, names[i]) == 0)
            return true;
    return false;
}

/* Credentials from X-ClickHouse-User/Key, basic auth, or user/password parameters. */
static int credentials(const srv_request *rq, buf *user, buf *password)
{
    const char *hu = http_header_get(rq, "X-ClickHouse-User");
    const char *hk = http_header_get(rq, "X-ClickHouse-Key");
    const char *auth = http_header_get(rq, "Authorization");
    bool have_param = false;
    size_t pos = 0;
    buf n = {0}, v = {0};
    buf pu = {0}, pp = {0};
    while (http_query_next(rq->query, &pos, &n, &v)) {
        if (strcmp(buf_cstr(&n), "user") == 0) {
            pu.len = 0;
            buf_puts(&pu, buf_cstr(&v));
            have_param = true;
        } else if (strcmp(buf_cstr(&n), "password") == 0) {
            pp.len = 0;
            buf_puts(&pp, buf_cstr(&v));
            have_param = true;
        }
    }
    buf_free(&n);
    buf_free(&v);
    int rc = 0;
    int methods = (hu || hk) + (auth != NULL) + have_param;
    if (methods > 1) {
        rc = err_set(ERR_AUTHENTICATION_FAILED, "Invalid authentication: it is not allowed to use several "
                                                "authentication methods (X-ClickHouse headers, Authorization, URL "
                                                "parameters) simultaneously");
    } else if (hu || hk) {
        buf_puts(user, hu ? hu : "default");
        buf_puts(password, hk ? hk : "");
    } else if (auth) {
        if (strncasecmp(auth, "Basic ", 6) != 0) {
            rc = err_set(ERR_AUTHENTICATION_FAILED, "Invalid authentication: only Basic authorization is supported");
        } else {
            buf dec = {0};
            const char *b64 = auth + 6;
            while (*b64 == ' ')
                b64++;
            if (base64_decode(b64, strlen(b64), &dec)) {
                rc = err_set(ERR_AUTHENTICATION_FAILED, "Invalid authentication: malformed Basic credentials");
            } else {
                const char *s = buf_cstr(&dec);
                const char *colon = strchr(s, ':');
                buf_append(user, s, colon ? (size_t)(colon - s) : strlen(s));
                buf_puts(password, colon ? colon + 1 : "");
            }
            buf_free(&dec);
        }
    } else if (have_param) {
        buf_puts(user, pu.len ? buf_cstr(&pu) : "default");
        buf_puts(password, buf_cstr(&pp));
    } else {
        buf_puts(user, "default");
        buf_puts(password, "");
    }
    buf_cstr(user);
    buf_cstr(password);
    buf_free(&pu);
    buf_free(&pp);
    return rc;
}

static void choose_compression(request_ctx *r)
{
    const char *ae = http_header_get(r->rq, "Accept-Encoding");
    if (!ae)
        return;
    /* The first of these that Accept-Encoding names (its order and q-values are not
     * weighed). */
    static const char *methods[] = {"zstd", "gzip", "deflate", "br", "lz4", "xz", NULL};
    for (int i = 0; methods[i]; i++) {
        const char *p = ae;
        size_t n = strlen(methods[i]);
        while ((p = strstr(p, methods[i]))) {
            bool start = p == ae || p[-1] == ' ' || p[-1] == ',';
            bool end = p[n] == 0 || p[n] == ',' || p[n] == ';' || p[n] == ' ';
            if (start && end) {
                snprintf(r->compression, sizeof r->compression, "%s", methods[i]);
                return;
            }
            p += n;
        }
    }
}

/* Reads the start of the body (up to max_query_size bytes more than needed) into text. */
static int read_prefix(instream *in, buf *text, size_t max)
{
    char chunk[65536];
    while (text->len < max) {
        size_t want = max - text->len < sizeof chunk ? max - text->len : sizeof chunk;
        size_t got;
        if (in->read(in, chunk, want, &got))
            return -1;
        if (got == 0)
            return 1; /* the whole body is in text */
        buf_append(text, chunk, got);
    }
    return 0;
}

static bool only_blank_or_semicolons(const char *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!isspace((unsigned char)p[i]) && p[i] != ';')
            return false;
    return true;
}

static int apply_params(request_ctx *r, settings *st)
{
    size_t pos = 0;
    buf n = {0}, v = {0};
    int rc = 0;
    while (!rc && http_query_next(r->rq->query, &pos, &n, &v)) {
        const char *name = buf_cstr(&n), *val = buf_cstr(&v);
        if (!strncmp(name, "param_", 6)) {
            session_set_param(r->sess, name + 6, val);
        } else if (!strcmp(name, "query")) {
            buf_puts(&r->query_param, val);
        } else if (!strcmp(name, "database")) {
            if (strlen(val) >= sizeof r->sess->database)
                rc = err_set(ERR_BAD_ARGUMENTS, "Database name is too long");
            else
                snprintf(r->sess->database, sizeof r->sess->database, "%s", val);
        } else if (!strcmp(name, "query_id")) {
            snprintf(r->query_id, sizeof r->query_id, "%s", val);
        } else if (!strcmp(name, "wait_end_of_query")) {
            r->wait_end_of_query = strcmp(val, "1") == 0 || strcasecmp(val, "true") == 0;
        } else if (!strcmp(name, "buffer_size")) {
            char *end;
            unsigned long long b = strtoull(val, &end, 10);
            if (*end || !*val)
                rc = err_set(ERR_BAD_ARGUMENTS, "buffer_size must be a number of bytes, got '%s'", val);
            else
                r->buffer_size = b;
        } else if (!strcmp(name, "compress") || !strcmp(name, "decompress")) {
            bool on = strcmp(val, "1") == 0 || strcasecmp(val, "true") == 0;
            if (!on && strcmp(val, "0") != 0 && strcasecmp(val, "false") != 0)
                rc = err_set(ERR_BAD_ARGUMENTS, "%s must be 0 or 1, got '%s'", name, val);
            else if (name[0] == 'c')
                r->compress_blocks = on;
            else
                r->decompress_blocks = on;
        } else if (!strcmp(name, "default_format") || !reserved_param(name)) {
            r->setting_names = xrealloc(r->setting_names, sizeof(char *) * (size_t)(r->nsettings + 1));
            r->setting_values = xrealloc(r->setting_values, sizeof(char *) * (size_t)(r->nsettings + 1));
            r->setting_names[r->nsettings] = xstrdup(name);
            r->setting_values[r->nsettings] = xstrdup(val);
            r->nsettings++;
            rc = settings_set(st, name, val); /* checked now: an unknown name fails before anything runs */
        }
    }
    buf_free(&n);
    buf_free(&v);
    return rc;
}

static int apply_request_settings(void *ctx, settings *st)
{
    request_ctx *r = ctx;
    for (int i = 0; i < r->nsettings; i++)
        if (settings_set(st, r->setting_names[i], r->setting_values[i]))
            return -1;
    return 0;
}

static void run_query(request_ctx *r)
{
    server *srv = r->srv;
    srv_request *rq = r->rq;
    int64_t readonly_user = settings_int(r->sess->st, "readonly");
    /* The request's settings apply to this query only (a named session keeps SET's):
     * `eff` is what the query will see, for the checks made here. */
    settings *eff = settings_clone(r->sess->st);
    int rc = apply_params(r, eff);
    if (!rc && readonly_user == 1 && r->nsettings > 0)
        rc = err_set(ERR_READONLY, "Cannot modify '%s' setting in readonly mode", r->setting_names[0]);
    if (!rc && settings_int(eff, "readonly") < readonly_user)
        rc = err_set(ERR_READONLY, "Cannot modify 'readonly' setting in readonly mode");
    /* GET requests are read-only (readonly = 2: settings may still change). */
    if (!rc && strcmp(rq->method, "GET") == 0 && settings_int(eff, "readonly") == 0) {
        rc = settings_set(eff, "readonly", "2");
        r->setting_names = xrealloc(r->setting_names, sizeof(char *) * (size_t)(r->nsettings + 1));
        r->setting_values = xrealloc(r->setting_values, sizeof(char *) * (size_t)(r->nsettings + 1));
        r->setting_names[r->nsettings] = xstrdup("readonly");
        r->setting_values[r->nsettings] = xstrdup("2");
        r->nsettings++;
    }
    if (!rc && settings_bool(eff, "enable_http_compression")) {
        choose_compression(r);
        r->compression_level = (int)settings_int(eff, "http_zlib_compression_level");
    }
    snprintf(r->block_method, sizeof r->block_method, "%s", settings_str(eff, "network_compression_method"));
    r->block_zstd_level = settings_int(eff, "network_zstd_compression_level");
    r->cors = !rc && settings_bool(eff, "add_http_cors_header");
    r->default_format = settings_str(eff, "default_format");
    if (!r->default_format[0])
        r->default_format = "TabSeparated";
    add_common_headers(r);

    /* The query text: the URL's query, then a newline and the body. */
    buf text = {0};
    buf_append(&text, r->query_param.p, r->query_param.len);
    int whole = 1;
    arena a;
    arena_init(&a);
    ast *stmt = NULL;
    size_t pos = 0;
    bool has_body = rq->chunked || rq->has_length;
    /* An INSERT whose FORMAT (or VALUES) ends the URL's query needs nothing from the body
     * to be parsed: its data is the body, streamed from its first byte. */
    if (!rc && has_body && text.len) {
        buf_putc(&text, '\n');
        const char *sql = buf_cstr(&text);
        ast *quick = NULL;
        size_t qpos = 0;
        if (sql_parse_statement(&a, sql, text.len, &qpos, (int)settings_int(eff, "max_parser_depth"), &quick) == 0 &&
            quick && quick->kind == AST_STMT_INSERT && quick->format && quick->insert_data &&
            only_blank_or_semicolons(quick->insert_data, text.len - (size_t)(quick->insert_data - sql)))
            stmt = quick;
        else
            text.len--;
        err_clear();
    }
    if (!rc && has_body) {
        instream *body = http_body_stream(rq);
        const char *enc = http_header_get(rq, "Content-Encoding");
        if (enc && *enc && strcasecmp(enc, "identity") != 0) {
            if (instream_decompress(body, enc, &body)) {
                rc = -1;
                body = NULL;
            }
        }
        if (!rc && r->decompress_blocks && instream_blocks(body, &body)) {
            rc = -1;
            body = NULL;
        }
        r->body = body;
        if (!rc && !stmt) {
            if (text.len)
                buf_putc(&text, '\n');
            size_t max_query = (size_t)settings_int(eff, "max_query_size");
            whole = read_prefix(body, &text, text.len + max_query);
            if (whole < 0)
                rc = -1;
        }
    }
    if (!rc && !stmt && only_blank_or_semicolons(buf_cstr(&text), text.len))
        rc = err_set(ERR_SYNTAX_ERROR, "Empty query");
    const char *sql = buf_cstr(&text);
    if (stmt) {
        pos = (size_t)(stmt->insert_data - sql);
    } else if (!rc) {
        if (sql_parse_statement(&a, sql, text.len, &pos, (int)settings_int(eff, "max_parser_depth"), &stmt))
            rc = -1;
        else if (!stmt)
            rc = err_set(ERR_SYNTAX_ERROR, "Empty query");
    }
    if (!rc) {
        bool has_data = stmt->kind == AST_STMT_INSERT && stmt->insert_data;
        if (has_data) {
            /* The data starts in the buffered text (after the blanks and the line break that
             * end the FORMAT clause) and goes on in the body. */
            const char *d = stmt->insert_data, *end = sql + text.len;
            while (d < end && (*d == ' ' || *d == '\t'))
                d++;
            if (d < end && *d == '\r')
                d++;
            if (d < end && *d == '\n')
                d++;
            r->data = d;
            r->data_len = (size_t)(end - d);
            stmt->insert_data_len = 0;
        } else if (!whole) {
            rc = err_set(ERR_SYNTAX_ERROR, "Max query size exceeded (max_query_size = %lld)",
                         (long long)settings_int(eff, "max_query_size"));
        } else if (!only_blank_or_semicolons(sql + pos, text.len - pos)) {
            rc = err_set(ERR_SYNTAX_ERROR, "Multi-statements are not allowed");
        }
    }
    if (!rc && srv->max_concurrent_queries > 0) {
        int n = atomic_fetch_add(&srv->running_queries, 1) + 1;
        r->counted = true;
        if (n > srv->max_concurrent_queries)
            rc = err_set(ERR_TOO_MANY_SIMULTANEOUS_QUERIES, "Too many simultaneous queries. Maximum: %lld",
                         (long long)srv->max_concurrent_queries);
    }
    int code = 0;
    if (!rc) {
        interp_hooks h = {.ctx = r,
                          .default_format = r->default_format,
                          .open_output = open_output,
                          .open_input = open_input,
                          .apply_settings = apply_request_settings,
                          .started = on_started,
                          .finished = on_finished};
        interp_request ireq = {.stmt = stmt,
                               .script = sql,
                               .script_len = text.len,
                               .text = sql,
                               .text_len = pos,
                               .query_id = r->query_id[0] ? r->query_id : NULL};
        interp_result res;
        code = interp_run(r->sess, &ireq, &h, &res);
        http_progress_stop(r->progress);
        r->progress = NULL;
        if (!code && r->compressor) {
            outstream *c = r->compressor;
            r->compressor = NULL;
            if (c->close(c))
                code = err_code() ? err_code() : ERR_LOGICAL_ERROR;
        }
        if (!code && r->out && rs_drain(r->out))
            code = err_code() ? err_code() : ERR_NETWORK_ERROR;
    } else {
        /* Refused before it ran: the query log still gets its row (ExceptionBeforeStart). */
        interp_hooks h = {.ctx = r};
        interp_request ireq = {.script = sql, .script_len = text.len, .text = sql, .text_len = text.len,
                               .query_id = r->query_id[0] ? r->query_id : NULL};
        interp_result res;
        code = interp_run(r->sess, &ireq, &h, &res);
        if (!code)
            code = ERR_LOGICAL_ERROR;
    }
    if (r->counted)
        atomic_fetch_sub(&srv->running_queries, 1);
    if (code) {
        char msg[ERR_MSG_MAX];
        snprintf(msg, sizeof msg, "%s", err_msg());
        if (r->resp->headers_sent)
            send_error_in_body(r, code, msg);
        else
            send_error(r, code, msg);
    } else if (!r->resp->finished) {
        srv_response_finish(r->resp);
    }
    if (r->compressor)
        r->compressor->close(r->compressor);
    if (r->out) {
        if (r->out->spill)
            fclose(r->out->spill);
        buf_free(&r->out->pending);
        free(r->out);
        r->out = NULL;
    }
    arena_free(&a);
    buf_free(&text);
    settings_free(eff);
    for (int i = 0; i < r->nsettings; i++) {
        free(r->setting_names[i]);
        free(r->setting_values[i]);
    }
    free(r->setting_names);
    free(r->setting_values);
}

static void handle_query(server *srv, http_conn *c, srv_request *rq, srv_response *resp)
{
    request_ctx r = {.srv = srv, .conn = c, .rq = rq, .resp = resp, .buffer_size = 1 << 20};
    uint64_t seq = atomic_fetch_add(&srv->tag_seq, 1);
    static const char alnum[] = "abcdefghijklmnopqrstuvwxyz0123456789";
    uint64_t x = seq * 0x9e3779b97f4a7c15ull ^ (uint64_t)clock_realtime() * 1000003ull ^ (uint64_t)(uintptr_t)&r;
    for (int i = 0; i < 16; i++) {
        x ^= x >> 29;
        x *= 0xbf58476d1ce4e5b9ull;
        r.tag[i] = alnum[(x >> 33) % 36];
    }
    r.tag[16] = 0;
    r.auth = server_auth_get(srv);
    buf user = {0}, password = {0};
    int rc = credentials(rq, &user, &password);
    if (!rc)
        rc = users_authenticate(r.auth->users, buf_cstr(&user), buf_cstr(&password), c->peer, &r.user);
    buf_free(&password);
    /* Sessions. */
    buf sid = {0}, stimeout = {0}, scheck = {0};
    {
        size_t pos = 0;
        buf n = {0}, v = {0};
        while (http_query_next(rq->query, &pos, &n, &v)) {
            if (!strcmp(buf_cstr(&n), "session_id"))
                buf_puts(&sid, buf_cstr(&v));
            else if (!strcmp(buf_cstr(&n), "session_timeout"))
                buf_puts(&stimeout, buf_cstr(&v));
            else if (!strcmp(buf_cstr(&n), "session_check"))
                buf_puts(&scheck, buf_cstr(&v));
        }
        buf_free(&n);
        buf_free(&v);
    }
    if (!rc && sid.len) {
        int timeout = 60;
        if (stimeout.len) {
            char *end;
            long t = strtol(buf_cstr(&stimeout), &end, 10);
            if (*end || t < 0 || t > 3600)
                rc = err_set(ERR_INVALID_SESSION_TIMEOUT, "Invalid session timeout: '%s'", buf_cstr(&stimeout));
            timeout = (int)t;
        }
        if (!rc)
            rc = sessions_acquire(srv, buf_cstr(&sid), r.user->name, timeout,
                                  scheck.len && strcmp(buf_cstr(&scheck), "1") == 0, &r.named);
        if (!rc)
            r.sess = r.named->sess;
    } else if (!rc) {
        r.sess = session_new(srv->inst);
        r.sess->remote = true;
        r.owns_session = true;
    }
    if (!rc && (r.owns_session || r.sess->query_seq == 0)) {
        snprintf(r.sess->user, sizeof r.sess->user, "%s", r.user->name);
        if (r.user->profile)
            rc = users_apply_profile(r.auth->cfg, r.user->profile, r.sess->st);
        if (!rc && r.user->default_database)
            snprintf(r.sess->database, sizeof r.sess->database, "%s", r.user->default_database);
    }
    if (rc) {
        add_common_headers(&r);
        send_error(&r, err_code(), err_msg());
    } else {
        run_query(&r);
    }
    if (r.named)
        sessions_release(srv, r.named);
    if (r.owns_session)
        session_free(r.sess);
    if (r.body)
        r.body->close(r.body);
    buf_free(&r.query_param);
    buf_free(&user);
    buf_free(&sid);
    buf_free(&stimeout);
    buf_free(&scheck);
    server_auth_put(r.auth);
}

void http_handle(server *srv, http_conn *c, srv_request *rq, srv_response *resp)
{
    resp->head_only = strcmp(rq->method, "HEAD") == 0;
    if (strcmp(rq->path, "/ping") == 0) {
        srv_response_send_full(resp, 200, "text/plain; charset=UTF-8", "Ok.\n", 4);
        return;
    }
    if (strcmp(rq->path, "/play") == 0 || strcmp(rq->path, "/play/") == 0) {
        srv_response_send_full(resp, 200, "text/html; charset=UTF-8", play_html, play_html_len);
        return;
    }
    if (strcmp(rq->path, "/replicas_status") == 0) {
        srv_response_send_full(resp, 200, "text/plain; charset=UTF-8", "Ok.\n", 4);
        return;
    }
    if (strcmp(rq->method, "OPTIONS") == 0) {
        /* CORS preflight, as ClickHouse answers it. */
        add_cors_headers(resp);
        srv_response_send_full(resp, 204, NULL, "", 0);
        return;
    }
    if (strcmp(rq->path, "/") != 0) {
        char msg[512];
        int n = snprintf(msg, sizeof msg, "There is no handle %s\n\nUse / or /ping or /play or /replicas_status\n", rq->path);
        srv_response_send_full(resp, 404, "text/plain; charset=UTF-8", msg, (size_t)(n < (int)sizeof msg ? n : (int)sizeof msg - 1));
        return;
    }
    if (strcmp(rq->method, "GET") && strcmp(rq->method, "POST") && strcmp(rq->method, "HEAD")) {
        srv_response_send_full(resp, 405, "text/plain; charset=UTF-8", "Method not allowed\n", 19);
        return;
    }
    bool has_query = false;
    {
        size_t pos = 0;
        buf n = {0}, v = {0};
        while (http_query_next(rq->query, &pos, &n, &v))
            if (!strcmp(buf_cstr(&n), "query"))
                has_query = true;
        buf_free(&n);
        buf_free(&v);
    }
    bool has_body = rq->chunked || (rq->has_length && rq->content_length > 0);
    if (!has_query && !has_body) {
        srv_response_send_full(resp, 200, "text/html; charset=UTF-8", "Ok.\n", 4);
        return;
    }
    handle_query(srv, c, rq, resp);
}
