/* JSONPath (jsonpath.h) and the SQL functions over it: JSON_EXISTS, JSON_VALUE, JSON_QUERY.
 *
 * As ClickHouse: the path must be a constant; an invalid document gives '' (0 for
 * JSON_EXISTS); JSON_VALUE is the first value reached, '' when that is an array or object,
 * a string unescaped, anything else as JSON text; JSON_QUERY is every value reached, as JSON
 * text, in "[v1, v2]". Its JSON text is simdjson's: no whitespace, doubles in the shortest
 * form that reads back (fixed or exponent notation, whichever is shorter: "0.1", "1e+16",
 * "1e-05"), strings escaped minimally ('"', '\\', control characters). */
#include "func/scalar/jsonpath.h"

#include "func/func.h"

#include "base/err.h"
#include "base/mem.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the parser ---- */

typedef struct pstate {
    const char *s, *end;
} pstate;

static void skip_space(pstate *p)
{
    for (;;) {
        while (p->s < p->end && (*p->s == ' ' || *p->s == '\t' || *p->s == '\n' || *p->s == '\r' || *p->s == '\f'))
            p->s++;
        if (p->end - p->s >= 2 && p->s[0] == '-' && p->s[1] == '-') {
            while (p->s < p->end && *p->s != '\n')
                p->s++;
        } else if (p->end - p->s >= 2 && p->s[0] == '/' && p->s[1] == '*') {
            const char *e = NULL;
            for (const char *q = p->s + 2; q + 1 < p->end; q++)
                if (q[0] == '*' && q[1] == '/') {
                    e = q + 2;
                    break;
                }
            p->s = e ? e : p->end;
        } else {
            return;
        }
    }
}

static int bad_path(void) { return err_set(ERR_BAD_ARGUMENTS, "Unable to parse JSONPath"); }

