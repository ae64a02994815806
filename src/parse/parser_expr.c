/* Expression parser: ClickHouse operator precedence, literals, special forms. */
#include "parse/parser_int.h"

#include <ctype.h>
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

tok *p_peek(parser *p, int k)
{
    while (p->i + k >= p->ntoks) {
        if (p->ntoks > 0 && (p->toks[p->ntoks - 1].kind == TK_EOF || p->toks[p->ntoks - 1].kind == TK_ERROR))
            return &p->toks[p->ntoks - 1];
        if (p->ntoks == p->cap) {
            int nc = p->cap ? p->cap * 2 : 64;
            tok *nt = ARENA_ARRAY(p->a, tok, (size_t)nc);
            if (p->ntoks)
                memcpy(nt, p->toks, sizeof(tok) * (size_t)p->ntoks);
            p->toks = nt;
            p->cap = nc;
        }
        p->toks[p->ntoks++] = lexer_next(&p->lx);
    }
    return &p->toks[p->i + k];
}

void p_adv(parser *p)
{
    tok *t = p_cur(p);
    if (t->kind != TK_EOF && t->kind != TK_ERROR)
        p->i++;
}

bool p_is(parser *p, int k, const char *kw) { return lexer_is_word(p->s, p_peek(p, k), kw); }

bool p_accept(parser *p, const char *kw)
{
    if (p_is(p, 0, kw)) {
        p_adv(p);
        return true;
    }
    return false;
}

bool p_accept_tok(parser *p, tok_kind k)
{
    if (p_kind(p) == k) {
        p_adv(p);
        return true;
    }
    return false;
}

void *p_fail(parser *p, const char *expected)
{
    if (p->failed)
        return NULL;
    p->failed = true;
    tok *t = p_cur(p);
    int pos = t->start;
    int line = 1, col = 1;
    bool multiline = memchr(p->s, '\n', p->len) != NULL;
    for (int k = 0; k < pos && (size_t)k < p->len; k++) {
        if (p->s[k] == '\n') {
            line++;
            col = 1;
        } else {
            col++;
        }
    }
    char where[64] = "";
    if (multiline)
        snprintf(where, sizeof where, " (line %d, col %d)", line, col);
    /* the token text, then an excerpt of the rest of the query */
    int tlen = t->end - t->start;
    if (tlen > 60)
        tlen = 60;
    size_t rest = p->len - (size_t)pos;
    int elen = rest > 100 ? 100 : (int)rest;
    const char *tk = t->kind == TK_EOF ? "end of query" : NULL;
    if (t->kind == TK_ERROR) {
        err_set(ERR_SYNTAX_ERROR, "%s: Syntax error: failed at position %d (%.*s)%s: %.*s. %s", t->err, pos + 1,
                tlen, p->s + pos, where, elen, p->s + pos, expected ? expected : "");
    } else if (tk) {
        err_set(ERR_SYNTAX_ERROR, "Syntax error: failed at position %d (%s)%s: %.*s. Expected %s.", pos + 1, tk,
                where, elen, p->s + pos, expected);
    } else {
        err_set(ERR_SYNTAX_ERROR, "Syntax error: failed at position %d (%.*s)%s: %.*s. Expected %s.", pos + 1,
                tlen, p->s + pos, where, elen, p->s + pos, expected);
    }
    return NULL;
}

int p_enter(parser *p)
{
    if (++p->depth > p->max_depth) {
        if (!p->failed) {
            p->failed = true;
            err_set(ERR_TOO_DEEP_AST, "Maximum parse depth (%d) exceeded. Consider rising max_parser_depth parameter.",
                    p->max_depth);
        }
        p->depth--;
        return -1;
    }
    return 0;
}

char *p_tok_text(parser *p, const tok *t) { return arena_strndup(p->a, p->s + t->start, (size_t)(t->end - t->start)); }

bool p_is_ident(parser *p) { return p_kind(p) == TK_WORD || p_kind(p) == TK_QIDENT; }

char *p_ident(parser *p)
{
    tok *t = p_cur(p);
    if (t->kind == TK_WORD) {
        p_adv(p);
        return p_tok_text(p, t);
    }
    if (t->kind == TK_QIDENT) {
        size_t n = (size_t)(t->end - t->start - 2);
        char *d = arena_alloc(p->a, n + 1, 1);
        size_t m = lexer_unescape(p->s + t->start + 1, n, p->s[t->start], d);
        d[m] = 0;
        p_adv(p);
        return d;
    }
    return p_fail(p, "identifier");
}

/* Words that end an expression in a list and so are never implicit aliases. */
static const char *const reserved_alias[] = {
    "FROM", "WHERE", "PREWHERE", "GROUP", "HAVING", "ORDER", "LIMIT", "OFFSET", "SETTINGS", "FORMAT",
    "UNION", "EXCEPT", "INTERSECT", "INTO", "WITH", "AS", "JOIN", "INNER", "LEFT", "RIGHT", "FULL", "CROSS",
    "ON", "USING", "FINAL", "ARRAY", "GLOBAL", "ANY", "ALL", "SEMI", "ANTI", "ASOF", "PASTE", "WINDOW",
    "QUALIFY", "AND", "OR", "NOT", "IS", "BETWEEN", "LIKE", "ILIKE", "IN", "DESC", "ASC", "DESCENDING",
    "ASCENDING", "NULLS", "COLLATE", "SAMPLE", "BY", "OUTER", "LOCAL", "TOTALS", "FETCH", "REGEXP",
    "DIV", "MOD", "VALUES", "SELECT", "PARTITION", "ENGINE", "PRIMARY", "TTL", "COMMENT", "CODEC",
    "DEFAULT", "MATERIALIZED", "ALIAS", "EPHEMERAL", "NULL", "THEN", "ELSE", "END", "WHEN", "OVER", NULL};

bool p_is_reserved_alias(parser *p, const tok *t)
{
    for (int k = 0; reserved_alias[k]; k++)
        if (lexer_is_word(p->s, t, reserved_alias[k]))
            return true;
    return false;
}

bool p_is_select_start(parser *p, int k)
{
    return p_is(p, k, "SELECT") || p_is(p, k, "WITH") ||
           (p_peek(p, k)->kind == TK_LPAREN && p_is_select_start(p, k + 1));
}

ast *mk_func(parser *p, const char *name, int pos)
{
    ast *f = ast_new(p->a, AST_FUNC, pos);
    f->name = name;
    return f;
}

ast *mk_string(parser *p, const char *s, size_t n, int pos)
{
    ast *l = ast_new(p->a, AST_LITERAL, pos);
    l->lit = LIT_STRING;
    l->str = arena_strndup(p->a, s, n);
    l->str_len = n;
    return l;
}

