/* Statement parser: SELECT (with joins, unions, CTEs) and the other statements. */
#include "parse/parser_int.h"

#include <string.h>
#include <strings.h>

ast *ast_new(arena *a, ast_kind kind, int pos)
{
    ast *n = ARENA_NEW(a, ast);
    n->kind = kind;
    n->pos = pos;
    n->end = pos;
    return n;
}

void ast_list_push(arena *a, ast_list *l, ast *item)
{
    /* capacity doubles at powers of two; old arrays stay in the arena */
    if ((l->n & (l->n - 1)) == 0 && (l->n == 0 || l->n >= 4)) {
        int cap = l->n ? l->n * 2 : 4;
        ast **ni = ARENA_ARRAY(a, ast *, (size_t)cap);
        if (l->n)
            memcpy(ni, l->items, sizeof(ast *) * (size_t)l->n);
        l->items = ni;
    }
    l->items[l->n++] = item;
}

int prev_end(parser *p) { return p->i > 0 ? p->toks[p->i - 1].end : 0; }

bool expect_word(parser *p, const char *kw)
{
    if (p_accept(p, kw))
        return true;
    p_fail(p, kw);
    return false;
}

bool expect_tok(parser *p, tok_kind k, const char *what)
{
    if (p_accept_tok(p, k))
        return true;
    p_fail(p, what);
    return false;
}

/* [db.]name into database/table_name */
int parse_table_name(parser *p, ast *t)
{
    char *a = p_ident(p);
    if (!a)
        return -1;
    if (p_kind(p) == TK_DOT && (p_peek(p, 1)->kind == TK_WORD || p_peek(p, 1)->kind == TK_QIDENT)) {
        p_adv(p);
        t->database = a;
        t->table_name = p_ident(p);
    } else {
        t->table_name = a;
    }
    return 0;
}

static ast *parse_settings_list(parser *p, ast_list *out)
{
    for (;;) {
        int pos = p_cur(p)->start;
        char *nm = p_ident(p);
        if (!nm)
            return NULL;
        ast *s = ast_new(p->a, AST_SETTING, pos);
        s->name = nm;
        if (!expect_tok(p, TK_EQ, "Equals"))
            return NULL;
        s->sub = parse_expr(p);
        if (!s->sub)
            return NULL;
        s->end = prev_end(p);
        ast_list_push(p->a, out, s);
        if (!p_accept_tok(p, TK_COMMA))
            return s;
    }
}

/* SAMPLE's ratio: a number, or a number / a number, kept as written (exact: the
 * analyzer reads it as a fraction, as ClickHouse's ASTSampleRatio). */
static const char *parse_sample_ratio(parser *p)
{
    int start = p_cur(p)->start;
    if (p_kind(p) != TK_NUMBER)
        return p_fail(p, "number");
    p_adv(p);
    if (p_accept_tok(p, TK_SLASH)) {
        if (p_kind(p) != TK_NUMBER)
            return p_fail(p, "number");
        p_adv(p);
    }
    return arena_strndup(p->a, p->s + start, (size_t)(prev_end(p) - start));
}

static ast *parse_statement(parser *p);

static ast *parse_table_elem(parser *p)
{
    int pos = p_cur(p)->start;
    ast *t = ast_new(p->a, AST_TABLE, pos);
    if (p_enter(p) < 0)
        return NULL;
    if (p_kind(p) == TK_LPAREN) {
        p_adv(p);
        /* FROM (EXPLAIN …): the statement's rows (sql/explain.h). */
        ast *q = p_is(p, 0, "EXPLAIN") ? parse_statement(p) : parse_select_union(p);
        if (!q || !expect_tok(p, TK_RPAREN, "closing parenthesis")) {
            p_leave(p);
            return NULL;
        }
        t->sub = q;
    } else if (p_is_ident(p) && p_peek(p, 1)->kind == TK_LPAREN) {
        tok *nt = p_cur(p);
        ast *f = mk_func(p, p_tok_text(p, nt), nt->start);
        if (nt->kind == TK_QIDENT)
            f->name = p_ident(p);
        else
            p_adv(p);
        p_adv(p);
        if (!p_accept_tok(p, TK_RPAREN)) {
            if (parse_expr_list(p, &f->args, false) < 0 || !expect_tok(p, TK_RPAREN, "one of: Comma, closing parenthesis")) {
                p_leave(p);
                return NULL;
            }
        }
        f->end = prev_end(p);
        t->table_func = f;
    } else if (p_is_ident(p)) {
        if (parse_table_name(p, t) < 0) {
            p_leave(p);
            return NULL;
        }
    } else {
        p_leave(p);
        return p_fail(p, "one of: table, table function, subquery or list of joined tables");
    }
    p_leave(p);
    if (p_accept(p, "AS")) {
        t->alias = p_ident(p);
        if (!t->alias)
            return NULL;
    } else if (p_kind(p) == TK_QIDENT || (p_kind(p) == TK_WORD && !p_is_reserved_alias(p, p_cur(p)))) {
        t->alias = p_ident(p);
    }
    if (p_accept(p, "FINAL"))
        t->final = true;
    if (p_accept(p, "SAMPLE")) {
        if (!(t->sample_size = parse_sample_ratio(p)))
            return NULL;
        if (p_accept(p, "OFFSET") && !(t->sample_offset = parse_sample_ratio(p)))
            return NULL;
    }
    t->end = prev_end(p);
    return t;
}

static ast *parse_tables(parser *p)
{
    ast *first = parse_table_elem(p);
    ast *last = first;
    while (last) {
        int pos = p_cur(p)->start;
        const char *kind = NULL, *strict = NULL;
        if (p_is(p, 0, "ARRAY") || ((p_is(p, 0, "LEFT") || p_is(p, 0, "INNER")) && p_is(p, 1, "ARRAY")))
            break; /* [LEFT] ARRAY JOIN: a clause of the SELECT (parse_select) */
        if (p_accept_tok(p, TK_COMMA)) {
            kind = "CROSS";
        } else {
            int save = p->i;
            if (!p_accept(p, "GLOBAL"))
                p_accept(p, "LOCAL");
            for (int round = 0; round < 3; round++) {
                if (!strict && (p_is(p, 0, "ANY") || p_is(p, 0, "ALL") || p_is(p, 0, "SEMI") ||
                                p_is(p, 0, "ANTI") || p_is(p, 0, "ASOF"))) {
                    strict = arena_strdup(p->a, p_tok_text(p, p_cur(p)));
                    for (char *c = (char *)strict; *c; c++)
                        *c = (char)(*c >= 'a' && *c <= 'z' ? *c - 32 : *c);
                    p_adv(p);
                } else if (!kind && (p_is(p, 0, "INNER") || p_is(p, 0, "LEFT") || p_is(p, 0, "RIGHT") ||
                                     p_is(p, 0, "FULL") || p_is(p, 0, "CROSS"))) {
                    kind = p_is(p, 0, "INNER") ? "INNER" : p_is(p, 0, "LEFT") ? "LEFT" : p_is(p, 0, "RIGHT") ? "RIGHT"
                           : p_is(p, 0, "FULL") ? "FULL" : "CROSS";
                    p_adv(p);
                    p_accept(p, "OUTER");
                }
            }
            if (p_is(p, 0, "ARRAY"))
                return p_fail(p, "JOIN (ARRAY JOIN is not supported)");
            if (!kind && !strict && p_is(p, 0, "PASTE") && p_is(p, 1, "JOIN")) {
                /* rows joined by position: parsed, refused by sql/join.c */
                p_adv(p);
                kind = "PASTE";
            }
            if (!p_accept(p, "JOIN")) {
                if (p->i != save)
                    return p_fail(p, "JOIN");
                break;
            }
            if (!kind)
                kind = "INNER";
        }
        ast *j = ast_new(p->a, AST_JOIN, pos);
        j->join_kind = kind;
        j->join_strictness = strict;
        j->sub = parse_table_elem(p);
        if (!j->sub)
            return NULL;
        if (strcmp(kind, "CROSS") != 0 && strcmp(kind, "PASTE") != 0) {
            if (p_accept(p, "ON")) {
                j->on = parse_expr(p);
                if (!j->on)
                    return NULL;
            } else if (p_accept(p, "USING")) {
                bool paren = p_accept_tok(p, TK_LPAREN);
                if (parse_expr_list(p, &j->using_cols, false) < 0)
                    return NULL;
                if (paren && !expect_tok(p, TK_RPAREN, "closing parenthesis"))
                    return NULL;
            } else {
                return p_fail(p, "one of: ON, USING");
            }
        }
        j->end = prev_end(p);
        last->join = j;
        last = j->sub;
    }
    return first;
}

