/* Materialized views: CREATE, DROP and the INSERT path (interp/mview.h). */
#include "interp/mview.h"

#include "interp/ddl.h"

#include "base/err.h"
#include "base/mem.h"
#include "base/rand.h"
#include "column/type.h"
#include "exec/settings.h"
#include "sql/analyze.h"
#include "storage/catalog.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Views nested in one INSERT (a view whose target has views, …): a cycle (a view into
 * its own source) stops here, TOO_DEEP_RECURSION as in ClickHouse. */
#define MAX_VIEW_DEPTH 32

/* The table a view's SELECT reads first (its source): the FROM of the first SELECT,
 * through subqueries in FROM. False when it reads none (no FROM, a table function). */
static bool select_source(const ast *q, const char *view_db, const char **db, const char **name)
{
    const ast *scopes[64]; /* the SELECTs passed through, for their WITH name AS (SELECT …) */
    int nscopes = 0;
    for (int depth = 0; q && depth < 64; depth++) {
        if (q->kind == AST_UNION) {
            q = q->args.n ? q->args.items[0] : NULL;
            continue;
        }
        if (q->kind != AST_SELECT || !q->from || q->from->table_func)
            return false;
        scopes[nscopes++] = q;
        if (q->from->sub) {
            q = q->from->sub;
            continue;
        }
        /* a CTE: the table its SELECT reads (the innermost definition of the name) */
        const ast *cte = NULL;
        for (int s = nscopes - 1; s >= 0 && !cte && !q->from->database; s--)
            for (int i = 0; i < scopes[s]->with.n && !cte; i++) {
                const ast *w = scopes[s]->with.items[i];
                if (w->kind == AST_SUBQUERY && w->alias && strcmp(w->alias, q->from->table_name) == 0)
                    cte = w->sub;
            }
        if (cte) {
            q = cte;
            continue;
        }
        *db = q->from->database ? q->from->database : view_db;
        *name = q->from->table_name;
        return true;
    }
    return false;
}

/* What ClickHouse refuses in a materialized view's SELECT (SelectQueryDescription):
 * PREWHERE, FINAL or SAMPLE, a table function as what it reads, INTERSECT / EXCEPT. */
static int check_select(const ast *q)
{
    if (q->kind == AST_UNION) {
        for (int i = 1; i < q->args.n; i++)
            if ((q->set_ops[i] & SETOP_KIND_MASK) != SETOP_UNION)
                return err_set(ERR_QUERY_IS_NOT_SUPPORTED_IN_MATERIALIZED_VIEW, "MATERIALIZED VIEW support query with "
                               "multiple simple UNION [ALL] only");
        /* ClickHouse runs only part of such a view for an INSERT (its other SELECTs'
         * rows do not arrive): not reproduced */
        return err_set(ERR_NOT_IMPLEMENTED, "A MATERIALIZED VIEW whose SELECT is a UNION is not supported");
    }
    for (int depth = 0; q && depth < 64; depth++) {
        if (q->kind == AST_UNION) {
            q = q->args.n ? q->args.items[0] : NULL;
            continue;
        }
        if (q->kind != AST_SELECT)
            return 0;
        const ast *f = q->from;
        if (q->prewhere || (f && (f->final || f->sample_size)))
            return err_set(ERR_QUERY_IS_NOT_SUPPORTED_IN_MATERIALIZED_VIEW, "MATERIALIZED VIEW cannot have PREWHERE, "
                           "SAMPLE or FINAL.");
        if (f && f->table_func)
            return err_set(ERR_QUERY_IS_NOT_SUPPORTED_IN_MATERIALIZED_VIEW, "Table function %s as the source of a "
                           "MATERIALIZED VIEW is not supported", f->table_func->name);
        q = f ? f->sub : NULL;
    }
    return 0;
}

/* The view's SELECT analyzed as it runs: in the view's database, without the CTEs of
 * the statement that triggers it. */
