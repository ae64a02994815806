/* More string functions, as ClickHouse 26.7 (measured with chdb):
 *   splitByWhitespace / splitByNonAlpha / alphaTokens (splitByAlpha) (s[, max_substrings]):
 *     tokens between ASCII whitespace; between whitespace and ASCII punctuation; runs of
 *     ASCII letters. A positive constant max keeps the first max tokens.
 *   substringIndex(UTF8)(s, delim, count): before the count-th delim (from the right when
 *     count < 0; '' for 0); delim a constant single byte (UTF8: a single character).
 *   translate(UTF8)(s, from, to): replaces from[i] by to[i], deletes the characters of from
 *     beyond to's length (translate: ASCII only; a later duplicate in from wins).
 *   initcap(s): ASCII words (runs of letters and digits) capitalised, the rest lowered.
 *   space(n), reverseUTF8, isValidUTF8, toValidUTF8 (each run of invalid bytes becomes one
 *   U+FFFD), appendTrailingCharIfAbsent, firstLine (up to the first \n or \r), isValidASCII,
 *   editDistance/levenshteinDistance(UTF8) and damerauLevenshteinDistance (optimal string
 *   alignment), over bytes or (UTF8) code points, strings up to 65536 units.
 * Kernels are stateless (constant arguments are read through the call); thread-safe.
 * Errors follow ClickHouse's codes: ILLEGAL_TYPE_OF_ARGUMENT, ILLEGAL_COLUMN (a non-constant
 * argument that must be constant), BAD_ARGUMENTS, TOO_LARGE_STRING_SIZE. */
#include "func/func.h"
#include "func/scalar/num.h"

#include "base/err.h"
#include "base/mem.h"

#include <stdlib.h>
#include <string.h>

static bool is_ws(unsigned char ch) { return ch == ' ' || (ch >= '\t' && ch <= '\r'); }
static bool is_alpha(unsigned char ch) { return (ch | 0x20) >= 'a' && (ch | 0x20) <= 'z'; }
static bool is_alnum(unsigned char ch) { return is_alpha(ch) || (ch >= '0' && ch <= '9'); }
static bool is_punct(unsigned char ch) { return ch > 0x20 && ch < 0x7f && !is_alnum(ch); }

/* Length of the valid UTF-8 sequence at s (0 if invalid), strictly: no overlong forms,
 * surrogates or code points past U+10FFFF. */
static size_t utf8_valid_len(const unsigned char *s, size_t n)
{
    unsigned char c = s[0];
    if (c < 0x80)
        return 1;
    size_t len;
    unsigned char lo = 0x80, hi = 0xBF;
    if (c >= 0xC2 && c <= 0xDF)
        len = 2;
    else if (c >= 0xE0 && c <= 0xEF) {
        len = 3;
        if (c == 0xE0) lo = 0xA0;
        if (c == 0xED) hi = 0x9F;
    } else if (c >= 0xF0 && c <= 0xF4) {
        len = 4;
        if (c == 0xF0) lo = 0x90;
        if (c == 0xF4) hi = 0x8F;
    } else
        return 0;
    if (n < len || s[1] < lo || s[1] > hi)
        return 0;
    for (size_t k = 2; k < len; k++)
        if ((s[k] & 0xC0) != 0x80)
            return 0;
    return len;
}

/* Length of the character starting at s as ClickHouse steps through UTF-8: by the lead
 * byte's sequence length (0xF0 and above: 4), one byte when that runs past the end. */
static size_t utf8_step(const unsigned char *s, size_t n)
{
    size_t k = s[0] < 0xC0 ? 1 : s[0] < 0xE0 ? 2 : s[0] < 0xF0 ? 3 : 4;
    return k <= n ? k : 1;
}

static uint32_t utf8_cp(const unsigned char *s, size_t k)
{
    if (k == 1)
        return s[0];
    uint32_t cp = s[0] & (0x7F >> k);
    for (size_t i = 1; i < k; i++)
        cp = cp << 6 | (s[i] & 0x3F);
    return cp;
}

