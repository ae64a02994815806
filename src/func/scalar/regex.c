/* Regular expression and substring replacement functions: match (the REGEXP operator),
 * extract, extractAll, replaceRegexpOne, replaceRegexpAll, replaceOne, replaceAll (alias
 * replace).
 *
 * ClickHouse uses RE2; shale uses PCRE2 (8-bit, UTF mode that tolerates invalid UTF-8,
 * DOTALL like RE2's dot_nl, DOLLAR_ENDONLY so `$` is end of text as in RE2). A constant
 * pattern is compiled (and JIT-compiled when available) once in the resolver and kept
 * in call->state, which is read-only during execution; match data is allocated per
 * kernel call, so concurrent threads never share it. Non-constant patterns (match,
 * replaceRegexp*) are compiled per row through a small per-call cache.
 *
 * Known differences from RE2: PCRE2 accepts constructs RE2 rejects (backreferences,
 * lookaround, possessive quantifiers, \Z), so some patterns that fail in ClickHouse work
 * here; error texts for bad patterns are PCRE2's; RE2 guarantees linear time, PCRE2 may
 * backtrack heavily on pathological patterns (a match limit turns that into an error
 * rather than a hang). Semantics of the common syntax (leftmost-first alternation,
 * greedy/lazy quantifiers, classes, \d \w \s, (?i), UTF-8 `.`) agree.
 *
 * ClickHouse specifics reproduced: an empty pattern leaves replace* input unchanged and
 * gives [] for extractAll; replaceRegexpAll after an empty match copies one byte and
 * retries (also at the end of the string, so 'ab' x* '-' gives '-a-b-'); extractAll
 * stops at the first empty match; extract returns group 1 when the pattern has groups
 * ('' when it did not participate), else the whole match. Replacement strings: \0-\9 are
 * groups, \\ is a backslash, a backslash before another character is dropped; a group
 * beyond the pattern's count is BAD_ARGUMENTS. */
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include "func/func.h"
#include "func/scalar/num.h"

#include "base/err.h"

#include <stdlib.h>
#include <string.h>


typedef struct rx {
    pcre2_code *code; /* NULL for the empty pattern */
    int ncap;         /* capturing groups */
} rx;

/* Compiles pattern p. kind selects ClickHouse's message: 0 = match/extract (code 427),
 * 1 = replaceRegexp* (BAD_ARGUMENTS). */
static int rx_compile(rx *r, const char *p, size_t n, int kind)
{
    r->code = NULL;
    r->ncap = 0;
    if (n == 0)
        return 0;
    int ec;
    PCRE2_SIZE eo;
    uint32_t opts = PCRE2_UTF | PCRE2_MATCH_INVALID_UTF | PCRE2_DOTALL | PCRE2_DOLLAR_ENDONLY;
    r->code = pcre2_compile((PCRE2_SPTR)p, n, opts, &ec, &eo, NULL);
    if (!r->code) {
        PCRE2_UCHAR msg[256];
        pcre2_get_error_message(ec, msg, sizeof msg);
        if (kind == 1)
            return err_set(ERR_BAD_ARGUMENTS, "The pattern argument is not a valid re2 pattern: %s: %.*s", (char *)msg,
                           (int)n, p);
        return err_set(ERR_CANNOT_COMPILE_REGEXP,
                       "OptimizedRegularExpression: cannot compile re2: %.*s, error: %s (at offset %zu). Look at "
                       "https://github.com/google/re2/wiki/Syntax for reference. Please note that if you specify "
                       "regex as an SQL string literal, the slashes have to be additionally escaped. For example, to "
                       "match an opening brace, write '\\(' -- the first slash is for SQL and the second one is for "
                       "regex",
                       (int)n, p, (char *)msg, (size_t)eo);
    }
    pcre2_jit_compile(r->code, PCRE2_JIT_COMPLETE); /* falls back to the interpreter on failure */
    uint32_t cc = 0;
    pcre2_pattern_info(r->code, PCRE2_INFO_CAPTURECOUNT, &cc);
    r->ncap = (int)cc;
    return 0;
}

static void rx_free(rx *r)
{
    if (r->code)
        pcre2_code_free(r->code);
    r->code = NULL;
}

/* Per-kernel matcher: match data sized for up to 10 groups plus the whole match. */
typedef struct matcher {
    pcre2_match_data *md;
} matcher;

