/* EXPLAIN SYNTAX: the query as ClickHouse 26.7 prints it — its AST formatted back, without
 * resolving anything (tables need not exist), in ClickHouse's "function form":
 *
 *   - every operator as its function (plus(a, 1), equals(x, 1), and(…), in(x, (1, 2)),
 *     lambda(tuple(x), …)), calls with the name as written (COUNT(*) stays);
 *   - a SELECT without FROM reads system.one; clause keywords start lines; a list of one
 *     item stays on the keyword's line, longer lists put each item on its own line
 *     indented by 4; ORDER BY items carry ASC/DESC; LIMIT n OFFSET m is "LIMIT m, n";
 *     joins carry their strictness (ALL INNER JOIN); FINAL goes on its own line;
 *   - subqueries open "(" and close ")" on lines of their own, their text indented by 4;
 *   - set operations are grouped as ClickHouse groups them (INTERSECT binds tightest, then
 *     left to right; a run of the same UNION mode is one list) and every part is
 *     parenthesised; the default modes are written out (INTERSECT ALL);
 *   - constants carry their type where ClickHouse adds it: NULL is _CAST(NULL,
 *     'Nullable(Nothing)'), array and tuple constants _CAST([1, 2], 'Array(UInt8)') except
 *     on the right of IN.
 *
 * Whatever this does not reproduce exactly (window functions, WITH in set operations,
 * GROUPING SETS, FULL / SEMI / ANTI / ASOF joins, parameters, float exponents, calls the
 * parser rewrote from other syntax, …) makes it return false with a reason, for the caller
 * to refuse the statement rather than print a text ClickHouse would not. */
#include "parse/ast.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

typedef struct sx {
    buf *o;
    const char *src;
    size_t src_len;
    const char *const *modes; /* union, except, intersect default modes ("ALL", "DISTINCT", "") */
    const char *why;          /* the first construct refused, or NULL */
    bool in_const;            /* inside a typed constant: nested [..] / (..) print plainly */
} sx;

static void refuse(sx *f, const char *why)
{
    if (!f->why)
        f->why = why;
}

static void nl(sx *f, int level)
{
    buf_putc(f->o, '\n');
    for (int i = 0; i < level; i++)
        buf_puts(f->o, "    ");
}

static void query(sx *f, const ast *q, int level);
static void expr(sx *f, const ast *e, int level);

/* A parenthesised block: "(" and ")" at `level`, the text between one level deeper. */
static void open_block(sx *f, int level)
{
    buf_putc(f->o, '(');
    nl(f, level + 1);
}

static void close_block(sx *f, int level)
{
    nl(f, level);
    buf_putc(f->o, ')');
}

static void subquery(sx *f, const ast *q, int level)
{
    open_block(f, level);
    query(f, q, level + 1);
    close_block(f, level);
}

static void expr_list(sx *f, const ast_list *l, int level)
{
    for (int i = 0; i < l->n; i++) {
        if (i)
            buf_puts(f->o, ", ");
        expr(f, l->items[i], level);
    }
}

/* A number literal's ClickHouse type: the smallest that holds it. */
static const char *int_type(const ast *e)
{
    if (e->lit == LIT_UINT)
        return e->u <= 0xFF ? "UInt8" : e->u <= 0xFFFF ? "UInt16" : e->u <= 0xFFFFFFFFu ? "UInt32" : "UInt64";
    return e->i >= -128 ? "Int8" : e->i >= -32768 ? "Int16" : e->i >= -2147483648LL ? "Int32" : "Int64";
}

/* The type of a constant array / tuple element for _CAST, or NULL when not reproduced. */
static bool const_type(const ast *e, buf *t);

