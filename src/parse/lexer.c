/* SQL lexer; see lexer.h. */
#include "parse/lexer.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>

void lexer_init(lexer *lx, const char *s, size_t len, size_t pos)
{
    lx->s = s;
    lx->len = len;
    lx->pos = pos;
    lx->prev = TK_EOF;
}

size_t lexer_skip_space(const char *s, size_t len, size_t pos)
{
    while (pos < len) {
        unsigned char c = (unsigned char)s[pos];
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
            pos++;
        } else if (c == '#' || (c == '-' && pos + 1 < len && s[pos + 1] == '-')) {
            while (pos < len && s[pos] != '\n')
                pos++;
        } else if (c == '/' && pos + 1 < len && s[pos + 1] == '*') {
            /* nested block comments; an unterminated one runs to the end */
            int depth = 1;
            pos += 2;
            while (pos < len && depth > 0) {
                if (s[pos] == '/' && pos + 1 < len && s[pos + 1] == '*') {
                    depth++;
                    pos += 2;
                } else if (s[pos] == '*' && pos + 1 < len && s[pos + 1] == '/') {
                    depth--;
                    pos += 2;
                } else {
                    pos++;
                }
            }
        } else {
            break;
        }
    }
    return pos;
}

static bool is_word_start(unsigned char c) { return isalpha(c) || c == '_' || c >= 0x80; }
static bool is_word_char(unsigned char c) { return isalnum(c) || c == '_' || c == '$' || c >= 0x80; }

static tok mk(lexer *lx, tok_kind k, size_t start, size_t end)
{
    tok t = {k, (int)start, (int)end, NULL};
    lx->pos = end;
    lx->prev = k;
    return t;
}

static tok mkerr(lexer *lx, size_t start, size_t end, const char *why)
{
    tok t = mk(lx, TK_ERROR, start, end);
    t.err = why;
    return t;
}

/* Scans a quoted run starting at s[p] == q; returns the offset past the closing quote,
 * or 0 if unterminated. Backslash escapes the next byte; a doubled quote is a quote. */
static size_t scan_quoted(const char *s, size_t len, size_t p, char q)
{
    p++;
    while (p < len) {
        if (s[p] == '\\') {
            p += 2;
        } else if (s[p] == q) {
            if (p + 1 < len && s[p + 1] == q)
                p += 2;
            else
                return p + 1;
        } else {
            p++;
        }
    }
    return 0;
}

/* Digits of a number, with ClickHouse's `_` separators between two digits (1_000_000). */
static size_t scan_digits(const char *s, size_t len, size_t p, int (*digit)(int))
{
    while (p < len && (digit((unsigned char)s[p]) ||
                       (s[p] == '_' && p > 0 && digit((unsigned char)s[p - 1]) && p + 1 < len &&
                        digit((unsigned char)s[p + 1]))))
        p++;
    return p;
}

static int is_bin_digit(int c) { return c == '0' || c == '1'; }

static size_t scan_number(const char *s, size_t len, size_t p)
{
    if (s[p] == '0' && p + 2 < len && (s[p + 1] == 'x' || s[p + 1] == 'X') && p + 2 < len &&
        isxdigit((unsigned char)s[p + 2])) {
        return scan_digits(s, len, p + 2, isxdigit);
    }
    if (s[p] == '0' && p + 2 < len && (s[p + 1] == 'b' || s[p + 1] == 'B') &&
        (s[p + 2] == '0' || s[p + 2] == '1')) {
        return scan_digits(s, len, p + 2, is_bin_digit);
    }
    p = scan_digits(s, len, p, isdigit);
    if (p < len && s[p] == '.')
        p = scan_digits(s, len, p + 1, isdigit);
    if (p < len && (s[p] == 'e' || s[p] == 'E')) {
        size_t q = p + 1;
        if (q < len && (s[q] == '+' || s[q] == '-'))
            q++;
        if (q < len && isdigit((unsigned char)s[q])) {
            p = scan_digits(s, len, q, isdigit);
        }
    }
    return p;
}

