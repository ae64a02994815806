/* url(url [, format [, structure [, compression]]]): data over http(s)://, one read task
 * per URL. Braces in the URL ({a,b}, {N..M}) make several URLs, as ClickHouse does; a
 * generated URL that answers 404 is skipped (http_skip_not_found_url_for_globs); there is
 * no listing of plain HTTP servers, so '*' is refused. Each URL is probed with HEAD (size
 * and ETag), then read by a background thread into a bounded buffer: with ranged GETs of
 * max_download_buffer_size bytes when the object is larger than that and the server
 * honours Range (a 206 with Content-Range to the first one), else with one streaming GET.
 * Format and compression come from the URL path's extension when omitted; the schema is
 * inferred from the first URL with data, through the schema cache (storage/schema_cache.h)
 * when schema_inference_use_cache_for_url is on and the server sends an ETag. Virtual
 * columns: _path (the URL's path), _file (its last segment), _size (NULL when unknown).
 * Predicates on _path/_file drop URLs before any is opened (set_filter). */
#include "base/buf.h"
#include "base/err.h"
#include "base/mem.h"
#include "codec/stream_codec.h"
#include "io/http.h"
#include "storage/schema_cache.h"
#include "storage/structure.h"
#include "storage/tablefunc.h"
#include "storage/tablefunc/read_common.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ClickHouse's RECEIVED_ERROR_FROM_REMOTE_IO_SERVER; base/err.h has no name for it. */
enum { URL_ERR_REMOTE = ERR_RECEIVED_ERROR_FROM_REMOTE_IO_SERVER, URL_MAX_URLS = 1000 };

/* ---- the read stream ---- */

typedef struct url_stream {
    instream base;
    char *url;
    int64_t size;          /* -1: unknown */
    size_t piece;          /* bytes per ranged GET */
    http_counters *io;
    pthread_t thread;
    bool started;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    char *ring;            /* unread bytes at ring[head, head + len) */
    size_t cap, head, len;
    bool done, failed, cancel;
    err_saved err;
    /* producer side */
    http_response *cur;    /* the response of the request under way */
    bool checking_range;   /* the first ranged GET: its first bytes must come with a 206 */
    bool no_ranges;        /* the server answered a ranged GET with the whole object */
    bool *no_ranges_hint;  /* the object's memory of that, for its later streams */
} url_stream;

static int push_bytes(url_stream *s, const char *p, size_t n)
{
    pthread_mutex_lock(&s->mu);
    while (n) {
        while (s->len == s->cap && !s->cancel)
            pthread_cond_wait(&s->cv, &s->mu);
        if (s->cancel) {
            pthread_mutex_unlock(&s->mu);
            return err_set(ERR_QUERY_WAS_CANCELLED, "Reading %s was stopped", s->url);
        }
        if (s->head && s->head + s->len + n > s->cap) { /* compact */
            memmove(s->ring, s->ring + s->head, s->len);
            s->head = 0;
        }
        size_t k = s->cap - s->head - s->len;
        if (k > n)
            k = n;
        memcpy(s->ring + s->head + s->len, p, k);
        s->len += k;
        p += k;
        n -= k;
        pthread_cond_broadcast(&s->cv);
    }
    pthread_mutex_unlock(&s->mu);
    return 0;
}

static int on_data(void *ctx, const void *p, size_t n)
{
    url_stream *s = ctx;
    if (s->checking_range) {
        s->checking_range = false;
        if (s->cur->total_size == 0) { /* no Content-Range: a 200 with the whole object */
            s->no_ranges = true;
            return err_set(ERR_BAD_ARGUMENTS, "%s does not support ranges", s->url);
        }
    }
    return push_bytes(s, p, n);
}

static int get(url_stream *s, bool ranged, uint64_t from, uint64_t to)
{
    http_request r = {.method = "GET", .url = s->url, .has_range = ranged, .range_from = from, .range_to = to,
                      .on_data = on_data, .data_ctx = s, .counters = s->io};
    http_response resp = {0};
    s->cur = &resp;
    int rc = http_run(&r, &resp);
    http_response_free(&resp);
    s->cur = NULL;
    return rc;
}

static bool cancelled(url_stream *s)
{
    pthread_mutex_lock(&s->mu);
    bool c = s->cancel;
    pthread_mutex_unlock(&s->mu);
    return c;
}

