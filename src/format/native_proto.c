/* Packet encoding and decoding of the native protocol (see native_proto.h). */
#include "format/native_proto.h"

#include "base/err.h"
#include "base/mem.h"
#include "base/rand.h"
#include "format/native_block.h"
#include "io/crypto.h"
#include "codec/compress.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

enum {
    MAX_NAME = 1 << 20,            /* names, ids, users, settings values */
    MAX_QUERY = 256 << 20,         /* a query's text */
    MAX_SETTINGS = 1 << 16,        /* settings or parameters in one Query */
    MAX_TABLES = 1 << 16,          /* tables in one TablesStatusRequest */
    FRAME_MAX = 1 << 20,           /* compressed frames we write: DBMS_DEFAULT_BUFFER_SIZE */
};

/* ---- reading ---- */

static int need(rbuf *in, size_t n, const char *what)
{
    long got = rbuf_need(in, n);
    if (got < 0)
        return -1;
    if ((size_t)got < n)
        return err_set(ERR_CANNOT_READ_ALL_DATA,
                       "Cannot read all data: the connection was closed while reading %s (at byte %llu of the "
                       "connection)",
                       what, (unsigned long long)rbuf_offset(in));
    return 0;
}

static int read_u8(rbuf *in, uint8_t *v, const char *what)
{
    if (need(in, 1, what))
        return -1;
    *v = (uint8_t)*in->pos++;
    return 0;
}

static int read_fixed(rbuf *in, void *dst, size_t n, const char *what)
{
    if (need(in, n, what))
        return -1;
    memcpy(dst, in->pos, n);
    in->pos += n;
    return 0;
}

int native_read_varuint(rbuf *in, uint64_t *v)
{
    uint64_t x = 0;
    for (int i = 0; i < 10; i++) {
        uint8_t byte;
        if (read_u8(in, &byte, "a number"))
            return -1;
        x |= (uint64_t)(byte & 0x7F) << (7 * i);
        if (!(byte & 0x80)) {
            *v = x;
            return 0;
        }
    }
    return err_set(ERR_INCORRECT_DATA, "A VarUInt longer than 10 bytes (at byte %llu of the connection)",
                   (unsigned long long)rbuf_offset(in));
}

/* A length-prefixed string of at most max bytes, as a new NUL-terminated string. The
 * buffer grows with the bytes that actually arrive, so a lying length costs nothing. */
/* A string of at most max bytes into b (binary: it may hold NULs). */
static int read_bytes(rbuf *in, size_t max, const char *what, buf *b)
{
    uint64_t n;
    if (native_read_varuint(in, &n))
        return -1;
    if (n > max)
        return err_set(ERR_TOO_LARGE_STRING_SIZE, "Too large string size for %s: %llu bytes (at most %zu)", what,
                       (unsigned long long)n, max);
    while (b->len < n) {
        if (in->pos == in->end) {
            long got = rbuf_fill(in);
            if (got < 0)
                return -1;
            if (got == 0)
                return need(in, 1, what);
        }
        size_t take = (size_t)(in->end - in->pos);
        if (take > n - b->len)
            take = (size_t)(n - b->len);
        buf_append(b, in->pos, take);
        in->pos += take;
    }
    return 0;
}

static int read_string(rbuf *in, size_t max, const char *what, char **out)
{
    *out = NULL;
    buf b = {0};
    if (read_bytes(in, max, what, &b)) {
        buf_free(&b);
        return -1;
    }
    *out = xstrndup(b.len ? (const char *)b.p : "", b.len);
    buf_free(&b);
    return 0;
}

/* A binary string of at most cap bytes into out[0..*len). */
static int read_fixed_string(rbuf *in, size_t cap, const char *what, unsigned char *out, size_t *len)
{
    buf b = {0};
    int rc = read_bytes(in, cap, what, &b);
    if (!rc && b.len)
        memcpy(out, b.p, b.len);
    *len = rc ? 0 : b.len;
    buf_free(&b);
    return rc;
}

