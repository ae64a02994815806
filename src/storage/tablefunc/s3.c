/* s3(url [, NOSIGN | key, secret [, token]] [, format] [, structure] [, compression]):
 * objects in S3 (or any S3-compatible server), one read task per object, read through a
 * prefetching stream of ranged GETs (io/s3.h). Globs in the key are matched against a
 * listing of the glob's literal prefix. Format and compression come from the key's
 * extension when omitted; the schema is inferred from the first object. Virtual columns:
 * _path ("bucket/key"), _file (the key's last segment), _size. */
#include "base/err.h"
#include "base/mem.h"
#include "codec/stream_codec.h"
#include "format/split.h"
#include "io/glob.h"
#include "io/s3.h"
#include "storage/schema_cache.h"
#include "storage/structure.h"
#include "storage/tablefunc.h"
#include "storage/tablefunc/read_common.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct s3_src {
    s3_client *client;      /* counts into the query's io counters */
    s3_read_opts ropts;     /* max_download_threads, max_download_buffer_size, remote_filesystem_read_method */
    s3_object *objs;
    size_t nobjs;           /* objects read (keep_objects may lower it) */
    size_t nall;            /* objects listed (freed at the end) */
    char **names, **etags;  /* objects(): views of objs' keys and ETags */
    char *format;
    char *compression;
    schema *file_schema;
} s3_src;

typedef struct s3_it {
    fmt_reader *reader;
    const s3_object *obj;
    char *path;            /* bucket/key */
    int ncols;
    int *cols;
    int nfile;
    query_ctx *q;
} s3_it;

/* Schema inference reads only the start of an object: synchronous 1 MiB pieces, so that
 * no download runs ahead of what the inference needs. */
static int open_stream(s3_src *f, const s3_object *o, bool infer, rbuf **out)
{
    instream *in;
    s3_read_opts small = {.piece = 1u << 20, .threads = 1, .sync = true};
    if (instream_open_s3_opts(f->client, o->key, o->size, o->etag, infer ? &small : &f->ropts, &in))
        return -1;
    const char *method = strcmp(f->compression, "auto") == 0 ? codec_method_from_path(o->key) : f->compression;
    if (strcmp(method, "none") != 0 && instream_decompress(in, method, &in))
        return -1;
    *out = rbuf_new(in, 1 << 20);
    return 0;
}

static int s3_open(source *s, int task, const int *cols, int ncols, query_ctx *q, void **itp)
{
    s3_src *f = s->impl;
    s3_it *it = xcalloc(1, sizeof *it);
    it->obj = &f->objs[task];
    size_t len = strlen(s3_client_url(f->client)->bucket) + strlen(it->obj->key) + 2;
    it->path = xmalloc(len);
    snprintf(it->path, len, "%s/%s", s3_client_url(f->client)->bucket, it->obj->key);
    it->ncols = ncols;
    it->cols = read_cols_copy(cols, ncols);
    it->nfile = f->file_schema->n;
    it->q = q;
    rbuf *rb;
    if (open_stream(f, it->obj, false, &rb) || fmt_reader_new(f->format, rb, f->file_schema, &q->fmt, &it->reader)) {
        err_suffix(" (in object %s)", it->path);
        free(it->path);
        free(it->cols);
        free(it);
        return -1;
    }
    read_select_columns(it->reader, cols, ncols, it->nfile);
    *itp = it;
    return 0;
}

static int s3_next(void *itp, block **out)
{
    s3_it *it = itp;
    block *b;
    if (fmt_reader_next(it->reader, &b)) {
        if (!strstr(err_msg(), it->path))
            err_suffix(" (in object %s)", it->path);
        return -1;
    }
    if (!b) {
        *out = NULL;
        return 0;
    }
    query_add_read(it->q, b->rows, block_bytes(b));
    *out = read_project(b, it->cols, it->ncols, it->nfile, it->path, (int64_t)it->obj->size);
    return 0;
}

