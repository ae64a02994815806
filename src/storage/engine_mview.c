/* Materialized views (CREATE MATERIALIZED VIEW mv [TO target] … AS SELECT …): the view
 * keeps no data of its own. Its rows live in the target table — the one named by TO, or
 * its inner table `.inner_id.<uuid>` created with it from its ENGINE clauses (both are
 * written as `TO db.target` on the second line of the canonical text). The statement
 * layer (interp/mview.c) runs the view's SELECT over every block inserted into the
 * source table and inserts the result into the target; the analyzer reads the target
 * when a query names the view. Here: the calls that act on the inner table (TRUNCATE,
 * OPTIMIZE; ClickHouse forwards them to an inner table only). */
#include "base/err.h"
#include "storage/catalog.h"
#include "storage/table.h"

#include <string.h>

int mview_target(const table *mv, query_ctx *q, table **out)
{
    const ast *to = mv->create->mv_to;
    if (!to)
        return err_set(ERR_LOGICAL_ERROR, "Materialized view %s has no target table", table_full_name(mv));
    return catalog_get(q->catalog, to->database ? to->database : mv->database, to->table_name, out);
}

bool mview_has_inner(const table *mv)
{
    const ast *to = mv->create->mv_to;
    return to && strncmp(to->table_name, ".inner_id.", 10) == 0;
}

static int mv_open(table *t, bool created, query_ctx *q)
{
    (void)created;
    (void)q;
    t->impl = NULL;
    return 0;
}

static int mv_read(table *t, bool final, query_ctx *q, source **out)
{
    (void)final, (void)q, (void)out;
    return err_set(ERR_LOGICAL_ERROR, "Materialized view %s is read through its target table (the analyzer does it)",
                   table_full_name(t));
}

static int mv_insert(table *t, query_ctx *q, table_sink **out)
{
    (void)q, (void)out;
    return err_set(ERR_LOGICAL_ERROR, "Materialized view %s is written through its target table (INSERT does it)",
                   table_full_name(t));
}

/* TRUNCATE empties the inner table; a view with TO leaves its target alone (ClickHouse). */
static int mv_truncate(table *t, query_ctx *q)
{
    if (!mview_has_inner(t))
        return 0;
    table *target;
    if (mview_target(t, q, &target))
        return -1;
    int rc = target->engine->truncate ? target->engine->truncate(target, q)
                                      : err_set(ERR_NOT_IMPLEMENTED, "Truncate is not supported by storage %s",
                                                target->engine->name);
    table_unref(target);
    return rc;
}

static int mv_optimize(table *t, const ast *stmt, query_ctx *q)
{
    if (!mview_has_inner(t))
        return err_set(ERR_INCORRECT_QUERY, "MATERIALIZED VIEW %s targets an existing table. Execute the statement "
                       "directly on it.", table_full_name(t));
    table *target;
    if (mview_target(t, q, &target))
        return -1;
    int rc = target->engine->optimize ? target->engine->optimize(target, stmt, q)
                                      : err_set(ERR_NOT_IMPLEMENTED, "Method optimize is not supported by storage %s",
                                                target->engine->name);
    table_unref(target);
    return rc;
}

static void mv_close(table *t) { t->impl = NULL; }

const table_engine engine_materialized_view = {
    .name = "MaterializedView",
    .supports_final = false, /* SELECT … FROM mv FINAL: ILLEGAL_FINAL, as ClickHouse */
    .open = mv_open,
    .read = mv_read,
    .insert = mv_insert,
    .truncate = mv_truncate,
    .optimize = mv_optimize,
    .close = mv_close,
};