int native_read_hello(rbuf *in, native_hello *h)
{
    memset(h, 0, sizeof *h);
    if (read_string(in, MAX_NAME, "the client's name", &h->client_name) || native_read_varuint(in, &h->major) ||
        native_read_varuint(in, &h->minor) || native_read_varuint(in, &h->revision) ||
        read_string(in, MAX_NAME, "the database", &h->database) || read_string(in, MAX_NAME, "the user", &h->user) ||
        read_string(in, MAX_NAME, "the password", &h->password))
        return -1;
    /* ClickHouse's TCPHandler::receiveHello: the marker user with no password is another
     * server of a cluster with a <secret>; the cluster and the salt follow. */
    h->interserver = strcmp(h->user, NATIVE_INTERSERVER_USER) == 0 && !h->password[0];
    if (h->interserver && (read_string(in, MAX_NAME, "the cluster's name", &h->cluster) ||
                           read_fixed_string(in, sizeof h->salt, "the inter-server salt", h->salt, &h->salt_len)))
        return -1;
    return 0;
}

void native_hello_free(native_hello *h)
{
    free(h->client_name);
    free(h->database);
    free(h->user);
    free(h->password);
    free(h->cluster);
    memset(h, 0, sizeof *h);
}

int native_read_addendum(rbuf *in, uint64_t revision)
{
    if (revision < 54458)
        return 0;
    char *quota_key;
    if (read_string(in, MAX_NAME, "the quota key", &quota_key))
        return -1;
    free(quota_key);
    return 0;
}

static int skip_string(rbuf *in, const char *what)
{
    char *s;
    if (read_string(in, MAX_NAME, what, &s))
        return -1;
    free(s);
    return 0;
}

static int read_client_info(rbuf *in, uint64_t rev, native_query *q)
{
    if (read_u8(in, &q->query_kind, "the query kind"))
        return -1;
    if (q->query_kind == 0)
        return 0;
    if (q->query_kind > 2)
        return err_set(ERR_INCORRECT_DATA, "Unknown query kind %u in the client info", q->query_kind);
    uint64_t v;
    uint8_t iface;
    if (read_string(in, MAX_NAME, "the initial user", &q->initial_user) ||
        read_string(in, MAX_NAME, "the initial query id", &q->initial_query_id) ||
        skip_string(in, "the initial address"))
        return -1;
    if (rev >= 54449) {
        uint64_t t;
        if (read_fixed(in, &t, 8, "the initial query start time"))
            return -1;
    }
    if (read_u8(in, &iface, "the interface"))
        return -1;
    if (iface == 1) { /* TCP */
        if (skip_string(in, "the OS user") || skip_string(in, "the client's host name") ||
            read_string(in, MAX_NAME, "the client's name", &q->client_name) || native_read_varuint(in, &v) ||
            native_read_varuint(in, &v) || native_read_varuint(in, &v))
            return -1;
    } else if (iface == 2) { /* HTTP */
        uint8_t method;
        if (read_u8(in, &method, "the HTTP method") || skip_string(in, "the HTTP user agent"))
            return -1;
        if (rev >= 54443 && skip_string(in, "the forwarded-for address"))
            return -1;
        if (rev >= 54447 && skip_string(in, "the HTTP referer"))
            return -1;
    } else if (iface > 8) {
        return err_set(ERR_INCORRECT_DATA, "Unknown interface %u in the client info", iface);
    }
    if (rev >= 54060 && skip_string(in, "the quota key"))
        return -1;
    if (rev >= 54448 && native_read_varuint(in, &v))
        return -1;
    if (iface == 1 && rev >= 54401 && native_read_varuint(in, &v))
        return -1;
    if (rev >= 54442) {
        uint8_t has_trace;
        if (read_u8(in, &has_trace, "the OpenTelemetry flag"))
            return -1;
        if (has_trace) {
            uint8_t ids[24];
            uint8_t flags;
            if (read_fixed(in, ids, 24, "the trace id") || skip_string(in, "the trace state") ||
                read_u8(in, &flags, "the trace flags"))
                return -1;
        }
    }
    if (rev >= 54453 && (native_read_varuint(in, &v) || native_read_varuint(in, &v) || native_read_varuint(in, &v)))
        return -1;
    return 0;
}

static void kv_free(native_kv *kv, int n)
{
    for (int i = 0; i < n; i++) {
        free(kv[i].name);
        free(kv[i].value);
    }
    free(kv);
}

