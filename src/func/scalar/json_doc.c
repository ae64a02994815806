/* JSON validation and navigation over text (json_doc.h). The validator is a recursive
 * descent bounded by JD_MAX_DEPTH; navigation trusts the validation and only skips. */
#include "func/scalar/json_doc.h"

#include "column/text.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- validation ---- */

bool jd_parse_integer(const char *s, size_t n, bool allow_plus, jd_kind *kind, int64_t *i, uint64_t *u)
{
    size_t p = 0;
    bool neg = false;
    if (p < n && (s[p] == '-' || (allow_plus && s[p] == '+')))
        neg = s[p++] == '-';
    if (p == n)
        return false;
    uint64_t v = 0;
    for (; p < n; p++) {
        if (s[p] < '0' || s[p] > '9')
            return false;
        unsigned d = (unsigned)(s[p] - '0');
        if (v > (UINT64_MAX - d) / 10)
            return false;
        v = v * 10 + d;
    }
    if (neg && v > (uint64_t)INT64_MAX + 1)
        return false;
    *kind = neg || v <= (uint64_t)INT64_MAX ? JD_INT64 : JD_UINT64;
    *i = neg ? (int64_t)(0 - v) : (int64_t)v;
    *u = v;
    return true;
}

typedef struct vstate {
    const char *p, *end;
} vstate;

static void skip_ws(vstate *v)
{
    while (v->p < v->end && (*v->p == ' ' || *v->p == '\t' || *v->p == '\n' || *v->p == '\r'))
        v->p++;
}

static int hex4(const char *p)
{
    int v = 0;
    for (int i = 0; i < 4; i++) {
        char c = p[i];
        int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
        if (d < 0)
            return -1;
        v = v * 16 + d;
    }
    return v;
}

/* Length of the valid UTF-8 sequence at p (p < end, *p >= 0x80), or 0. */
static size_t utf8_len(const unsigned char *p, const unsigned char *end)
{
    unsigned c = p[0];
    size_t n;
    uint32_t cp;
    if (c >= 0xC2 && c <= 0xDF)
        n = 2, cp = c & 0x1F;
    else if (c >= 0xE0 && c <= 0xEF)
        n = 3, cp = c & 0x0F;
    else if (c >= 0xF0 && c <= 0xF4)
        n = 4, cp = c & 0x07;
    else
        return 0;
    if ((size_t)(end - p) < n)
        return 0;
    for (size_t i = 1; i < n; i++) {
        if ((p[i] & 0xC0) != 0x80)
            return 0;
        cp = cp << 6 | (p[i] & 0x3F);
    }
    if ((n == 3 && (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF))) || (n == 4 && (cp < 0x10000 || cp > 0x10FFFF)))
        return 0;
    return n;
}

static bool v_string(vstate *v)
{
    v->p++; /* the opening quote */
    while (v->p < v->end) {
        unsigned char c = (unsigned char)*v->p;
        if (c == '"') {
            v->p++;
            return true;
        }
        if (c < 0x20)
            return false;
        if (c == '\\') {
            if (v->end - v->p < 2)
                return false;
            char e = v->p[1];
            if (e == 'u') {
                if (v->end - v->p < 6)
                    return false;
                int u = hex4(v->p + 2);
                if (u < 0 || (u >= 0xDC00 && u <= 0xDFFF))
                    return false;
                v->p += 6;
                if (u >= 0xD800 && u <= 0xDBFF) {
                    if (v->end - v->p < 6 || v->p[0] != '\\' || v->p[1] != 'u')
                        return false;
                    int lo = hex4(v->p + 2);
                    if (lo < 0xDC00 || lo > 0xDFFF)
                        return false;
                    v->p += 6;
                }
                continue;
            }
            if (!strchr("\"\\/bfnrt", e) || e == 0)
                return false;
            v->p += 2;
            continue;
        }
        if (c < 0x80) {
            v->p++;
            continue;
        }
        size_t l = utf8_len((const unsigned char *)v->p, (const unsigned char *)v->end);
        if (!l)
            return false;
        v->p += l;
    }
    return false;
}

static bool is_digit(char c) { return c >= '0' && c <= '9'; }

