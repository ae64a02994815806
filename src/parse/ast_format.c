/* Formatting of ASTs: ClickHouse column names, SQL text and EXPLAIN AST trees. */
#include "parse/ast.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ClickHouse's float text: the shortest round-trip digits, plain notation for decimal
 * exponents in [-6, 21), exponent form ("1e21", "1e-7") otherwise, and a trailing '.'
 * for integral values in plain notation ("1.", "10000."). */
static void format_float(buf *out, double v)
{
    if (isnan(v)) {
        buf_puts(out, signbit(v) ? "-nan" : "nan");
        return;
    }
    if (isinf(v)) {
        buf_puts(out, v < 0 ? "-inf" : "inf");
        return;
    }
    if (v == 0) {
        buf_puts(out, signbit(v) ? "-0." : "0.");
        return;
    }
    char tmp[64];
    int prec;
    for (prec = 1; prec <= 17; prec++) {
        snprintf(tmp, sizeof tmp, "%.*e", prec - 1, v);
        if (strtod(tmp, NULL) == v)
            break;
    }
    /* tmp = [-]d[.ddd]e[+-]XX */
    char digits[32];
    int nd = 0;
    const char *q = tmp;
    bool neg = false;
    if (*q == '-') {
        neg = true;
        q++;
    }
    for (; *q && *q != 'e'; q++)
        if (*q != '.')
            digits[nd++] = *q;
    int exp10 = atoi(q + 1);
    while (nd > 1 && digits[nd - 1] == '0')
        nd--;
    if (neg)
        buf_putc(out, '-');
    if (exp10 < -6 || exp10 >= 21) {
        buf_putc(out, digits[0]);
        if (nd > 1) {
            buf_putc(out, '.');
            buf_append(out, digits + 1, (size_t)nd - 1);
        }
        buf_printf(out, "e%d", exp10);
    } else if (exp10 < 0) {
        buf_puts(out, "0.");
        for (int k = 0; k < -exp10 - 1; k++)
            buf_putc(out, '0');
        buf_append(out, digits, (size_t)nd);
    } else {
        for (int k = 0; k <= exp10; k++)
            buf_putc(out, k < nd ? digits[k] : '0');
        buf_putc(out, '.');
        if (nd > exp10 + 1)
            buf_append(out, digits + exp10 + 1, (size_t)(nd - exp10 - 1));
    }
}

static void format_string(buf *out, const char *s, size_t n)
{
    buf_putc(out, '\'');
    for (size_t k = 0; k < n; k++) {
        unsigned char c = (unsigned char)s[k];
        switch (c) {
        case '\'': buf_puts(out, "\\'"); break;
        case '\\': buf_puts(out, "\\\\"); break;
        case '\n': buf_puts(out, "\\n"); break;
        case '\t': buf_puts(out, "\\t"); break;
        case '\r': buf_puts(out, "\\r"); break;
        case '\b': buf_puts(out, "\\b"); break;
        case '\f': buf_puts(out, "\\f"); break;
        case 0: buf_puts(out, "\\0"); break;
        default: buf_putc(out, (char)c); break;
        }
    }
    buf_putc(out, '\'');
}

static void format_literal(buf *out, const ast *e)
{
    switch (e->lit) {
    case LIT_NULL: buf_puts(out, "NULL"); break;
    case LIT_BOOL: buf_puts(out, e->u ? "true" : "false"); break;
    case LIT_UINT: buf_printf(out, "%llu", (unsigned long long)e->u); break;
    case LIT_INT: buf_printf(out, "%lld", (long long)e->i); break;
    case LIT_FLOAT: format_float(out, e->f); break;
    case LIT_STRING: format_string(out, e->str, e->str_len); break;
    case LIT_ARRAY: buf_puts(out, "[]"); break;
    }
}

static void format_expr(buf *out, const ast *e, bool sql, bool top);

static void format_list(buf *out, const ast_list *l, bool sql)
{
    for (int k = 0; k < l->n; k++) {
        if (k)
            buf_puts(out, ", ");
        format_expr(out, l->items[k], sql, false);
    }
}