static void s3_close(void *itp)
{
    s3_it *it = itp;
    fmt_reader_free(it->reader);
    free(it->path);
    free(it->cols);
    free(it);
}

static void src_free(s3_src *f)
{
    s3_client_free(f->client);
    s3_objects_free(f->objs, f->nall > f->nobjs ? f->nall : f->nobjs);
    free(f->names);
    free(f->etags);
    free(f->format);
    free(f->compression);
    schema_free(f->file_schema);
    free(f);
}

static void s3_destroy(source *s) { src_free(s->impl); }

static int s3_objects(source *s, int *n, char *const **names, char *const **versions)
{
    s3_src *f = s->impl;
    if (!f->names) {
        f->names = xcalloc(f->nobjs + 1, sizeof *f->names);
        f->etags = xcalloc(f->nobjs + 1, sizeof *f->etags);
        for (size_t i = 0; i < f->nobjs; i++) {
            f->names[i] = f->objs[i].key;
            f->etags[i] = f->objs[i].etag ? f->objs[i].etag : (char *)"";
        }
    }
    *n = (int)f->nobjs;
    *names = f->names;
    *versions = f->etags;
    return 0;
}

/* Moves the kept objects to the front (one task per object); the rest stay allocated
 * after nobjs until the source is freed. */
static void s3_keep_objects(source *s, const uint8_t *keep)
{
    s3_src *f = s->impl;
    if (!f->nall)
        f->nall = f->nobjs;
    size_t k = 0;
    for (size_t i = 0; i < f->nobjs; i++)
        if (keep[i]) {
            s3_object t = f->objs[k];
            f->objs[k] = f->objs[i];
            f->objs[i] = t;
            k++;
        }
    f->nobjs = k;
    s->ntasks = (int)k;
    free(f->names);
    free(f->etags);
    f->names = f->etags = NULL;
}

/* Drops the objects whose _path ("bucket/key") or _file cannot satisfy the filters, so
 * that a glob over many objects opens only those the WHERE clause names. */
static void s3_set_filter(source *s, const src_filter *fl, int n, query_ctx *q)
{
    (void)q;
    s3_src *f = s->impl;
    int nfile = f->file_schema->n;
    if (!read_has_path_filter(fl, n, nfile))
        return;
    const char *bucket = s3_client_url(f->client)->bucket;
    uint8_t *keep = xcalloc(f->nobjs + 1, 1);
    buf path = {0};
    for (size_t i = 0; i < f->nobjs; i++) {
        path.len = 0;
        buf_printf(&path, "%s/%s", bucket, f->objs[i].key);
        keep[i] = read_object_may_match(fl, n, nfile, buf_cstr(&path));
    }
    buf_free(&path);
    s3_keep_objects(s, keep);
    free(keep);
}

static bool is_format_name(const char *s) { return strcmp(s, "auto") == 0 || fmt_input_canonical(s) != NULL; }

/* ClickHouse's reading of the positional arguments (TableFunctionS3): NOSIGN or key/secret
 * [/token] after the URL, told apart from format/structure by whether an argument names a
 * format. Fills a[0..6] = url, key, secret, token, format, structure, compression. */
