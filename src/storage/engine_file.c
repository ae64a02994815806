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
 * Thread-safety: the paths are immutable after open(). INSERTs take turns (one writer at
 * a time, from insert() to its finish() or abort(), as ClickHouse's table lock), so rows
 * of two INSERTs never interleave; a SELECT running during an INSERT may see part of
 * what it appended (ClickHouse's readers wait for the writer instead). */
#include "base/err.h"
#include "base/mem.h"
#include "format/format.h"
#include "storage/table.h"
#include "storage/tablefunc.h"

#include <errno.h>
#include <pthread.h>
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
    pthread_mutex_t mu;
    pthread_cond_t free_cv;
    bool writing;      /* an INSERT holds the file (guarded by mu) */
} file_table;

/* An INSERT's sink: file_sink_open's, and the writer's turn released when it ends. */
typedef struct turn_sink {
    table_sink base;
    table_sink *inner;
    file_table *f;
} turn_sink;

static void release_turn(file_table *f)
{
    pthread_mutex_lock(&f->mu);
    f->writing = false;
    pthread_cond_signal(&f->free_cv);
    pthread_mutex_unlock(&f->mu);
}

static int turn_write(block_sink *s, block *b)
{
    turn_sink *t = (turn_sink *)s;
    return t->inner->base.write(&t->inner->base, b);
}

static int turn_finish(table_sink *s)
{
    turn_sink *t = (turn_sink *)s;
    int rc = t->inner->finish(t->inner);
    release_turn(t->f);
    free(t);
    return rc;
}

static void turn_abort(table_sink *s)
{
    turn_sink *t = (turn_sink *)s;
    t->inner->abort(t->inner);
    release_turn(t->f);
    free(t);
}

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
    pthread_mutex_destroy(&f->mu);
    pthread_cond_destroy(&f->free_cv);
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
    pthread_mutex_init(&f->mu, NULL);
    pthread_cond_init(&f->free_cv, NULL);
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
    pthread_mutex_lock(&f->mu);
    while (f->writing)
        pthread_cond_wait(&f->free_cv, &f->mu);
    f->writing = true;
    pthread_mutex_unlock(&f->mu);
    table_sink *inner;
    if (file_sink_open(f->path, f->format, f->compression, t->sch, q, &inner)) {
        release_turn(f);
        return -1;
    }
    turn_sink *ts = xcalloc(1, sizeof *ts);
    ts->base.base.write = turn_write;
    ts->base.finish = turn_finish;
    ts->base.abort = turn_abort;
    ts->inner = inner;
    ts->f = f;
    *out = &ts->base;
    return 0;
}

static int file_table_truncate(table *t, query_ctx *q)
{
    (void)q;
    file_table *f = t->impl;
    int rc = 0;
    pthread_mutex_lock(&f->mu);
    while (f->writing) /* not under an INSERT's feet */
        pthread_cond_wait(&f->free_cv, &f->mu);
    if (truncate(f->path, 0) != 0 && errno != ENOENT)
        rc = err_set(ERR_CANNOT_TRUNCATE_FILE, "Cannot truncate file %s: %s", f->path, strerror(errno));
    pthread_mutex_unlock(&f->mu);
    return rc;
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