/* The row buffer at least `need` bytes long (kept across rows). */
static void grow(char **buf, size_t *cap, size_t need)
{
    if (*cap < need) {
        *cap = need;
        *buf = xrealloc(*buf, need);
    }
}

static int need_string(const fn_call *c, int i, const char *ord, const char *arg)
{
    if (c->arg_types[i]->id == T_STRING)
        return 0;
    return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT,
                   "A value of illegal type was provided as %s argument '%s' to function '%s'. Expected: String, got: %s",
                   ord, arg, c->name, c->arg_types[i]->name);
}

/* ---- splitByWhitespace, splitByNonAlpha, alphaTokens ---- */

enum { SPLIT_WS, SPLIT_NONALPHA, SPLIT_ALPHA };

static int tokens_exec(const fn_call *c, column **a, size_t n, column **out)
{
    const char *nm = c->def->name;
    int kind = !strcmp(nm, "splitByWhitespace") ? SPLIT_WS : !strcmp(nm, "splitByNonAlpha") ? SPLIT_NONALPHA : SPLIT_ALPHA;
    int64_t max = 0;
    if (c->nargs == 2)
        fn_const_int(c, 1, &max);
    column *res = col_new(c->ret);
    col_reserve(res, n);
    for (size_t i = 0; i < n; i++) {
        size_t l, b = 0;
        const unsigned char *s = (const unsigned char *)col_str(a[0], i, &l);
        int64_t got = 0;
        while (b < l && (max <= 0 || got < max)) {
            /* skip separators, then take the token */
            while (b < l && (kind == SPLIT_WS ? is_ws(s[b]) : kind == SPLIT_NONALPHA ? is_ws(s[b]) || is_punct(s[b]) : !is_alpha(s[b])))
                b++;
            if (b >= l)
                break;
            size_t e = b;
            while (e < l && !(kind == SPLIT_WS ? is_ws(s[e]) : kind == SPLIT_NONALPHA ? is_ws(s[e]) || is_punct(s[e]) : !is_alpha(s[e])))
                e++;
            col_push_str(res->inner, (const char *)s + b, e - b);
            got++;
            b = e;
        }
        col_array_commit(res);
    }
    *out = res;
    return 0;
}

static int tokens_resolve(fn_call *c)
{
    if (c->nargs != 1 && c->nargs != 2)
        return fn_bad_nargs(c, "1 or 2");
    if (need_string(c, 0, "1st", "s") < 0)
        return -1;
    if (c->nargs == 2) {
        int64_t v;
        if (!num_is_int(c->arg_types[1]) || fn_const_int(c, 1, &v) < 0)
            return err_set(num_is_int(c->arg_types[1]) ? ERR_ILLEGAL_COLUMN : ERR_ILLEGAL_TYPE_OF_ARGUMENT,
                           "A value of illegal type was provided as 2nd argument 'max_substrings' to function '%s'. "
                           "Expected: const Number, got: %s",
                           c->name, c->arg_types[1]->name);
    }
    c->ret = type_array(type_simple(T_STRING));
    c->exec = tokens_exec;
    return 0;
}

/* ---- substringIndex, substringIndexUTF8 ---- */