static ast *op2(parser *p, const char *name, ast *a, ast *b)
{
    ast *f = mk_func(p, name, a->pos);
    f->is_operator = true;
    ast_list_push(p->a, &f->args, a);
    ast_list_push(p->a, &f->args, b);
    f->end = b->end;
    return f;
}

static ast *op1(parser *p, const char *name, ast *a, int pos)
{
    ast *f = mk_func(p, name, pos);
    f->is_operator = true;
    ast_list_push(p->a, &f->args, a);
    f->end = a->end;
    return f;
}

/* ---- literals ---- */

static ast *number_literal(parser *p, const tok *t, bool neg, int pos)
{
    ast *l = ast_new(p->a, AST_LITERAL, pos);
    const char *s = p->s + t->start;
    size_t n = (size_t)(t->end - t->start);
    char tmp[512];
    size_t w = 0; /* without the `_` separators */
    for (size_t k = 0; k < n && w + 1 < sizeof tmp; k++)
        if (s[k] != '_')
            tmp[w++] = s[k];
    n = w;
    tmp[n] = 0;
    l->text = arena_printf(p->a, "%s%s", neg ? "-" : "", tmp);
    l->end = t->end;
    bool is_float = false;
    uint64_t u = 0;
    bool overflow = false;
    if (n > 2 && tmp[0] == '0' && (tmp[1] == 'x' || tmp[1] == 'X' || tmp[1] == 'b' || tmp[1] == 'B')) {
        int base = (tmp[1] == 'x' || tmp[1] == 'X') ? 16 : 2;
        for (size_t k = 2; k < n; k++) {
            int d = isdigit((unsigned char)tmp[k]) ? tmp[k] - '0' : tolower((unsigned char)tmp[k]) - 'a' + 10;
            if (u > (UINT64_MAX - (uint64_t)d) / (uint64_t)base)
                overflow = true;
            u = u * (uint64_t)base + (uint64_t)d;
        }
        if (overflow)
            is_float = true;
    } else {
        for (size_t k = 0; k < n; k++) {
            if (!isdigit((unsigned char)tmp[k])) {
                is_float = true;
                break;
            }
            uint64_t d = (uint64_t)(tmp[k] - '0');
            if (u > (UINT64_MAX - d) / 10)
                overflow = true;
            u = u * 10 + d;
        }
        if (overflow)
            is_float = true;
    }
    if (!is_float && neg && u > (uint64_t)INT64_MAX + 1)
        is_float = true;
    if (is_float) {
        l->lit = LIT_FLOAT;
        l->f = strtod(tmp, NULL);
        if (neg)
            l->f = -l->f;
    } else if (neg) {
        l->lit = LIT_INT;
        l->i = u == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)u;
    } else {
        l->lit = LIT_UINT;
        l->u = u;
    }
    return l;
}

static ast *string_literal(parser *p, const tok *t)
{
    char *d = arena_alloc(p->a, (size_t)(t->end - t->start) + 1, 1);
    size_t m = lexer_string_value(p->s, t, d);
    d[m] = 0;
    ast *l = ast_new(p->a, AST_LITERAL, t->start);
    l->lit = LIT_STRING;
    l->str = d;
    l->str_len = m;
    l->text = p_tok_text(p, t);
    l->end = t->end;
    return l;
}

/* ---- type names ---- */

static void type_text(parser *p, buf *b, int depth);

static void type_arg(parser *p, buf *b, int depth)
{
    /* one argument: a sequence of atoms up to ',' or ')' */
    bool first = true;
    while (!p->failed) {
        tok *t = p_cur(p);
        if (t->kind == TK_COMMA || t->kind == TK_RPAREN || t->kind == TK_EOF || t->kind == TK_ERROR)
            break;
        if (!first && !(b->len && b->p[b->len - 1] == '-'))
            buf_putc(b, ' ');
        first = false;
        if (t->kind == TK_WORD || t->kind == TK_QIDENT) {
            type_text(p, b, depth + 1);
        } else if (t->kind == TK_STRING) {
            ast *l = string_literal(p, t);
            p_adv(p);
            ast_format_name(b, l);
        } else if (t->kind == TK_NUMBER || t->kind == TK_EQ || t->kind == TK_MINUS || t->kind == TK_PLUS) {
            buf_append(b, p->s + t->start, (size_t)(t->end - t->start));
            p_adv(p);
        } else {
            p_fail(p, "data type argument");
            return;
        }
    }
    if (first && !p->failed)
        p_fail(p, "data type argument");
}

static void type_text(parser *p, buf *b, int depth)
{
    if (depth > 64 || p_enter(p) < 0) {
        if (!p->failed)
            p_fail(p, "data type");
        p->failed = true;
        return;
    }
    if (!p_is_ident(p)) {
        p_fail(p, "data type");
        p_leave(p);
        return;
    }
    tok *t = p_cur(p);
    if (t->kind == TK_QIDENT) {
        char *id = p_ident(p);
        buf_puts(b, id);
    } else {
        buf_append(b, p->s + t->start, (size_t)(t->end - t->start));
        p_adv(p);
        /* multi-word SQL types: DOUBLE PRECISION, CHAR VARYING, … keep as written */
        while (p_is(p, 0, "PRECISION") || p_is(p, 0, "VARYING") || p_is(p, 0, "UNSIGNED") || p_is(p, 0, "SIGNED")) {
            buf_putc(b, ' ');
            tok *w = p_cur(p);
            buf_append(b, p->s + w->start, (size_t)(w->end - w->start));
            p_adv(p);
        }
    }
    if (p_kind(p) == TK_LPAREN) {
        p_adv(p);
        buf_putc(b, '(');
        if (p_kind(p) != TK_RPAREN) {
            for (;;) {
                type_arg(p, b, depth);
                if (p->failed)
                    break;
                if (p_accept_tok(p, TK_COMMA)) {
                    buf_puts(b, ", ");
                    continue;
                }
                break;
            }
        }
        if (!p->failed && !p_accept_tok(p, TK_RPAREN))
            p_fail(p, "one of: Comma, closing bracket");
        buf_putc(b, ')');
    }
    p_leave(p);
}

char *parse_type_text(parser *p)
{
    buf b = {0};
    type_text(p, &b, 0);
    char *r = p->failed ? NULL : arena_strndup(p->a, (const char *)b.p, b.len);
    buf_free(&b);
    return r;
}

/* ---- expressions ---- */

static ast *parse_lambda_or_ternary(parser *p);
static ast *attach_alias(parser *p, ast *e);
static ast *parse_unary(parser *p);

