/* file(path [, format [, structure [, compression]]]): local files, one read task per
 * file (per row group for uncompressed Parquet files, whose footers are read once when
 * the tasks are planned; with filter push-down, row groups whose statistics cannot match
 * the WHERE are skipped without reading), with globs (io/glob.h), compression by extension, schema inference from the first
 * file, and the virtual columns _path and _file. INSERT INTO FUNCTION file(...) writes
 * through storage/tablefunc/file_write.c. */
#include "base/err.h"
#include "base/mem.h"
#include "codec/stream_codec.h"
#include "io/glob.h"
#include "storage/tablefunc.h"
#include "format/split.h"
#include "format/parquet/reader.h"
#include "storage/schema_cache.h"
#include "storage/structure.h"
#include "storage/tablefunc/read_common.h"

#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <sys/stat.h>
#include <limits.h>
#include <pthread.h>
#include <unistd.h>

/* A read task: a whole file, or a byte range of a large uncompressed text file cut at
 * row boundaries (parallel parsing). */
typedef struct file_task {
    int path;
    uint64_t start, end;   /* end = 0: the whole file */
    int rg;                /* >= 0: this row group of a Parquet file (pq[path]) */
} file_task;

typedef struct file_src {
    char **paths;
    size_t npaths;
    file_task *tasks;
    int ntasks;
    char *format;
    char *compression;     /* "auto" = from the extension */
    schema *file_schema;   /* the columns the files hold */
    parquet_file **pq;     /* per path: the decoded footer of a Parquet file, or NULL */
    uint64_t pq_min_seek;  /* input_format_parquet_local_file_min_bytes_for_seek */
    src_filter *filters;   /* push-down hints (set_filter), values owned */
    int nfilters;
    pq_filter *page_filters; /* the same for page-index pruning (names and types borrowed) */
    int npage_filters;
    char **versions;       /* objects(): per path "size-mtime", made on first use */
    bool *coded;           /* per file column: may come dictionary-coded (accept_codes) */
} file_src;

typedef struct file_it {
    fmt_reader *reader;
    rd_bin *pq;            /* a Parquet row group's reader (reader is NULL then) */
    bool skipped;          /* the row group cannot match the filters: no rows */
    const char *path;
    char *vpath;           /* _path: the absolute path, when _path or _file is read */
    int ncols;
    int *cols;             /* requested: index into s->sch */
    int nfile;             /* file columns in the schema */
    query_ctx *q;
    read_prefilter pre;    /* set_prefilter */
} file_it;

/* _path is the file's absolute, normalised path, as in ClickHouse (a caller's
 * `../data/x.csv` reads as /abs/data/x.csv); the given path when it cannot be resolved.
 * New string. */
static char *absolute_path(const char *path)
{
    char *r = realpath(path, NULL);
    return r ? r : xstrdup(path);
}

static int open_reader(file_src *f, const char *path, const schema *sch, const fmt_settings *fs, fmt_reader **r)
{
    instream *in;
    if (instream_open_file(path, &in))
        return -1;
    const char *method = strcmp(f->compression, "auto") == 0 ? codec_method_from_path(path) : f->compression;
    if (strcmp(method, "none") != 0 && instream_decompress(in, method, &in))
        return -1;
    rbuf *rb = rbuf_new(in, 1 << 20);
    if (fmt_reader_new(f->format, rb, sch, fs, r)) {
        err_suffix(" (in file %s)", path);
        return -1;
    }
    return 0;
}

/* The first row start at or after x (x > 0): by the convention of split.h, the row
 * after the first row terminator at or after x - 1. Returns the file size when none. */
static int row_boundary(const char *format, const char *path, uint64_t x, uint64_t size, uint64_t *out)
{
    size_t window = 64 << 10;
    for (;;) {
        uint64_t from = x - 1;
        size_t want = from + window > size ? (size_t)(size - from) : window;
        char *b = xmalloc(want + 1);
        size_t got;
        if (file_pread(path, from, b, want, &got)) {
            free(b);
            return -1;
        }
        size_t off;
        int rc = fmt_find_row_start(format, b, got, &off);
        free(b);
        if (rc < 0)
            return -1;
        if (rc == 0) {
            *out = from + off;
            return 0;
        }
        if (from + got >= size) {
            *out = size;
            return 0;
        }
        window *= 4;
    }
}

