/* The WithMergeableState split of an aggregating SELECT (dist_split.h). */
#include "sql/dist_split.h"

#include "base/err.h"
#include "func/agg.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

enum { MAX_DEPTH = 200, MAX_PARTS = 256 };

static bool is_agg_call(const ast *e)
{
    return e->kind == AST_FUNC && e->name && !e->over && !e->over_name && agg_exists(e->name);
}

static bool has_aggregate(const ast *e, int depth)
{
    if (!e || depth > MAX_DEPTH || e->kind == AST_SUBQUERY)
        return false;
    if (is_agg_call(e))
        return true;
    if (e->kind == AST_ORDER_ITEM)
        return has_aggregate(e->sub, depth + 1);
    for (int i = 0; i < e->args.n; i++)
        if (has_aggregate(e->args.items[i], depth + 1))
            return true;
    return false;
}

bool dist_select_aggregates(const ast *sel)
{
    if (sel->group_by.n || sel->group_by_all || sel->having || sel->with_totals || sel->grouping_sets.n)
        return true;
    for (int i = 0; i < sel->select.n; i++)
        if (has_aggregate(sel->select.items[i], 0))
            return true;
    for (int i = 0; i < sel->order_by.n; i++)
        if (has_aggregate(sel->order_by.items[i], 0))
            return true;
    return false;
}

/* ---- names ---- */

static int planner_name(const ast *e, buf *out, int depth)
{
    if (depth > MAX_DEPTH)
        return -1;
    switch (e->kind) {
    case AST_IDENT:
        for (int k = 0; k < e->nparts; k++) {
            if (k)
                buf_putc(out, '.');
            buf_puts(out, e->parts[k]);
        }
        return 0;
    case AST_LITERAL:
        switch (e->lit) {
        case LIT_UINT:
            buf_printf(out, "%llu_%s", (unsigned long long)e->u,
                       e->u <= 0xFF ? "UInt8" : e->u <= 0xFFFF ? "UInt16" : e->u <= 0xFFFFFFFFull ? "UInt32" : "UInt64");
            return 0;
        case LIT_INT:
            buf_printf(out, "%lld_%s", (long long)e->i,
                       e->i >= -128 ? "Int8" : e->i >= -32768 ? "Int16" : e->i >= -2147483648ll ? "Int32" : "Int64");
            return 0;
        case LIT_STRING:
            ast_format_quoted(out, e->str, e->str_len);
            buf_puts(out, "_String");
            return 0;
        case LIT_FLOAT: {
            /* Only plain decimals, whose shortest form is the text without trailing zeros. */
            const char *t = e->text;
            if (!t || !strchr(t, '.') || strspn(t, "-0123456789.") != strlen(t))
                return -1;
            size_t n = strlen(t);
            while (n > 0 && t[n - 1] == '0')
                n--;
            if (n > 0 && t[n - 1] == '.')
                n--;
            buf_append(out, t, n);
            buf_puts(out, "_Float64");
            return 0;
        }
        default:
            return -1;
        }
    case AST_FUNC:
        if (e->distinct || !e->name || e->over || e->over_name)
            return -1;
        buf_puts(out, e->name);
        if (e->has_params) {
            buf_putc(out, '(');
            for (int i = 0; i < e->params.n; i++) {
                if (i)
                    buf_puts(out, ", ");
                if (planner_name(e->params.items[i], out, depth + 1))
                    return -1;
            }
            buf_putc(out, ')');
        }
        buf_putc(out, '(');
        for (int i = 0; i < e->args.n; i++) {
            if (i)
                buf_puts(out, ", ");
            if (planner_name(e->args.items[i], out, depth + 1))
                return -1;
        }
        buf_putc(out, ')');
        return 0;
    default:
        return -1;
    }
}

int dist_planner_name(const ast *e, buf *out) { return planner_name(e, out, 0); }

/* ---- SQL text ---- */

static int fmt_expr(buf *b, const ast *e, int depth);

static int fmt_list(buf *b, const ast_list *l, int depth)
{
    for (int i = 0; i < l->n; i++) {
        if (i)
            buf_puts(b, ", ");
        if (fmt_expr(b, l->items[i], depth + 1))
            return -1;
    }
    return 0;
}

static int unsupported(const char *what)
{
    return err_set(ERR_NOT_IMPLEMENTED, "The shard query of a distributed aggregation cannot contain %s", what);
}