static const char *interval_unit(parser *p, int k)
{
    static const char *const units[][3] = {
        {"NANOSECOND", "NANOSECONDS", "Nanosecond"},   {"MICROSECOND", "MICROSECONDS", "Microsecond"},
        {"MILLISECOND", "MILLISECONDS", "Millisecond"}, {"SECOND", "SECONDS", "Second"},
        {"MINUTE", "MINUTES", "Minute"},               {"HOUR", "HOURS", "Hour"},
        {"DAY", "DAYS", "Day"},                        {"WEEK", "WEEKS", "Week"},
        {"MONTH", "MONTHS", "Month"},                  {"QUARTER", "QUARTERS", "Quarter"},
        {"YEAR", "YEARS", "Year"},
    };
    for (size_t u = 0; u < sizeof units / sizeof units[0]; u++)
        if (p_is(p, k, units[u][0]) || p_is(p, k, units[u][1]))
            return units[u][2];
    return NULL;
}

static const char *unit_from_text(const char *s, size_t n)
{
    static const char *const units[][2] = {
        {"nanosecond", "Nanosecond"}, {"microsecond", "Microsecond"}, {"millisecond", "Millisecond"},
        {"second", "Second"}, {"minute", "Minute"}, {"hour", "Hour"}, {"day", "Day"}, {"week", "Week"},
        {"month", "Month"}, {"quarter", "Quarter"}, {"year", "Year"},
    };
    for (size_t u = 0; u < sizeof units / sizeof units[0]; u++) {
        size_t l = strlen(units[u][0]);
        if ((n == l || (n == l + 1 && (s[l] == 's' || s[l] == 'S'))) && strncasecmp(s, units[u][0], l) == 0)
            return units[u][1];
    }
    return NULL;
}

static ast *parse_interval(parser *p, int pos)
{
    tok *t = p_cur(p);
    if (t->kind == TK_STRING && !interval_unit(p, 1)) {
        /* INTERVAL '1 day' */
        ast *s = string_literal(p, t);
        const char *q = s->str;
        size_t n = s->str_len, k = 0;
        while (k < n && q[k] == ' ')
            k++;
        size_t ns = k;
        if (k < n && (q[k] == '-' || q[k] == '+'))
            k++;
        while (k < n && isdigit((unsigned char)q[k]))
            k++;
        size_t ne = k;
        while (k < n && q[k] == ' ')
            k++;
        size_t us = k;
        while (k < n && isalpha((unsigned char)q[k]))
            k++;
        size_t ue = k;
        while (k < n && q[k] == ' ')
            k++;
        const char *unit = ne > ns && us < ue && k == n ? unit_from_text(q + us, ue - us) : NULL;
        if (!unit)
            return p_fail(p, "string literal with an interval ('1 day')");
        p_adv(p);
        char nb[32];
        size_t nl = ne - ns < sizeof nb - 1 ? ne - ns : sizeof nb - 1;
        memcpy(nb, q + ns, nl);
        nb[nl] = 0;
        ast *num = ast_new(p->a, AST_LITERAL, t->start);
        if (nb[0] == '-') {
            num->lit = LIT_INT;
            num->i = strtoll(nb, NULL, 10);
        } else {
            num->lit = LIT_UINT;
            num->u = strtoull(nb, NULL, 10);
        }
        num->text = arena_strdup(p->a, nb);
        ast *f = op1(p, arena_printf(p->a, "toInterval%s", unit), num, pos);
        f->is_operator = false;
        f->end = t->end;
        return f;
    }
    ast *e = parse_lambda_or_ternary(p);
    if (!e)
        return NULL;
    const char *unit = interval_unit(p, 0);
    if (!unit)
        return p_fail(p, "one of: SECOND, MINUTE, HOUR, DAY, WEEK, MONTH, QUARTER, YEAR");
    p_adv(p);
    ast *f = op1(p, arena_printf(p->a, "toInterval%s", unit), e, pos);
    f->is_operator = false;
    f->end = prev_end(p);
    return f;
}

/* function arguments after '(' up to and including ')' */
static int parse_call_args(parser *p, ast *f, ast_list *into)
{
    if (p_accept_tok(p, TK_RPAREN))
        return 0;
    if (p_kind(p) == TK_STAR && p_peek(p, 1)->kind == TK_RPAREN) {
        /* count(*) → count() */
        p_adv(p);
        p_adv(p);
        return 0;
    }
    if (into == &f->args && p_is(p, 0, "DISTINCT") && p_peek(p, 1)->kind != TK_RPAREN &&
        p_peek(p, 1)->kind != TK_COMMA) {
        p_adv(p);
        f->distinct = true;
    } else if (into == &f->args && p_is(p, 0, "ALL") && p_peek(p, 1)->kind != TK_RPAREN &&
               p_peek(p, 1)->kind != TK_COMMA) {
        p_adv(p);
    }
    for (;;) {
        ast *e = parse_expr_alias(p);
        if (!e)
            return -1;
        ast_list_push(p->a, into, e);
        if (p_accept_tok(p, TK_COMMA))
            continue;
        if (p_accept_tok(p, TK_RPAREN))
            return 0;
        p_fail(p, "one of: Comma, closing parenthesis");
        return -1;
    }
}

static ast *parse_case(parser *p, int pos)
{
    ast *subject = NULL;
    if (!p_is(p, 0, "WHEN")) {
        subject = parse_expr(p);
        if (!subject)
            return NULL;
    }
    ast *f = mk_func(p, subject ? "caseWithExpression" : "multiIf", pos);
    if (subject)
        ast_list_push(p->a, &f->args, subject);
    int n = 0;
    while (p_accept(p, "WHEN")) {
        ast *w = parse_expr(p);
        if (!w)
            return NULL;
        if (!p_accept(p, "THEN"))
            return p_fail(p, "THEN");
        ast *t = parse_expr(p);
        if (!t)
            return NULL;
        ast_list_push(p->a, &f->args, w);
        ast_list_push(p->a, &f->args, t);
        n++;
    }
    if (!n)
        return p_fail(p, "WHEN");
    ast *e;
    if (p_accept(p, "ELSE")) {
        e = parse_expr(p);
        if (!e)
            return NULL;
    } else {
        e = ast_new(p->a, AST_LITERAL, prev_end(p));
        e->lit = LIT_NULL;
    }
    ast_list_push(p->a, &f->args, e);
    if (!p_accept(p, "END"))
        return p_fail(p, "one of: WHEN, ELSE, END");
    f->end = prev_end(p);
    return f;
}

static bool is_literalish(const ast *e)
{
    if (e->alias)
        return false;
    if (e->kind == AST_LITERAL)
        return true;
    return false;
}

