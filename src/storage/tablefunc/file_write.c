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

/* Formats whose files can simply grow: no header, footer or global metadata. */
static bool appendable(const char *format)
{
    static const char *ok[] = {"TabSeparated", "TabSeparatedRaw", "CSV", "JSONEachRow", "JSONCompactEachRow",
                               "Values", "RawBLOB", "Native"};
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++)
        if (strcmp(ok[i], format) == 0)
            return true;
    return false;
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
    char *compression = nargs >= 4 ? (s = col_str(args[3], 0, &n), xstrndup(s, n)) : xstrdup("auto");
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
    bool append = exists && !truncate;
    if (append && (!appendable(format) || strcmp(method, "none") != 0)) {
        err_set(ERR_BAD_ARGUMENTS,
                "Cannot append data in format %s to file %s, because this format (or compression) doesn't support appends. "
                "You can truncate the file before insert with setting engine_file_truncate_on_insert = 1",
                format, path);
        goto out;
    }
    f = xcalloc(1, sizeof *f);
    f->path = xstrdup(path);
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
    if (fmt_writer_new(format, sch, &q->fmt, os, &f->w)) {
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
    free(path);
    free(format_arg);
    free(compression);
    return rc;
}
