/* DDL and INSERT INTO tables (interp/ddl.h). */
#include "interp/ddl.h"

#include "interp/alter.h"
#include "interp/dist_insert.h"
#include "interp/mview.h"
#include "interp/session.h"
#include "interp/udf_ddl.h"

#include "base/err.h"
#include "base/mem.h"
#include "column/text.h"
#include "column/type_pretty.h"
#include "exec/query_log.h"
#include "format/parquet/meta_cache.h"
#include "io/stream.h"
#include "sql/analyze.h"
#include "sql/type_check.h"
#include "storage/catalog.h"
#include "storage/mergetree/mt.h"
#include "storage/joinset.h"
#include "storage/distributed.h"
#include "storage/mergetree/old_syntax.h"
#include "codec/compress.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>


/* ---- helpers ---- */

static ast *mk_ident(arena *a, const char *name)
{
    ast *id = ast_new(a, AST_IDENT, 0);
    id->nparts = 1;
    id->parts = arena_alloc(a, sizeof(char *), 8);
    id->parts[0] = name;
    return id;
}

static ast *mk_cast(arena *a, ast *e, const type *t)
{
    ast *f = ast_new(a, AST_FUNC, e->pos);
    f->name = "CAST";
    ast *lit = ast_new(a, AST_LITERAL, e->pos);
    lit->lit = LIT_STRING;
    lit->str = t->name;
    lit->str_len = strlen(t->name);
    ast_list_push(a, &f->args, e);
    ast_list_push(a, &f->args, lit);
    return f;
}

/* Compiles e over blocks with the columns of sch. */
static int compile_on(const ast *e, const schema *sch, query_ctx *q, expr **out)
{
    source s = {0};
    s.sch = (schema *)sch;
    s.nvisible = sch->n;
    return analyze_expr_on(e, &s, q, out);
}

static void name_of(const ast *stmt_table, query_ctx *q, const char **db, const char **name)
{
    *db = stmt_table->database ? stmt_table->database : q->database;
    *name = stmt_table->table_name;
}

/* The table a statement names (temporary tables first for an unqualified name). */
static int find_table(const ast *stmt_table, query_ctx *q, table **t)
{
    return catalog_get_for_query(q, stmt_table->database, stmt_table->table_name, t);
}

static schema *string_schema(int n, const char *const *names)
{
    schema *s = schema_new(n);
    for (int i = 0; i < n; i++)
        schema_set(s, i, names[i], type_simple(T_STRING));
    return s;
}

static void push_s(column *c, const char *s) { col_push_str(c, s ? s : "", s ? strlen(s) : 0); }


/* ---- CREATE TABLE: checking the statement and building the canonical text ---- */

typedef struct coldef {
    const char *name;
    const type *type;
    const char *kind;
    const ast *expr;
    const ast_list *codec;
    const char *comment;
} coldef;

static bool is_mergetree(const char *engine)
{
    size_t n = strlen(engine);
    return n >= 9 && strcmp(engine + n - 9, "MergeTree") == 0;
}

/* The canonical text of CREATE TABLE db.name with columns cols and the storage clauses
 * of `st` (engine, keys, settings, comment). */
static void canonical_text(buf *out, const char *db, const char *name, const coldef *cols, int n, const ast *st,
                           const ast *engine)
{
    buf_puts(out, "CREATE TABLE ");
    ast_format_ident(out, db);
    buf_putc(out, '.');
    ast_format_ident(out, name);
    buf_puts(out, "\n(\n");
    for (int i = 0; i < n; i++) {
        const coldef *c = &cols[i];
        buf_puts(out, "    `");
        for (const char *p = c->name; *p; p++) {
            if (*p == '`' || *p == '\\')
                buf_putc(out, '\\');
            buf_putc(out, *p);
        }
        buf_printf(out, "` %s", c->type->name);
        if (c->kind) {
            buf_printf(out, " %s", c->kind);
            if (c->expr) {
                buf_putc(out, ' ');
                ast_format_expr(out, c->expr);
            }
        }
        if (c->comment) {
            buf_puts(out, " COMMENT ");
            ast_format_quoted(out, c->comment, strlen(c->comment));
        }
        if (c->codec) {
            /* As ClickHouse prints it: parameters filled in (Delta → Delta(4), ZSTD → ZSTD(1)). */
            mt_codec *mc = NULL;
            if (c->type && mt_codec_from_ast_ex(c->codec, c->type, true, &mc) == 0) {
                buf_putc(out, ' ');
                buf_puts(out, mt_codec_text(mc));
                mt_codec_free(mc);
            } else {
                err_clear(); /* the engine reports a bad codec when it opens the table */
                buf_puts(out, " CODEC(");
                ast_format_expr_list(out, c->codec);
                buf_putc(out, ')');
            }
        }
        buf_puts(out, i + 1 < n ? ",\n" : "\n");
    }
    buf_puts(out, ")\nENGINE = ");
    /* NULL is a keyword: ClickHouse quotes the Null engine's name. */
    if (strcasecmp(engine->name, "Null") == 0)
        buf_printf(out, "`%s`", engine->name);
    else
        buf_puts(out, engine->name);
    if (engine->args.n) {
        buf_putc(out, '(');
        ast_format_expr_list(out, &engine->args);
        buf_putc(out, ')');
    }
    /* the deprecated MergeTree(date, key, granularity) stays as written, nothing added */
    bool mt = is_mergetree(engine->name) && !mt_old_syntax(st, engine);
    if (st->partition_key) {
        buf_puts(out, "\nPARTITION BY ");
        ast_format_expr(out, st->partition_key);
    }
    const ast_list *keys[2] = {&st->primary_key, &st->order_by_key};
    const char *kw[2] = {"\nPRIMARY KEY ", "\nORDER BY "};
    for (int k = 0; k < 2; k++) {
        const ast_list *l = keys[k];
        /* ORDER BY defaults to the primary key, and to tuple() without either. */
        if (k == 1 && !l->n && st->primary_key.n)
            l = &st->primary_key;
        if (!l->n && !(k == 1 && mt))
            continue;
        buf_puts(out, kw[k]);
        if (!l->n)
            buf_puts(out, "tuple()");
        else if (l->n == 1)
            ast_format_expr(out, l->items[0]);
        else {
            buf_putc(out, '(');
            ast_format_expr_list(out, l);
            buf_putc(out, ')');
        }
    }
    if (st->sample_by) {
        buf_puts(out, "\nSAMPLE BY ");
        ast_format_expr(out, st->sample_by);
    }
    bool has_granularity = false;
    for (int i = 0; i < st->settings.n; i++)
        has_granularity |= strcmp(st->settings.items[i]->name, "index_granularity") == 0;
    if (st->settings.n || mt) {
        buf_puts(out, "\nSETTINGS ");
        for (int i = 0; i < st->settings.n; i++) {
            if (i)
                buf_puts(out, ", ");
            buf_printf(out, "%s = ", st->settings.items[i]->name);
            ast_format_expr(out, st->settings.items[i]->sub);
        }
        if (mt && !has_granularity)
            buf_printf(out, "%sindex_granularity = 8192", st->settings.n ? ", " : "");
    }
    if (st->comment) {
        buf_puts(out, "\nCOMMENT ");
        ast_format_quoted(out, st->comment, strlen(st->comment));
    }
}

/* Columns of a CREATE statement checked as ClickHouse does: known types, no duplicate,
 * DEFAULT expressions convertible to the type (and the type inferred when missing). */
static int check_columns(const ast *st, query_ctx *q, arena *a, coldef **out, int *nout)
{
    int n = st->columns.n;
    coldef *cols = arena_zalloc(a, sizeof *cols * (size_t)(n + 1), 8);
    for (int i = 0; i < n; i++) {
        const ast *cd = st->columns.items[i];
        for (int k = 0; k < i; k++)
            if (strcmp(cols[k].name, cd->name) == 0)
                return err_set(ERR_ILLEGAL_COLUMN, "Cannot add column %s: column with this name already exists",
                               cd->name);
        cols[i].name = cd->name;
        cols[i].kind = cd->default_kind;
        cols[i].expr = cd->sub;
        cols[i].codec = cd->codec.n ? &cd->codec : NULL;
        cols[i].comment = cd->comment;
        if (cd->str) {
            err_clear();
            if (!(cols[i].type = type_parse(cd->str, cd->str_len))) {
                if (!err_code())
                    err_set(ERR_UNKNOWN_TYPE, "Unknown data type: %s", cd->str);
                return -1;
            }
            if (cd->nullable == 1)
                cols[i].type = type_nullable(cols[i].type);
        }
        if (cd->ttl)
            return err_set(ERR_NOT_IMPLEMENTED, "Column TTL (column %s) is not supported", cd->name);
        if (cd->default_kind && !cd->sub && strcmp(cd->default_kind, "EPHEMERAL") != 0)
            return err_set(ERR_SYNTAX_ERROR, "Column %s has %s without an expression", cd->name, cd->default_kind);
    }
    /* Defaults are compiled over the typed columns (they may refer to them). */
    for (int i = 0; i < n; i++) {
        if (!cols[i].expr)
            continue;
        int nt = 0;
        for (int k = 0; k < n; k++)
            nt += cols[k].type != NULL;
        schema *sch = schema_new(nt);
        for (int k = 0, j = 0; k < n; k++)
            if (cols[k].type)
                schema_set(sch, j++, cols[k].name, cols[k].type);
        const ast *e = cols[i].type ? mk_cast(a, (ast *)cols[i].expr, cols[i].type) : cols[i].expr;
        expr *x;
        int rc = compile_on(e, sch, q, &x);
        schema_free(sch);
        if (rc)
            return err_suffix(": default expression and column type are incompatible");
        if (!cols[i].type)
            cols[i].type = x->type;
        expr_free(x);
    }
    for (int i = 0; i < n; i++)
        if (!cols[i].type)
            return err_set(ERR_UNKNOWN_TYPE, "Column %s has neither a type nor a default expression", cols[i].name);
    *out = cols;
    *nout = n;
    return 0;
}