/* `tok`: a word followed by '(' */
static ast *parse_function(parser *p, tok *name_tok)
{
    int pos = name_tok->start;
    char *name = p_tok_text(p, name_tok);
    p_adv(p); /* name */
    p_adv(p); /* ( */
    /* special forms */
    if (name_tok->kind == TK_WORD) {
        if (!strcasecmp(name, "CAST") || !strcasecmp(name, "_CAST")) {
            ast *x = parse_expr(p);
            if (!x)
                return NULL;
            ast *f = mk_func(p, !strcasecmp(name, "CAST") ? "CAST" : "_CAST", pos);
            ast_list_push(p->a, &f->args, x);
            if (p_accept(p, "AS")) {
                int tp = p_cur(p)->start;
                char *tt = parse_type_text(p);
                if (!tt)
                    return NULL;
                ast_list_push(p->a, &f->args, mk_string(p, tt, strlen(tt), tp));
                if (!expect_tok(p, TK_RPAREN, "closing parenthesis"))
                    return NULL;
            } else if (p_accept_tok(p, TK_COMMA)) {
                ast *t = parse_expr_alias(p);
                if (!t)
                    return NULL;
                ast_list_push(p->a, &f->args, t);
                if (!expect_tok(p, TK_RPAREN, "closing parenthesis"))
                    return NULL;
            } else {
                return p_fail(p, "one of: AS, Comma");
            }
            f->end = prev_end(p);
            return f;
        }
        if (!strcasecmp(name, "EXTRACT") && p_is_ident(p) && p_is(p, 1, "FROM")) {
            static const char *const ex[][2] = {{"YEAR", "toYear"},     {"QUARTER", "toQuarter"},
                                                {"MONTH", "toMonth"},   {"WEEK", "toISOWeek"},
                                                {"DAY", "toDayOfMonth"}, {"HOUR", "toHour"},
                                                {"MINUTE", "toMinute"}, {"SECOND", "toSecond"}};
            const char *fn = NULL;
            for (size_t k = 0; k < sizeof ex / sizeof ex[0]; k++)
                if (p_is(p, 0, ex[k][0]))
                    fn = ex[k][1];
            if (!fn)
                return p_fail(p, "one of: YEAR, QUARTER, MONTH, WEEK, DAY, HOUR, MINUTE, SECOND");
            p_adv(p);
            p_adv(p);
            ast *x = parse_expr(p);
            if (!x || !expect_tok(p, TK_RPAREN, "closing parenthesis"))
                return NULL;
            ast *f = op1(p, fn, x, pos);
            f->is_operator = false;
            f->end = prev_end(p);
            return f;
        }
        if (!strcasecmp(name, "SUBSTRING") || !strcasecmp(name, "SUBSTR")) {
            ast *s = parse_expr_alias(p);
            if (!s)
                return NULL;
            ast *f = mk_func(p, "substring", pos);
            ast_list_push(p->a, &f->args, s);
            if (p_accept(p, "FROM")) {
                ast *a = parse_expr(p);
                if (!a)
                    return NULL;
                ast_list_push(p->a, &f->args, a);
                if (p_accept(p, "FOR")) {
                    ast *b = parse_expr(p);
                    if (!b)
                        return NULL;
                    ast_list_push(p->a, &f->args, b);
                }
                if (!expect_tok(p, TK_RPAREN, "closing parenthesis"))
                    return NULL;
            } else if (p_accept_tok(p, TK_COMMA)) {
                if (parse_call_args(p, f, &f->args) < 0)
                    return NULL;
            } else if (!expect_tok(p, TK_RPAREN, "one of: FROM, Comma, closing parenthesis")) {
                return NULL;
            }
            f->end = prev_end(p);
            return f;
        }
        if (!strcasecmp(name, "TRIM") &&
            (p_is(p, 0, "BOTH") || p_is(p, 0, "LEADING") || p_is(p, 0, "TRAILING"))) {
            const char *fn = p_is(p, 0, "BOTH") ? "trimBoth" : p_is(p, 0, "LEADING") ? "trimLeft" : "trimRight";
            p_adv(p);
            ast *chars = NULL;
            if (!p_is(p, 0, "FROM")) {
                chars = parse_expr(p);
                if (!chars)
                    return NULL;
            }
            if (!p_accept(p, "FROM"))
                return p_fail(p, "FROM");
            ast *s = parse_expr(p);
            if (!s || !expect_tok(p, TK_RPAREN, "closing parenthesis"))
                return NULL;
            ast *f = mk_func(p, fn, pos);
            ast_list_push(p->a, &f->args, s);
            if (!chars)
                chars = mk_string(p, " ", 1, pos);
            ast_list_push(p->a, &f->args, chars);
            f->end = prev_end(p);
            return f;
        }
        if (!strcasecmp(name, "POSITION")) {
            int save = p->i;
            /* POSITION(a IN b): the needle is parsed above comparison level */
            ast *needle = parse_unary(p);
            if (needle && p_accept(p, "IN")) {
                ast *hay = parse_expr(p);
                if (!hay || !expect_tok(p, TK_RPAREN, "closing parenthesis"))
                    return NULL;
                ast *f = op2(p, "position", hay, needle);
                f->is_operator = false;
                f->pos = pos;
                f->end = prev_end(p);
                return f;
            }
            if (p->failed)
                return NULL;
            p->i = save;
        }
    }
    ast *f = mk_func(p, name, pos);
    if (parse_call_args(p, f, &f->args) < 0)
        return NULL;
    if (p_kind(p) == TK_LPAREN) {
        /* parametric: quantile(0.9)(x) */
        p_adv(p);
        f->params = f->args;
        f->args = (ast_list){0};
        f->has_params = true;
        if (parse_call_args(p, f, &f->args) < 0)
            return NULL;
    }
    if (f->distinct)
        f->name = arena_printf(p->a, "%sDistinct", f->name);
    if (p_is(p, 0, "FILTER") && p_peek(p, 1)->kind == TK_LPAREN && p_is(p, 2, "WHERE")) {
        /* agg(x) FILTER (WHERE cond) is aggIf(x, cond), as in ClickHouse. */
        p_adv(p), p_adv(p), p_adv(p);
        ast *cond = parse_expr(p);
        if (!cond || !expect_tok(p, TK_RPAREN, "closing parenthesis"))
            return NULL;
        f->name = arena_printf(p->a, "%sIf", f->name);
        ast_list_push(p->a, &f->args, cond);
    }
    if ((p_is(p, 0, "IGNORE") || p_is(p, 0, "RESPECT")) && p_is(p, 1, "NULLS")) {
        /* checked by the analyzer: aggregate and window functions only */
        f->nulls_action = p_is(p, 0, "IGNORE") ? 'I' : 'R';
        p_adv(p), p_adv(p);
    }
    if (p_accept(p, "OVER") && !parse_over(p, f))
        return NULL;
    f->end = prev_end(p);
    return f;
}