static void format_bound(buf *out, int bound, const ast *off, bool sql)
{
    switch (bound) {
    case WB_UNBOUNDED_PRECEDING: buf_puts(out, "UNBOUNDED PRECEDING"); break;
    case WB_UNBOUNDED_FOLLOWING: buf_puts(out, "UNBOUNDED FOLLOWING"); break;
    case WB_CURRENT_ROW: buf_puts(out, "CURRENT ROW"); break;
    default:
        format_expr(out, off, sql, false);
        buf_puts(out, bound == WB_PRECEDING ? " PRECEDING" : " FOLLOWING");
        break;
    }
}

/* (base PARTITION BY … ORDER BY … frame), as ClickHouse names window function columns:
 * ORDER BY items always carry ASC/DESC and frames always the BETWEEN form. */
static void format_window(buf *out, const ast *w, bool sql)
{
    buf_putc(out, '(');
    const char *sep = "";
    if (w->window_base) {
        buf_puts(out, w->window_base);
        sep = " ";
    }
    if (w->partition_by.n) {
        buf_puts(out, sep);
        buf_puts(out, "PARTITION BY ");
        format_list(out, &w->partition_by, sql);
        sep = " ";
    }
    if (w->order_by.n) {
        buf_puts(out, sep);
        buf_puts(out, "ORDER BY ");
        for (int k = 0; k < w->order_by.n; k++) {
            const ast *o = w->order_by.items[k];
            if (k)
                buf_puts(out, ", ");
            format_expr(out, o->sub, sql, false);
            buf_puts(out, o->desc ? " DESC" : " ASC");
            if (o->nulls)
                buf_puts(out, o->nulls > 0 ? " NULLS FIRST" : " NULLS LAST");
        }
        sep = " ";
    }
    if (w->frame_kind) {
        buf_puts(out, sep);
        buf_puts(out, w->frame_kind == WF_ROWS ? "ROWS" : w->frame_kind == WF_RANGE ? "RANGE" : "GROUPS");
        buf_puts(out, " BETWEEN ");
        format_bound(out, w->frame_start, w->frame_start_off, sql);
        buf_puts(out, " AND ");
        format_bound(out, w->frame_end, w->frame_end_off, sql);
    }
    buf_putc(out, ')');
}

static void format_parts(buf *out, int n, const char *const *parts)
{
    for (int k = 0; k < n; k++) {
        if (k)
            buf_putc(out, '.');
        buf_puts(out, parts[k]);
    }
}