int ddl_canonical_create(const ast *st, const char *db, const char *name, query_ctx *q, buf *out)
{
    arena a;
    arena_init(&a);
    coldef *cols;
    int n;
    int rc = check_columns(st, q, &a, &cols, &n);
    if (!rc)
        canonical_text(out, db, name, cols, n, st, st->engine);
    arena_free(&a);
    return rc;
}

/* CREATE [OR REPLACE] VIEW [IF NOT EXISTS] v AS SELECT …: the SELECT is analyzed (so a
 * view that cannot run is refused now) for the view's columns; the canonical text keeps
 * the SELECT as written:
 *   CREATE VIEW db.v\n(\n    `a` T,\n    …\n)\nAS <select>
 * A column list given by the user must be the SELECT's own names and types (ClickHouse
 * would cast to it; shale does not yet). */
static int create_view(const ast *st, query_ctx *q)
{
    const char *db, *name;
    name_of(st, q, &db, &name);
    if (st->temporary)
        return err_set(ERR_SYNTAX_ERROR, "Temporary views are not supported: CREATE VIEW without TEMPORARY");
    if (st->engine || st->order_by_key.n || st->primary_key.n || st->partition_key || st->settings.n)
        return err_set(ERR_INCORRECT_QUERY, "A view has no ENGINE, keys or SETTINGS: CREATE VIEW v AS SELECT …");
    query_plan *plan;
    if (analyze_query(st->as_select, q, &plan))
        return -1;
    const schema *out = plan->out_schema;
    int rc = 0;
    if (st->columns.n) {
        bool same = st->columns.n == out->n;
        for (int i = 0; same && i < out->n; i++) {
            const ast *cd = st->columns.items[i];
            const type *t = cd->str ? type_parse(cd->str, cd->str_len) : NULL;
            same = t && !strcmp(cd->name, out->names[i]) &&
                   !strcmp((cd->nullable == 1 ? type_nullable(t) : t)->name, out->types[i]->name);
        }
        err_clear();
        if (!same)
            rc = err_set(ERR_NOT_IMPLEMENTED, "CREATE VIEW %s with a column list other than its SELECT's names and "
                         "types is not supported: leave the column list out", name);
    }
    buf text = {0};
    if (!rc) {
        buf_puts(&text, "CREATE VIEW ");
        ast_format_ident(&text, db);
        buf_putc(&text, '.');
        ast_format_ident(&text, name);
        buf_puts(&text, "\n(\n");
        for (int i = 0; i < out->n; i++) {
            buf_puts(&text, "    ");
            buf_putc(&text, '`');
            for (const char *p = out->names[i]; *p; p++) {
                if (*p == '`' || *p == '\\')
                    buf_putc(&text, '\\');
                buf_putc(&text, *p);
            }
            buf_printf(&text, "` %s%s", out->types[i]->name, i + 1 < out->n ? ",\n" : "\n");
        }
        buf_puts(&text, ")\nAS ");
        buf_append(&text, st->str, st->str_len);
        rc = catalog_create_table(q->catalog, db, name, buf_cstr(&text), st->if_not_exists, st->or_replace, q, NULL);
    }
    buf_free(&text);
    query_plan_free(plan);
    return rc;
}

/* Distributed(cluster, db, table, …), Merge(db, regexp) and File(format, …): ClickHouse
 * keeps the names as string literals in the table's definition (SHOW CREATE prints
 * Distributed('c', 'db', 't', key), Merge('default', '^t'), File('TSV')), currentDatabase()
 * evaluated. */
static const ast *names_as_strings(arena *a, const ast *engine, const char *current_db)
{
    bool merge = strcmp(engine->name, "Merge") == 0 || strcmp(engine->name, "File") == 0;
    if (strcmp(engine->name, "Distributed") != 0 && !merge)
        return engine;
    ast *e = arena_alloc(a, sizeof *e, 8);
    *e = *engine;
    e->args.items = arena_alloc(a, sizeof(ast *) * (size_t)(engine->args.n + 1), 8);
    for (int i = 0; i < engine->args.n; i++) {
        const ast *x = engine->args.items[i];
        ast *y = (ast *)x;
        const char *as_string = NULL;
        if (i < (merge ? 1 : 3) && x->kind == AST_IDENT && x->nparts == 1)
            as_string = x->parts[0];
        if (merge && i == 0 && x->kind == AST_FUNC && !strcasecmp(x->name, "currentDatabase") && !x->args.n &&
            strcmp(engine->name, "Merge") == 0)
            as_string = current_db ? current_db : "default";
        if (as_string) {
            y = ast_new(a, AST_LITERAL, x->pos);
            y->lit = LIT_STRING;
            y->str = arena_strdup(a, as_string);
            y->str_len = strlen(as_string);
        }
        e->args.items[i] = y;
    }
    return e;
}

/* SAMPLE BY: as ClickHouse checks it, an unsigned integer expression that is one of the
 * primary key's (the ORDER BY's when no PRIMARY KEY is given). */
static int check_sample_by(const ast *st, const coldef *cols, int n, query_ctx *q)
{
    /* in the primary key first, then the type, in ClickHouse's order */
    const ast_list *pk = st->primary_key.n ? &st->primary_key : &st->order_by_key;
    buf want = {0}, have = {0};
    ast_format_name(&want, st->sample_by);
    bool found = false;
    for (int i = 0; i < pk->n && !found; i++) {
        have.len = 0;
        ast_format_name(&have, pk->items[i]);
        found = have.len == want.len && memcmp(have.p, want.p, want.len) == 0;
    }
    buf_free(&want);
    buf_free(&have);
    if (!found)
        return err_set(ERR_BAD_ARGUMENTS, "Sampling expression must be present in the primary key");
    schema *sch = schema_new(n);
    for (int i = 0; i < n; i++)
        schema_set(sch, i, cols[i].name, cols[i].type);
    expr *x;
    int rc = compile_on(st->sample_by, sch, q, &x);
    schema_free(sch);
    if (rc)
        return -1;
    int id = x->type->id;
    const char *tname = x->type->name;
    expr_free(x);
    if (id != T_UINT8 && id != T_UINT16 && id != T_UINT32 && id != T_UINT64)
        return err_set(ERR_ILLEGAL_TYPE_OF_COLUMN_FOR_FILTER, "Invalid sampling column type in storage parameters: %s. "
                       "Must be one unsigned integer type", tname);
    return 0;
}