/* Formats whose files may be cut into ranges: rows end at line breaks. A *WithNames
 * file's later ranges are read positionally with the base format. */
static const char *splittable_base(const char *format)
{
    static const struct {
        const char *fmt, *base;
    } m[] = {{"CSV", "CSV"}, {"CSVWithNames", "CSV"}, {"CSVWithNamesAndTypes", "CSV"},
             {"TabSeparated", "TabSeparated"}, {"TabSeparatedWithNames", "TabSeparated"},
             {"TabSeparatedWithNamesAndTypes", "TabSeparated"}, {"TabSeparatedRaw", "TabSeparatedRaw"},
             {"JSONEachRow", "JSONEachRow"}};
    for (size_t i = 0; i < sizeof m / sizeof m[0]; i++)
        if (strcmp(m[i].fmt, format) == 0)
            return m[i].base;
    return NULL;
}

static int open_range_reader(file_src *f, const file_task *t, const fmt_settings *fs, fmt_reader **r)
{
    const char *path = f->paths[t->path];
    uint64_t size = t->end; /* the caller stored the file size in the last range's end */
    struct stat st;
    if (stat(path, &st) == 0)
        size = (uint64_t)st.st_size;
    uint64_t a = 0, b = size;
    if (t->start > 0 && row_boundary(f->format, path, t->start, size, &a))
        return -1;
    if (t->end < size && row_boundary(f->format, path, t->end, size, &b))
        return -1;
    if (b < a)
        b = a;
    instream *in;
    if (instream_open_file_range(path, a, b - a, &in))
        return -1;
    rbuf *rb = rbuf_new(in, 1 << 20);
    fmt_settings local = *fs;
    const char *format = f->format;
    if (t->start > 0) {
        /* Later ranges have no header: read them positionally, without detection. */
        format = splittable_base(f->format);
        local.csv_detect_header = false;
        local.tsv_detect_header = false;
    }
    if (fmt_reader_new(format, rb, f->file_schema, &local, r)) {
        err_suffix(" (in file %s, bytes %llu..%llu)", path, (unsigned long long)a, (unsigned long long)b);
        return -1;
    }
    return 0;
}

static bool rg_may_match(const file_src *f, const file_task *t)
{
    for (int i = 0; i < f->nfilters; i++) {
        const src_filter *sf = &f->filters[i];
        if (!parquet_rg_may_match(f->pq[t->path], t->rg, f->file_schema->names[sf->col],
                                  f->file_schema->types[sf->col], (int)sf->op, sf->vals))
            return false;
    }
    return true;
}

static int open_row_group(file_src *f, const file_task *t, file_it *it, void **itp)
{
    if (!rg_may_match(f, t)) {
        it->skipped = true;
        *itp = it;
        return 0;
    }
    parquet_read_opts o = {.rg_first = t->rg, .rg_count = 1, .min_bytes_for_seek = f->pq_min_seek,
                           .filters = f->page_filters, .nfilters = f->npage_filters};
    if (parquet_reader_open(f->pq[t->path], f->file_schema, &it->q->fmt, &o, &it->pq)) {
        free(it->vpath);
        free(it->cols);
        free(it);
        return -1;
    }
    bool *needed = read_needed(it->cols, it->ncols, it->nfile);
    it->pq->select(it->pq, needed);
    free(needed);
    if (f->coded)
        it->pq->keep_codes(it->pq, f->coded);
    *itp = it;
    return 0;
}