static int split_args(char **v, int n, const char **a, bool *nosign)
{
    for (int i = 0; i < 7; i++)
        a[i] = NULL;
    a[0] = v[0];
    *nosign = n >= 2 && strcasecmp(v[1], "NOSIGN") == 0;
    enum { KEY = 1, SECRET, TOKEN, FORMAT, STRUCTURE, COMPRESSION };
    static const int layouts[][7] = {
        /* 0: url, format, structure, compression */
        {FORMAT, STRUCTURE, COMPRESSION},
        /* 1: url, NOSIGN, format, structure, compression */
        {-1, FORMAT, STRUCTURE, COMPRESSION},
        /* 2: url, key, secret, format, structure, compression */
        {KEY, SECRET, FORMAT, STRUCTURE, COMPRESSION},
        /* 3: url, key, secret, token, format, structure, compression */
        {KEY, SECRET, TOKEN, FORMAT, STRUCTURE, COMPRESSION},
    };
    static const int maxn[] = {4, 5, 6, 7};
    int layout;
    if (n == 1 || (n >= 2 && !*nosign && is_format_name(v[1]) && n <= 4))
        layout = 0;
    else if (*nosign)
        layout = 1;
    else if (n == 3 || (n >= 4 && is_format_name(v[3])))
        layout = 2;
    else
        layout = 3;
    if (n == 2 && !*nosign && !is_format_name(v[1]))
        return err_set(ERR_BAD_ARGUMENTS, "Unknown format %s in table function s3", v[1]);
    if (n > maxn[layout])
        return err_set(ERR_NUMBER_OF_ARGUMENTS_DOESNT_MATCH,
                       "Table function 's3' requires 1 to 7 arguments: url [, NOSIGN | access_key_id, "
                       "secret_access_key [, session_token]] [, format] [, structure] [, compression_method]");
    for (int i = 1; i < n; i++) {
        int role = layouts[layout][i - 1];
        if (role > 0)
            a[role] = v[i];
    }
    return 0;
}

