/* A SELECT as ClickHouse formats it in SHOW CREATE VIEW (multi-line) and in
 * system.tables.create_table_query (one line) — see ast.h, ast_format_query_ch.
 *
 * ClickHouse's rules reproduced here: clause keywords start lines; a list of one item
 * stays on the keyword's line, longer lists put each item on its own line indented by 4;
 * ORDER BY items carry ASC/DESC; LIMIT n OFFSET m is "LIMIT m, n"; tables without a
 * database get the view's; an operator inside another operator is parenthesised;
 * integral floats print as "1000.". Anything else (subqueries, CTEs, CASE, CAST, lambdas,
 * nested aliases, comma/CROSS/RIGHT/FULL joins, …) is refused, so the caller can say so
 * instead of printing a text ClickHouse would not. */
#include "parse/ast.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

typedef struct fmt {
    buf *out;
    const char *src; /* the text the AST's positions index */
    size_t src_len;
    const char *db;  /* for unqualified tables */
    bool one_line;
    bool ok;
} fmt;

static const struct {
    const char *name, *text;
} binary_ops[] = {
    {"plus", " + "},       {"minus", " - "},         {"multiply", " * "},          {"divide", " / "},
    {"modulo", " % "},     {"equals", " = "},        {"notEquals", " != "},        {"less", " < "},
    {"greater", " > "},    {"lessOrEquals", " <= "}, {"greaterOrEquals", " >= "}, {"like", " LIKE "},
    {"notLike", " NOT LIKE "}, {"ilike", " ILIKE "}, {"notILike", " NOT ILIKE "}, {"in", " IN "},
    {"notIn", " NOT IN "}, {"and", " AND "},         {"or", " OR "},
};

/* Functions whose written form ClickHouse prints differently from name(args). */
static const char *const refused_functions[] = {"CAST", "_CAST", "multiIf", "caseWithExpression", "tupleElement",
                                                "isNull", "isNotNull", "arrayElement", "lambda", "globalIn",
                                                "globalNotIn", "isDistinctFrom", "isNotDistinctFrom"};

static void expr(fmt *f, const ast *e, bool nested);

static void expr_list(fmt *f, const ast_list *l)
{
    for (int i = 0; i < l->n; i++) {
        if (i)
            buf_puts(f->out, ", ");
        expr(f, l->items[i], false);
    }
}

static void literal(fmt *f, const ast *e)
{
    switch (e->lit) {
    case LIT_NULL: buf_puts(f->out, "NULL"); break;
    case LIT_BOOL: buf_puts(f->out, e->u ? "true" : "false"); break;
    case LIT_STRING: ast_format_quoted(f->out, e->str, e->str_len); break;
    case LIT_UINT: buf_printf(f->out, "%llu", (unsigned long long)e->u); break;
    case LIT_INT: buf_printf(f->out, "%lld", (long long)e->i); break;
    case LIT_FLOAT:
        if (!ast_format_float_ch(f->out, e->f))
            f->ok = false;
        break;
    default: f->ok = false;
    }
}

bool ast_format_float_ch(buf *out, double v)
{
    if (!isfinite(v))
        return false;
    if (v == floor(v) && fabs(v) < 1e15) {
        buf_printf(out, "%.0f.", v);
        return true;
    }
    char b[40];
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(b, sizeof b, "%.*g", prec, v);
        if (strtod(b, NULL) == v)
            break;
    }
    if (strchr(b, 'e'))
        return false; /* ClickHouse's exponent form is not reproduced */
    buf_puts(out, b);
    return true;
}

static int binary_op(const ast *e)
{
    if (e->kind != AST_FUNC || e->has_params || e->distinct || e->args.n < 2)
        return -1;
    for (int i = 0; i < (int)(sizeof binary_ops / sizeof *binary_ops); i++)
        if (strcmp(binary_ops[i].name, e->name) == 0 &&
            (e->args.n == 2 || !strcmp(e->name, "and") || !strcmp(e->name, "or")))
            return i;
    return -1;
}

static bool is_unary_op(const ast *e)
{
    return e->kind == AST_FUNC && !e->has_params && e->args.n == 1 && (!strcmp(e->name, "not") || !strcmp(e->name, "negate"));
}