static ast *parse_order_list(parser *p, ast_list *out);

/* One frame bound: UNBOUNDED PRECEDING|FOLLOWING, CURRENT ROW, expr PRECEDING|FOLLOWING. */
static bool parse_frame_bound(parser *p, int *bound, ast **off)
{
    if (p_accept(p, "UNBOUNDED")) {
        if (p_accept(p, "PRECEDING"))
            *bound = WB_UNBOUNDED_PRECEDING;
        else if (p_accept(p, "FOLLOWING"))
            *bound = WB_UNBOUNDED_FOLLOWING;
        else
            return p_fail(p, "one of: PRECEDING, FOLLOWING"), false;
        return true;
    }
    if (p_is(p, 0, "CURRENT") && p_is(p, 1, "ROW")) {
        p_adv(p);
        p_adv(p);
        *bound = WB_CURRENT_ROW;
        return true;
    }
    if (!(*off = parse_expr(p)))
        return false;
    if (p_accept(p, "PRECEDING"))
        *bound = WB_PRECEDING;
    else if (p_accept(p, "FOLLOWING"))
        *bound = WB_FOLLOWING;
    else
        return p_fail(p, "one of: PRECEDING, FOLLOWING"), false;
    return true;
}

/* (…) of a window: [base] [PARTITION BY …] [ORDER BY …] [ROWS|RANGE|GROUPS frame]. */
static ast *parse_window_spec(parser *p, int pos)
{
    if (!expect_tok(p, TK_LPAREN, "opening parenthesis"))
        return NULL;
    ast *w = ast_new(p->a, AST_WINDOW, pos);
    if (p_is_ident(p) && !p_is(p, 0, "PARTITION") && !p_is(p, 0, "ORDER") && !p_is(p, 0, "ROWS") &&
        !p_is(p, 0, "RANGE") && !p_is(p, 0, "GROUPS") && p_kind(p) != TK_RPAREN) {
        if (!(w->window_base = p_ident(p)))
            return NULL;
    }
    if (p_is(p, 0, "PARTITION")) {
        p_adv(p);
        if (!expect_word(p, "BY") || parse_expr_list(p, &w->partition_by, false) < 0)
            return NULL;
    }
    if (p_is(p, 0, "ORDER")) {
        p_adv(p);
        if (!expect_word(p, "BY") || !parse_order_list(p, &w->order_by))
            return NULL;
    }
    if (p_is(p, 0, "ROWS") || p_is(p, 0, "RANGE") || p_is(p, 0, "GROUPS")) {
        w->frame_kind = p_is(p, 0, "ROWS") ? WF_ROWS : p_is(p, 0, "RANGE") ? WF_RANGE : WF_GROUPS;
        p_adv(p);
        if (p_accept(p, "BETWEEN")) {
            if (!parse_frame_bound(p, &w->frame_start, &w->frame_start_off))
                return NULL;
            if (!p_accept(p, "AND"))
                return p_fail(p, "AND");
            if (!parse_frame_bound(p, &w->frame_end, &w->frame_end_off))
                return NULL;
        } else {
            if (!parse_frame_bound(p, &w->frame_start, &w->frame_start_off))
                return NULL;
            w->frame_end = WB_CURRENT_ROW;
        }
    }
    if (!expect_tok(p, TK_RPAREN, "closing parenthesis"))
        return NULL;
    w->end = prev_end(p);
    return w;
}

bool parse_over(parser *p, ast *f)
{
    if (p_kind(p) == TK_LPAREN)
        return (f->over = parse_window_spec(p, p_cur(p)->start)) != NULL;
    if (!(f->over_name = p_ident(p)))
        return false;
    return true;
}

static ast *parse_order_list(parser *p, ast_list *out)
{
    for (;;) {
        int pos = p_cur(p)->start;
        ast *e = parse_expr_alias(p);
        if (!e)
            return NULL;
        ast *o = ast_new(p->a, AST_ORDER_ITEM, pos);
        o->sub = e;
        if (p_accept(p, "DESC") || p_accept(p, "DESCENDING"))
            o->desc = true;
        else if (!p_accept(p, "ASC"))
            p_accept(p, "ASCENDING");
        if (p_accept(p, "NULLS")) {
            if (p_accept(p, "FIRST"))
                o->nulls = 1;
            else if (p_accept(p, "LAST"))
                o->nulls = -1;
            else
                return p_fail(p, "one of: FIRST, LAST");
        }
        if (p_accept(p, "COLLATE")) {
            if (p_kind(p) != TK_STRING)
                return p_fail(p, "string literal");
            p_adv(p);
            o->collate = true;
        }
        if (p_is(p, 0, "WITH") && p_is(p, 1, "FILL")) {
            o->with_fill = ast_new(p->a, AST_LITERAL, p_cur(p)->start);
            p_adv(p);
            p_adv(p);
            const char *kws[] = {"FROM", "TO", "STEP", "STALENESS"};
            ast **dst[] = {&o->fill_from, &o->fill_to, &o->fill_step, &o->fill_staleness};
            for (int k = 0; k < 4; k++)
                if (p_accept(p, kws[k]) && !(*dst[k] = parse_expr(p)))
                    return NULL;
        }
        o->end = prev_end(p);
        ast_list_push(p->a, out, o);
        if (!p_accept_tok(p, TK_COMMA))
            return o;
    }
}

/* GROUPING SETS ((a, b), a, ()): each set becomes a "tuple" node holding its keys. */
static bool parse_grouping_sets(parser *p, ast *s)
{
    p_adv(p); /* GROUPING */
    p_adv(p); /* SETS */
    if (!expect_tok(p, TK_LPAREN, "opening parenthesis"))
        return false;
    s->group_by_mod = GB_SETS;
    do {
        ast *set = ast_new(p->a, AST_FUNC, p_cur(p)->start);
        set->name = "tuple";
        if (p_accept_tok(p, TK_LPAREN)) {
            if (!p_accept_tok(p, TK_RPAREN) &&
                (parse_expr_list(p, &set->args, false) < 0 || !expect_tok(p, TK_RPAREN, "closing parenthesis")))
                return false;
        } else {
            ast *e = parse_expr_alias(p);
            if (!e)
                return false;
            ast_list_push(p->a, &set->args, e);
        }
        set->end = prev_end(p);
        ast_list_push(p->a, &s->grouping_sets, set);
    } while (p_accept_tok(p, TK_COMMA));
    return expect_tok(p, TK_RPAREN, "closing parenthesis");
}