static void *producer(void *arg)
{
    url_stream *s = arg;
    int rc = 0;
    if (s->size > 0 && (uint64_t)s->size > s->piece && !*s->no_ranges_hint) {
        s->checking_range = true;
        for (uint64_t off = 0; off < (uint64_t)s->size && rc == 0 && !cancelled(s); off += s->piece) {
            uint64_t end = off + s->piece > (uint64_t)s->size ? (uint64_t)s->size : off + s->piece;
            rc = get(s, true, off, end - 1);
        }
        if (rc && s->no_ranges) {
            *s->no_ranges_hint = true;
            err_clear();
            rc = get(s, false, 0, 0);
        }
    } else if (s->size != 0) {
        rc = get(s, false, 0, 0);
    }
    pthread_mutex_lock(&s->mu);
    if (rc) {
        err_save(&s->err);
        s->failed = true;
    }
    s->done = true;
    pthread_cond_broadcast(&s->cv);
    pthread_mutex_unlock(&s->mu);
    return NULL;
}

static int stream_read(instream *in, void *dst, size_t cap, size_t *got)
{
    url_stream *s = (url_stream *)in;
    if (!s->started) {
        s->started = true;
        if (pthread_create(&s->thread, NULL, producer, s) != 0) {
            s->started = false;
            return err_set(ERR_NETWORK_ERROR, "Cannot start a thread to read %s", s->url);
        }
    }
    pthread_mutex_lock(&s->mu);
    while (s->len == 0 && !s->done)
        pthread_cond_wait(&s->cv, &s->mu);
    size_t k = s->len < cap ? s->len : cap;
    if (k) {
        memcpy(dst, s->ring + s->head, k);
        s->head += k;
        s->len -= k;
        if (!s->len)
            s->head = 0;
        pthread_cond_broadcast(&s->cv);
    }
    bool failed = s->failed && !k;
    pthread_mutex_unlock(&s->mu);
    if (failed) /* data received before the failure is delivered first */
        return err_restore(&s->err);
    *got = k;
    s->base.offset += k;
    return 0;
}

static void stream_close(instream *in)
{
    url_stream *s = (url_stream *)in;
    if (s->started) {
        pthread_mutex_lock(&s->mu);
        s->cancel = true;
        pthread_cond_broadcast(&s->cv);
        pthread_mutex_unlock(&s->mu);
        pthread_join(s->thread, NULL);
    }
    pthread_mutex_destroy(&s->mu);
    pthread_cond_destroy(&s->cv);
    free(s->ring);
    free(s->url);
    free(s);
}

/* A stream over url (size -1 when unknown); nothing is requested before the first read.
 * *no_ranges (borrowed; set when the server turns out to ignore Range) makes it use one
 * GET; streams of one object must not run at the same time. */
static instream *url_stream_open(const char *url, int64_t size, size_t piece, bool *no_ranges, http_counters *io)
{
    url_stream *s = xcalloc(1, sizeof *s);
    s->no_ranges_hint = no_ranges;
    s->url = xstrdup(url);
    s->size = size;
    s->piece = piece ? piece : 10u << 20;
    s->io = io;
    s->cap = 1u << 20;
    s->ring = xmalloc(s->cap);
    pthread_mutex_init(&s->mu, NULL);
    pthread_cond_init(&s->cv, NULL);
    s->base.read = stream_read;
    s->base.close = stream_close;
    s->base.name = s->url;
    s->base.size_hint = size > 0 ? (uint64_t)size : 0;
    return &s->base;
}

/* ---- URLs ---- */

typedef struct url_obj {
    char *url;     /* as requested */
    char *path;    /* _path: the URL's path, without query or fragment */
    int64_t size;  /* -1: unknown */
    char *etag;    /* "" when the server sent none */
    bool no_ranges; /* a ranged GET was answered with the whole object */
} url_obj;

typedef struct url_src {
    url_obj *objs;
    size_t nobjs, nall;
    char *format, *compression;
    schema *file_schema;
    size_t piece;
    http_counters *io;
    bool *coded;            /* per file column: may come dictionary-coded (accept_codes) */
} url_src;

/* The path of a URL ("/data/x.csv" of "http://h:1/data/x.csv?a=b"). */
static char *url_path(const char *url)
{
    const char *p = strstr(url, "://");
    p = p ? p + 3 : url;
    p += strcspn(p, "/?#");
    size_t n = strcspn(p, "?#");
    return n ? xstrndup(p, n) : xstrdup("/");
}

