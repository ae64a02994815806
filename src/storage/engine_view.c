/* Views (CREATE VIEW v AS SELECT …): the catalog keeps their statement; the analyzer
 * (sql/analyze.c) reads a view by analyzing its SELECT as a subquery, so the engine itself
 * holds no data and refuses writes, as ClickHouse's View storage does. */
#include "base/err.h"
#include "storage/table.h"

static int view_open(table *t, bool created, query_ctx *q)
{
    (void)created;
    (void)q;
    t->impl = NULL;
    return 0;
}

static int view_read(table *t, bool final, query_ctx *q, source **out)
{
    (void)final;
    (void)q;
    (void)out;
    return err_set(ERR_LOGICAL_ERROR, "View %s is read through its SELECT (the analyzer expands it)",
                   table_full_name(t));
}

static int view_insert(table *t, query_ctx *q, table_sink **out)
{
    (void)t;
    (void)q;
    (void)out;
    return err_set(ERR_NOT_IMPLEMENTED, "Method write is not supported by storage View");
}

static int view_truncate(table *t, query_ctx *q)
{
    (void)t;
    (void)q;
    return err_set(ERR_NOT_IMPLEMENTED, "Truncate is not supported by storage View");
}

static int view_backup(table *t, query_ctx *q, int (*fn)(void *ctx, const char *name, const char *path), void *ctx)
{
    (void)t, (void)q, (void)fn, (void)ctx;
    return 0; /* a view is its statement only */
}

static void view_close(table *t) { t->impl = NULL; }

const table_engine engine_view = {
    .name = "View",
    .open = view_open,
    .read = view_read,
    .insert = view_insert,
    .truncate = view_truncate,
    .backup = view_backup,
    .close = view_close,
};
