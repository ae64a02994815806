/* INSERT INTO FUNCTION file(path [, format [, structure [, compression]]]) SELECT …
 *
 * Rows are written through the output format to the file, compressed by extension or by
 * the compression argument. An existing file is appended to when the format allows it
 * (TSV, CSV, JSONEachRow and other formats without a header or footer), truncated with
 * engine_file_truncate_on_insert = 1, and otherwise the insert fails before writing,
 * as in ClickHouse. A file being written is created complete-or-absent: a new file is
 * written under a temporary name and renamed into place by finish(). */
#include "base/err.h"
#include "base/mem.h"
#include "codec/stream_codec.h"
#include "storage/tablefunc.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

typedef struct file_sink {
    table_sink base;
    fmt_writer *w;
    outstream *os;
    char *path;
    char *tmp_path;     /* NULL when appending in place */
    query_ctx *q;
} file_sink;

static int fs_write(block_sink *s, block *b)
{
    file_sink *f = (file_sink *)s;
    int rc = fmt_writer_write(f->w, b);
    block_free(b);
    return rc;
}

static void fs_free(file_sink *f)
{
    free(f->path);
    free(f->tmp_path);
    free(f);
}

static int fs_finish(table_sink *s)
{
    file_sink *f = (file_sink *)s;
    fmt_stats st = {0};
    int rc = fmt_writer_finish(f->w, &st);
    fmt_writer_free(f->w);
    if (f->os->close(f->os) && !rc)
        rc = -1;
    if (!rc && f->tmp_path && rename(f->tmp_path, f->path) != 0)
        rc = err_set(ERR_CANNOT_OPEN_FILE, "Cannot rename %s to %s: %s", f->tmp_path, f->path, strerror(errno));
    if (rc && f->tmp_path)
        unlink(f->tmp_path);
    fs_free(f);
    return rc;
}

static void fs_abort(table_sink *s)
{
    file_sink *f = (file_sink *)s;
    fmt_writer_free(f->w);
    f->os->close(f->os);
    if (f->tmp_path)
        unlink(f->tmp_path);
    fs_free(f);
}

/* Formats whose files can simply grow: no footer or global metadata. Those with a header
 * line of names (and types) grow without it once the file has data, as in ClickHouse. */
static bool appendable(const char *format, bool *has_prefix)
{
    static const char *ok[] = {"TabSeparated", "TabSeparatedRaw", "CSV", "JSONEachRow", "JSONCompactEachRow",
                               "Values", "RawBLOB", "Native"};
    static const char *with_prefix[] = {"TabSeparatedWithNames", "TabSeparatedWithNamesAndTypes",
                                        "TabSeparatedRawWithNames", "TabSeparatedRawWithNamesAndTypes",
                                        "CSVWithNames", "CSVWithNamesAndTypes", "JSONCompactEachRowWithNames",
                                        "JSONCompactEachRowWithNamesAndTypes"};
    *has_prefix = false;
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++)
        if (strcmp(ok[i], format) == 0)
            return true;
    for (size_t i = 0; i < sizeof with_prefix / sizeof with_prefix[0]; i++)
        if (strcmp(with_prefix[i], format) == 0)
            return *has_prefix = true;
    return false;
}

/* engine_file_allow_create_multiple_files: the first of data.1.Parquet, data.2.Parquet, …
 * (the number goes before the first dot of the file's name) that does not exist. */
static char *next_free_name(const char *path)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    const char *dot = strchr(base, '.');
    size_t head = dot ? (size_t)(dot - path) : strlen(path);
    size_t cap = strlen(path) + 32;
    char *out = xmalloc(cap);
    for (unsigned i = 1;; i++) {
        snprintf(out, cap, "%.*s.%u%s", (int)head, path, i, dot ? dot : "");
        struct stat st;
        if (stat(out, &st) != 0)
            return out;
    }
}