int tablefunc_s3(column *const *args, int nargs, query_ctx *q, source **out)
{
    if (nargs < 1 || nargs > 7)
        return err_set(ERR_NUMBER_OF_ARGUMENTS_DOESNT_MATCH,
                       "Table function 's3' requires 1 to 7 arguments: url [, NOSIGN | access_key_id, "
                       "secret_access_key [, session_token]] [, format] [, structure] [, compression_method]");
    char *v[7] = {0};
    for (int i = 0; i < nargs; i++) {
        if (type_base(args[i]->type)->id != T_STRING) {
            for (int k = 0; k < i; k++)
                free(v[k]);
            return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "Argument %d of table function 's3' must be a string literal",
                           i + 1);
        }
        size_t n;
        const char *s = col_str(args[i], 0, &n);
        v[i] = xstrndup(s, n);
    }
    const char *a[7];
    bool nosign;
    s3_src *f = NULL;
    s3_url u = {0};
    int rc = -1;
    if (split_args(v, nargs, a, &nosign))
        goto out;
    if (s3_url_parse(a[0], &u))
        goto out;
    f = xcalloc(1, sizeof *f);
    s3_creds cr = {.key_id = a[1], .secret = a[2], .token = a[3], .nosign = nosign};
    f->client = s3_client_new(&u, &cr, &q->io);
    s3_client_apply_settings(f->client, q->st);
    f->ropts.piece = (size_t)settings_int(q->st, "max_download_buffer_size");
    f->ropts.threads = (int)settings_int(q->st, "max_download_threads");
    f->ropts.sync = strcmp(settings_str(q->st, "remote_filesystem_read_method"), "read") == 0;
    f->compression = xstrdup(a[6] ? a[6] : "auto");
    bool has_structure = a[5] && strcmp(a[5], "auto") != 0;
    bool has_format = a[4] && strcmp(a[4], "auto") != 0;
    if (glob_has_magic(u.key)) {
        size_t pl = s3_glob_prefix_len(u.key);
        char *prefix = xstrndup(u.key, pl);
        s3_object *all;
        size_t n;
        int lrc = s3_list(f->client, prefix, &all, &n);
        free(prefix);
        if (lrc)
            goto out;
        f->objs = xcalloc(n + 1, sizeof *f->objs);
        for (size_t i = 0; i < n; i++) {
            if (glob_match(u.key, all[i].key) && all[i].key[strlen(all[i].key) - 1] != '/') {
                f->objs[f->nobjs++] = all[i];
            } else {
                free(all[i].key);
                free(all[i].etag);
            }
        }
        free(all);
        if (f->nobjs == 0 && !has_structure) {
            err_set(ERR_CANNOT_EXTRACT_TABLE_STRUCTURE,
                    "Cannot extract table structure from %s format file, because there are no files with provided "
                    "path in S3 or all files are empty. You can specify table structure manually (pattern '%s' in bucket '%s')",
                    has_format ? a[4] : "auto", u.key, u.bucket);
            goto out;
        }
    } else {
        f->objs = xcalloc(1, sizeof *f->objs);
        uint64_t size;
        char *etag = NULL;
        if (s3_head(f->client, u.key, &size, &etag)) {
            err_prefix("Cannot read object '%s' in bucket '%s': ", u.key, u.bucket);
            goto out;
        }
        f->objs[0] = (s3_object){.key = xstrdup(u.key), .size = size, .etag = etag};
        f->nobjs = 1;
    }
    if (has_format) {
        const char *canon = fmt_input_canonical(a[4]);
        if (!canon) {
            err_set(ERR_UNKNOWN_FORMAT, "Unknown input format %s", a[4]);
            goto out;
        }
        f->format = xstrdup(canon);
    } else {
        const char *det = fmt_from_filename(f->nobjs ? f->objs[0].key : u.key);
        if (!det) {
            err_set(ERR_CANNOT_EXTRACT_TABLE_STRUCTURE,
                    "Cannot detect the format of '%s' from its name; specify the format explicitly: s3(url, format)",
                    f->nobjs ? f->objs[0].key : u.key);
            goto out;
        }
        f->format = xstrdup(det);
    }
    if (has_structure) {
        if (structure_parse(a[5], strlen(a[5]), &f->file_schema))
            goto out;
    } else {
        /* The first object with data, or a cached inference of it (by URL and ETag). */
        bool use_cache = settings_bool(q->st, "schema_inference_use_cache_for_s3");
        char *info = use_cache ? schema_cache_format_info(&q->fmt) : NULL;
        int irc = 0;
        for (size_t i = 0; i < f->nobjs && !f->file_schema && !irc; i++) {
            char *src_url = s3_object_url(f->client, f->objs[i].key);
            schema_cache_key key = {.storage = "S3", .source = src_url, .format = f->format, .info = info,
                                    .version = use_cache ? f->objs[i].etag : NULL};
            if (!(f->file_schema = schema_cache_get(&key))) {
                rbuf *rb;
                if (open_stream(f, &f->objs[i], true, &rb)) {
                    irc = -1;
                } else {
                    irc = fmt_infer_schema(f->format, rb, &q->fmt, &f->file_schema);
                    rbuf_free(rb);
                    if (irc && err_code() == ERR_EMPTY_DATA_PASSED && i + 1 < f->nobjs)
                        irc = 0;
                    else if (irc)
                        err_suffix(" (while inferring the structure of %s/%s)", u.bucket, f->objs[i].key);
                    else
                        schema_cache_put(&key, f->file_schema);
                }
            }
            free(src_url);
        }
        free(info);
        if (irc)
            goto out;
    }
    source *src = xcalloc(1, sizeof *src);
    int nf = f->file_schema->n;
    src->sch = schema_new(nf + 3);
    for (int i = 0; i < nf; i++)
        schema_set(src->sch, i, f->file_schema->names[i], f->file_schema->types[i]);
    schema_set(src->sch, nf, "_path", type_lowcard(type_simple(T_STRING)));
    schema_set(src->sch, nf + 1, "_file", type_lowcard(type_simple(T_STRING)));
    schema_set(src->sch, nf + 2, "_size", type_nullable(type_simple(T_UINT64)));
    src->nvisible = nf;
    src->ntasks = (int)f->nobjs;
    src->impl = f;
    src->open = s3_open;
    src->next = s3_next;
    src->close = s3_close;
    src->destroy = s3_destroy;
    src->objects = s3_objects;
    src->keep_objects = s3_keep_objects;
    src->set_filter = s3_set_filter;
    *out = src;
    f = NULL;
    rc = 0;