static int read_settings(rbuf *in, const char *what, native_kv **out, int *n)
{
    *out = NULL;
    *n = 0;
    for (;;) {
        char *name;
        if (read_string(in, MAX_NAME, what, &name))
            return -1;
        if (!name[0]) {
            free(name);
            return 0;
        }
        if (*n >= MAX_SETTINGS) {
            free(name);
            return err_set(ERR_TOO_LARGE_ARRAY_SIZE, "Too many %s in one query (more than %d)", what, MAX_SETTINGS);
        }
        *out = xrealloc(*out, sizeof **out * (size_t)(*n + 1));
        native_kv *kv = &(*out)[(*n)++];
        memset(kv, 0, sizeof *kv);
        kv->name = name;
        if (native_read_varuint(in, &kv->flags) || read_string(in, MAX_NAME, what, &kv->value))
            return -1;
    }
}

int native_read_query(rbuf *in, uint64_t rev, native_query *q)
{
    memset(q, 0, sizeof *q);
    if (read_string(in, MAX_NAME, "the query id", &q->query_id) || read_client_info(in, rev, q) ||
        read_settings(in, "settings", &q->settings, &q->nsettings))
        return -1;
    if (rev >= 54441 && read_fixed_string(in, sizeof q->hash, "the inter-server hash", q->hash, &q->hash_len))
        return -1;
    if (native_read_varuint(in, &q->stage) || native_read_varuint(in, &q->compression) ||
        read_string(in, MAX_QUERY, "the query", &q->text))
        return -1;
    if (rev >= 54459 && read_settings(in, "query parameters", &q->params, &q->nparams))
        return -1;
    if (q->compression > 1)
        return err_set(ERR_INCORRECT_DATA, "Unknown compression flag %llu in the Query packet",
                       (unsigned long long)q->compression);
    return 0;
}

void native_query_free(native_query *q)
{
    free(q->query_id);
    free(q->initial_user);
    free(q->initial_query_id);
    free(q->client_name);
    kv_free(q->settings, q->nsettings);
    kv_free(q->params, q->nparams);
    free(q->text);
    memset(q, 0, sizeof *q);
}

int native_read_tables_status(rbuf *in, char ***names, int *n)
{
    *names = NULL;
    *n = 0;
    uint64_t count;
    if (native_read_varuint(in, &count))
        return -1;
    if (count > MAX_TABLES)
        return err_set(ERR_TOO_LARGE_ARRAY_SIZE, "Too large collection size: %llu tables in TablesStatusRequest",
                       (unsigned long long)count);
    for (uint64_t i = 0; i < count * 2; i++) {
        char *s;
        if (read_string(in, MAX_NAME, "a table name", &s)) {
            for (int k = 0; k < *n; k++)
                free((*names)[k]);
            free(*names);
            *names = NULL;
            *n = 0;
            return -1;
        }
        *names = xrealloc(*names, sizeof(char *) * (size_t)(*n + 1));
        (*names)[(*n)++] = s;
    }
    *n /= 2;
    return 0;
}

/* The compressed frames of one block, as an instream: a frame is read from the connection
 * only when the block's reader needs more bytes, so nothing past the block is consumed. */
typedef struct frame_stream {
    instream base;
    rbuf *conn;
    buf frame;
    size_t pos;
} frame_stream;

static int frame_read(instream *s, void *dst, size_t cap, size_t *got)
{
    frame_stream *f = (frame_stream *)s;
    *got = 0;
    if (f->pos == f->frame.len) {
        f->frame.len = 0;
        f->pos = 0;
        rbuf *in = f->conn;
        if (need(in, 25, "a compressed block's header"))
            return -1;
        uint32_t csize, usize;
        uint64_t at = rbuf_offset(in);
        if (mt_block_header((const uint8_t *)in->pos, (size_t)(in->end - in->pos), &csize, &usize, "the connection", at))
            return -1;
        if (need(in, 16 + (size_t)csize, "a compressed block"))
            return -1;
        /* A frame that fits goes straight into the reader's buffer (one copy less); the
         * view never grows (usize <= cap), so its memory stays the reader's. */
        buf view = {dst, 0, cap};
        bool direct = usize && usize <= cap;
        if (mt_decompress_block((const uint8_t *)in->pos, (size_t)(in->end - in->pos), direct ? &view : &f->frame,
                                "the connection", at))
            return -1;
        in->pos += 16 + (size_t)csize;
        if (direct) {
            *got = view.len;
            s->offset += view.len;
            return 0;
        }
    }
    size_t n = f->frame.len - f->pos;
    if (n > cap)
        n = cap;
    memcpy(dst, f->frame.p + f->pos, n);
    f->pos += n;
    *got = n;
    s->offset += n;
    return 0;
}