/* Every function in its call form (plus(a, 1)), which any ClickHouse parses; IN keeps its
 * operator form (its right side is a list, not a tuple expression). */
static int fmt_expr(buf *b, const ast *e, int depth)
{
    if (depth > MAX_DEPTH)
        return unsupported("an expression this deep");
    switch (e->kind) {
    case AST_LITERAL:
        switch (e->lit) {
        case LIT_NULL: buf_puts(b, "NULL"); return 0;
        case LIT_BOOL: buf_puts(b, e->u ? "true" : "false"); return 0;
        case LIT_UINT: buf_printf(b, "%llu", (unsigned long long)e->u); return 0;
        case LIT_INT: buf_printf(b, "%lld", (long long)e->i); return 0;
        case LIT_FLOAT:
            if (e->text && e->text[0] && !strpbrk(e->text, " \t\n'`\"")) {
                buf_putc(b, '(');
                buf_puts(b, e->text);
                buf_putc(b, ')');
            } else {
                buf_printf(b, "(%.17g)", e->f);
            }
            return 0;
        case LIT_STRING: ast_format_quoted(b, e->str, e->str_len); return 0;
        default: return unsupported("this literal");
        }
    case AST_IDENT:
        for (int k = 0; k < e->nparts; k++) {
            if (k)
                buf_putc(b, '.');
            buf_putc(b, '`');
            for (const char *p = e->parts[k]; *p; p++) {
                if (*p == '`' || *p == '\\')
                    buf_putc(b, '\\');
                buf_putc(b, *p);
            }
            buf_putc(b, '`');
        }
        return 0;
    case AST_PARAM:
        buf_printf(b, "{%s:%s}", e->name, e->str);
        return 0;
    case AST_LAMBDA:
        buf_putc(b, '(');
        for (int k = 0; k < e->nparts; k++)
            buf_printf(b, "%s`%s`", k ? ", " : "", e->parts[k]);
        buf_puts(b, ") -> ");
        return e->args.n == 1 ? fmt_expr(b, e->args.items[0], depth + 1) : unsupported("this lambda");
    case AST_FUNC: {
        if (e->over || e->over_name)
            return unsupported("a window function");
        if (e->distinct)
            return unsupported("an aggregate over DISTINCT arguments");
        bool in = !strcmp(e->name, "in") || !strcmp(e->name, "notIn") || !strcmp(e->name, "globalIn") ||
                  !strcmp(e->name, "globalNotIn");
        if (in && e->args.n == 2) {
            const ast *r = e->args.items[1];
            if (r->kind == AST_SUBQUERY)
                return unsupported("IN (subquery)");
            buf_putc(b, '(');
            if (fmt_expr(b, e->args.items[0], depth + 1))
                return -1;
            buf_puts(b, strstr(e->name, "ot") ? " NOT IN " : " IN ");
            buf_putc(b, '(');
            if (r->kind == AST_FUNC && !strcmp(r->name, "tuple") && r->bracket_syntax) {
                if (fmt_list(b, &r->args, depth))
                    return -1;
            } else if (fmt_expr(b, r, depth + 1)) {
                return -1;
            }
            buf_puts(b, "))");
            return 0;
        }
        buf_puts(b, e->name);
        if (e->has_params) {
            buf_putc(b, '(');
            if (fmt_list(b, &e->params, depth))
                return -1;
            buf_putc(b, ')');
        }
        buf_putc(b, '(');
        if (fmt_list(b, &e->args, depth))
            return -1;
        buf_putc(b, ')');
        return 0;
    }
    case AST_SUBQUERY: return unsupported("a subquery");
    case AST_ASTERISK: return unsupported("*");
    default: return unsupported("this expression");
    }
}

static void fmt_alias(buf *b, const char *alias)
{
    buf_puts(b, " AS `");
    for (const char *p = alias; *p; p++) {
        if (*p == '`' || *p == '\\')
            buf_putc(b, '\\');
        buf_putc(b, *p);
    }
    buf_putc(b, '`');
}