static bool const_elems_type(const ast_list *l, bool tuple, buf *t)
{
    if (tuple) {
        buf_puts(t, "Tuple(");
        for (int i = 0; i < l->n; i++) {
            if (i)
                buf_puts(t, ", ");
            if (!const_type(l->items[i], t))
                return false;
        }
        buf_putc(t, ')');
        return true;
    }
    /* Arrays: one element type for all (integers of one signedness, or strings). */
    buf_puts(t, "Array(");
    if (!l->n) {
        buf_puts(t, "Nothing)");
        return true;
    }
    const char *best = NULL;
    static const char *const order[] = {"UInt8", "UInt16", "UInt32", "UInt64", "Int8", "Int16", "Int32", "Int64"};
    int rank = -1;
    for (int i = 0; i < l->n; i++) {
        const ast *x = l->items[i];
        if (x->kind != AST_LITERAL || x->alias)
            return false;
        if (x->lit == LIT_STRING) {
            if (best && strcmp(best, "String"))
                return false;
            best = "String";
            continue;
        }
        if (x->lit != LIT_UINT && x->lit != LIT_INT)
            return false;
        const char *it = int_type(x);
        int r = 0;
        while (strcmp(order[r], it))
            r++;
        if (best && !strcmp(best, "String"))
            return false;
        if (rank >= 0 && (rank < 4) != (r < 4))
            return false; /* signed and unsigned together: ClickHouse's supertype rules */
        if (r > rank)
            rank = r;
        best = order[rank];
    }
    buf_puts(t, best);
    buf_putc(t, ')');
    return true;
}

static bool const_type(const ast *e, buf *t)
{
    if (e->alias)
        return false;
    if (e->kind == AST_LITERAL) {
        if (e->lit == LIT_STRING)
            buf_puts(t, "String");
        else if (e->lit == LIT_UINT || e->lit == LIT_INT)
            buf_puts(t, int_type(e));
        else
            return false;
        return true;
    }
    if (e->kind == AST_FUNC && e->bracket_syntax && !e->has_params &&
        (!strcmp(e->name, "array") || (!strcmp(e->name, "tuple") && e->args.n > 1)))
        return const_elems_type(&e->args, !strcmp(e->name, "tuple"), t);
    return false;
}

static void literal(sx *f, const ast *e)
{
    switch (e->lit) {
    case LIT_NULL: buf_puts(f->o, "_CAST(NULL, 'Nullable(Nothing)')"); break;
    case LIT_BOOL: buf_puts(f->o, e->u ? "true" : "false"); break;
    case LIT_STRING: ast_format_quoted(f->o, e->str, e->str_len); break;
    case LIT_UINT: buf_printf(f->o, "%llu", (unsigned long long)e->u); break;
    case LIT_INT: buf_printf(f->o, "%lld", (long long)e->i); break;
    case LIT_FLOAT:
        if (!ast_format_float_ch(f->o, e->f))
            refuse(f, "a float literal in exponent form");
        break;
    default: refuse(f, "this literal");
    }
}

/* Does the query text at e->pos start with word w (any case)? */
static bool written_as(sx *f, const ast *e, const char *w)
{
    size_t n = strlen(w);
    return e->pos >= 0 && (size_t)e->pos + n <= f->src_len && strncasecmp(f->src + e->pos, w, n) == 0;
}

/* count(*) as written: the parser drops the asterisk. */
static bool written_with_star(sx *f, const ast *e)
{
    size_t i = (size_t)e->pos + strlen(e->name);
    while (i < f->src_len && (f->src[i] == ' ' || f->src[i] == '\n' || f->src[i] == '\t'))
        i++;
    if (i >= f->src_len || f->src[i] != '(')
        return false;
    for (i++; i < f->src_len && (f->src[i] == ' ' || f->src[i] == '\n' || f->src[i] == '\t'); i++)
        ;
    return i < f->src_len && f->src[i] == '*';
}

/* Calls ClickHouse's parser turns into other functions, which this parser keeps. */
static const char *const rewritten_calls[] = {"date_add", "dateadd", "date_sub", "datesub", "timestamp_add",
                                              "timestampadd", "timestamp_sub", "timestampsub", "trim", "position",
                                              "ltrim", "rtrim", "substring", "substr", "extract",
                                              /* a query as argument, printed without parentheses */
                                              "view", "viewIfPermitted", "viewExplain"};