static void frame_close(instream *s)
{
    frame_stream *f = (frame_stream *)s;
    buf_free(&f->frame);
    free(f);
}

/* The rest of a Data packet after the table's name: read (pass NULL) or passed on as
 * FORMAT Native (pass not NULL), from the connection or its compressed frames. */
static int read_block(rbuf *in, uint64_t revision, bool compressed, schema **header, block **b, outstream *pass,
                      uint64_t *rows)
{
    if (!compressed)
        return pass ? native_block_pass(in, revision, pass, rows) : native_block_read(in, revision, header, b);
    frame_stream *f = xcalloc(1, sizeof *f);
    f->base.read = frame_read;
    f->base.close = frame_close;
    f->base.name = "the connection";
    f->conn = in;
    /* Passed on, the bytes are written from this buffer: large spans, fewer writes; 2 MiB,
     * so that there is room for a whole frame (1 MiB) after what is left unread. */
    rbuf *r = rbuf_new(&f->base, pass ? 2 << 20 : 1 << 16);
    int rc = pass ? native_block_pass(r, revision, pass, rows) : native_block_read(r, revision, header, b);
    /* The block must end with its last frame: anything left means the two disagree. */
    if (!rc && (r->pos != r->end || f->pos != f->frame.len)) {
        rc = err_set(ERR_INCORRECT_DATA, "A compressed data block has %zu bytes after the block's end",
                     (size_t)(r->end - r->pos) + (f->frame.len - f->pos));
    }
    if (rc && pass) {
        *rows = 0;
    } else if (rc) {
        schema_free(*header);
        block_free(*b);
        *header = NULL;
        *b = NULL;
    }
    rbuf_free(r);
    return rc;
}

int native_read_data(rbuf *in, uint64_t revision, bool compressed, schema **header, block **b)
{
    *header = NULL;
    *b = NULL;
    char *table;
    if (read_string(in, MAX_NAME, "the table name of a Data packet", &table))
        return -1;
    free(table);
    return read_block(in, revision, compressed, header, b, NULL, NULL);
}

int native_pass_data(rbuf *in, uint64_t revision, bool compressed, outstream *out, uint64_t *rows)
{
    *rows = 0;
    char *table;
    if (read_string(in, MAX_NAME, "the table name of a Data packet", &table))
        return -1;
    free(table);
    return read_block(in, revision, compressed, NULL, NULL, out, rows);
}

/* ---- writing ---- */

void native_put_varuint(buf *b, uint64_t v)
{
    do {
        uint8_t byte = v & 0x7F;
        v >>= 7;
        buf_putc(b, (char)(byte | (v ? 0x80 : 0)));
    } while (v);
}

void native_put_string(buf *b, const char *s)
{
    size_t n = strlen(s);
    native_put_varuint(b, n);
    buf_append(b, s, n);
}

bool native_write_hello(buf *out, uint64_t rev, const char *timezone, const char *display_name, uint64_t *nonce_out)
{
    native_put_varuint(out, NS_HELLO);
    native_put_string(out, "shale");
    /* The version of ClickHouse whose protocol and behaviour shale follows. */
    native_put_varuint(out, 26);
    native_put_varuint(out, 7);
    native_put_varuint(out, NATIVE_SERVER_REVISION);
    if (rev >= 54058)
        native_put_string(out, timezone);
    if (rev >= 54372)
        native_put_string(out, display_name);
    if (rev >= 54401)
        native_put_varuint(out, 1);
    if (rev >= 54461)
        native_put_varuint(out, 0); /* no password complexity rules */
    if (rev >= 54462) {
        /* The nonce of inter-server secret v2: a shard's answer to a replayed query hash is
         * an authentication error, since each connection's nonce differs. */
        uint64_t nonce = rand_u64();
        buf_append(out, &nonce, 8);
        if (nonce_out)
            *nonce_out = nonce;
        return true;
    }
    return false;
}

