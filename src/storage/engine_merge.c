/* ENGINE = Merge and the source behind merge() (storage/merge.h). */
#include "storage/merge.h"

#include "base/err.h"
#include "base/mem.h"
#include "func/func.h"
#include "func/supertype.h"
#include "storage/catalog.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <stdlib.h>
#include <string.h>

/* How deep Merge tables may read through Merge tables (a cycle would never end). */
enum { MERGE_MAX_DEPTH = 16 };
static _Thread_local int merge_depth;

typedef struct merge_kid {
    source *src;
    char *db, *name;
    int *map; /* per column of the Merge source: the kid's column, or -1 (the virtual _database
                 and _table come from a kid that is a Merge source itself: the innermost table) */
} merge_kid;

typedef struct merge_src {
    merge_kid *kids;
    int nkids;
    int *task_kid, *task_sub; /* per task: which kid, and its task */
    int ncols;                /* the offered columns; _database and _table follow */
} merge_src;

typedef struct merge_it {
    const merge_src *m;
    const merge_kid *k;
    const source *msrc;
    void *inner;
    int ncols;
    int *want;  /* per requested column: its index in the Merge schema */
    int *pos;   /* per requested column: its position in the kid's blocks, or -1 */
    query_ctx *q;
} merge_it;

static bool is_virtual(const merge_src *m, int col) { return col >= m->ncols; }

static int merge_open(source *s, int task, const int *cols, int ncols, query_ctx *q, void **itp)
{
    const merge_src *m = s->impl;
    const merge_kid *k = &m->kids[m->task_kid[task]];
    merge_it *it = xcalloc(1, sizeof *it);
    it->m = m;
    it->k = k;
    it->msrc = s;
    it->q = q;
    it->ncols = ncols;
    it->want = xcalloc((size_t)ncols + 1, sizeof(int));
    it->pos = xcalloc((size_t)ncols + 1, sizeof(int));
    int *inner = xcalloc((size_t)ncols + 1, sizeof(int));
    int ninner = 0;
    for (int i = 0; i < ncols; i++) {
        it->want[i] = cols[i];
        int kc = k->map[cols[i]];
        it->pos[i] = -1;
        if (kc >= 0) {
            inner[ninner] = kc;
            it->pos[i] = ninner++;
        }
    }
    /* Nothing of the table's own is wanted (count(), _table only): still read one column,
     * for the number of rows. */
    if (ninner == 0 && k->src->sch->n > 0)
        inner[ninner++] = 0;
    int rc = k->src->open(k->src, m->task_sub[task], inner, ninner, q, &it->inner);
    free(inner);
    if (rc) {
        free(it->want);
        free(it->pos);
        free(it);
        return -1;
    }
    *itp = it;
    return 0;
}

static column *const_string(const type *t, const char *s, size_t rows)
{
    column *one = col_new(t);
    col_push_str(one, s, strlen(s));
    return col_new_const(one, rows);
}

static int merge_next(void *itp, block **out)
{
    merge_it *it = itp;
    block *b;
    if (it->k->src->next(it->inner, &b))
        return -1;
    if (!b) {
        *out = NULL;
        return 0;
    }
    const schema *sch = it->msrc->sch;
    block *r = block_new(it->ncols, b->rows);
    int rc = 0;
    for (int i = 0; i < it->ncols; i++) {
        int c = it->want[i];
        const type *t = sch->types[c];
        if (it->pos[i] < 0 && is_virtual(it->m, c)) {
            r->cols[i] = const_string(t, c == it->m->ncols ? it->k->db : it->k->name, b->rows);
        } else if (it->pos[i] < 0) {
            r->cols[i] = col_new_defaults(t, b->rows);
        } else {
            column *src = b->cols[it->pos[i]];
            if (src->type == t || strcmp(src->type->name, t->name) == 0) {
                r->cols[i] = src;
                b->cols[it->pos[i]] = NULL;
            } else if (!rc && func_cast_column(src, t, &it->q->env, &r->cols[i])) {
                err_prefix("while converting column %s of table %s.%s to the Merge table's type: ", sch->names[c],
                           it->k->db, it->k->name);
                rc = -1;
            }
        }
        if (rc || !r->cols[i])
            r->cols[i] = col_new_defaults(t, 0); /* so that block_free has something to free */
    }
    block_free(b);
    if (rc) {
        block_free(r);
        return -1;
    }
    *out = r;
    return 0;
}