/* EXCEPT's operand: name | 'regexp' | (name, …) | ('regexp'), into `out`. */
static bool parse_except_list(parser *p, ast_list *out)
{
    bool list = p_accept_tok(p, TK_LPAREN);
    if (p_kind(p) == TK_STRING) {
        tok *t = p_cur(p);
        p_adv(p);
        ast *re = string_literal(p, t);
        if (!re)
            return false;
        ast_list_push(p->a, out, re);
    } else {
        do {
            ast *item = ast_new(p->a, AST_IDENT, p_cur(p)->start);
            item->nparts = 1;
            item->parts = ARENA_ARRAY(p->a, const char *, 1);
            item->parts[0] = p_ident(p);
            if (!item->parts[0])
                return false;
            ast_list_push(p->a, out, item);
        } while (list && p_accept_tok(p, TK_COMMA));
    }
    return !list || expect_tok(p, TK_RPAREN, "closing parenthesis");
}

/* APPLY's operand, as ClickHouse's ParserColumnsTransformers: (x -> expr) | f | (f) |
 * (f(params)), the parentheses optional. */
static ast *parse_apply_func(parser *p)
{
    bool paren = p_accept_tok(p, TK_LPAREN);
    ast *f;
    if (p_is_ident(p) && p_peek(p, 1)->kind == TK_ARROW) {
        f = parse_expr(p);
    } else if (paren && p_kind(p) == TK_LPAREN) {
        f = parse_expr(p);
        if (f && f->kind != AST_LAMBDA)
            return p_fail(p, "lambda or function name");
    } else {
        int pos = p_cur(p)->start;
        const char *name = p_ident(p);
        if (!name)
            return NULL;
        f = mk_func(p, name, pos);
        if (p_accept_tok(p, TK_LPAREN)) {
            if (parse_call_args(p, f, &f->params) < 0)
                return NULL;
            f->has_params = true;
        }
        f->end = prev_end(p);
    }
    if (!f || (paren && !expect_tok(p, TK_RPAREN, "closing parenthesis")))
        return NULL;
    return f;
}

/* Column transformers after *, t.* or COLUMNS(…): EXCEPT [STRICT] …, APPLY …, REPLACE
 * [STRICT] (expr AS name, …), any number of times. As in ClickHouse, EXCEPT right after an
 * asterisk is always the transformer (`SELECT * EXCEPT SELECT 1` is a syntax error). A
 * list of EXCEPTs alone goes to except_cols, anything else to col_transforms. */
static bool parse_star_except(parser *p, ast *s)
{
    ast_list all = {0};
    bool only_except = true;
    for (;;) {
        int pos = p_cur(p)->start;
        ast *t;
        if (p_accept(p, "EXCEPT")) {
            t = mk_func(p, "EXCEPT", pos);
            t->distinct = p_accept(p, "STRICT");
            if (!parse_except_list(p, &t->args))
                return false;
        } else if (p_accept(p, "APPLY")) {
            t = mk_func(p, "APPLY", pos);
            ast *f = parse_apply_func(p);
            if (!f)
                return false;
            ast_list_push(p->a, &t->args, f);
            only_except = false;
        } else if (p_is(p, 0, "REPLACE") && (p_peek(p, 1)->kind == TK_LPAREN || p_is(p, 1, "STRICT"))) {
            p_adv(p);
            t = mk_func(p, "REPLACE", pos);
            t->distinct = p_accept(p, "STRICT");
            bool list = p_accept_tok(p, TK_LPAREN);
            do {
                ast *e = parse_expr(p);
                if (!e)
                    return false;
                if (!p_accept(p, "AS"))
                    return p_fail(p, "AS");
                if (!attach_alias(p, e))
                    return false;
                ast_list_push(p->a, &t->args, e);
            } while (list && p_accept_tok(p, TK_COMMA));
            if (list && !expect_tok(p, TK_RPAREN, "closing parenthesis"))
                return false;
            only_except = false;
        } else {
            break;
        }
        t->end = prev_end(p);
        ast_list_push(p->a, &all, t);
        s->end = prev_end(p);
    }
    if (!only_except) {
        s->col_transforms = all;
        return true;
    }
    for (int i = 0; i < all.n; i++) {
        s->except_strict |= all.items[i]->distinct;
        for (int k = 0; k < all.items[i]->args.n; k++)
            ast_list_push(p->a, &s->except_cols, all.items[i]->args.items[k]);
    }
    return true;
}

/* COLUMNS('regexp') | COLUMNS(name, …) and its transformers; at COLUMNS. */
static ast *parse_columns_matcher(parser *p)
{
    ast *s = ast_new(p->a, AST_ASTERISK, p_cur(p)->start);
    s->columns_matcher = true;
    p_adv(p), p_adv(p);
    if (p_kind(p) == TK_STRING) {
        tok *t = p_cur(p);
        p_adv(p);
        ast_list_push(p->a, &s->matcher_cols, string_literal(p, t));
    } else {
        do {
            ast *id = parse_expr(p);
            if (!id)
                return NULL;
            if (id->kind != AST_IDENT)
                return p_fail(p, "column name");
            ast_list_push(p->a, &s->matcher_cols, id);
        } while (p_accept_tok(p, TK_COMMA));
    }
    if (!expect_tok(p, TK_RPAREN, "closing parenthesis"))
        return NULL;
    s->end = prev_end(p);
    return parse_star_except(p, s) ? s : NULL;
}