void native_write_exception(buf *out, int code, const char *message)
{
    native_put_varuint(out, NS_EXCEPTION);
    int32_t c = code;
    buf_append(out, &c, 4);
    native_put_string(out, "DB::Exception");
    /* ClickHouse sends displayText(): the name, then the message. */
    buf m = {0};
    buf_puts(&m, "DB::Exception: ");
    buf_puts(&m, message);
    native_put_string(out, buf_cstr(&m));
    buf_free(&m);
    native_put_string(out, ""); /* no stack trace */
    buf_putc(out, 0);    /* nothing nested */
}

void native_write_progress(buf *out, uint64_t rev, const native_progress *p)
{
    native_put_varuint(out, NS_PROGRESS);
    native_put_varuint(out, p->read_rows);
    native_put_varuint(out, p->read_bytes);
    native_put_varuint(out, p->total_rows);
    if (rev >= 54463)
        native_put_varuint(out, p->total_bytes);
    if (rev >= 54420) {
        native_put_varuint(out, p->written_rows);
        native_put_varuint(out, p->written_bytes);
    }
    if (rev >= 54460)
        native_put_varuint(out, p->elapsed_ns);
}

void native_write_profile_info(buf *out, uint64_t rev, uint64_t rows, uint64_t blocks, uint64_t bytes,
                               bool applied_limit, uint64_t rows_before_limit)
{
    native_put_varuint(out, NS_PROFILE_INFO);
    native_put_varuint(out, rows);
    native_put_varuint(out, blocks);
    native_put_varuint(out, bytes);
    buf_putc(out, applied_limit);
    native_put_varuint(out, rows_before_limit);
    buf_putc(out, 1); /* calculated_rows_before_limit */
    if (rev >= 54469) {
        buf_putc(out, 0);
        native_put_varuint(out, 0);
    }
}

/* native_send_block's flush: the uncompressed bytes go as they are; compressed, the whole
 * frames of scratch go (the rest waits for more, so the frames are cut where one pass over
 * the whole block would cut them) — out holds the packet's head before the first. */
typedef struct block_sender {
    buf *out;
    const mt_codec *codec;
    native_send_fn send;
    void *ctx;
    size_t at;           /* compressed: scratch's bytes before this are sent */
    native_send_fn frame; /* not NULL: frames go to it uncompressed (native_send_block_frames) */
} block_sender;

static int sender_frames(block_sender *s, buf *scratch, bool last)
{
    size_t at = s->at;
    while (scratch->len - at >= FRAME_MAX || (last && at < scratch->len)) {
        size_t n = scratch->len - at < FRAME_MAX ? scratch->len - at : FRAME_MAX;
        if (s->frame) {
            /* A copy the receiver may take: the frame is compressed while the next is written. */
            s->out->len = 0;
            buf_append(s->out, scratch->p + at, n);
            int rc = s->frame(s->ctx, s->out);
            s->out->len = 0;
            if (rc)
                return -1;
        } else {
            buf_reserve(s->out, n + n / 128 + 64);
            mt_compress_block(s->codec, scratch->p + at, n, s->out);
        }
        at += n;
    }
    /* The rest (less than a frame) moves to the front only now and then: moved after
     * every frame, it would be a second copy of most of the data. */
    if (last || at >= 8 * (size_t)FRAME_MAX) {
        memmove(scratch->p, scratch->p + at, scratch->len - at);
        scratch->len -= at;
        at = 0;
    }
    s->at = at;
    int rc = s->out->len ? s->send(s->ctx, s->out) : 0;
    s->out->len = 0;
    return rc;
}

static int sender_flush(void *ctx, buf *b)
{
    block_sender *s = ctx;
    if (s->codec || s->frame)
        return sender_frames(s, b, false);
    int rc = s->send(s->ctx, b);
    b->len = 0;
    return rc;
}

