/* ENGINE = File(format [, path [, compression]]): a table whose rows are one file in a
 * data format, read by file()'s reader and written by its writer (storage/tablefunc.h).
 *
 * As ClickHouse's StorageFile: without a path the file is <table's directory>/data.<format
 * as written> (data.TSV for File(TSV)); with one, the path is a user file (relative paths
 * under user_files_path, as file()'s) and DROP leaves it. Every SELECT reads the file as
 * it is now (a file that does not exist is FILE_DOESNT_EXIST, or no rows with
 * engine_file_empty_if_not_exists); INSERT appends when the format allows it (the
 * header of *WithNames formats is written once), otherwise see file_sink_open;
 * TRUNCATE empties the file. A file descriptor as the source (File(TSV, 0)) is
 * NOT_IMPLEMENTED.
 *
 * Thread-safety: the state is immutable after open(); concurrent INSERTs append to the
 * file as concurrent INSERT INTO FUNCTION file() do (no lock, as ClickHouse's own
 * writers take one per table: a gap, rare in the tests this engine serves). */
#include "base/err.h"
#include "base/mem.h"
#include "format/format.h"
#include "storage/table.h"
#include "storage/tablefunc.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

typedef struct file_table {
    char *format;      /* as written (data.<format>) */
    char *path;        /* the data file */
    char *compression; /* NULL = from the path's extension */
} file_table;

/* Formats of ClickHouse that shale has no reader or writer for: CREATE names a real
 * format, so it is NOT_IMPLEMENTED rather than UNKNOWN_FORMAT. */
static bool clickhouse_only_format(const char *name)
{
    static const char *names[] = {"Avro", "AvroConfluent", "ORC", "Arrow", "ArrowStream", "MsgPack", "CapnProto",
                                  "Protobuf", "ProtobufSingle", "ProtobufList", "MySQLWire", "PostgreSQLWire",
                                  "BSONEachRow", "Npy", "Template", "TemplateIgnoreSpaces", "Regexp", "XML",
                                  "SQLInsert", "MySQLDump", "Prometheus", "Hash", "Markdown", "TSKV", "One",
                                  "Form", "Buffers", "DWARF"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcasecmp(names[i], name) == 0)
            return true;
    return false;
}

/* An engine argument that must be a string (an identifier is taken as its name). */
static int string_arg(const table *t, int i, const char *what, char **out)
{
    const ast *x = t->create->engine->args.items[i];
    if (x->kind == AST_LITERAL && x->lit == LIT_STRING)
        *out = xstrndup(x->str, x->str_len);
    else if (x->kind == AST_IDENT && x->nparts == 1)
        *out = xstrdup(x->parts[0]);
    else if (x->kind == AST_LITERAL)
        return err_set(ERR_NOT_IMPLEMENTED, "Storage File: a file descriptor as the %s is not supported", what);
    else
        return err_set(ERR_NOT_IMPLEMENTED, "Storage File: the %s must be a string literal (expressions are not "
                       "evaluated)", what);
    return 0;
}

static void file_table_free(file_table *f)
{
    if (!f)
        return;
    free(f->format);
    free(f->path);
    free(f->compression);
    free(f);
}

static int file_table_open(table *t, bool created, query_ctx *q)
{
    (void)created;
    const ast *e = t->create->engine;
    int n = e ? e->args.n : 0;
    if (n < 1 || n > 3)
        return err_set(ERR_NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Storage File requires from 1 to 3 arguments: name of "
                       "used format, source and compression_method.");
    file_table *f = xcalloc(1, sizeof *f);
    char *where = NULL;
    int rc = string_arg(t, 0, "format", &f->format);
    if (!rc && !fmt_input_canonical(f->format) && !fmt_output_canonical(f->format))
        rc = clickhouse_only_format(f->format)
                 ? err_set(ERR_NOT_IMPLEMENTED, "Storage File: format %s is not supported", f->format)
                 : err_set(ERR_UNKNOWN_FORMAT, "Unknown format %s.", f->format);
    if (!rc && n >= 2)
        rc = string_arg(t, 1, "source", &where);
    if (!rc && n >= 3)
        rc = string_arg(t, 2, "compression method", &f->compression);
    if (!rc && where && strcmp(where, "stdin") == 0)
        rc = err_set(ERR_NOT_IMPLEMENTED, "Storage File: stdin as the source is not supported");
    if (!rc && where)
        rc = query_file_path(q, where, &f->path);
    if (!rc && !where) {
        size_t len = strlen(t->data_dir) + strlen(f->format) + 8;
        f->path = xmalloc(len);
        snprintf(f->path, len, "%sdata.%s", t->data_dir, f->format);
    }
    free(where);
    if (rc) {
        file_table_free(f);
        return -1;
    }
    t->impl = f;
    return 0;
}

static int file_table_read(table *t, bool final, query_ctx *q, source **out)
{
    if (final)
        return err_set(ERR_ILLEGAL_FINAL, "Storage File doesn't support FINAL");
    file_table *f = t->impl;
    struct stat st;
    if (stat(f->path, &st) != 0) {
        if (settings_bool(q->st, "engine_file_empty_if_not_exists")) {
            *out = source_from_blocks(schema_clone(t->sch), NULL, 0);
            return 0;
        }
        return err_set(ERR_FILE_DOESNT_EXIST, "File %s doesn't exist", f->path);
    }
    return file_source_open(f->path, f->format, t->sch, f->compression, q, out);
}

static int file_table_insert(table *t, query_ctx *q, table_sink **out)
{
    file_table *f = t->impl;
    return file_sink_open(f->path, f->format, f->compression, t->sch, q, out);
}

static int file_table_truncate(table *t, query_ctx *q)
{
    (void)q;
    file_table *f = t->impl;
    if (truncate(f->path, 0) != 0 && errno != ENOENT)
        return err_set(ERR_CANNOT_TRUNCATE_FILE, "Cannot truncate file %s: %s", f->path, strerror(errno));
    return 0;
}

static void file_table_close(table *t)
{
    file_table_free(t->impl);
    t->impl = NULL;
}

const table_engine engine_file = {
    .name = "File",
    .has_data_dir = true,
    .open = file_table_open,
    .read = file_table_read,
    .insert = file_table_insert,
    .truncate = file_table_truncate,
    .close = file_table_close,
};
