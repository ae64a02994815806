/* Join and Set tables in queries (sql/join_engine.h).
 *
 * A JOIN with a Join table on its right reads the table's rows (one per key where the
 * table's strictness keeps one) and joins them with the ordinary hash join (sql/join.c):
 * with the strictness and kind equal to the table's, that gives what ClickHouse's join
 * over the stored hash table gives. The checks are ClickHouse's: same strictness and
 * kind, same join_use_nulls for LEFT and FULL, ON/USING naming exactly the table's keys.
 *
 * joinGet reads the rows the same way and hands them to __joinGetLookup
 * (func/scalar/join_get.c) as constant arrays. */
#include "sql/join_engine.h"

#include "base/err.h"
#include "base/mem.h"
#include "exec/settings.h"
#include "func/func.h"
#include "storage/catalog.h"
#include "storage/joinset.h"
#include "sql/analyze.h"
#include "sql/join.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* The table a plain name refers to (not a CTE, a table function or a system table), or
 * NULL with no error. */
static table *named_table(const char *db, const char *name, query_ctx *q)
{
    if (!name || (db && !strcmp(db, "system")))
        return NULL;
    if (!db)
        for (int i = 0; i < q->nctes; i++)
            if (!strcmp(((const ast *)q->ctes[i])->alias, name))
                return NULL;
    table *t;
    if (catalog_get_for_query(q, db, name, &t)) {
        err_clear();
        return NULL;
    }
    return t;
}

static bool is_key(const join_engine_spec *s, const table *t, const char *name)
{
    for (int k = 0; k < s->nkeys; k++)
        if (!strcmp(t->sch->names[s->key_cols[k]], name))
            return true;
    return false;
}

int join_engine_check_keys(const join_spec *js, const source *right, const table *t)
{
    const join_engine_spec *s = join_engine_spec_of(t);
    if (js->nresidual)
        return err_set(ERR_INCOMPATIBLE_TYPE_OF_JOIN, "ON section of JOIN with filter conditions is not implemented");
    if (js->nkeys != s->nkeys)
        return err_set(ERR_INCOMPATIBLE_TYPE_OF_JOIN,
                       "Number of keys in JOIN ON section (%d) doesn't match number of keys in Join engine (%d)",
                       js->nkeys, s->nkeys);
    for (int i = 0; i < js->nkeys; i++) /* the stored keys are hashed as they are */
        if (type_strip_nullable(js->common[i]) != type_strip_nullable(js->rk[i]->type))
            return err_set(ERR_INCOMPATIBLE_TYPE_OF_JOIN,
                           "JOIN with 'Join' table engine should be performed by storage keys, but key %d would be "
                           "converted from %s to %s", i, js->rk[i]->type->name, js->common[i]->name);
    for (int k = 0; k < s->nkeys; k++) {
        const char *key = t->sch->names[s->key_cols[k]];
        bool found = false;
        for (int i = 0; i < js->nkeys; i++)
            found |= js->rk[i]->kind == EX_COL && !strcmp(right->sch->names[js->rk[i]->col], key);
        if (!found) {
            buf all = {0};
            for (int i = 0; i < s->nkeys; i++)
                buf_printf(&all, "%s%s", i ? ", " : "", t->sch->names[s->key_cols[i]]);
            buf_putc(&all, 0);
            err_set(ERR_INCOMPATIBLE_TYPE_OF_JOIN,
                    "Key '%s' not found in JOIN ON section. Join engine key%s '%s' have to be used", key,
                    s->nkeys > 1 ? "s" : "", (const char *)all.p);
            buf_free(&all);
            return -1;
        }
    }
    return 0;
}

int join_engine_check(const ast *j, query_ctx *q, table **out)
{
    *out = NULL;
    const ast *r = j->sub;
    /* CROSS (and comma) joins read a Join table like any other, as ClickHouse */
    if (!r || r->kind != AST_TABLE || r->table_func || r->sub || !r->table_name ||
        (j->join_kind && !strcasecmp(j->join_kind, "CROSS")))
        return 0;
    table *t = named_table(r->database, r->table_name, q);
    if (!t)
        return 0;
    if (t->engine != &engine_join) {
        table_unref(t);
        return 0;
    }
    const join_engine_spec *s = join_engine_spec_of(t);
    const char *kind = j->join_kind ? j->join_kind : "INNER";
    const char *strict = j->join_strictness ? j->join_strictness : "ALL";
    bool left_or_full = !strcasecmp(kind, "LEFT") || !strcasecmp(kind, "FULL");
    bool force_nullable = left_or_full && settings_bool(q->st, "join_use_nulls");
    int rc = 0;
    if (strcasecmp(kind, s->kind) || strcasecmp(strict, s->strictness))
        rc = err_set(ERR_INCOMPATIBLE_TYPE_OF_JOIN, "Table '%s' has incompatible type of JOIN", table_full_name(t));
    else if (force_nullable != (left_or_full && s->use_nulls))
        rc = err_set(ERR_INCOMPATIBLE_TYPE_OF_JOIN,
                     "Table %s needs the same join_use_nulls setting as present in LEFT or FULL JOIN", table_full_name(t));
    if (rc) {
        table_unref(t);
        return -1;
    }
    *out = t;
    return 0;
}