/* Adds the URLs that pattern's braces generate ({a,b,c}, {N..M} with ClickHouse's
 * zero-padding rule) to *out. */
static int expand(const char *done_part, const char *pat, char ***out, size_t *n)
{
    const char *open = strchr(pat, '{');
    if (!open) {
        if (*n >= URL_MAX_URLS)
            return err_set(ERR_BAD_ARGUMENTS, "The URL pattern generates more than %d URLs", URL_MAX_URLS);
        size_t a = strlen(done_part), b = strlen(pat);
        char *u = xmalloc(a + b + 1);
        memcpy(u, done_part, a);
        memcpy(u + a, pat, b + 1);
        *out = xrealloc(*out, sizeof **out * (*n + 1));
        (*out)[(*n)++] = u;
        return 0;
    }
    const char *close = strchr(open, '}');
    if (!close)
        return err_set(ERR_BAD_ARGUMENTS, "Unbalanced '{' in URL pattern %s%s", done_part, pat);
    buf head = {0};
    buf_printf(&head, "%s%.*s", done_part, (int)(open - pat), pat);
    size_t hl = head.len;
    const char *body = open + 1;
    size_t bl = (size_t)(close - body);
    const char *dots = NULL;
    for (size_t i = 0; i + 1 < bl; i++)
        if (body[i] == '.' && body[i + 1] == '.') {
            dots = body + i;
            break;
        }
    char *endp;
    int rc = 0;
    unsigned long long lo = 0, hi = 0;
    bool range = dots && !memchr(body, ',', bl) && dots > body && dots + 2 < close;
    if (range) {
        lo = strtoull(body, &endp, 10);
        range = endp == dots;
        hi = strtoull(dots + 2, &endp, 10);
        range = range && endp == close;
    }
    if (range) {
        int width = 0;
        if ((body[0] == '0' && dots - body > 1) || (dots[2] == '0' && close - dots - 2 > 1)) {
            int w1 = (int)(dots - body), w2 = (int)(close - dots - 2);
            width = w1 > w2 ? w1 : w2;
        }
        if (lo > hi) {
            unsigned long long t = lo;
            lo = hi;
            hi = t;
        }
        if (hi - lo >= URL_MAX_URLS)
            rc = err_set(ERR_BAD_ARGUMENTS, "The URL pattern generates more than %d URLs", URL_MAX_URLS);
        for (unsigned long long v = lo; v <= hi && rc == 0; v++) {
            head.len = hl;
            buf_printf(&head, "%0*llu", width, v);
            rc = expand(buf_cstr(&head), close + 1, out, n);
        }
    } else {
        const char *a = body;
        while (rc == 0) {
            const char *e = memchr(a, ',', (size_t)(close - a));
            if (!e)
                e = close;
            head.len = hl;
            buf_printf(&head, "%.*s", (int)(e - a), a);
            rc = expand(buf_cstr(&head), close + 1, out, n);
            if (e == close)
                break;
            a = e + 1;
        }
    }
    buf_free(&head);
    return rc;
}

/* Size and ETag by HEAD. *missing: the server said 404. A server that refuses HEAD
 * (405, 501) leaves the size unknown; other failures are errors. */
static int probe(const char *url, http_counters *io, url_obj *o, bool *missing)
{
    http_request r = {.method = "HEAD", .url = url, .counters = io};
    http_response resp = {0};
    *missing = false;
    o->size = -1;
    o->etag = xstrdup("");
    int rc = http_run(&r, &resp);
    if (rc == 0) {
        o->size = resp.content_length;
        free(o->etag);
        o->etag = xstrdup(resp.etag);
    } else if (resp.status == 404) {
        *missing = true;
        err_set(URL_ERR_REMOTE, "Received error from remote server %s. HTTP status code: 404 'Not Found'", url);
    } else if (resp.status == 405 || resp.status == 501) {
        err_clear();
        rc = 0;
    } else if (resp.status >= 300) {
        err_set(URL_ERR_REMOTE, "Received error from remote server %s. HTTP status code: %ld", url, resp.status);
    }
    http_response_free(&resp);
    return rc;
}

static void objs_free(url_obj *o, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(o[i].url);
        free(o[i].path);
        free(o[i].etag);
    }
    free(o);
}

static void src_free(url_src *f)
{
    objs_free(f->objs, f->nall > f->nobjs ? f->nall : f->nobjs);
    free(f->format);
    free(f->compression);
    schema_free(f->file_schema);
    free(f->coded);
    free(f);
}