static ast *parse_primary(parser *p)
{
    tok *t = p_cur(p);
    int pos = t->start;
    switch (t->kind) {
    case TK_NUMBER:
        p_adv(p);
        return number_literal(p, t, false, pos);
    case TK_STRING: {
        p_adv(p);
        return string_literal(p, t);
    }
    case TK_LBRACKET: {
        p_adv(p);
        ast *f = mk_func(p, "array", pos);
        f->is_operator = true;
        f->bracket_syntax = true;
        if (!p_accept_tok(p, TK_RBRACKET)) {
            for (;;) {
                ast *e = parse_expr_alias(p);
                if (!e)
                    return NULL;
                ast_list_push(p->a, &f->args, e);
                if (p_accept_tok(p, TK_COMMA))
                    continue;
                if (p_accept_tok(p, TK_RBRACKET))
                    break;
                return p_fail(p, "one of: Comma, closing square bracket");
            }
        }
        f->end = prev_end(p);
        return f;
    }
    case TK_LPAREN: {
        if (p_is_select_start(p, 1)) {
            int save = p->i;
            bool nested = p_peek(p, 1)->kind == TK_LPAREN;
            p_adv(p);
            ast *q = parse_select_union(p);
            if (q && nested && p_kind(p) != TK_RPAREN) {
                /* `((SELECT 1) + 1)`: a parenthesized expression that starts with a
                 * subquery, not a subquery in parentheses */
                p->i = save;
                goto paren_expr;
            }
            if (!q || !expect_tok(p, TK_RPAREN, "closing parenthesis"))
                return NULL;
            ast *s = ast_new(p->a, AST_SUBQUERY, pos);
            s->sub = q;
            s->end = prev_end(p);
            return s;
        }
    paren_expr:
        p_adv(p);
        ast *f = mk_func(p, "tuple", pos);
        f->is_operator = true;
        f->bracket_syntax = true;
        if (p_accept_tok(p, TK_RPAREN)) {
            f->end = prev_end(p);
            return f;
        }
        bool comma = false;
        for (;;) {
            ast *e = parse_expr_alias(p);
            if (!e)
                return NULL;
            ast_list_push(p->a, &f->args, e);
            if (p_accept_tok(p, TK_COMMA)) {
                comma = true;
                if (p_accept_tok(p, TK_RPAREN))
                    break;
                continue;
            }
            if (p_accept_tok(p, TK_RPAREN))
                break;
            return p_fail(p, "one of: Comma, closing parenthesis");
        }
        if (f->args.n == 1 && !comma)
            return f->args.items[0];
        f->end = prev_end(p);
        return f;
    }
    case TK_LBRACE: {
        /* {name:Type} */
        p_adv(p);
        char *nm = p_ident(p);
        if (!nm)
            return NULL;
        if (!expect_tok(p, TK_COLON, "Colon"))
            return NULL;
        char *tt = parse_type_text(p);
        if (!tt || !expect_tok(p, TK_RBRACE, "closing curly bracket"))
            return NULL;
        ast *q = ast_new(p->a, AST_PARAM, pos);
        q->name = nm;
        q->str = tt;
        q->str_len = strlen(tt);
        q->end = prev_end(p);
        return q;
    }
    case TK_STAR: {
        p_adv(p);
        ast *s = ast_new(p->a, AST_ASTERISK, pos);
        s->end = t->end;
        return parse_star_except(p, s) ? s : NULL;
    }
    case TK_WORD:
    case TK_QIDENT: {
        if (t->kind == TK_WORD) {
            tok *n1 = p_peek(p, 1);
            if (p_is(p, 0, "COLUMNS") && n1->kind == TK_LPAREN)
                return parse_columns_matcher(p);
            if (p_is(p, 0, "NULL") && n1->kind != TK_LPAREN) {
                p_adv(p);
                ast *l = ast_new(p->a, AST_LITERAL, pos);
                l->lit = LIT_NULL;
                l->end = t->end;
                return l;
            }
            if ((p_is(p, 0, "TRUE") || p_is(p, 0, "FALSE")) && n1->kind != TK_LPAREN) {
                ast *l = ast_new(p->a, AST_LITERAL, pos);
                l->lit = LIT_BOOL;
                l->u = p_is(p, 0, "TRUE");
                p_adv(p);
                l->end = t->end;
                return l;
            }
            if ((p_is(p, 0, "inf") || p_is(p, 0, "nan")) && n1->kind != TK_LPAREN && n1->kind != TK_DOT) {
                ast *l = ast_new(p->a, AST_LITERAL, pos);
                l->lit = LIT_FLOAT;
                l->f = p_is(p, 0, "inf") ? INFINITY : NAN;
                l->text = p_tok_text(p, t);
                p_adv(p);
                l->end = t->end;
                return l;
            }
            if (p_is(p, 0, "CASE") && n1->kind != TK_LPAREN) {
                p_adv(p);
                return parse_case(p, pos);
            }
            if (p_is(p, 0, "INTERVAL") && n1->kind != TK_LPAREN && n1->kind != TK_COMMA &&
                n1->kind != TK_RPAREN && n1->kind != TK_EOF) {
                p_adv(p);
                return parse_interval(p, pos);
            }
            if ((p_is(p, 0, "DATE") || p_is(p, 0, "TIMESTAMP")) && n1->kind == TK_STRING) {
                const char *fn = p_is(p, 0, "DATE") ? "toDate" : "toDateTime";
                p_adv(p);
                tok *st = p_cur(p);
                p_adv(p);
                ast *f = op1(p, fn, string_literal(p, st), pos);
                f->is_operator = false;
                return f;
            }
            if (n1->kind == TK_LPAREN)
                return parse_function(p, t);
        }
        /* identifier, compound identifier, t.* */
        ast *id = ast_new(p->a, AST_IDENT, pos);
        const char *parts[64];
        int np = 0;
        parts[np++] = p_ident(p);
        while (p_kind(p) == TK_DOT) {
            tok *n1 = p_peek(p, 1);
            if (n1->kind == TK_WORD || n1->kind == TK_QIDENT) {
                if (np == 64)
                    return p_fail(p, "shorter compound identifier");
                p_adv(p);
                parts[np++] = p_ident(p);
            } else if (n1->kind == TK_STAR) {
                p_adv(p);
                p_adv(p);
                ast *s = ast_new(p->a, AST_ASTERISK, pos);
                s->nparts = np;
                s->parts = ARENA_ARRAY(p->a, const char *, (size_t)np);
                memcpy(s->parts, parts, sizeof(char *) * (size_t)np);
                s->end = prev_end(p);
                return parse_star_except(p, s) ? s : NULL;
            } else {
                break;
            }
        }
        id->nparts = np;
        id->parts = ARENA_ARRAY(p->a, const char *, (size_t)np);
        memcpy(id->parts, parts, sizeof(char *) * (size_t)np);
        id->end = prev_end(p);
        return id;
    }
    case TK_ERROR:
        return p_fail(p, "");
    default:
        return p_fail(p, "one of: number, string literal, identifier, function, array, tuple, asterisk, "
                         "NULL, CASE, CAST, INTERVAL, NOT, substitution");
    }
}