static int analyze_in_scope(const ast *sel, const char *view_db, query_ctx *q, query_plan **plan)
{
    int saved_ctes = q->nctes;
    const char *saved_db = q->database;
    q->nctes = 0;
    q->database = view_db;
    int rc = analyze_query(sel, q, plan);
    q->nctes = saved_ctes;
    q->database = saved_db;
    return rc;
}

/* The column list of INSERT INTO target (…) SELECT: the SELECT's names, so that its
 * columns land in the target's columns of the same names (the others get defaults). */
static void names_list(arena *a, const schema *sch, ast_list *out)
{
    memset(out, 0, sizeof *out);
    for (int i = 0; i < sch->n; i++) {
        ast *id = ast_new(a, AST_IDENT, 0);
        id->nparts = 1;
        id->parts = arena_alloc(a, sizeof(char *), 8);
        id->parts[0] = arena_strdup(a, sch->names[i]);
        ast_list_push(a, out, id);
    }
}

/* INSERT INTO <mv's target> (cols) <mv's SELECT>, in the view's scope. */
static int insert_through(const table *mv, const ast_list *cols, query_ctx *q)
{
    const ast *to = mv->create->mv_to;
    ast ins = {0};
    ins.kind = AST_STMT_INSERT;
    ins.database = to->database ? to->database : mv->database;
    ins.table_name = to->table_name;
    ins.insert_columns = *cols;
    ins.sub = mv->create->as_select;
    int saved_ctes = q->nctes;
    const char *saved_db = q->database;
    q->nctes = 0;
    q->database = mv->database;
    uint64_t rows = 0;
    int rc = ddl_insert(&ins, q, &rows);
    q->nctes = saved_ctes;
    q->database = saved_db;
    if (rc)
        err_prefix("While pushing to view %s: ", table_full_name(mv));
    return rc;
}

/* ---- CREATE ---- */

static void put_ident_name(buf *out, const char *db, const char *name)
{
    ast_format_ident(out, db);
    buf_putc(out, '.');
    ast_format_ident(out, name);
}

/* The columns of an inner table: the SELECT's names and types. */
static void select_columns(arena *a, const schema *sch, ast_list *out)
{
    memset(out, 0, sizeof *out);
    for (int i = 0; i < sch->n; i++) {
        ast *cd = ast_new(a, AST_COLUMN_DEF, 0);
        cd->name = arena_strdup(a, sch->names[i]);
        cd->str = arena_strdup(a, sch->types[i]->name);
        cd->str_len = strlen(cd->str);
        ast_list_push(a, out, cd);
    }
}

/* CREATE TABLE db.inner (columns) <the view's storage clauses>, through ddl_run so that
 * it is checked as any CREATE TABLE. */
static int create_inner(const ast *st, const char *db, const char *inner, const ast_list *cols, query_ctx *q)
{
    ast cr = {0};
    cr.kind = AST_STMT_CREATE_TABLE;
    cr.database = db;
    cr.table_name = inner;
    cr.columns = *cols;
    cr.engine = st->engine;
    cr.order_by_key = st->order_by_key;
    cr.primary_key = st->primary_key;
    cr.partition_key = st->partition_key;
    cr.sample_by = st->sample_by;
    cr.settings = st->settings;
    schema *sch;
    block *out;
    return ddl_run(&cr, q, &sch, &out);
}

/* The canonical text: the target on the second line (catalog.c rewrites only the first):
 *   CREATE MATERIALIZED VIEW db.mv\nTO db.target\n(\n    `a` T,\n    …\n)\nAS <select> */
static void canonical_text(buf *out, const char *db, const char *name, const char *tdb, const char *tname,
                           const table_column *cols, int n, const ast *st)
{
    buf_puts(out, "CREATE MATERIALIZED VIEW ");
    put_ident_name(out, db, name);
    buf_puts(out, "\nTO ");
    put_ident_name(out, tdb, tname);
    buf_puts(out, "\n(\n");
    for (int i = 0; i < n; i++) {
        buf_puts(out, "    `");
        for (const char *p = cols[i].name; *p; p++) {
            if (*p == '`' || *p == '\\')
                buf_putc(out, '\\');
            buf_putc(out, *p);
        }
        buf_printf(out, "` %s%s", cols[i].type->name, i + 1 < n ? ",\n" : "\n");
    }
    buf_puts(out, ")\nAS ");
    buf_append(out, st->str, st->str_len);
}