static int subidx_exec(const fn_call *c, column **a, size_t n, column **out)
{
    size_t dl;
    const char *d = fn_const_str(c, 1, &dl);
    int64_t *cnt = mem_alloc((n ? n : 1) * sizeof *cnt);
    if (a[2]->is_const) {
        int64_t v;
        num_load_i64(type_phys(c->arg_types[2]), a[2]->data.p, 1, &v);
        for (size_t i = 0; i < n; i++)
            cnt[i] = v;
    } else {
        num_load_i64(type_phys(c->arg_types[2]), a[2]->data.p, n, cnt);
    }
    column *r = col_new(type_simple(T_STRING));
    col_reserve(r, n);
    for (size_t i = 0; i < n; i++) {
        size_t l;
        const char *s = col_str(a[0], i, &l);
        int64_t k = cnt[i];
        if (k == 0) {
            col_push_str(r, "", 0);
        } else if (k > 0) {
            size_t p = 0;
            const char *f = NULL;
            for (int64_t j = 0; j < k; j++) {
                f = p <= l && l - p >= dl ? memmem(s + p, l - p, d, dl) : NULL;
                if (!f)
                    break;
                p = (size_t)(f - s) + dl;
            }
            col_push_str(r, s, f ? (size_t)(f - s) : l);
        } else {
            size_t end = l; /* search [0, end) from the right */
            const char *f = NULL;
            for (int64_t j = 0; j < -k; j++) {
                f = NULL;
                for (size_t q = end >= dl ? end - dl + 1 : 0; q-- > 0;)
                    if (!memcmp(s + q, d, dl)) {
                        f = s + q;
                        break;
                    }
                if (!f)
                    break;
                end = (size_t)(f - s);
            }
            size_t from = f ? (size_t)(f - s) + dl : 0;
            col_push_str(r, s + from, l - from);
        }
    }
    mem_free(cnt);
    *out = r;
    return 0;
}

static int subidx_resolve(fn_call *c)
{
    if (c->nargs != 3)
        return fn_bad_nargs(c, "3");
    if (need_string(c, 0, "1st", "s") < 0 || need_string(c, 1, "2nd", "delim") < 0)
        return -1;
    if (!num_is_int(c->arg_types[2]) || c->arg_types[2]->id == T_BOOL || num_size(c->arg_types[2]) > 8)
        return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT,
                       "A value of illegal type was provided as 3rd argument 'count' to function '%s'. Expected: UInt or "
                       "Int, got: %s",
                       c->name, c->arg_types[2]->name);
    size_t dl;
    const char *d = fn_const_str(c, 1, &dl);
    if (!d)
        return err_set(ERR_ILLEGAL_COLUMN, "Argument at index 1 for function %s must be constant", c->name);
    bool utf8 = strstr(c->def->name, "UTF8") != NULL;
    if (utf8 ? dl == 0 || utf8_step((const unsigned char *)d, dl) != dl : dl != 1)
        return err_set(ERR_BAD_ARGUMENTS, "Second argument to %s must be a single %s", c->name,
                       utf8 ? "UTF-8 character" : "character");
    c->ret = type_simple(T_STRING);
    c->exec = subidx_exec;
    return 0;
}

/* ---- translate, translateUTF8 ---- */

typedef struct tr_map {
    size_t n;
    uint32_t *from, *to; /* to[i] == UINT32_MAX: delete */
    int16_t ascii[256];  /* translate: -1 keep, -2 delete, else the byte */
} tr_map;

static void tr_free(void *p)
{
    tr_map *m = p;
    if (m) {
        free(m->from);
        free(m->to);
    }
    free(m);
}

static size_t utf8_decode_all(const char *s, size_t l, uint32_t *out)
{
    size_t k = 0;
    for (size_t b = 0; b < l;) {
        size_t st = utf8_step((const unsigned char *)s + b, l - b);
        out[k++] = utf8_cp((const unsigned char *)s + b, st);
        b += st;
    }
    return k;
}