static ast *parse_postfix(parser *p, ast *e)
{
    for (;;) {
        if (p_kind(p) == TK_DCOLON) {
            p_adv(p);
            int tp = p_cur(p)->start;
            char *tt = parse_type_text(p);
            if (!tt)
                return NULL;
            ast *f = mk_func(p, "CAST", e->pos);
            /* literal::T keeps the literal's text, as ClickHouse does: 1::Int32 →
             * CAST('1', 'Int32') */
            bool lit = e->kind == AST_LITERAL && !e->alias && e->lit != LIT_STRING;
            bool arr = e->kind == AST_FUNC && e->bracket_syntax && !e->alias;
            if (arr)
                for (int k = 0; k < e->args.n; k++)
                    if (!is_literalish(e->args.items[k]))
                        arr = false;
            if (lit || arr)
                ast_list_push(p->a, &f->args, mk_string(p, p->s + e->pos, (size_t)(e->end - e->pos), e->pos));
            else
                ast_list_push(p->a, &f->args, e);
            ast_list_push(p->a, &f->args, mk_string(p, tt, strlen(tt), tp));
            f->end = prev_end(p);
            e = f;
        } else if (p_kind(p) == TK_LBRACKET) {
            p_adv(p);
            ast *idx = parse_expr(p);
            if (!idx || !expect_tok(p, TK_RBRACKET, "closing square bracket"))
                return NULL;
            e = op2(p, "arrayElement", e, idx);
            e->end = prev_end(p);
        } else if (p_kind(p) == TK_DOT && p_peek(p, 1)->kind == TK_NUMBER) {
            p_adv(p);
            tok *n = p_cur(p);
            for (int k = n->start; k < n->end; k++)
                if (!isdigit((unsigned char)p->s[k]))
                    return p_fail(p, "tuple element number");
            p_adv(p);
            e = op2(p, "tupleElement", e, number_literal(p, n, false, n->start));
            e->end = n->end;
        } else if (p_kind(p) == TK_DOT && (p_peek(p, 1)->kind == TK_WORD || p_peek(p, 1)->kind == TK_QIDENT) &&
                   e->kind != AST_IDENT) {
            /* (expr).name → tupleElement(expr, 'name') */
            p_adv(p);
            tok *n = p_cur(p);
            char *nm = p_ident(p);
            if (!nm)
                return NULL;
            e = op2(p, "tupleElement", e, mk_string(p, nm, strlen(nm), n->start));
            e->end = n->end;
        } else {
            return e;
        }
    }
}

static ast *parse_unary(parser *p)
{
    if (p_enter(p) < 0)
        return NULL;
    ast *r;
    tok *t = p_cur(p);
    if (t->kind == TK_MINUS) {
        p_adv(p);
        tok *n = p_cur(p);
        if (n->kind == TK_NUMBER) {
            p_adv(p);
            ast *l = number_literal(p, n, true, t->start);
            if (l->lit == LIT_INT && l->i == 0) {
                l->lit = LIT_UINT;
                l->u = 0;
            }
            r = parse_postfix(p, l);
        } else if (p_is(p, 0, "inf") && p_peek(p, 1)->kind != TK_LPAREN) {
            p_adv(p);
            ast *l = ast_new(p->a, AST_LITERAL, t->start);
            l->lit = LIT_FLOAT;
            l->f = -INFINITY;
            l->text = "-inf";
            l->end = n->end;
            r = parse_postfix(p, l);
        } else {
            ast *x = parse_unary(p);
            r = x ? op1(p, "negate", x, t->start) : NULL;
        }
    } else if (t->kind == TK_PLUS) {
        p_adv(p);
        r = parse_unary(p);
    } else {
        ast *e = parse_primary(p);
        r = e ? parse_postfix(p, e) : NULL;
    }
    p_leave(p);
    return r;
}

static ast *parse_mul(parser *p)
{
    ast *l = parse_unary(p);
    while (l) {
        const char *fn = NULL;
        tok_kind k = p_kind(p);
        if (k == TK_STAR)
            fn = "multiply";
        else if (k == TK_SLASH)
            fn = "divide";
        else if (k == TK_PERCENT || p_is(p, 0, "MOD"))
            fn = "modulo";
        else if (p_is(p, 0, "DIV"))
            fn = "intDiv";
        if (!fn)
            break;
        p_adv(p);
        ast *r = parse_unary(p);
        if (!r)
            return NULL;
        l = op2(p, fn, l, r);
    }
    return l;
}

static ast *parse_add(parser *p)
{
    ast *l = parse_mul(p);
    while (l && (p_kind(p) == TK_PLUS || p_kind(p) == TK_MINUS)) {
        const char *fn = p_kind(p) == TK_PLUS ? "plus" : "minus";
        p_adv(p);
        ast *r = parse_mul(p);
        if (!r)
            return NULL;
        l = op2(p, fn, l, r);
    }
    return l;
}

static ast *parse_concat(parser *p)
{
    ast *l = parse_add(p);
    if (!l || p_kind(p) != TK_CONCAT)
        return l;
    ast *f = mk_func(p, "concat", l->pos);
    f->is_operator = true;
    ast_list_push(p->a, &f->args, l);
    while (p_accept_tok(p, TK_CONCAT)) {
        ast *r = parse_add(p);
        if (!r)
            return NULL;
        ast_list_push(p->a, &f->args, r);
    }
    f->end = prev_end(p);
    return f;
}

static ast *parse_in_rhs(parser *p)
{
    return parse_concat(p);
}

static ast *parse_cmp(parser *p)
{
    ast *l = parse_concat(p);
    while (l) {
        tok_kind k = p_kind(p);
        const char *fn = NULL;
        int skip = 1;
        switch (k) {
        case TK_EQ:
        case TK_EQEQ: fn = "equals"; break;
        case TK_NE: fn = "notEquals"; break;
        case TK_LT: fn = "less"; break;
        case TK_GT: fn = "greater"; break;
        case TK_LE: fn = "lessOrEquals"; break;
        case TK_GE: fn = "greaterOrEquals"; break;
        default: break;
        }
        if (!fn) {
            if (p_is(p, 0, "LIKE")) fn = "like";
            else if (p_is(p, 0, "ILIKE")) fn = "ilike";
            else if (p_is(p, 0, "REGEXP")) fn = "match";
            else if (p_is(p, 0, "IN")) fn = "in";
            else if (p_is(p, 0, "NOT") && p_is(p, 1, "LIKE")) fn = "notLike", skip = 2;
            else if (p_is(p, 0, "NOT") && p_is(p, 1, "ILIKE")) fn = "notILike", skip = 2;
            else if (p_is(p, 0, "NOT") && p_is(p, 1, "IN")) fn = "notIn", skip = 2;
            else if (p_is(p, 0, "GLOBAL") && p_is(p, 1, "IN")) fn = "globalIn", skip = 2;
            else if (p_is(p, 0, "GLOBAL") && p_is(p, 1, "NOT") && p_is(p, 2, "IN")) fn = "globalNotIn", skip = 3;
        }
        if (fn) {
            for (int s = 0; s < skip; s++)
                p_adv(p);
            ast *r = strstr(fn, "In") || !strcmp(fn, "in") ? parse_in_rhs(p) : parse_concat(p);
            if (!r)
                return NULL;
            l = op2(p, fn, l, r);
            continue;
        }
        if (p_is(p, 0, "IS")) {
            int pos = p_cur(p)->start;
            p_adv(p);
            bool neg = p_accept(p, "NOT");
            if (!p_accept(p, "NULL"))
                return p_fail(p, "NULL");
            l = op1(p, neg ? "isNotNull" : "isNull", l, l->pos);
            l->end = prev_end(p);
            (void)pos;
            continue;
        }
        bool nb = p_is(p, 0, "NOT") && p_is(p, 1, "BETWEEN");
        if (nb || p_is(p, 0, "BETWEEN")) {
            p_adv(p);
            if (nb)
                p_adv(p);
            ast *lo = parse_concat(p);
            if (!lo)
                return NULL;
            if (!p_accept(p, "AND"))
                return p_fail(p, "AND");
            ast *hi = parse_concat(p);
            if (!hi)
                return NULL;
            ast *a1 = op2(p, nb ? "less" : "greaterOrEquals", l, lo);
            ast *a2 = op2(p, nb ? "greater" : "lessOrEquals", l, hi);
            l = op2(p, nb ? "or" : "and", a1, a2);
            continue;
        }
        break;
    }
    return l;
}