static void format_expr(buf *out, const ast *e, bool sql, bool top)
{
    if (!e)
        return;
    if (e->alias && !sql) {
        buf_puts(out, e->alias);
        return;
    }
    switch (e->kind) {
    case AST_LITERAL: format_literal(out, e); break;
    case AST_IDENT: format_parts(out, e->nparts, e->parts); break;
    case AST_ASTERISK:
        if (e->nparts) {
            format_parts(out, e->nparts, e->parts);
            buf_putc(out, '.');
        }
        if (e->columns_matcher) {
            buf_puts(out, "COLUMNS(");
            format_list(out, &e->matcher_cols, true);
            buf_putc(out, ')');
        } else {
            buf_putc(out, '*');
        }
        if (e->except_cols.n) {
            buf_puts(out, e->except_strict ? " EXCEPT STRICT (" : " EXCEPT (");
            format_list(out, &e->except_cols, true);
            buf_putc(out, ')');
        }
        for (int i = 0; i < e->col_transforms.n; i++) {
            const ast *t = e->col_transforms.items[i];
            buf_printf(out, " %s%s(", t->name, t->distinct ? " STRICT " : "");
            if (!strcmp(t->name, "APPLY") && t->args.items[0]->kind == AST_FUNC) {
                const ast *f = t->args.items[0];
                buf_puts(out, f->name);
                if (f->has_params) {
                    buf_putc(out, '(');
                    format_list(out, &f->params, true);
                    buf_putc(out, ')');
                }
            } else {
                format_list(out, &t->args, true);
            }
            buf_putc(out, ')');
        }
        break;
    case AST_FUNC:
        if (!sql && !strcmp(e->name, "tuple") && !e->has_params && e->args.n == 1) {
            /* tuple(x) names a result column "(x)", as in ClickHouse */
            buf_putc(out, '(');
            format_list(out, &e->args, sql);
            buf_putc(out, ')');
            break;
        }
        if (e->bracket_syntax || ((!strcmp(e->name, "array") || !strcmp(e->name, "tuple")) && !e->has_params &&
                                  (strcmp(e->name, "tuple") || e->args.n != 1))) {
            bool arr = !strcmp(e->name, "array");
            if (!arr && e->args.n == 1) {
                buf_puts(out, "tuple(");
                format_list(out, &e->args, sql);
                buf_putc(out, ')');
                break;
            }
            buf_putc(out, arr ? '[' : '(');
            format_list(out, &e->args, sql);
            buf_putc(out, arr ? ']' : ')');
            break;
        }
        buf_puts(out, e->name);
        if (e->has_params) {
            buf_putc(out, '(');
            format_list(out, &e->params, sql);
            buf_putc(out, ')');
        }
        buf_putc(out, '(');
        format_list(out, &e->args, sql);
        buf_putc(out, ')');
        if (e->nulls_action && sql) /* not in a column's name, as ClickHouse */
            buf_puts(out, e->nulls_action == 'I' ? " IGNORE NULLS" : " RESPECT NULLS");
        if (e->over_name) {
            buf_puts(out, " OVER ");
            buf_puts(out, e->over_name);
        } else if (e->over) {
            buf_puts(out, " OVER ");
            format_window(out, e->over, sql);
        }
        break;
    case AST_LAMBDA:
        buf_puts(out, "lambda(tuple(");
        for (int k = 0; k < e->nparts; k++) {
            if (k)
                buf_puts(out, ", ");
            buf_puts(out, e->parts[k]);
        }
        buf_puts(out, "), ");
        if (e->args.n)
            format_expr(out, e->args.items[0], sql, false);
        buf_putc(out, ')');
        break;
    case AST_SUBQUERY:
        if (sql) {
            buf_putc(out, '(');
            ast_format_sql(out, e->sub);
            buf_putc(out, ')');
        } else {
            buf_puts(out, "_subquery");
        }
        break;
    case AST_PARAM: buf_printf(out, "{%s:%s}", e->name, e->str); break;
    default:
        ast_format_sql(out, e);
        break;
    }
    if (sql && e->alias && (!top || true)) {
        buf_puts(out, " AS ");
        buf_puts(out, e->alias);
    }
}

void ast_format_name(buf *out, const ast *e) { format_expr(out, e, false, true); }

static void format_table(buf *out, const ast *t)
{
    for (; t; t = t->join ? t->join->sub : NULL) {
        if (t->table_name) {
            if (t->database)
                buf_printf(out, "%s.", t->database);
            buf_puts(out, t->table_name);
        } else if (t->table_func) {
            format_expr(out, t->table_func, true, true);
        } else if (t->sub) {
            buf_putc(out, '(');
            ast_format_sql(out, t->sub);
            buf_putc(out, ')');
        }
        if (t->alias)
            buf_printf(out, " AS %s", t->alias);
        if (t->final)
            buf_puts(out, " FINAL");
        if (t->sample_size)
            buf_printf(out, " SAMPLE %s", t->sample_size);
        if (t->sample_offset)
            buf_printf(out, " OFFSET %s", t->sample_offset);
        const ast *j = t->join;
        if (!j)
            break;
        if (!strcmp(j->join_kind, "CROSS"))
            buf_puts(out, " CROSS JOIN ");
        else
            buf_printf(out, " %s%s%s JOIN ", j->join_kind, j->join_strictness ? " " : "",
                       j->join_strictness ? j->join_strictness : "");
        if (j->on || j->using_cols.n) {
            /* the right table is printed by the next iteration; print ON/USING after it */
            format_table(out, j->sub->join ? NULL : j->sub);
            if (j->sub->join) {
                const ast *r = j->sub;
                if (r->table_name)
                    buf_printf(out, "%s%s%s", r->database ? r->database : "", r->database ? "." : "", r->table_name);
                else if (r->table_func)
                    format_expr(out, r->table_func, true, true);
                else if (r->sub) {
                    buf_putc(out, '(');
                    ast_format_sql(out, r->sub);
                    buf_putc(out, ')');
                }
                if (r->alias)
                    buf_printf(out, " AS %s", r->alias);
            }
            if (j->on) {
                buf_puts(out, " ON ");
                format_expr(out, j->on, true, true);
            } else {
                buf_puts(out, " USING (");
                format_list(out, &j->using_cols, true);
                buf_putc(out, ')');
            }
            if (!j->sub->join)
                return;
            t = j->sub;
            /* continue with the next join of the right table */
            const ast *nj = t->join;
            (void)nj;
            continue;
        }
    }
}

