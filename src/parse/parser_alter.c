/* ALTER TABLE commands and DELETE FROM (parse/ast.h, AST_STMT_ALTER / AST_ALTER_CMD).
 *
 *   ALTER TABLE [db.]t cmd [, cmd …] [SETTINGS …]
 *   cmd: ADD COLUMN [IF NOT EXISTS] coldef [FIRST | AFTER c]
 *        DROP COLUMN [IF EXISTS] c
 *        RENAME COLUMN [IF EXISTS] c TO d
 *        MODIFY COLUMN [IF EXISTS] coldef [FIRST | AFTER c]
 *        COMMENT COLUMN [IF EXISTS] c 'text'
 *        MODIFY COMMENT 'text'
 *        DELETE WHERE expr
 *        UPDATE c = expr [, d = expr …] WHERE expr
 *        ( cmd )                       — the form system.mutations and mutation files use
 *   DELETE FROM [db.]t WHERE expr [SETTINGS …]
 * The part and partition commands (ATTACH / DETACH / DROP PART|PARTITION …) keep their
 * text for the engine; any other command is kept as text too, so the engine answers
 * NOT_IMPLEMENTED naming it. */
#include "parse/parser_int.h"

#include <string.h>

static bool at_word(parser *p, int k, const char *w) { return p_is(p, k, w); }

static bool accept_if_exists(parser *p)
{
    if (at_word(p, 0, "IF") && at_word(p, 1, "EXISTS")) {
        p_adv(p), p_adv(p);
        return true;
    }
    return false;
}

static bool accept_if_not_exists(parser *p)
{
    if (at_word(p, 0, "IF") && at_word(p, 1, "NOT") && at_word(p, 2, "EXISTS")) {
        p_adv(p), p_adv(p), p_adv(p);
        return true;
    }
    return false;
}

static const char *string_lit(parser *p)
{
    if (p_kind(p) != TK_STRING)
        return p_fail(p, "string literal");
    ast *l = parse_expr(p);
    return l ? l->str : NULL;
}

static bool parse_position(parser *p, ast *c)
{
    if (p_accept(p, "FIRST")) {
        c->alter_first = true;
    } else if (p_accept(p, "AFTER")) {
        if (!(c->alter_to = p_ident(p)))
            return false;
    }
    return true;
}