/* Past one or more digits at p; NULL when there is none. */
static const char *digits(const char *p, const char *e)
{
    if (p >= e || !is_digit(*p))
        return NULL;
    while (p < e && is_digit(*p))
        p++;
    return p;
}

/* Scans a number; sets *kind. The value itself is checked for range here too. */
static bool v_number(vstate *v, jd_kind *kind)
{
    const char *b = v->p, *p = v->p, *e = v->end;
    bool frac = false;
    if (p < e && *p == '-')
        p++;
    if (p < e && *p == '0')
        p++;
    else if (!(p = digits(p, e)))
        return false;
    if (p < e && *p == '.') {
        if (!(p = digits(p + 1, e)))
            return false;
        frac = true;
    }
    if (p < e && (*p == 'e' || *p == 'E')) {
        p++;
        if (p < e && (*p == '+' || *p == '-'))
            p++;
        if (!(p = digits(p, e)))
            return false;
        frac = true;
    }
    v->p = p;
    jd_val t = {b, (size_t)(p - b), JD_DOUBLE};
    if (frac) {
        double d = jd_double(&t);
        *kind = JD_DOUBLE;
        return d - d == 0; /* finite */
    }
    /* An integer: Int64, else UInt64, else invalid. */
    int64_t i;
    uint64_t u;
    return jd_parse_integer(b, (size_t)(p - b), false, kind, &i, &u);
}

static bool v_value(vstate *v, int depth, jd_val *out);

static bool v_container(vstate *v, int depth, bool object)
{
    if (depth >= JD_MAX_DEPTH)
        return false;
    v->p++;
    skip_ws(v);
    char close = object ? '}' : ']';
    if (v->p < v->end && *v->p == close) {
        v->p++;
        return true;
    }
    for (;;) {
        if (object) {
            skip_ws(v);
            if (v->p >= v->end || *v->p != '"' || !v_string(v))
                return false;
            skip_ws(v);
            if (v->p >= v->end || *v->p != ':')
                return false;
            v->p++;
        }
        jd_val x;
        if (!v_value(v, depth + 1, &x))
            return false;
        skip_ws(v);
        if (v->p >= v->end)
            return false;
        if (*v->p == close) {
            v->p++;
            return true;
        }
        if (*v->p != ',')
            return false;
        v->p++;
    }
}

static bool v_lit(vstate *v, const char *w)
{
    size_t l = strlen(w);
    if ((size_t)(v->end - v->p) < l || memcmp(v->p, w, l) != 0)
        return false;
    v->p += l;
    return true;
}

static bool v_value(vstate *v, int depth, jd_val *out)
{
    skip_ws(v);
    if (v->p >= v->end)
        return false;
    const char *b = v->p;
    bool ok;
    jd_kind k;
    switch (*v->p) {
    case '{': ok = v_container(v, depth, true), k = JD_OBJECT; break;
    case '[': ok = v_container(v, depth, false), k = JD_ARRAY; break;
    case '"': ok = v_string(v), k = JD_STRING; break;
    case 't': ok = v_lit(v, "true"), k = JD_BOOL; break;
    case 'f': ok = v_lit(v, "false"), k = JD_BOOL; break;
    case 'n': ok = v_lit(v, "null"), k = JD_NULL; break;
    default: ok = v_number(v, &k); break;
    }
    if (!ok)
        return false;
    *out = (jd_val){b, (size_t)(v->p - b), k};
    return true;
}

bool jd_parse(const char *s, size_t n, jd_val *root)
{
    vstate v = {s, s + n};
    if (!v_value(&v, 0, root))
        return false;
    skip_ws(&v);
    return v.p == v.end;
}

/* ---- navigation (over validated text) ---- */

static const char *ws(const char *p, const char *end)
{
    while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
        p++;
    return p;
}

/* The end of the validated value starting at p. */
static const char *skip_value(const char *p, const char *end)
{
    if (*p == '"') {
        for (p++; *p != '"'; p++)
            if (*p == '\\')
                p++;
        return p + 1;
    }
    if (*p == '{' || *p == '[') {
        int depth = 0;
        for (; p < end; p++) {
            char c = *p;
            if (c == '"') {
                for (p++; *p != '"'; p++)
                    if (*p == '\\')
                        p++;
            } else if (c == '{' || c == '[') {
                depth++;
            } else if (c == '}' || c == ']') {
                if (--depth == 0)
                    return p + 1;
            }
        }
        return end;
    }
    while (p < end && *p != ',' && *p != '}' && *p != ']' && *p != ' ' && *p != '\t' && *p != '\n' && *p != '\r')
        p++;
    return p;
}