static int file_open(source *s, int task, const int *cols, int ncols, query_ctx *q, void **itp)
{
    file_src *f = s->impl;
    file_it *it = xcalloc(1, sizeof *it);
    const file_task *t = &f->tasks[task];
    it->path = f->paths[t->path];
    it->ncols = ncols;
    it->cols = read_cols_copy(cols, ncols);
    it->nfile = f->file_schema->n;
    it->q = q;
    for (int i = 0; i < ncols && !it->vpath; i++)
        if (cols[i] >= it->nfile)
            it->vpath = absolute_path(it->path);
    if (t->rg >= 0)
        return open_row_group(f, t, it, itp);
    int orc = t->end ? open_range_reader(f, t, &q->fmt, &it->reader)
                     : open_reader(f, it->path, f->file_schema, &q->fmt, &it->reader);
    if (orc) {
        free(it->vpath);
        free(it->cols);
        free(it);
        return -1;
    }
    /* Parse only the columns the query reads. */
    read_select_columns(it->reader, cols, ncols, it->nfile, f->coded);
    *itp = it;
    return 0;
}

static int file_next(void *itp, block **out)
{
    file_it *it = itp;
    block *b;
    if (it->skipped) {
        *out = NULL;
        return 0;
    }
    if (it->pq ? it->pq->next(it->pq, &b) : fmt_reader_next(it->reader, &b)) {
        if (!strstr(err_msg(), it->path))
            err_suffix(" (in file %s)", it->path);
        return -1;
    }
    if (!b) {
        *out = NULL;
        return 0;
    }
    query_add_read(it->q, b->rows, block_bytes(b));
    *out = read_project(b, it->cols, it->ncols, it->nfile, it->vpath ? it->vpath : it->path, -1);
    return 0;
}

static void file_set_prefilter(void *itp, const bool *cols, fmt_prefilter_fn fn, void *ctx)
{
    file_it *it = itp;
    if (!it->pq)
        return; /* whole-file readers: no early filter */
    read_prefilter_free(&it->pre);
    bool *file_cols = read_prefilter_init(&it->pre, it->cols, it->ncols, it->nfile, it->vpath ? it->vpath : it->path,
                                          cols, fn, ctx);
    if (file_cols)
        parquet_reader_set_prefilter(it->pq, file_cols, read_prefilter_call, &it->pre);
    free(file_cols);
}

static void file_close(void *itp)
{
    file_it *it = itp;
    read_prefilter_free(&it->pre);
    free(it->vpath);
    if (it->pq)
        it->pq->free(it->pq);
    fmt_reader_free(it->reader);
    free(it->cols);
    free(it);
}

/* count() without reading data, for formats whose metadata knows the row count
 * (Parquet's footer; fmt_reader_count_rows). -1 (unknown) for every other format. */
static int64_t file_count_rows(source *s, query_ctx *q)
{
    file_src *f = s->impl;
    int64_t total = 0;
    for (size_t i = 0; i < f->npaths; i++) {
        if (f->pq && f->pq[i]) {
            for (int g = 0; g < parquet_file_row_groups(f->pq[i]); g++)
                total += parquet_file_row_group_rows(f->pq[i], g);
            continue;
        }
        fmt_reader *r;
        int64_t n = -1;
        if (open_reader(f, f->paths[i], f->file_schema, &q->fmt, &r)) {
            err_clear();
            return -1;
        }
        int rc = fmt_reader_count_rows(r, &n);
        fmt_reader_free(r);
        if (rc)
            return -1;
        total += n;
    }
    return total;
}

static void file_destroy(source *s)
{
    file_src *f = s->impl;
    for (size_t i = 0; i < f->npaths; i++) {
        free(f->paths[i]);
        if (f->pq)
            parquet_file_free(f->pq[i]);
    }
    free(f->pq);
    for (size_t i = 0; f->versions && i < f->npaths; i++)
        free(f->versions[i]);
    free(f->versions);
    free(f->coded);
    read_filters_free(f->filters, f->nfilters);
    free(f->page_filters);
    free(f->paths);
    free(f->tasks);
    free(f->format);
    free(f->compression);
    schema_free(f->file_schema);
    free(f);
}

/* Footers of the local Parquet files, read by up to max_threads threads: with many small
 * files, opening and decoding footers one after the other was a third of a query. */