int dist_format_select(buf *out, const ast *sel, const char *from_sql)
{
    buf_puts(out, "SELECT ");
    for (int i = 0; i < sel->select.n; i++) {
        if (i)
            buf_puts(out, ", ");
        if (fmt_expr(out, sel->select.items[i], 0))
            return -1;
        if (sel->select.items[i]->alias)
            fmt_alias(out, sel->select.items[i]->alias);
    }
    const ast *t = sel->from;
    if (from_sql) {
        buf_printf(out, " FROM %s", from_sql);
    } else if (t && t->table_name && !t->join) {
        buf_puts(out, " FROM ");
        if (t->database)
            buf_printf(out, "`%s`.", t->database);
        buf_printf(out, "`%s`", t->table_name);
        if (t->final)
            buf_puts(out, " FINAL");
    } else {
        return unsupported("this FROM");
    }
    if (t && t->alias)
        fmt_alias(out, t->alias);
    if (sel->where) {
        buf_puts(out, " WHERE ");
        if (fmt_expr(out, sel->where, 0))
            return -1;
    }
    if (sel->group_by.n) {
        buf_puts(out, " GROUP BY ");
        if (fmt_list(out, &sel->group_by, 0))
            return -1;
    }
    return 0;
}

/* ---- the split ---- */

typedef struct splitter {
    arena *a;
    const ast *sel;
    int nkeys;
    ast *keys[MAX_PARTS];
    char *key_names[MAX_PARTS];   /* ast_format_name of each key, to find it in expressions */
    int naggs;
    ast *aggs[MAX_PARTS];
    char *agg_names[MAX_PARTS];
    const char *why;              /* set when the query is not split */
} splitter;

static ast *copy_node(arena *a, const ast *e)
{
    ast *n = ARENA_NEW(a, ast);
    *n = *e;
    return n;
}

static char *name_of(arena *a, const ast *e)
{
    buf b = {0};
    ast_format_name(&b, e);
    char *s = arena_strdup(a, buf_cstr(&b));
    buf_free(&b);
    return s;
}

/* The select item an alias names, or NULL. */
static const ast *alias_target(const ast *sel, const char *name)
{
    for (int i = sel->select.n - 1; i >= 0; i--)
        if (sel->select.items[i]->alias && !strcmp(sel->select.items[i]->alias, name))
            return sel->select.items[i];
    return NULL;
}

/* A copy of e with the select list's aliases replaced by their expressions (an alias is not
 * expanded inside its own definition: there the name is the column's). Inner aliases go. */
static ast *inline_aliases(splitter *s, const ast *e, const char **open, int nopen, int depth)
{
    if (!e || s->why)
        return NULL;
    if (depth > MAX_DEPTH || nopen >= 32) {
        s->why = "aliases nested this deep";
        return NULL;
    }
    if (e->kind == AST_IDENT && e->nparts == 1) {
        const ast *t = alias_target(s->sel, e->parts[0]);
        bool expanding = false;
        for (int i = 0; i < nopen; i++)
            expanding |= !strcmp(open[i], e->parts[0]);
        if (t && !expanding) {
            open[nopen] = e->parts[0];
            ast *r = inline_aliases(s, t, open, nopen + 1, depth + 1);
            if (r)
                r->alias = NULL;
            return r;
        }
    }
    if (e->kind == AST_SUBQUERY) {
        s->why = "a subquery";
        return NULL;
    }
    if (e->kind == AST_LAMBDA) {
        s->why = "a lambda";
        return NULL;
    }
    ast *n = copy_node(s->a, e);
    n->alias = NULL;
    if (e->kind == AST_ORDER_ITEM) {
        n->sub = inline_aliases(s, e->sub, open, nopen, depth + 1);
        if (e->with_fill) {
            s->why = "ORDER BY … WITH FILL";
            return NULL;
        }
        return s->why ? NULL : n;
    }
    if (e->args.n) {
        n->args.items = arena_alloc(s->a, sizeof(ast *) * (size_t)e->args.n, _Alignof(ast *));
        for (int i = 0; i < e->args.n; i++)
            n->args.items[i] = inline_aliases(s, e->args.items[i], open, nopen, depth + 1);
    }
    return s->why ? NULL : n;
}

static ast *inline_top(splitter *s, const ast *e)
{
    const char *open[32];
    int nopen = 0;
    /* A select item's own alias is not visible inside it. */
    if (e && e->alias)
        open[nopen++] = e->alias;
    return inline_aliases(s, e, open, nopen, 0);
}

static ast *ident(arena *a, const char *fmt, int i)
{
    char name[64];
    snprintf(name, sizeof name, fmt, i);
    ast *n = ast_new(a, AST_IDENT, 0);
    n->nparts = 1;
    n->parts = arena_alloc(a, sizeof(char *), _Alignof(char *));
    n->parts[0] = arena_strdup(a, name);
    return n;
}