static void matcher_init(matcher *m) { m->md = pcre2_match_data_create(16, NULL); }
static void matcher_free(matcher *m) { pcre2_match_data_free(m->md); }

/* Finds the first match at or after `from`. Returns 1 with the ovector, 0 for no match,
 * -1 with an error (e.g. match limit exceeded). */
static int rx_find(const rx *r, matcher *m, const char *s, size_t n, size_t from, PCRE2_SIZE **ov)
{
    int rc = pcre2_match(r->code, (PCRE2_SPTR)s, n, from, 0, m->md, NULL);
    if (rc == PCRE2_ERROR_NOMATCH)
        return 0;
    if (rc < 0) {
        PCRE2_UCHAR msg[256];
        pcre2_get_error_message(rc, msg, sizeof msg);
        return err_set(ERR_BAD_ARGUMENTS, "Regular expression matching failed: %s", (char *)msg);
    }
    *ov = pcre2_get_ovector_pointer(m->md);
    return 1;
}

/* A small cache of compiled non-constant patterns, local to one kernel call. */
#define RX_CACHE 8
typedef struct rx_cache {
    struct {
        char *pat;
        size_t len;
        rx r;
        bool used;
    } e[RX_CACHE];
    int next;
    int kind;
} rx_cache;

static const rx *cache_get(rx_cache *c, const char *p, size_t n)
{
    for (int i = 0; i < RX_CACHE; i++)
        if (c->e[i].used && c->e[i].len == n && (n == 0 || memcmp(c->e[i].pat, p, n) == 0))
            return &c->e[i].r;
    rx r;
    if (rx_compile(&r, p, n, c->kind) < 0)
        return NULL;
    int k = c->next;
    c->next = (c->next + 1) % RX_CACHE;
    if (c->e[k].used) {
        rx_free(&c->e[k].r);
        free(c->e[k].pat);
    }
    c->e[k].pat = xmalloc(n ? n : 1);
    if (n)
        memcpy(c->e[k].pat, p, n);
    c->e[k].len = n;
    c->e[k].r = r;
    c->e[k].used = true;
    return &c->e[k].r;
}

static void cache_free(rx_cache *c)
{
    for (int i = 0; i < RX_CACHE; i++)
        if (c->e[i].used) {
            rx_free(&c->e[i].r);
            free(c->e[i].pat);
        }
}

/* ---- call state ---- */

typedef struct rx_state {
    bool have_rx; /* pattern was constant and is compiled in r */
    rx r;
} rx_state;

static void rx_state_free(void *p)
{
    rx_state *st = p;
    if (!st)
        return;
    if (st->have_rx)
        rx_free(&st->r);
    free(st);
}

static int resolve_pattern(fn_call *c, int kind, bool need_const)
{
    rx_state *st = xcalloc(1, sizeof *st);
    c->state = st;
    size_t pl = 0;
    const char *p = fn_const_str(c, 1, &pl);
    if (!c->const_args[1]) {
        if (need_const)
            return err_set(ERR_ILLEGAL_COLUMN, "Argument at index 1 for function %s must be constant", c->name);
        return 0;
    }
    if (rx_compile(&st->r, p, pl, kind) < 0)
        return -1;
    st->have_rx = true;
    return 0;
}

/* ---- match ---- */

static int match_exec(const fn_call *c, column **a, size_t n, column **out)
{
    const rx_state *st = c->state;
    uint8_t *d;
    column *res = num_new_u8(n, &d);
    matcher m;
    matcher_init(&m);
    rx_cache cache = {.kind = 0};
    int rc = 0;
    for (size_t i = 0; i < n && rc == 0; i++) {
        size_t l;
        const char *s = col_str(a[0], i, &l);
        const rx *r = &st->r;
        if (!st->have_rx) {
            size_t pl;
            const char *p = col_str(a[1], i, &pl);
            if (!(r = cache_get(&cache, p, pl))) {
                rc = -1;
                break;
            }
        }
        if (!r->code) {
            d[i] = 1;
            continue;
        }
        PCRE2_SIZE *ov;
        int k = rx_find(r, &m, s, l, 0, &ov);
        if (k < 0)
            rc = -1;
        d[i] = k == 1;
    }
    matcher_free(&m);
    cache_free(&cache);
    if (rc < 0) {
        col_free(res);
        return -1;
    }
    *out = res;
    return 0;
}