static void expr(fmt *f, const ast *e, bool nested)
{
    if (!f->ok || !e)
        return;
    if (e->alias) {
        f->ok = false; /* aliases are printed by the SELECT list only */
        return;
    }
    switch (e->kind) {
    case AST_LITERAL: literal(f, e); return;
    case AST_IDENT:
        for (int i = 0; i < e->nparts; i++) {
            if (i)
                buf_putc(f->out, '.');
            ast_format_ident(f->out, e->parts[i]);
        }
        return;
    case AST_PARAM: buf_printf(f->out, "{%s:%s}", e->name, e->str); return;
    case AST_FUNC: break;
    default: f->ok = false; return;
    }
    int op = binary_op(e);
    if (op >= 0 || is_unary_op(e)) {
        if (nested)
            buf_putc(f->out, '(');
        if (op >= 0) {
            for (int i = 0; i < e->args.n; i++) {
                if (i)
                    buf_puts(f->out, binary_ops[op].text);
                expr(f, e->args.items[i], true);
            }
        } else {
            buf_puts(f->out, strcmp(e->name, "not") == 0 ? "NOT " : "-");
            expr(f, e->args.items[0], true);
        }
        if (nested)
            buf_putc(f->out, ')');
        return;
    }
    bool arr = strcmp(e->name, "array") == 0, tup = strcmp(e->name, "tuple") == 0;
    if ((arr || tup) && e->bracket_syntax && !e->has_params && (arr || e->args.n > 1)) {
        buf_putc(f->out, arr ? '[' : '(');
        expr_list(f, &e->args);
        buf_putc(f->out, arr ? ']' : ')');
        return;
    }
    for (size_t i = 0; i < sizeof refused_functions / sizeof *refused_functions; i++)
        if (strcmp(e->name, refused_functions[i]) == 0) {
            f->ok = false;
            return;
        }
    /* Only a call written as name(…): other syntax the parser turned into a function
     * (EXTRACT, INTERVAL, ?:, …) is printed by ClickHouse its own way. */
    /* COUNT(), Sum(): case-insensitive names ClickHouse prints in their canonical case,
     * which the parse layer does not know. */
    bool has_lower = false;
    for (const char *c = e->name; *c; c++)
        has_lower |= *c >= 'a' && *c <= 'z';
    if (!has_lower || (e->name[0] >= 'A' && e->name[0] <= 'Z' && e->name[1] >= 'a' && e->name[1] <= 'z')) {
        f->ok = false;
        return;
    }
    size_t nl = strlen(e->name);
    if (e->pos < 0 || (size_t)e->pos + nl > f->src_len || memcmp(f->src + e->pos, e->name, nl) != 0) {
        f->ok = false;
        return;
    }
    buf_puts(f->out, e->name);
    if (e->has_params) {
        buf_putc(f->out, '(');
        expr_list(f, &e->params);
        buf_putc(f->out, ')');
    }
    buf_putc(f->out, '(');
    if (e->distinct)
        buf_puts(f->out, "DISTINCT ");
    for (int i = 0; i < e->args.n; i++) {
        if (i)
            buf_puts(f->out, ", ");
        const ast *a = e->args.items[i];
        if (a->kind == AST_ASTERISK && !a->nparts) {
            buf_putc(f->out, '*');
            continue;
        }
        expr(f, a, false);
    }
    buf_putc(f->out, ')');
}

/* KEYWORD item | KEYWORD\n    item,\n    item (one line: KEYWORD item, item) */
static void clause_list(fmt *f, const char *kw, const ast_list *l, bool order_items, bool select_items)
{
    buf_puts(f->out, kw);
    bool multi = l->n > 1 && !f->one_line;
    for (int i = 0; i < l->n && f->ok; i++) {
        buf_puts(f->out, multi ? (i ? ",\n    " : "\n    ") : (i ? ", " : " "));
        const ast *it = l->items[i];
        if (order_items) {
            if (it->with_fill || it->collate) {
                f->ok = false;
                return;
            }
            expr(f, it->sub, false);
            buf_puts(f->out, it->desc ? " DESC" : " ASC");
            if (it->nulls)
                buf_puts(f->out, it->nulls > 0 ? " NULLS FIRST" : " NULLS LAST");
        } else if (select_items && it->kind == AST_ASTERISK && !it->nparts && !it->alias && !it->except_cols.n) {
            buf_putc(f->out, '*');
        } else if (select_items && it->alias) {
            ast plain = *it;
            plain.alias = NULL;
            expr(f, &plain, false);
            buf_puts(f->out, " AS ");
            ast_format_ident(f->out, it->alias);
        } else {
            expr(f, it, false);
        }
    }
}

static void newline(fmt *f) { buf_putc(f->out, f->one_line ? ' ' : '\n'); }

