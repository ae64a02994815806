/* Packet encoding and decoding of the native protocol (see native_proto.h). */
#include "format/native_proto.h"

#include "base/err.h"
#include "base/mem.h"
#include "format/native_block.h"
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
static int read_string(rbuf *in, size_t max, const char *what, char **out)
{
    *out = NULL;
    uint64_t n;
    if (native_read_varuint(in, &n))
        return -1;
    if (n > max)
        return err_set(ERR_TOO_LARGE_STRING_SIZE, "Too large string size for %s: %llu bytes (at most %zu)", what,
                       (unsigned long long)n, max);
    buf b = {0};
    while (b.len < n) {
        if (in->pos == in->end) {
            long got = rbuf_fill(in);
            if (got < 0) {
                buf_free(&b);
                return -1;
            }
            if (got == 0) {
                buf_free(&b);
                return need(in, 1, what);
            }
        }
        size_t take = (size_t)(in->end - in->pos);
        if (take > n - b.len)
            take = (size_t)(n - b.len);
        buf_append(&b, in->pos, take);
        in->pos += take;
    }
    *out = xstrndup(b.len ? (const char *)b.p : "", b.len);
    buf_free(&b);
    return 0;
}

int native_read_hello(rbuf *in, native_hello *h)
{
    memset(h, 0, sizeof *h);
    if (read_string(in, MAX_NAME, "the client's name", &h->client_name) || native_read_varuint(in, &h->major) ||
        native_read_varuint(in, &h->minor) || native_read_varuint(in, &h->revision) ||
        read_string(in, MAX_NAME, "the database", &h->database) || read_string(in, MAX_NAME, "the user", &h->user) ||
        read_string(in, MAX_NAME, "the password", &h->password))
        return -1;
    return 0;
}