static ast *parse_select(parser *p)
{
    int pos = p_cur(p)->start;
    ast *s = ast_new(p->a, AST_SELECT, pos);
    if (p_accept(p, "WITH")) {
        for (;;) {
            if (p_is_ident(p) && p_is(p, 1, "AS") && p_peek(p, 2)->kind == TK_LPAREN && p_is_select_start(p, 3)) {
                int cpos = p_cur(p)->start;
                char *nm = p_ident(p);
                p_adv(p);
                p_adv(p);
                ast *q = parse_select_union(p);
                if (!q || !expect_tok(p, TK_RPAREN, "closing parenthesis"))
                    return NULL;
                ast *sq = ast_new(p->a, AST_SUBQUERY, cpos);
                sq->sub = q;
                sq->alias = nm;
                sq->cte = true;
                sq->end = prev_end(p);
                ast_list_push(p->a, &s->with, sq);
            } else {
                ast *e = parse_expr_alias(p);
                if (!e)
                    return NULL;
                if (!e->alias && e->kind != AST_SUBQUERY)
                    return p_fail(p, "AS");
                ast_list_push(p->a, &s->with, e);
            }
            if (!p_accept_tok(p, TK_COMMA))
                break;
        }
    }
    if (!expect_word(p, "SELECT"))
        return NULL;
    if (p_accept(p, "DISTINCT"))
        s->select_distinct = true;
    else if (p_is(p, 0, "ALL") && p_peek(p, 1)->kind != TK_LPAREN)
        p_adv(p);
    if (parse_expr_list(p, &s->select, true) < 0)
        return NULL;
    if (p_accept(p, "FROM")) {
        s->from = parse_tables(p);
        if (!s->from)
            return NULL;
    }
    while (s->from && (p_is(p, 0, "ARRAY") || ((p_is(p, 0, "LEFT") || p_is(p, 0, "INNER")) && p_is(p, 1, "ARRAY")))) {
        ast *aj = ast_new(p->a, AST_ARRAY_JOIN, p_cur(p)->start);
        aj->join_kind = p_is(p, 0, "LEFT") ? "LEFT" : "INNER";
        if (!p_is(p, 0, "ARRAY"))
            p_adv(p);
        p_adv(p); /* ARRAY */
        if (!expect_word(p, "JOIN"))
            return NULL;
        /* an empty list at the query's end parses (the analyzer refuses it, as ClickHouse;
         * a keyword after ARRAY JOIN is read as a column there, a syntax error) */
        bool empty = p_kind(p) == TK_EOF || p_kind(p) == TK_SEMI || p_kind(p) == TK_RPAREN;
        if (!empty && parse_expr_list(p, &aj->args, true) < 0)
            return NULL;
        aj->end = prev_end(p);
        ast_list_push(p->a, &s->array_joins, aj);
    }
    if (p_accept(p, "PREWHERE") && !(s->prewhere = parse_expr(p)))
        return NULL;
    if (p_accept(p, "WHERE") && !(s->where = parse_expr(p)))
        return NULL;
    if (p_is(p, 0, "GROUP")) {
        p_adv(p);
        if (!expect_word(p, "BY"))
            return NULL;
        if (p_is(p, 0, "ALL") && p_peek(p, 1)->kind != TK_LPAREN) {
            p_adv(p);
            s->group_by_all = true;
        } else if (p_is(p, 0, "GROUPING") && p_is(p, 1, "SETS")) {
            if (!parse_grouping_sets(p, s))
                return NULL;
        } else if ((p_is(p, 0, "ROLLUP") || p_is(p, 0, "CUBE")) && p_peek(p, 1)->kind == TK_LPAREN) {
            s->group_by_mod = p_is(p, 0, "ROLLUP") ? GB_ROLLUP : GB_CUBE;
            p_adv(p);
            p_adv(p);
            if (parse_expr_list(p, &s->group_by, false) < 0 || !expect_tok(p, TK_RPAREN, "closing parenthesis"))
                return NULL;
        } else if (parse_expr_list(p, &s->group_by, false) < 0) {
            return NULL;
        }
        if (s->group_by_mod == GB_PLAIN && p_is(p, 0, "WITH") && (p_is(p, 1, "ROLLUP") || p_is(p, 1, "CUBE"))) {
            s->group_by_mod = p_is(p, 1, "ROLLUP") ? GB_ROLLUP : GB_CUBE;
            s->group_by_with = true;
            p_adv(p);
            p_adv(p);
        }
    }
    if (p_is(p, 0, "WITH") && p_is(p, 1, "TOTALS")) {
        p_adv(p);
        p_adv(p);
        s->with_totals = true;
    }
    if (p_accept(p, "HAVING") && !(s->having = parse_expr(p)))
        return NULL;
    if (p_accept(p, "WINDOW")) {
        do {
            int wpos = p_cur(p)->start;
            char *name = p_ident(p);
            if (!name)
                return NULL;
            if (!p_accept(p, "AS"))
                return p_fail(p, "AS");
            ast *w = parse_window_spec(p, wpos);
            if (!w)
                return NULL;
            w->alias = name;
            ast_list_push(p->a, &s->windows, w);
        } while (p_accept_tok(p, TK_COMMA));
    }
    if (p_is(p, 0, "ORDER")) {
        p_adv(p);
        if (!expect_word(p, "BY") || !parse_order_list(p, &s->order_by))
            return NULL;
        if (p_accept(p, "INTERPOLATE")) {
            s->has_interpolate = true;
            if (p_accept_tok(p, TK_LPAREN) && !p_accept_tok(p, TK_RPAREN)) {
                do {
                    int ipos = p_cur(p)->start;
                    char *col = p_ident(p);
                    if (!col)
                        return NULL;
                    ast *e;
                    if (p_accept(p, "AS")) {
                        if (!(e = parse_expr(p)))
                            return NULL;
                    } else {
                        e = ast_new(p->a, AST_IDENT, ipos);
                        e->nparts = 1;
                        e->parts = ARENA_ARRAY(p->a, const char *, 1);
                        e->parts[0] = col;
                    }
                    e->alias = col;
                    ast_list_push(p->a, &s->interpolate, e);
                } while (p_accept_tok(p, TK_COMMA));
                if (!expect_tok(p, TK_RPAREN, "closing parenthesis"))
                    return NULL;
            }
        }
    }
    for (int round = 0; round < 2 && p_is(p, 0, "LIMIT"); round++) {
        p_adv(p);
        ast *a = parse_expr(p), *b = NULL;
        if (!a)
            return NULL;
        if (p_accept_tok(p, TK_COMMA)) {
            if (!(b = parse_expr(p)))
                return NULL;
        } else if (p_accept(p, "OFFSET")) {
            if (!(b = parse_expr(p)))
                return NULL;
            ast *t = a;
            a = b;
            b = t; /* normalise to (offset, limit) order */
        }
        /* now: b == NULL → limit a; else offset a, limit b */
        ast *lim = b ? b : a, *off = b ? a : NULL;
        if (p_accept(p, "BY")) {
            if (round == 1 || s->limit_by.n)
                return p_fail(p, "end of query");
            s->limit_by_limit = lim;
            s->limit_by_offset = off;
            if (parse_expr_list(p, &s->limit_by, false) < 0)
                return NULL;
        } else {
            s->limit = lim;
            s->offset = off;
            break;
        }
    }
    if (!s->offset && p_accept(p, "OFFSET")) {
        if (!(s->offset = parse_expr(p)))
            return NULL;
        if (!p_accept(p, "ROWS"))
            p_accept(p, "ROW");
    }
    if (p_accept(p, "SETTINGS") && !parse_settings_list(p, &s->settings))
        return NULL;
    s->end = prev_end(p);
    return s;
}

static ast *parse_select_term(parser *p)
{
    if (p_enter(p) < 0)
        return NULL;
    ast *r;
    if (p_kind(p) == TK_LPAREN) {
        p_adv(p);
        r = parse_select_union(p);
        if (r && !expect_tok(p, TK_RPAREN, "closing parenthesis"))
            r = NULL;
    } else {
        r = parse_select(p);
    }
    p_leave(p);
    return r;
}

/* The operator before the next SELECT, or -1 when none follows. */
static int parse_set_op(parser *p)
{
    int kind = p_accept(p, "UNION") ? SETOP_UNION : p_accept(p, "EXCEPT") ? SETOP_EXCEPT
                                                 : p_accept(p, "INTERSECT") ? SETOP_INTERSECT : -1;
    if (kind < 0)
        return -1;
    if (p_accept(p, "ALL"))
        return kind | SETOP_ALL;
    if (p_accept(p, "DISTINCT"))
        return kind | SETOP_DISTINCT;
    return kind;
}