static bool word_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* A quoted name or string at p->s (quote ', " or `), unescaped into *out (allocated). */
static bool quoted(pstate *p, char **out, size_t *len)
{
    char q = *p->s;
    buf b = {0};
    const char *s = p->s + 1;
    for (; s < p->end && *s != q; s++) {
        if (*s == '\\' && s + 1 < p->end)
            s++;
        buf_putc(&b, *s);
    }
    if (s >= p->end) {
        buf_free(&b);
        return false;
    }
    p->s = s + 1;
    *out = xstrndup(b.len ? (const char *)b.p : "", b.len); /* jp_free frees with free() */
    *len = b.len;
    buf_free(&b);
    return true;
}

/* A non-negative integer index (decimal or 0x hex). 1 ok, 0 not a number, -1 error set. */
static int index_number(pstate *p, uint64_t *v)
{
    const char *s = p->s;
    if (s >= p->end || *s < '0' || *s > '9')
        return 0;
    const char *b = s;
    while (s < p->end && (word_char(*s) || *s == '.'))
        s++;
    char tmp[64];
    size_t n = (size_t)(s - b);
    if (n >= sizeof tmp)
        return bad_path();
    memcpy(tmp, b, n);
    tmp[n] = 0;
    char *e;
    unsigned long long x = strtoull(tmp, &e, (n > 2 && tmp[0] == '0' && (tmp[1] == 'x' || tmp[1] == 'X')) ? 16 : 10);
    if (*e) {
        strtod(tmp, &e);
        if (!*e)
            return err_set(ERR_BAD_GET, "Bad get: has Float64, requested UInt64");
        return bad_path();
    }
    p->s = s;
    *v = x;
    return 1;
}

static bool is_to(pstate *p)
{
    return p->end - p->s >= 2 && (p->s[0] == 't' || p->s[0] == 'T') && (p->s[1] == 'o' || p->s[1] == 'O') &&
           (p->end - p->s == 2 || !word_char(p->s[2]));
}

static int bracket(pstate *p, jp_step *st)
{
    p->s++; /* '[' */
    skip_space(p);
    if (p->s < p->end && *p->s == '*') {
        p->s++;
        st->kind = JP_STAR;
    } else if (p->s < p->end && (*p->s == '\'' || *p->s == '"')) {
        st->kind = JP_KEY;
        if (!quoted(p, &st->key, &st->key_len))
            return bad_path();
    } else {
        st->kind = JP_RANGES;
        for (;;) {
            uint64_t a, b;
            int r = index_number(p, &a);
            if (r <= 0)
                return r < 0 ? -1 : bad_path();
            skip_space(p);
            b = a + 1;
            if (is_to(p)) {
                p->s += 2;
                skip_space(p);
                r = index_number(p, &b);
                if (r <= 0)
                    return r < 0 ? -1 : bad_path();
                if (a >= b)
                    return err_set(ERR_BAD_ARGUMENTS,
                                   "Start of range must be greater than end of range, however %" PRIu64 " >= %" PRIu64,
                                   a, b);
                skip_space(p);
            }
            st->ranges = xrealloc(st->ranges, sizeof *st->ranges * 2 * (size_t)(st->nranges + 1));
            st->ranges[2 * st->nranges] = a;
            st->ranges[2 * st->nranges + 1] = b;
            st->nranges++;
            if (p->s < p->end && *p->s == ',') {
                p->s++;
                skip_space(p);
                continue;
            }
            break;
        }
    }
    skip_space(p);
    if (p->s >= p->end || *p->s != ']')
        return bad_path();
    p->s++;
    return 0;
}

static int member(pstate *p, jp_step *st)
{
    p->s++; /* '.' */
    skip_space(p);
    st->kind = JP_KEY;
    if (p->s < p->end && (*p->s == '"' || *p->s == '`'))
        return quoted(p, &st->key, &st->key_len) ? 0 : bad_path();
    const char *b = p->s;
    while (p->s < p->end && word_char(*p->s))
        p->s++;
    if (p->s == b)
        return bad_path();
    st->key_len = (size_t)(p->s - b);
    st->key = xmalloc(st->key_len + 1);
    memcpy(st->key, b, st->key_len);
    st->key[st->key_len] = 0;
    return 0;
}

int jp_parse(const char *s, size_t n, jp_path **out)
{
    pstate p = {s, s + n};
    jp_path *path = xcalloc(1, sizeof *path);
    skip_space(&p);
    if (p.s >= p.end || *p.s != '$')
        goto bad;
    p.s++;
    for (;;) {
        skip_space(&p);
        if (p.s >= p.end)
            break;
        if (*p.s != '.' && *p.s != '[')
            goto bad;
        path->steps = xrealloc(path->steps, sizeof *path->steps * (size_t)(path->nsteps + 1));
        jp_step *st = &path->steps[path->nsteps++];
        memset(st, 0, sizeof *st);
        if ((*p.s == '.' ? member(&p, st) : bracket(&p, st)) < 0) {
            jp_free(path);
            return -1;
        }
    }
    *out = path;
    return 0;
bad:
    jp_free(path);
    return bad_path();
}

void jp_free(jp_path *p)
{
    if (!p)
        return;
    for (int i = 0; i < p->nsteps; i++) {
        free(p->steps[i].key);
        free(p->steps[i].ranges);
    }
    free(p->steps);
    free(p);
}

/* ---- evaluation ---- */

static bool visit(const jp_path *p, int i, const jd_val *v, jp_visit_fn fn, void *ctx)
{
    if (i == p->nsteps)
        return fn(v, ctx);
    const jp_step *st = &p->steps[i];
    jd_val x, k;
    switch (st->kind) {
    case JP_KEY:
        if (jd_find_key(v, st->key, st->key_len, &x))
            return visit(p, i + 1, &x, fn, ctx);
        return true;
    case JP_STAR:
        if (v->kind == JD_ARRAY) {
            jd_iter it;
            jd_iter_init(&it, v);
            while (jd_next(&it, &k, &x))
                if (!visit(p, i + 1, &x, fn, ctx))
                    return false;
        }
        return true;
    case JP_RANGES:
        if (v->kind != JD_ARRAY)
            return true;
        for (int r = 0; r < st->nranges; r++) {
            jd_iter it;
            jd_iter_init(&it, v);
            for (uint64_t j = 0; j < st->ranges[2 * r + 1] && jd_next(&it, &k, &x); j++)
                if (j >= st->ranges[2 * r] && !visit(p, i + 1, &x, fn, ctx))
                    return false;
        }
        return true;
    }
    return true;
}

void jp_eval(const jp_path *p, const jd_val *root, jp_visit_fn fn, void *ctx) { visit(p, 0, root, fn, ctx); }

/* ---- simdjson's JSON text ---- */

/* The shortest text that reads back as d, in fixed or exponent notation, whichever is
 * shorter (fixed on a tie), as C++'s std::to_chars(double) prints. */
static void put_double(buf *out, double d)
{
    char e[40];
    int prec = 1;
    for (; prec <= 17; prec++) {
        snprintf(e, sizeof e, "%.*e", prec - 1, d);
        if (strtod(e, NULL) == d)
            break;
    }
    /* e = [-]D[.DDD]e±XX: take the digits and the exponent apart. */
    const char *s = e;
    bool neg = *s == '-';
    if (neg)
        s++;
    char dig[24];
    int nd = 0;
    for (; *s && *s != 'e'; s++)
        if (*s != '.')
            dig[nd++] = *s;
    int ex = atoi(s + 1);
    buf fixed = {0};
    if (neg)
        buf_putc(&fixed, '-');
    if (ex >= nd - 1) {
        buf_append(&fixed, dig, (size_t)nd);
        for (int i = 0; i < ex - (nd - 1); i++)
            buf_putc(&fixed, '0');
    } else if (ex < 0) {
        buf_puts(&fixed, "0.");
        for (int i = 0; i < -ex - 1; i++)
            buf_putc(&fixed, '0');
        buf_append(&fixed, dig, (size_t)nd);
    } else {
        buf_append(&fixed, dig, (size_t)ex + 1);
        buf_putc(&fixed, '.');
        buf_append(&fixed, dig + ex + 1, (size_t)(nd - ex - 1));
    }
    if (fixed.len <= strlen(e))
        buf_append(out, fixed.p, fixed.len);
    else
        buf_puts(out, e);
    buf_free(&fixed);
}

static void put_string(buf *out, const jd_val *v)
{
    static const char hex[] = "0123456789abcdef";
    buf t = {0};
    jd_string(v, &t);
    buf_putc(out, '"');
    for (size_t i = 0; i < t.len; i++) {
        unsigned char c = t.p[i];
        const char *esc = c == '"' ? "\\\"" : c == '\\' ? "\\\\" : c == '\b' ? "\\b" : c == '\f' ? "\\f"
                          : c == '\n' ? "\\n" : c == '\r' ? "\\r" : c == '\t' ? "\\t" : NULL;
        if (esc) {
            buf_puts(out, esc);
        } else if (c < 0x20) {
            char u[6] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 15]};
            buf_append(out, u, 6);
        } else {
            buf_putc(out, (char)c);
        }
    }
    buf_putc(out, '"');
    buf_free(&t);
}