typedef struct footer_pool {
    file_src *f;
    bool *local;             /* per path: an uncompressed regular file (read by footer) */
    _Atomic size_t next;
    _Atomic bool failed;
    pthread_mutex_t lock;
    size_t err_at;           /* the failing file of lowest index (SIZE_MAX: none) */
    err_saved err;           /* its error */
    mem_tracker *mem;
    const fmt_cache_key *ck; /* the metadata cache's counters (key: each file's path), or NULL */
} footer_pool;

static void *read_footers(void *arg)
{
    footer_pool *fp = arg;
    mem_thread_init();
    mem_tracker *prev = mem_tracker_attach(fp->mem);
    size_t i;
    while (!atomic_load(&fp->failed) && (i = atomic_fetch_add(&fp->next, 1)) < fp->f->npaths) {
        if (!fp->local[i])
            continue;
        if (parquet_file_open_cached(fp->f->paths[i], fp->ck, &fp->f->pq[i])) {
            pthread_mutex_lock(&fp->lock);
            if (i < fp->err_at) {
                fp->err_at = i;
                err_save(&fp->err);
            }
            pthread_mutex_unlock(&fp->lock);
            err_clear();
            atomic_store(&fp->failed, true);
        }
    }
    mem_tracker_attach(prev);
    return NULL;
}

/* Parquet: one task per non-empty row group of each uncompressed local file, whose
 * footer is read here once and kept for the tasks (and count()). Other files (compressed,
 * not regular): one task reading the whole stream. */
static int plan_parquet(file_src *f, query_ctx *q)
{
    f->pq = xcalloc(f->npaths + 1, sizeof *f->pq);
    f->pq_min_seek = (uint64_t)settings_int(q->st, "input_format_parquet_local_file_min_bytes_for_seek");
    footer_pool *fp = xcalloc(1, sizeof *fp);
    fp->f = f;
    fp->mem = &q->mem;
    fp->err_at = SIZE_MAX;
    fmt_cache_key ck = {.hits = &q->io.pq_meta_hits, .misses = &q->io.pq_meta_misses};
    if (settings_bool(q->st, "use_parquet_metadata_cache"))
        fp->ck = &ck;
    pthread_mutex_init(&fp->lock, NULL);
    fp->local = xcalloc(f->npaths + 1, sizeof *fp->local);
    for (size_t i = 0; i < f->npaths; i++) {
        struct stat st;
        const char *method = strcmp(f->compression, "auto") == 0 ? codec_method_from_path(f->paths[i]) : f->compression;
        fp->local[i] = strcmp(method, "none") == 0 && stat(f->paths[i], &st) == 0 && S_ISREG(st.st_mode);
    }
    int nthreads = q->max_threads > 1 ? q->max_threads : 1;
    if ((size_t)nthreads > f->npaths / 8) /* a thread is worth it for 8 footers or more */
        nthreads = (int)(f->npaths / 8) > 1 ? (int)(f->npaths / 8) : 1;
    pthread_t *th = xcalloc((size_t)nthreads, sizeof *th);
    for (int t = 1; t < nthreads; t++)
        pthread_create(&th[t], NULL, read_footers, fp);
    read_footers(fp);
    for (int t = 1; t < nthreads; t++)
        pthread_join(th[t], NULL);
    free(th);
    int rc = 0;
    if (fp->err_at != SIZE_MAX) {
        err_restore(&fp->err);
        if (!strstr(err_msg(), f->paths[fp->err_at]))
            err_suffix(" (in file %s)", f->paths[fp->err_at]);
        rc = -1;
    }
    for (size_t i = 0; i < f->npaths && !rc; i++) {
        int n = 1;
        if (fp->local[i]) {
            n = 0;
            for (int g = 0; g < parquet_file_row_groups(f->pq[i]); g++)
                n += parquet_file_row_group_rows(f->pq[i], g) > 0;
        }
        f->tasks = xrealloc(f->tasks, sizeof *f->tasks * (size_t)(f->ntasks + n + 1));
        if (!fp->local[i]) {
            f->tasks[f->ntasks++] = (file_task){.path = (int)i, .rg = -1};
            continue;
        }
        for (int g = 0; g < parquet_file_row_groups(f->pq[i]); g++)
            if (parquet_file_row_group_rows(f->pq[i], g) > 0)
                f->tasks[f->ntasks++] = (file_task){.path = (int)i, .rg = g};
    }
    pthread_mutex_destroy(&fp->lock);
    free(fp->local);
    free(fp);
    return rc;
}