int native_send_block(buf *out, buf *scratch, int packet, uint64_t rev, const mt_codec *codec, const schema *header,
                      const block *b, native_send_fn send, void *ctx)
{
    out->len = 0;
    native_put_varuint(out, (uint64_t)packet);
    native_put_string(out, ""); /* the main table, not an external one */
    block_sender s = {out, codec, send, ctx, 0, NULL};
    if (!codec)
        return native_block_write_flushed(out, header, b, rev, sender_flush, &s) || sender_flush(&s, out) ? -1 : 0;
    scratch->len = 0;
    return native_block_write_flushed(scratch, header, b, rev, sender_flush, &s) || sender_frames(&s, scratch, true)
               ? -1
               : 0;
}

int native_send_block_frames(buf *out, buf *scratch, int packet, uint64_t rev, const schema *header,
                             const block *b, native_send_fn send, native_send_fn send_frame, void *ctx)
{
    out->len = 0;
    native_put_varuint(out, (uint64_t)packet);
    native_put_string(out, "");
    int rc = send(ctx, out);
    out->len = 0;
    if (rc)
        return -1;
    block_sender s = {out, NULL, send, ctx, 0, send_frame};
    scratch->len = 0;
    return native_block_write_flushed(scratch, header, b, rev, sender_flush, &s) || sender_frames(&s, scratch, true)
               ? -1
               : 0;
}

static int append_to(void *ctx, buf *b)
{
    buf_append(ctx, b->p, b->len);
    return 0;
}

void native_write_block(buf *out, buf *scratch, int packet, uint64_t rev, const mt_codec *codec, const schema *header,
                        const block *b)
{
    buf tmp = {0};
    native_send_block(&tmp, scratch, packet, rev, codec, header, b, append_to, out);
    buf_free(&tmp);
}

void native_write_tables_status(buf *out, char **names, const bool *exists, int n)
{
    native_put_varuint(out, NS_TABLES_STATUS_RESPONSE);
    int found = 0;
    for (int i = 0; i < n; i++)
        found += exists[i];
    native_put_varuint(out, (uint64_t)found);
    for (int i = 0; i < n; i++) {
        if (!exists[i])
            continue;
        native_put_string(out, names[2 * i]);
        native_put_string(out, names[2 * i + 1]);
        buf_putc(out, 0); /* not replicated */
    }
}

/* writeEscapedString: backslash before \ and ', control characters as escapes. */
static void put_escaped(buf *t, const char *p)
{
    for (; *p; p++) {
        switch (*p) {
        case '\\': buf_puts(t, "\\\\"); break;
        case '\'': buf_puts(t, "\\'"); break;
        case '\n': buf_puts(t, "\\n"); break;
        case '\t': buf_puts(t, "\\t"); break;
        case '\r': buf_puts(t, "\\r"); break;
        default: buf_putc(t, *p); break;
        }
    }
}

/* ClickHouse's ColumnsDescription text: "columns format version: 1", the count, then per
 * column its back-quoted name, escaped type and, when it has one, its default kind and
 * escaped expression, tab-separated. */
void native_write_table_columns(buf *out, int n, const char *const *names, const char *const *types,
                                const char *const *kinds, const char *const *exprs)
{
    native_put_varuint(out, NS_TABLE_COLUMNS);
    native_put_string(out, "");
    buf t = {0};
    buf_printf(&t, "columns format version: 1\n%d columns:\n", n);
    for (int i = 0; i < n; i++) {
        buf_putc(&t, '`');
        for (const char *p = names[i]; *p; p++) {
            if (*p == '`' || *p == '\\')
                buf_putc(&t, '\\');
            buf_putc(&t, *p);
        }
        buf_puts(&t, "` ");
        put_escaped(&t, types[i]);
        if (kinds[i] && exprs[i]) {
            buf_putc(&t, '\t');
            buf_puts(&t, kinds[i]);
            buf_putc(&t, '\t');
            put_escaped(&t, exprs[i]);
        }
        buf_putc(&t, '\n');
    }
    native_put_string(out, buf_cstr(&t));
    buf_free(&t);
}

/* ---- the client's side ---- */

void native_write_client_hello(buf *out, const char *client_name, const char *database, const char *user,
                               const char *password)
{
    native_put_varuint(out, NC_HELLO);
    native_put_string(out, client_name);
    native_put_varuint(out, 26);
    native_put_varuint(out, 7);
    native_put_varuint(out, NATIVE_SERVER_REVISION);
    native_put_string(out, database);
    native_put_string(out, user);
    native_put_string(out, password);
}