ast *parse_select_union(parser *p)
{
    int pos = p_cur(p)->start;
    ast *first = parse_select_term(p);
    if (!first)
        return NULL;
    int op = parse_set_op(p);
    if (op < 0)
        return first;
    ast *u = ast_new(p->a, AST_UNION, pos);
    ast_list_push(p->a, &u->args, first);
    int cap = 8;
    u->set_ops = arena_alloc(p->a, (size_t)cap, 1);
    u->set_ops[0] = 0;
    for (; op >= 0; op = parse_set_op(p)) {
        ast *n = parse_select_term(p);
        if (!n)
            return NULL;
        if (u->args.n == cap) {
            unsigned char *grown = arena_alloc(p->a, (size_t)cap * 2, 1);
            memcpy(grown, u->set_ops, (size_t)cap);
            u->set_ops = grown;
            cap *= 2;
        }
        u->set_ops[u->args.n] = (unsigned char)op;
        ast_list_push(p->a, &u->args, n);
    }
    u->end = prev_end(p);
    return u;
}

/* INTO OUTFILE 'f' / FORMAT x / SETTINGS k = v at the end of a statement */
int parse_stmt_tail(parser *p, ast *st)
{
    if (p_is(p, 0, "INTO") && p_is(p, 1, "OUTFILE")) {
        p_adv(p);
        p_adv(p);
        if (p_kind(p) != TK_STRING)
            return p_fail(p, "string literal"), -1;
        ast *l = mk_string(p, "", 0, 0);
        tok *t = p_cur(p);
        char *d = arena_alloc(p->a, (size_t)(t->end - t->start) + 1, 1);
        d[lexer_string_value(p->s, t, d)] = 0;
        (void)l;
        st->outfile = d;
        p_adv(p);
    }
    if (p_accept(p, "FORMAT")) {
        st->format = p_ident(p);
        if (!st->format)
            return -1;
    }
    if (p_accept(p, "SETTINGS") && !parse_settings_list(p, &st->settings))
        return -1;
    return 0;
}

static const char *word_upper(parser *p)
{
    char *w = p_tok_text(p, p_cur(p));
    for (char *c = w; *c; c++)
        if (*c >= 'a' && *c <= 'z')
            *c = (char)(*c - 32);
    return w;
}

/* One column definition: name [type] [NULL|NOT NULL] [DEFAULT|MATERIALIZED|ALIAS|EPHEMERAL
 * expr] [CODEC(…)] [COMMENT '…'] [TTL …] [PRIMARY KEY] (CREATE TABLE, ALTER ADD/MODIFY). */
ast *parse_column_def(parser *p, ast_list *primary_key, bool alter)
{
    int pos = p_cur(p)->start;
    ast *c = ast_new(p->a, AST_COLUMN_DEF, pos);
    c->name = p_ident(p);
    if (!c->name)
        return NULL;
    /* the type may be left out before these (ALTER … MODIFY COLUMN c CODEC(…) keeps it) */
    if (!p_is(p, 0, "DEFAULT") && !p_is(p, 0, "MATERIALIZED") && !p_is(p, 0, "ALIAS") &&
        !p_is(p, 0, "EPHEMERAL") && !(alter && p_is(p, 0, "CODEC") && p_peek(p, 1)->kind == TK_LPAREN) &&
        !(alter && p_is(p, 0, "COMMENT") && p_peek(p, 1)->kind == TK_STRING)) {
        char *tt = parse_type_text(p);
        if (!tt)
            return NULL;
        c->str = tt;
        c->str_len = strlen(tt);
    }
    for (;;) {
        if (p_is(p, 0, "NOT") && p_is(p, 1, "NULL")) {
            p_adv(p), p_adv(p);
            c->nullable = -1;
        } else if (p_accept(p, "NULL")) {
            c->nullable = 1;
        } else if (p_is(p, 0, "DEFAULT") || p_is(p, 0, "MATERIALIZED") || p_is(p, 0, "ALIAS") ||
                   p_is(p, 0, "EPHEMERAL")) {
            c->default_kind = word_upper(p);
            p_adv(p);
            if (!(p_kind(p) == TK_COMMA || p_kind(p) == TK_RPAREN) && !(c->sub = parse_expr(p)))
                return NULL;
        } else if (p_is(p, 0, "CODEC") && p_peek(p, 1)->kind == TK_LPAREN) {
            p_adv(p), p_adv(p);
            if (parse_expr_list(p, &c->codec, false) < 0 || !expect_tok(p, TK_RPAREN, "closing parenthesis"))
                return NULL;
        } else if (p_accept(p, "COMMENT")) {
            if (p_kind(p) != TK_STRING)
                return p_fail(p, "string literal");
            ast *l = parse_expr(p);
            if (!l)
                return NULL;
            c->comment = l->str;
        } else if (p_accept(p, "TTL")) {
            /* kept so that the statement layer refuses it (column TTL is not implemented) */
            if (!(c->ttl = parse_expr(p)))
                return NULL;
        } else if (p_is(p, 0, "PRIMARY") && p_is(p, 1, "KEY")) {
            p_adv(p), p_adv(p);
            ast *id = ast_new(p->a, AST_IDENT, pos);
            id->nparts = 1;
            id->parts = ARENA_ARRAY(p->a, const char *, 1);
            id->parts[0] = c->name;
            ast_list_push(p->a, primary_key, id);
        } else {
            break;
        }
    }
    c->end = prev_end(p);
    return c;
}

/* CREATE TABLE|VIEW|MATERIALIZED VIEW: [IF NOT EXISTS] [db.]name [UUID '…'] */
static int parse_create_head(parser *p, ast *st)
{
    st->kind = AST_STMT_CREATE_TABLE;
    if (p_is(p, 0, "IF") && p_is(p, 1, "NOT") && p_is(p, 2, "EXISTS")) {
        p_adv(p), p_adv(p), p_adv(p);
        st->if_not_exists = true;
    }
    if (parse_table_name(p, st) < 0)
        return -1;
    if (p_accept(p, "UUID")) {
        /* CREATE TABLE t UUID '…' (ClickHouse's metadata files and backups carry one). */
        if (p_kind(p) != TK_STRING)
            return p_fail(p, "string literal"), -1;
        tok *t = p_cur(p);
        char *d = arena_alloc(p->a, (size_t)(t->end - t->start) + 1, 1);
        d[lexer_string_value(p->s, t, d)] = 0;
        st->uuid = d;
        p_adv(p);
    }
    return 0;
}

/* What follows the name: [(columns)] [ENGINE …] [PARTITION BY …] [ORDER BY …] …
 * [AS SELECT … | AS other]; POPULATE too for a materialized view. */