static void format_settings(buf *out, const ast_list *l)
{
    for (int k = 0; k < l->n; k++) {
        buf_printf(out, "%s%s = ", k ? ", " : "", l->items[k]->name);
        format_expr(out, l->items[k]->sub, true, true);
    }
}

void ast_format_set_op(buf *out, int op)
{
    static const char *const kinds[] = {" UNION", " EXCEPT", " INTERSECT"};
    buf_puts(out, kinds[op & SETOP_KIND_MASK]);
    buf_puts(out, op & SETOP_ALL ? " ALL " : op & SETOP_DISTINCT ? " DISTINCT " : " ");
}

void ast_format_sql(buf *out, const ast *e)
{
    if (!e)
        return;
    switch (e->kind) {
    case AST_SELECT:
        if (e->with.n) {
            buf_puts(out, "WITH ");
            for (int k = 0; k < e->with.n; k++) {
                const ast *w = e->with.items[k];
                if (k)
                    buf_puts(out, ", ");
                if (w->kind == AST_SUBQUERY) {
                    buf_printf(out, "%s AS (", w->alias);
                    ast_format_sql(out, w->sub);
                    buf_putc(out, ')');
                } else {
                    format_expr(out, w, true, true);
                }
            }
            buf_putc(out, ' ');
        }
        buf_puts(out, e->select_distinct ? "SELECT DISTINCT " : "SELECT ");
        format_list(out, &e->select, true);
        if (e->from) {
            buf_puts(out, " FROM ");
            format_table(out, e->from);
        }
        for (int k = 0; k < e->array_joins.n; k++) {
            const ast *aj = e->array_joins.items[k];
            buf_puts(out, strcmp(aj->join_kind, "LEFT") == 0 ? " LEFT ARRAY JOIN " : " ARRAY JOIN ");
            format_list(out, &aj->args, true);
        }
        if (e->prewhere) {
            buf_puts(out, " PREWHERE ");
            format_expr(out, e->prewhere, true, true);
        }
        if (e->where) {
            buf_puts(out, " WHERE ");
            format_expr(out, e->where, true, true);
        }
        if (e->group_by_all)
            buf_puts(out, " GROUP BY ALL");
        else if (e->group_by_mod == GB_SETS) {
            buf_puts(out, " GROUP BY GROUPING SETS (");
            for (int i = 0; i < e->grouping_sets.n; i++) {
                buf_puts(out, i ? ", (" : "(");
                format_list(out, &e->grouping_sets.items[i]->args, true);
                buf_putc(out, ')');
            }
            buf_putc(out, ')');
        } else if (e->group_by.n) {
            bool fn = e->group_by_mod != GB_PLAIN && !e->group_by_with;
            buf_puts(out, " GROUP BY ");
            if (fn)
                buf_puts(out, e->group_by_mod == GB_ROLLUP ? "ROLLUP(" : "CUBE(");
            format_list(out, &e->group_by, true);
            if (fn)
                buf_putc(out, ')');
            else if (e->group_by_mod != GB_PLAIN)
                buf_puts(out, e->group_by_mod == GB_ROLLUP ? " WITH ROLLUP" : " WITH CUBE");
        }
        if (e->with_totals)
            buf_puts(out, " WITH TOTALS");
        if (e->having) {
            buf_puts(out, " HAVING ");
            format_expr(out, e->having, true, true);
        }
        if (e->order_by.n) {
            buf_puts(out, " ORDER BY ");
            for (int k = 0; k < e->order_by.n; k++) {
                const ast *o = e->order_by.items[k];
                if (k)
                    buf_puts(out, ", ");
                format_expr(out, o->sub, true, true);
                if (o->desc)
                    buf_puts(out, " DESC");
                if (o->nulls)
                    buf_puts(out, o->nulls > 0 ? " NULLS FIRST" : " NULLS LAST");
            }
        }
        if (e->limit_by.n) {
            buf_puts(out, " LIMIT ");
            if (e->limit_by_offset) {
                format_expr(out, e->limit_by_offset, true, true);
                buf_puts(out, ", ");
            }
            format_expr(out, e->limit_by_limit, true, true);
            buf_puts(out, " BY ");
            format_list(out, &e->limit_by, true);
        }
        if (e->limit) {
            buf_puts(out, " LIMIT ");
            if (e->offset) {
                format_expr(out, e->offset, true, true);
                buf_puts(out, ", ");
            }
            format_expr(out, e->limit, true, true);
        } else if (e->offset) {
            buf_puts(out, " OFFSET ");
            format_expr(out, e->offset, true, true);
        }
        if (e->settings.n) {
            buf_puts(out, " SETTINGS ");
            format_settings(out, &e->settings);
        }
        break;
    case AST_UNION:
        for (int k = 0; k < e->args.n; k++) {
            if (k)
                ast_format_set_op(out, e->set_ops[k]);
            bool paren = e->args.items[k]->kind == AST_UNION;
            if (paren)
                buf_putc(out, '(');
            ast_format_sql(out, e->args.items[k]);
            if (paren)
                buf_putc(out, ')');
        }
        break;
    case AST_STMT_SELECT:
        ast_format_sql(out, e->sub);
        if (e->outfile) {
            buf_puts(out, " INTO OUTFILE ");
            format_string(out, e->outfile, strlen(e->outfile));
        }
        if (e->format)
            buf_printf(out, " FORMAT %s", e->format);
        if (e->settings.n) {
            buf_puts(out, " SETTINGS ");
            format_settings(out, &e->settings);
        }
        break;
    case AST_STMT_INSERT:
        buf_puts(out, "INSERT INTO ");
        if (e->table_func) {
            buf_puts(out, "FUNCTION ");
            format_expr(out, e->table_func, true, true);
        } else {
            buf_printf(out, "%s%s%s", e->database ? e->database : "", e->database ? "." : "", e->table_name);
        }
        if (e->insert_columns.n) {
            buf_puts(out, " (");
            format_list(out, &e->insert_columns, true);
            buf_putc(out, ')');
        }
        if (e->sub) {
            buf_putc(out, ' ');
            ast_format_sql(out, e->sub);
        } else if (e->format) {
            buf_printf(out, !strcmp(e->format, "Values") ? " VALUES" : " FORMAT %s", e->format);
        }
        break;
    case AST_STMT_SET:
        buf_puts(out, "SET ");
        format_settings(out, &e->settings);
        break;
    case AST_STMT_EXPLAIN:
        buf_printf(out, "EXPLAIN %s ", e->explain_kind);
        ast_format_sql(out, e->sub);
        break;
    case AST_STMT_DESCRIBE:
        buf_puts(out, "DESCRIBE TABLE ");
        format_table(out, e->sub);
        break;
    case AST_TABLE: format_table(out, e); break;
    case AST_STMT_USE: buf_printf(out, "USE %s", e->database); break;
    case AST_STMT_DROP:
        buf_printf(out, "DROP %s %s", e->show_what, e->if_exists ? "IF EXISTS " : "");
        if (e->table_name)
            buf_printf(out, "%s%s%s", e->database ? e->database : "", e->database ? "." : "", e->table_name);
        else
            buf_puts(out, e->database);
        break;
    case AST_STMT_SHOW: buf_printf(out, "SHOW %s", e->show_what); break;
    case AST_STMT_SYSTEM: buf_printf(out, "SYSTEM %s", e->str); break;
    case AST_STMT_CREATE_TABLE:
        buf_printf(out, "CREATE TABLE %s%s%s%s", e->if_not_exists ? "IF NOT EXISTS " : "",
                   e->database ? e->database : "", e->database ? "." : "", e->table_name);
        if (e->columns.n) {
            buf_puts(out, " (");
            for (int k = 0; k < e->columns.n; k++) {
                const ast *c = e->columns.items[k];
                buf_printf(out, "%s%s %s", k ? ", " : "", c->name, c->str ? c->str : "");
                if (c->default_kind) {
                    buf_printf(out, " %s ", c->default_kind);
                    format_expr(out, c->sub, true, true);
                }
            }
            buf_putc(out, ')');
        }
        if (e->engine) {
            buf_puts(out, " ENGINE = ");
            format_expr(out, e->engine, true, true);
        }
        if (e->order_by_key.n) {
            buf_puts(out, " ORDER BY (");
            format_list(out, &e->order_by_key, true);
            buf_putc(out, ')');
        }
        if (e->as_select) {
            buf_puts(out, e->create_empty ? " EMPTY AS " : " AS ");
            ast_format_sql(out, e->as_select);
        }
        break;
    case AST_STMT_ALTER:
        if (e->str || !e->args.n) {
            buf_printf(out, "ALTER TABLE %s%s%s %s", e->database ? e->database : "", e->database ? "." : "",
                       e->table_name, e->str ? e->str : "");
            break;
        }
        if (e->args.n == 1 && !strcmp(e->args.items[0]->name, "LIGHTWEIGHT DELETE")) {
            buf_printf(out, "DELETE FROM %s%s%s WHERE ", e->database ? e->database : "", e->database ? "." : "",
                       e->table_name);
            format_expr(out, e->args.items[0]->where, true, true);
            break;
        }
        buf_printf(out, "ALTER TABLE %s%s%s ", e->database ? e->database : "", e->database ? "." : "", e->table_name);
        for (int k = 0; k < e->args.n; k++) {
            if (k)
                buf_puts(out, ", ");
            ast_format_alter_cmd(out, e->args.items[k]);
        }
        break;
    default:
        if (e->kind <= AST_PARAM)
            format_expr(out, e, true, true);
        else
            buf_puts(out, "<statement>");
        break;
    }
}