static void merge_close(void *itp)
{
    merge_it *it = itp;
    it->k->src->close(it->inner);
    free(it->want);
    free(it->pos);
    free(it);
}

static void merge_destroy(source *s)
{
    merge_src *m = s->impl;
    for (int i = 0; i < m->nkids; i++) {
        source_free(m->kids[i].src);
        free(m->kids[i].db);
        free(m->kids[i].name);
        free(m->kids[i].map);
    }
    free(m->kids);
    free(m->task_kid);
    free(m->task_sub);
    free(m);
}

static int64_t merge_count_rows(source *s, query_ctx *q)
{
    merge_src *m = s->impl;
    int64_t total = 0;
    for (int i = 0; i < m->nkids; i++) {
        source *k = m->kids[i].src;
        int64_t n = k->count_rows ? k->count_rows(k, q) : -1;
        if (n < 0)
            return -1;
        total += n;
    }
    return total;
}

/* The union of the kids' visible columns, in order of first appearance, each of the least
 * common supertype of its types. */
static schema *union_schema(const merge_kid *kids, int nkids)
{
    int n = 0, cap = 8;
    char **names = xcalloc((size_t)cap, sizeof *names);
    const type ***types = xcalloc((size_t)cap, sizeof *types);
    int *ntypes = xcalloc((size_t)cap, sizeof *ntypes);
    for (int k = 0; k < nkids; k++) {
        const source *s = kids[k].src;
        for (int c = 0; c < s->nvisible; c++) {
            int at = 0;
            while (at < n && strcmp(names[at], s->sch->names[c]))
                at++;
            if (at == n) {
                if (n == cap) {
                    cap *= 2;
                    names = xrealloc(names, sizeof *names * (size_t)cap);
                    types = xrealloc(types, sizeof *types * (size_t)cap);
                    ntypes = xrealloc(ntypes, sizeof *ntypes * (size_t)cap);
                }
                names[n] = s->sch->names[c];
                types[n] = xcalloc((size_t)nkids, sizeof **types);
                ntypes[n++] = 0;
            }
            types[at][ntypes[at]++] = s->sch->types[c];
        }
    }
    schema *sch = schema_new(n);
    for (int i = 0; i < n && sch; i++) {
        const type *t = type_supertype(ntypes[i], types[i]);
        if (!t) {
            err_prefix("Columns %s of the tables merge() reads: ", names[i]);
            schema_free(sch);
            sch = NULL;
        } else {
            schema_set(sch, i, names[i], t);
        }
    }
    for (int i = 0; i < n; i++)
        free(types[i]);
    free(names);
    free(types);
    free(ntypes);
    return sch;
}

static bool name_matches(pcre2_code *re, pcre2_match_data *md, const char *name)
{
    return pcre2_match(re, (PCRE2_SPTR)name, strlen(name), 0, 0, md, NULL) >= 0;
}

/* A column of sch that t computes (ALIAS) instead of storing: ClickHouse evaluates it per
 * table, which shale's Merge does not do yet; NULL when there is none. */
static const char *computed_column(const table *t, const schema *sch)
{
    for (int i = 0; sch && i < t->ncols; i++)
        if (t->cols[i].default_kind && !strcmp(t->cols[i].default_kind, "ALIAS") &&
            schema_find(sch, t->cols[i].name) >= 0)
            return t->cols[i].name;
    return NULL;
}