static void call(sx *f, const ast *e, int level)
{
    if (e->over || e->over_name || e->nulls_action) {
        refuse(f, "window functions and IGNORE / RESPECT NULLS");
        return;
    }
    bool in_rhs = e->is_operator && (!strcmp(e->name, "in") || !strcmp(e->name, "notIn") ||
                                     !strcmp(e->name, "globalIn") || !strcmp(e->name, "globalNotIn"));
    bool arr = !strcmp(e->name, "array"), tup = !strcmp(e->name, "tuple");
    if ((arr || tup) && e->bracket_syntax && !e->has_params) {
        /* A constant [..] / (..) is a literal and gets its type; otherwise it is the
         * function array(…) / tuple(…). */
        buf t = {0};
        if (f->in_const) {
            buf_putc(f->o, arr ? '[' : '(');
            expr_list(f, &e->args, level);
            buf_putc(f->o, arr ? ']' : ')');
        } else if (const_type(e, &t)) {
            buf_puts(f->o, "_CAST(");
            buf_putc(f->o, arr ? '[' : '(');
            f->in_const = true;
            expr_list(f, &e->args, level);
            f->in_const = false;
            buf_putc(f->o, arr ? ']' : ')');
            buf_puts(f->o, ", ");
            ast_format_quoted(f->o, (const char *)t.p, t.len);
            buf_putc(f->o, ')');
        } else {
            buf_puts(f->o, arr ? "array(" : "tuple(");
            expr_list(f, &e->args, level);
            buf_putc(f->o, ')');
        }
        buf_free(&t);
        return;
    }
    const char *name = e->name;
    size_t nlen = strlen(name);
    bool distinct_suffix = false;
    if (!e->is_operator) {
        if (e->distinct) {
            /* f(DISTINCT x) is fDistinct(x) */
            size_t dl = nlen > 8 && !strcmp(name + nlen - 8, "Distinct") ? nlen - 8 : nlen;
            char base[128];
            if (dl >= sizeof base) {
                refuse(f, "this function name");
                return;
            }
            memcpy(base, name, dl);
            base[dl] = 0;
            if (!written_as(f, e, base)) {
                refuse(f, "calls written in another syntax");
                return;
            }
            buf_append(f->o, f->src + e->pos, dl);
            distinct_suffix = true;
        } else if (written_as(f, e, name)) {
            for (size_t i = 0; i < sizeof rewritten_calls / sizeof *rewritten_calls; i++)
                if (!strcasecmp(name, rewritten_calls[i])) {
                    refuse(f, "functions ClickHouse's parser rewrites (trim, position, date_add, …)");
                    return;
                }
            buf_append(f->o, f->src + e->pos, nlen); /* the name as written: COUNT stays */
        } else if ((!strcmp(name, "multiIf") || !strcmp(name, "caseWithExpression")) && written_as(f, e, "CASE")) {
            buf_puts(f->o, name);
        } else if (!strncmp(name, "toInterval", 10) && written_as(f, e, "INTERVAL")) {
            buf_puts(f->o, name);
        } else if (!strcmp(name, "CAST") && written_as(f, e, "CAST")) {
            buf_puts(f->o, name);
        } else {
            refuse(f, "calls written in another syntax (EXTRACT, x::T, …)");
            return;
        }
    } else {
        buf_puts(f->o, name);
    }
    if (distinct_suffix)
        buf_puts(f->o, "Distinct");
    if (e->has_params) {
        buf_putc(f->o, '(');
        expr_list(f, &e->params, level);
        buf_putc(f->o, ')');
    }
    buf_putc(f->o, '(');
    if (!e->is_operator && !e->args.n && written_with_star(f, e))
        buf_putc(f->o, '*');
    for (int i = 0; i < e->args.n; i++) {
        if (i)
            buf_puts(f->o, ", ");
        const ast *a = e->args.items[i];
        /* x IN (1, 2): the set stays a plain tuple; x IN ('a') is x IN 'a' */
        if (in_rhs && i == 1 && a->kind == AST_FUNC && !strcmp(a->name, "tuple") && a->bracket_syntax && !a->alias) {
            buf_putc(f->o, '(');
            expr_list(f, &a->args, level);
            buf_putc(f->o, ')');
            continue;
        }
        expr(f, a, level);
    }
    buf_putc(f->o, ')');
}