static int create_table(const ast *st, query_ctx *q)
{
    if (st->ttl)
        return err_set(ERR_NOT_IMPLEMENTED, "TTL is not supported (table %s)", st->table_name);
    if (st->show_what && strcmp(st->show_what, "VIEW") == 0)
        return create_view(st, q);
    if (st->show_what && strcmp(st->show_what, "MATERIALIZED VIEW") == 0)
        return mview_create(st, q);
    if (st->show_what)
        return err_set(ERR_NOT_IMPLEMENTED, "CREATE %s is not supported (CREATE VIEW and CREATE MATERIALIZED VIEW "
                       "are)", st->show_what);
    const char *db, *name;
    name_of(st, q, &db, &name);
    catalog *target = q->catalog;
    if (st->constraint_pos)
        return err_set(ERR_NOT_IMPLEMENTED, "CREATE TABLE %s: CONSTRAINT (CHECK / ASSUME) is not supported yet (at "
                       "position %d)", name, st->constraint_pos);
    if (st->uuid)
        return err_set(ERR_NOT_IMPLEMENTED, "CREATE TABLE %s UUID '%s': shale tables have no UUIDs (RESTORE drops "
                       "the UUID of a table's metadata in a backup)", name, st->uuid);
    if (st->temporary) {
        /* The session's own catalog, in its "default" database; gone with the session. */
        if (st->database)
            return err_set(ERR_BAD_DATABASE_FOR_TEMPORARY_TABLE, "Temporary tables cannot be inside a database. You "
                                                                  "should not specify a database for a temporary "
                                                                  "table.");
        if (session_temp_catalog((session *)q->session, q, &target))
            return -1;
        db = "default";
    }
    arena a;
    arena_init(&a);
    int rc = 0;
    coldef *cols = NULL;
    int n = 0;
    const ast *storage = st;
    const ast *engine = st->engine;
    table *src = NULL;
    query_plan *plan = NULL;
    if (st->sub) {
        /* CREATE TABLE t AS other [ENGINE …]: the other table's columns, and its storage
         * clauses when no ENGINE is given. */
        if (find_table(st->sub, q, &src)) {
            arena_free(&a);
            return -1;
        }
        if (src->engine == &engine_materialized_view) {
            /* AS a materialized view: its inner table's structure; one with TO has none */
            table *inner = NULL;
            int mrc = mview_has_inner(src) ? mview_target(src, q, &inner)
                                           : err_set(ERR_INCORRECT_QUERY, "Cannot CREATE a table AS %s, it is a "
                                                     "Materialized View without storage. Use \"AS %s.%s\" instead",
                                                     table_full_name(src), src->create->mv_to->database
                                                         ? src->create->mv_to->database : src->database,
                                                     src->create->mv_to->table_name);
            table_unref(src);
            src = inner;
            if (mrc) {
                arena_free(&a);
                return -1;
            }
        }
        rc = check_columns(src->create, q, &a, &cols, &n);
        if (!engine) {
            storage = src->create;
            engine = src->create->engine;
        }
    } else if (st->as_select && !st->columns.n) {
        if (analyze_query(st->as_select, q, &plan)) {
            arena_free(&a);
            return -1;
        }
        n = plan->out_schema->n;
        cols = arena_zalloc(&a, sizeof *cols * (size_t)(n + 1), 8);
        for (int i = 0; i < n; i++) {
            cols[i].name = plan->out_schema->names[i];
            cols[i].type = plan->out_schema->types[i];
            for (int k = 0; k < i; k++)
                if (strcmp(cols[k].name, cols[i].name) == 0)
                    rc = err_set(ERR_ILLEGAL_COLUMN, "Cannot add column %s: column with this name already exists",
                                 cols[i].name);
        }
    } else {
        rc = check_columns(st, q, &a, &cols, &n);
        for (int i = 0; !rc && i < n; i++)
            if (cols[i].type)
                rc = type_check_suspicious(cols[i].type, q->st);
    }
    if (!rc && !engine) {
        /* default_table_engine = MergeTree, as ClickHouse; a temporary table is Memory. */
        ast *e = ast_new(&a, AST_FUNC, st->pos);
        e->name = st->temporary ? "Memory" : "MergeTree";
        engine = e;
    }
    if (!rc && !table_engine_find(engine->name))
        rc = err_set(ERR_UNKNOWN_STORAGE, "Unknown table engine %s", engine->name);
    if (!rc && !is_mergetree(engine->name) &&
        (storage->order_by_key.n || storage->primary_key.n || storage->partition_key || storage->sample_by))
        rc = err_set(ERR_BAD_ARGUMENTS, "Engine %s doesn't support PARTITION_BY, PRIMARY_KEY, ORDER_BY or "
                     "SAMPLE_BY clauses. Currently only the following engines have support for the feature: "
                     "[MergeTree, ReplacingMergeTree, SummingMergeTree, AggregatingMergeTree, "
                     "CollapsingMergeTree, VersionedCollapsingMergeTree, GraphiteMergeTree, CoalescingMergeTree]",
                     engine->name);
    if (!rc && !is_mergetree(engine->name) && strcmp(engine->name, "Join") && strcmp(engine->name, "Set") &&
        storage->settings.n)
        rc = err_set(ERR_BAD_ARGUMENTS, "Engine %s doesn't support SETTINGS clause. Currently only the "
                     "following engines have support for the feature: [MergeTree, ReplacingMergeTree, "
                     "SummingMergeTree, AggregatingMergeTree, CollapsingMergeTree, VersionedCollapsingMergeTree, "
                     "GraphiteMergeTree, CoalescingMergeTree, Memory, S3, Kafka, …]", engine->name);
    if (!rc && (!engine->args.n || true) && strcmp(engine->name, "Memory") == 0 && engine->args.n)
        rc = err_set(ERR_NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Engine Memory doesn't support any arguments (%d given)",
                     engine->args.n);
    if (!rc && mt_old_syntax(storage, engine)) {
        /* MergeTree(date, [sample,] key, granularity): refused without the setting, then
         * checked as the storage clauses it stands for */
        mt_old_args oa;
        rc = mt_old_args_split(engine, settings_bool(q->st, "allow_deprecated_syntax_for_merge_tree"), &oa);
        const ast *eff = storage;
        if (!rc)
            rc = mt_old_syntax_expand(storage, &a, &eff);
        if (!rc && eff->sample_by)
            rc = check_sample_by(eff, cols, n, q);
    } else if (!rc && storage->sample_by)
        rc = check_sample_by(storage, cols, n, q);
    table *t = NULL;
    if (!rc) {
        buf text = {0};
        ast tmp = *storage;
        tmp.comment = st->comment ? st->comment : (storage != st ? storage->comment : NULL);
        canonical_text(&text, db, name, cols, n, &tmp, names_as_strings(&a, engine, q->database));
        rc = catalog_create_table(target, db, name, buf_cstr(&text), st->if_not_exists, st->or_replace, q, &t);
        buf_free(&text);
        if (!rc && t)
            t->has_skip_indexes = st->has_skip_indexes;
    }
    if (!rc && t && st->as_select && !st->create_empty) {
        /* CREATE … AS SELECT: the table is created, then filled (EMPTY AS: not). */
        ast ins = {0};
        ins.kind = AST_STMT_INSERT;
        ins.database = st->temporary ? NULL : t->database; /* unqualified: the temporary table */
        ins.table_name = t->name;
        ins.sub = st->as_select;
        uint64_t rows;
        rc = ddl_insert(&ins, q, &rows);
    }
    table_unref(t);
    table_unref(src);
    if (plan)
        query_plan_free(plan);
    arena_free(&a);
    return rc;
}

/* ---- SHOW / EXISTS / DESCRIBE ---- */

static char *pretty_create_sql(const table *t);

static bool like_match(const char *s, const char *p)
{
    /* LIKE with % and _ (and \ escapes), as ClickHouse's. */
    for (; *p; p++, s++) {
        if (*p == '%') {
            while (p[1] == '%')
                p++;
            if (!p[1])
                return true;
            for (; *s; s++)
                if (like_match(s, p + 1))
                    return true;
            return like_match(s, p + 1);
        }
        if (!*s)
            return false;
        if (*p == '\\' && p[1])
            p++;
        else if (*p == '_')
            continue;
        if (*p != *s)
            return false;
    }
    return *s == 0;
}

static int one_column_result(const char *colname, const type *t, schema **sch, block **out)
{
    *sch = schema_new(1);
    schema_set(*sch, 0, colname, t);
    *out = block_new_empty(*sch);
    return 0;
}

/* SHOW CREATE of a materialized view, as ClickHouse prints it:
 *   CREATE MATERIALIZED VIEW db.mv [TO db.target]\n(\n    `a` T\n)\n[ENGINE = … of the inner
 *   table\n]AS <SELECT formatted> */
static int show_create_mview(table *t, query_ctx *q, schema **sch, block **out)
{
    buf sel = {0}, text = {0};
    bool ok = ast_format_query_ch(&sel, t->create->as_select, t->create_sql, strlen(t->create_sql), t->database,
                                  false);
    char *own = settings_bool(q->st, "print_pretty_type_names") ? pretty_create_sql(t) : xstrdup(t->create_sql);
    const char *cols = strstr(own, "\n(\n"), *as = strstr(own, "\n)\nAS ");
    table *target = NULL;
    int rc = 0;
    if (!ok || !cols || !as)
        rc = err_set(ERR_NOT_IMPLEMENTED, "SHOW CREATE of materialized view %s: its SELECT has syntax whose ClickHouse "
                     "formatting shale does not reproduce (subqueries, CTEs, CASE, CAST, …)", table_full_name(t));
    else if (mview_has_inner(t))
        rc = mview_target(t, q, &target);
    if (!rc) {
        buf_puts(&text, "CREATE MATERIALIZED VIEW ");
        ast_format_ident(&text, t->database);
        buf_putc(&text, '.');
        ast_format_ident(&text, t->name);
        if (!target) {
            const ast *to = t->create->mv_to;
            buf_puts(&text, " TO ");
            ast_format_ident(&text, to->database ? to->database : t->database);
            buf_putc(&text, '.');
            ast_format_ident(&text, to->table_name);
        }
        buf_append(&text, cols, (size_t)(as - cols) + 3);
        const char *engine = target ? strstr(target->create_sql, "\nENGINE = ") : NULL;
        if (engine)
            buf_puts(&text, engine + 1);
        buf_puts(&text, engine ? "\nAS " : "AS ");
        buf_append(&text, sel.p, sel.len);
        one_column_result("statement", type_simple(T_STRING), sch, out);
        push_s((*out)->cols[0], buf_cstr(&text));
        (*out)->rows = 1;
    }
    table_unref(target);
    free(own);
    buf_free(&sel);
    buf_free(&text);
    return rc;
}