void native_hello_free(native_hello *h)
{
    free(h->client_name);
    free(h->database);
    free(h->user);
    free(h->password);
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
    if (rev >= 54441 && skip_string(in, "the inter-server hash"))
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
        if (mt_decompress_block((const uint8_t *)in->pos, (size_t)(in->end - in->pos), &f->frame, "the connection", at))
            return -1;
        in->pos += 16 + (size_t)csize;
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

int native_read_data(rbuf *in, uint64_t revision, bool compressed, schema **header, block **b)
{
    *header = NULL;
    *b = NULL;
    char *table;
    if (read_string(in, MAX_NAME, "the table name of a Data packet", &table))
        return -1;
    free(table);
    if (!compressed)
        return native_block_read(in, revision, header, b);
    frame_stream *f = xcalloc(1, sizeof *f);
    f->base.read = frame_read;
    f->base.close = frame_close;
    f->base.name = "the connection";
    f->conn = in;
    rbuf *r = rbuf_new(&f->base, 1 << 16);
    int rc = native_block_read(r, revision, header, b);
    /* The block must end with its last frame: anything left means the two disagree. */
    if (!rc && (r->pos != r->end || f->pos != f->frame.len)) {
        rc = err_set(ERR_INCORRECT_DATA, "A compressed data block has %zu bytes after the block's end",
                     (size_t)(r->end - r->pos) + (f->frame.len - f->pos));
    }
    if (rc) {
        schema_free(*header);
        block_free(*b);
        *header = NULL;
        *b = NULL;
    }
    rbuf_free(r);
    return rc;
}

/* ---- writing ---- */

static void put_varuint(buf *b, uint64_t v)
{
    do {
        uint8_t byte = v & 0x7F;
        v >>= 7;
        buf_putc(b, (char)(byte | (v ? 0x80 : 0)));
    } while (v);
}

static void put_string(buf *b, const char *s)
{
    size_t n = strlen(s);
    put_varuint(b, n);
    buf_append(b, s, n);
}

void native_write_hello(buf *out, uint64_t rev, const char *timezone, const char *display_name)
{
    put_varuint(out, NS_HELLO);
    put_string(out, "shale");
    /* The version of ClickHouse whose protocol and behaviour shale follows. */
    put_varuint(out, 26);
    put_varuint(out, 7);
    put_varuint(out, NATIVE_SERVER_REVISION);
    if (rev >= 54058)
        put_string(out, timezone);
    if (rev >= 54372)
        put_string(out, display_name);
    if (rev >= 54401)
        put_varuint(out, 1);
    if (rev >= 54461)
        put_varuint(out, 0); /* no password complexity rules */
    if (rev >= 54462) {
        /* The nonce of inter-server secret v2; shale has no inter-server secret, but the
         * peer reads the field. */
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        uint64_t nonce = (uint64_t)ts.tv_nsec * 0x9e3779b97f4a7c15ull ^ (uint64_t)ts.tv_sec;
        buf_append(out, &nonce, 8);
    }
}

void native_write_exception(buf *out, int code, const char *message)
{
    put_varuint(out, NS_EXCEPTION);
    int32_t c = code;
    buf_append(out, &c, 4);
    put_string(out, "DB::Exception");
    /* ClickHouse sends displayText(): the name, then the message. */
    buf m = {0};
    buf_puts(&m, "DB::Exception: ");
    buf_puts(&m, message);
    put_string(out, buf_cstr(&m));
    buf_free(&m);
    put_string(out, ""); /* no stack trace */
    buf_putc(out, 0);    /* nothing nested */
}

void native_write_progress(buf *out, uint64_t rev, const native_progress *p)
{
    put_varuint(out, NS_PROGRESS);
    put_varuint(out, p->read_rows);
    put_varuint(out, p->read_bytes);
    put_varuint(out, p->total_rows);
    if (rev >= 54463)
        put_varuint(out, p->total_bytes);
    if (rev >= 54420) {
        put_varuint(out, p->written_rows);
        put_varuint(out, p->written_bytes);
    }
    if (rev >= 54460)
        put_varuint(out, p->elapsed_ns);
}

void native_write_profile_info(buf *out, uint64_t rev, uint64_t rows, uint64_t blocks, uint64_t bytes,
                               bool applied_limit, uint64_t rows_before_limit)
{
    put_varuint(out, NS_PROFILE_INFO);
    put_varuint(out, rows);
    put_varuint(out, blocks);
    put_varuint(out, bytes);
    buf_putc(out, applied_limit);
    put_varuint(out, rows_before_limit);
    buf_putc(out, 1); /* calculated_rows_before_limit */
    if (rev >= 54469) {
        buf_putc(out, 0);
        put_varuint(out, 0);
    }
}

void native_write_block(buf *out, buf *scratch, int packet, uint64_t rev, const mt_codec *codec, const schema *header,
                        const block *b)
{
    put_varuint(out, (uint64_t)packet);
    put_string(out, ""); /* the main table, not an external one */
    if (!codec) {
        native_block_write(out, header, b, rev);
        return;
    }
    scratch->len = 0;
    native_block_write(scratch, header, b, rev);
    /* Room for every frame at once: LZ4/ZSTD's worst case is a little over the input. */
    buf_reserve(out, scratch->len + scratch->len / 128 + 64 * (scratch->len / FRAME_MAX + 1));
    for (size_t at = 0; at < scratch->len; at += FRAME_MAX) {
        size_t n = scratch->len - at < FRAME_MAX ? scratch->len - at : FRAME_MAX;
        mt_compress_block(codec, scratch->p + at, n, out);
    }
}

void native_write_tables_status(buf *out, char **names, const bool *exists, int n)
{
    put_varuint(out, NS_TABLES_STATUS_RESPONSE);
    int found = 0;
    for (int i = 0; i < n; i++)
        found += exists[i];
    put_varuint(out, (uint64_t)found);
    for (int i = 0; i < n; i++) {
        if (!exists[i])
            continue;
        put_string(out, names[2 * i]);
        put_string(out, names[2 * i + 1]);
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
    put_varuint(out, NS_TABLE_COLUMNS);
    put_string(out, "");
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
    put_string(out, buf_cstr(&t));
    buf_free(&t);
}