static void expr(sx *f, const ast *e, int level)
{
    if (f->why || !e)
        return;
    switch (e->kind) {
    case AST_LITERAL:
        if (e->lit == LIT_NULL && e->alias) {
            refuse(f, "an aliased NULL");
            return;
        }
        literal(f, e);
        break;
    case AST_IDENT:
        for (int i = 0; i < e->nparts; i++) {
            if (i)
                buf_putc(f->o, '.');
            ast_format_ident(f->o, e->parts[i]);
        }
        break;
    case AST_ASTERISK:
        if (e->nparts > 1 || e->except_cols.n || e->col_transforms.n || e->columns_matcher) {
            refuse(f, "db.table.* and column transformers");
            return;
        }
        if (e->nparts == 1) {
            ast_format_ident(f->o, e->parts[0]);
            buf_putc(f->o, '.');
        }
        buf_putc(f->o, '*');
        break;
    case AST_FUNC: call(f, e, level); break;
    case AST_LAMBDA:
        buf_puts(f->o, "lambda(tuple(");
        for (int i = 0; i < e->nparts; i++) {
            if (i)
                buf_puts(f->o, ", ");
            ast_format_ident(f->o, e->parts[i]);
        }
        buf_puts(f->o, "), ");
        expr(f, e->args.n ? e->args.items[0] : NULL, level);
        buf_putc(f->o, ')');
        break;
    case AST_SUBQUERY: subquery(f, e->sub, level); break;
    default: refuse(f, "this expression"); return;
    }
    if (e->alias) {
        buf_puts(f->o, " AS ");
        ast_format_ident(f->o, e->alias);
    }
}

/* KEYWORD item | KEYWORD\n    item,\n    item (at the current position) */
static void clause_list(sx *f, const char *kw, const ast_list *l, int level, bool order_items)
{
    buf_puts(f->o, kw);
    bool multi = l->n > 1;
    for (int i = 0; i < l->n && !f->why; i++) {
        if (multi) {
            if (i)
                buf_putc(f->o, ',');
            nl(f, level + 1);
        } else {
            buf_putc(f->o, ' ');
        }
        const ast *it = l->items[i];
        if (!order_items) {
            expr(f, it, level + 1);
            continue;
        }
        if (it->collate || it->fill_from || it->fill_to || it->fill_step || it->fill_staleness) {
            refuse(f, "ORDER BY … COLLATE and WITH FILL bounds");
            return;
        }
        const ast *k = it->sub;
        if (l->n == 1 && k && k->kind == AST_IDENT && k->nparts == 1 && !k->alias && !strcasecmp(k->parts[0], "all"))
            buf_puts(f->o, "ALL"); /* ORDER BY ALL */
        else
            expr(f, k, level + 1);
        buf_puts(f->o, it->desc ? " DESC" : " ASC");
        if (it->nulls)
            buf_puts(f->o, it->nulls > 0 ? " NULLS FIRST" : " NULLS LAST");
        if (it->with_fill)
            buf_puts(f->o, " WITH FILL");
    }
}

/* A table: name, function or subquery, after the keyword or comma that introduces it. */
static void table_elem(sx *f, const ast *t, int level)
{
    if (t->sub) {
        nl(f, level);
        subquery(f, t->sub, level);
    } else {
        buf_putc(f->o, ' ');
        if (t->table_name) {
            if (t->database) {
                ast_format_ident(f->o, t->database);
                buf_putc(f->o, '.');
            }
            ast_format_ident(f->o, t->table_name);
        } else {
            expr(f, t->table_func, level);
        }
    }
    if (t->alias) {
        buf_puts(f->o, " AS ");
        ast_format_ident(f->o, t->alias);
    }
}