static jd_kind kind_at(const char *p, const char *e)
{
    switch (*p) {
    case '{': return JD_OBJECT;
    case '[': return JD_ARRAY;
    case '"': return JD_STRING;
    case 't':
    case 'f': return JD_BOOL;
    case 'n': return JD_NULL;
    default: break;
    }
    for (const char *q = p; q < e; q++)
        if (*q == '.' || *q == 'e' || *q == 'E')
            return JD_DOUBLE;
    if (*p == '-')
        return JD_INT64;
    jd_val t = {p, (size_t)(e - p), JD_UINT64};
    return jd_uint64(&t) <= (uint64_t)INT64_MAX ? JD_INT64 : JD_UINT64;
}

void jd_iter_init(jd_iter *it, const jd_val *v)
{
    it->p = v->p + 1;
    it->end = v->p + v->n - 1; /* the closing bracket */
    it->object = v->kind == JD_OBJECT;
}

bool jd_next(jd_iter *it, jd_val *key, jd_val *val)
{
    const char *p = ws(it->p, it->end);
    if (p < it->end && *p == ',')
        p = ws(p + 1, it->end);
    if (p >= it->end)
        return false;
    if (it->object) {
        const char *ke = skip_value(p, it->end);
        *key = (jd_val){p, (size_t)(ke - p), JD_STRING};
        p = ws(ke, it->end);
        p = ws(p + 1, it->end); /* the ':' */
    }
    const char *e = skip_value(p, it->end);
    *val = (jd_val){p, (size_t)(e - p), kind_at(p, e)};
    it->p = e;
    return true;
}

size_t jd_count(const jd_val *v)
{
    if (v->kind != JD_ARRAY && v->kind != JD_OBJECT)
        return 0;
    jd_iter it;
    jd_val k, x;
    size_t n = 0;
    jd_iter_init(&it, v);
    while (jd_next(&it, &k, &x))
        n++;
    return n;
}

/* Whether the JSON string literal s (with quotes) unescapes to key. */
static bool key_equals(const jd_val *s, const char *key, size_t klen)
{
    const char *b = s->p + 1;
    size_t n = s->n - 2;
    if (!memchr(b, '\\', n))
        return n == klen && memcmp(b, key, n) == 0;
    buf t = {0};
    jd_string(s, &t);
    bool eq = t.len == klen && memcmp(t.p, key, klen) == 0;
    buf_free(&t);
    return eq;
}

bool jd_find_key(const jd_val *obj, const char *key, size_t klen, jd_val *out)
{
    if (obj->kind != JD_OBJECT)
        return false;
    jd_iter it;
    jd_val k, x;
    jd_iter_init(&it, obj);
    while (jd_next(&it, &k, &x))
        if (key_equals(&k, key, klen)) {
            *out = x;
            return true;
        }
    return false;
}

bool jd_find_index(const jd_val *v, int64_t idx, jd_val *out)
{
    if ((v->kind != JD_ARRAY && v->kind != JD_OBJECT) || idx == 0)
        return false;
    if (idx < 0) {
        size_t n = jd_count(v);
        if ((uint64_t)(-(idx + 1)) >= n)
            return false;
        idx = (int64_t)n + idx + 1;
    }
    jd_iter it;
    jd_val k, x;
    jd_iter_init(&it, v);
    for (int64_t i = 1; jd_next(&it, &k, &x); i++)
        if (i == idx) {
            *out = x;
            return true;
        }
    return false;
}

/* ---- values ---- */

