/* ALTER TABLE and DELETE FROM (interp/alter.h). */
#include "interp/alter.h"

#include "base/err.h"
#include "base/mem.h"
#include "exec/settings.h"
#include "interp/ddl.h"
#include "storage/catalog.h"
#include "storage/mergetree/mt.h"

#include "sql/join_engine.h"
#include "storage/joinset.h"

#include <stdlib.h>
#include <string.h>

static bool is_cmd(const ast *c, const char *name) { return !strcmp(c->name, name); }

static bool is_mutation_cmd(const ast *c)
{
    return is_cmd(c, "DELETE") || is_cmd(c, "UPDATE") || is_cmd(c, "LIGHTWEIGHT DELETE");
}

static int find_col(const ast_list *cols, const char *name)
{
    for (int i = 0; i < cols->n; i++)
        if (!strcmp(cols->items[i]->name, name))
            return i;
    return -1;
}

static void list_insert(arena *a, ast_list *l, int at, ast *item)
{
    ast_list_push(a, l, item);
    for (int i = l->n - 1; i > at; i--)
        l->items[i] = l->items[i - 1];
    l->items[at] = item;
}

static void list_remove(ast_list *l, int at)
{
    for (int i = at; i + 1 < l->n; i++)
        l->items[i] = l->items[i + 1];
    l->n--;
}

/* Is the column used by the sorting, primary or partition key? */
static bool in_key(const table *t, const char *name)
{
    const ast *st = t->create;
    const ast_list *keys[2] = {&st->order_by_key, &st->primary_key};
    mt_table *m = mt_is_mergetree(t) ? t->impl : NULL;
    if (m) {
        for (int i = 0; i < m->sort.n; i++) {
            int c = m->sort.src_col[i] >= 0 ? m->sort.src_col[i] : m->sort.mono_col[i];
            if (c >= 0 && !strcmp(t->sch->names[c], name))
                return true;
            /* an expression key: look for the name in its text */
            if (c < 0 && strstr(m->sort.names[i], name))
                return true;
        }
        for (int i = 0; i < m->nminmax; i++)
            if (!strcmp(t->sch->names[m->minmax_cols[i]], name))
                return true;
    }
    (void)keys;
    return false;
}

static const type *coldef_type(const ast *cd)
{
    if (!cd->str)
        return NULL;
    const type *ty = type_parse(cd->str, cd->str_len);
    if (ty && cd->nullable == 1)
        ty = type_nullable(ty);
    return ty;
}

/* MergeTree refuses to turn a Nullable column into a non-Nullable one unless a DEFAULT
 * says what its NULLs become: the one of the MODIFY, or the column's own if it is not
 * NULL (ClickHouse's checks, made before any part is touched). */
static int null_to_not_null(const table *t, const ast *old, const ast *mod, const type *ot, const type *nt)
{
    if (!mt_is_mergetree(t) || !type_is_nullable(ot) || type_is_nullable(nt) || mod->default_kind)
        return 0;
    if (!old->default_kind)
        return err_set(ERR_BAD_ARGUMENTS,
                       "Cannot convert column '%s' from nullable type %s to non-nullable type %s. Please specify "
                       "`DEFAULT` expression in ALTER MODIFY COLUMN statement.",
                       old->name, ot->name, nt->name);
    if (old->sub && old->sub->kind == AST_LITERAL && old->sub->lit == LIT_NULL)
        return err_set(ERR_CANNOT_CONVERT_TYPE,
                       "Cannot convert NULL to a non-nullable type: default expression and column type are "
                       "incompatible.");
    return 0;
}

/* Applies the column commands to a copy of the table's CREATE statement; *rewrite says
 * whether the parts must be rewritten (a dropped, renamed or retyped column), with the
 * text of the mutation in rw. */