static ast *parse_create_body(parser *p, ast *st)
{
    bool mv = st->show_what && strcmp(st->show_what, "MATERIALIZED VIEW") == 0;
    if (p_accept_tok(p, TK_LPAREN)) {
        for (;;) {
            if (p_is(p, 0, "INDEX") || p_is(p, 0, "CONSTRAINT") || p_is(p, 0, "PROJECTION")) {
                /* data-skipping indexes and projections: skipped (they change no answer; see
                 * docs/differences.md); constraints: refused at CREATE (interp/ddl.c) */
                if (p_is(p, 0, "CONSTRAINT") && !st->constraint_pos)
                    st->constraint_pos = p_cur(p)->start + 1;
                st->has_skip_indexes |= p_is(p, 0, "INDEX");
                int depth = 0;
                while (p_kind(p) != TK_EOF && p_kind(p) != TK_ERROR &&
                       !(depth == 0 && (p_kind(p) == TK_COMMA || p_kind(p) == TK_RPAREN))) {
                    if (p_kind(p) == TK_LPAREN)
                        depth++;
                    if (p_kind(p) == TK_RPAREN)
                        depth--;
                    p_adv(p);
                }
            } else if (p_is(p, 0, "PRIMARY") && p_is(p, 1, "KEY")) {
                p_adv(p), p_adv(p);
                ast *e = parse_expr(p);
                if (!e)
                    return NULL;
                if (e->kind == AST_FUNC && !strcmp(e->name, "tuple") && e->bracket_syntax)
                    st->primary_key = e->args;
                else
                    ast_list_push(p->a, &st->primary_key, e);
            } else {
                ast *c = parse_column_def(p, &st->primary_key, false);
                if (!c)
                    return NULL;
                ast_list_push(p->a, &st->columns, c);
            }
            /* a trailing comma before the closing parenthesis is allowed, as in ClickHouse */
            if (p_accept_tok(p, TK_COMMA) && p_kind(p) != TK_RPAREN)
                continue;
            if (!expect_tok(p, TK_RPAREN, "one of: Comma, closing parenthesis, DEFAULT, MATERIALIZED, ALIAS, "
                                          "CODEC, COMMENT, NULL, NOT NULL"))
                return NULL;
            break;
        }
    }
    for (;;) {
        if (p_accept(p, "ENGINE")) {
            p_accept_tok(p, TK_EQ);
            int pos = p_cur(p)->start;
            char *nm = p_ident(p);
            if (!nm)
                return NULL;
            ast *e = mk_func(p, nm, pos);
            if (p_accept_tok(p, TK_LPAREN) && !p_accept_tok(p, TK_RPAREN)) {
                if (parse_expr_list(p, &e->args, false) < 0 || !expect_tok(p, TK_RPAREN, "closing parenthesis"))
                    return NULL;
            }
            e->end = prev_end(p);
            st->engine = e;
        } else if (p_is(p, 0, "PARTITION") && p_is(p, 1, "BY")) {
            p_adv(p), p_adv(p);
            if (!(st->partition_key = parse_expr(p)))
                return NULL;
        } else if ((p_is(p, 0, "ORDER") || p_is(p, 0, "PRIMARY")) && p_is(p, 1, p_is(p, 0, "ORDER") ? "BY" : "KEY")) {
            ast_list *l = p_is(p, 0, "ORDER") ? &st->order_by_key : &st->primary_key;
            p_adv(p), p_adv(p);
            ast *e = parse_expr(p);
            if (!e)
                return NULL;
            if (e->kind == AST_FUNC && !strcmp(e->name, "tuple") && !e->has_params)
                *l = e->args;
            else
                ast_list_push(p->a, l, e);
        } else if (p_accept(p, "SETTINGS")) {
            if (!parse_settings_list(p, &st->settings))
                return NULL;
        } else if (p_accept(p, "COMMENT")) {
            if (p_kind(p) != TK_STRING)
                return p_fail(p, "string literal");
            ast *l = parse_expr(p);
            if (!l)
                return NULL;
            st->comment = l->str;
        } else if (p_is(p, 0, "SAMPLE") && p_is(p, 1, "BY")) {
            p_adv(p), p_adv(p);
            if (!(st->sample_by = parse_expr(p)))
                return NULL;
        } else if (p_is(p, 0, "TTL")) {
            /* table TTL: the rest kept as text, st->ttl set, so that the statement layer
             * refuses it (not implemented) */
            st->ttl = ast_new(p->a, AST_LITERAL, p_cur(p)->start);
            return rest_as_text(p, st);
        } else if (mv && p_accept(p, "POPULATE")) {
            st->populate = true;
        } else if (p_is(p, 0, "EMPTY") && p_is(p, 1, "AS") && p_is_select_start(p, 2)) {
            p_adv(p), p_adv(p);
            st->create_empty = true;
            if (!(st->as_select = parse_select_union(p)))
                return NULL;
        } else if (p_accept(p, "AS")) {
            if (p_is_select_start(p, 0)) {
                if (!(st->as_select = parse_select_union(p)))
                    return NULL;
            } else {
                /* CREATE TABLE t AS other [ENGINE …]: source table in `sub` */
                ast *src = ast_new(p->a, AST_TABLE, p_cur(p)->start);
                if (parse_table_name(p, src) < 0)
                    return NULL;
                st->sub = src;
            }
        } else {
            break;
        }
    }
    if (!st->columns.n && !st->as_select && !st->sub)
        return p_fail(p, "one of: opening parenthesis, AS");
    return st;
}

static ast *parse_create_table(parser *p, ast *st)
{
    return parse_create_head(p, st) < 0 ? NULL : parse_create_body(p, st);
}

/* CREATE MATERIALIZED VIEW [IF NOT EXISTS] [db.]mv [TO [db.]target] [(columns)]
 * [ENGINE = … ORDER BY …] [POPULATE] AS SELECT …: show_what "MATERIALIZED VIEW", the
 * target in mv_to, the SELECT's text in str / str_len (as CREATE VIEW). A refreshable
 * view (REFRESH …) and TO INNER UUID are kept as text: interp/ddl.c refuses them. */
static ast *parse_create_mv(parser *p, ast *st)
{
    st->show_what = "MATERIALIZED VIEW";
    if (parse_create_head(p, st) < 0)
        return NULL;
    if (p_is(p, 0, "REFRESH") || (p_is(p, 0, "TO") && p_is(p, 1, "INNER"))) {
        st->show_what = p_is(p, 0, "REFRESH") ? "REFRESHABLE MATERIALIZED VIEW" : "MATERIALIZED VIEW TO INNER";
        return rest_as_text(p, st);
    }
    if (p_accept(p, "TO")) {
        ast *to = ast_new(p->a, AST_TABLE, p_cur(p)->start);
        if (parse_table_name(p, to) < 0)
            return NULL;
        st->mv_to = to;
    }
    if (!parse_create_body(p, st))
        return NULL;
    if (st->ttl)
        return st; /* refused by the statement layer */
    if (!st->as_select)
        return p_fail(p, "AS SELECT");
    st->str = arena_strndup(p->a, p->s + st->as_select->pos, (size_t)(prev_end(p) - st->as_select->pos));
    st->str_len = (size_t)(prev_end(p) - st->as_select->pos);
    return st;
}

/* CREATE [OR REPLACE] FUNCTION, at the name: [IF NOT EXISTS] name AS lambda. */
static ast *parse_create_function(parser *p, ast *st)
{
    st->kind = AST_STMT_CREATE_FUNCTION;
    if (p_is(p, 0, "IF") && p_is(p, 1, "NOT") && p_is(p, 2, "EXISTS")) {
        p_adv(p), p_adv(p), p_adv(p);
        st->if_not_exists = true;
    }
    if (!(st->name = p_ident(p)))
        return NULL;
    if (p_is(p, 0, "ON") && p_is(p, 1, "CLUSTER"))
        return p_fail(p, "AS (ON CLUSTER is not supported)");
    if (!expect_word(p, "AS"))
        return NULL;
    int start = p_cur(p)->start;
    if (!(st->sub = parse_expr(p)))
        return NULL;
    st->str = arena_strndup(p->a, p->s + start, (size_t)(prev_end(p) - start));
    st->str_len = (size_t)(prev_end(p) - start);
    return st;
}