static ast *parse_cmd(parser *p)
{
    if (p_enter(p))
        return NULL;
    ast *c = ast_new(p->a, AST_ALTER_CMD, p_cur(p)->start);
    ast *r = c;
    if (p_accept_tok(p, TK_LPAREN)) {
        r = parse_cmd(p);
        if (r && !expect_tok(p, TK_RPAREN, "closing parenthesis"))
            r = NULL;
    } else if (at_word(p, 0, "ADD") && at_word(p, 1, "COLUMN")) {
        p_adv(p), p_adv(p);
        c->name = "ADD COLUMN";
        c->if_not_exists = accept_if_not_exists(p);
        ast_list pk = {0};
        if (!(c->sub = parse_column_def(p, &pk, false)) || !parse_position(p, c))
            r = NULL;
        else if (pk.n)
            r = p_fail(p, "end of the column definition (PRIMARY KEY cannot be added by ALTER)");
    } else if (at_word(p, 0, "MODIFY") && at_word(p, 1, "COLUMN")) {
        p_adv(p), p_adv(p);
        c->name = "MODIFY COLUMN";
        c->if_exists = accept_if_exists(p);
        ast_list pk = {0};
        if (!(c->sub = parse_column_def(p, &pk, true)) || !parse_position(p, c))
            r = NULL;
        else if (pk.n)
            r = p_fail(p, "end of the column definition");
        else
            c->alter_col = c->sub->name;
    } else if (at_word(p, 0, "DROP") && at_word(p, 1, "COLUMN")) {
        p_adv(p), p_adv(p);
        c->name = "DROP COLUMN";
        c->if_exists = accept_if_exists(p);
        if (!(c->alter_col = p_ident(p)))
            r = NULL;
    } else if (at_word(p, 0, "RENAME") && at_word(p, 1, "COLUMN")) {
        p_adv(p), p_adv(p);
        c->name = "RENAME COLUMN";
        c->if_exists = accept_if_exists(p);
        if (!(c->alter_col = p_ident(p)) || !expect_word(p, "TO") || !(c->alter_to = p_ident(p)))
            r = NULL;
    } else if (at_word(p, 0, "COMMENT") && at_word(p, 1, "COLUMN")) {
        p_adv(p), p_adv(p);
        c->name = "COMMENT COLUMN";
        c->if_exists = accept_if_exists(p);
        if (!(c->alter_col = p_ident(p)) || !(c->comment = string_lit(p)))
            r = NULL;
    } else if (at_word(p, 0, "MODIFY") && at_word(p, 1, "COMMENT")) {
        p_adv(p), p_adv(p);
        c->name = "MODIFY COMMENT";
        if (!(c->comment = string_lit(p)))
            r = NULL;
    } else if (p_accept(p, "DELETE")) {
        c->name = "DELETE";
        if (!expect_word(p, "WHERE") || !(c->where = parse_expr(p)))
            r = NULL;
    } else if (p_accept(p, "UPDATE")) {
        c->name = "UPDATE";
        for (;;) {
            int pos = p_cur(p)->start;
            ast *as = ast_new(p->a, AST_SETTING, pos);
            if (!(as->name = p_ident(p)) || !expect_tok(p, TK_EQ, "Equals") || !(as->sub = parse_expr(p))) {
                r = NULL;
                break;
            }
            ast_list_push(p->a, &c->args, as);
            if (!p_accept_tok(p, TK_COMMA))
                break;
        }
        if (r && (!expect_word(p, "WHERE") || !(c->where = parse_expr(p))))
            r = NULL;
    } else {
        r = p_fail(p, "one of: ADD COLUMN, DROP COLUMN, RENAME COLUMN, MODIFY COLUMN, COMMENT COLUMN, "
                      "MODIFY COMMENT, DELETE, UPDATE");
    }
    if (r)
        r->end = prev_end(p);
    p_leave(p);
    return r;
}

/* Commands kept as text for the engine (storage/table.h alter()). */
static bool engine_command(parser *p)
{
    if (at_word(p, 0, "ATTACH") || at_word(p, 0, "DETACH") || at_word(p, 0, "FREEZE") ||
        at_word(p, 0, "UNFREEZE") || at_word(p, 0, "REPLACE") || at_word(p, 0, "MOVE") || at_word(p, 0, "FETCH"))
        return true;
    if (at_word(p, 0, "DROP"))
        return !at_word(p, 1, "COLUMN");
    static const char *const known[][2] = {
        {"ADD", "COLUMN"},      {"MODIFY", "COLUMN"}, {"RENAME", "COLUMN"}, {"COMMENT", "COLUMN"},
        {"MODIFY", "COMMENT"},  {"DELETE", NULL},     {"UPDATE", NULL},
    };
    if (p_kind(p) == TK_LPAREN)
        return false;
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
        if (at_word(p, 0, known[i][0]) && (!known[i][1] || at_word(p, 1, known[i][1])))
            return false;
    return true;
}

ast *parse_alter(parser *p, ast *st)
{
    st->kind = AST_STMT_ALTER;
    if (!expect_word(p, "TABLE") || parse_table_name(p, st) < 0)
        return NULL;
    if (at_word(p, 0, "ON") && at_word(p, 1, "CLUSTER"))
        return p_fail(p, "ALTER command (ON CLUSTER is not supported)");
    if (p_kind(p) != TK_WORD && p_kind(p) != TK_LPAREN)
        return p_fail(p, "ALTER command");
    if (engine_command(p))
        return rest_as_text(p, st);
    for (;;) {
        ast *c = parse_cmd(p);
        if (!c)
            return NULL;
        ast_list_push(p->a, &st->args, c);
        if (!p_accept_tok(p, TK_COMMA))
            break;
    }
    return parse_stmt_tail(p, st) < 0 ? NULL : st;
}