static int run_show(const ast *st, query_ctx *q, schema **sch, block **out)
{
    const char *what = st->show_what;
    if (strcmp(what, "DATABASES") == 0) {
        char **names;
        int n;
        catalog_list_databases(q->catalog, &names, &n);
        one_column_result("name", type_simple(T_STRING), sch, out);
        for (int i = 0; i < n; i++) {
            push_s((*out)->cols[0], names[i]);
            free(names[i]);
        }
        (*out)->rows = (size_t)n;
        free(names);
        return 0;
    }
    if (strcmp(what, "TABLES") == 0) {
        const char *db = st->database ? st->database : q->database;
        if (!catalog_has_database(q->catalog, db))
            return err_set(ERR_UNKNOWN_DATABASE, "Database %s does not exist", db);
        table **ts;
        int n;
        catalog_list(q->catalog, &ts, &n);
        one_column_result("name", type_simple(T_STRING), sch, out);
        const char *pat = st->sub && st->sub->kind == AST_LITERAL ? st->sub->str : NULL;
        if (strcmp(db, "system") == 0) {
            static const char *sys[] = {"columns", "databases", "formats", "functions", "numbers", "one",
                                        "query_log", "settings", "tables"};
            for (size_t i = 0; i < sizeof sys / sizeof sys[0]; i++)
                if (!pat || like_match(sys[i], pat)) {
                    push_s((*out)->cols[0], sys[i]);
                    (*out)->rows++;
                }
        }
        for (int i = 0; i < n; i++) {
            if (strcmp(ts[i]->database, db) == 0 && (!pat || like_match(ts[i]->name, pat))) {
                push_s((*out)->cols[0], ts[i]->name);
                (*out)->rows++;
            }
            table_unref(ts[i]);
        }
        free(ts);
        return 0;
    }
    if (strcmp(what, "EXISTS TABLE") == 0 || strcmp(what, "EXISTS DATABASE") == 0) {
        bool yes;
        if (what[7] == 'D') {
            yes = catalog_has_database(q->catalog, st->database);
        } else {
            const char *db, *name;
            name_of(st, q, &db, &name);
            table *t;
            yes = find_table(st, q, &t) == 0;
            if (yes)
                table_unref(t);
            else if (strcmp(db, "system") == 0)
                yes = strstr(",columns,databases,formats,functions,numbers,one,query_log,settings,tables,",
                             name) != NULL && !strchr(name, ',');
            err_clear();
        }
        one_column_result("result", type_simple(T_UINT8), sch, out);
        uint8_t v = yes;
        col_push_fixed((*out)->cols[0], &v);
        (*out)->rows = 1;
        return 0;
    }
    if (strcmp(what, "CREATE DATABASE") == 0) {
        if (!catalog_has_database(q->catalog, st->database))
            return err_set(ERR_UNKNOWN_DATABASE, "Database %s does not exist", st->database);
        buf b = {0};
        buf_puts(&b, "CREATE DATABASE ");
        ast_format_ident(&b, st->database);
        buf_puts(&b, strcmp(st->database, "system") == 0 ? "\nENGINE = Memory" : "\nENGINE = Atomic");
        one_column_result("statement", type_simple(T_STRING), sch, out);
        push_s((*out)->cols[0], buf_cstr(&b));
        (*out)->rows = 1;
        buf_free(&b);
        return 0;
    }
    /* SHOW CREATE TABLE */
    table *t;
    if (find_table(st, q, &t))
        return -1;
    if (t->engine == &engine_materialized_view) {
        int rc = show_create_mview(t, q, sch, out);
        table_unref(t);
        return rc;
    }
    if (t->engine == &engine_view) {
        /* ClickHouse prints the view's SELECT through its formatter; where shale does not
         * reproduce that formatting, an error rather than a different text. */
        buf sel = {0};
        bool ok = ast_format_query_ch(&sel, t->create->as_select, t->create_sql, strlen(t->create_sql), t->database,
                                      false);
        char *head = settings_bool(q->st, "print_pretty_type_names") ? pretty_create_sql(t) : xstrdup(t->create_sql);
        char *as = strstr(head, "\n)\nAS ");
        int rc = 0;
        if (!ok || !as) {
            rc = err_set(ERR_NOT_IMPLEMENTED, "SHOW CREATE of view %s: its SELECT has syntax whose ClickHouse "
                         "formatting shale does not reproduce (subqueries, CTEs, CASE, CAST, …)", table_full_name(t));
        } else {
            as[6] = 0;
            buf text = {0};
            buf_puts(&text, head);
            buf_append(&text, sel.p, sel.len);
            one_column_result("statement", type_simple(T_STRING), sch, out);
            push_s((*out)->cols[0], buf_cstr(&text));
            (*out)->rows = 1;
            buf_free(&text);
        }
        free(head);
        buf_free(&sel);
        table_unref(t);
        return rc;
    }
    one_column_result("statement", type_simple(T_STRING), sch, out);
    if (settings_bool(q->st, "print_pretty_type_names")) {
        char *text = pretty_create_sql(t);
        push_s((*out)->cols[0], text);
        free(text);
    } else {
        push_s((*out)->cols[0], t->create_sql);
    }
    (*out)->rows = 1;
    table_unref(t);
    return 0;
}

/* create_sql (canonical_text) with each column's type in print_pretty_type_names form:
 * the "    `name` Type" of every column whose type contains a named tuple of 2+ fields is
 * respelled. Returns a new string. */
static char *pretty_create_sql(const table *t)
{
    buf out = {0}, pat = {0}, ty = {0};
    const char *rest = t->create_sql;
    for (int i = 0; i < t->ncols; i++) {
        const table_column *c = &t->cols[i];
        pat.len = 0;
        buf_puts(&pat, "\n    `");
        for (const char *p = c->name; *p; p++) {
            if (*p == '`' || *p == '\\')
                buf_putc(&pat, '\\');
            buf_putc(&pat, *p);
        }
        buf_printf(&pat, "` %s", c->type->name);
        const char *at = strstr(rest, buf_cstr(&pat));
        if (!at)
            continue;
        ty.len = 0;
        type_pretty_name_ddl(&ty, c->type, 1);
        size_t keep = (size_t)(at - rest) + pat.len - strlen(c->type->name);
        buf_append(&out, rest, keep);
        buf_append(&out, ty.p, ty.len);
        rest = at + pat.len;
    }
    buf_puts(&out, rest);
    char *r = xstrdup(buf_cstr(&out));
    buf_free(&out);
    buf_free(&pat);
    buf_free(&ty);
    return r;
}

int ddl_describe(const ast *tbl, query_ctx *q, schema **sch, block **out)
{
    if (tbl->kind != AST_TABLE || !tbl->table_name || tbl->table_func || tbl->sub || tbl->join)
        return 1;
    if (tbl->database && strcmp(tbl->database, "system") == 0)
        return 1;
    if (!tbl->database)
        for (int i = 0; i < q->nctes; i++)
            if (strcmp(((const ast *)q->ctes[i])->alias, tbl->table_name) == 0)
                return 1;
    if (!tbl->database && strcmp(tbl->table_name, "table") == 0)
        return 1;
    table *t;
    if (find_table(tbl, q, &t))
        return -1;
    static const char *cols[] = {"name", "type", "default_type", "default_expression", "comment",
                                 "codec_expression", "ttl_expression"};
    *sch = string_schema(7, cols);
    block *b = block_new_empty(*sch);
    buf tmp = {0};
    for (int i = 0; i < t->ncols; i++) {
        const table_column *c = &t->cols[i];
        push_s(b->cols[0], c->name);
        tmp.len = 0;
        if (settings_bool(q->st, "print_pretty_type_names"))
            type_pretty_name(&tmp, c->type, 0);
        else
            buf_puts(&tmp, c->type->name);
        col_push_str(b->cols[1], (const char *)tmp.p, tmp.len);
        push_s(b->cols[2], c->default_kind);
        tmp.len = 0;
        if (c->default_expr)
            ast_format_expr(&tmp, c->default_expr);
        col_push_str(b->cols[3], (const char *)tmp.p, tmp.len);
        push_s(b->cols[4], c->comment);
        tmp.len = 0;
        if (c->codec)
            ast_format_expr_list(&tmp, c->codec);
        col_push_str(b->cols[5], (const char *)tmp.p, tmp.len);
        push_s(b->cols[6], "");
        b->rows++;
    }
    buf_free(&tmp);
    table_unref(t);
    *out = b;
    return 0;
}

/* ---- engine calls ---- */

static int with_table(const ast *st, query_ctx *q, table **t) { return find_table(st, q, t); }