static int tr_exec(const fn_call *c, column **a, size_t n, column **out)
{
    const tr_map *m = c->state;
    column *r = col_new(c->ret);
    col_reserve(r, n);
    char *buf = NULL;
    size_t cap = 0;
    for (size_t i = 0; i < n; i++) {
        size_t l, o = 0;
        const unsigned char *s = (const unsigned char *)col_str(a[0], i, &l);
        grow(&buf, &cap, l * 4 + 1);
        for (size_t b = 0; b < l;) {
            if (!m->from) {
                int16_t t = m->ascii[s[b]];
                if (t == -1)
                    buf[o++] = (char)s[b];
                else if (t >= 0)
                    buf[o++] = (char)t;
                b++;
                continue;
            }
            size_t st = utf8_step(s + b, l - b);
            uint32_t cp = utf8_cp(s + b, st);
            size_t hit = m->n;
            for (size_t k = m->n; k-- > 0;)
                if (m->from[k] == cp) {
                    hit = k;
                    break;
                }
            if (hit == m->n) {
                memcpy(buf + o, s + b, st);
                o += st;
            } else if (m->to[hit] != UINT32_MAX) {
                uint32_t t = m->to[hit];
                if (t < 0x80) buf[o++] = (char)t;
                else if (t < 0x800) { buf[o++] = (char)(0xC0 | t >> 6); buf[o++] = (char)(0x80 | (t & 0x3F)); }
                else if (t < 0x10000) { buf[o++] = (char)(0xE0 | t >> 12); buf[o++] = (char)(0x80 | (t >> 6 & 0x3F)); buf[o++] = (char)(0x80 | (t & 0x3F)); }
                else { buf[o++] = (char)(0xF0 | t >> 18); buf[o++] = (char)(0x80 | (t >> 12 & 0x3F)); buf[o++] = (char)(0x80 | (t >> 6 & 0x3F)); buf[o++] = (char)(0x80 | (t & 0x3F)); }
            }
            b += st;
        }
        col_push_str(r, buf, o);
    }
    free(buf);
    *out = r;
    return 0;
}

static int tr_shorter(const fn_call *c, size_t from, size_t to)
{
    return err_set(ERR_BAD_ARGUMENTS,
                   "Second argument of function %s must not be shorter than the third argument. Size of the second "
                   "argument: %zu, size of the third argument: %zu",
                   c->name, from, to);
}

static int tr_resolve(fn_call *c)
{
    if (c->nargs != 3)
        return fn_bad_nargs(c, "3");
    bool utf8 = strstr(c->def->name, "UTF8") != NULL;
    type_id id = c->arg_types[0]->id;
    if ((id != T_STRING && (utf8 || id != T_FIXEDSTRING)) || !type_is_string(c->arg_types[1]) ||
        !type_is_string(c->arg_types[2]))
        return fn_bad_types(c);
    size_t fl, tl;
    const char *f = fn_const_str(c, 1, &fl), *t = fn_const_str(c, 2, &tl);
    if (!f || !t)
        return err_set(ERR_ILLEGAL_COLUMN, "Argument at index %d for function %s must be constant", f ? 2 : 1, c->name);
    tr_map *m = xcalloc(1, sizeof *m);
    c->state = m;
    if (!utf8) {
        for (size_t k = 0; k < fl + tl; k++)
            if ((unsigned char)(k < fl ? f[k] : t[k - fl]) >= 0x80)
                return err_set(ERR_BAD_ARGUMENTS, "Second and third arguments must be ASCII strings");
        if (id == T_FIXEDSTRING && fl != tl)
            return err_set(ERR_BAD_ARGUMENTS, "Second and third arguments must be the same length");
        if (fl < tl)
            return tr_shorter(c, fl, tl);
        for (int k = 0; k < 256; k++)
            m->ascii[k] = -1;
        for (size_t k = 0; k < fl; k++)
            m->ascii[(unsigned char)f[k]] = k < tl ? (int16_t)(unsigned char)t[k] : -2;
    } else {
        m->from = xcalloc(fl + 1, sizeof *m->from);
        uint32_t *to = xcalloc(tl + 1, sizeof *to);
        m->n = utf8_decode_all(f, fl, m->from);
        size_t tn = utf8_decode_all(t, tl, to);
        if (m->n < tn) {
            free(to);
            return tr_shorter(c, m->n, tn);
        }
        m->to = xcalloc(m->n + 1, sizeof *m->to);
        for (size_t k = 0; k < m->n; k++)
            m->to[k] = k < tn ? to[k] : UINT32_MAX;
        free(to);
    }
    c->ret = c->arg_types[0];
    c->exec = tr_exec;
    return 0;
}

/* ---- one-string maps: initcap, reverseUTF8, toValidUTF8, firstLine, appendTrailingCharIfAbsent ---- */

enum { M_INITCAP, M_REVERSE8, M_VALID8, M_FIRSTLINE, M_APPEND };