static void put_value(buf *out, const jd_val *v)
{
    switch (v->kind) {
    case JD_DOUBLE: put_double(out, jd_double(v)); return;
    case JD_STRING: put_string(out, v); return;
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
                put_string(out, &k);
                buf_putc(out, ':');
            }
            put_value(out, &x);
        }
        buf_putc(out, obj ? '}' : ']');
        return;
    }
    default: jd_to_text(v, out); return; /* null, booleans, integers print alike */
    }
}

/* ---- the SQL functions ---- */

typedef enum { Q_EXISTS, Q_VALUE, Q_QUERY } qkind;

typedef struct qctx {
    qkind k;
    buf *out;
    int n;
} qctx;

static bool on_value(const jd_val *v, void *ctx)
{
    qctx *q = ctx;
    q->n++;
    if (q->k == Q_EXISTS)
        return false;
    if (q->k == Q_VALUE) {
        if (v->kind == JD_STRING)
            jd_string(v, q->out);
        else if (v->kind != JD_ARRAY && v->kind != JD_OBJECT)
            put_value(q->out, v);
        return false;
    }
    buf_puts(q->out, q->n == 1 ? "[" : ", ");
    put_value(q->out, v);
    return true;
}

static int jq_exec(const fn_call *c, column **a, size_t n, column **out)
{
    qkind k = !strcmp(c->def->name, "JSON_EXISTS") ? Q_EXISTS : !strcmp(c->def->name, "JSON_VALUE") ? Q_VALUE : Q_QUERY;
    column *r = col_new(c->ret);
    col_reserve(r, n);
    buf t = {0};
    for (size_t i = 0; i < n; i++) {
        size_t l;
        const char *s = col_str(a[0], i, &l);
        jd_val root;
        t.len = 0;
        qctx q = {k, &t, 0};
        if (jd_parse(s, l, &root))
            jp_eval(c->state, &root, on_value, &q);
        if (k == Q_EXISTS) {
            uint8_t x = q.n > 0;
            col_push_fixed(r, &x);
            continue;
        }
        if (k == Q_QUERY && q.n)
            buf_putc(&t, ']');
        col_push_str(r, (const char *)t.p, t.len);
    }
    buf_free(&t);
    *out = r;
    return 0;
}

static void jq_free(void *state) { jp_free(state); }

static int jq_resolve(fn_call *c)
{
    if (c->nargs != 2)
        return fn_bad_nargs(c, "2");
    for (int i = 0; i < 2; i++)
        if (c->arg_types[i]->id != T_STRING)
            return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type %s of argument %d of function %s, expected String",
                           c->arg_types[i]->name, i + 1, c->name);
    size_t pl;
    const char *ps = fn_const_str(c, 1, &pl);
    if (!ps)
        return err_set(ERR_ILLEGAL_COLUMN, "Argument at index 1 for function %s must be constant", c->name);
    jp_path *p;
    if (jp_parse(ps, pl, &p) < 0)
        return -1;
    c->state = p;
    c->ret = type_simple(!strcmp(c->def->name, "JSON_EXISTS") ? T_UINT8 : T_STRING);
    c->exec = jq_exec;
    return 0;
}

void func_register_jsonpath(void)
{
    static const func_def defs[] = {
        {"JSON_EXISTS", 0, jq_resolve, jq_free, "1 if the JSONPath reaches a value"},
        {"JSON_VALUE", 0, jq_resolve, jq_free, "the scalar value the JSONPath reaches, as text"},
        {"JSON_QUERY", 0, jq_resolve, jq_free, "the values the JSONPath reaches, as a JSON array"},
    };
    for (size_t i = 0; i < sizeof defs / sizeof defs[0]; i++)
        func_register(&defs[i]);
}