static void put_utf8(buf *out, uint32_t cp)
{
    char b[4];
    size_t n;
    if (cp < 0x80)
        b[0] = (char)cp, n = 1;
    else if (cp < 0x800)
        b[0] = (char)(0xC0 | cp >> 6), b[1] = (char)(0x80 | (cp & 0x3F)), n = 2;
    else if (cp < 0x10000)
        b[0] = (char)(0xE0 | cp >> 12), b[1] = (char)(0x80 | ((cp >> 6) & 0x3F)), b[2] = (char)(0x80 | (cp & 0x3F)), n = 3;
    else
        b[0] = (char)(0xF0 | cp >> 18), b[1] = (char)(0x80 | ((cp >> 12) & 0x3F)),
        b[2] = (char)(0x80 | ((cp >> 6) & 0x3F)), b[3] = (char)(0x80 | (cp & 0x3F)), n = 4;
    buf_append(out, b, n);
}

void jd_string(const jd_val *v, buf *out)
{
    const char *p = v->p + 1, *e = v->p + v->n - 1;
    while (p < e) {
        const char *bs = memchr(p, '\\', (size_t)(e - p));
        if (!bs) {
            buf_append(out, p, (size_t)(e - p));
            return;
        }
        buf_append(out, p, (size_t)(bs - p));
        char c = bs[1];
        p = bs + 2;
        switch (c) {
        case 'b': buf_putc(out, '\b'); break;
        case 'f': buf_putc(out, '\f'); break;
        case 'n': buf_putc(out, '\n'); break;
        case 'r': buf_putc(out, '\r'); break;
        case 't': buf_putc(out, '\t'); break;
        case 'u': {
            uint32_t cp = (uint32_t)hex4(p);
            p += 4;
            if (cp >= 0xD800 && cp <= 0xDBFF) {
                uint32_t lo = (uint32_t)hex4(p + 2);
                p += 6;
                cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
            }
            put_utf8(out, cp);
            break;
        }
        default: buf_putc(out, c); break;
        }
    }
}

int64_t jd_int64(const jd_val *v)
{
    bool neg = v->p[0] == '-';
    uint64_t u = 0;
    for (size_t i = neg; i < v->n; i++)
        u = u * 10 + (uint64_t)(v->p[i] - '0');
    return neg ? (int64_t)(0 - u) : (int64_t)u;
}

uint64_t jd_uint64(const jd_val *v)
{
    uint64_t u = 0;
    for (size_t i = 0; i < v->n; i++)
        u = u * 10 + (uint64_t)(v->p[i] - '0');
    return u;
}

double jd_double(const jd_val *v)
{
    if (v->kind == JD_INT64)
        return (double)jd_int64(v);
    if (v->kind == JD_UINT64)
        return (double)jd_uint64(v);
    char small[64];
    char *b = v->n < sizeof small ? small : malloc(v->n + 1);
    if (!b)
        return 0;
    memcpy(b, v->p, v->n);
    b[v->n] = 0;
    double d = strtod(b, NULL);
    if (b != small)
        free(b);
    return d;
}

void jd_put_string(buf *out, const char *s, size_t n) { text_put_json_string(out, s, n, false); }

void jd_to_text(const jd_val *v, buf *out)
{
    char num[64];
    switch (v->kind) {
    case JD_NULL: buf_puts(out, "null"); return;
    case JD_BOOL: buf_puts(out, v->p[0] == 't' ? "true" : "false"); return;
    case JD_INT64: buf_append(out, num, (size_t)snprintf(num, sizeof num, "%" PRId64, jd_int64(v))); return;
    case JD_UINT64: buf_append(out, num, (size_t)snprintf(num, sizeof num, "%" PRIu64, jd_uint64(v))); return;
    case JD_DOUBLE: buf_append(out, num, text_format_f64(jd_double(v), num)); return;
    case JD_STRING: {
        buf t = {0};
        jd_string(v, &t);
        jd_put_string(out, (const char *)t.p, t.len);
        buf_free(&t);
        return;
    }
    case JD_ARRAY:
    case JD_OBJECT: {
        bool obj = v->kind == JD_OBJECT;
        buf_putc(out, obj ? '{' : '[');
        jd_iter it;
        jd_val k, x;
        jd_iter_init(&it, v);
        for (bool first = true; jd_next(&it, &k, &x); first = false) {
            if (!first)
                buf_putc(out, ',');
            if (obj) {
                jd_to_text(&k, out);
                buf_putc(out, ':');
            }
            jd_to_text(&x, out);
        }
        buf_putc(out, obj ? '}' : ']');
        return;
    }
    }
}