/* ---- joinGet ---- */

/* A constant one-row Array whose elements are c (taken). */
static column *array_of(column *c)
{
    column *a = col_new(type_array(c->type));
    col_free(a->inner);
    a->inner = c;
    col_array_commit(a);
    return a;
}

/* A one-row Array of c's rows converted to t (NULL with an error). */
static column *array_as(column *c, const type *t, query_ctx *q)
{
    column *m = col_materialize(col_ref(c)), *cast = m;
    if (m->type != t && func_cast_column(m, t, &q->env, &cast))
        cast = NULL;
    if (cast != m)
        col_free(m);
    return cast ? array_of(cast) : NULL;
}

static const type *plain_key_type(const type *t)
{
    t = type_phys(t);
    if (t->id == T_LOWCARDINALITY)
        t = type_phys(t->inner);
    return type_strip_nullable(t);
}

int join_get_compile(const char *fname, const char *table_name, const char *colname, expr **keys, int nkeys,
                     query_ctx *q, expr **out)
{
    bool or_null = !strcmp(fname, "joinGetOrNull");
    table *t = NULL;
    block *rows = NULL;
    column **cargs = NULL;
    const type **types = NULL;
    fn_call *call = NULL;
    int rc = -1;
    char db[256] = "", name[256];
    const char *dot = strchr(table_name, '.');
    if (dot)
        snprintf(db, sizeof db, "%.*s", (int)(dot - table_name), table_name);
    snprintf(name, sizeof name, "%s", dot ? dot + 1 : table_name);
    if (catalog_get_for_query(q, db[0] ? db : NULL, name, &t))
        goto out;
    if (t->engine != &engine_join) {
        err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "Table %s should have engine StorageJoin", table_full_name(t));
        goto out;
    }
    const join_engine_spec *s = join_engine_spec_of(t);
    if (nkeys != s->nkeys) {
        err_set(ERR_NUMBER_OF_ARGUMENTS_DOESNT_MATCH,
                "Number of join_keys and number of right table key columns for function %s don't match: passed %d, "
                "should be equal to %d",
                fname, nkeys, s->nkeys);
        goto out;
    }
    for (int k = 0; k < nkeys; k++) {
        const type *l = plain_key_type(keys[k]->type), *r = plain_key_type(t->sch->types[s->key_cols[k]]);
        if (l != r && strcmp(l->name, r->name)) {
            err_set(ERR_TYPE_MISMATCH, "Type mismatch in joinGet key %d: found type %s, while the needed type is %s", k,
                    l->name, r->name);
            goto out;
        }
    }
    int vcol = schema_find(t->sch, colname);
    if (vcol < 0 || is_key(s, t, colname)) {
        err_set(ERR_NO_SUCH_COLUMN_IN_TABLE, "StorageJoin doesn't contain column %s", colname);
        goto out;
    }
    if (strcmp(s->strictness, "ANY") || strcmp(s->kind, "LEFT")) {
        err_set(ERR_INCOMPATIBLE_TYPE_OF_JOIN, "joinGet only supports StorageJoin of type Left Any");
        goto out;
    }
    if (join_engine_rows(t, true, &rows))
        goto out;
    /* The stored column's type, Nullable when the table keeps NULLs for LEFT joins
     * (join_use_nulls) or for joinGetOrNull (types that cannot be Nullable stay). */
    const type *vt = t->sch->types[vcol];
    if ((s->use_nulls || or_null) && type_can_be_nullable(vt) && !type_is_nullable(vt)) {
        if (type_phys(vt)->id == T_LOWCARDINALITY)
            vt = type_is_nullable(type_phys(vt)->inner) ? vt : type_lowcard(type_nullable(type_phys(vt)->inner));
        else
            vt = type_nullable(vt);
    }
    int nargs = 2 * nkeys + 1;
    cargs = xcalloc((size_t)nargs, sizeof *cargs);
    types = xcalloc((size_t)nargs, sizeof *types);
    for (int k = 0; k < nkeys; k++) {
        column *kc = rows->cols[s->key_cols[k]];
        if (!(cargs[nkeys + k] = array_as(kc, plain_key_type(kc->type), q)))
            goto out;
        types[k] = keys[k]->type;
        types[nkeys + k] = cargs[nkeys + k]->type;
    }
    if (!(cargs[nargs - 1] = array_as(rows->cols[vcol], vt, q)))
        goto out;
    types[nargs - 1] = cargs[nargs - 1]->type;
    if (func_resolve("__joinGetLookup", nargs, types, cargs, &q->env, &call))
        goto out;
    expr *ex = xcalloc(1, sizeof *ex);
    ex->kind = EX_FUNC;
    ex->nargs = nargs;
    ex->args = xcalloc((size_t)nargs, sizeof *ex->args);
    for (int k = 0; k < nkeys; k++) {
        ex->args[k] = keys[k];
        keys[k] = NULL;
    }
    for (int k = nkeys; k < nargs; k++) {
        ex->args[k] = expr_const(cargs[k]);
        cargs[k] = NULL;
    }
    ex->call = call;
    ex->type = call->result_type;
    *out = ex;
    rc = 0;