/* e (aliases inlined) for the initiator: keys → their columns, aggregates → the merge of
 * their states. */
static ast *to_outer(splitter *s, const ast *e, int depth)
{
    if (!e || s->why)
        return NULL;
    if (depth > MAX_DEPTH) {
        s->why = "an expression this deep";
        return NULL;
    }
    if (e->kind == AST_FUNC && (e->over || e->over_name)) {
        s->why = "a window function";
        return NULL;
    }
    if (e->kind != AST_ORDER_ITEM && s->nkeys) {
        char *nm = name_of(s->a, e);
        for (int j = 0; j < s->nkeys; j++)
            if (!strcmp(nm, s->key_names[j]))
                return ident(s->a, DIST_KEY_COL, j);
    }
    if (is_agg_call(e)) {
        if (e->distinct) {
            s->why = "an aggregate over DISTINCT arguments";
            return NULL;
        }
        for (int i = 0; i < e->args.n; i++)
            if (has_aggregate(e->args.items[i], 0)) {
                s->why = "an aggregate inside an aggregate";
                return NULL;
            }
        char *nm = name_of(s->a, e);
        int k = 0;
        while (k < s->naggs && strcmp(s->agg_names[k], nm))
            k++;
        if (k == s->naggs) {
            if (s->naggs == MAX_PARTS) {
                s->why = "this many aggregates";
                return NULL;
            }
            s->aggs[k] = copy_node(s->a, e);
            s->agg_names[k] = nm;
            s->naggs++;
        }
        ast *m = copy_node(s->a, e);
        m->alias = NULL;
        size_t len = strlen(e->name);
        char *mname = arena_alloc(s->a, len + 6, 1);
        memcpy(mname, e->name, len);
        memcpy(mname + len, "Merge", 6);
        m->name = mname;
        m->args.n = 1;
        m->args.items = arena_alloc(s->a, sizeof(ast *), _Alignof(ast *));
        m->args.items[0] = ident(s->a, DIST_AGG_COL, k);
        return m;
    }
    if (e->kind == AST_IDENT && e->nparts >= 1 && s->nkeys == 0 && s->sel->group_by.n == 0) {
        /* A column outside any aggregate with no GROUP BY: an error the rows path reports. */
        s->why = "a column outside the aggregates";
        return NULL;
    }
    ast *n = copy_node(s->a, e);
    if (e->kind == AST_ORDER_ITEM) {
        n->sub = to_outer(s, e->sub, depth + 1);
        return s->why ? NULL : n;
    }
    if (e->args.n) {
        n->args.items = arena_alloc(s->a, sizeof(ast *) * (size_t)e->args.n, _Alignof(ast *));
        for (int i = 0; i < e->args.n; i++)
            n->args.items[i] = to_outer(s, e->args.items[i], depth + 1);
    }
    return s->why ? NULL : n;
}

static ast *state_call(arena *a, const ast *f)
{
    ast *n = copy_node(a, f);
    size_t len = strlen(f->name);
    char *name = arena_alloc(a, len + 6, 1);
    memcpy(name, f->name, len);
    memcpy(name + len, "State", 6);
    n->name = name;
    return n;
}

static int not_split(const char *why)
{
    return err_set(ERR_NOT_IMPLEMENTED, "A distributed query that aggregates with %s is not split between shards and "
                                        "initiator (WithMergeableState)",
                   why),
           1;
}