static int smap_op(const fn_call *c)
{
    const char *nm = c->def->name;
    return !strcmp(nm, "initcap") ? M_INITCAP : !strcmp(nm, "reverseUTF8") ? M_REVERSE8 : !strcmp(nm, "toValidUTF8") ? M_VALID8
         : !strcmp(nm, "firstLine") ? M_FIRSTLINE : M_APPEND;
}

static int smap_exec(const fn_call *c, column **a, size_t n, column **out)
{
    int op = smap_op(c);
    size_t al = 0;
    const char *app = op == M_APPEND ? fn_const_str(c, 1, &al) : NULL;
    column *r = col_new(c->ret);
    col_reserve(r, n);
    char *buf = NULL;
    size_t cap = 0;
    for (size_t i = 0; i < n; i++) {
        size_t l, o = 0;
        const unsigned char *s = (const unsigned char *)col_str(a[0], i, &l);
        grow(&buf, &cap, l * 3 + 2);
        switch (op) {
        case M_INITCAP: {
            bool prev = false;
            for (size_t b = 0; b < l; b++) {
                unsigned char ch = s[b];
                bool an = is_alnum(ch);
                buf[o++] = (char)(!an ? ch : is_alpha(ch) ? (prev ? ch | 0x20 : ch & ~0x20) : ch);
                prev = an;
            }
            break;
        }
        case M_REVERSE8:
            for (size_t b = 0; b < l;) {
                size_t st = utf8_step(s + b, l - b);
                memcpy(buf + l - b - st, s + b, st);
                b += st;
            }
            o = l;
            break;
        case M_VALID8: {
            bool bad = false;
            for (size_t b = 0; b < l;) {
                size_t st = utf8_valid_len(s + b, l - b);
                if (st) {
                    memcpy(buf + o, s + b, st);
                    o += st;
                    b += st;
                    bad = false;
                } else {
                    if (!bad)
                        memcpy(buf + o, "\xEF\xBF\xBD", 3), o += 3;
                    bad = true;
                    b++;
                }
            }
            break;
        }
        case M_FIRSTLINE:
            while (o < l && s[o] != '\n' && s[o] != '\r')
                o++;
            memcpy(buf, s, o);
            break;
        default:
            memcpy(buf, s, l);
            o = l;
            if (l && (unsigned char)buf[l - 1] != (unsigned char)app[0])
                buf[o++] = app[0];
        }
        col_push_str(r, buf, o);
    }
    free(buf);
    *out = r;
    return 0;
}

static int smap_resolve(fn_call *c)
{
    int op = smap_op(c);
    if (c->nargs != (op == M_APPEND ? 2 : 1))
        return fn_bad_nargs(c, op == M_APPEND ? "2" : "1");
    type_id id = c->arg_types[0]->id;
    if (op == M_APPEND) {
        if (need_string(c, 0, "1st", "s") < 0)
            return -1;
        size_t l;
        if (!type_is_string(c->arg_types[1]))
            return fn_bad_types(c);
        const char *s = fn_const_str(c, 1, &l);
        if (!s)
            return err_set(ERR_ILLEGAL_COLUMN, "Argument at index 1 for function %s must be constant", c->name);
        if (l != 1)
            return err_set(ERR_BAD_ARGUMENTS, "Second argument of function %s must be a one-character string", c->name);
    } else if (id == T_FIXEDSTRING && op != M_INITCAP) {
        return err_set(ERR_ILLEGAL_COLUMN, "Column of type FixedString is not supported by function %s", c->name);
    } else if (id != T_STRING && id != T_FIXEDSTRING) {
        return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type %s of argument of function %s", c->arg_types[0]->name,
                       c->name);
    }
    c->ret = op == M_INITCAP ? c->arg_types[0] : type_simple(T_STRING);
    c->exec = smap_exec;
    return 0;
}

/* ---- isValidUTF8, isASCII ---- */