static ast *parse_not(parser *p)
{
    if (p_is(p, 0, "NOT") && p_peek(p, 1)->kind != TK_LPAREN + 100) {
        int pos = p_cur(p)->start;
        p_adv(p);
        if (p_enter(p) < 0)
            return NULL;
        ast *x = parse_not(p);
        p_leave(p);
        return x ? op1(p, "not", x, pos) : NULL;
    }
    return parse_cmp(p);
}

static ast *parse_logic(parser *p, bool is_or)
{
    ast *l = is_or ? parse_logic(p, false) : parse_not(p);
    const char *kw = is_or ? "OR" : "AND";
    if (!l || !p_is(p, 0, kw))
        return l;
    ast *f = mk_func(p, is_or ? "or" : "and", l->pos);
    f->is_operator = true;
    ast_list_push(p->a, &f->args, l);
    while (p_accept(p, kw)) {
        ast *r = is_or ? parse_logic(p, false) : parse_not(p);
        if (!r)
            return NULL;
        ast_list_push(p->a, &f->args, r);
    }
    f->end = prev_end(p);
    return f;
}

static ast *parse_ternary(parser *p)
{
    ast *c = parse_logic(p, true);
    if (!c || p_kind(p) != TK_QUESTION)
        return c;
    p_adv(p);
    if (p_enter(p) < 0)
        return NULL;
    ast *a = parse_lambda_or_ternary(p);
    if (!a || !expect_tok(p, TK_COLON, "Colon")) {
        p_leave(p);
        return NULL;
    }
    ast *b = parse_lambda_or_ternary(p);
    p_leave(p);
    if (!b)
        return NULL;
    ast *f = mk_func(p, "if", c->pos);
    f->is_operator = true;
    ast_list_push(p->a, &f->args, c);
    ast_list_push(p->a, &f->args, a);
    ast_list_push(p->a, &f->args, b);
    f->end = b->end;
    return f;
}

static ast *parse_lambda_or_ternary(parser *p)
{
    /* x -> body | (x, y) -> body | () -> body */
    int np = 0;
    bool none = p_kind(p) == TK_LPAREN && p_peek(p, 1)->kind == TK_RPAREN && p_peek(p, 2)->kind == TK_ARROW;
    if (p_is_ident(p) && p_peek(p, 1)->kind == TK_ARROW) {
        np = 1;
    } else if (p_kind(p) == TK_LPAREN) {
        int k = 1;
        for (;;) {
            tok_kind tk = p_peek(p, k)->kind;
            if (tk != TK_WORD && tk != TK_QIDENT)
                break;
            tk = p_peek(p, k + 1)->kind;
            if (tk == TK_COMMA) {
                k += 2;
                continue;
            }
            if (tk == TK_RPAREN && p_peek(p, k + 2)->kind == TK_ARROW)
                np = (k + 1) / 2;
            break;
        }
    }
    if (!np && !none)
        return parse_ternary(p);
    int pos = p_cur(p)->start;
    ast *l = ast_new(p->a, AST_LAMBDA, pos);
    l->nparts = np;
    l->parts = ARENA_ARRAY(p->a, const char *, (size_t)np);
    bool paren = p_accept_tok(p, TK_LPAREN);
    for (int k = 0; k < np; k++) {
        l->parts[k] = p_ident(p);
        p_accept_tok(p, TK_COMMA);
    }
    if (paren)
        p_accept_tok(p, TK_RPAREN);
    p_adv(p); /* -> */
    if (p_enter(p) < 0)
        return NULL;
    ast *body = parse_lambda_or_ternary(p);
    p_leave(p);
    if (!body)
        return NULL;
    ast_list_push(p->a, &l->args, body);
    l->end = body->end;
    return l;
}

ast *parse_expr(parser *p)
{
    if (p_enter(p) < 0)
        return NULL;
    ast *e = parse_lambda_or_ternary(p);
    p_leave(p);
    return e;
}

static ast *attach_alias(parser *p, ast *e)
{
    char *al = p_ident(p);
    if (!al)
        return NULL;
    if (e->alias) {
        /* ((x AS a) AS b): keep the outer name */
    }
    e->alias = al;
    return e;
}

ast *parse_expr_alias(parser *p)
{
    ast *e = parse_expr(p);
    if (e && p_is(p, 0, "AS") && (p_peek(p, 1)->kind == TK_WORD || p_peek(p, 1)->kind == TK_QIDENT)) {
        p_adv(p);
        return attach_alias(p, e);
    }
    return e;
}

ast *parse_expr_implicit_alias(parser *p)
{
    ast *e = parse_expr(p);
    if (!e)
        return NULL;
    if (p_is(p, 0, "AS")) {
        p_adv(p);
        return attach_alias(p, e);
    }
    if (p_kind(p) == TK_QIDENT || (p_kind(p) == TK_WORD && !p_is_reserved_alias(p, p_cur(p))))
        return attach_alias(p, e);
    return e;
}

int parse_expr_list(parser *p, ast_list *out, bool implicit_alias)
{
    for (;;) {
        ast *e = implicit_alias ? parse_expr_implicit_alias(p) : parse_expr_alias(p);
        if (!e)
            return -1;
        ast_list_push(p->a, out, e);
        if (!p_accept_tok(p, TK_COMMA))
            return 0;
    }
}