static ast *parse_insert(parser *p, ast *st)
{
    st->kind = AST_STMT_INSERT;
    if (!expect_word(p, "INTO"))
        return NULL;
    if (p_accept(p, "FUNCTION")) {
        tok *nt = p_cur(p);
        if (!p_is_ident(p) || p_peek(p, 1)->kind != TK_LPAREN)
            return p_fail(p, "table function");
        ast *f = mk_func(p, p_ident(p), nt->start);
        p_adv(p);
        if (!p_accept_tok(p, TK_RPAREN) &&
            (parse_expr_list(p, &f->args, false) < 0 || !expect_tok(p, TK_RPAREN, "closing parenthesis")))
            return NULL;
        f->end = prev_end(p);
        st->table_func = f;
    } else {
        p_accept(p, "TABLE");
        if (parse_table_name(p, st) < 0)
            return NULL;
    }
    if (p_kind(p) == TK_LPAREN && !p_is_select_start(p, 1)) {
        p_adv(p);
        if (parse_expr_list(p, &st->insert_columns, false) < 0 || !expect_tok(p, TK_RPAREN, "closing parenthesis"))
            return NULL;
    }
    if (p_is(p, 0, "PARTITION") && p_is(p, 1, "BY")) {
        p_adv(p), p_adv(p);
        ast *e = parse_expr(p);
        if (!e)
            return NULL;
        ast_list_push(p->a, &st->partition_by, e);
    }
    if (p_accept(p, "SETTINGS") && !parse_settings_list(p, &st->settings))
        return NULL;
    if (p_is(p, 0, "VALUES")) {
        tok *v = p_cur(p);
        st->format = "Values";
        /* the data: up to a ';' outside quotes and brackets, or the end */
        lexer lx;
        lexer_init(&lx, p->s, p->len, (size_t)v->end);
        size_t start = lexer_skip_space(p->s, p->len, (size_t)v->end), end = start;
        int depth = 0;
        for (;;) {
            tok t = lexer_next(&lx);
            if (t.kind == TK_EOF || t.kind == TK_ERROR || (t.kind == TK_SEMI && depth <= 0))
                break;
            if (t.kind == TK_LPAREN || t.kind == TK_LBRACKET || t.kind == TK_LBRACE)
                depth++;
            if (t.kind == TK_RPAREN || t.kind == TK_RBRACKET || t.kind == TK_RBRACE)
                depth--;
            end = (size_t)t.end;
        }
        st->insert_data = p->s + start;
        st->insert_data_len = end - start;
        /* re-position the token stream just past the data */
        p->ntoks = p->i;
        lexer_init(&p->lx, p->s, p->len, end);
        p->lx.prev = TK_RPAREN;
        return st;
    }
    if (p_accept(p, "FORMAT")) {
        tok *ft = p_cur(p);
        st->format = p_ident(p);
        if (!st->format)
            return NULL;
        (void)ft;
        size_t e = (size_t)prev_end(p);
        /* skip blanks and one line break; data runs to the end of the input */
        while (e < p->len && (p->s[e] == ' ' || p->s[e] == '\t'))
            e++;
        if (e < p->len && p->s[e] == '\r')
            e++;
        if (e < p->len && p->s[e] == '\n')
            e++;
        st->insert_data = p->s + e;
        st->insert_data_len = p->len - e;
        p->ntoks = p->i;
        lexer_init(&p->lx, p->s, p->len, p->len);
        return st;
    }
    if (p_is_select_start(p, 0)) {
        st->sub = parse_select_union(p);
        return st->sub ? st : NULL;
    }
    return p_fail(p, "one of: VALUES, FORMAT, SELECT, WITH, opening parenthesis");
}

ast *rest_as_text(parser *p, ast *st)
{
    tok *t = p_cur(p);
    int start = t->start, end = start;
    while (p_kind(p) != TK_EOF && p_kind(p) != TK_SEMI) {
        if (p_kind(p) == TK_ERROR)
            return p_fail(p, "");
        end = p_cur(p)->end;
        p_adv(p);
    }
    st->str = arena_strndup(p->a, p->s + start, (size_t)(end - start));
    st->str_len = (size_t)(end - start);
    return st;
}

/* BACKUP|RESTORE {TABLE [db.]t [AS [db.]t2] | DATABASE d [AS d2]} [, …]
 *   TO|FROM Engine(args) [SETTINGS name = value, …] [ASYNC]
 * What shale does not back up (DICTIONARY, VIEW, TEMPORARY TABLE, ALL, EXCEPT,
 * PARTITIONS, ON CLUSTER) fails here with a clear message rather than being ignored. */
static ast *parse_backup(parser *p, ast *st)
{
    bool restore = p_is(p, 0, "RESTORE");
    st->kind = restore ? AST_STMT_RESTORE : AST_STMT_BACKUP;
    p_adv(p);
    for (;;) {
        ast *e = ast_new(p->a, AST_TABLE, p_cur(p)->start);
        if (p_accept(p, "TABLE")) {
            e->show_what = "TABLE";
            if (parse_table_name(p, e) < 0)
                return NULL;
        } else if (p_accept(p, "DATABASE")) {
            e->show_what = "DATABASE";
            if (!(e->database = p_ident(p)))
                return NULL;
        } else {
            return p_fail(p, "TABLE or DATABASE (DICTIONARY, VIEW, TEMPORARY TABLE and ALL are not supported)");
        }
        if (p_accept(p, "AS")) {
            ast *to = ast_new(p->a, AST_TABLE, p_cur(p)->start);
            if (e->table_name ? parse_table_name(p, to) < 0 : !(to->database = p_ident(p)))
                return NULL;
            e->sub = to;
        }
        if (p_is(p, 0, "PARTITION") || p_is(p, 0, "PARTITIONS") || p_is(p, 0, "EXCEPT"))
            return p_fail(p, restore ? "FROM (PARTITIONS and EXCEPT are not supported)"
                                     : "TO (PARTITIONS and EXCEPT are not supported)");
        e->end = prev_end(p);
        ast_list_push(p->a, &st->args, e);
        if (!p_accept_tok(p, TK_COMMA))
            break;
    }
    if (p_is(p, 0, "ON") && p_is(p, 1, "CLUSTER"))
        return p_fail(p, restore ? "FROM (ON CLUSTER is not supported)" : "TO (ON CLUSTER is not supported)");
    if (!expect_word(p, restore ? "FROM" : "TO"))
        return NULL;
    ast *dest = parse_expr(p);
    if (!dest)
        return NULL;
    if (dest->kind != AST_FUNC)
        return p_fail(p, "a backup engine: File('path'), S3('url', …) or Disk('disk', 'path')");
    st->table_func = dest;
    if (p_accept(p, "SETTINGS") && !parse_settings_list(p, &st->settings))
        return NULL;
    if (p_accept(p, "ASYNC"))
        st->final = true;
    else
        p_accept(p, "SYNC");
    return st;
}

