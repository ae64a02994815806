/* SQL lexer: splits ClickHouse SQL into tokens on demand.
 *
 * The lexer never allocates and never fails: malformed input (an unterminated string or
 * comment, a stray byte) becomes a TK_ERROR token whose `err` says why, and the parser
 * turns it into a syntax error. Tokens point into the caller's text. Comments (-- and #
 * to end of line, nested block comments) and whitespace are skipped. Not thread-safe per
 * lexer; independent lexers may run concurrently. */
#ifndef SHALE_PARSE_LEXER_H
#define SHALE_PARSE_LEXER_H

#include <stdbool.h>
#include <stddef.h>

typedef enum tok_kind {
    TK_EOF,
    TK_ERROR,
    TK_WORD,       /* bare identifier or keyword */
    TK_QIDENT,     /* `quoted` or "quoted" identifier */
    TK_NUMBER,
    TK_STRING,     /* '...' (escapes not yet decoded) or a heredoc $tag$...$tag$ */
    TK_LPAREN, TK_RPAREN, TK_LBRACKET, TK_RBRACKET, TK_LBRACE, TK_RBRACE,
    TK_COMMA, TK_DOT, TK_SEMI, TK_COLON, TK_DCOLON, TK_QUESTION, TK_ARROW,
    TK_PLUS, TK_MINUS, TK_STAR, TK_SLASH, TK_PERCENT, TK_CONCAT,
    TK_EQ, TK_EQEQ, TK_NE, TK_LT, TK_GT, TK_LE, TK_GE, TK_AT, TK_CARET,
} tok_kind;

typedef struct tok {
    tok_kind kind;
    int start, end;     /* byte offsets [start, end) */
    const char *err;    /* TK_ERROR: what is wrong */
} tok;

typedef struct lexer {
    const char *s;
    size_t len;
    size_t pos;
    tok_kind prev;      /* to tell `.5` (number) from `t.1` (dot, number) */
} lexer;

void lexer_init(lexer *lx, const char *s, size_t len, size_t pos);
tok lexer_next(lexer *lx);
/* Offset of the first byte that is not whitespace or a comment, starting at pos. */
size_t lexer_skip_space(const char *s, size_t len, size_t pos);
/* Decodes a TK_STRING body (without quotes) into dst (capacity >= n), handling
 * backslash escapes as ClickHouse does (\n \t \xHH \\ \' …; \N is nothing; an unknown
 * escape such as \_ keeps its backslash) and the doubling of `quote`, the literal's own quote
 * character ('it''s', "a""b"; a "" inside '…' stays two characters); returns the decoded length. */
size_t lexer_unescape(const char *src, size_t n, char quote, char *dst);
/* The value of a TK_STRING token: a quoted literal decoded by lexer_unescape, a heredoc's
 * bytes between its tags as they are. dst needs t->end - t->start bytes; returns the length. */
size_t lexer_string_value(const char *s, const tok *t, char *dst);
/* Case-insensitive comparison of a token's text with a keyword. */
bool lexer_is_word(const char *s, const tok *t, const char *kw);

#endif
