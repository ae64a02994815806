/* Expressions as ClickHouse prints them in SHOW CREATE TABLE and system.columns
 * (a * 2, concat(b, 'y')): operators with their precedence, parentheses only where needed. */
#include "parse/ast.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

typedef struct op_def {
    const char *name;
    const char *text;
    int prec;
    int arity;
} op_def;

static const op_def ops[] = {
    {"or", " OR ", 1, 0},          {"and", " AND ", 2, 0},       {"not", "NOT ", 3, 1},
    {"equals", " = ", 4, 2},       {"notEquals", " != ", 4, 2},  {"less", " < ", 4, 2},
    {"greater", " > ", 4, 2},      {"lessOrEquals", " <= ", 4, 2}, {"greaterOrEquals", " >= ", 4, 2},
    {"like", " LIKE ", 4, 2},      {"notLike", " NOT LIKE ", 4, 2}, {"ilike", " ILIKE ", 4, 2},
    {"in", " IN ", 4, 2},          {"notIn", " NOT IN ", 4, 2},
    {"plus", " + ", 5, 2},         {"minus", " - ", 5, 2},
    {"multiply", " * ", 6, 2},     {"divide", " / ", 6, 2},      {"modulo", " % ", 6, 2},
    {"negate", "-", 7, 1},
};

/* ast_format_lambda_ch: every operator below another operator, and a lambda's body, in
 * parentheses, as ClickHouse prints a user-defined function's create_query
 * ((x, y) -> (x + (y * 2))). Per thread: set only for the length of that call. */
static _Thread_local bool paren_all;

static void format_lambda_params(buf *out, const ast *e)
{
    if (e->nparts == 1) {
        buf_puts(out, e->parts[0]);
    } else {
        buf_putc(out, '(');
        for (int i = 0; i < e->nparts; i++)
            buf_printf(out, "%s%s", i ? ", " : "", e->parts[i]);
        buf_putc(out, ')');
    }
    buf_puts(out, " -> ");
}

static const op_def *find_op(const ast *e)
{
    if (e->kind != AST_FUNC || e->has_params)
        return NULL;
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
        if (strcmp(ops[i].name, e->name) == 0 &&
            (ops[i].arity ? e->args.n == ops[i].arity : e->args.n >= 2))
            return &ops[i];
    return NULL;
}

void ast_format_ident(buf *out, const char *name)
{
    bool plain = name[0] && !(name[0] >= '0' && name[0] <= '9');
    for (const char *p = name; *p && plain; p++)
        plain = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '_';
    if (plain) {
        buf_puts(out, name);
        return;
    }
    buf_putc(out, '`');
    for (const char *p = name; *p; p++) {
        if (*p == '`' || *p == '\\')
            buf_putc(out, '\\');
        buf_putc(out, *p);
    }
    buf_putc(out, '`');
}

void ast_format_quoted(buf *out, const char *s, size_t n)
{
    buf_putc(out, '\'');
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        switch (c) {
        case '\'': buf_puts(out, "\\'"); break;
        case '\\': buf_puts(out, "\\\\"); break;
        case '\n': buf_puts(out, "\\n"); break;
        case '\t': buf_puts(out, "\\t"); break;
        case '\r': buf_puts(out, "\\r"); break;
        case 0: buf_puts(out, "\\0"); break;
        default: buf_putc(out, c);
        }
    }
    buf_putc(out, '\'');
}

static void fmt_expr(buf *out, const ast *e, int parent_prec);

void ast_format_expr_list(buf *out, const ast_list *l)
{
    for (int i = 0; i < l->n; i++) {
        if (i)
            buf_puts(out, ", ");
        fmt_expr(out, l->items[i], 0);
    }
}

static void fmt_expr(buf *out, const ast *e, int parent_prec)
{
    if (paren_all && e->kind == AST_LAMBDA && e->args.n) {
        /* the body in parentheses when it is an operator (x -> (x + 1)) */
        format_lambda_params(out, e);
        fmt_expr(out, e->args.items[0], 1);
        return;
    }
    switch (e->kind) {
    case AST_LITERAL:
        switch (e->lit) {
        case LIT_NULL: buf_puts(out, "NULL"); break;
        case LIT_BOOL: buf_puts(out, e->u ? "true" : "false"); break;
        case LIT_STRING: ast_format_quoted(out, e->str, e->str_len); break;
        case LIT_UINT: buf_printf(out, "%llu", (unsigned long long)e->u); break;
        case LIT_INT: buf_printf(out, "%lld", (long long)e->i); break;
        default: buf_puts(out, e->text ? e->text : "0"); break;
        }
        break;
    case AST_IDENT:
        for (int i = 0; i < e->nparts; i++) {
            if (i)
                buf_putc(out, '.');
            ast_format_ident(out, e->parts[i]);
        }
        break;
    case AST_FUNC: {
        const op_def *op = find_op(e);
        if (op) {
            bool paren = parent_prec && (op->prec <= parent_prec || paren_all);
            if (paren)
                buf_putc(out, '(');
            if (op->arity == 1) {
                buf_puts(out, op->text);
                fmt_expr(out, e->args.items[0], op->prec);
            } else {
                for (int i = 0; i < e->args.n; i++) {
                    if (i)
                        buf_puts(out, op->text);
                    /* left-associative: only the right operand of an equal-precedence
                     * operator needs parentheses */
                    fmt_expr(out, e->args.items[i], i == 0 ? op->prec - 1 : op->prec);
                }
            }
            if (paren)
                buf_putc(out, ')');
            break;
        }
        bool arr = strcmp(e->name, "array") == 0, tup = strcmp(e->name, "tuple") == 0;
        if ((arr || tup) && !e->has_params && (arr || e->args.n > 1)) {
            buf_putc(out, arr ? '[' : '(');
            ast_format_expr_list(out, &e->args);
            buf_putc(out, arr ? ']' : ')');
            break;
        }
        ast_format_ident(out, e->name);
        if (e->has_params) {
            buf_putc(out, '(');
            ast_format_expr_list(out, &e->params);
            buf_putc(out, ')');
        }
        buf_putc(out, '(');
        if (e->distinct)
            buf_puts(out, "DISTINCT ");
        ast_format_expr_list(out, &e->args);
        buf_putc(out, ')');
        break;
    }
    case AST_LAMBDA:
        format_lambda_params(out, e);
        if (e->args.n)
            fmt_expr(out, e->args.items[0], 0);
        break;
    default: ast_format_sql(out, e); break;
    }
}

void ast_format_expr(buf *out, const ast *e) { fmt_expr(out, e, 0); }

void ast_format_lambda_ch(buf *out, const ast *e)
{
    paren_all = true;
    fmt_expr(out, e, 0);
    paren_all = false;
}