/* ClickHouse checks at CREATE that the TO table exists and has a column for each of the
 * SELECT's, of a type it converts to: states of different aggregates or argument types
 * do not convert. */
static int check_target(const schema *out, const char *tdb, const char *tname, query_ctx *q)
{
    table *target;
    if (catalog_get(q->catalog, tdb, tname, &target))
        return -1;
    int rc = 0;
    for (int i = 0; i < out->n && !rc; i++) {
        int k = schema_find(target->sch, out->names[i]);
        const type *from = out->types[i], *to = k >= 0 ? target->sch->types[k] : NULL;
        if (!to)
            rc = err_set(ERR_THERE_IS_NO_COLUMN, "SELECT query outputs column with name '%s', which is not found in "
                         "the target table. Use 'AS' to assign alias that matches a column name.", out->names[i]);
        else if (strcmp(from->name, to->name) != 0 &&
                 (type_base(from)->id == T_AGGSTATE || type_base(to)->id == T_AGGSTATE))
            rc = err_set(ERR_CANNOT_CONVERT_TYPE, "Conversion from %s to %s is not supported", from->name, to->name);
    }
    table_unref(target);
    return rc;
}

int mview_create(const ast *st, query_ctx *q)
{
    const char *db = st->database ? st->database : q->database, *name = st->table_name;
    if (st->temporary)
        return err_set(ERR_SYNTAX_ERROR, "Temporary materialized views do not exist: CREATE MATERIALIZED VIEW without "
                                         "TEMPORARY");
    if (st->uuid)
        return err_set(ERR_NOT_IMPLEMENTED, "CREATE MATERIALIZED VIEW %s UUID '%s': shale tables have no UUIDs", name,
                       st->uuid);
    if (st->create_empty)
        return err_set(ERR_NOT_IMPLEMENTED, "CREATE MATERIALIZED VIEW … EMPTY AS is not supported");
    bool storage = st->engine || st->order_by_key.n || st->primary_key.n || st->partition_key || st->settings.n ||
                   st->sample_by;
    if (st->mv_to && storage)
        return err_set(ERR_SYNTAX_ERROR, "When creating a materialized view you can't declare both 'TO [db].[table]' "
                                         "and 'ENGINE'.");
    if (st->mv_to && st->populate)
        return err_set(ERR_SYNTAX_ERROR, "When creating a materialized view you can't declare both 'TO [db].[table]' "
                                         "and 'POPULATE'.");
    /* without TO or ENGINE the inner table is default_table_engine's: MergeTree ORDER BY tuple() */
    table *existing;
    if (catalog_get(q->catalog, db, name, &existing) == 0) {
        bool mview = existing->engine == &engine_materialized_view;
        table_unref(existing);
        if (st->if_not_exists)
            return 0;
        if (!st->or_replace)
            return err_set(ERR_TABLE_ALREADY_EXISTS, "Table %s.%s already exists", db, name);
        if (!mview)
            return err_set(ERR_NOT_IMPLEMENTED, "CREATE OR REPLACE MATERIALIZED VIEW %s.%s: it replaces only a "
                           "materialized view here", db, name);
        /* not atomic (docs/differences.md): the old view and its inner table go first */
        if (mview_drop(db, name, q) < 0)
            return -1;
    }
    err_clear();
    if (!catalog_has_database(q->catalog, db))
        return err_set(ERR_UNKNOWN_DATABASE, "Database %s does not exist", db);

    query_plan *plan;
    if (analyze_in_scope(st->as_select, db, q, &plan))
        return -1;
    if (check_select(st->as_select)) {
        query_plan_free(plan);
        return -1;
    }
    const char *tdb = st->mv_to ? (st->mv_to->database ? st->mv_to->database : q->database) : db;
    arena a;
    arena_init(&a);
    int rc = 0;
    const char *tname;
    /* a view into its own source is allowed (its INSERTs fail: TOO_DEEP_RECURSION) */
    if (st->mv_to) {
        tname = st->mv_to->table_name;
    } else {
        char uuid[37];
        rand_uuid_text(uuid);
        char *n = arena_alloc(&a, 10 + sizeof uuid, 1);
        memcpy(n, ".inner_id.", 10);
        memcpy(n + 10, uuid, sizeof uuid);
        tname = n;
    }
    if (!rc && st->mv_to)
        rc = check_target(plan->out_schema, tdb, tname, q);
    /* The view's columns: the declared ones, else the SELECT's. */
    int ncols = 0;
    table_column *cols = NULL;
    ast_list inner_cols = st->columns;
    if (!rc && !st->columns.n)
        select_columns(&a, plan->out_schema, &inner_cols);
    bool inner_made = false;
    if (!rc && !st->mv_to)
        inner_made = !(rc = create_inner(st, db, tname, &inner_cols, q));
    table *target = NULL;
    if (!rc && !st->mv_to) {
        rc = catalog_get(q->catalog, tdb, tname, &target);
        ncols = rc ? 0 : target->sch->n;
        cols = rc ? NULL : arena_zalloc(&a, sizeof *cols * (size_t)(ncols + 1), 8);
        for (int i = 0; i < ncols; i++) {
            cols[i].name = target->sch->names[i];
            cols[i].type = target->sch->types[i];
        }
    } else if (!rc) {
        ncols = inner_cols.n;
        cols = arena_zalloc(&a, sizeof *cols * (size_t)(ncols + 1), 8);
        for (int i = 0; i < ncols && !rc; i++) {
            const ast *cd = inner_cols.items[i];
            cols[i].name = cd->name;
            if (cd->default_kind || cd->codec.n || !cd->str)
                rc = err_set(ERR_NOT_IMPLEMENTED, "Column %s of materialized view %s: a view with TO takes names "
                             "and types only (defaults and codecs are the target table's)", cd->name, name);
            else if (!(cols[i].type = type_parse(cd->str, cd->str_len)))
                rc = err_code() ? -1 : err_set(ERR_UNKNOWN_TYPE, "Unknown data type: %s", cd->str);
            else if (cd->nullable == 1)
                cols[i].type = type_nullable(cols[i].type);
        }
    }
    table *mv = NULL;
    if (!rc) {
        buf text = {0};
        canonical_text(&text, db, name, tdb, tname, cols, ncols, st);
        rc = catalog_create_table(q->catalog, db, name, buf_cstr(&text), false, false, q, &mv);
        buf_free(&text);
    }
    if (rc && inner_made) {
        /* no view: no inner table either */
        err_saved e;
        err_save(&e);
        table_unref(target);
        target = NULL;
        catalog_drop_table(q->catalog, tdb, tname, true);
        err_restore(&e);
    }
    if (!rc && st->populate && mv) {
        /* POPULATE: the source's rows at this moment (later inserts reach the view
         * anyway; ClickHouse documents the same race). */
        ast_list names;
        names_list(&a, plan->out_schema, &names);
        rc = insert_through(mv, &names, q);
    }
    table_unref(mv);
    table_unref(target);
    query_plan_free(plan);
    arena_free(&a);
    return rc;
}