/* One task per file, or ranges of min_chunk_bytes_for_parallel_parsing for large
 * uncompressed text files when input_format_parallel_parsing is on. Files given an
 * explicit structure with a *WithNames format are not cut: their header maps columns by
 * name, which only the first range sees. */
static void plan_tasks(file_src *f, query_ctx *q, bool explicit_structure)
{
    uint64_t chunk = (uint64_t)settings_int(q->st, "min_chunk_bytes_for_parallel_parsing");
    bool parallel = settings_bool(q->st, "input_format_parallel_parsing") && chunk > 0 &&
                    splittable_base(f->format) &&
                    !(explicit_structure && strstr(f->format, "WithNames"));
    for (size_t i = 0; i < f->npaths; i++) {
        struct stat st;
        const char *method = strcmp(f->compression, "auto") == 0 ? codec_method_from_path(f->paths[i]) : f->compression;
        uint64_t size = stat(f->paths[i], &st) == 0 && S_ISREG(st.st_mode) ? (uint64_t)st.st_size : 0;
        int n = 1;
        if (parallel && strcmp(method, "none") == 0 && size >= 2 * chunk)
            n = (int)((size + chunk - 1) / chunk);
        f->tasks = xrealloc(f->tasks, sizeof *f->tasks * (size_t)(f->ntasks + n));
        for (int k = 0; k < n; k++) {
            file_task *t = &f->tasks[f->ntasks++];
            t->path = (int)i;
            t->start = n == 1 ? 0 : (uint64_t)k * chunk;
            t->end = n == 1 ? 0 : (k == n - 1 ? size : (uint64_t)(k + 1) * chunk);
            t->rg = -1;
        }
    }
}

/* Keeps the filters on file columns for row-group skipping, when
 * input_format_parquet_filter_push_down is on. */
static int file_objects(source *s, int *n, char *const **names, char *const **versions)
{
    file_src *f = s->impl;
    if (!f->versions) {
        f->versions = xcalloc(f->npaths + 1, sizeof *f->versions);
        for (size_t i = 0; i < f->npaths; i++) {
            struct stat st;
            char v[64] = "";
            if (stat(f->paths[i], &st) == 0)
                snprintf(v, sizeof v, "%lld-%lld.%09ld", (long long)st.st_size, (long long)st.st_mtim.tv_sec,
                         (long)st.st_mtim.tv_nsec);
            f->versions[i] = xstrdup(v);
        }
    }
    *n = (int)f->npaths;
    *names = f->paths;
    *versions = f->versions;
    return 0;
}

static void file_accept_codes(source *s, const bool *coded)
{
    file_src *f = s->impl;
    read_accept_codes(&f->coded, coded, f->file_schema->n);
}

static void file_keep_objects(source *s, const uint8_t *keep)
{
    file_src *f = s->impl;
    int k = 0;
    for (int i = 0; i < f->ntasks; i++)
        if (keep[f->tasks[i].path])
            f->tasks[k++] = f->tasks[i];
    f->ntasks = k;
    s->ntasks = k;
}

/* Drops the files whose _path/_file cannot satisfy the filters (no file is opened for
 * them), and keeps the filters on file columns for Parquet row-group skipping when
 * input_format_parquet_filter_push_down is on. */