out:
    if (f)
        src_free(f);
    s3_url_free(&u);
    for (int i = 0; i < nargs; i++) {
        if (v[i]) /* the secret must not linger in freed memory */
            memset(v[i], 0, strlen(v[i]));
        free(v[i]);
    }
    return rc;
}

/* ---- INSERT INTO FUNCTION s3(url [, NOSIGN | key, secret [, token]] [, format] [, structure] [, compression]) ---- */

/* Between the compressor (which closes what it wraps) and the S3 stream: closing it
 * completes the object unless the insert is being abandoned, when it aborts the upload. */
typedef struct abort_guard {
    outstream base;
    outstream *raw;
    bool aborting;
} abort_guard;

static int guard_write(outstream *s, const void *src, size_t n)
{
    abort_guard *g = (abort_guard *)s;
    int rc = g->raw->write(g->raw, src, n);
    g->base.offset = g->raw->offset;
    return rc;
}

static int guard_close(outstream *s)
{
    abort_guard *g = (abort_guard *)s;
    int rc = 0;
    if (g->aborting)
        outstream_s3_abort(g->raw);
    else
        rc = g->raw->close(g->raw);
    free(g);
    return rc;
}

typedef struct s3_sink {
    table_sink base;
    s3_client *client;
    abort_guard *guard; /* owned by os (the compressor) or os itself */
    outstream *os;      /* what the writer writes to */
    fmt_writer *w;
} s3_sink;

static int s3_sink_write(block_sink *s, block *b)
{
    s3_sink *k = (s3_sink *)s;
    int rc = fmt_writer_write(k->w, b);
    block_free(b);
    return rc;
}

static void s3_sink_close(s3_sink *k, bool abandon)
{
    err_saved e;
    err_save(&e);
    k->guard->aborting = abandon;
    k->os->close(k->os);
    err_restore(&e);
    s3_client_free(k->client);
    free(k);
}

static int s3_sink_finish(table_sink *s)
{
    s3_sink *k = (s3_sink *)s;
    fmt_stats st = {0};
    int rc = fmt_writer_finish(k->w, &st);
    fmt_writer_free(k->w);
    if (rc) {
        s3_sink_close(k, true);
        return -1;
    }
    rc = k->os->close(k->os); /* a failed completion aborts the upload itself */
    s3_client_free(k->client);
    free(k);
    return rc;
}

static void s3_sink_abort(table_sink *s)
{
    s3_sink *k = (s3_sink *)s;
    fmt_writer_free(k->w);
    s3_sink_close(k, true);
}