static void table_ref(fmt *f, const ast *t)
{
    if (t->table_name) {
        ast_format_ident(f->out, t->database ? t->database : f->db);
        buf_putc(f->out, '.');
        ast_format_ident(f->out, t->table_name);
    } else if (t->table_func) {
        expr(f, t->table_func, false);
    } else {
        f->ok = false; /* a subquery */
        return;
    }
    if (t->alias) {
        buf_puts(f->out, " AS ");
        ast_format_ident(f->out, t->alias);
    }
    if (t->final)
        buf_puts(f->out, " FINAL");
    if (t->sample_size)
        f->ok = false; /* ClickHouse's SAMPLE ratio form is not reproduced */
}

static void from_clause(fmt *f, const ast *t)
{
    newline(f);
    buf_puts(f->out, "FROM ");
    table_ref(f, t);
    for (const ast *j = t->join; j && f->ok; j = j->sub->join) {
        if (j->join_strictness || (strcmp(j->join_kind, "INNER") && strcmp(j->join_kind, "LEFT"))) {
            f->ok = false; /* CROSS (or a comma), RIGHT, FULL, ANY/ALL/SEMI/ANTI/ASOF: not reproduced */
            return;
        }
        newline(f);
        buf_printf(f->out, "%s JOIN ", j->join_kind);
        table_ref(f, j->sub);
        if (j->on) {
            buf_puts(f->out, " ON ");
            expr(f, j->on, false);
        } else if (j->using_cols.n) {
            buf_puts(f->out, " USING (");
            expr_list(f, &j->using_cols);
            buf_putc(f->out, ')');
        } else {
            f->ok = false;
        }
    }
}

static bool uint_literal(const ast *e) { return e && e->kind == AST_LITERAL && e->lit == LIT_UINT && !e->alias; }

static void select_query(fmt *f, const ast *s)
{
    if (s->with.n || s->prewhere || s->group_by_all || s->group_by_mod != GB_PLAIN || s->settings.n ||
        (s->limit && !uint_literal(s->limit)) || (s->offset && !uint_literal(s->offset)) ||
        (s->offset && !s->limit) || s->limit_by_offset || (s->limit_by.n && (!uint_literal(s->limit_by_limit) || s->limit_by.n != 1))) {
        f->ok = false;
        return;
    }
    clause_list(f, s->select_distinct ? "SELECT DISTINCT" : "SELECT", &s->select, false, true);
    if (s->from)
        from_clause(f, s->from);
    if (s->where) {
        newline(f);
        buf_puts(f->out, "WHERE ");
        expr(f, s->where, false);
    }
    if (s->group_by.n) {
        newline(f);
        clause_list(f, "GROUP BY", &s->group_by, false, false);
    }
    if (s->with_totals)
        buf_puts(f->out, f->one_line ? " WITH TOTALS" : "\n    WITH TOTALS");
    if (s->having) {
        newline(f);
        buf_puts(f->out, "HAVING ");
        expr(f, s->having, false);
    }
    if (s->order_by.n) {
        newline(f);
        clause_list(f, "ORDER BY", &s->order_by, true, false);
    }
    if (s->limit_by.n) {
        newline(f);
        buf_printf(f->out, "LIMIT %llu BY ", (unsigned long long)s->limit_by_limit->u);
        expr(f, s->limit_by.items[0], false);
    }
    if (s->limit) {
        newline(f);
        if (s->offset)
            buf_printf(f->out, "LIMIT %llu, %llu", (unsigned long long)s->offset->u, (unsigned long long)s->limit->u);
        else
            buf_printf(f->out, "LIMIT %llu", (unsigned long long)s->limit->u);
    }
}

static void query(fmt *f, const ast *q)
{
    if (q->kind == AST_SELECT) {
        select_query(f, q);
    } else if (q->kind == AST_UNION) {
        for (int i = 0; i < q->args.n && f->ok; i++) {
            if (i) {
                /* ClickHouse parenthesises the parts around INTERSECT / EXCEPT: not done */
                int op = q->set_ops[i];
                const char *w = (op & SETOP_KIND_MASK) != SETOP_UNION ? NULL
                                : op & SETOP_ALL                      ? "UNION ALL"
                                : op & SETOP_DISTINCT                 ? "UNION DISTINCT"
                                                                      : "UNION";
                if (!w) {
                    f->ok = false;
                    break;
                }
                buf_printf(f->out, f->one_line ? " %s " : "\n%s\n", w);
            }
            query(f, q->args.items[i]);
        }
    } else {
        f->ok = false;
    }
}

bool ast_format_query_ch(buf *out, const ast *q, const char *src, size_t src_len, const char *db, bool one_line)
{
    fmt f = {.out = out, .src = src, .src_len = src_len, .db = db, .one_line = one_line, .ok = true};
    query(&f, q);
    return f.ok;
}