out:
    for (int k = 0; k < nkeys; k++)
        if (keys[k])
            expr_free(keys[k]);
    for (int k = 0; cargs && k < 2 * nkeys + 1; k++)
        if (cargs[k])
            col_free(cargs[k]);
    free(cargs);
    free(types);
    block_free(rows);
    if (t)
        table_unref(t);
    return rc;
}

/* ---- ALTER TABLE … DELETE ---- */

int join_engine_mutate(table *t, const ast_list *cmds, query_ctx *q)
{
    for (int i = 0; i < cmds->n; i++)
        if (strcmp(cmds->items[i]->name, "DELETE") != 0)
            return err_set(ERR_NOT_IMPLEMENTED, "Table engine Join supports only DELETE mutations");
    /* As ClickHouse: the rows its hash table holds, less those deleted, become the table. */
    block *b;
    if (join_engine_rows(t, true, &b))
        return -1;
    source *layout = source_from_blocks(schema_clone(t->sch), xcalloc(1, sizeof(block *)), 0);
    int rc = 0;
    for (int i = 0; i < cmds->n && !rc; i++) {
        expr *ex;
        if ((rc = analyze_expr_on(cmds->items[i]->where, layout, q, &ex)))
            break;
        column *m;
        if (!(rc = expr_eval(ex, b, &m))) {
            m = col_materialize(m);
            uint8_t *keep = xmalloc(b->rows + 1);
            size_t deleted = expr_truth_mask(m, keep);
            for (size_t r = 0; r < b->rows; r++)
                keep[r] = !keep[r];
            if (deleted)
                for (int c = 0; c < b->ncols; c++) {
                    column *f = col_filter(b->cols[c], keep, b->rows - deleted);
                    col_free(b->cols[c]);
                    b->cols[c] = f;
                }
            b->rows -= deleted;
            free(keep);
            col_free(m);
        }
        expr_free(ex);
    }
    source_free(layout);
    if (rc) {
        block_free(b);
        return -1;
    }
    return join_engine_replace(t, b);
}

/* ---- IN table ---- */

int in_table_rows(const ast *name, query_ctx *q, schema **sch, block ***bs, int *nb)
{
    if (name->kind != AST_IDENT || name->nparts < 1 || name->nparts > 2)
        return 0;
    const char *db = name->nparts == 2 ? name->parts[0] : NULL, *tn = name->parts[name->nparts - 1];
    table *t = named_table(db, tn, q);
    if (!t)
        return 0;
    source *src = NULL;
    int rc = t->engine == &engine_set ? set_engine_read(t, q, &src) : t->engine->read(t, false, q, &src);
    table_unref(t);
    if (rc)
        return -1;
    block *all = NULL;
    rc = source_read_all(src, q, &all);
    if (!rc) {
        *sch = schema_new(src->nvisible ? src->nvisible : src->sch->n);
        for (int i = 0; i < (*sch)->n; i++)
            schema_set(*sch, i, src->sch->names[i], src->sch->types[i]);
        for (int c = (*sch)->n; c < all->ncols; c++) /* virtual columns are not the table's rows */
            col_free(all->cols[c]);
        if (all->ncols > (*sch)->n)
            all->ncols = (*sch)->n;
        *bs = xcalloc(1, sizeof **bs);
        (*bs)[0] = all;
        *nb = 1;
    }
    source_free(src);
    return rc ? -1 : 1;
}