static int run_optimize(const ast *st, query_ctx *q)
{
    table *t;
    if (with_table(st, q, &t))
        return -1;
    int rc = t->engine->optimize ? t->engine->optimize(t, st, q)
                                 : err_set(ERR_NOT_IMPLEMENTED, "Method optimize is not supported by storage %s",
                                           t->engine->name);
    table_unref(t);
    return rc;
}

static int run_check(const ast *st, query_ctx *q, schema **sch, block **out)
{
    table *t;
    if (with_table(st, q, &t))
        return -1;
    if (!t->engine->check) {
        int rc = err_set(ERR_NOT_IMPLEMENTED, "Check query is not supported for %s storage", t->engine->name);
        table_unref(t);
        return rc;
    }
    *sch = schema_new(3);
    schema_set(*sch, 0, "part_path", type_simple(T_STRING));
    schema_set(*sch, 1, "is_passed", type_simple(T_UINT8));
    schema_set(*sch, 2, "message", type_simple(T_STRING));
    *out = block_new_empty(*sch);
    int rc = t->engine->check(t, q, *out);
    table_unref(t);
    return rc;
}


static int run_truncate(const ast *st, query_ctx *q)
{
    table *t;
    if (find_table(st, q, &t)) {
        if (st->if_exists && err_code() == ERR_UNKNOWN_TABLE) {
            err_clear();
            return 0;
        }
        return -1;
    }
    int rc = t->engine->truncate ? t->engine->truncate(t, q)
                                 : err_set(ERR_NOT_IMPLEMENTED, "Truncate is not supported by storage %s",
                                           t->engine->name);
    table_unref(t);
    return rc;
}

static int run_rename(const ast *st, query_ctx *q)
{
    if (st->exchange) {
        const char *db, *name, *tdb, *tname;
        name_of(st->args.items[0], q, &db, &name);
        name_of(st->args.items[1], q, &tdb, &tname);
        return catalog_exchange_tables(q->catalog, db, name, tdb, tname, q);
    }
    for (int i = 0; i + 1 < st->args.n; i += 2) {
        const char *db, *name, *tdb, *tname;
        name_of(st->args.items[i], q, &db, &name);
        name_of(st->args.items[i + 1], q, &tdb, &tname);
        if (catalog_rename_table(q->catalog, db, name, tdb, tname, q))
            return -1;
    }
    return 0;
}
/* ---- SYSTEM FLUSH DISTRIBUTED t, SYSTEM STOP / START DISTRIBUTED SENDS [t] ---- */

static const char *const dist_cmds[] = {"FLUSH DISTRIBUTED", "STOP DISTRIBUTED SENDS", "START DISTRIBUTED SENDS"};

/* The command's words matched case-insensitively, any spacing: the rest, or NULL. */
static const char *after_words(const char *text, const char *words)
{
    const char *p = text;
    while (*words) {
        while (*p == ' ' || *p == '\t' || *p == '\n')
            p++;
        size_t n = strcspn(words, " ");
        if (strncasecmp(p, words, n) != 0 || (p[n] && !strchr(" \t\n;", p[n])))
            return NULL;
        p += n;
        words += n;
        while (*words == ' ')
            words++;
    }
    while (*p == ' ' || *p == '\t' || *p == '\n')
        p++;
    return p;
}

static bool is_distributed_cmd(const char *text)
{
    for (size_t i = 0; i < sizeof dist_cmds / sizeof dist_cmds[0]; i++)
        if (after_words(text, dist_cmds[i]))
            return true;
    return false;
}

/* One part of a table name: an identifier, `quoted` or "quoted"; *p moves past it. */
static char *name_part(const char **p)
{
    const char *s = *p;
    if (*s == '`' || *s == '"') {
        const char *e = strchr(s + 1, *s);
        if (!e)
            return NULL;
        *p = e + 1;
        return xstrndup(s + 1, (size_t)(e - s - 1));
    }
    size_t n = 0;
    while (s[n] && (s[n] == '_' || (s[n] >= '0' && s[n] <= '9') || ((s[n] | 32) >= 'a' && (s[n] | 32) <= 'z')))
        n++;
    if (!n)
        return NULL;
    *p = s + n;
    return xstrndup(s, n);
}

/* The optional [db.]table after a SYSTEM command's words (rest): *name stays NULL when
 * there is none. Both taken by the caller. */
static int system_table_arg(const char *cmd, const char *rest, char **db, char **name)
{
    *db = *name = NULL;
    const char *p = rest;
    if (!*p || *p == ';')
        return 0;
    *name = name_part(&p);
    if (*name && *p == '.') {
        p++;
        *db = *name;
        *name = name_part(&p);
    }
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == ';')
        p++;
    if (*name && !*p)
        return 0;
    free(*db);
    free(*name);
    *db = *name = NULL;
    return err_set(ERR_SYNTAX_ERROR, "SYSTEM %s: expected [db.]table after %s, got '%s'", cmd, cmd, rest);
}

static int run_system_distributed(const char *text, query_ctx *q)
{
    int cmd = 0;
    const char *rest = NULL;
    for (; cmd < 3 && !(rest = after_words(text, dist_cmds[cmd])); cmd++)
        ;
    char *db, *name;
    if (system_table_arg(dist_cmds[cmd], rest, &db, &name))
        return -1;
    if (!name && cmd == 0)
        return err_set(ERR_SYNTAX_ERROR, "SYSTEM FLUSH DISTRIBUTED needs a table: SYSTEM FLUSH DISTRIBUTED [db.]table");
    table *t = NULL;
    int rc = 0;
    if (name && !(rc = catalog_get(q->catalog, db ? db : q->database, name, &t)) && !table_is_distributed(t))
        rc = err_set(ERR_BAD_ARGUMENTS, "SYSTEM %s: table %s is not a Distributed table (its engine is %s)",
                     dist_cmds[cmd], table_full_name(t), t->engine->name);
    free(db);
    free(name);
    if (!rc) {
        if (cmd == 0)
            rc = distributed_flush(t);
        else
            distributed_set_sends_blocked(t, cmd == 1);
    }
    table_unref(t);
    return rc;
}

/* SYSTEM STOP / START MERGES [[db.]table]: without a table, every MergeTree table there is
 * now (as ClickHouse's action locks). A stopped table's running merges are cancelled and
 * it neither merges nor runs mutations in the background; OPTIMIZE fails with ABORTED. */
static int run_system_merges(const char *rest, bool stop, query_ctx *q)
{
    char *db, *name;
    if (system_table_arg(stop ? "STOP MERGES" : "START MERGES", rest, &db, &name))
        return -1;
    table **ts = NULL;
    int n = 0;
    if (name) {
        /* ClickHouse accepts a table that does not exist (there is nothing to stop), not a
         * database. */
        if (db && !catalog_has_database(q->catalog, db)) {
            err_set(ERR_UNKNOWN_DATABASE, "Database %s does not exist", db);
            free(db);
            free(name);
            return -1;
        }
        table *t;
        if (!catalog_get(q->catalog, db ? db : q->database, name, &t)) {
            ts = xcalloc(1, sizeof *ts);
            ts[n++] = t;
        }
        err_clear();
    } else {
        catalog_list(q->catalog, &ts, &n);
    }
    for (int i = 0; i < n; i++) {
        if (mt_is_mergetree(ts[i]) && ts[i]->impl)
            mt_set_merges_stopped(ts[i]->impl, stop);
        table_unref(ts[i]);
    }
    free(ts);
    free(db);
    free(name);
    return 0;
}

/* For DROP VIEW and DETACH VIEW: 0 when db.name is a view, 2 when it is a materialized
 * view, 1 when it does not exist and if_exists says to do nothing, else -1 with the error
 * (INCORRECT_QUERY: not a view). */
static int check_view(query_ctx *q, const char *db, const char *name, bool if_exists)
{
    table *v;
    if (catalog_get(q->catalog, db, name, &v)) {
        if (!if_exists)
            return -1;
        err_clear();
        return 1;
    }
    bool is_view = v->engine == &engine_view, is_mview = v->engine == &engine_materialized_view;
    table_unref(v);
    if (is_mview)
        return 2;
    return is_view ? 0 : err_set(ERR_INCORRECT_QUERY, "Table %s.%s is not a View", db, name);
}

/* DETACH / ATTACH TABLE (the short form), as ClickHouse's Atomic databases (its default)
 * behave; views are tables here. */