/* \nKEYWORD expr, when e is given */
static void clause_expr(sx *f, const char *kw, const ast *e, int level)
{
    if (!e)
        return;
    nl(f, level);
    buf_puts(f->o, kw);
    expr(f, e, level);
}

static void from_clause(sx *f, const ast *t, int level)
{
    nl(f, level);
    buf_puts(f->o, "FROM");
    table_elem(f, t, level);
    bool final = t->final;
    for (const ast *j = t->join; j && !f->why; j = j->sub->join) {
        final |= j->sub->final;
        bool comma = j->pos >= 0 && (size_t)j->pos < f->src_len && f->src[j->pos] == ',';
        if (comma) {
            buf_putc(f->o, ',');
            table_elem(f, j->sub, level);
            continue;
        }
        if (!strcmp(j->join_kind, "FULL") ||
            (j->join_strictness && strcmp(j->join_strictness, "ALL") && strcmp(j->join_strictness, "ANY")) ||
            written_as(f, j, "GLOBAL")) {
            refuse(f, "FULL, SEMI, ANTI, ASOF and GLOBAL joins");
            return;
        }
        nl(f, level);
        if (!strcmp(j->join_kind, "CROSS"))
            buf_puts(f->o, "CROSS JOIN");
        else
            buf_printf(f->o, "%s %s JOIN", j->join_strictness ? j->join_strictness : "ALL", j->join_kind);
        table_elem(f, j->sub, level);
        if (j->on) {
            buf_puts(f->o, " ON ");
            expr(f, j->on, level);
        } else if (j->using_cols.n) {
            buf_puts(f->o, " USING (");
            expr_list(f, &j->using_cols, level);
            buf_putc(f->o, ')');
        }
    }
    if (final) {
        if (t->join) {
            refuse(f, "FINAL in a join");
            return;
        }
        nl(f, level);
        buf_puts(f->o, "FINAL");
    }
}

static bool uint_literal(const ast *e) { return e && e->kind == AST_LITERAL && e->lit == LIT_UINT && !e->alias; }