static int spred_exec(const fn_call *c, column **a, size_t n, column **out)
{
    bool ascii = !strcmp(c->def->name, "isValidASCII");
    column *r = col_new_defaults(type_simple(T_UINT8), n);
    for (size_t i = 0; i < n; i++) {
        size_t l, b = 0;
        const unsigned char *s = (const unsigned char *)col_str(a[0], i, &l);
        bool ok = true;
        while (ok && b < l) {
            size_t st = ascii ? s[b] < 0x80 : utf8_valid_len(s + b, l - b);
            ok = st > 0;
            b += st;
        }
        COL_DATA(r, uint8_t)[i] = ok;
    }
    *out = r;
    return 0;
}

static int spred_resolve(fn_call *c)
{
    if (c->nargs != 1)
        return fn_bad_nargs(c, "1");
    if (!type_is_string(c->arg_types[0]))
        return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type %s of argument of function %s", c->arg_types[0]->name,
                       c->name);
    c->ret = type_simple(T_UINT8);
    c->exec = spred_exec;
    return 0;
}

/* ---- space ---- */

static int space_exec(const fn_call *c, column **a, size_t n, column **out)
{
    const type *t = type_phys(c->arg_types[0]);
    int128_t *v = mem_alloc((n ? n : 1) * sizeof *v);
    num_load_i128(t, a[0]->data.p, n, v);
    column *r = col_new(type_simple(T_STRING));
    col_reserve(r, n);
    char *buf = NULL;
    for (size_t i = 0; i < n; i++) {
        if (v[i] > 1000000) {
            long long bad = (long long)v[i]; /* read before v is freed */
            free(buf);
            mem_free(v);
            col_free(r);
            return err_set(ERR_TOO_LARGE_STRING_SIZE, "Too many times to repeat (%lld), maximum is: 1000000", bad);
        }
        size_t k = v[i] > 0 ? (size_t)v[i] : 0;
        buf = xrealloc(buf, k + 1);
        memset(buf, ' ', k);
        col_push_str(r, buf, k);
    }
    free(buf);
    mem_free(v);
    *out = r;
    return 0;
}

static int space_resolve(fn_call *c)
{
    if (c->nargs != 1)
        return fn_bad_nargs(c, "1");
    if (!num_is_int(c->arg_types[0]))
        return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT,
                       "A value of illegal type was provided as 1st argument 'n' to function '%s'. Expected: Integer, "
                       "got: %s",
                       c->name, c->arg_types[0]->name);
    c->ret = type_simple(T_STRING);
    c->exec = space_exec;
    return 0;
}

/* ---- editDistance, editDistanceUTF8, damerauLevenshteinDistance ---- */

/* Code units of s: bytes, or code points for the UTF8 variants. */
static size_t units(const char *s, size_t l, bool utf8, uint32_t *out)
{
    if (!utf8) {
        for (size_t k = 0; k < l; k++)
            out[k] = (unsigned char)s[k];
        return l;
    }
    return utf8_decode_all(s, l, out);
}

static int edit_exec(const fn_call *c, column **a, size_t n, column **out)
{
    bool utf8 = strstr(c->def->name, "UTF8") != NULL, osa = c->def->name[0] == 'd';
    column *r = col_new_defaults(type_simple(T_UINT64), n);
    int rc = 0;
    for (size_t i = 0; i < n && rc == 0; i++) {
        size_t la, lb;
        const char *sa = col_str(a[0], i, &la), *sb = col_str(a[1], i, &lb);
        if (la > 65536 || lb > 65536) {
            rc = err_set(ERR_TOO_LARGE_STRING_SIZE, "The string size is too big for function %s, should be at most 65536",
                         c->name);
            break;
        }
        uint32_t *x = mem_alloc((la + 1) * sizeof *x), *y = mem_alloc((lb + 1) * sizeof *y);
        size_t nx = units(sa, la, utf8, x), ny = units(sb, lb, utf8, y);
        /* three rolling rows: two back for the transposition of the optimal string alignment */
        uint64_t *pp = mem_alloc((ny + 1) * sizeof *pp), *p = mem_alloc((ny + 1) * sizeof *p),
                 *cur = mem_alloc((ny + 1) * sizeof *cur);
        for (size_t j = 0; j <= ny; j++)
            p[j] = j;
        for (size_t k = 1; k <= nx; k++) {
            cur[0] = k;
            for (size_t j = 1; j <= ny; j++) {
                uint64_t best = p[j - 1] + (x[k - 1] != y[j - 1]);
                if (p[j] + 1 < best) best = p[j] + 1;
                if (cur[j - 1] + 1 < best) best = cur[j - 1] + 1;
                if (osa && k > 1 && j > 1 && x[k - 1] == y[j - 2] && x[k - 2] == y[j - 1] && pp[j - 2] + 1 < best)
                    best = pp[j - 2] + 1;
                cur[j] = best;
            }
            uint64_t *t = pp;
            pp = p;
            p = cur;
            cur = t;
        }
        COL_DATA(r, uint64_t)[i] = p[ny];
        mem_free(x);
        mem_free(y);
        mem_free(pp);
        mem_free(p);
        mem_free(cur);
    }
    if (rc < 0) {
        col_free(r);
        return -1;
    }
    *out = r;
    return 0;
}