/* ---- DROP ---- */

int mview_drop(const char *db, const char *name, query_ctx *q)
{
    table *mv;
    if (catalog_get(q->catalog, db, name, &mv)) {
        err_clear();
        return 1;
    }
    if (mv->engine != &engine_materialized_view) {
        table_unref(mv);
        return 1;
    }
    char *inner_db = NULL, *inner = NULL;
    if (mview_has_inner(mv)) {
        const ast *to = mv->create->mv_to;
        inner_db = xstrdup(to->database ? to->database : mv->database);
        inner = xstrdup(to->table_name);
    }
    table_unref(mv);
    int rc = catalog_drop_table(q->catalog, db, name, false);
    if (!rc && inner)
        rc = catalog_drop_table(q->catalog, inner_db, inner, true);
    free(inner_db);
    free(inner);
    return rc;
}

/* ---- INSERT ---- */

typedef struct view_push {
    table *mv;
    ast_list cols; /* the SELECT's output names (in the sink's arena) */
} view_push;

/* The views see the INSERT's blocks squashed as ClickHouse squashes them before its
 * views (min_insert_block_size_rows / _bytes; the _for_materialized_views variants
 * squash what a view writes into its target, which changes only its parts), so that
 * an aggregating view writes as many rows as there: one per key for an INSERT … SELECT
 * of fewer rows than the threshold, whatever block size the SELECT produced. */