int tablefunc_file_sink(column *const *args, int nargs, const schema *sch, query_ctx *q, table_sink **out)
{
    if (nargs < 1 || nargs > 4)
        return err_set(ERR_NUMBER_OF_ARGUMENTS_DOESNT_MATCH,
                       "Table function 'file' requires 1 to 4 arguments: path[, format[, structure[, compression]]]");
    for (int i = 0; i < nargs; i++)
        if (type_base(args[i]->type)->id != T_STRING)
            return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "Argument %d of table function 'file' must be a string", i + 1);
    size_t n;
    const char *s = col_str(args[0], 0, &n);
    char *written = xstrndup(s, n);
    char *path;
    int confined = query_file_path(q, written, &path);
    free(written);
    if (confined)
        return -1;
    char *format_arg = nargs >= 2 ? (s = col_str(args[1], 0, &n), xstrndup(s, n)) : NULL;
    char *compression = nargs >= 4 ? (s = col_str(args[3], 0, &n), xstrndup(s, n)) : NULL;
    int rc = file_sink_open(path, format_arg, compression, sch, q, out);
    free(path);
    free(format_arg);
    free(compression);
    return rc;
}

int file_sink_open(const char *path, const char *format_arg, const char *compression, const schema *sch,
                   query_ctx *q, table_sink **out)
{
    if (!compression)
        compression = "auto";
    file_sink *f = NULL;
    int rc = -1;
    const char *format;
    if (format_arg && strcmp(format_arg, "auto") != 0) {
        format = fmt_output_canonical(format_arg);
        if (!format) {
            err_set(ERR_UNKNOWN_FORMAT, "Unknown output format %s", format_arg);
            goto out;
        }
    } else {
        const char *det = fmt_from_filename(path);
        format = det ? fmt_output_canonical(det) : NULL;
        if (!format) {
            err_set(ERR_BAD_ARGUMENTS, "Cannot detect the output format from the file name %s; pass the format explicitly",
                    path);
            goto out;
        }
    }
    const char *method = strcmp(compression, "auto") == 0 ? codec_method_from_path(path) : NULL;
    if (!method && codec_method_canonical(compression, &method))
        goto out;
    struct stat st;
    bool exists = stat(path, &st) == 0 && st.st_size > 0;
    bool truncate = settings_bool(q->st, "engine_file_truncate_on_insert");
    bool append = exists && !truncate, has_prefix;
    char *new_name = NULL;
    if (append && (!appendable(format, &has_prefix) || strcmp(method, "none") != 0)) {
        if (!settings_bool(q->st, "engine_file_allow_create_multiple_files")) {
            err_set(ERR_CANNOT_APPEND_TO_FILE,
                    "File %s already exists and data cannot be appended to this file as the %s format doesn't support "
                    "appends. You can enable truncate on insertion with the `engine_file_truncate_on_insert` setting, "
                    "or you can configure ClickHouse to create a new file on each insert by enabling the "
                    "`engine_file_allow_create_multiple_files` setting",
                    path, format);
            goto out;
        }
        new_name = next_free_name(path);
        append = false;
    }
    fmt_settings fs = q->fmt;
    fs.skip_prefix = append && has_prefix;
    f = xcalloc(1, sizeof *f);
    f->path = new_name ? new_name : xstrdup(path);
    path = f->path;
    f->q = q;
    outstream *os;
    if (append) {
        if (outstream_open_file(path, true, &os))
            goto out;
    } else {
        size_t len = strlen(path) + 32;
        f->tmp_path = xmalloc(len);
        snprintf(f->tmp_path, len, "%s.tmp.%d", path, (int)getpid());
        if (outstream_open_file(f->tmp_path, false, &os))
            goto out;
    }
    if (strcmp(method, "none") != 0 && outstream_compress(os, method, 0, &os)) {
        if (f->tmp_path)
            unlink(f->tmp_path);
        goto out;
    }
    f->os = os;
    if (fmt_writer_new(format, sch, &fs, os, &f->w)) {
        os->close(os);
        if (f->tmp_path)
            unlink(f->tmp_path);
        goto out;
    }
    f->base.base.write = fs_write;
    f->base.finish = fs_finish;
    f->base.abort = fs_abort;
    *out = &f->base;
    f = NULL;
    rc = 0;
out:
    if (f)
        fs_free(f);
    return rc;
}