static int open_rbuf(url_src *f, url_obj *o, rbuf **out)
{
    instream *in = url_stream_open(o->url, o->size, f->piece, &o->no_ranges, f->io);
    const char *method = strcmp(f->compression, "auto") == 0 ? codec_method_from_path(o->path) : f->compression;
    if (strcmp(method, "none") != 0 && instream_decompress(in, method, &in))
        return -1;
    *out = rbuf_new(in, 1 << 20);
    return 0;
}

/* ---- the source ---- */

typedef struct url_it {
    fmt_reader *reader;
    url_obj *obj;
    int ncols;
    int *cols;
    int nfile;
    query_ctx *q;
} url_it;

static int url_open(source *s, int task, const int *cols, int ncols, query_ctx *q, void **itp)
{
    url_src *f = s->impl;
    url_it *it = xcalloc(1, sizeof *it);
    it->obj = &f->objs[task];
    it->ncols = ncols;
    it->cols = read_cols_copy(cols, ncols);
    it->nfile = f->file_schema->n;
    it->q = q;
    rbuf *rb;
    if (open_rbuf(f, it->obj, &rb) || fmt_reader_new(f->format, rb, f->file_schema, &q->fmt, &it->reader)) {
        err_suffix(" (in file/uri %s)", it->obj->url);
        free(it->cols);
        free(it);
        return -1;
    }
    read_select_columns(it->reader, cols, ncols, it->nfile, f->coded);
    *itp = it;
    return 0;
}

static int url_next(void *itp, block **out)
{
    url_it *it = itp;
    block *b;
    if (fmt_reader_next(it->reader, &b)) {
        if (!strstr(err_msg(), it->obj->url))
            err_suffix(" (in file/uri %s)", it->obj->url);
        return -1;
    }
    if (!b) {
        *out = NULL;
        return 0;
    }
    query_add_read(it->q, b->rows, block_bytes(b));
    *out = read_project(b, it->cols, it->ncols, it->nfile, it->obj->path, it->obj->size);
    return 0;
}

static void url_close(void *itp)
{
    url_it *it = itp;
    fmt_reader_free(it->reader);
    free(it->cols);
    free(it);
}

static void url_destroy(source *s) { src_free(s->impl); }

static void url_accept_codes(source *s, const bool *coded)
{
    url_src *f = s->impl;
    read_accept_codes(&f->coded, coded, f->file_schema->n);
}

/* Keeps the URLs whose _path/_file may satisfy the filters (moved to the front; the rest
 * stay allocated until the source is freed). */
static void url_set_filter(source *s, const src_filter *fl, int n, query_ctx *q)
{
    (void)q;
    url_src *f = s->impl;
    int nfile = f->file_schema->n;
    if (!read_has_path_filter(fl, n, nfile))
        return;
    if (!f->nall)
        f->nall = f->nobjs;
    size_t k = 0;
    for (size_t i = 0; i < f->nobjs; i++)
        if (read_object_may_match(fl, n, nfile, f->objs[i].path)) {
            url_obj t = f->objs[k];
            f->objs[k] = f->objs[i];
            f->objs[i] = t;
            k++;
        }
    f->nobjs = k;
    s->ntasks = (int)k;
}