static int apply_meta(table *t, const ast_list *cmds, arena *a, ast *st, bool *rewrite, buf *rw)
{
    ast_list cols = {0};
    for (int i = 0; i < t->create->columns.n; i++)
        ast_list_push(a, &cols, t->create->columns.items[i]);
    for (int i = 0; i < cmds->n; i++) {
        const ast *c = cmds->items[i];
        bool mutates = false;
        if (is_cmd(c, "ADD COLUMN")) {
            if (find_col(&cols, c->sub->name) >= 0) {
                if (c->if_not_exists)
                    continue;
                return err_set(ERR_DUPLICATE_COLUMN, "Cannot add column `%s`: column with this name already exists",
                               c->sub->name);
            }
            int at = cols.n;
            if (c->alter_first)
                at = 0;
            else if (c->alter_to) {
                int k = find_col(&cols, c->alter_to);
                if (k < 0)
                    return err_set(ERR_NO_SUCH_COLUMN_IN_TABLE,
                                   "Wrong column name. Cannot find column %s to insert after", c->alter_to);
                at = k + 1;
            }
            list_insert(a, &cols, at, c->sub);
        } else if (is_cmd(c, "DROP COLUMN")) {
            int k = find_col(&cols, c->alter_col);
            if (k < 0) {
                if (c->if_exists)
                    continue;
                return err_set(ERR_NOT_FOUND_COLUMN_IN_BLOCK, "Wrong column name. Cannot find column `%s` to drop",
                               c->alter_col);
            }
            if (in_key(t, c->alter_col))
                return err_set(ERR_ALTER_OF_COLUMN_IS_FORBIDDEN,
                               "Trying to ALTER DROP key %s column which is a part of key expression", c->alter_col);
            if (cols.n == 1)
                return err_set(ERR_EMPTY_LIST_OF_COLUMNS_PASSED, "Cannot drop the last column of a table");
            list_remove(&cols, k);
            mutates = true;
        } else if (is_cmd(c, "RENAME COLUMN")) {
            int k = find_col(&cols, c->alter_col);
            if (k < 0) {
                if (c->if_exists)
                    continue;
                return err_set(ERR_NOT_FOUND_COLUMN_IN_BLOCK, "Wrong column name. Cannot find column `%s` to rename",
                               c->alter_col);
            }
            if (find_col(&cols, c->alter_to) >= 0)
                return err_set(ERR_DUPLICATE_COLUMN, "Cannot rename to `%s`: column with this name already exists",
                               c->alter_to);
            if (in_key(t, c->alter_col))
                return err_set(ERR_ALTER_OF_COLUMN_IS_FORBIDDEN,
                               "Trying to ALTER RENAME key %s column which is a part of key expression", c->alter_col);
            ast *nc = ast_new(a, AST_COLUMN_DEF, cols.items[k]->pos);
            *nc = *cols.items[k];
            nc->name = c->alter_to;
            cols.items[k] = nc;
            mutates = true;
        } else if (is_cmd(c, "MODIFY COLUMN") || is_cmd(c, "COMMENT COLUMN")) {
            const char *name = c->alter_col;
            int k = find_col(&cols, name);
            if (k < 0) {
                if (c->if_exists)
                    continue;
                return err_set(ERR_NOT_FOUND_COLUMN_IN_BLOCK, "Wrong column%s. Cannot find column `%s` to %s",
                               is_cmd(c, "MODIFY COLUMN") ? "" : " name", name,
                               is_cmd(c, "MODIFY COLUMN") ? "modify" : "comment");
            }
            const ast *old = cols.items[k];
            ast *nc = ast_new(a, AST_COLUMN_DEF, old->pos);
            *nc = *old;
            if (is_cmd(c, "COMMENT COLUMN")) {
                nc->comment = c->comment;
            } else {
                const ast *d = c->sub;
                if (d->str) {
                    const type *ot = coldef_type(old), *nt = coldef_type(d);
                    if (!nt)
                        return err_code() ? -1 : err_set(ERR_UNKNOWN_TYPE, "Unknown data type: %s", d->str);
                    if (ot != nt && strcmp(ot->name, nt->name)) {
                        if (null_to_not_null(t, old, d, ot, nt))
                            return -1;
                        if (in_key(t, name))
                            return err_set(ERR_ALTER_OF_COLUMN_IS_FORBIDDEN,
                                           "ALTER of key column %s from type %s to type %s is not safe because it "
                                           "can change the representation of primary key",
                                           name, ot->name, nt->name);
                        mutates = true;
                    }
                    nc->str = d->str;
                    nc->str_len = d->str_len;
                    nc->nullable = d->nullable;
                }
                if (d->default_kind) {
                    nc->default_kind = d->default_kind;
                    nc->sub = d->sub;
                }
                if (d->codec.n)
                    nc->codec = d->codec;
                if (d->comment)
                    nc->comment = d->comment;
                if (c->alter_first || c->alter_to) {
                    list_remove(&cols, k);
                    int at = 0;
                    if (c->alter_to) {
                        int j = find_col(&cols, c->alter_to);
                        if (j < 0)
                            return err_set(ERR_NO_SUCH_COLUMN_IN_TABLE,
                                           "Wrong column name. Cannot find column %s to insert after", c->alter_to);
                        at = j + 1;
                    }
                    list_insert(a, &cols, at, nc);
                    k = -1;
                }
            }
            if (k >= 0)
                cols.items[k] = nc;
        } else if (is_cmd(c, "MODIFY COMMENT")) {
            st->comment = c->comment;
        } else {
            return err_set(ERR_NOT_IMPLEMENTED, "ALTER TABLE … %s is not supported", c->name);
        }
        if (mutates) {
            if (rw->len)
                buf_puts(rw, ", ");
            buf_putc(rw, '(');
            ast_format_alter_cmd(rw, c);
            buf_putc(rw, ')');
            *rewrite = true;
        }
    }
    st->columns = cols;
    return 0;
}