static int edit_resolve(fn_call *c)
{
    if (c->nargs != 2)
        return fn_bad_nargs(c, "2");
    for (int k = 0; k < 2; k++)
        if (c->arg_types[k]->id != T_STRING)
            return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type %s of argument of function %s",
                           c->arg_types[k]->name, c->name);
    c->ret = type_simple(T_UINT64);
    c->exec = edit_exec;
    return 0;
}

void func_register_string2(void)
{
    static const func_def defs[] = {
        {"splitByWhitespace", 0, tokens_resolve, NULL, "the tokens between ASCII whitespace"},
        {"splitByNonAlpha", 0, tokens_resolve, NULL, "the tokens between ASCII whitespace and punctuation"},
        {"alphaTokens", 0, tokens_resolve, NULL, "the runs of ASCII letters"},
        {"substringIndex", 0, subidx_resolve, NULL, "the part before the count-th delimiter"},
        {"substringIndexUTF8", 0, subidx_resolve, NULL, "substringIndex with a UTF-8 delimiter"},
        {"translate", 0, tr_resolve, tr_free, "replaces or deletes ASCII characters"},
        {"translateUTF8", 0, tr_resolve, tr_free, "replaces or deletes UTF-8 characters"},
        {"initcap", FN_CASE_INSENSITIVE, smap_resolve, NULL, "ASCII words capitalised"},
        {"reverseUTF8", 0, smap_resolve, NULL, "the characters in reverse order"},
        {"toValidUTF8", 0, smap_resolve, NULL, "invalid UTF-8 replaced by U+FFFD"},
        {"firstLine", 0, smap_resolve, NULL, "the text up to the first line break"},
        {"appendTrailingCharIfAbsent", 0, smap_resolve, NULL, "appends a character unless the string ends with it"},
        {"isValidUTF8", 0, spred_resolve, NULL, "1 if the bytes are valid UTF-8"},
        {"isValidASCII", 0, spred_resolve, NULL, "1 if every byte is ASCII"},
        {"space", FN_CASE_INSENSITIVE, space_resolve, NULL, "n spaces"},
        {"editDistance", 0, edit_resolve, NULL, "Levenshtein distance of the bytes"},
        {"editDistanceUTF8", 0, edit_resolve, NULL, "Levenshtein distance of the code points"},
        {"damerauLevenshteinDistance", 0, edit_resolve, NULL, "optimal-string-alignment distance of the bytes"},
    };
    for (size_t i = 0; i < sizeof defs / sizeof defs[0]; i++)
        func_register(&defs[i]);
    func_register_alias("splitByAlpha", "alphaTokens");
    func_register_alias("levenshteinDistance", "editDistance");
    func_register_alias("levenshteinDistanceUTF8", "editDistanceUTF8");
    func_register_alias("SUBSTRING_INDEX", "substringIndex");
    func_register_alias("isASCII", "isValidASCII");
}