typedef struct mv_sink {
    table_sink base;
    table_sink *own;
    table *t;
    query_ctx *q;
    int nviews;
    view_push *views;
    block *pending;      /* rows not yet pushed (its own copy), or NULL */
    bool own_done;       /* the table's own sink was finished (a view failed) */
    uint64_t min_rows, min_bytes, max_rows;
    arena a;
} mv_sink;

static void mv_sink_free(mv_sink *s)
{
    for (int i = 0; i < s->nviews; i++)
        table_unref(s->views[i].mv);
    free(s->views);
    if (s->pending)
        block_free(s->pending);
    arena_free(&s->a);
    free(s);
}

/* Runs view vp's SELECT over b (t's columns) into its target. */
static int push_block(mv_sink *s, const view_push *vp, const block *b)
{
    query_ctx *q = s->q;
    if (q->mv_depth >= MAX_VIEW_DEPTH)
        return err_set(ERR_TOO_DEEP_RECURSION, "Materialized views nested deeper than %d in one INSERT (a cycle through %s?)",
                       MAX_VIEW_DEPTH, table_full_name(vp->mv));
    const void *saved_src = q->mv_source;
    const block *saved_block = q->mv_block;
    q->mv_source = s->t;
    q->mv_block = b;
    q->mv_depth++;
    int rc = insert_through(vp->mv, &vp->cols, q);
    if (rc && settings_bool(q->st, "materialized_views_ignore_errors")) {
        err_clear(); /* ClickHouse logs it as a warning; the INSERT goes on */
        rc = 0;
    }
    q->mv_depth--;
    q->mv_source = saved_src;
    q->mv_block = saved_block;
    return rc;
}

static int push_all(mv_sink *s, const block *b)
{
    int rc = 0;
    for (int i = 0; i < s->nviews && !rc; i++)
        rc = push_block(s, &s->views[i], b);
    return rc;
}

static bool enough(const mv_sink *s, const block *b)
{
    return (s->min_rows && b->rows >= s->min_rows) || (s->min_bytes && block_bytes(b) >= s->min_bytes);
}

/* A view failed: the table keeps what it was given (ClickHouse writes a block to the
 * table before its views, so the failing block is committed there too), and the INSERT
 * fails with the view's error. */
static int views_failed(mv_sink *s)
{
    err_saved e;
    err_save(&e);
    s->own_done = true;
    s->own->finish(s->own);
    return err_restore(&e);
}

/* One piece of an inserted block through the squashing to the views. */
static int squash_push(mv_sink *s, const block *b)
{
    int rc = 0;
    if (b->rows && !s->pending && enough(s, b)) {
        /* big enough alone: the views read it before the table's own sink takes it */
        rc = push_all(s, b);
    } else if (b->rows) {
        if (!s->pending)
            s->pending = block_new_empty(s->t->sch);
        block_append(s->pending, b);
        if (enough(s, s->pending)) {
            rc = push_all(s, s->pending);
            block_free(s->pending);
            s->pending = NULL;
        }
    }
    return rc;
}