static int match_resolve(fn_call *c)
{
    if (c->nargs != 2)
        return fn_bad_nargs(c, "2");
    if (!type_is_string(c->arg_types[0]) || !type_is_string(c->arg_types[1]))
        return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type %s of argument of function %s",
                       !type_is_string(c->arg_types[0]) ? c->arg_types[0]->name : c->arg_types[1]->name, c->name);
    if (resolve_pattern(c, 0, false) < 0)
        return -1;
    c->ret = type_simple(T_UINT8);
    c->exec = match_exec;
    return 0;
}

/* ---- extract / extractAll ---- */

static int extract_exec(const fn_call *c, column **a, size_t n, column **out)
{
    const rx_state *st = c->state;
    bool all = c->ret->id == T_ARRAY;
    column *res = col_new(c->ret);
    column *strs = all ? res->inner : res;
    col_reserve(res, n);
    matcher m;
    matcher_init(&m);
    int rc = 0;
    int g = st->r.ncap > 0 ? 1 : 0;
    for (size_t i = 0; i < n; i++) {
        size_t l;
        const char *s = col_str(a[0], i, &l);
        if (!st->r.code) {
            if (all)
                col_array_commit(res);
            else
                col_push_str(res, "", 0);
            continue;
        }
        size_t pos = 0;
        bool first = true;
        while (pos <= l) {
            PCRE2_SIZE *ov;
            int k = rx_find(&st->r, &m, s, l, pos, &ov);
            if (k < 0) {
                rc = -1;
                goto done;
            }
            if (k == 0 || (all && ov[1] == ov[0])) {
                if (!all)
                    col_push_str(strs, "", 0);
                break;
            }
            PCRE2_SIZE b = ov[2 * g], e = ov[2 * g + 1];
            if (b == PCRE2_UNSET)
                col_push_str(strs, "", 0);
            else
                col_push_str(strs, s + b, e - b);
            first = false;
            if (!all)
                break;
            pos = ov[1];
        }
        (void)first;
        if (all)
            col_array_commit(res);
    }
done:
    matcher_free(&m);
    if (rc < 0) {
        col_free(res);
        return -1;
    }
    *out = res;
    return 0;
}

static int extract_resolve(fn_call *c)
{
    if (c->nargs != 2)
        return fn_bad_nargs(c, "2");
    bool all = strcmp(c->def->name, "extractAll") == 0;
    const type *s = c->arg_types[0], *p = c->arg_types[1];
    if (all) {
        if (s->id != T_STRING)
            return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT,
                           "A value of illegal type was provided as 1st argument 'haystack' to function 'extractAll'. "
                           "Expected: String, got: %s",
                           s->name);
        if (p->id != T_STRING || !c->const_args[1])
            return err_set(ERR_ILLEGAL_COLUMN,
                           "A value of illegal type was provided as 2nd argument 'pattern' to function 'extractAll'. "
                           "Expected: const String, got: %s",
                           p->name);
    } else if (s->id != T_STRING || p->id != T_STRING) {
        return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type %s of argument of function %s",
                       s->id != T_STRING ? s->name : p->name, c->name);
    }
    if (resolve_pattern(c, 0, true) < 0)
        return -1;
    c->ret = all ? type_array(type_simple(T_STRING)) : type_simple(T_STRING);
    c->exec = extract_exec;
    return 0;
}

/* ---- replacement templates ---- */

/* A parsed replacement: literal bytes and group references. */
typedef struct repl_piece {
    int group; /* -1 for literal */
    size_t off, len;
} repl_piece;

typedef struct repl {
    buf lit;
    repl_piece *p;
    int n, cap;
    int max_group;
} repl;

static void repl_add(repl *r, int group, const char *s, size_t len)
{
    if (group < 0 && r->n && r->p[r->n - 1].group < 0) { /* merge literals */
        buf_append(&r->lit, s, len);
        r->p[r->n - 1].len += len;
        return;
    }
    if (r->n == r->cap) {
        r->cap = r->cap ? r->cap * 2 : 8;
        r->p = xrealloc(r->p, sizeof *r->p * (size_t)r->cap);
    }
    r->p[r->n++] = (repl_piece){group, r->lit.len, group < 0 ? len : 0};
    if (group < 0)
        buf_append(&r->lit, s, len);
    if (group > r->max_group)
        r->max_group = group;
}