/* ---- EXPLAIN AST ---- */

static void dump_line(buf *out, int indent, const char *text, int children, const char *alias)
{
    for (int k = 0; k < indent; k++)
        buf_putc(out, ' ');
    buf_puts(out, text);
    if (alias)
        buf_printf(out, " (alias %s)", alias);
    if (children)
        buf_printf(out, " (children %d)", children);
    buf_putc(out, '\n');
}

static bool dump_list(buf *out, const ast_list *l, int indent)
{
    bool ok = true;
    dump_line(out, indent, "ExpressionList", l->n, NULL);
    for (int k = 0; k < l->n; k++)
        ok &= ast_dump(out, l->items[k], indent + 1);
    return ok;
}

static void dump_literal_value(buf *out, const ast *e)
{
    switch (e->lit) {
    case LIT_NULL: buf_puts(out, "NULL"); break;
    case LIT_BOOL: buf_printf(out, "Bool_%d", (int)e->u); break;
    case LIT_UINT: buf_printf(out, "UInt64_%llu", (unsigned long long)e->u); break;
    case LIT_INT: buf_printf(out, "Int64_%lld", (long long)e->i); break;
    case LIT_FLOAT: buf_puts(out, "Float64_"); format_float(out, e->f); break;
    case LIT_STRING: format_string(out, e->str, e->str_len); break;
    default: break;
    }
}