static int mv_write(block_sink *bs, block *b)
{
    mv_sink *s = (mv_sink *)bs;
    if (s->own_done) {
        block_free(b);
        return err_set(ERR_LOGICAL_ERROR, "INSERT into %s went on after its views failed", table_full_name(s->t));
    }
    int rc = 0;
    /* the blocks ClickHouse's INSERT reads (mview_table_sink): at most max_insert_block_size rows */
    if (s->max_rows && b->rows > s->max_rows) {
        for (size_t at = 0; at < b->rows && !rc; at += s->max_rows) {
            block *piece = block_slice(b, at, b->rows - at < s->max_rows ? b->rows - at : s->max_rows);
            rc = squash_push(s, piece);
            block_free(piece);
        }
    } else {
        rc = squash_push(s, b);
    }
    if (rc) {
        err_saved e;
        err_save(&e);
        if (s->own->base.write(&s->own->base, b) == 0)
            views_failed(s);
        return err_restore(&e);
    }
    return s->own->base.write(&s->own->base, b);
}

static int mv_finish(table_sink *ts)
{
    mv_sink *s = (mv_sink *)ts;
    int rc = s->pending ? push_all(s, s->pending) : 0;
    if (rc)
        views_failed(s);
    else
        rc = s->own->finish(s->own);
    mv_sink_free(s);
    return rc;
}

static void mv_abort(table_sink *ts)
{
    mv_sink *s = (mv_sink *)ts;
    if (!s->own_done)
        s->own->abort(s->own);
    mv_sink_free(s);
}

/* ClickHouse refuses an INSERT into a table whose views lead back to it, before writing
 * anything: follows source → view → target from t. */
static int check_cycle(const table *t, table *const *ts, int n)
{
    const char **fdb = xcalloc((size_t)n + 2, sizeof *fdb), **fname = xcalloc((size_t)n + 2, sizeof *fname);
    const table **via = xcalloc((size_t)n + 2, sizeof *via);
    bool *seen = xcalloc((size_t)n + 1, sizeof *seen);
    int nf = 1, rc = 0;
    fdb[0] = t->database;
    fname[0] = t->name;
    via[0] = NULL;
    for (int f = 0; f < nf && !rc; f++)
        for (int i = 0; i < n && !rc; i++) {
            const char *sdb, *sname;
            if (seen[i] || ts[i]->engine != &engine_materialized_view ||
                !select_source(ts[i]->create->as_select, ts[i]->database, &sdb, &sname) || strcmp(sdb, fdb[f]) ||
                strcmp(sname, fname[f]))
                continue;
            seen[i] = true;
            const ast *to = ts[i]->create->mv_to;
            const char *tdb = to->database ? to->database : ts[i]->database;
            if (strcmp(tdb, t->database) == 0 && strcmp(to->table_name, t->name) == 0) {
                char first[512];
                snprintf(first, sizeof first, "%s", table_full_name(via[f] ? via[f] : ts[i]));
                rc = err_set(ERR_TOO_DEEP_RECURSION, "Dependencies of the table %s.%s are cyclic. Dependencies %s.%s "
                             "-> %s are pointing to %s.%s.", t->database, t->name, t->database, t->name, first,
                             t->database, t->name);
            } else {
                fdb[nf] = tdb;
                fname[nf] = to->table_name;
                via[nf++] = via[f] ? via[f] : ts[i];
            }
        }
    free(fdb);
    free(fname);
    free(via);
    free(seen);
    return rc;
}

/* The views whose source is t (t must be the catalog's own table, not a temporary one
 * of the same name), in the catalog's order (by database, then name). */
static int views_of(table *t, query_ctx *q, view_push **out, int *nout)
{
    *out = NULL;
    *nout = 0;
    table *same;
    if (catalog_get(q->catalog, t->database, t->name, &same)) {
        err_clear();
        return 0;
    }
    bool ours = same == t;
    table_unref(same);
    if (!ours)
        return 0;
    table **ts;
    int n;
    if (catalog_list(q->catalog, &ts, &n))
        return -1;
    int rc = check_cycle(t, ts, n);
    for (int i = 0; i < n; i++) {
        if (rc) {
            table_unref(ts[i]);
            continue;
        }
        const char *sdb, *sname;
        if (ts[i]->engine == &engine_materialized_view &&
            select_source(ts[i]->create->as_select, ts[i]->database, &sdb, &sname) && strcmp(sdb, t->database) == 0 &&
            strcmp(sname, t->name) == 0) {
            *out = xrealloc(*out, sizeof **out * (size_t)(*nout + 1));
            (*out)[(*nout)++] = (view_push){.mv = ts[i]};
        } else {
            table_unref(ts[i]);
        }
    }
    free(ts);
    if (rc) {
        for (int i = 0; i < *nout; i++)
            table_unref((*out)[i].mv);
        free(*out);
        *out = NULL;
        *nout = 0;
    }
    return rc;
}