static int mutations_sync(query_ctx *q) { return (int)settings_int(q->st, "mutations_sync"); }

static int run_mutations(table *t, const ast_list *cmds, bool lightweight, query_ctx *q)
{
    if (t->engine == &engine_join)
        return join_engine_mutate(t, cmds, q);
    if (!mt_is_mergetree(t))
        return err_set(ERR_NOT_IMPLEMENTED, "Table engine %s doesn't support mutations", t->engine->name);
    buf text = {0};
    for (int i = 0; i < cmds->n; i++) {
        buf_puts(&text, i ? ", (" : "(");
        ast_format_alter_cmd(&text, cmds->items[i]);
        buf_putc(&text, ')');
    }
    int64_t v;
    int rc = mergetree_mutation_add(t, buf_cstr(&text), false, q, &v);
    buf_free(&text);
    if (!rc && (lightweight || mutations_sync(q) > 0))
        rc = mergetree_mutation_wait(t, v, q);
    return rc;
}

int alter_run(const ast *st, query_ctx *q)
{
    table *t;
    if (catalog_get_for_query(q, st->database, st->table_name, &t))
        return -1;
    int rc = 0;
    if (st->str) {
        rc = t->engine->alter ? t->engine->alter(t, st, q)
                              : err_set(ERR_NOT_IMPLEMENTED, "Table engine %s doesn't support mutations",
                                        t->engine->name);
        table_unref(t);
        return rc;
    }
    int nmut = 0;
    for (int i = 0; i < st->args.n; i++)
        nmut += is_mutation_cmd(st->args.items[i]);
    bool lightweight = st->args.n == 1 && is_cmd(st->args.items[0], "LIGHTWEIGHT DELETE");
    if (nmut && nmut != st->args.n) {
        rc = err_set(ERR_NOT_IMPLEMENTED, "Mixing mutation commands (DELETE, UPDATE) with column commands in one "
                                          "ALTER is not supported");
    } else if (nmut && t->engine == &engine_materialized_view) {
        /* as ClickHouse: mutations go to the view's inner table; a view with TO and a
         * lightweight DELETE refuse */
        table *target = NULL;
        if (lightweight)
            rc = err_set(ERR_BAD_ARGUMENTS, "Lightweight delete is not supported for materialized view %s",
                         table_full_name(t));
        else if (!mview_has_inner(t))
            rc = err_set(ERR_INCORRECT_QUERY, "MATERIALIZED VIEW %s targets an existing table. Execute the statement "
                         "directly on it.", table_full_name(t));
        else if (!(rc = mview_target(t, q, &target)))
            rc = run_mutations(target, &st->args, false, q);
        table_unref(target);
    } else if (nmut) {
        rc = run_mutations(t, &st->args, lightweight, q);
    } else if (!mt_is_mergetree(t)) {
        rc = err_set(ERR_NOT_IMPLEMENTED, "ALTER TABLE … %s is not supported by storage %s (only MergeTree tables)",
                     st->args.items[0]->name, t->engine->name);
    } else {
        arena a;
        arena_init(&a);
        ast *nst = ast_new(&a, AST_STMT_CREATE_TABLE, 0);
        *nst = *t->create;
        bool rewrite = false;
        buf rw = {0}, text = {0};
        rc = apply_meta(t, &st->args, &a, nst, &rewrite, &rw);
        if (!rc)
            rc = ddl_canonical_create(nst, t->database, t->name, q, &text);
        int64_t v = 0;
        /* The mutation is recorded first: after a crash before the new definition is
         * persisted it only rewrites parts into the old layout (mutate.c). */
        if (!rc && rewrite)
            rc = mergetree_mutation_add(t, buf_cstr(&rw), true, q, &v);
        if (!rc && strcmp(buf_cstr(&text), t->create_sql))
            rc = catalog_alter_table(q->catalog, t, buf_cstr(&text), q);
        if (!rc && rewrite && mutations_sync(q) > 0)
            rc = mergetree_mutation_wait(t, v, q);
        buf_free(&rw);
        buf_free(&text);
        arena_free(&a);
    }
    table_unref(t);
    return rc;
}