ast *parse_delete(parser *p, ast *st)
{
    st->kind = AST_STMT_ALTER;
    if (!expect_word(p, "FROM") || parse_table_name(p, st) < 0)
        return NULL;
    if (at_word(p, 0, "ON") && at_word(p, 1, "CLUSTER"))
        return p_fail(p, "WHERE (ON CLUSTER is not supported)");
    if (at_word(p, 0, "IN") && at_word(p, 1, "PARTITION"))
        return p_fail(p, "WHERE (IN PARTITION is not supported)");
    ast *c = ast_new(p->a, AST_ALTER_CMD, p_cur(p)->start);
    c->name = "LIGHTWEIGHT DELETE";
    if (!expect_word(p, "WHERE") || !(c->where = parse_expr(p)))
        return NULL;
    c->end = prev_end(p);
    ast_list_push(p->a, &st->args, c);
    return parse_stmt_tail(p, st) < 0 ? NULL : st;
}

/* ---- formatting, as ClickHouse prints the commands in system.mutations ---- */

static void put_coldef(buf *out, const ast *cd)
{
    buf_putc(out, '`');
    for (const char *s = cd->name; *s; s++) {
        if (*s == '`' || *s == '\\')
            buf_putc(out, '\\');
        buf_putc(out, *s);
    }
    buf_putc(out, '`');
    if (cd->str) {
        buf_putc(out, ' ');
        buf_append(out, cd->str, cd->str_len);
    }
    if (cd->nullable == 1)
        buf_puts(out, " NULL");
    else if (cd->nullable == -1)
        buf_puts(out, " NOT NULL");
    if (cd->default_kind) {
        buf_printf(out, " %s", cd->default_kind);
        if (cd->sub) {
            buf_putc(out, ' ');
            ast_format_expr(out, cd->sub);
        }
    }
    if (cd->comment) {
        buf_puts(out, " COMMENT ");
        ast_format_quoted(out, cd->comment, strlen(cd->comment));
    }
    if (cd->codec.n) {
        buf_puts(out, " CODEC(");
        ast_format_expr_list(out, &cd->codec);
        buf_putc(out, ')');
    }
}

void ast_format_alter_cmd(buf *out, const ast *c)
{
    const char *k = c->name;
    if (!strcmp(k, "DELETE")) {
        buf_puts(out, "DELETE WHERE ");
        ast_format_expr(out, c->where);
    } else if (!strcmp(k, "LIGHTWEIGHT DELETE")) {
        /* ClickHouse's lightweight DELETE is this mutation */
        buf_puts(out, "UPDATE _row_exists = 0 WHERE ");
        ast_format_expr(out, c->where);
    } else if (!strcmp(k, "UPDATE")) {
        buf_puts(out, "UPDATE ");
        for (int i = 0; i < c->args.n; i++) {
            if (i)
                buf_puts(out, ", ");
            ast_format_ident(out, c->args.items[i]->name);
            buf_puts(out, " = ");
            ast_format_expr(out, c->args.items[i]->sub);
        }
        buf_puts(out, " WHERE ");
        ast_format_expr(out, c->where);
    } else if (!strcmp(k, "ADD COLUMN") || !strcmp(k, "MODIFY COLUMN")) {
        buf_printf(out, "%s ", k);
        if (c->if_exists)
            buf_puts(out, "IF EXISTS ");
        if (c->if_not_exists)
            buf_puts(out, "IF NOT EXISTS ");
        put_coldef(out, c->sub);
        if (c->alter_first)
            buf_puts(out, " FIRST");
        else if (c->alter_to) {
            buf_puts(out, " AFTER ");
            ast_format_ident(out, c->alter_to);
        }
    } else {
        buf_printf(out, "%s ", k);
        if (c->if_exists)
            buf_puts(out, "IF EXISTS ");
        if (c->alter_col)
            ast_format_ident(out, c->alter_col);
        if (!strcmp(k, "RENAME COLUMN")) {
            buf_puts(out, " TO ");
            ast_format_ident(out, c->alter_to);
        }
        if (c->comment) {
            if (c->alter_col)
                buf_putc(out, ' ');
            ast_format_quoted(out, c->comment, strlen(c->comment));
        }
    }
}