static void repl_parse(repl *r, const char *s, size_t n)
{
    r->n = 0;
    r->lit.len = 0;
    r->max_group = -1;
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '\\' && i + 1 < n) {
            char x = s[i + 1];
            if (x >= '0' && x <= '9')
                repl_add(r, x - '0', NULL, 0);
            else
                repl_add(r, -1, &s[i + 1], 1); /* \\ gives \, \a gives a */
            i++;
        } else {
            repl_add(r, -1, &s[i], 1);
        }
    }
}

static int repl_check(const repl *r, const rx *x)
{
    if (r->max_group > x->ncap)
        return err_set(ERR_BAD_ARGUMENTS,
                       "Substitution '\\%d' in replacement argument is invalid, regexp has only %d capturing groups",
                       r->max_group, x->ncap);
    return 0;
}

static void repl_free(repl *r)
{
    buf_free(&r->lit);
    free(r->p);
}

static void repl_emit(buf *o, const repl *r, const char *s, const PCRE2_SIZE *ov)
{
    for (int k = 0; k < r->n; k++) {
        const repl_piece *p = &r->p[k];
        if (p->group < 0) {
            buf_append(o, r->lit.p + p->off, p->len);
        } else if (ov[2 * p->group] != PCRE2_UNSET) {
            buf_append(o, s + ov[2 * p->group], ov[2 * p->group + 1] - ov[2 * p->group]);
        }
    }
}

/* ---- replaceRegexpOne / replaceRegexpAll ---- */

typedef struct rr_state {
    rx_state base;
    bool one;
    bool have_repl;
    repl rp;
} rr_state;

static void rr_state_free(void *p)
{
    rr_state *st = p;
    if (!st)
        return;
    if (st->base.have_rx)
        rx_free(&st->base.r);
    repl_free(&st->rp);
    free(st);
}

static int rr_row(const rx *x, matcher *m, const repl *rp, bool one, const char *s, size_t l, buf *o)
{
    if (!x->code) {
        buf_append(o, s, l);
        return 0;
    }
    size_t pos = 0;
    while (pos <= l) {
        PCRE2_SIZE *ov;
        int k = rx_find(x, m, s, l, pos, &ov);
        if (k < 0)
            return -1;
        if (k == 0)
            break;
        buf_append(o, s + pos, ov[0] - pos);
        repl_emit(o, rp, s, ov);
        pos = ov[1];
        if (ov[1] == ov[0]) { /* empty match: step over one byte */
            if (pos < l)
                buf_append(o, s + pos, 1);
            pos++;
        }
        if (one)
            break;
    }
    if (pos < l)
        buf_append(o, s + pos, l - pos);
    return 0;
}

static int rr_exec(const fn_call *c, column **a, size_t n, column **out)
{
    const rr_state *st = c->state;
    column *res = col_new(type_simple(T_STRING));
    col_reserve(res, n);
    matcher m;
    matcher_init(&m);
    rx_cache cache = {.kind = 1};
    repl local = {0};
    buf tmp = {0};
    int rc = 0;
    for (size_t i = 0; i < n; i++) {
        size_t l;
        const char *s = col_str(a[0], i, &l);
        const rx *x = &st->base.r;
        if (!st->base.have_rx) {
            size_t pl;
            const char *p = col_str(a[1], i, &pl);
            if (!(x = cache_get(&cache, p, pl))) {
                rc = -1;
                break;
            }
        }
        const repl *rp = &st->rp;
        if (!st->have_repl) {
            size_t rl;
            const char *r = col_str(a[2], i, &rl);
            repl_parse(&local, r, rl);
            rp = &local;
        }
        if (x->code && (!st->have_repl || !st->base.have_rx) && repl_check(rp, x) < 0) {
            rc = -1;
            break;
        }
        tmp.len = 0;
        if (rr_row(x, &m, rp, st->one, s, l, &tmp) < 0) {
            rc = -1;
            break;
        }
        col_push_str(res, (const char *)tmp.p, tmp.len);
    }
    buf_free(&tmp);
    repl_free(&local);
    matcher_free(&m);
    cache_free(&cache);
    if (rc < 0) {
        col_free(res);
        return -1;
    }
    *out = res;
    return 0;
}

static const char *ordinal(int i) { return i == 0 ? "1st" : i == 1 ? "2nd" : "3rd"; }