static int run_detach_attach(const ast *st, query_ctx *q)
{
    bool detach = st->kind == AST_STMT_DETACH;
    if (strcmp(st->show_what, "TABLE") && strcmp(st->show_what, "VIEW"))
        return err_set(ERR_NOT_IMPLEMENTED, "%s %s is not supported", detach ? "DETACH" : "ATTACH", st->show_what);
    if (st->temporary)
        return err_set(ERR_SYNTAX_ERROR, "%s of TEMPORARY tables are not supported", detach ? "DETACH" : "ATTACH");
    const char *db, *name;
    name_of(st, q, &db, &name);
    if (!detach) {
        if (st->str)
            return err_set(ERR_INCORRECT_QUERY,
                           "Incorrect ATTACH TABLE query for Atomic database engine. Use one of the following "
                           "queries instead:\n1. ATTACH TABLE %s;\n2. CREATE TABLE %s <table definition>;\n3. ATTACH "
                           "TABLE %s FROM '/path/to/data/' <table definition>;\n4. ATTACH TABLE %s UUID '<uuid>' "
                           "<table definition>;",
                           name, name, name, name);
        return catalog_attach_table(q->catalog, db, name, st->if_not_exists, q);
    }
    if (!st->database && q->temp_catalog) {
        table *tt;
        if (catalog_get(q->temp_catalog, "default", name, &tt) == 0) {
            table_unref(tt);
            return err_set(ERR_SYNTAX_ERROR, "DETACH of TEMPORARY tables are not supported");
        }
        err_clear();
    }
    int rc = strcmp(st->show_what, "VIEW") ? 0 : check_view(q, db, name, st->if_exists);
    if (rc == 1 || rc < 0)
        return rc < 0 ? -1 : 0;
    return catalog_detach_table(q->catalog, db, name, st->if_exists, st->str != NULL);
}

int ddl_run(const ast *st, query_ctx *q, schema **sch, block **out)
{
    *sch = NULL;
    *out = NULL;
    switch (st->kind) {
    case AST_STMT_CREATE_TABLE: return create_table(st, q);
    case AST_STMT_CREATE_DATABASE:
        if (st->engine && strcmp(st->engine->name, "Atomic") && strcmp(st->engine->name, "Ordinary") &&
            strcmp(st->engine->name, "Memory"))
            return err_set(ERR_UNKNOWN_DATABASE_ENGINE, "Unknown database engine: %s", st->engine->name);
        return catalog_create_database(q->catalog, st->database, st->if_not_exists);
    case AST_STMT_DROP:
        if (strcmp(st->show_what, "DATABASE") == 0)
            return catalog_drop_database(q->catalog, st->database, st->if_exists);
        if (strcmp(st->show_what, "TABLE") == 0) {
            const char *db, *name;
            name_of(st, q, &db, &name);
            /* DROP [TEMPORARY] TABLE of an unqualified name drops the temporary table first. */
            table *tt;
            if (!st->database && q->temp_catalog && catalog_get(q->temp_catalog, "default", name, &tt) == 0) {
                table_unref(tt);
                return catalog_drop_table(q->temp_catalog, "default", name, false);
            }
            err_clear();
            if (st->temporary)
                return st->if_exists ? 0 : err_set(ERR_UNKNOWN_TABLE, "Temporary table %s does not exist", name);
            int mrc = mview_drop(db, name, q);
            if (mrc != 1)
                return mrc;
            return catalog_drop_table(q->catalog, db, name, st->if_exists);
        }
        if (strcmp(st->show_what, "VIEW") == 0) {
            /* DROP TABLE drops views too; DROP VIEW only views. */
            const char *db, *name;
            name_of(st, q, &db, &name);
            int rc = check_view(q, db, name, st->if_exists);
            if (rc == 2)
                return mview_drop(db, name, q);
            if (rc)
                return rc < 0 ? -1 : 0;
            return catalog_drop_table(q->catalog, db, name, st->if_exists);
        }
        return err_set(ERR_NOT_IMPLEMENTED, "DROP %s is not supported", st->show_what);
    case AST_STMT_CREATE_FUNCTION: return udf_ddl_create(st, q);
    case AST_STMT_DROP_FUNCTION: return udf_ddl_drop(st, q);
    case AST_STMT_DETACH:
    case AST_STMT_ATTACH: return run_detach_attach(st, q);
    case AST_STMT_TRUNCATE: return run_truncate(st, q);
    case AST_STMT_RENAME: return run_rename(st, q);
    case AST_STMT_SHOW: return run_show(st, q, sch, out);
    case AST_STMT_OPTIMIZE: return run_optimize(st, q);
    case AST_STMT_CHECK: return run_check(st, q, sch, out);
    case AST_STMT_ALTER: return alter_run(st, q);
    case AST_STMT_SYSTEM:
        if (is_distributed_cmd(st->str))
            return run_system_distributed(st->str, q);
        if (after_words(st->str, "STOP MERGES"))
            return run_system_merges(after_words(st->str, "STOP MERGES"), true, q);
        if (after_words(st->str, "START MERGES"))
            return run_system_merges(after_words(st->str, "START MERGES"), false, q);
        /* query_log and text_log rows are buffered (exec/query_log.h); part_log is written as
         * each event happens. */
        if (strcasecmp(st->str, "FLUSH LOGS") == 0)
            return log_files_flush();
        if (strcasecmp(st->str, "RELOAD CONFIG") == 0) {
            instance *inst = q->session ? q->session->inst : NULL;
            if (!inst || !inst->reload_config)
                return err_set(ERR_UNSUPPORTED_METHOD, "SYSTEM RELOAD CONFIG query is not supported in shale local");
            return inst->reload_config(inst->hooks_ctx);
        }
        if (strcasecmp(st->str, "DROP PARQUET METADATA CACHE") == 0) {
            pqmc_clear();
            return 0;
        }
        /* shale has no query cache, query condition cache, mark or uncompressed cache: there
         * is nothing to drop, and results never depended on them. */
        static const char *const caches[] = {"CLEAR QUERY CACHE", "DROP QUERY CACHE", "CLEAR QUERY CONDITION CACHE",
                                             "DROP QUERY CONDITION CACHE", "DROP MARK CACHE", "CLEAR MARK CACHE",
                                             "DROP UNCOMPRESSED CACHE", "CLEAR UNCOMPRESSED CACHE"};
        for (size_t i = 0; i < sizeof caches / sizeof caches[0]; i++)
            if (strcasecmp(st->str, caches[i]) == 0)
                return 0;
        return err_set(ERR_NOT_IMPLEMENTED, "SYSTEM %s is not supported", st->str);
    default: return err_set(ERR_NOT_IMPLEMENTED, "This kind of statement is not supported yet");
    }
}

/* ---- INSERT ---- */

/* Turns blocks of the inserted columns (names = table columns, any types) into blocks
 * of exactly t->sch: casts, DEFAULT / MATERIALIZED expressions, type defaults. */
typedef struct converter {
    table *t;
    int nin;             /* inserted columns */
    int nsteps;          /* total working columns: nin casts + computed defaults */
    expr **steps;        /* step i computes working column i from columns < i */
    schema *work;        /* working columns' names and types */
    int *out_map;        /* stored column k ← working column, or -1 (type default) */
} converter;

static void converter_free(converter *cv)
{
    for (int i = 0; i < cv->nsteps; i++)
        expr_free(cv->steps[i]);
    free(cv->steps);
    schema_free(cv->work);
    free(cv->out_map);
}

static int converter_init(converter *cv, table *t, const schema *in, query_ctx *q, arena *a)
{
    memset(cv, 0, sizeof *cv);
    cv->t = t;
    cv->nin = in->n;
    int cap = in->n + t->ncols;
    cv->steps = xcalloc((size_t)cap + 1, sizeof *cv->steps);
    cv->work = schema_new(cap);
    cv->work->n = 0;
    /* the inserted columns, cast to their column types */
    for (int i = 0; i < in->n; i++) {
        const table_column *c = NULL;
        for (int k = 0; k < t->ncols; k++)
            if (strcmp(t->cols[k].name, in->names[i]) == 0)
                c = &t->cols[k];
        expr *x;
        if (in->types[i] == c->type || strcmp(in->types[i]->name, c->type->name) == 0) {
            x = expr_col(i, c->type);
        } else if (compile_on(mk_cast(a, mk_ident(a, in->names[i]), c->type), in, q, &x)) {
            return -1;
        }
        cv->steps[cv->nsteps++] = x;
        cv->work->n++;
        schema_set(cv->work, i, c->name, c->type);
    }
    /* columns with expressions, in an order where each sees the ones it uses */
    bool *done = xcalloc((size_t)t->ncols + 1, sizeof *done);
    for (int k = 0; k < t->ncols; k++)
        done[k] = schema_find(cv->work, t->cols[k].name) >= 0 || !t->cols[k].default_expr ||
                  strcmp(t->cols[k].default_kind, "EPHEMERAL") == 0;
    for (bool progress = true; progress;) {
        progress = false;
        int pending = -1;
        for (int k = 0; k < t->ncols; k++) {
            if (done[k])
                continue;
            const table_column *c = &t->cols[k];
            expr *x;
            if (compile_on(mk_cast(a, (ast *)c->default_expr, c->type), cv->work, q, &x)) {
                if (err_code() == ERR_UNKNOWN_IDENTIFIER) {
                    pending = k;
                    continue;
                }
                free(done);
                return -1;
            }
            cv->steps[cv->nsteps++] = x;
            schema_set(cv->work, cv->work->n, c->name, c->type);
            cv->work->n++;
            done[k] = progress = true;
        }
        if (!progress && pending >= 0) {
            /* report the error of the first column still missing */
            const table_column *c = &t->cols[pending];
            expr *x;
            compile_on(mk_cast(a, (ast *)c->default_expr, c->type), cv->work, q, &x);
            free(done);
            return -1;
        }
    }
    free(done);
    cv->out_map = xcalloc((size_t)t->sch->n + 1, sizeof *cv->out_map);
    for (int k = 0; k < t->sch->n; k++)
        cv->out_map[k] = schema_find(cv->work, t->sch->names[k]);
    return 0;
}