int tablefunc_s3_sink(column *const *args, int nargs, const schema *sch, query_ctx *q, table_sink **out)
{
    if (nargs < 1 || nargs > 7)
        return err_set(ERR_NUMBER_OF_ARGUMENTS_DOESNT_MATCH,
                       "Table function 's3' requires 1 to 7 arguments: url [, NOSIGN | access_key_id, "
                       "secret_access_key [, session_token]] [, format] [, structure] [, compression_method]");
    char *v[7] = {0};
    for (int i = 0; i < nargs; i++) {
        if (type_base(args[i]->type)->id != T_STRING) {
            for (int k = 0; k < i; k++)
                free(v[k]);
            return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "Argument %d of table function 's3' must be a string literal",
                           i + 1);
        }
        size_t n;
        const char *s = col_str(args[i], 0, &n);
        v[i] = xstrndup(s, n);
    }
    const char *a[7];
    bool nosign;
    s3_url u = {0};
    s3_client *client = NULL;
    int rc = -1;
    if (split_args(v, nargs, a, &nosign) || s3_url_parse(a[0], &u))
        goto out;
    if (!u.key[0] || u.key[strlen(u.key) - 1] == '/' || glob_has_magic(u.key)) {
        err_set(ERR_BAD_ARGUMENTS, "Cannot write to S3 URL %s: it must name one object (no globs, not a directory)", a[0]);
        goto out;
    }
    const char *format;
    if (a[4] && strcmp(a[4], "auto") != 0) {
        format = fmt_output_canonical(a[4]);
        if (!format) {
            err_set(ERR_UNKNOWN_FORMAT, "Unknown output format %s", a[4]);
            goto out;
        }
    } else {
        const char *det = fmt_from_filename(u.key);
        format = det ? fmt_output_canonical(det) : NULL;
        if (!format) {
            err_set(ERR_BAD_ARGUMENTS, "Cannot detect the output format from the key %s; pass the format explicitly",
                    u.key);
            goto out;
        }
    }
    const char *method = NULL;
    if (!a[6] || strcmp(a[6], "auto") == 0)
        method = codec_method_from_path(u.key);
    else if (codec_method_canonical(a[6], &method))
        goto out;
    s3_creds cr = {.key_id = a[1], .secret = a[2], .token = a[3], .nosign = nosign};
    client = s3_client_new(&u, &cr, &q->io);
    s3_client_apply_settings(client, q->st);
    if (!settings_bool(q->st, "s3_truncate_on_insert")) {
        /* ClickHouse refuses to replace an object unless told to; a listing of the key as
         * prefix also reports a missing bucket. */
        s3_object *objs;
        size_t n;
        if (s3_list(client, u.key, &objs, &n))
            goto out;
        bool exists = false;
        for (size_t i = 0; i < n; i++)
            exists |= strcmp(objs[i].key, u.key) == 0;
        s3_objects_free(objs, n);
        if (exists) {
            err_set(ERR_BAD_ARGUMENTS,
                    "Object in bucket %s with key %s already exists. If you want to overwrite it, enable setting "
                    "s3_truncate_on_insert, if you want to create a new file on each insert, enable setting "
                    "s3_create_new_file_on_insert",
                    u.bucket, u.key);
            goto out;
        }
    }
    s3_write_opts wo = {.min_part = (uint64_t)settings_int(q->st, "s3_min_upload_part_size"),
                        .max_part = (uint64_t)settings_int(q->st, "s3_max_upload_part_size"),
                        .factor = (uint64_t)settings_int(q->st, "s3_upload_part_size_multiply_factor"),
                        .threshold = (uint64_t)settings_int(q->st, "s3_upload_part_size_multiply_parts_count_threshold"),
                        .max_single = (uint64_t)settings_int(q->st, "s3_max_single_part_upload_size"),
                        .max_inflight = (int)settings_int(q->st, "s3_max_inflight_parts_for_one_file")};
    outstream *raw;
    if (outstream_open_s3(client, u.key, &wo, &raw))
        goto out;
    abort_guard *g = xcalloc(1, sizeof *g);
    g->raw = raw;
    g->base.write = guard_write;
    g->base.close = guard_close;
    g->base.name = raw->name;
    outstream *os = &g->base;
    if (strcmp(method, "none") != 0 && outstream_compress(os, method, 0, &os)) {
        g->aborting = true;
        guard_close(&g->base);
        goto out;
    }
    s3_sink *k = xcalloc(1, sizeof *k);
    k->client = client;
    k->guard = g;
    k->os = os;
    if (fmt_writer_new(format, sch, &q->fmt, os, &k->w)) {
        s3_sink_close(k, true);
        client = NULL;
        goto out;
    }
    client = NULL;
    k->base.base.write = s3_sink_write;
    k->base.finish = s3_sink_finish;
    k->base.abort = s3_sink_abort;
    *out = &k->base;
    rc = 0;
out:
    s3_client_free(client);
    s3_url_free(&u);
    for (int i = 0; i < nargs; i++) {
        if (v[i])
            memset(v[i], 0, strlen(v[i]));
        free(v[i]);
    }
    return rc;
}