int dist_split_select(arena *a, const ast *sel, dist_split *out)
{
    memset(out, 0, sizeof *out);
    if (sel->kind != AST_SELECT)
        return not_split("UNION");
    if (sel->with.n)
        return not_split("WITH");
    if (sel->prewhere)
        return not_split("PREWHERE");
    if (sel->array_joins.n)
        return not_split("ARRAY JOIN");
    if (sel->from && (sel->from->join || sel->from->sub))
        return not_split("a JOIN or a subquery in FROM");
    if (sel->group_by_all)
        return not_split("GROUP BY ALL");
    if (sel->group_by_mod == GB_SETS || sel->grouping_sets.n)
        return not_split("GROUPING SETS");
    if (sel->has_interpolate)
        return not_split("INTERPOLATE");
    if (sel->windows.n)
        return not_split("a WINDOW clause");
    splitter s = {.a = a, .sel = sel};
    for (int i = 0; i < sel->group_by.n; i++) {
        const ast *g = sel->group_by.items[i];
        if (g->kind == AST_LITERAL)
            return not_split("GROUP BY a position or a constant");
        if (s.nkeys == MAX_PARTS)
            return not_split("this many keys");
        ast *k = inline_top(&s, g);
        if (s.why)
            return not_split(s.why);
        if (has_aggregate(k, 0))
            return not_split("an aggregate in GROUP BY");
        s.keys[s.nkeys] = k;
        s.key_names[s.nkeys++] = name_of(a, k);
    }
    ast *o = ast_new(a, AST_SELECT, sel->pos);
    o->select_distinct = sel->select_distinct;
    for (int i = 0; i < sel->select.n; i++) {
        const ast *item = sel->select.items[i];
        if (item->kind == AST_ASTERISK)
            return not_split("*");
        ast *x = inline_top(&s, item);
        x = s.why ? NULL : to_outer(&s, x, 0);
        if (s.why)
            return not_split(s.why);
        /* The output keeps the original column name. */
        x->alias = item->alias ? item->alias : name_of(a, item);
        ast_list_push(a, &o->select, x);
    }
    if (sel->having) {
        ast *h = inline_top(&s, sel->having);
        o->having = s.why ? NULL : to_outer(&s, h, 0);
    }
    for (int i = 0; i < sel->order_by.n && !s.why; i++) {
        const ast *it = sel->order_by.items[i];
        if (it->sub && it->sub->kind == AST_LITERAL) { /* a position: the outer select list's */
            ast_list_push(a, &o->order_by, copy_node(a, it));
            continue;
        }
        ast *x = inline_top(&s, it);
        x = s.why ? NULL : to_outer(&s, x, 0);
        if (x)
            ast_list_push(a, &o->order_by, x);
    }
    for (int i = 0; i < sel->limit_by.n && !s.why; i++) {
        ast *x = inline_top(&s, sel->limit_by.items[i]);
        x = s.why ? NULL : to_outer(&s, x, 0);
        if (x)
            ast_list_push(a, &o->limit_by, x);
    }
    if (s.why)
        return not_split(s.why);
    o->limit = sel->limit;
    o->offset = sel->offset;
    o->limit_by_limit = sel->limit_by_limit;
    o->limit_by_offset = sel->limit_by_offset;
    o->with_totals = sel->with_totals;
    o->group_by_mod = sel->group_by_mod;
    o->group_by_with = sel->group_by_with;
    o->settings = sel->settings;
    for (int j = 0; j < s.nkeys; j++)
        ast_list_push(a, &o->group_by, ident(a, DIST_KEY_COL, j));

    /* The shard: keys, then the aggregates, under the planner's names. */
    ast *sh = ast_new(a, AST_SELECT, sel->pos);
    ast *st = ast_new(a, AST_SELECT, sel->pos);
    sh->from = st->from = sel->from;
    sh->settings = st->settings = sel->settings;
    if (sel->where) {
        sh->where = st->where = inline_top(&s, sel->where);
        if (s.why)
            return not_split(s.why);
        if (has_aggregate(sh->where, 0))
            return not_split("an aggregate in WHERE");
    }
    for (int j = 0; j < s.nkeys + s.naggs; j++) {
        bool key = j < s.nkeys;
        ast *e = key ? s.keys[j] : s.aggs[j - s.nkeys];
        buf nm = {0};
        if (dist_planner_name(e, &nm)) {
            buf_free(&nm);
            return not_split(key ? "a GROUP BY key of this form" : "an aggregate argument of this form");
        }
        ast *x = copy_node(a, e), *y = key ? copy_node(a, e) : state_call(a, e);
        x->alias = y->alias = arena_strdup(a, buf_cstr(&nm));
        buf_free(&nm);
        ast_list_push(a, &sh->select, x);
        ast_list_push(a, &st->select, y);
        if (key) {
            ast_list_push(a, &sh->group_by, s.keys[j]);
            ast_list_push(a, &st->group_by, s.keys[j]);
        }
    }
    if (s.nkeys + s.naggs == 0)
        return not_split("neither keys nor aggregates");
    out->shard = sh;
    out->shard_states = st;
    out->outer = o;
    out->nkeys = s.nkeys;
    out->naggs = s.naggs;
    return 0;
}