static ast *parse_statement(parser *p)
{
    tok *t = p_cur(p);
    int pos = t->start;
    ast *st = ast_new(p->a, AST_STMT_SELECT, pos);
    if (p_is_select_start(p, 0)) {
        st->sub = parse_select_union(p);
        if (!st->sub || parse_stmt_tail(p, st) < 0)
            return NULL;
        return st;
    }
    if (p_accept(p, "INSERT"))
        return parse_insert(p, st);
    if (p_accept(p, "SET")) {
        st->kind = AST_STMT_SET;
        return parse_settings_list(p, &st->settings) ? st : NULL;
    }
    if (p_accept(p, "DESCRIBE") || p_accept(p, "DESC")) {
        st->kind = AST_STMT_DESCRIBE;
        if (p_is(p, 0, "TABLE") && p_peek(p, 1)->kind != TK_LPAREN)
            p_adv(p);
        st->sub = parse_table_elem(p);
        if (!st->sub || parse_stmt_tail(p, st) < 0)
            return NULL;
        return st;
    }
    if (p_accept(p, "EXPLAIN")) {
        st->kind = AST_STMT_EXPLAIN;
        static const char *const kinds[] = {"AST", "SYNTAX", "PLAN", "PIPELINE", "ESTIMATE", NULL};
        st->explain_kind = "PLAN";
        for (int k = 0; kinds[k]; k++)
            if (p_accept(p, kinds[k])) {
                st->explain_kind = kinds[k];
                break;
            }
        if (p_is(p, 0, "QUERY") && p_is(p, 1, "TREE")) {
            p_adv(p), p_adv(p);
            st->explain_kind = "QUERY TREE";
        }
        /* EXPLAIN options: name = value, … */
        if (p_is_ident(p) && p_peek(p, 1)->kind == TK_EQ && !parse_settings_list(p, &st->args))
            return NULL;
        if (p_enter(p) < 0)
            return NULL;
        st->sub = parse_statement(p);
        p_leave(p);
        return st->sub ? st : NULL;
    }
    if (p_accept(p, "CREATE")) {
        if (p_is(p, 0, "OR") && p_is(p, 1, "REPLACE")) {
            p_adv(p), p_adv(p);
            st->or_replace = true;
        }
        if (p_accept(p, "FUNCTION"))
            return parse_create_function(p, st);
        if (p_accept(p, "TEMPORARY"))
            st->temporary = true;
        if (p_accept(p, "TABLE"))
            return parse_create_table(p, st);
        if (p_accept(p, "VIEW")) {
            /* CREATE VIEW [IF NOT EXISTS] name [(columns)] AS SELECT …: a CREATE TABLE with
             * show_what "VIEW"; the SELECT's text as written in str / str_len. */
            ast *v = parse_create_table(p, st);
            if (!v)
                return NULL;
            if (!v->as_select)
                return p_fail(p, "AS SELECT");
            v->show_what = "VIEW";
            v->str = arena_strndup(p->a, p->s + v->as_select->pos, (size_t)(prev_end(p) - v->as_select->pos));
            v->str_len = (size_t)(prev_end(p) - v->as_select->pos);
            return v;
        }
        if (p_is(p, 0, "MATERIALIZED") && p_is(p, 1, "VIEW")) {
            p_adv(p), p_adv(p);
            return parse_create_mv(p, st);
        }
        if (p_is(p, 0, "LIVE") || p_is(p, 0, "WINDOW")) {
            /* kept as text: interp/ddl.c says they are not supported */
            st->kind = AST_STMT_CREATE_TABLE;
            st->show_what = p_is(p, 0, "LIVE") ? "LIVE VIEW" : "WINDOW VIEW";
            return rest_as_text(p, st);
        }
        if (p_accept(p, "DATABASE")) {
            st->kind = AST_STMT_CREATE_DATABASE;
            if (p_is(p, 0, "IF") && p_is(p, 1, "NOT") && p_is(p, 2, "EXISTS")) {
                p_adv(p), p_adv(p), p_adv(p);
                st->if_not_exists = true;
            }
            if (!(st->database = p_ident(p)))
                return NULL;
            if (p_accept(p, "ENGINE")) {
                p_accept_tok(p, TK_EQ);
                int ep = p_cur(p)->start;
                char *nm = p_ident(p);
                if (!nm)
                    return NULL;
                st->engine = mk_func(p, nm, ep);
                if (p_accept_tok(p, TK_LPAREN) && !p_accept_tok(p, TK_RPAREN) &&
                    (parse_expr_list(p, &st->engine->args, false) < 0 || !expect_tok(p, TK_RPAREN, "closing parenthesis")))
                    return NULL;
            }
            return st;
        }
        return p_fail(p, "one of: TABLE, VIEW, DATABASE, TEMPORARY, OR REPLACE");
    }
    if (p_is(p, 0, "DROP") && p_is(p, 1, "FUNCTION")) {
        p_adv(p), p_adv(p);
        st->kind = AST_STMT_DROP_FUNCTION;
        if (p_is(p, 0, "IF") && p_is(p, 1, "EXISTS")) {
            p_adv(p), p_adv(p);
            st->if_exists = true;
        }
        if (!(st->name = p_ident(p)))
            return NULL;
        if (p_is(p, 0, "ON") && p_is(p, 1, "CLUSTER"))
            return p_fail(p, "end of query (ON CLUSTER is not supported)");
        return st;
    }
    if (p_accept(p, "DROP")) {
        st->kind = AST_STMT_DROP;
        if (p_accept(p, "TEMPORARY"))
            st->temporary = true;
        if (p_is(p, 0, "TABLE") || p_is(p, 0, "DATABASE") || p_is(p, 0, "VIEW") || p_is(p, 0, "DICTIONARY")) {
            st->show_what = word_upper(p);
            p_adv(p);
        } else {
            return p_fail(p, "one of: TABLE, DATABASE, VIEW, DICTIONARY");
        }
        if (p_is(p, 0, "IF") && p_is(p, 1, "EXISTS")) {
            p_adv(p), p_adv(p);
            st->if_exists = true;
        }
        if (!strcmp(st->show_what, "DATABASE")) {
            if (!(st->database = p_ident(p)))
                return NULL;
        } else if (parse_table_name(p, st) < 0) {
            return NULL;
        }
        p_accept(p, "SYNC");
        return st;
    }
    if (p_is(p, 0, "DETACH") || p_is(p, 0, "ATTACH")) {
        bool detach = p_is(p, 0, "DETACH");
        st->kind = detach ? AST_STMT_DETACH : AST_STMT_ATTACH;
        p_adv(p);
        if (p_accept(p, "TEMPORARY"))
            st->temporary = true;
        if (p_is(p, 0, "TABLE") || p_is(p, 0, "DATABASE") || p_is(p, 0, "DICTIONARY") || (detach && p_is(p, 0, "VIEW"))) {
            st->show_what = word_upper(p);
            p_adv(p);
        } else {
            return p_fail(p, detach ? "one of: TABLE, VIEW, DICTIONARY, DATABASE" : "one of: TABLE, DICTIONARY, DATABASE");
        }
        if (p_is(p, 0, "IF") && p_is(p, 1, detach ? "EXISTS" : "NOT") && (detach || p_is(p, 2, "EXISTS"))) {
            p_adv(p), p_adv(p);
            if (detach)
                st->if_exists = true;
            else
                p_adv(p), st->if_not_exists = true;
        }
        if (!strcmp(st->show_what, "DATABASE")) {
            if (!(st->database = p_ident(p)))
                return NULL;
        } else if (parse_table_name(p, st) < 0) {
            return NULL;
        }
        if (detach) {
            if (p_accept(p, "PERMANENTLY"))
                st->str = "PERMANENTLY";
            p_accept(p, "SYNC");
            return st;
        }
        if (p_kind(p) != TK_EOF && p_kind(p) != TK_SEMI)
            return rest_as_text(p, st);
        return st;
    }
    if (p_accept(p, "TRUNCATE")) {
        st->kind = AST_STMT_TRUNCATE;
        p_accept(p, "TABLE");
        if (p_is(p, 0, "IF") && p_is(p, 1, "EXISTS")) {
            p_adv(p), p_adv(p);
            st->if_exists = true;
        }
        return parse_table_name(p, st) < 0 ? NULL : st;
    }
    if (p_accept(p, "RENAME")) {
        st->kind = AST_STMT_RENAME;
        if (!expect_word(p, "TABLE"))
            return NULL;
        for (;;) {
            ast *from = ast_new(p->a, AST_TABLE, p_cur(p)->start);
            if (parse_table_name(p, from) < 0 || !expect_word(p, "TO"))
                return NULL;
            ast *to = ast_new(p->a, AST_TABLE, p_cur(p)->start);
            if (parse_table_name(p, to) < 0)
                return NULL;
            ast_list_push(p->a, &st->args, from);
            ast_list_push(p->a, &st->args, to);
            if (!p_accept_tok(p, TK_COMMA))
                break;
        }
        st->database = st->args.items[0]->database;
        st->table_name = st->args.items[0]->table_name;
        return st;
    }
    if (p_accept(p, "EXCHANGE")) {
        /* EXCHANGE TABLES a AND b (EXCHANGE DICTIONARIES is not supported) */
        st->kind = AST_STMT_RENAME;
        st->exchange = true;
        if (!expect_word(p, "TABLES"))
            return NULL;
        ast *a = ast_new(p->a, AST_TABLE, p_cur(p)->start);
        if (parse_table_name(p, a) < 0 || !expect_word(p, "AND"))
            return NULL;
        ast *b = ast_new(p->a, AST_TABLE, p_cur(p)->start);
        if (parse_table_name(p, b) < 0)
            return NULL;
        ast_list_push(p->a, &st->args, a);
        ast_list_push(p->a, &st->args, b);
        st->database = a->database;
        st->table_name = a->table_name;
        return parse_stmt_tail(p, st) < 0 ? NULL : st;
    }
    if (p_accept(p, "SHOW")) {
        st->kind = AST_STMT_SHOW;
        if (p_accept(p, "TABLES")) {
            st->show_what = "TABLES";
            if ((p_accept(p, "FROM") || p_accept(p, "IN")) && !(st->database = p_ident(p)))
                return NULL;
            if (p_accept(p, "LIKE")) {
                if (p_kind(p) != TK_STRING)
                    return p_fail(p, "string literal");
                st->sub = parse_expr(p);
            }
        } else if (p_accept(p, "DATABASES")) {
            st->show_what = "DATABASES";
        } else if (p_accept(p, "CREATE")) {
            st->show_what = "CREATE TABLE";
            if (p_accept(p, "DATABASE")) {
                st->show_what = "CREATE DATABASE";
                if (!(st->database = p_ident(p)))
                    return NULL;
            } else {
                if (!p_accept(p, "TABLE"))
                    p_accept(p, "VIEW");
                if (parse_table_name(p, st) < 0)
                    return NULL;
            }
        } else {
            return p_fail(p, "one of: TABLES, DATABASES, CREATE");
        }
        return parse_stmt_tail(p, st) < 0 ? NULL : st;
    }
    if (p_accept(p, "EXISTS")) {
        /* EXISTS [TEMPORARY] [TABLE | DATABASE] name: an AST_STMT_SHOW ("EXISTS TABLE"). */
        st->kind = AST_STMT_SHOW;
        p_accept(p, "TEMPORARY");
        st->show_what = "EXISTS TABLE";
        if (p_accept(p, "DATABASE")) {
            st->show_what = "EXISTS DATABASE";
            if (!(st->database = p_ident(p)))
                return NULL;
        } else {
            if (!p_accept(p, "TABLE"))
                p_accept(p, "DICTIONARY");
            if (parse_table_name(p, st) < 0)
                return NULL;
        }
        return parse_stmt_tail(p, st) < 0 ? NULL : st;
    }
    if (p_accept(p, "USE")) {
        st->kind = AST_STMT_USE;
        return (st->database = p_ident(p)) ? st : NULL;
    }
    if (p_accept(p, "OPTIMIZE")) {
        st->kind = AST_STMT_OPTIMIZE;
        if (!expect_word(p, "TABLE") || parse_table_name(p, st) < 0)
            return NULL;
        if (p_accept(p, "PARTITION")) {
            /* PARTITION expr | PARTITION ID 'x': kept as text for the engine, which
             * evaluates it against its partition key. */
            int start = p_cur(p)->start;
            if (p_is(p, 0, "ID") && p_peek(p, 1)->kind == TK_STRING) {
                p_adv(p), p_adv(p);
            } else if (!parse_expr(p)) {
                return NULL;
            }
            int end = prev_end(p);
            st->str = arena_strndup(p->a, p->s + start, (size_t)(end - start));
            st->str_len = (size_t)(end - start);
        }
        if (p_accept(p, "FINAL"))
            st->final = true;
        if ((st->deduplicate = p_accept(p, "DEDUPLICATE")) && p_accept(p, "BY") && !parse_expr(p))
            return NULL;
        return parse_stmt_tail(p, st) < 0 ? NULL : st;
    }
    if (p_accept(p, "SYSTEM")) {
        st->kind = AST_STMT_SYSTEM;
        if (p_kind(p) != TK_WORD)
            return p_fail(p, "SYSTEM query");
        return rest_as_text(p, st);
    }
    if (p_accept(p, "KILL")) {
        st->kind = AST_STMT_KILL;
        if (!p_is(p, 0, "QUERY") && !p_is(p, 0, "MUTATION"))
            return p_fail(p, "QUERY or MUTATION");
        st->show_what = p_is(p, 0, "QUERY") ? "QUERY" : "MUTATION";
        p_adv(p);
        if (p_is(p, 0, "ON") && p_is(p, 1, "CLUSTER"))
            return p_fail(p, "WHERE (ON CLUSTER is not supported)");
        if (!expect_word(p, "WHERE") || !(st->where = parse_expr(p)))
            return NULL;
        st->str = "ASYNC";
        if (p_accept(p, "SYNC"))
            st->str = "SYNC";
        else if (p_accept(p, "ASYNC"))
            st->str = "ASYNC";
        else if (p_accept(p, "TEST"))
            st->str = "TEST";
        return parse_stmt_tail(p, st) < 0 ? NULL : st;
    }
    if (p_is(p, 0, "BACKUP") || p_is(p, 0, "RESTORE"))
        return parse_backup(p, st);
    if (p_accept(p, "CHECK")) {
        st->kind = AST_STMT_CHECK;
        if (!expect_word(p, "TABLE") || parse_table_name(p, st) < 0)
            return NULL;
        return parse_stmt_tail(p, st) < 0 ? NULL : st;
    }
    if (p_accept(p, "ALTER"))
        return parse_alter(p, st);
    if (p_accept(p, "DELETE"))
        return parse_delete(p, st);
    return p_fail(p, "one of: SELECT, WITH, INSERT, SET, DESCRIBE, EXPLAIN, CREATE, DROP, DETACH, ATTACH, TRUNCATE, "
                     "RENAME, SHOW, EXISTS, USE, OPTIMIZE, SYSTEM, CHECK, ALTER, DELETE, EXCHANGE, KILL, BACKUP, RESTORE");
}