/* The sources of the matching tables into m->kids; sch: the Merge table's columns, or NULL. */
static int read_tables(query_ctx *q, const char *db, pcre2_code *re, const char *self_db, const char *self_name,
                       const schema *sch, merge_src *m)
{
    table **all;
    int n;
    if (catalog_list(q->catalog, &all, &n))
        return -1;
    pcre2_match_data *md = pcre2_match_data_create_from_pattern(re, NULL);
    int rc = 0;
    m->kids = xcalloc((size_t)n + 1, sizeof *m->kids);
    for (int i = 0; i < n; i++) {
        table *t = all[i];
        bool self = self_db && self_name && !strcmp(t->database, self_db) && !strcmp(t->name, self_name);
        if (!rc && !self && !strcmp(t->database, db) && name_matches(re, md, t->name)) {
            source *src = NULL;
            const char *alias = computed_column(t, sch);
            if (alias)
                rc = err_set(ERR_NOT_IMPLEMENTED, "Reading the ALIAS column %s of table %s.%s through Merge is not "
                             "supported yet", alias, t->database, t->name);
            else if (t->engine == &engine_view && !q->read_view)
                rc = err_set(ERR_NOT_IMPLEMENTED, "Reading the view %s.%s through Merge or merge() needs the statement "
                             "layer", t->database, t->name);
            else if (t->engine == &engine_view ? q->read_view(table_ref(t), q, &src) : t->engine->read(t, false, q, &src))
                rc = -1;
            if (!rc) {
                merge_kid *k = &m->kids[m->nkids++];
                k->src = src;
                k->db = xstrdup(t->database);
                k->name = xstrdup(t->name);
            }
        }
        table_unref(t);
    }
    free(all);
    pcre2_match_data_free(md);
    return rc;
}

static pcre2_code *compile_regexp(const char *regexp)
{
    int ec;
    PCRE2_SIZE eo;
    pcre2_code *re = pcre2_compile((PCRE2_SPTR)regexp, PCRE2_ZERO_TERMINATED, PCRE2_UTF, &ec, &eo, NULL);
    if (!re) {
        PCRE2_UCHAR msg[256];
        pcre2_get_error_message(ec, msg, sizeof msg);
        err_set(ERR_CANNOT_COMPILE_REGEXP, "Cannot compile the regular expression of table names '%s': %s at offset %zu",
                regexp, (const char *)msg, (size_t)eo);
    }
    return re;
}

int merge_source_new(query_ctx *q, const char *db, const char *regexp, const char *self_db, const char *self_name,
                     const schema *sch, source **out)
{
    if (!catalog_has_database(q->catalog, db))
        return err_set(ERR_UNKNOWN_DATABASE, "Database %s does not exist", db);
    pcre2_code *re = compile_regexp(regexp);
    if (!re)
        return -1;
    merge_src *m = xcalloc(1, sizeof *m);
    int rc = 0;
    if (++merge_depth > MERGE_MAX_DEPTH)
        rc = err_set(ERR_TOO_DEEP_RECURSION, "Merge tables read through more than %d Merge tables (a cycle?)",
                     MERGE_MAX_DEPTH);
    else
        rc = read_tables(q, db, re, self_db, self_name, sch, m);
    merge_depth--;
    pcre2_code_free(re);
    schema *own = NULL;
    if (!rc && !sch) {
        if (!m->nkids)
            rc = err_set(ERR_CANNOT_EXTRACT_TABLE_STRUCTURE,
                         "There are no tables satisfied provided regexp, you must specify table structure manually");
        else if (!(own = union_schema(m->kids, m->nkids)))
            rc = -1;
        sch = own;
    }
    source *s = xcalloc(1, sizeof *s);
    s->impl = m;
    s->destroy = merge_destroy;
    if (rc) {
        source_free(s);
        return -1;
    }
    m->ncols = sch->n;
    s->sch = schema_new(sch->n + 2);
    for (int i = 0; i < sch->n; i++)
        schema_set(s->sch, i, sch->names[i], sch->types[i]);
    const type *lc = type_lowcard(type_simple(T_STRING));
    schema_set(s->sch, sch->n, "_database", lc);
    schema_set(s->sch, sch->n + 1, "_table", lc);
    s->nvisible = sch->n;
    schema_free(own);
    for (int k = 0; k < m->nkids; k++) {
        merge_kid *kid = &m->kids[k];
        kid->map = xcalloc((size_t)m->ncols + 3, sizeof(int));
        for (int c = 0; c < m->ncols + 2; c++) {
            int kc = schema_find(kid->src->sch, s->sch->names[c]);
            kid->map[c] = c < m->ncols || (kc >= kid->src->nvisible && kid->src->open == merge_open) ? kc : -1;
        }
        s->ntasks += kid->src->ntasks;
        s->total_rows_hint += kid->src->total_rows_hint;
    }
    m->task_kid = xcalloc((size_t)s->ntasks + 1, sizeof(int));
    m->task_sub = xcalloc((size_t)s->ntasks + 1, sizeof(int));
    for (int k = 0, t = 0; k < m->nkids; k++)
        for (int j = 0; j < m->kids[k].src->ntasks; j++, t++) {
            m->task_kid[t] = k;
            m->task_sub[t] = j;
        }
    s->open = merge_open;
    s->next = merge_next;
    s->close = merge_close;
    s->count_rows = merge_count_rows;
    *out = s;
    return 0;
}

