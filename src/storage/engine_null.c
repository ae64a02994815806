/* ENGINE = Null: inserts are discarded, reads return nothing. */
#include "base/mem.h"
#include "storage/table.h"

#include <stdlib.h>

static int null_open(table *t, bool created, query_ctx *q)
{
    (void)created;
    (void)q;
    t->impl = NULL;
    return 0;
}

static int null_read(table *t, bool final, query_ctx *q, source **out)
{
    (void)final;
    (void)q;
    *out = source_from_blocks(schema_clone(t->sch), NULL, 0);
    return 0;
}

static int null_write(block_sink *s, block *b)
{
    (void)s;
    block_free(b);
    return 0;
}

static int null_finish(table_sink *s)
{
    free(s);
    return 0;
}

static void null_abort(table_sink *s) { free(s); }

static int null_insert(table *t, query_ctx *q, table_sink **out)
{
    (void)t;
    (void)q;
    table_sink *s = xcalloc(1, sizeof *s);
    s->base.write = null_write;
    s->finish = null_finish;
    s->abort = null_abort;
    *out = s;
    return 0;
}

static int null_truncate(table *t, query_ctx *q)
{
    (void)t;
    (void)q;
    return 0;
}

static void null_close(table *t) { t->impl = NULL; }

/* BACKUP of a Null table: its metadata only, there is no data. */
static int null_backup(table *t, query_ctx *q, int (*fn)(void *ctx, const char *name, const char *path), void *ctx)
{
    (void)t, (void)q, (void)fn, (void)ctx;
    return 0;
}

const table_engine engine_null = {
    .name = "Null",
    .open = null_open,
    .read = null_read,
    .insert = null_insert,
    .truncate = null_truncate,
    .backup = null_backup,
    .close = null_close,
};