static void select_query(sx *f, const ast *s, int level)
{
    if (s->group_by_all || s->group_by_mod == GB_SETS || s->has_interpolate || s->windows.n || s->limit_by_offset ||
        (s->limit && !uint_literal(s->limit)) || (s->offset && !uint_literal(s->offset)) || (s->offset && !s->limit) ||
        (s->limit_by.n && !uint_literal(s->limit_by_limit))) {
        refuse(f, "GROUP BY ALL, GROUPING SETS, INTERPOLATE, WINDOW and non-constant LIMIT");
        return;
    }
    for (int i = 0; i < s->settings.n; i++) {
        const char *n = s->settings.items[i]->name;
        if (!strcasecmp(n, "limit") || !strcasecmp(n, "offset") || !strcmp(n, "enable_analyzer") ||
            !strcmp(n, "allow_experimental_analyzer")) {
            /* the old analyzer's EXPLAIN SYNTAX shows its AST rewrites */
            refuse(f, "the limit, offset and enable_analyzer settings");
            return;
        }
    }
    if (s->with.n) {
        buf_puts(f->o, "WITH");
        for (int i = 0; i < s->with.n && !f->why; i++) {
            const ast *w = s->with.items[i];
            if (i)
                buf_putc(f->o, ',');
            nl(f, level + 1);
            if (w->kind == AST_SUBQUERY && w->cte) {
                /* name AS (SELECT …) */
                ast_format_ident(f->o, w->alias);
                buf_puts(f->o, " AS");
                nl(f, level + 1);
                subquery(f, w->sub, level + 1);
            } else {
                expr(f, w, level + 1);
            }
        }
        nl(f, level);
    }
    clause_list(f, s->select_distinct ? "SELECT DISTINCT" : "SELECT", &s->select, level, false);
    if (s->from) {
        from_clause(f, s->from, level);
    } else {
        nl(f, level);
        buf_puts(f->o, "FROM system.one");
    }
    for (int i = 0; i < s->array_joins.n && !f->why; i++) {
        const ast *aj = s->array_joins.items[i];
        nl(f, level);
        clause_list(f, aj->join_kind && !strcmp(aj->join_kind, "LEFT") ? "LEFT ARRAY JOIN" : "ARRAY JOIN", &aj->args, level, false);
    }
    clause_expr(f, "PREWHERE ", s->prewhere, level);
    clause_expr(f, "WHERE ", s->where, level);
    if (s->group_by.n) {
        nl(f, level);
        clause_list(f, "GROUP BY", &s->group_by, level, false);
    }
    if (s->group_by_mod == GB_ROLLUP || s->group_by_mod == GB_CUBE) {
        nl(f, level + 1);
        buf_puts(f->o, s->group_by_mod == GB_ROLLUP ? "WITH ROLLUP" : "WITH CUBE");
    }
    if (s->with_totals) {
        nl(f, level + 1);
        buf_puts(f->o, "WITH TOTALS");
    }
    clause_expr(f, "HAVING ", s->having, level);
    if (s->order_by.n) {
        nl(f, level);
        clause_list(f, "ORDER BY", &s->order_by, level, true);
    }
    if (s->limit_by.n) {
        char kw[48];
        snprintf(kw, sizeof kw, "LIMIT %llu BY", (unsigned long long)s->limit_by_limit->u);
        nl(f, level);
        clause_list(f, kw, &s->limit_by, level, false);
    }
    if (s->limit) {
        nl(f, level);
        if (s->offset)
            buf_printf(f->o, "LIMIT %llu, %llu", (unsigned long long)s->offset->u, (unsigned long long)s->limit->u);
        else
            buf_printf(f->o, "LIMIT %llu", (unsigned long long)s->limit->u);
    }
    if (s->settings.n) {
        nl(f, level);
        buf_puts(f->o, "SETTINGS ");
        for (int i = 0; i < s->settings.n && !f->why; i++) {
            const ast *st = s->settings.items[i];
            if (i)
                buf_puts(f->o, ", ");
            buf_puts(f->o, st->name);
            buf_puts(f->o, " = ");
            if (!st->sub || st->sub->kind != AST_LITERAL || st->sub->lit == LIT_NULL) {
                refuse(f, "this setting value");
                return;
            }
            literal(f, st->sub);
        }
    }
}

/* ---- set operations ---- */

/* A group of parts joined by one operator (a run of the same UNION mode, or a binary
 * EXCEPT / INTERSECT); a leaf is a SELECT. */
typedef struct unode {
    int op; /* ast_set_op kind | SETOP_ALL or SETOP_DISTINCT; -1 for a leaf */
    const ast *leaf;
    int n;
    struct unode **items;
} unode;

static unode *leaf_node(const ast *s)
{
    unode *u = calloc(1, sizeof *u);
    u->op = -1;
    u->leaf = s;
    return u;
}

static unode *pair_node(int op, unode *a, unode *b)
{
    unode *u = calloc(1, sizeof *u);
    u->op = op;
    u->n = 2;
    u->items = malloc(2 * sizeof *u->items);
    u->items[0] = a;
    u->items[1] = b;
    return u;
}

static void node_free(unode *u)
{
    if (!u)
        return;
    for (int i = 0; i < u->n; i++)
        node_free(u->items[i]);
    free(u->items);
    free(u);
}

