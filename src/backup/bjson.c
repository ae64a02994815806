/* A minimal JSON tree reader and string writer for manifests (see bjson.h). */
#include "backup/bjson.h"

#include "base/err.h"
#include "base/mem.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct parser {
    const char *p, *start, *end;
    const char *what;
    int depth;
    bool failed;
} parser;

static bjson *fail(parser *ps, const char *why)
{
    if (!ps->failed)
        err_set(ERR_CANNOT_PARSE_TEXT, "Cannot parse %s: %s at byte %zu", ps->what, why, (size_t)(ps->p - ps->start));
    ps->failed = true;
    return NULL;
}

static void skip_ws(parser *ps)
{
    while (ps->p < ps->end && (*ps->p == ' ' || *ps->p == '\n' || *ps->p == '\r' || *ps->p == '\t'))
        ps->p++;
}

static char *parse_string(parser *ps)
{
    ps->p++; /* opening quote */
    buf b = {0};
    while (ps->p < ps->end && *ps->p != '"') {
        char c = *ps->p++;
        if ((unsigned char)c < 0x20) {
            buf_free(&b);
            fail(ps, "control character in a string");
            return NULL;
        }
        if (c != '\\') {
            buf_putc(&b, c);
            continue;
        }
        if (ps->p >= ps->end)
            break;
        c = *ps->p++;
        switch (c) {
        case '"': case '\\': case '/': buf_putc(&b, c); break;
        case 'b': buf_putc(&b, '\b'); break;
        case 'f': buf_putc(&b, '\f'); break;
        case 'n': buf_putc(&b, '\n'); break;
        case 'r': buf_putc(&b, '\r'); break;
        case 't': buf_putc(&b, '\t'); break;
        case 'u': {
            char hex[5] = {0};
            for (int i = 0; i < 4 && ps->p < ps->end && isxdigit((unsigned char)*ps->p); i++)
                hex[i] = *ps->p++;
            if (strlen(hex) != 4) {
                buf_free(&b);
                fail(ps, "bad \\u escape");
                return NULL;
            }
            unsigned v = (unsigned)strtoul(hex, NULL, 16);
            /* the writer escapes only control characters, so no surrogate pairs occur */
            if (v < 0x80) {
                buf_putc(&b, (char)v);
            } else if (v < 0x800) {
                buf_putc(&b, (char)(0xC0 | (v >> 6)));
                buf_putc(&b, (char)(0x80 | (v & 0x3F)));
            } else {
                buf_putc(&b, (char)(0xE0 | (v >> 12)));
                buf_putc(&b, (char)(0x80 | ((v >> 6) & 0x3F)));
                buf_putc(&b, (char)(0x80 | (v & 0x3F)));
            }
            break;
        }
        default:
            buf_free(&b);
            fail(ps, "bad escape");
            return NULL;
        }
    }
    if (ps->p >= ps->end) {
        buf_free(&b);
        fail(ps, "unterminated string");
        return NULL;
    }
    ps->p++;
    char *s = xmalloc(b.len + 1);
    if (b.len)
        memcpy(s, b.p, b.len);
    s[b.len] = 0;
    buf_free(&b);
    return s;
}

static bjson *parse_value(parser *ps);

static void add_item(bjson *j, bjson *v, char *key)
{
    if ((j->n & (j->n - 1)) == 0) { /* grow at powers of two */
        size_t cap = j->n ? j->n * 2 : 4;
        j->items = xrealloc(j->items, cap * sizeof *j->items);
        if (j->kind == BJ_OBJ)
            j->keys = xrealloc(j->keys, cap * sizeof *j->keys);
    }
    j->items[j->n] = v;
    if (j->kind == BJ_OBJ)
        j->keys[j->n] = key;
    j->n++;
}

static bjson *parse_container(parser *ps, bjson_kind kind)
{
    if (++ps->depth > 64)
        return fail(ps, "nesting too deep");
    char close = kind == BJ_OBJ ? '}' : ']';
    bjson *j = xcalloc(1, sizeof *j);
    j->kind = kind;
    ps->p++;
    skip_ws(ps);
    if (ps->p < ps->end && *ps->p == close) {
        ps->p++;
        ps->depth--;
        return j;
    }
    for (;;) {
        char *key = NULL;
        if (kind == BJ_OBJ) {
            skip_ws(ps);
            if (ps->p >= ps->end || *ps->p != '"') {
                bjson_free(j);
                return fail(ps, "expected a member name");
            }
            key = parse_string(ps);
            skip_ws(ps);
            if (!key || ps->p >= ps->end || *ps->p != ':') {
                free(key);
                bjson_free(j);
                return fail(ps, "expected ':'");
            }
            ps->p++;
        }
        bjson *v = parse_value(ps);
        if (!v) {
            free(key);
            bjson_free(j);
            return NULL;
        }
        add_item(j, v, key);
        skip_ws(ps);
        if (ps->p < ps->end && *ps->p == ',') {
            ps->p++;
            continue;
        }
        if (ps->p < ps->end && *ps->p == close) {
            ps->p++;
            break;
        }
        bjson_free(j);
        return fail(ps, kind == BJ_OBJ ? "expected ',' or '}'" : "expected ',' or ']'");
    }
    ps->depth--;
    return j;
}