int tablefunc_url(column *const *args, int nargs, query_ctx *q, source **out)
{
    if (nargs < 1 || nargs > 4)
        return err_set(ERR_NUMBER_OF_ARGUMENTS_DOESNT_MATCH,
                       "Table function 'url' requires 1 to 4 arguments: url [, format [, structure [, compression_method]]]");
    char *a[4] = {0};
    for (int i = 0; i < nargs; i++) {
        if (type_base(args[i]->type)->id != T_STRING) {
            for (int k = 0; k < i; k++)
                free(a[k]);
            return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "Argument %d of table function 'url' must be a string literal",
                           i + 1);
        }
        size_t n;
        const char *s = col_str(args[i], 0, &n);
        a[i] = xstrndup(s, n);
    }
    int rc = -1;
    char **urls = NULL;
    size_t nurls = 0;
    url_src *f = xcalloc(1, sizeof *f);
    f->io = &q->io;
    f->piece = (size_t)settings_int(q->st, "max_download_buffer_size");
    f->compression = xstrdup(a[3] ? a[3] : "auto");
    bool has_format = a[1] && strcmp(a[1], "auto") != 0;
    bool has_structure = a[2] && strcmp(a[2], "auto") != 0;
    if (strncasecmp(a[0], "http://", 7) != 0 && strncasecmp(a[0], "https://", 8) != 0) {
        const char *colon = strstr(a[0], "://");
        err_set(ERR_BAD_ARGUMENTS, "Unknown protocol in the URL: %.*s (table function 'url' reads http:// and https://)",
                colon ? (int)(colon - a[0]) : (int)strlen(a[0]), a[0]);
        goto out;
    }
    if (strchr(a[0], '*')) {
        err_set(ERR_SUPPORT_IS_DISABLED,
                "Wildcard expansion for `url` from HTTP index pages is experimental. Set "
                "`allow_experimental_url_wildcard_from_index_pages = 1` to enable it");
        goto out;
    }
    bool glob = strchr(a[0], '{') != NULL;
    if (expand("", a[0], &urls, &nurls))
        goto out;
    f->objs = xcalloc(nurls + 1, sizeof *f->objs);
    for (size_t i = 0; i < nurls; i++) {
        url_obj o = {0};
        bool missing;
        if (probe(urls[i], f->io, &o, &missing)) {
            free(o.etag);
            if (missing && glob && settings_bool(q->st, "http_skip_not_found_url_for_globs")) {
                err_clear();
                continue;
            }
            goto out;
        }
        o.url = xstrdup(urls[i]);
        o.path = url_path(urls[i]);
        f->objs[f->nobjs++] = o;
    }
    if (f->nobjs == 0 && !has_structure) {
        err_set(ERR_CANNOT_EXTRACT_TABLE_STRUCTURE,
                "Cannot extract table structure from %s format file, because all files are empty or none of the URLs "
                "%s could be read. You can specify table structure manually",
                has_format ? a[1] : "auto", a[0]);
        goto out;
    }
    if (has_format) {
        const char *canon = fmt_input_canonical(a[1]);
        if (!canon) {
            err_set(ERR_UNKNOWN_FORMAT, "Unknown input format %s", a[1]);
            goto out;
        }
        f->format = xstrdup(canon);
    } else {
        char *p = url_path(f->nobjs ? f->objs[0].url : urls[0]);
        const char *det = fmt_from_filename(p);
        if (!det)
            err_set(ERR_CANNOT_EXTRACT_TABLE_STRUCTURE,
                    "Cannot detect the format of '%s' from its name; specify the format explicitly: url(url, format)", p);
        free(p);
        if (!det)
            goto out;
        f->format = xstrdup(det);
    }
    if (has_structure) {
        if (structure_parse(a[2], strlen(a[2]), &f->file_schema))
            goto out;
    } else {
        bool use_cache = settings_bool(q->st, "schema_inference_use_cache_for_url");
        char *info = use_cache ? schema_cache_format_info(&q->fmt) : NULL;
        int irc = 0;
        for (size_t i = 0; i < f->nobjs && !f->file_schema && !irc; i++) {
            schema_cache_key key = {.storage = "URL", .source = f->objs[i].url, .format = f->format, .info = info,
                                    .version = use_cache ? f->objs[i].etag : NULL};
            if ((f->file_schema = schema_cache_get(&key)))
                break;
            rbuf *rb;
            if (open_rbuf(f, &f->objs[i], &rb)) {
                irc = -1;
                break;
            }
            irc = fmt_infer_schema(f->format, rb, &q->fmt, &f->file_schema);
            rbuf_free(rb);
            if (irc && err_code() == ERR_EMPTY_DATA_PASSED && i + 1 < f->nobjs)
                irc = 0;
            else if (irc)
                err_suffix(" (in file/uri %s)", f->objs[i].url);
            else
                schema_cache_put(&key, f->file_schema);
        }
        free(info);
        if (irc)
            goto out;
    }
    source *src = xcalloc(1, sizeof *src);
    src->sch = read_source_schema(f->file_schema, true);
    src->nvisible = f->file_schema->n;
    src->ntasks = (int)f->nobjs;
    src->impl = f;
    src->open = url_open;
    src->next = url_next;
    src->close = url_close;
    src->destroy = url_destroy;
    src->set_filter = url_set_filter;
    src->accept_codes = url_accept_codes;
    *out = src;
    f = NULL;
    rc = 0;
out:
    if (f)
        src_free(f);
    for (size_t i = 0; i < nurls; i++)
        free(urls[i]);
    free(urls);
    for (int i = 0; i < nargs; i++)
        free(a[i]);
    return rc;
}
