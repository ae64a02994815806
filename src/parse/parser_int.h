/* Parser internals shared by parser_expr.c and parser_stmt.c (not a public API). */
#ifndef SHALE_PARSE_PARSER_INT_H
#define SHALE_PARSE_PARSER_INT_H

#include "base/err.h"
#include "parse/ast.h"
#include "parse/lexer.h"

typedef struct parser {
    arena *a;
    const char *s;
    size_t len;
    lexer lx;
    tok *toks;          /* tokens lexed so far (grows on demand; allows backtracking) */
    int ntoks, cap;
    int i;              /* current token index */
    int depth, max_depth;
    bool failed;        /* an error is already recorded */
} parser;

tok *p_peek(parser *p, int k);
static inline tok *p_cur(parser *p) { return p_peek(p, 0); }
static inline tok_kind p_kind(parser *p) { return p_peek(p, 0)->kind; }
void p_adv(parser *p);
bool p_is(parser *p, int k, const char *kw);
bool p_accept(parser *p, const char *kw);
bool p_accept_tok(parser *p, tok_kind k);
/* Records a syntax error at the current token; `expected` is a comma-separated list.
 * Returns NULL for convenient `return p_fail(...)`. */
void *p_fail(parser *p, const char *expected);
int p_enter(parser *p);
static inline void p_leave(parser *p) { p->depth--; }
char *p_tok_text(parser *p, const tok *t);
/* identifier text of a TK_WORD or TK_QIDENT (unquoted), or NULL after an error */
char *p_ident(parser *p);
bool p_is_ident(parser *p);

ast *parse_expr(parser *p);            /* no alias at top */
ast *parse_expr_alias(parser *p);      /* expr [AS alias] */
ast *parse_expr_implicit_alias(parser *p); /* expr [[AS] alias] (select lists) */
int parse_expr_list(parser *p, ast_list *out, bool implicit_alias);
char *parse_type_text(parser *p);
ast *parse_select_union(parser *p);
/* The window after OVER: `name` (sets f->over_name) or `(…)` (sets f->over). */
bool parse_over(parser *p, ast *f);
bool p_is_select_start(parser *p, int k);
bool p_is_reserved_alias(parser *p, const tok *t);
ast *mk_func(parser *p, const char *name, int pos);
ast *mk_string(parser *p, const char *s, size_t n, int pos);
/* Statement pieces (parser_stmt.c), shared with parser_alter.c. */
int prev_end(parser *p);
bool expect_word(parser *p, const char *kw);
bool expect_tok(parser *p, tok_kind k, const char *what);
int parse_table_name(parser *p, ast *t);   /* [db.]name into database / table_name */
int parse_stmt_tail(parser *p, ast *st);   /* INTO OUTFILE / FORMAT / SETTINGS */
ast *rest_as_text(parser *p, ast *st);      /* the rest of the statement into st->str */
ast *parse_column_def(parser *p, ast_list *primary_key, bool alter); /* alter: the type may be left out */
/* ALTER TABLE … (after ALTER) and DELETE FROM … (after DELETE), parser_alter.c. */
ast *parse_alter(parser *p, ast *st);
ast *parse_delete(parser *p, ast *st);

#endif