void native_write_addendum(buf *out, uint64_t revision)
{
    if (revision >= 54458)
        native_put_string(out, ""); /* no quota key */
}

void native_write_cluster_and_salt(buf *out, const char *cluster, const unsigned char *salt, size_t salt_len)
{
    native_put_string(out, cluster);
    native_put_varuint(out, salt_len);
    buf_append(out, salt, salt_len);
}

int native_interserver_hash(const unsigned char *salt, size_t salt_len, bool has_nonce, uint64_t nonce,
                            const char *secret, const char *query, const char *query_id, const char *initial_user,
                            unsigned char out[32])
{
    if (crypto_load())
        return -1;
    buf d = {0};
    buf_append(&d, salt, salt_len);
    if (has_nonce)
        buf_printf(&d, "%llu", (unsigned long long)nonce);
    buf_puts(&d, secret);
    buf_puts(&d, query);
    buf_puts(&d, query_id);
    buf_puts(&d, initial_user);
    crypto_sha256(d.p, d.len, out);
    /* the buffer held the secret */
    if (d.len)
        memset(d.p, 0, d.len);
    buf_free(&d);
    return 0;
}

int native_read_string(rbuf *in, const char *what, char **out) { return read_string(in, MAX_NAME, what, out); }

int native_read_server_hello(rbuf *in, uint64_t our_revision, native_server_hello *h)
{
    memset(h, 0, sizeof *h);
    if (read_string(in, MAX_NAME, "the server's name", &h->name) || native_read_varuint(in, &h->major) ||
        native_read_varuint(in, &h->minor) || native_read_varuint(in, &h->revision))
        return -1;
    /* The server writes the fields of min(its revision, ours). */
    uint64_t rev = h->revision < our_revision ? h->revision : our_revision;
    if (rev >= 54058 && read_string(in, MAX_NAME, "the server's time zone", &h->timezone))
        return -1;
    if (rev >= 54372 && read_string(in, MAX_NAME, "the server's display name", &h->display_name))
        return -1;
    if (rev >= 54401 && native_read_varuint(in, &h->patch))
        return -1;
    if (rev >= 54461) {
        uint64_t rules;
        if (native_read_varuint(in, &rules))
            return -1;
        if (rules > MAX_SETTINGS)
            return err_set(ERR_TOO_LARGE_ARRAY_SIZE, "Too many password complexity rules in the server's Hello: %llu",
                           (unsigned long long)rules);
        for (uint64_t i = 0; i < rules; i++)
            if (skip_string(in, "a password rule") || skip_string(in, "a password rule's message"))
                return -1;
    }
    if (rev >= 54462) {
        if (read_fixed(in, &h->nonce, 8, "the server's nonce"))
            return -1;
        h->has_nonce = true;
    }
    if (!h->timezone)
        h->timezone = xstrdup("");
    if (!h->display_name)
        h->display_name = xstrdup("");
    return 0;
}

void native_server_hello_free(native_server_hello *h)
{
    free(h->name);
    free(h->timezone);
    free(h->display_name);
    memset(h, 0, sizeof *h);
}

static void put_kvs(buf *out, const native_kv *kv, int n)
{
    for (int i = 0; i < n; i++) {
        native_put_string(out, kv[i].name);
        native_put_varuint(out, kv[i].flags);
        native_put_string(out, kv[i].value);
    }
    native_put_string(out, "");
}