static int table_count(const ast *t)
{
    int n = 0;
    for (; t; t = t->join ? t->join->sub : NULL)
        n++;
    return n;
}

static bool dump_table_expr(buf *out, const ast *t, int indent)
{
    bool ok = true;
    dump_line(out, indent, "TableExpression", 1, NULL);
    buf name = {0};
    if (t->table_name) {
        buf_printf(&name, "TableIdentifier %s%s%s", t->database ? t->database : "", t->database ? "." : "",
                   t->table_name);
        dump_line(out, indent + 1, buf_cstr(&name), 0, t->alias);
    } else if (t->table_func) {
        ast f = *t->table_func;
        f.alias = t->alias;
        ok = ast_dump(out, &f, indent + 1);
    } else if (t->sub) {
        dump_line(out, indent + 1, "Subquery", 1, t->alias);
        ok = ast_dump(out, t->sub, indent + 2);
    }
    buf_free(&name);
    return ok && !t->final && !t->sample_size; /* FINAL, SAMPLE: not in this dump */
}

bool ast_dump(buf *out, const ast *e, int indent)
{
    if (!e)
        return true;
    bool ok = true;
    buf t = {0};
    switch (e->kind) {
    case AST_LITERAL:
        buf_puts(&t, "Literal ");
        dump_literal_value(&t, e);
        dump_line(out, indent, buf_cstr(&t), 0, e->alias);
        break;
    case AST_IDENT:
        buf_puts(&t, "Identifier ");
        format_parts(&t, e->nparts, e->parts);
        dump_line(out, indent, buf_cstr(&t), 0, e->alias);
        break;
    case AST_ASTERISK:
        dump_line(out, indent, e->nparts ? "QualifiedAsterisk" : "Asterisk", 0, NULL);
        /* column transformers are not dumped */
        ok &= !e->except_cols.n && !e->col_transforms.n && !e->columns_matcher;
        break;
    case AST_PARAM:
        buf_printf(&t, "QueryParameter %s:%s", e->name, e->str);
        dump_line(out, indent, buf_cstr(&t), 0, e->alias);
        break;
    case AST_FUNC: {
        bool lit_arr = e->bracket_syntax;
        for (int k = 0; lit_arr && k < e->args.n; k++)
            if (e->args.items[k]->kind != AST_LITERAL)
                lit_arr = false;
        if (lit_arr && e->args.n) {
            buf_puts(&t, !strcmp(e->name, "array") ? "Literal Array_[" : "Literal Tuple_(");
            for (int k = 0; k < e->args.n; k++) {
                if (k)
                    buf_puts(&t, ", ");
                dump_literal_value(&t, e->args.items[k]);
            }
            buf_putc(&t, !strcmp(e->name, "array") ? ']' : ')');
            dump_line(out, indent, buf_cstr(&t), 0, e->alias);
            break;
        }
        if (e->over || e->over_name)
            ok = false; /* the window definition is not dumped */
        buf_printf(&t, "Function %s", e->name);
        dump_line(out, indent, buf_cstr(&t), 1 + e->has_params, e->alias);
        ok &= dump_list(out, &e->args, indent + 1);
        if (e->has_params)
            ok &= dump_list(out, &e->params, indent + 1);
        break;
    }
    case AST_LAMBDA: {
        dump_line(out, indent, "Function lambda", 1, e->alias);
        dump_line(out, indent + 1, "ExpressionList", 2, NULL);
        dump_line(out, indent + 2, "Function tuple", 1, NULL);
        dump_line(out, indent + 3, "ExpressionList", e->nparts, NULL);
        for (int k = 0; k < e->nparts; k++) {
            buf_free(&t);
            buf_printf(&t, "Identifier %s", e->parts[k]);
            dump_line(out, indent + 4, buf_cstr(&t), 0, NULL);
        }
        if (e->args.n)
            ok &= ast_dump(out, e->args.items[0], indent + 2);
        break;
    }
    case AST_SUBQUERY:
        dump_line(out, indent, "Subquery", 1, e->alias);
        ok &= ast_dump(out, e->sub, indent + 1);
        break;
    case AST_SELECT: {
        int n = 1 + (e->with.n > 0) + (e->from != NULL) + (e->prewhere != NULL) + (e->where != NULL) +
                (e->group_by.n > 0) + (e->having != NULL) + (e->order_by.n > 0) + (e->limit_by.n ? 2 : 0) +
                (e->offset != NULL) + (e->limit != NULL) + (e->settings.n > 0);
        dump_line(out, indent, "SelectQuery", n, NULL);
        /* clauses this dump does not show as ClickHouse does: refused, not left out */
        if (e->array_joins.n || e->group_by_mod == GB_SETS || e->windows.n || e->has_interpolate || e->limit_by_offset)
            ok = false;
        for (int k = 0; k < e->order_by.n; k++)
            if (e->order_by.items[k]->with_fill || e->order_by.items[k]->collate)
                ok = false;
        if (e->with.n)
            ok &= dump_list(out, &e->with, indent + 1);
        ok &= dump_list(out, &e->select, indent + 1);
        if (e->from) {
            dump_line(out, indent + 1, "TablesInSelectQuery", table_count(e->from), NULL);
            const ast *j = NULL;
            for (const ast *tb = e->from; tb; tb = tb->join ? tb->join->sub : NULL) {
                int ch = 1 + (j != NULL);
                dump_line(out, indent + 2, "TablesInSelectQueryElement", ch, NULL);
                ok &= dump_table_expr(out, tb, indent + 3);
                if (j) {
                    int jc = (j->on != NULL) + (j->using_cols.n > 0);
                    dump_line(out, indent + 3, "TableJoin", jc, NULL);
                    if (j->on)
                        ok &= ast_dump(out, j->on, indent + 4);
                    else if (j->using_cols.n)
                        ok &= dump_list(out, &j->using_cols, indent + 4);
                }
                j = tb->join;
            }
        }
        if (e->prewhere)
            ok &= ast_dump(out, e->prewhere, indent + 1);
        if (e->where)
            ok &= ast_dump(out, e->where, indent + 1);
        if (e->group_by.n)
            ok &= dump_list(out, &e->group_by, indent + 1);
        if (e->having)
            ok &= ast_dump(out, e->having, indent + 1);
        if (e->order_by.n) {
            dump_line(out, indent + 1, "ExpressionList", e->order_by.n, NULL);
            for (int k = 0; k < e->order_by.n; k++) {
                dump_line(out, indent + 2, "OrderByElement", 1, NULL);
                ok &= ast_dump(out, e->order_by.items[k]->sub, indent + 3);
            }
        }
        if (e->limit_by.n) {
            ok &= ast_dump(out, e->limit_by_limit, indent + 1);
            ok &= dump_list(out, &e->limit_by, indent + 1);
        }
        if (e->offset)
            ok &= ast_dump(out, e->offset, indent + 1);
        if (e->limit)
            ok &= ast_dump(out, e->limit, indent + 1);
        if (e->settings.n)
            dump_line(out, indent + 1, "Set", 0, NULL);
        break;
    }
    case AST_UNION:
        /* ClickHouse nests INTERSECT / EXCEPT and mixed UNION modes in other nodes */
        for (int k = 1; k < e->args.n; k++)
            ok &= e->set_ops[k] == (SETOP_UNION | SETOP_ALL);
        dump_line(out, indent, "SelectWithUnionQuery", 1, NULL);
        dump_line(out, indent + 1, "ExpressionList", e->args.n, NULL);
        for (int k = 0; k < e->args.n; k++) {
            const ast *c = e->args.items[k];
            if (c->kind == AST_UNION)
                ok &= ast_dump(out, c, indent + 2);
            else
                ok &= ast_dump(out, c, indent + 2);
        }
        break;
    case AST_STMT_SELECT: {
        const ast *q = e->sub;
        if (q && q->kind == AST_SELECT) {
            int extra = (e->format != NULL) + (e->settings.n > 0);
            dump_line(out, indent, "SelectWithUnionQuery", 1 + extra, NULL);
            dump_line(out, indent + 1, "ExpressionList", 1, NULL);
            ok &= ast_dump(out, q, indent + 2);
            if (e->format) {
                buf_printf(&t, "Identifier %s", e->format);
                dump_line(out, indent + 1, buf_cstr(&t), 0, NULL);
            }
            if (e->settings.n)
                dump_line(out, indent + 1, "Set", 0, NULL);
        } else {
            ok &= ast_dump(out, q, indent);
        }
        break;
    }
    case AST_STMT_INSERT: {
        /* ClickHouse's id is "InsertQuery" + ' ' + database + ' ' + table, both empty here
         * (they are the children) */
        bool tf = e->table_func != NULL;
        int n = (tf ? 1 : 1 + (e->database != NULL)) + (e->insert_columns.n > 0) + (e->sub != NULL);
        dump_line(out, indent, "InsertQuery  ", n, NULL);
        if (tf) {
            ok &= ast_dump(out, e->table_func, indent + 1);
        } else {
            if (e->database) {
                buf_printf(&t, "Identifier %s", e->database);
                dump_line(out, indent + 1, buf_cstr(&t), 0, NULL);
                t.len = 0;
            }
            buf_printf(&t, "Identifier %s", e->table_name);
            dump_line(out, indent + 1, buf_cstr(&t), 0, NULL);
        }
        if (e->insert_columns.n)
            ok &= dump_list(out, &e->insert_columns, indent + 1);
        if (e->sub && e->sub->kind == AST_SELECT) { /* a lone SELECT is a union of one */
            dump_line(out, indent + 1, "SelectWithUnionQuery", 1, NULL);
            dump_line(out, indent + 2, "ExpressionList", 1, NULL);
            ok &= ast_dump(out, e->sub, indent + 3);
        } else if (e->sub) {
            ok &= ast_dump(out, e->sub, indent + 1);
        }
        if (e->settings.n || e->partition_by.n)
            ok = false;
        break;
    }
    default:
        ok = false; /* statements this dump does not know */
        break;
    }
    buf_free(&t);
    return ok;
}