static int converter_run(converter *cv, block *in, block **out)
{
    block *w = block_new(cv->nsteps, in->rows);
    int rc = 0;
    for (int i = 0; i < cv->nsteps && !rc; i++) {
        const block *src = i < cv->nin ? in : w;
        w->ncols = i < cv->nin ? cv->nsteps : i;
        rc = expr_eval(cv->steps[i], src, &w->cols[i]);
        w->ncols = cv->nsteps;
    }
    if (rc) {
        block_free(w);
        return -1;
    }
    const schema *sch = cv->t->sch;
    block *o = block_new(sch->n, in->rows);
    for (int k = 0; k < sch->n; k++) {
        int m = cv->out_map[k];
        column *c = m >= 0 ? col_ref(w->cols[m]) : col_new_defaults(sch->types[k], in->rows);
        o->cols[k] = c->is_const ? col_materialize(c) : c;
    }
    block_free(w);
    *out = o;
    return 0;
}

typedef struct insert_sink {
    block_sink base;
    converter *cv;
    table_sink *dst;
    uint64_t rows;
} insert_sink;

static int insert_write(block_sink *bs, block *b)
{
    insert_sink *s = (insert_sink *)bs;
    block *o;
    int rc = converter_run(s->cv, b, &o);
    block_free(b);
    if (rc)
        return -1;
    s->rows += o->rows;
    return s->dst->base.write(&s->dst->base, o);
}

/* resumable_insert = 1: INSERT … SELECT from file()/s3() one source object at a time,
 * skipping objects an earlier run of the statement finished (storage/mergetree/resume.c). */
static int run_resumable(table *t, const ast *st, query_plan *first_plan, converter *cv, query_ctx *q,
                         uint64_t *rows)
{
    source *src0 = first_plan->nparts == 1 ? first_plan->parts[0]->src : NULL;
    if (!src0 || !src0->objects || !src0->keep_objects)
        return err_set(ERR_NOT_IMPLEMENTED,
                       "resumable_insert needs INSERT … SELECT … FROM one file() or s3() table function");
    int nobj;
    char *const *names0, *const *vers0;
    if (src0->objects(src0, &nobj, &names0, &vers0))
        return -1;
    char **names = xcalloc((size_t)nobj + 1, sizeof *names), **vers = xcalloc((size_t)nobj + 1, sizeof *vers);
    for (int i = 0; i < nobj; i++) {
        names[i] = xstrdup(names0[i]);
        vers[i] = xstrdup(vers0[i]);
    }
    int rc = 0;
    for (int i = 0; i < nobj && !rc; i++) {
        char *done_ver;
        if ((rc = mergetree_resume_lookup(t, names[i], &done_ver)))
            break;
        if (done_ver) {
            if (strcmp(done_ver, vers[i]))
                rc = err_set(ERR_INCORRECT_DATA,
                             "Source object %s changed since an earlier run of this INSERT loaded it (version %s, "
                             "now %s): loading it again would duplicate rows",
                             names[i], done_ver, vers[i]);
            free(done_ver);
            continue;
        }
        /* A fresh plan reading only this object. */
        query_plan *plan;
        if ((rc = analyze_query(st->sub, q, &plan)))
            break;
        source *src = plan->nparts == 1 ? plan->parts[0]->src : NULL;
        int n;
        char *const *nm, *const *vr;
        if (!src || !src->objects || src->objects(src, &n, &nm, &vr)) {
            query_plan_free(plan);
            rc = err_set(ERR_LOGICAL_ERROR, "The source of the resumable INSERT changed shape");
            break;
        }
        uint8_t *keep = xcalloc((size_t)n + 1, 1);
        for (int k = 0; k < n; k++)
            keep[k] = !strcmp(nm[k], names[i]);
        src->keep_objects(src, keep);
        free(keep);
        int64_t first;
        table_sink *dst = NULL;
        if (!(rc = mergetree_resume_begin(t, names[i], vers[i], &first))) {
            rc = mview_table_sink(t, st, q, &dst);
            insert_sink sink = {.base = {.write = insert_write}, .cv = cv, .dst = dst};
            if (!rc) {
                rc = query_plan_run(plan, q, &sink.base);
                if (rc)
                    dst->abort(dst);
                else
                    rc = dst->finish(dst);
            }
            *rows += sink.rows;
            int rc2 = mergetree_resume_end(t, names[i], vers[i], first, rc == 0);
            rc = rc ? rc : rc2;
        }
        query_plan_free(plan);
    }
    for (int i = 0; i < nobj; i++) {
        free(names[i]);
        free(vers[i]);
    }
    free(names);
    free(vers);
    return rc;
}

/* VALUES (…), (…): literals are parsed as text of the column's type (fast, and as
 * ClickHouse's Values format does); other expressions are evaluated and cast. */
/* Reads all of the data that follows the statement (INSERT … VALUES / FORMAT Values
 * whose rows are not in the query text). */
static int read_input_all(query_ctx *q, buf *out)
{
    instream *is;
    if (query_open_input(q, &is))
        return -1;
    char chunk[1 << 16];
    int rc = 0;
    for (;;) {
        size_t got;
        if ((rc = is->read(is, chunk, sizeof chunk, &got)) || got == 0)
            break;
        buf_append(out, chunk, got);
    }
    is->close(is);
    return rc;
}

/* Is e an array/tuple constructor ([..], (..)) whose leaves are all literals? */
static bool only_literals(const ast *e, int depth)
{
    if (depth > 64)
        return false;
    if (e->kind == AST_LITERAL)
        return !e->alias;
    if (e->kind != AST_FUNC || e->alias || e->has_params || !e->bracket_syntax ||
        (strcmp(e->name, "array") && strcmp(e->name, "tuple")))
        return false;
    for (int i = 0; i < e->args.n; i++)
        if (!only_literals(e->args.items[i], depth + 1))
            return false;
    return true;
}

/* ClickHouse's Values format takes rows without commas between them, `(1, 'a') (2, 'b')`:
 * a comma goes where a row's `)` is followed (after blanks) by the next row's `(`, outside
 * quotes, so the rows parse as one SELECT list. */
static void add_row_commas(buf *text, size_t from)
{
    buf out = {0};
    const char *s = (const char *)text->p;
    size_t n = text->len, depth = 0;
    buf_append(&out, s, from);
    for (size_t i = from; i < n; i++) {
        char ch = s[i];
        buf_putc(&out, ch);
        if (ch == '\'' || ch == '"' || ch == '`') {
            for (i++; i < n; i++) {
                buf_putc(&out, s[i]);
                if (s[i] == '\\' && i + 1 < n)
                    buf_putc(&out, s[++i]);
                else if (s[i] == ch)
                    break;
            }
        } else if (ch == '(' || ch == '[' || ch == '{') {
            depth++;
        } else if (ch == ')' || ch == ']' || ch == '}') {
            depth -= depth > 0;
            if (depth == 0 && ch == ')') {
                size_t j = i + 1;
                while (j < n && strchr(" \t\r\n", s[j]))
                    j++;
                if (j < n && s[j] == '(')
                    buf_putc(&out, ',');
            }
        }
    }
    buf_free(text);
    *text = out;
}