static void file_set_filter(source *s, const src_filter *fl, int n, query_ctx *q)
{
    file_src *f = s->impl;
    int nfile = f->file_schema->n;
    if (read_has_path_filter(fl, n, nfile)) {
        uint8_t *keep = xcalloc(f->npaths + 1, 1);
        for (size_t i = 0; i < f->npaths; i++) {
            char *abs = absolute_path(f->paths[i]);
            keep[i] = read_object_may_match(fl, n, nfile, abs);
            free(abs);
        }
        file_keep_objects(s, keep);
        free(keep);
    }
    if (!f->pq || !settings_bool(q->st, "input_format_parquet_filter_push_down"))
        return;
    read_filters_free(f->filters, f->nfilters);
    f->filters = read_file_filters(fl, n, nfile, &f->nfilters);
    if (!settings_bool(q->st, "input_format_parquet_page_filter_push_down"))
        return;
    free(f->page_filters);
    f->page_filters = read_format_filters(f->filters, f->nfilters, f->file_schema, &f->npage_filters);
}

/* The schema cache's view of a local file: its absolute path and "size-mtime" version
 * (false when the file cannot be stat'ed: not cached). */
static bool file_cache_key(const char *path, char *abs, size_t abscap, char *ver, size_t vercap)
{
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
        return false;
    if (!realpath(path, abs))
        snprintf(abs, abscap, "%s", path);
    snprintf(ver, vercap, "%lld-%lld.%09ld", (long long)st.st_size, (long long)st.st_mtim.tv_sec,
             (long)st.st_mtim.tv_nsec);
    return true;
}

static int const_string(column *c, int pos, const char **s, size_t *n)
{
    if (type_base(c->type)->id != T_STRING)
        return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT,
                       "Argument %d of table function 'file' must be a string literal, got %s", pos, c->type->name);
    *s = col_str(c, 0, n);
    return 0;
}

int tablefunc_file(column *const *args, int nargs, query_ctx *q, source **out)
{
    if (nargs < 1 || nargs > 4)
        return err_set(ERR_NUMBER_OF_ARGUMENTS_DOESNT_MATCH,
                       "Table function 'file' requires 1 to 4 arguments: path[, format[, structure[, compression]]]");
    const char *s[4] = {0};
    size_t n[4] = {0};
    for (int i = 0; i < nargs; i++)
        if (const_string(args[i], i + 1, &s[i], &n[i]))
            return -1;
    char *written = xstrndup(s[0], n[0]);
    char *pattern;
    int confined = query_file_path(q, written, &pattern);
    free(written);
    if (confined)
        return -1;
    bool has_structure = nargs >= 3 && !(n[2] == 4 && memcmp(s[2], "auto", 4) == 0);
    bool has_format = nargs >= 2 && !(n[1] == 4 && memcmp(s[1], "auto", 4) == 0);
    char *format = has_format ? xstrndup(s[1], n[1]) : NULL;
    char *compression = nargs >= 4 ? xstrndup(s[3], n[3]) : NULL;
    schema *sch = NULL;
    int rc = has_structure ? structure_parse(s[2], n[2], &sch) : 0;
    if (!rc)
        rc = file_source_open(pattern, format, sch, compression, q, out);
    schema_free(sch);
    free(format);
    free(compression);
    free(pattern);
    return rc;
}