/* The written operator with its mode; the default modes written out. */
static int resolve_op(sx *f, int op)
{
    int kind = op & SETOP_KIND_MASK;
    if (op & (SETOP_ALL | SETOP_DISTINCT))
        return op;
    const char *m = f->modes[kind == SETOP_UNION ? 0 : kind == SETOP_EXCEPT ? 1 : 2];
    if (!strcasecmp(m, "ALL"))
        return kind | SETOP_ALL;
    if (!strcasecmp(m, "DISTINCT"))
        return kind | SETOP_DISTINCT;
    refuse(f, "a set operation without ALL or DISTINCT");
    return kind | SETOP_ALL;
}

static unode *build(sx *f, const ast *q);

static unode *operand(sx *f, const ast *q)
{
    if (q->kind == AST_UNION)
        return build(f, q);
    if (q->kind != AST_SELECT) {
        refuse(f, "this query");
        return leaf_node(q);
    }
    return leaf_node(q);
}

/* ClickHouse's grouping: INTERSECT binds the parts around it first (left to right); then
 * left to right, a UNION of the same mode extends the current list and any other operator
 * takes everything so far as its left side. A parenthesised UNION ALL inside a UNION ALL is
 * spliced in. */
static unode *build(sx *f, const ast *q)
{
    int n = q->args.n;
    unode *cur = NULL;
    int i = 0;
    while (i < n) {
        int op = i ? resolve_op(f, q->set_ops[i]) : -1;
        unode *x = operand(f, q->args.items[i]);
        for (i++; i < n && (q->set_ops[i] & SETOP_KIND_MASK) == SETOP_INTERSECT; i++)
            x = pair_node(resolve_op(f, q->set_ops[i]), x, operand(f, q->args.items[i]));
        if (!cur) {
            cur = x;
            continue;
        }
        bool list_op = (op & SETOP_KIND_MASK) == SETOP_UNION;
        if (list_op && cur->op == op) {
            cur->items = realloc(cur->items, (size_t)(cur->n + 1) * sizeof *cur->items);
            cur->items[cur->n++] = x;
        } else {
            cur = pair_node(op, cur, x);
        }
        if (list_op && x->op == op && op == (SETOP_UNION | SETOP_ALL) && x->leaf == NULL) {
            /* splice (… UNION ALL …) into this UNION ALL list */
            unode *last = cur->items[cur->n - 1];
            cur->n--;
            cur->items = realloc(cur->items, (size_t)(cur->n + last->n) * sizeof *cur->items);
            for (int k = 0; k < last->n; k++)
                cur->items[cur->n++] = last->items[k];
            free(last->items);
            free(last);
        }
    }
    return cur;
}

static void print_node(sx *f, const unode *u, int level)
{
    if (u->op < 0) {
        select_query(f, u->leaf, level);
        return;
    }
    static const char *const kinds[] = {"UNION", "EXCEPT", "INTERSECT"};
    for (int i = 0; i < u->n && !f->why; i++) {
        if (i) {
            nl(f, level);
            buf_printf(f->o, "%s %s", kinds[u->op & SETOP_KIND_MASK], u->op & SETOP_ALL ? "ALL" : "DISTINCT");
            nl(f, level);
        }
        const unode *x = u->items[i];
        if (x->op < 0 && x->leaf->with.n) {
            /* ClickHouse copies the first part's WITH into every part: not reproduced */
            refuse(f, "WITH in a set operation");
            return;
        }
        open_block(f, level);
        print_node(f, x, level + 1);
        close_block(f, level);
    }
}

static void query(sx *f, const ast *q, int level)
{
    if (f->why)
        return;
    if (q->kind == AST_SELECT) {
        select_query(f, q, level);
        return;
    }
    if (q->kind != AST_UNION) {
        refuse(f, "this query");
        return;
    }
    unode *u = build(f, q);
    if (!f->why)
        print_node(f, u, level);
    node_free(u);
}

bool ast_format_explain_syntax(buf *out, const ast *q, const char *src, size_t src_len, const char *const modes[3],
                               const char **why)
{
    sx f = {.o = out, .src = src, .src_len = src_len, .modes = modes};
    query(&f, q, 0);
    *why = f.why;
    return !f.why;
}