tok lexer_next(lexer *lx)
{
    const char *s = lx->s;
    size_t len = lx->len;
    size_t p = lexer_skip_space(s, len, lx->pos);
    if (p >= len)
        return mk(lx, TK_EOF, len, len);
    unsigned char c = (unsigned char)s[p];
    char n1 = p + 1 < len ? s[p + 1] : 0;
    if (isdigit(c)) {
        size_t e = scan_number(s, len, p);
        /* A number running on into letters or `_` is an identifier, as in ClickHouse
         * (CREATE TABLE 02947_table …; SELECT 12abc names a column). */
        if (e < len && is_word_char((unsigned char)s[e]) && s[e - 1] != '.') {
            while (e < len && is_word_char((unsigned char)s[e]))
                e++;
            return mk(lx, TK_WORD, p, e);
        }
        return mk(lx, TK_NUMBER, p, e);
    }
    if (c == '.' && isdigit((unsigned char)n1) && lx->prev != TK_WORD && lx->prev != TK_QIDENT &&
        lx->prev != TK_RPAREN && lx->prev != TK_RBRACKET && lx->prev != TK_NUMBER)
        return mk(lx, TK_NUMBER, p, scan_number(s, len, p));
    if (is_word_start(c)) {
        size_t e = p + 1;
        while (e < len && is_word_char((unsigned char)s[e]))
            e++;
        return mk(lx, TK_WORD, p, e);
    }
    if (c == '$') {
        /* A heredoc, as ClickHouse's lexer reads it: the tag runs from this `$` to the next
         * `$` (any bytes), and the string ends at the next occurrence of the whole tag. */
        const char *tag_end = memchr(s + p + 1, '$', len - p - 1);
        if (tag_end) {
            size_t tag = (size_t)(tag_end - (s + p)) + 1;
            for (size_t q = p + tag; q + tag <= len; q++)
                if (memcmp(s + q, s + p, tag) == 0)
                    return mk(lx, TK_STRING, p, q + tag);
        }
        /* no heredoc: `$` and the word characters after it are an identifier ($a$b$) */
        if (p + 1 < len && is_word_char((unsigned char)s[p + 1])) {
            size_t e = p + 1;
            while (e < len && is_word_char((unsigned char)s[e]))
                e++;
            return mk(lx, TK_WORD, p, e);
        }
    }
    switch (c) {
    case '\'': {
        size_t e = scan_quoted(s, len, p, '\'');
        if (!e)
            return mkerr(lx, p, len, "Single quoted string is not closed");
        return mk(lx, TK_STRING, p, e);
    }
    case '"':
    case '`': {
        size_t e = scan_quoted(s, len, p, (char)c);
        if (!e)
            return mkerr(lx, p, len, c == '"' ? "Double quoted string is not closed"
                                              : "Back quoted string is not closed");
        if (e == p + 2)
            return mkerr(lx, p, e, "Empty quoted identifier");
        return mk(lx, TK_QIDENT, p, e);
    }
    case '(': return mk(lx, TK_LPAREN, p, p + 1);
    case ')': return mk(lx, TK_RPAREN, p, p + 1);
    case '[': return mk(lx, TK_LBRACKET, p, p + 1);
    case ']': return mk(lx, TK_RBRACKET, p, p + 1);
    case '{': return mk(lx, TK_LBRACE, p, p + 1);
    case '}': return mk(lx, TK_RBRACE, p, p + 1);
    case ',': return mk(lx, TK_COMMA, p, p + 1);
    case '.': return mk(lx, TK_DOT, p, p + 1);
    case ';': return mk(lx, TK_SEMI, p, p + 1);
    case '?': return mk(lx, TK_QUESTION, p, p + 1);
    case '+': return mk(lx, TK_PLUS, p, p + 1);
    case '*': return mk(lx, TK_STAR, p, p + 1);
    case '/': return mk(lx, TK_SLASH, p, p + 1);
    case '%': return mk(lx, TK_PERCENT, p, p + 1);
    case '@': return mk(lx, TK_AT, p, p + 1);
    case '^': return mk(lx, TK_CARET, p, p + 1);
    case ':': return n1 == ':' ? mk(lx, TK_DCOLON, p, p + 2) : mk(lx, TK_COLON, p, p + 1);
    case '-': return n1 == '>' ? mk(lx, TK_ARROW, p, p + 2) : mk(lx, TK_MINUS, p, p + 1);
    case '|':
        if (n1 == '|')
            return mk(lx, TK_CONCAT, p, p + 2);
        return mkerr(lx, p, p + 1, "Unexpected character");
    case '=': return n1 == '=' ? mk(lx, TK_EQEQ, p, p + 2) : mk(lx, TK_EQ, p, p + 1);
    case '!':
        if (n1 == '=')
            return mk(lx, TK_NE, p, p + 2);
        return mkerr(lx, p, p + 1, "Unexpected character");
    case '<':
        if (n1 == '=')
            return mk(lx, TK_LE, p, p + 2);
        if (n1 == '>')
            return mk(lx, TK_NE, p, p + 2);
        return mk(lx, TK_LT, p, p + 1);
    case '>': return n1 == '=' ? mk(lx, TK_GE, p, p + 2) : mk(lx, TK_GT, p, p + 1);
    default: return mkerr(lx, p, p + 1, "Unrecognized token");
    }
}