int file_source_open(const char *pattern, const char *format, const schema *structure, const char *compression,
                     query_ctx *q, source **out)
{
    file_src *f = xcalloc(1, sizeof *f);
    f->compression = xstrdup(compression ? compression : "auto");
    source *src = NULL;
    if (glob_expand_local(pattern, &f->paths, &f->npaths))
        goto fail;
    bool has_structure = structure != NULL;
    bool has_format = format != NULL;
    if (f->npaths == 0) {
        /* ClickHouse's behaviour: a missing literal path is an error; a glob that matches
         * nothing reads as empty when the structure is known. */
        char abs[4096];
        if (pattern[0] == '/' || !getcwd(abs, sizeof abs))
            snprintf(abs, sizeof abs, "%s", pattern);
        else
            snprintf(abs + strlen(abs), sizeof abs - strlen(abs), "/%s", pattern);
        if (!glob_has_magic(pattern)) {
            if (has_structure)
                err_set(ERR_FILE_DOESNT_EXIST, "File %s doesn't exist", abs);
            else
                err_set(ERR_CANNOT_STAT,
                        "Cannot stat file %s: No such file or directory: The table structure cannot be extracted from a %s format file. You can specify the structure manually: (in file/uri %s)",
                        abs, has_format ? format : "auto", abs);
            goto fail;
        }
        if (!has_structure) {
            if (has_format)
                err_set(ERR_CANNOT_EXTRACT_TABLE_STRUCTURE,
                        "Cannot extract table structure from %s format file, because there are no files with provided path. You can specify the structure manually",
                        format);
            else
                err_set(ERR_CANNOT_EXTRACT_TABLE_STRUCTURE,
                        "The data format cannot be detected by the contents of the files, because there are no files with provided path. You can specify the format manually");
            goto fail;
        }
    }
    if (has_format) {
        const char *canon = fmt_input_canonical(format);
        if (!canon) {
            err_set(ERR_UNKNOWN_FORMAT, "Unknown input format %s", format);
            goto fail;
        }
        f->format = xstrdup(canon);
    } else {
        const char *det = fmt_from_filename(f->npaths ? f->paths[0] : pattern);
        if (!det) {
            err_set(ERR_CANNOT_EXTRACT_TABLE_STRUCTURE,
                    "Cannot detect the format of file %s from its name; specify the format explicitly: file(path, format)",
                    f->npaths ? f->paths[0] : pattern);
            goto fail;
        }
        f->format = xstrdup(det);
    }
    if (has_structure) {
        f->file_schema = schema_clone(structure);
    } else {
        /* Infer from the first file that has data, or take a cached inference of it. */
        bool use_cache = settings_bool(q->st, "schema_inference_use_cache_for_file");
        char *info = use_cache ? schema_cache_format_info(&q->fmt) : NULL;
        for (size_t i = 0; i < f->npaths && !f->file_schema; i++) {
            char abs[PATH_MAX], ver[96];
            schema_cache_key key = {.storage = "File", .source = abs, .format = f->format, .info = info};
            if (use_cache && file_cache_key(f->paths[i], abs, sizeof abs, ver, sizeof ver)) {
                key.version = ver;
                if ((f->file_schema = schema_cache_get(&key)))
                    break;
            }
            instream *in;
            const char *method = strcmp(f->compression, "auto") == 0 ? codec_method_from_path(f->paths[i]) : f->compression;
            if (instream_open_file(f->paths[i], &in) ||
                (strcmp(method, "none") != 0 && instream_decompress(in, method, &in))) {
                free(info);
                goto fail;
            }
            rbuf *rb = rbuf_new(in, 1 << 20);
            int rc = fmt_infer_schema(f->format, rb, &q->fmt, &f->file_schema);
            rbuf_free(rb);
            if (rc) {
                if (err_code() == ERR_EMPTY_DATA_PASSED && i + 1 < f->npaths)
                    continue;
                err_suffix(" (while inferring the structure of file %s)", f->paths[i]);
                free(info);
                goto fail;
            }
            schema_cache_put(&key, f->file_schema);
        }
        free(info);
    }
    src = xcalloc(1, sizeof *src);
    int nf = f->file_schema->n;
    src->sch = read_source_schema(f->file_schema, false);
    src->nvisible = nf;
    if (strcmp(f->format, "Parquet") == 0) {
        if (plan_parquet(f, q)) {
            src->impl = f;
            src->destroy = file_destroy;
            source_free(src);
            return -1;
        }
    } else
        plan_tasks(f, q, has_structure);
    src->ntasks = f->ntasks;
    src->impl = f;
    src->open = file_open;
    src->next = file_next;
    src->close = file_close;
    src->destroy = file_destroy;
    src->objects = file_objects;
    src->keep_objects = file_keep_objects;
    src->set_filter = file_set_filter;
    src->accept_codes = file_accept_codes;
    src->set_prefilter = file_set_prefilter;
    if (strcmp(f->format, "Parquet") == 0) /* only Parquet can answer from metadata */
        src->count_rows = file_count_rows;
    *out = src;
    return 0;
fail:
    for (size_t i = 0; i < f->npaths; i++)
        free(f->paths[i]);
    free(f->paths);
    free(f->format);
    free(f->compression);
    schema_free(f->file_schema);
    free(f);
    return -1;
}