static bjson *parse_value(parser *ps)
{
    skip_ws(ps);
    if (ps->p >= ps->end)
        return fail(ps, "unexpected end");
    char c = *ps->p;
    if (c == '{')
        return parse_container(ps, BJ_OBJ);
    if (c == '[')
        return parse_container(ps, BJ_ARR);
    if (c == '"') {
        char *s = parse_string(ps);
        if (!s)
            return NULL;
        bjson *j = xcalloc(1, sizeof *j);
        j->kind = BJ_STR;
        j->s = s;
        return j;
    }
    static const struct { const char *w; bjson_kind k; bool b; } lits[] = {
        {"true", BJ_BOOL, true}, {"false", BJ_BOOL, false}, {"null", BJ_NULL, false}};
    for (size_t i = 0; i < 3; i++) {
        size_t l = strlen(lits[i].w);
        if ((size_t)(ps->end - ps->p) >= l && memcmp(ps->p, lits[i].w, l) == 0) {
            ps->p += l;
            bjson *j = xcalloc(1, sizeof *j);
            j->kind = lits[i].k;
            j->b = lits[i].b;
            return j;
        }
    }
    const char *s = ps->p;
    while (ps->p < ps->end && strchr("+-0123456789.eE", *ps->p))
        ps->p++;
    if (ps->p == s)
        return fail(ps, "unexpected character");
    bjson *j = xcalloc(1, sizeof *j);
    j->kind = BJ_NUM;
    j->s = xmalloc((size_t)(ps->p - s) + 1);
    memcpy(j->s, s, (size_t)(ps->p - s));
    j->s[ps->p - s] = 0;
    return j;
}

bjson *bjson_parse(const char *text, size_t len, const char *what)
{
    parser ps = {.p = text, .start = text, .end = text + len, .what = what};
    bjson *j = parse_value(&ps);
    if (!j)
        return NULL;
    skip_ws(&ps);
    if (ps.p != ps.end) {
        bjson_free(j);
        return fail(&ps, "trailing data");
    }
    return j;
}

void bjson_free(bjson *j)
{
    if (!j)
        return;
    for (size_t i = 0; i < j->n; i++) {
        bjson_free(j->items[i]);
        if (j->keys)
            free(j->keys[i]);
    }
    free(j->items);
    free(j->keys);
    free(j->s);
    free(j);
}

const bjson *bjson_get(const bjson *obj, const char *key)
{
    if (!obj || obj->kind != BJ_OBJ)
        return NULL;
    for (size_t i = 0; i < obj->n; i++)
        if (strcmp(obj->keys[i], key) == 0)
            return obj->items[i];
    return NULL;
}

const char *bjson_str(const bjson *obj, const char *key)
{
    const bjson *v = bjson_get(obj, key);
    return v && v->kind == BJ_STR ? v->s : NULL;
}

uint64_t bjson_as_u64(const bjson *v)
{
    return v && v->kind == BJ_NUM ? strtoull(v->s, NULL, 10) : 0;
}

uint64_t bjson_u64(const bjson *obj, const char *key, uint64_t dflt)
{
    const bjson *v = bjson_get(obj, key);
    return v && v->kind == BJ_NUM ? strtoull(v->s, NULL, 10) : dflt;
}

int64_t bjson_i64(const bjson *obj, const char *key, int64_t dflt)
{
    const bjson *v = bjson_get(obj, key);
    return v && v->kind == BJ_NUM ? strtoll(v->s, NULL, 10) : dflt;
}

bool bjson_bool(const bjson *obj, const char *key, bool dflt)
{
    const bjson *v = bjson_get(obj, key);
    return v && v->kind == BJ_BOOL ? v->b : dflt;
}

void bjson_put_str(buf *b, const char *s)
{
    if (!s) {
        buf_puts(b, "null");
        return;
    }
    buf_putc(b, '"');
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\') {
            buf_putc(b, '\\');
            buf_putc(b, (char)*p);
        } else if (*p == '\n') {
            buf_puts(b, "\\n");
        } else if (*p == '\t') {
            buf_puts(b, "\\t");
        } else if (*p < 0x20) {
            buf_printf(b, "\\u%04x", *p);
        } else {
            buf_putc(b, (char)*p);
        }
    }
    buf_putc(b, '"');
}