/* ---- the engine ---- */

typedef struct merge_impl {
    char *db, *regexp;
} merge_impl;

/* An argument as a name: an identifier or a string literal (currentDatabase() is made a
 * string when the table is created, interp/ddl.c). */
static char *name_arg(const ast *a)
{
    if (a->kind == AST_IDENT && a->nparts == 1)
        return xstrdup(a->parts[0]);
    if (a->kind == AST_LITERAL && a->lit == LIT_STRING)
        return xstrndup(a->str, a->str_len);
    return NULL;
}

static int merge_table_open(table *t, bool created, query_ctx *q)
{
    (void)created;
    (void)q;
    const ast *e = t->create->engine;
    if (!e || e->args.n != 2)
        return err_set(ERR_NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Storage Merge requires exactly 2 parameters - name of "
                       "source database and regexp for table names.");
    merge_impl *m = xcalloc(1, sizeof *m);
    m->db = name_arg(e->args.items[0]);
    const ast *re = e->args.items[1];
    if (re->kind == AST_LITERAL && re->lit == LIT_STRING)
        m->regexp = xstrndup(re->str, re->str_len);
    int rc = 0;
    if (!m->db)
        rc = err_set(ERR_NOT_IMPLEMENTED, "Storage Merge: the database must be a name or a string literal "
                     "(REGEXP(…) over databases is not supported yet)");
    else if (!m->regexp)
        rc = err_set(ERR_BAD_ARGUMENTS, "Storage Merge: the second argument must be a string literal (a regexp)");
    pcre2_code *code = rc ? NULL : compile_regexp(m->regexp);
    if (!rc && !code)
        rc = -1;
    pcre2_code_free(code);
    if (rc) {
        free(m->db);
        free(m->regexp);
        free(m);
        return -1;
    }
    t->impl = m;
    return 0;
}

static int merge_table_read(table *t, bool final, query_ctx *q, source **out)
{
    if (final)
        return err_set(ERR_ILLEGAL_FINAL, "Storage Merge does not support FINAL");
    merge_impl *m = t->impl;
    return merge_source_new(q, m->db, m->regexp, t->database, t->name, t->sch, out);
}

static int merge_table_insert(table *t, query_ctx *q, table_sink **out)
{
    (void)t;
    (void)q;
    (void)out;
    return err_set(ERR_NOT_IMPLEMENTED, "Method write is not supported by storage Merge");
}

static void merge_table_close(table *t)
{
    merge_impl *m = t->impl;
    if (!m)
        return;
    free(m->db);
    free(m->regexp);
    free(m);
    t->impl = NULL;
}

const table_engine engine_merge = {
    .name = "Merge",
    .open = merge_table_open,
    .read = merge_table_read,
    .insert = merge_table_insert,
    .close = merge_table_close,
};