static int check_replace_args(fn_call *c)
{
    if (c->nargs != 3)
        return fn_bad_nargs(c, "3");
    if (c->arg_types[0]->id == T_FIXEDSTRING)
        return err_set(ERR_ILLEGAL_COLUMN, "Illegal column %s of first argument of function %s",
                       c->arg_types[0]->name, c->name);
    static const char *names[] = {"haystack", "pattern", "replacement"};
    for (int i = 0; i < 3; i++)
        if (c->arg_types[i]->id != T_STRING)
            return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT,
                           "A value of illegal type was provided as %s argument '%s' to function '%s'. Expected: "
                           "String, got: %s",
                           ordinal(i), names[i], c->name, c->arg_types[i]->name);
    return 0;
}

static int rr_resolve(fn_call *c)
{
    if (check_replace_args(c) < 0)
        return -1;
    rr_state *st = xcalloc(1, sizeof *st);
    c->state = st;
    st->one = strcmp(c->def->name, "replaceRegexpOne") == 0;
    /* fn_const_str may give NULL for an empty constant: test const_args instead */
    size_t pl = 0, rl = 0;
    const char *p = fn_const_str(c, 1, &pl);
    if (c->const_args[1]) {
        if (rx_compile(&st->base.r, p, pl, 1) < 0)
            return -1;
        st->base.have_rx = true;
    }
    const char *r = fn_const_str(c, 2, &rl);
    if (c->const_args[2]) {
        repl_parse(&st->rp, r, rl);
        st->have_repl = true;
        if (st->base.have_rx && st->base.r.code && repl_check(&st->rp, &st->base.r) < 0)
            return -1;
    }
    c->ret = type_simple(T_STRING);
    c->exec = rr_exec;
    return 0;
}

/* ---- replaceOne / replaceAll (plain substrings) ---- */

static int rs_exec(const fn_call *c, column **a, size_t n, column **out)
{
    bool one = c->state != NULL;
    column *res = col_new(type_simple(T_STRING));
    col_reserve(res, n);
    buf tmp = {0};
    for (size_t i = 0; i < n; i++) {
        size_t l, nl, rl;
        const char *s = col_str(a[0], i, &l);
        const char *nd = col_str(a[1], i, &nl);
        const char *r = col_str(a[2], i, &rl);
        if (nl == 0) {
            col_push_str(res, s, l);
            continue;
        }
        tmp.len = 0;
        size_t pos = 0;
        while (pos < l) {
            const char *f = memmem(s + pos, l - pos, nd, nl);
            if (!f)
                break;
            size_t at = (size_t)(f - s);
            buf_append(&tmp, s + pos, at - pos);
            buf_append(&tmp, r, rl);
            pos = at + nl;
            if (one)
                break;
        }
        buf_append(&tmp, s + pos, l - pos);
        col_push_str(res, (const char *)tmp.p, tmp.len);
    }
    buf_free(&tmp);
    *out = res;
    return 0;
}

static int rs_resolve(fn_call *c)
{
    if (check_replace_args(c) < 0)
        return -1;
    c->state = strcmp(c->def->name, "replaceOne") == 0 ? (void *)1 : NULL;
    c->ret = type_simple(T_STRING);
    c->exec = rs_exec;
    return 0;
}

void func_register_regex(void)
{
    static const func_def defs[] = {
        {"match", 0, match_resolve, rx_state_free, "1 if the string matches the regular expression (REGEXP)"},
        {"extract", 0, extract_resolve, rx_state_free, "first group (or whole match) of a regular expression"},
        {"extractAll", 0, extract_resolve, rx_state_free, "all matches of a regular expression"},
        {"replaceRegexpOne", 0, rr_resolve, rr_state_free, "replaces the first regular expression match"},
        {"replaceRegexpAll", 0, rr_resolve, rr_state_free, "replaces all regular expression matches"},
        {"replaceOne", 0, rs_resolve, NULL, "replaces the first occurrence of a substring"},
        {"replaceAll", 0, rs_resolve, NULL, "replaces all occurrences of a substring"},
    };
    for (size_t i = 0; i < sizeof defs / sizeof defs[0]; i++)
        func_register(&defs[i]);
    func_register_alias("replace", "replaceAll");
    func_register_alias("regexp_replace", "replaceRegexpAll");
    func_register_alias("REGEXP_REPLACE", "replaceRegexpAll");
}