size_t lexer_string_value(const char *s, const tok *t, char *dst)
{
    const char *src = s + t->start;
    size_t n = (size_t)(t->end - t->start);
    if (src[0] == '$') {
        /* heredoc: the bytes between the tags, raw */
        size_t tag = (size_t)((const char *)memchr(src + 1, '$', n - 1) - src) + 1;
        memcpy(dst, src + tag, n - 2 * tag);
        return n - 2 * tag;
    }
    return lexer_unescape(src + 1, n - 2, src[0], dst);
}

static int hexv(char c) { return isdigit((unsigned char)c) ? c - '0' : (tolower((unsigned char)c) - 'a' + 10); }

size_t lexer_unescape(const char *src, size_t n, char quote, char *dst)
{
    size_t o = 0;
    for (size_t i = 0; i < n; i++) {
        char c = src[i];
        if (c == '\\' && i + 1 < n) {
            char e = src[++i];
            switch (e) {
            case 'n': dst[o++] = '\n'; break;
            case 't': dst[o++] = '\t'; break;
            case 'r': dst[o++] = '\r'; break;
            case 'b': dst[o++] = '\b'; break;
            case 'f': dst[o++] = '\f'; break;
            case 'v': dst[o++] = '\v'; break;
            case 'a': dst[o++] = '\a'; break;
            case 'e': dst[o++] = 27; break;
            case '0': dst[o++] = 0; break;
            case 'x':
                if (i + 2 < n && isxdigit((unsigned char)src[i + 1]) && isxdigit((unsigned char)src[i + 2])) {
                    char h[3] = {src[i + 1], src[i + 2], 0};
                    dst[o++] = (char)((hexv(h[0]) << 4) | hexv(h[1]));
                    i += 2;
                } else {
                    dst[o++] = 'x';
                }
                break;
            case '\\':
            case '\'':
            case '"':
            case '`':
            case '/': dst[o++] = e; break;
            case 'N': break; /* ClickHouse reads \N in a literal as nothing */
            default:
                /* an unknown escape keeps its backslash, as ClickHouse's: '\_' is two
                 * characters (LIKE's escaped underscore) */
                dst[o++] = '\\';
                dst[o++] = e;
                break;
            }
        } else if (c == quote && i + 1 < n && src[i + 1] == c) {
            dst[o++] = c;
            i++;
        } else {
            dst[o++] = c;
        }
    }
    return o;
}

bool lexer_is_word(const char *s, const tok *t, const char *kw)
{
    size_t n = strlen(kw);
    return t->kind == TK_WORD && (size_t)(t->end - t->start) == n && strncasecmp(s + t->start, kw, n) == 0;
}