void native_write_query(buf *out, uint64_t rev, const char *query_id, const char *initial_query_id,
                        const char *client_name, const char *user,
                        const native_kv *settings, int nsettings, const unsigned char *secret_hash, uint64_t stage,
                        bool compression, const char *text, const native_kv *params, int nparams)
{
    native_put_varuint(out, NC_QUERY);
    native_put_string(out, query_id);
    /* ClientInfo of a query over TCP. */
    buf_putc(out, initial_query_id ? 2 : 1);
    native_put_string(out, user);
    native_put_string(out, initial_query_id ? initial_query_id : query_id);
    native_put_string(out, "0.0.0.0:0");
    if (rev >= 54449) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        int64_t us = (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
        buf_append(out, &us, 8);
    }
    buf_putc(out, 1); /* TCP */
    const char *os_user = getenv("USER");
    native_put_string(out, os_user ? os_user : "");
    native_put_string(out, "");
    native_put_string(out, client_name);
    native_put_varuint(out, 26);
    native_put_varuint(out, 7);
    native_put_varuint(out, NATIVE_SERVER_REVISION);
    if (rev >= 54060)
        native_put_string(out, ""); /* quota key */
    if (rev >= 54448)
        native_put_varuint(out, 0); /* distributed depth */
    if (rev >= 54401)
        native_put_varuint(out, 1); /* patch */
    if (rev >= 54442)
        buf_putc(out, 0); /* no OpenTelemetry trace */
    if (rev >= 54453) {
        native_put_varuint(out, 0);
        native_put_varuint(out, 0);
        native_put_varuint(out, 0);
    }
    put_kvs(out, settings, nsettings);
    if (rev >= 54441) {
        native_put_varuint(out, secret_hash ? 32 : 0);
        if (secret_hash)
            buf_append(out, secret_hash, 32);
    }
    native_put_varuint(out, stage);
    native_put_varuint(out, compression ? 1 : 0);
    native_put_string(out, text);
    if (rev >= 54459)
        put_kvs(out, params, nparams);
}

int native_read_exception(rbuf *in, int *code, char **message)
{
    *message = NULL;
    *code = 0;
    buf m = {0};
    for (int depth = 0;; depth++) {
        int32_t c;
        char *name = NULL, *msg = NULL, *trace = NULL;
        uint8_t nested;
        if (read_fixed(in, &c, 4, "an exception's code") || read_string(in, MAX_NAME, "an exception's name", &name) ||
            read_string(in, MAX_QUERY, "an exception's message", &msg) ||
            read_string(in, MAX_QUERY, "an exception's stack trace", &trace) ||
            read_u8(in, &nested, "an exception's nested flag")) {
            free(name);
            free(msg);
            free(trace);
            buf_free(&m);
            return -1;
        }
        if (depth == 0)
            *code = c;
        if (depth)
            buf_puts(&m, ": ");
        buf_puts(&m, msg);
        free(name);
        free(msg);
        free(trace);
        if (!nested)
            break;
        if (depth >= 64) {
            buf_free(&m);
            return err_set(ERR_INCORRECT_DATA, "An exception nested more than 64 deep");
        }
    }
    *message = xstrdup(buf_cstr(&m));
    buf_free(&m);
    return 0;
}

int native_read_progress(rbuf *in, uint64_t rev, native_progress *p)
{
    memset(p, 0, sizeof *p);
    if (native_read_varuint(in, &p->read_rows) || native_read_varuint(in, &p->read_bytes) ||
        native_read_varuint(in, &p->total_rows))
        return -1;
    if (rev >= 54463 && native_read_varuint(in, &p->total_bytes))
        return -1;
    if (rev >= 54420 && (native_read_varuint(in, &p->written_rows) || native_read_varuint(in, &p->written_bytes)))
        return -1;
    if (rev >= 54460 && native_read_varuint(in, &p->elapsed_ns))
        return -1;
    return 0;
}

int native_read_profile_info(rbuf *in, uint64_t rev, native_profile_info *p)
{
    memset(p, 0, sizeof *p);
    uint8_t applied, calculated;
    if (native_read_varuint(in, &p->rows) || native_read_varuint(in, &p->blocks) ||
        native_read_varuint(in, &p->bytes) || read_u8(in, &applied, "applied_limit") ||
        native_read_varuint(in, &p->rows_before_limit) || read_u8(in, &calculated, "calculated_rows_before_limit"))
        return -1;
    p->applied_limit = applied;
    p->calculated_rows_before_limit = calculated;
    if (rev >= 54469) {
        uint8_t agg;
        if (read_u8(in, &agg, "applied_aggregation") || native_read_varuint(in, &p->rows_before_aggregation))
            return -1;
        p->applied_aggregation = agg;
    }
    return 0;
}

int native_read_table_columns(rbuf *in, char **text)
{
    *text = NULL;
    if (skip_string(in, "the external table's name"))
        return -1;
    return read_string(in, MAX_QUERY, "the columns' description", text);
}