/* ClickHouse's trivial INSERT … SELECT: one plain SELECT of columns from one table */
static bool trivial_select(const ast *q)
{
    return q && q->kind == AST_SELECT && q->from && !q->from->sub && !q->from->join && !q->with.n &&
           !q->select_distinct && !q->prewhere && !q->where && !q->group_by.n && !q->group_by_all && !q->having &&
           !q->order_by.n && !q->limit && !q->limit_by.n && !q->array_joins.n && !q->windows.n;
}

int mview_table_sink(table *t, const ast *stmt, query_ctx *q, table_sink **out)
{
    view_push *views;
    int nviews;
    if (views_of(t, q, &views, &nviews))
        return -1;
    if (!nviews)
        return t->engine->insert(t, q, out);
    mv_sink *s = xcalloc(1, sizeof *s);
    s->t = t;
    s->q = q;
    s->views = views;
    s->nviews = nviews;
    s->min_rows = (uint64_t)settings_int(q->st, "min_insert_block_size_rows");
    if (!stmt->sub || (settings_bool(q->st, "optimize_trivial_insert_select") && trivial_select(stmt->sub)))
        s->max_rows = (uint64_t)settings_int(q->st, "max_insert_block_size");
    s->min_bytes = (uint64_t)settings_int(q->st, "min_insert_block_size_bytes");
    arena_init(&s->a);
    /* Each view's output columns, from its SELECT analyzed over no rows (which also
     * reports a view that cannot run before anything is written). */
    block *empty = block_new_empty(t->sch);
    const void *saved_src = q->mv_source;
    const block *saved_block = q->mv_block;
    q->mv_source = t;
    q->mv_block = empty;
    int rc = 0;
    bool skip_dropped = settings_bool(q->st, "ignore_materialized_views_with_dropped_target_table");
    bool ignore_errors = settings_bool(q->st, "materialized_views_ignore_errors");
    for (int i = 0; i < s->nviews && !rc; i++) {
        table *target;
        query_plan *plan = NULL;
        if ((rc = mview_target(views[i].mv, q, &target)) == 0) {
            table_unref(target);
            rc = analyze_in_scope(views[i].mv->create->as_select, views[i].mv->database, q, &plan);
        } else if (skip_dropped && err_code() == ERR_UNKNOWN_TABLE) {
            ignore_errors = true;
        }
        if (rc) {
            err_prefix("While pushing to view %s: ", table_full_name(views[i].mv));
            if (!ignore_errors)
                break;
            /* the view is left out of this INSERT */
            err_clear();
            rc = 0;
            table_unref(views[i].mv);
            memmove(&views[i], &views[i + 1], sizeof *views * (size_t)(s->nviews - i - 1));
            s->nviews--;
            i--;
            ignore_errors = settings_bool(q->st, "materialized_views_ignore_errors");
            continue;
        }
        names_list(&s->a, plan->out_schema, &views[i].cols);
        query_plan_free(plan);
    }
    q->mv_source = saved_src;
    q->mv_block = saved_block;
    block_free(empty);
    if (!rc && !s->nviews) {
        mv_sink_free(s);
        return t->engine->insert(t, q, out);
    }
    if (!rc)
        rc = t->engine->insert(t, q, &s->own);
    if (rc) {
        mv_sink_free(s);
        return -1;
    }
    s->base.base.write = mv_write;
    s->base.finish = mv_finish;
    s->base.abort = mv_abort;
    *out = &s->base;
    return 0;
}