int sql_parse_statement(arena *a, const char *sql, size_t len, size_t *pos, int max_depth, ast **out)
{
    *out = NULL;
    size_t start = *pos;
    /* skip empty statements */
    for (;;) {
        start = lexer_skip_space(sql, len, start);
        if (start < len && sql[start] == ';')
            start++;
        else
            break;
    }
    if (start >= len) {
        *pos = len;
        return 0;
    }
    parser p = {0};
    p.a = a;
    p.s = sql;
    p.len = len;
    p.max_depth = max_depth > 0 ? max_depth : 1000;
    lexer_init(&p.lx, sql, len, start);
    ast *st = parse_statement(&p);
    if (!st) {
        if (!p.failed)
            p_fail(&p, "end of query");
        return -1;
    }
    if (p_kind(&p) != TK_EOF && p_kind(&p) != TK_SEMI) {
        p_fail(&p, "end of query");
        return -1;
    }
    st->end = prev_end(&p);
    if (p_kind(&p) == TK_SEMI)
        *pos = (size_t)p_cur(&p)->end;
    else
        *pos = len;
    *out = st;
    return 0;
}

size_t sql_statement_end(const char *sql, size_t len, size_t pos)
{
    lexer lx;
    lexer_init(&lx, sql, len, pos);
    int depth = 0, ntok = 0;
    bool insert = false, after_format = false, values = false;
    for (;;) {
        tok t = lexer_next(&lx);
        if (t.kind == TK_EOF || t.kind == TK_ERROR)
            return len;
        if (ntok == 0 && lexer_is_word(sql, &t, "INSERT"))
            insert = true;
        ntok++;
        if (after_format && (t.kind == TK_WORD || t.kind == TK_QIDENT))
            return len; /* inline data after INSERT … FORMAT x runs to the end */
        after_format = false;
        if (insert && depth == 0 && !values) {
            if (lexer_is_word(sql, &t, "FORMAT"))
                after_format = true;
            if (lexer_is_word(sql, &t, "VALUES"))
                values = true;
            if (lexer_is_word(sql, &t, "SELECT"))
                insert = false;
        }
        if (t.kind == TK_LPAREN || t.kind == TK_LBRACKET || t.kind == TK_LBRACE)
            depth++;
        else if (t.kind == TK_RPAREN || t.kind == TK_RBRACKET || t.kind == TK_RBRACE)
            depth--;
        else if (t.kind == TK_SEMI && depth <= 0)
            return (size_t)t.end;
    }
}