static int values_block(const ast *st, const schema *in, query_ctx *q, arena *a, block **out)
{
    buf text = {0};
    buf_puts(&text, "SELECT ");
    size_t blank = 0;
    while (blank < st->insert_data_len && strchr(" \t\r\n", st->insert_data[blank]))
        blank++;
    if (blank == st->insert_data_len) { /* no data in the query: it comes on stdin */
        if (read_input_all(q, &text)) {
            buf_free(&text);
            return -1;
        }
    } else {
        buf_append(&text, st->insert_data, st->insert_data_len);
    }
    add_row_commas(&text, 7);
    while (text.len > 7 && strchr(" \t\r\n;", text.p[text.len - 1])) /* a trailing ';' ends the data */
        text.len--;
    const char *sql = arena_strdup(a, buf_cstr(&text));
    buf_free(&text);
    size_t pos = 0;
    ast *sel;
    if (sql_parse_statement(a, sql, strlen(sql), &pos, 1000, &sel) || !sel || sel->kind != AST_STMT_SELECT ||
        sel->sub->kind != AST_SELECT) {
        size_t n = strlen(sql + 7);
        return err_set(ERR_SYNTAX_ERROR, "Cannot parse the data after VALUES: %.*s%s", (int)(n > 200 ? 200 : n),
                       sql + 7, n > 200 ? "…" : "");
    }
    const ast_list *rows = &sel->sub->select;
    block *b = block_new_empty(in);
    text_opts to;
    text_opts_default(&to);
    schema empty = {0};
    block *one = block_new(0, 1);
    int rc = 0;
    for (int r = 0; r < rows->n && !rc; r++) {
        const ast *row = rows->items[r];
        const ast_list single = {1, (ast **)&rows->items[r]};
        const ast_list *vals = row->kind == AST_FUNC && strcmp(row->name, "tuple") == 0 && !row->has_params &&
                                       (row->bracket_syntax || row->args.n != 1)
                                   ? &row->args
                                   : &single;
        if (vals->n != in->n) {
            rc = err_set(ERR_INCORRECT_DATA, "Cannot parse expression of type %s here: row %d has %d values, "
                         "expected %d", "Tuple", r + 1, vals->n, in->n);
            break;
        }
        for (int i = 0; i < in->n && !rc; i++) {
            const ast *v = vals->items[i];
            column *dst = b->cols[i];
            if (v->kind == AST_LITERAL && (v->lit == LIT_STRING || v->lit == LIT_UINT || v->lit == LIT_INT ||
                                           (v->lit == LIT_FLOAT && v->text))) {
                size_t before = dst->len;
                (void)before;
                const char *s = v->lit == LIT_STRING ? v->str : v->text;
                size_t n = v->lit == LIT_STRING ? v->str_len : strlen(v->text);
                char num[32];
                if (v->lit == LIT_INT && !v->text) {
                    snprintf(num, sizeof num, "%lld", (long long)v->i);
                    s = num;
                    n = strlen(num);
                }
                if (text_parse(dst, s, n, &to) == 0)
                    continue;
                err_clear();
                /* fall back to the expression path (gives CAST's error) */
                dst = b->cols[i];
            }
            /* [..] and (..) of literals: parsed from their text like the top-level values, so
             * that numbers beyond 64 bits keep every digit (as literals they are Float64). */
            if (v->kind == AST_FUNC && v->bracket_syntax && only_literals(v, 0) && v->end > v->pos) {
                /* into a scratch column first: a failed parse may leave part of a value */
                column *one_value = col_new(dst->type);
                bool parsed = text_parse(one_value, sql + v->pos, (size_t)(v->end - v->pos), &to) == 0;
                if (parsed)
                    col_push_from(dst, one_value, 0);
                col_free(one_value);
                if (parsed)
                    continue;
                err_clear();
            }
            if (v->kind == AST_LITERAL && v->lit == LIT_NULL) {
                if (type_is_nullable(in->types[i]))
                    col_push_null(dst);
                else
                    col_push_default(dst); /* input_format_null_as_default */
                continue;
            }
            expr *x;
            column *res;
            if (compile_on(mk_cast(a, (ast *)v, in->types[i]), &empty, q, &x)) {
                rc = -1;
                break;
            }
            rc = expr_eval(x, one, &res);
            expr_free(x);
            if (!rc) {
                col_push_from(dst, res, 0);
                col_free(res);
            }
        }
        b->rows++;
    }
    block_free(one);
    if (rc) {
        block_free(b);
        return -1;
    }
    *out = b;
    return 0;
}

int ddl_insert(const ast *st, query_ctx *q, uint64_t *rows_out)
{
    table *t;
    if (find_table(st, q, &t))
        return -1;
    if (t->engine == &engine_materialized_view) {
        /* INSERT INTO a materialized view writes its target (and the target's views) */
        table *target;
        int trc = mview_target(t, q, &target);
        table_unref(t);
        if (trc)
            return -1;
        t = target;
    }
    int prc = dist_insert_parallel(t, st, q);
    if (prc != 1) {
        table_unref(t);
        return prc;
    }
    arena a;
    arena_init(&a);
    int rc = 0;
    /* the inserted columns */
    int nin = 0;
    const char **names = arena_zalloc(&a, sizeof(char *) * (size_t)(t->ncols + st->insert_columns.n + 1), 8);
    if (st->insert_columns.n) {
        for (int i = 0; i < st->insert_columns.n && !rc; i++) {
            const ast *c = st->insert_columns.items[i];
            const char *cn = c->kind == AST_IDENT ? c->parts[c->nparts - 1] : NULL;
            const table_column *tc = NULL;
            for (int k = 0; cn && k < t->ncols; k++)
                if (strcmp(t->cols[k].name, cn) == 0)
                    tc = &t->cols[k];
            if (!tc || (tc->default_kind && strcmp(tc->default_kind, "ALIAS") == 0)) {
                rc = err_set(ERR_NO_SUCH_COLUMN_IN_TABLE, "No such column %s in table %s", cn ? cn : "?",
                             table_full_name(t));
                break;
            }
            if (tc->default_kind && strcmp(tc->default_kind, "MATERIALIZED") == 0) {
                rc = err_set(ERR_ILLEGAL_COLUMN, "Cannot insert column %s, because it is MATERIALIZED column", cn);
                break;
            }
            for (int k = 0; k < nin; k++)
                if (strcmp(names[k], cn) == 0)
                    rc = err_set(ERR_DUPLICATE_COLUMN, "Column %s in table %s specified more than once", cn,
                                 table_full_name(t));
            names[nin++] = cn;
        }
    } else {
        for (int k = 0; k < t->ncols; k++)
            if (!t->cols[k].default_kind || strcmp(t->cols[k].default_kind, "DEFAULT") == 0)
                names[nin++] = t->cols[k].name;
    }
    schema *in = NULL;
    if (!rc) {
        in = schema_new(nin);
        for (int i = 0; i < nin; i++)
            for (int k = 0; k < t->ncols; k++)
                if (strcmp(t->cols[k].name, names[i]) == 0)
                    schema_set(in, i, names[i], t->cols[k].type);
    }
    query_plan *plan = NULL;
    if (!rc && st->sub) {
        const void *saved_target = q->insert_join_target;
        if (t->engine == &engine_join)
            q->insert_join_target = t;
        rc = analyze_query(st->sub, q, &plan);
        q->insert_join_target = saved_target;
        if (!rc && plan->out_schema->n != nin)
            rc = err_set(ERR_NUMBER_OF_COLUMNS_DOESNT_MATCH, "Number of columns doesn't match (source: %d and result: %d)",
                         plan->out_schema->n, nin);
        if (!rc)
            for (int i = 0; i < nin; i++)
                in->types[i] = plan->out_schema->types[i];
    }
    converter cv = {0};
    bool cv_ok = false;
    if (!rc)
        cv_ok = !(rc = converter_init(&cv, t, in, q, &a));
    table_sink *dst = NULL;
    bool resumable = plan && settings_bool(q->st, "resumable_insert");
    if (!rc && resumable) {
        uint64_t rows = 0;
        rc = run_resumable(t, st, plan, &cv, q, &rows);
        if (rows_out)
            *rows_out = rows;
    } else if (!rc)
        rc = mview_table_sink(t, st, q, &dst);
    insert_sink sink = {.base = {.write = insert_write}, .cv = &cv, .dst = dst};
    if (!rc && !resumable) {
        if (plan) {
            rc = query_plan_run(plan, q, &sink.base);
        } else if (st->format && strcmp(st->format, "Values") == 0) {
            block *b = NULL;
            if (!(rc = values_block(st, in, q, &a, &b)))
                rc = sink.base.write(&sink.base, b);
        } else if (st->format) {
            const char *fmt = fmt_input_canonical(st->format);
            size_t skip = 0;
            while (skip < st->insert_data_len && strchr(" \t\r\n", st->insert_data[skip]))
                skip++;
            instream *is = NULL;
            if (skip < st->insert_data_len) {
                is = instream_from_memory(st->insert_data, st->insert_data_len, "query");
            } else {
                q->input_schema = in;
                rc = query_open_input(q, &is);
            }
            fmt_reader *r = NULL;
            if (!rc && !fmt)
                rc = err_set(ERR_UNKNOWN_FORMAT, "Unknown input format %s", st->format);
            if (!rc)
                rc = fmt_reader_new(fmt, rbuf_new(is, 1 << 20), in, &q->fmt, &r);
            else if (is)
                is->close(is);
            while (!rc) {
                block *b;
                if ((rc = query_check(q)) || (rc = fmt_reader_next(r, &b)) || !b)
                    break;
                rc = sink.base.write(&sink.base, b);
            }
            if (r)
                fmt_reader_free(r);
        } else {
            rc = err_set(ERR_SYNTAX_ERROR, "INSERT without data");
        }
        if (rc)
            dst->abort(dst);
        else
            rc = dst->finish(dst);
    }
    if (rows_out && !resumable)
        *rows_out = sink.rows;
    if (cv_ok || cv.steps)
        converter_free(&cv);
    if (plan)
        query_plan_free(plan);
    schema_free(in);
    arena_free(&a);
    table_unref(t);
    return rc;
}
