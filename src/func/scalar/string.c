/* String functions: length (also arrays), lengthUTF8/char_length, lower/upper (+UTF8
 * variants, ASCII-only case mapping plus Cyrillic/Latin-1 2-byte letters are left as is),
 * substring/substr/mid, substringUTF8, concat, position/locate, positionCaseInsensitive,
 * reverse, trim/trimBoth/trimLeft/ltrim/trimRight/rtrim, startsWith, endsWith, empty,
 * notEmpty (also arrays), repeat, like, notLike, ilike, notILike.
 *
 * LIKE patterns: % any sequence, _ one UTF-8 character, backslash escapes the next
 * character. A constant pattern is classified once at resolution: exact, prefix%,
 * %suffix, %contains% (memmem) or general (backtracking matcher). ilike lowers ASCII. */
#include "func/func.h"
#include "column/text.h"
#include "func/scalar/num.h"

#include "base/err.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool is_str(const type *t) { return type_is_string(t); }

/* Appends row i of c (of type t) as toString prints it: strings as they are, other types
 * as text (concat, concatWithSeparator and format all join their arguments this way). */
static void append_as_text(buf *out, const type *t, const column *c, size_t i, const text_opts *o)
{
    if (is_str(t)) {
        size_t l;
        const char *s = col_str(c, i, &l);
        buf_append(out, s, l);
    } else {
        text_write(out, c, i, TEXT_RAW, o);
    }
}

static column *new_u64(size_t n, uint64_t **d)
{
    column *c = col_new(type_simple(T_UINT64));
    *d = buf_grow(&c->data, n * 8);
    c->len = n;
    return c;
}

static size_t utf8_len(const char *s, size_t n)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        k += ((unsigned char)s[i] & 0xC0) != 0x80;
    return k;
}

/* ---- length / lengthUTF8 / empty / notEmpty ---- */

static int length_exec(const fn_call *c, column **a, size_t n, column **out)
{
    uint64_t *d;
    *out = new_u64(n, &d);
    const type *t = c->arg_types[0];
    bool utf8 = c->state != NULL;
    if (t->id == T_ARRAY || t->id == T_MAP) {
        const uint64_t *o = col_offs(a[0]);
        for (size_t i = 0; i < n; i++)
            d[i] = o[i + 1] - o[i];
    } else if (t->id == T_FIXEDSTRING && !utf8) {
        for (size_t i = 0; i < n; i++)
            d[i] = t->width;
    } else {
        for (size_t i = 0; i < n; i++) {
            size_t l;
            const char *s = col_str(a[0], i, &l);
            d[i] = utf8 ? utf8_len(s, l) : l;
        }
    }
    return 0;
}

static int length_resolve(fn_call *c)
{
    if (c->nargs != 1)
        return fn_bad_nargs(c, "1");
    bool utf8 = strcasecmp(c->def->name, "length") != 0;
    if (!is_str(c->arg_types[0]) && (utf8 || (c->arg_types[0]->id != T_ARRAY && c->arg_types[0]->id != T_MAP)))
        return fn_bad_types(c);
    c->state = utf8 ? (void *)1 : NULL;
    c->ret = type_simple(T_UINT64);
    c->exec = length_exec;
    return 0;
}

static int empty_exec(const fn_call *c, column **a, size_t n, column **out)
{
    uint8_t *d;
    *out = num_new_u8(n, &d);
    bool neg = c->state != NULL;
    const type *t = c->arg_types[0];
    if (t->id == T_ARRAY || t->id == T_MAP) {
        const uint64_t *o = col_offs(a[0]);
        for (size_t i = 0; i < n; i++)
            d[i] = (o[i + 1] == o[i]) != neg;
    } else if (t->id == T_UUID) { /* the zero UUID is empty */
        const uint128_t *u = COL_DATA(a[0], const uint128_t);
        for (size_t i = 0; i < n; i++)
            d[i] = (u[i] == 0) != neg;
    } else if (t->id == T_FIXEDSTRING || t->id == T_IPV4 || t->id == T_IPV6) { /* the zero address is empty */
        for (size_t i = 0; i < n; i++) {
            size_t l;
            const char *s = col_str(a[0], i, &l);
            bool e = true;
            for (size_t k = 0; k < l; k++)
                if (s[k]) e = false;
            d[i] = e != neg;
        }
    } else {
        const uint64_t *o = col_offs(a[0]);
        for (size_t i = 0; i < n; i++)
            d[i] = (o[i + 1] == o[i]) != neg;
    }
    return 0;
}

static int empty_resolve(fn_call *c)
{
    if (c->nargs != 1)
        return fn_bad_nargs(c, "1");
    if (!is_str(c->arg_types[0]) && c->arg_types[0]->id != T_ARRAY && c->arg_types[0]->id != T_MAP &&
        c->arg_types[0]->id != T_UUID && !type_is_ip(c->arg_types[0]))
        return fn_bad_types(c);
    c->state = strcmp(c->def->name, "notEmpty") == 0 ? (void *)1 : NULL;
    c->ret = type_simple(T_UINT8);
    c->exec = empty_exec;
    return 0;
}

/* ---- per-row string → string maps ---- */

typedef void (*str_map)(const char *s, size_t n, buf *out, const void *arg);

static column *map_strings(const column *col, size_t n, str_map f, const void *arg)
{
    column *r = col_new(type_simple(T_STRING));
    col_reserve(r, n);
    buf tmp = {0};
    for (size_t i = 0; i < n; i++) {
        size_t l;
        const char *s = col_str(col, i, &l);
        tmp.len = 0;
        f(s, l, &tmp, arg);
        col_push_str(r, (const char *)tmp.p, tmp.len);
    }
    buf_free(&tmp);
    return r;
}

static void map_lower(const char *s, size_t n, buf *o, const void *arg)
{
    char *d = buf_grow(o, n);
    for (size_t i = 0; i < n; i++)
        d[i] = (char)tolower((unsigned char)s[i]);
}
static void map_upper(const char *s, size_t n, buf *o, const void *arg)
{
    char *d = buf_grow(o, n);
    for (size_t i = 0; i < n; i++)
        d[i] = (char)toupper((unsigned char)s[i]);
}
/* Case mapping of a code point in the 2-byte UTF-8 range (U+0080..U+07FF) whose
 * counterpart is also 2 bytes long: Latin-1 Supplement, Latin Extended-A, Greek and
 * Cyrillic. Other code points map to themselves. */
static unsigned case2(unsigned cp, bool up)
{
    if (up) {
        if ((cp >= 0xE0 && cp <= 0xFE && cp != 0xF7) || (cp >= 0x3B1 && cp <= 0x3C9 && cp != 0x3C2) ||
            (cp >= 0x430 && cp <= 0x44F))
            return cp - 0x20;
        if (cp == 0xFF) return 0x178;
        if (cp >= 0x450 && cp <= 0x45F) return cp - 0x50;
        if (((cp >= 0x100 && cp <= 0x12F) || (cp >= 0x14A && cp <= 0x177) || (cp >= 0x460 && cp <= 0x481) ||
             (cp >= 0x48A && cp <= 0x4BF) || (cp >= 0x4D0 && cp <= 0x4FF)) && (cp & 1))
            return cp - 1;
        if (((cp >= 0x139 && cp <= 0x148) || (cp >= 0x179 && cp <= 0x17E)) && !(cp & 1))
            return cp - 1;
    } else {
        if ((cp >= 0xC0 && cp <= 0xDE && cp != 0xD7) || (cp >= 0x391 && cp <= 0x3A9 && cp != 0x3A2) ||
            (cp >= 0x410 && cp <= 0x42F))
            return cp + 0x20;
        if (cp == 0x178) return 0xFF;
        if (cp >= 0x400 && cp <= 0x40F) return cp + 0x50;
        if (((cp >= 0x100 && cp <= 0x12F) || (cp >= 0x14A && cp <= 0x177) || (cp >= 0x460 && cp <= 0x481) ||
             (cp >= 0x48A && cp <= 0x4BF) || (cp >= 0x4D0 && cp <= 0x4FF)) && !(cp & 1))
            return cp + 1;
        if (((cp >= 0x139 && cp <= 0x148) || (cp >= 0x179 && cp <= 0x17E)) && (cp & 1))
            return cp + 1;
    }
    return cp;
}

/* UTF-8 case mapping for ASCII and the 2-byte letters of case2(); the byte length of
 * the string never changes. */
static void map_utf8(const char *s, size_t n, buf *o, bool up)
{
    char *d = buf_grow(o, n);
    memcpy(d, s, n);
    for (size_t i = 0; i < n; i++) {
        unsigned char b = (unsigned char)d[i];
        if (b < 0x80) {
            d[i] = (char)(up ? toupper(b) : tolower(b));
        } else if (i + 1 < n && b >= 0xC2 && b <= 0xDF && ((unsigned char)d[i + 1] & 0xC0) == 0x80) {
            unsigned cp = ((b & 0x1Fu) << 6) | ((unsigned char)d[i + 1] & 0x3Fu);
            unsigned m = case2(cp, up);
            d[i] = (char)(0xC0 | (m >> 6));
            d[i + 1] = (char)(0x80 | (m & 0x3F));
            i++;
        }
    }
}
static void map_lower8(const char *s, size_t n, buf *o, const void *arg) { map_utf8(s, n, o, false); }
static void map_upper8(const char *s, size_t n, buf *o, const void *arg) { map_utf8(s, n, o, true); }
static void map_reverse(const char *s, size_t n, buf *o, const void *arg)
{
    char *d = buf_grow(o, n);
    for (size_t i = 0; i < n; i++)
        d[i] = s[n - 1 - i];
}
/* The characters trim removes: spaces, or the bytes of the optional second argument. */
typedef struct trim_set {
    int mode; /* 1 left, 2 right, 3 both */
    bool drop[256];
} trim_set;

static void map_trim(const char *s, size_t n, buf *o, const void *arg)
{
    const trim_set *t = arg;
    size_t b = 0, e = n;
    if (t->mode & 1) while (b < e && t->drop[(uint8_t)s[b]]) b++;
    if (t->mode & 2) while (e > b && t->drop[(uint8_t)s[e - 1]]) e--;
    buf_append(o, s + b, e - b);
}

typedef struct map_state {
    str_map f;
    const void *arg;
    trim_set trim;
} map_state;

static int map_exec(const fn_call *c, column **a, size_t n, column **out)
{
    const map_state *m = c->state;
    *out = map_strings(a[0], n, m->f, m->arg);
    if (c->ret->id == T_FIXEDSTRING) {
        column *r = col_new(c->ret);
        for (size_t i = 0; i < n; i++) {
            size_t l;
            const char *s = col_str(*out, i, &l);
            col_push_str(r, s, l);
        }
        col_free(*out);
        *out = r;
    }
    return 0;
}

static const struct { const char *name; str_map f; intptr_t arg; } maps[] = {
    {"lower", map_lower, 0}, {"upper", map_upper, 0}, {"lowerUTF8", map_lower8, 0}, {"upperUTF8", map_upper8, 0},
    {"reverse", map_reverse, 0}, {"trimLeft", map_trim, 1}, {"trimRight", map_trim, 2}, {"trimBoth", map_trim, 3},
};

static int map_resolve(fn_call *c)
{
    map_state *m = xcalloc(1, sizeof *m);
    c->state = m;
    for (size_t i = 0; i < sizeof maps / sizeof maps[0]; i++)
        if (!strcasecmp(maps[i].name, c->def->name)) {
            m->f = maps[i].f;
            m->arg = (const void *)maps[i].arg;
        }
    bool trim = m->f == map_trim;
    if (c->nargs != 1 && !(trim && c->nargs == 2))
        return fn_bad_nargs(c, trim ? "1 or 2" : "1");
    if (!is_str(c->arg_types[0]))
        return fn_bad_types(c);
    if ((m->f == map_lower8 || m->f == map_upper8) && c->arg_types[0]->id == T_FIXEDSTRING)
        return err_set(ERR_BAD_ARGUMENTS, "Functions lowerUTF8 and upperUTF8 cannot work with FixedString argument");
    if (trim) {
        /* trimBoth(s[, chars]): the characters must be a constant String. */
        m->trim.mode = (int)(intptr_t)m->arg;
        m->arg = &m->trim;
        const char *chars = " ";
        size_t nc = 1;
        if (c->nargs == 2) {
            chars = fn_const_str(c, 1, &nc);
            if (!chars || c->arg_types[1]->id != T_STRING)
                return err_set(ERR_ILLEGAL_COLUMN,
                               "A value of illegal type was provided as 2nd argument 'trim_character' to function "
                               "'%s'. Expected: const String, got: %s",
                               c->def->name, c->arg_types[1]->name);
        }
        for (size_t i = 0; i < nc; i++)
            m->trim.drop[(uint8_t)chars[i]] = true;
    }
    bool keep_fixed = m->f == map_lower || m->f == map_upper || m->f == map_reverse;
    c->ret = keep_fixed && c->arg_types[0]->id == T_FIXEDSTRING ? c->arg_types[0] : type_simple(T_STRING);
    c->exec = map_exec;
    return 0;
}

/* ---- substring ---- */

/* Byte (or code point) range of s for ClickHouse's substring(s, offset[, length]). */
static void sub_range(int64_t len, int64_t off, bool has_len, int64_t cnt, int64_t *b, int64_t *e)
{
    int64_t start;
    if (off > 0) start = off - 1;
    else if (off < 0) start = len + off;
    else { *b = *e = 0; return; }
    int64_t end;
    if (!has_len) end = len;
    else if (cnt >= 0) end = start + cnt;
    else end = len + cnt;
    if (start < 0) start = 0;
    if (end > len) end = len;
    if (start > len) start = len;
    if (end < start) end = start;
    *b = start;
    *e = end;
}

static size_t utf8_advance(const char *s, size_t n, size_t pos, int64_t k)
{
    while (k > 0 && pos < n) {
        pos++;
        while (pos < n && ((unsigned char)s[pos] & 0xC0) == 0x80)
            pos++;
        k--;
    }
    return pos;
}

static int substring_exec(const fn_call *c, column **a, size_t n, column **out)
{
    bool utf8 = c->state != NULL;
    bool has_len = c->nargs == 3;
    column *r = col_new(type_simple(T_STRING));
    col_reserve(r, n);
    for (size_t i = 0; i < n; i++) {
        size_t l;
        const char *s = col_str(a[0], i, &l);
        int64_t off = col_get_i64(a[1], i), cnt = has_len ? col_get_i64(a[2], i) : 0;
        if (c->arg_types[1]->id == T_UINT64 && col_get_u64(a[1], i) > (uint64_t)INT64_MAX) off = INT64_MAX;
        int64_t b, e;
        if (!utf8) {
            sub_range((int64_t)l, off, has_len, cnt, &b, &e);
            col_push_str(r, s + b, (size_t)(e - b));
        } else {
            int64_t cl = (int64_t)utf8_len(s, l);
            sub_range(cl, off, has_len, cnt, &b, &e);
            size_t pb = utf8_advance(s, l, 0, b), pe = utf8_advance(s, l, pb, e - b);
            col_push_str(r, s + pb, pe - pb);
        }
    }
    *out = r;
    return 0;
}

static int substring_resolve(fn_call *c)
{
    if (c->nargs != 2 && c->nargs != 3)
        return err_set(ERR_NUMBER_OF_ARGUMENTS_DOESNT_MATCH,
                       "Number of arguments for function %s doesn't match: passed %d, should be 2 or 3", c->name, c->nargs);
    bool utf8 = strcasecmp(c->def->name, "substringUTF8") == 0;
    if (!is_str(c->arg_types[0]) || !num_is_int(c->arg_types[1]) || (c->nargs == 3 && !num_is_int(c->arg_types[2])))
        return fn_bad_types(c);
    if (utf8 && c->arg_types[0]->id == T_FIXEDSTRING)
        return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT,
                       "Illegal type %s of first argument of function %s, expected String", c->arg_types[0]->name,
                       c->name);
    /* ClickHouse refuses a constant zero offset on a column (bounds given as constants);
     * over a constant string, or a length that varies by row, it answers '' */
    int64_t off;
    if (!c->const_args[0] && !fn_const_int(c, 1, &off) && off == 0 && (c->nargs == 2 || c->const_args[2]))
        return err_set(ERR_ZERO_ARRAY_OR_TUPLE_INDEX, "Indices in strings are 1-based");
    c->state = utf8 ? (void *)1 : NULL;
    c->ret = type_simple(T_STRING);
    c->exec = substring_exec;
    return 0;
}

/* ---- concat ---- */

static int concat_exec(const fn_call *c, column **a, size_t n, column **out)
{
    column *r = col_new(type_simple(T_STRING));
    col_reserve(r, n);
    buf tmp = {0};
    text_opts o;
    text_opts_default(&o);
    for (size_t i = 0; i < n; i++) {
        tmp.len = 0;
        for (int k = 0; k < c->nargs; k++) {
            append_as_text(&tmp, c->arg_types[k], a[k], i, &o);
        }
        col_push_str(r, (const char *)tmp.p, tmp.len);
    }
    buf_free(&tmp);
    *out = r;
    return 0;
}

static int concat_resolve(fn_call *c)
{
    bool all_arrays = c->nargs > 0;
    for (int k = 0; k < c->nargs; k++) {
        const type *t = c->arg_types[k];
        if (type_base(t)->id == T_NOTHING)
            return fn_bad_types(c);
        all_arrays &= type_base(t)->id == T_ARRAY;
    }
    if (all_arrays) /* concat of arrays is arrayConcat, as in ClickHouse */
        return func_lookup("arrayConcat")->resolve(c);
    c->ret = type_simple(T_STRING);
    c->exec = concat_exec;
    return 0;
}

/* ---- char(n, …): the bytes of its numeric arguments (each cast to UInt8, wrapping) ---- */

static int char_exec(const fn_call *c, column **a, size_t n, column **out)
{
    column *r = col_new(type_simple(T_STRING));
    col_reserve(r, n);
    char *bytes = xmalloc((size_t)c->nargs);
    for (size_t i = 0; i < n; i++) {
        for (int k = 0; k < c->nargs; k++)
            bytes[k] = (char)(num_is_float(c->arg_types[k]) ? (int64_t)col_get_f64(a[k], i) : col_get_i64(a[k], i));
        col_push_str(r, bytes, (size_t)c->nargs);
    }
    free(bytes);
    *out = r;
    return 0;
}

static int char_resolve(fn_call *c)
{
    if (c->nargs < 1)
        return err_set(ERR_NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Number of arguments for function char can't be 0");
    for (int k = 0; k < c->nargs; k++) {
        const type *t = c->arg_types[k];
        if (!num_is_int(t) && !num_is_float(t))
            return fn_bad_types(c);
        if (t->id == T_UINT128 || t->id == T_INT128)
            return err_set(ERR_ILLEGAL_COLUMN, "Illegal column %s of argument of function char", t->name);
    }
    c->ret = type_simple(T_STRING);
    c->exec = char_exec;
    return 0;
}

/* ---- position / startsWith / endsWith ---- */

static const char *memmem_ci(const char *h, size_t hn, const char *nd, size_t nn)
{
    if (nn == 0)
        return h;
    for (size_t i = 0; i + nn <= hn; i++)
        if (strncasecmp(h + i, nd, nn) == 0)
            return h + i;
    return NULL;
}

/* state bits: 1 = case-insensitive, 2 = locate (needle first, MySQL order) */
static int position_exec(const fn_call *c, column **a, size_t n, column **out)
{
    uintptr_t fl = (uintptr_t)c->state;
    bool ci = fl & 1;
    int hi = (fl & 2) ? 1 : 0;
    /* ClickHouse searches a FixedString haystack only when it is a constant */
    if (type_base(a[hi]->type)->id == T_FIXEDSTRING && !a[hi]->is_const)
        return err_set(ERR_ILLEGAL_COLUMN, "Function '%s' doesn't support FixedString haystack argument", c->name);
    uint64_t *d;
    *out = new_u64(n, &d);
    for (size_t i = 0; i < n; i++) {
        size_t hl, nl;
        const char *h = col_str(a[hi], i, &hl), *nd = col_str(a[1 - hi], i, &nl);
        /* optional 1-based start position (0 acts as 1); past the end finds nothing */
        uint64_t st = c->nargs == 3 ? col_get_u64(a[2], i) : 1;
        if (st == 0)
            st = 1;
        if (st > hl + 1) {
            d[i] = 0;
            continue;
        }
        size_t off = (size_t)st - 1;
        const char *hs = h + off;
        size_t hn = hl - off;
        const char *p = ci ? memmem_ci(hs, hn, nd, nl) : nl ? memmem(hs, hn, nd, nl) : hs;
        d[i] = p ? (uint64_t)(p - h) + 1 : 0;
    }
    return 0;
}

static int position_resolve(fn_call *c)
{
    if (c->nargs != 2 && c->nargs != 3)
        return fn_bad_nargs(c, "2 or 3");
    if (!is_str(c->arg_types[0]) || !is_str(c->arg_types[1]))
        return fn_bad_types(c);
    if (c->nargs == 3 && !(num_is_uint(type_base(c->arg_types[2])) && c->arg_types[2]->id != T_BOOL))
        return fn_bad_types(c);
    uintptr_t fl = strcmp(c->def->name, "positionCaseInsensitive") == 0 ? 1 : 0;
    if (strcmp(c->def->name, "locate") == 0)
        fl |= 2;
    const type *needle = c->arg_types[(fl & 2) ? 0 : 1];
    if (type_base(needle)->id == T_FIXEDSTRING) /* as ClickHouse: the needle must be a String */
        return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type %s of argument of function %s", needle->name, c->name);
    c->state = (void *)fl;
    c->ret = type_simple(T_UINT64);
    c->exec = position_exec;
    return 0;
}

static int startsends_exec(const fn_call *c, column **a, size_t n, column **out)
{
    bool ends = c->state != NULL;
    uint8_t *d;
    *out = num_new_u8(n, &d);
    for (size_t i = 0; i < n; i++) {
        size_t hl, pl;
        const char *h = col_str(a[0], i, &hl), *p = col_str(a[1], i, &pl);
        d[i] = pl <= hl && memcmp(ends ? h + hl - pl : h, p, pl) == 0;
    }
    return 0;
}

static int startsends_resolve(fn_call *c)
{
    if (c->nargs != 2)
        return fn_bad_nargs(c, "2");
    if (!is_str(c->arg_types[0]) || !is_str(c->arg_types[1]))
        return fn_bad_types(c);
    c->state = strcmp(c->def->name, "endsWith") == 0 ? (void *)1 : NULL;
    c->ret = type_simple(T_UINT8);
    c->exec = startsends_exec;
    return 0;
}

/* ---- repeat ---- */

static int repeat_exec(const fn_call *c, column **a, size_t n, column **out)
{
    column *r = col_new(type_simple(T_STRING));
    buf tmp = {0};
    for (size_t i = 0; i < n; i++) {
        size_t l;
        const char *s = col_str(a[0], i, &l);
        int64_t k = col_get_i64(a[1], i);
        if (k > 0 && (uint64_t)k * l > (1u << 30)) {
            buf_free(&tmp);
            col_free(r);
            return err_set(ERR_TOO_LARGE_ARRAY_SIZE, "Too large string size in function repeat");
        }
        tmp.len = 0;
        for (int64_t j = 0; j < k; j++)
            buf_append(&tmp, s, l);
        col_push_str(r, (const char *)tmp.p, tmp.len);
    }
    buf_free(&tmp);
    *out = r;
    return 0;
}

static int repeat_resolve(fn_call *c)
{
    if (c->nargs != 2)
        return fn_bad_nargs(c, "2");
    if (!is_str(c->arg_types[0]) || !num_is_int(c->arg_types[1]))
        return fn_bad_types(c);
    if (type_base(c->arg_types[0])->id == T_FIXEDSTRING)
        return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT,
                       "A value of illegal type was provided as 1st argument 's' to function 'repeat'. Expected: String, "
                       "got: %s",
                       c->arg_types[0]->name);
    c->ret = type_simple(T_STRING);
    c->exec = repeat_exec;
    return 0;
}

/* ---- LIKE ---- */

typedef enum { LK_EXACT, LK_PREFIX, LK_SUFFIX, LK_CONTAINS, LK_GENERAL } like_kind;

typedef struct like_state {
    bool negate, ci, constant;
    like_kind kind;
    char *lit;       /* unescaped literal for the fast kinds */
    size_t lit_len;
    char *pat;       /* the pattern (lowered for ilike) */
    size_t pat_len;
} like_state;

/* A pattern may not end in an unescaped backslash (ClickHouse's CANNOT_PARSE_ESCAPE_SEQUENCE). */
static int like_check_pattern(const char *p, size_t m)
{
    size_t run = 0;
    while (run < m && p[m - 1 - run] == '\\')
        run++;
    if (run % 2)
        return err_set(ERR_CANNOT_PARSE_ESCAPE_SEQUENCE, "Invalid escape sequence at the end of LIKE pattern '%.*s'",
                       (int)(m > 200 ? 200 : m), p);
    return 0;
}

/* Backtracking matcher: O(n*m) worst case via the classic last-% restart. */
static bool like_match(const char *s, size_t n, const char *p, size_t m)
{
    size_t si = 0, pi = 0, star_p = (size_t)-1, star_s = 0;
    while (si < n) {
        if (pi < m && p[pi] == '%') {
            star_p = ++pi;
            star_s = si;
            continue;
        }
        if (pi < m) {
            if (p[pi] == '_') {
                si = utf8_advance(s, n, si, 1);
                pi++;
                continue;
            }
            char want = p[pi];
            size_t adv = 1;
            if (want == '\\' && pi + 1 < m) {
                want = p[pi + 1];
                adv = 2;
            }
            if (s[si] == want) {
                si++;
                pi += adv;
                continue;
            }
        }
        if (star_p == (size_t)-1)
            return false;
        pi = star_p;
        star_s = utf8_advance(s, n, star_s, 1);
        si = star_s;
    }
    while (pi < m && p[pi] == '%')
        pi++;
    return pi == m;
}

static void classify(like_state *st)
{
    const char *p = st->pat;
    size_t m = st->pat_len;
    size_t lead = 0, trail = 0;
    while (lead < m && p[lead] == '%') lead++;
    while (trail < m - lead && p[m - 1 - trail] == '%' && !(m - 1 - trail > 0 && p[m - 2 - trail] == '\\')) trail++;
    st->lit = xmalloc(m + 1);
    size_t k = 0;
    for (size_t i = lead; i < m - trail; i++) {
        if (p[i] == '%' || p[i] == '_') {
            st->kind = LK_GENERAL;
            return;
        }
        if (p[i] == '\\' && i + 1 < m - trail)
            i++;
        st->lit[k++] = p[i];
    }
    st->lit_len = k;
    if (lead > 1 || trail > 1) { /* '%%abc' works the same as '%abc' */
        lead = lead ? 1 : 0;
        trail = trail ? 1 : 0;
    }
    st->kind = !lead && !trail ? LK_EXACT : !lead ? LK_PREFIX : !trail ? LK_SUFFIX : LK_CONTAINS;
}

static void like_free(void *p)
{
    like_state *st = p;
    if (!st) return;
    free(st->lit);
    free(st->pat);
    free(st);
}

static int like_exec(const fn_call *c, column **a, size_t n, column **out)
{
    const like_state *st = c->state;
    uint8_t *d;
    *out = num_new_u8(n, &d);
    buf low = {0}, plow = {0};
    for (size_t i = 0; i < n; i++) {
        size_t l;
        const char *s = col_str(a[0], i, &l);
        if (st->ci) {
            low.len = 0;
            map_lower(s, l, &low, NULL);
            s = (const char *)low.p;
        }
        bool r;
        if (st->constant) {
            switch (st->kind) {
            case LK_EXACT: r = l == st->lit_len && memcmp(s, st->lit, l) == 0; break;
            case LK_PREFIX: r = l >= st->lit_len && memcmp(s, st->lit, st->lit_len) == 0; break;
            case LK_SUFFIX: r = l >= st->lit_len && memcmp(s + l - st->lit_len, st->lit, st->lit_len) == 0; break;
            case LK_CONTAINS: r = st->lit_len == 0 || memmem(s, l, st->lit, st->lit_len) != NULL; break;
            default: r = like_match(s, l, st->pat, st->pat_len); break;
            }
        } else {
            size_t pl;
            const char *p = col_str(a[1], i, &pl);
            if (like_check_pattern(p, pl)) {
                buf_free(&low);
                buf_free(&plow);
                col_free(*out);
                *out = NULL;
                return -1;
            }
            if (st->ci) {
                plow.len = 0;
                map_lower(p, pl, &plow, NULL);
                p = (const char *)plow.p;
            }
            r = like_match(s, l, p, pl);
        }
        d[i] = r != st->negate;
    }
    buf_free(&low);
    buf_free(&plow);
    return 0;
}

static int like_resolve(fn_call *c)
{
    if (c->nargs != 2)
        return fn_bad_nargs(c, "2");
    if (!is_str(c->arg_types[0]) || !is_str(c->arg_types[1]))
        return fn_bad_types(c);
    like_state *st = xcalloc(1, sizeof *st);
    c->state = st;
    const char *nm = c->def->name;
    st->negate = !strncmp(nm, "not", 3);
    st->ci = strcasestr(nm, "ilike") != NULL;
    size_t pl;
    const char *p = fn_const_str(c, 1, &pl);
    if (p && like_check_pattern(p, pl))
        return -1;
    if (p) {
        st->constant = true;
        st->pat = xmalloc(pl + 1);
        for (size_t i = 0; i < pl; i++)
            st->pat[i] = st->ci ? (char)tolower((unsigned char)p[i]) : p[i];
        st->pat_len = pl;
        classify(st);
    }
    c->ret = type_simple(T_UINT8);
    c->exec = like_exec;
    return 0;
}

static void func_register_string_more(void);

void func_register_string(void)
{
    func_register_string_more();
    static const func_def defs[] = {
        {"length", FN_CASE_INSENSITIVE, length_resolve, NULL, "length in bytes (or array size)"},
        {"lengthUTF8", 0, length_resolve, NULL, "length in Unicode code points"},
        {"empty", 0, empty_resolve, NULL, "1 for an empty string or array"},
        {"notEmpty", 0, empty_resolve, NULL, "1 for a non-empty string or array"},
        {"lower", FN_CASE_INSENSITIVE, map_resolve, free, "ASCII lower case"},
        {"upper", FN_CASE_INSENSITIVE, map_resolve, free, "ASCII upper case"},
        {"lowerUTF8", 0, map_resolve, free, "lower case (ASCII, Latin-1, Latin Extended-A, Greek, Cyrillic)"},
        {"upperUTF8", 0, map_resolve, free, "upper case (ASCII, Latin-1, Latin Extended-A, Greek, Cyrillic)"},
        {"reverse", FN_CASE_INSENSITIVE, map_resolve, free, "bytes in reverse order"},
        {"trimLeft", 0, map_resolve, free, "removes leading spaces"},
        {"trimRight", 0, map_resolve, free, "removes trailing spaces"},
        {"trimBoth", 0, map_resolve, free, "removes leading and trailing spaces"},
        {"substring", FN_CASE_INSENSITIVE, substring_resolve, NULL, "substring(s, offset[, length])"},
        {"substringUTF8", 0, substring_resolve, NULL, "substring in code points"},
        {"concat", FN_CASE_INSENSITIVE, concat_resolve, NULL, "concatenation"},
        {"char", FN_CASE_INSENSITIVE, char_resolve, NULL, "the string of the bytes given as numbers"},
        {"position", FN_CASE_INSENSITIVE, position_resolve, NULL, "1-based byte position of needle, or 0"},
        {"positionCaseInsensitive", 0, position_resolve, NULL, "position ignoring ASCII case"},
        {"locate", FN_CASE_INSENSITIVE, position_resolve, NULL, "locate(needle, haystack[, start]): position in MySQL order"},
        {"startsWith", 0, startsends_resolve, NULL, "1 if s starts with prefix"},
        {"endsWith", 0, startsends_resolve, NULL, "1 if s ends with suffix"},
        {"repeat", FN_CASE_INSENSITIVE, repeat_resolve, NULL, "s repeated n times"},
        {"like", 0, like_resolve, like_free, "SQL LIKE"},
        {"notLike", 0, like_resolve, like_free, "SQL NOT LIKE"},
        {"ilike", 0, like_resolve, like_free, "case-insensitive LIKE"},
        {"notILike", 0, like_resolve, like_free, "case-insensitive NOT LIKE"},
    };
    for (size_t i = 0; i < sizeof defs / sizeof defs[0]; i++)
        func_register(&defs[i]);
    func_register_alias("char_length", "lengthUTF8");
    func_register_alias("CHAR_LENGTH", "lengthUTF8");
    func_register_alias("CHARACTER_LENGTH", "lengthUTF8");
    func_register_alias("lcase", "lower");
    func_register_alias("ucase", "upper");
    func_register_alias("substr", "substring");
    func_register_alias("mid", "substring");
    func_register_alias("ltrim", "trimLeft");
    func_register_alias("rtrim", "trimRight");
    func_register_alias("trim", "trimBoth");
}

/* ==== leftPad/rightPad(+UTF8), left/right(+UTF8), concatWithSeparator, hex/unhex,
 * base64Encode/base64Decode/tryBase64Decode, countSubstrings ==== */

/* Byte offset of the k-th character (UTF-8 or bytes) of s, clamped to n. */
static size_t char_off(const char *s, size_t n, size_t k, bool utf8)
{
    if (!utf8)
        return k < n ? k : n;
    size_t i = 0;
    while (i < n && k > 0) {
        i++;
        while (i < n && ((unsigned char)s[i] & 0xC0) == 0x80) i++;
        k--;
    }
    return i;
}

enum { PAD_LEFT = 1, PAD_UTF8 = 2 };

static int pad_exec(const fn_call *c, column **a, size_t n, column **out)
{
    int fl = (int)(intptr_t)c->state;
    bool utf8 = fl & PAD_UTF8, left = fl & PAD_LEFT;
    column *res = col_new(type_simple(T_STRING));
    col_reserve(res, n);
    buf tmp = {0};
    for (size_t i = 0; i < n; i++) {
        size_t l, pl = 1;
        const char *s = col_str(a[0], i, &l), *p = " ";
        if (c->nargs == 3) {
            p = col_str(a[2], i, &pl);
            if (pl == 0)
                p = " ", pl = 1;
        }
        int64_t want = col_get_i64(a[1], i);
        if (want < 0)
            want = 0;
        size_t have = utf8 ? utf8_len(s, l) : l;
        tmp.len = 0;
        if ((size_t)want <= have) {
            col_push_str(res, s, char_off(s, l, (size_t)want, utf8));
            continue;
        }
        if (!left)
            buf_append(&tmp, s, l);
        size_t need = (size_t)want - have, pchars = utf8 ? utf8_len(p, pl) : pl;
        while (need > 0) {
            size_t take = need < pchars ? need : pchars;
            buf_append(&tmp, p, char_off(p, pl, take, utf8));
            need -= take;
        }
        if (left)
            buf_append(&tmp, s, l);
        col_push_str(res, (const char *)tmp.p, tmp.len);
    }
    buf_free(&tmp);
    *out = res;
    return 0;
}

static int pad_resolve(fn_call *c)
{
    if (c->nargs != 2 && c->nargs != 3)
        return fn_bad_nargs(c, "2 or 3");
    if (!is_str(c->arg_types[0]) || !num_is_int(c->arg_types[1]) || (c->nargs == 3 && !is_str(c->arg_types[2])))
        return fn_bad_types(c);
    const char *nm = c->def->name;
    int fl = (!strncmp(nm, "left", 4) ? PAD_LEFT : 0) | (strstr(nm, "UTF8") ? PAD_UTF8 : 0);
    c->state = (void *)(intptr_t)fl;
    c->ret = type_simple(T_STRING);
    c->exec = pad_exec;
    return 0;
}

static int leftright_exec(const fn_call *c, column **a, size_t n, column **out)
{
    int fl = (int)(intptr_t)c->state;
    bool utf8 = fl & PAD_UTF8, left = fl & PAD_LEFT;
    column *res = col_new(type_simple(T_STRING));
    col_reserve(res, n);
    for (size_t i = 0; i < n; i++) {
        size_t l;
        const char *s = col_str(a[0], i, &l);
        int64_t k = col_get_i64(a[1], i);
        size_t chars = utf8 ? utf8_len(s, l) : l, from, to;
        size_t ak = k < 0 ? (size_t)(-(k + 1)) + 1 : (size_t)k;
        size_t keep = k >= 0 ? (ak < chars ? ak : chars) : (ak < chars ? chars - ak : 0);
        if (left) {
            from = 0;
            to = char_off(s, l, keep, utf8);
        } else {
            from = char_off(s, l, chars - keep, utf8);
            to = l;
        }
        col_push_str(res, s + from, to - from);
    }
    *out = res;
    return 0;
}

static int leftright_resolve(fn_call *c)
{
    if (c->nargs != 2)
        return fn_bad_nargs(c, "2");
    const char *nm = c->def->name;
    int fl = (!strncmp(nm, "left", 4) ? PAD_LEFT : 0) | (strstr(nm, "UTF8") ? PAD_UTF8 : 0);
    /* the UTF-8 variants take String only, as in ClickHouse */
    if (!is_str(c->arg_types[0]) || !num_is_int(c->arg_types[1]) ||
        ((fl & PAD_UTF8) && c->arg_types[0]->id == T_FIXEDSTRING))
        return fn_bad_types(c);
    c->state = (void *)(intptr_t)fl;
    c->ret = type_simple(T_STRING);
    c->exec = leftright_exec;
    return 0;
}

static int cws_exec(const fn_call *c, column **a, size_t n, column **out)
{
    column *res = col_new(type_simple(T_STRING));
    col_reserve(res, n);
    buf tmp = {0};
    text_opts o;
    text_opts_default(&o);
    for (size_t i = 0; i < n; i++) {
        size_t sl;
        const char *sep = col_str(a[0], i, &sl);
        tmp.len = 0;
        for (int j = 1; j < c->nargs; j++) {
            if (j > 1)
                buf_append(&tmp, sep, sl);
            append_as_text(&tmp, c->arg_types[j], a[j], i, &o);
        }
        col_push_str(res, (const char *)tmp.p, tmp.len);
    }
    buf_free(&tmp);
    *out = res;
    return 0;
}

static int cws_resolve(fn_call *c)
{
    if (c->nargs < 1)
        return fn_bad_nargs(c, "at least 1");
    if (!is_str(c->arg_types[0]))
        return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type %s of first argument of function %s",
                       c->arg_types[0]->name, c->name);
    for (int j = 1; j < c->nargs; j++)
        if (type_base(c->arg_types[j])->id == T_NOTHING)
            return fn_bad_types(c);
    c->ret = type_simple(T_STRING);
    c->exec = cws_exec;
    return 0;
}

/* ---- format('{} and {1}', ...) ----
 * The pattern (a constant) compiles once into pieces: literal text (with {{ and }}
 * unescaped) and argument references. Arguments print as toString does. Errors follow
 * ClickHouse's parser: manual ({0}) and automatic ({}) numbering can't mix (ClickHouse gives
 * the same message whichever came first). */

typedef struct fmt_piece {
    int arg;        /* argument index (1-based in the call), or -1 for literal text */
    size_t off, len;/* literal text in fmt_state.lit */
} fmt_piece;

typedef struct fmt_state {
    char *lit;
    fmt_piece *p;
    int np;
} fmt_state;

static void fmt_free(void *v)
{
    fmt_state *st = v;
    if (!st)
        return;
    free(st->lit);
    free(st->p);
    free(st);
}

static int format_exec(const fn_call *c, column **a, size_t n, column **out)
{
    const fmt_state *st = c->state;
    column *res = col_new(type_simple(T_STRING));
    col_reserve(res, n);
    buf tmp = {0};
    text_opts o;
    text_opts_default(&o);
    for (size_t i = 0; i < n; i++) {
        tmp.len = 0;
        for (int k = 0; k < st->np; k++) {
            const fmt_piece *p = &st->p[k];
            if (p->arg < 0)
                buf_append(&tmp, st->lit + p->off, p->len);
            else
                append_as_text(&tmp, c->arg_types[p->arg], a[p->arg], i, &o);
        }
        col_push_str(res, (const char *)tmp.p, tmp.len);
    }
    buf_free(&tmp);
    *out = res;
    return 0;
}

static int format_resolve(fn_call *c)
{
    if (c->nargs < 2)
        return fn_bad_nargs(c, "at least 2");
    if (!is_str(c->arg_types[0]))
        return fn_bad_types(c);
    size_t pl;
    const char *pat = fn_const_str(c, 0, &pl);
    if (!pat)
        return err_set(ERR_ILLEGAL_COLUMN, "Argument at index 0 for function %s must be constant", c->name);
    for (int k = 1; k < c->nargs; k++)
        if (type_base(c->arg_types[k])->id == T_NOTHING && !type_is_nullable(c->arg_types[k]))
            return fn_bad_types(c);
    fmt_state *st = xcalloc(1, sizeof *st);
    c->state = st;
    st->lit = xmalloc(pl + 1);
    st->p = xcalloc(pl + 1, sizeof *st->p);
    size_t nlit = 0, lit_start = 0, start = 0;
    bool open = false;
    int mode = 0; /* 1 automatic, 2 manual */
    int next_auto = 0, nvals = c->nargs - 1;
    for (size_t i = 0; i < pl; i++) {
        char ch = pat[i];
        if ((ch == '{' || ch == '}') && i + 1 < pl && pat[i + 1] == ch) {
            if (!open)
                st->lit[nlit++] = ch;
            i++;
            continue;
        }
        if (ch == '{') {
            if (open)
                return err_set(ERR_BAD_ARGUMENTS, "Two open curly braces without close one at position %zu", i);
            if (nlit > lit_start)
                st->p[st->np++] = (fmt_piece){-1, lit_start, nlit - lit_start};
            lit_start = nlit;
            start = i + 1;
            open = true;
        } else if (ch == '}') {
            if (!open)
                return err_set(ERR_BAD_ARGUMENTS, "Closed curly brace without open one at position %zu", i);
            open = false;
            int idx;
            if (i == start) {
                if (mode == 2)
                    return err_set(ERR_BAD_ARGUMENTS,
                                   "Cannot switch from automatic field numbering to manual field specification");
                mode = 1;
                idx = next_auto++;
            } else {
                if (mode == 1)
                    return err_set(ERR_BAD_ARGUMENTS,
                                   "Cannot switch from automatic field numbering to manual field specification");
                mode = 2;
                uint64_t v = 0;
                for (size_t j = start; j < i; j++) {
                    if (pat[j] < '0' || pat[j] > '9' || v > 1000000)
                        return err_set(ERR_BAD_ARGUMENTS, "Not a number in curly braces at position %zu", start);
                    v = v * 10 + (uint64_t)(pat[j] - '0');
                }
                if (v >= (uint64_t)nvals)
                    return err_set(ERR_BAD_ARGUMENTS, "Too big number for arguments, must be at most %d", nvals - 1);
                idx = (int)v;
            }
            if (idx >= nvals)
                return err_set(ERR_BAD_ARGUMENTS, "Not enough arguments to fill the placeholders in the format string");
            st->p[st->np++] = (fmt_piece){idx + 1, 0, 0};
        } else if (!open) {
            st->lit[nlit++] = ch;
        }
    }
    if (open)
        return err_set(ERR_BAD_ARGUMENTS, "Last open curly brace is not closed");
    if (nlit > lit_start)
        st->p[st->np++] = (fmt_piece){-1, lit_start, nlit - lit_start};
    c->ret = type_simple(T_STRING);
    c->exec = format_exec;
    return 0;
}

/* One byte as two hex digits or, for bin(), eight binary ones. */
static void put_byte(buf *out, unsigned char b, bool binary)
{
    static const char dig[] = "0123456789ABCDEF";
    if (binary) {
        char d[8];
        for (int k = 0; k < 8; k++)
            d[k] = (char)('0' + ((b >> (7 - k)) & 1));
        buf_append(out, d, 8);
    } else {
        char h[2] = {dig[b >> 4], dig[b & 15]};
        buf_append(out, h, 2);
    }
}

/* hex(x) and bin(x) (c->state set): strings byte by byte, integers big-endian without
 * leading zero bytes, floats in memory order, as ClickHouse. */
static int hex_exec(const fn_call *c, column **a, size_t n, column **out)
{
    const type *t = c->arg_types[0];
    bool binary = c->state != NULL;
    column *res = col_new(type_simple(T_STRING));
    col_reserve(res, n);
    buf tmp = {0};
    for (size_t i = 0; i < n; i++) {
        size_t l;
        const unsigned char *s;
        unsigned char be[32];
        tmp.len = 0;
        if (is_str(t) || t->id == T_AGGSTATE || t->id == T_IPV6) { /* a state: its serialized bytes, as ClickHouse;
                                                                     * an IPv6 its bytes in network order */
            s = (const unsigned char *)col_str(a[0], i, &l);
            for (size_t k = 0; k < l; k++)
                put_byte(&tmp, s[k], binary);
        } else if (num_is_int(t) || t->id == T_IPV4 || t->id == T_INT256 || t->id == T_UINT256) {
            /* big-endian without leading zero bytes (at least one byte); IPv4 as its UInt32 */
            const unsigned char *p = a[0]->data.p + i * t->width;
            size_t w = t->width;
            for (size_t k = 0; k < w; k++) be[k] = p[w - 1 - k];
            size_t k = 0;
            while (k + 1 < w && be[k] == 0) k++;
            for (; k < w; k++)
                put_byte(&tmp, be[k], binary);
        } else {
            /* floats and Decimal256: the bytes in memory order */
            const unsigned char *p = a[0]->data.p + i * t->width;
            for (size_t k = 0; k < t->width; k++)
                put_byte(&tmp, p[k], binary);
        }
        col_push_str(res, (const char *)tmp.p, tmp.len);
    }
    buf_free(&tmp);
    *out = res;
    return 0;
}

static int hex_resolve(fn_call *c)
{
    if (c->nargs != 1)
        return fn_bad_nargs(c, "1");
    const type *t = c->arg_types[0];
    if (!is_str(t) && !num_is_int(t) && !num_is_float(t) && t->id != T_AGGSTATE && !type_is_ip(t) && !type_is_wide(t))
        return fn_bad_types(c);
    c->state = strcmp(c->def->name, "bin") == 0 ? (void *)1 : NULL;
    c->ret = type_simple(T_STRING);
    c->exec = hex_exec;
    return 0;
}

static int hexval(int ch)
{
    return ch >= '0' && ch <= '9' ? ch - '0' : ch >= 'a' && ch <= 'f' ? ch - 'a' + 10 : ch >= 'A' && ch <= 'F' ? ch - 'A' + 10 : 0;
}

static int unhex_exec(const fn_call *c, column **a, size_t n, column **out)
{
    column *res = col_new(type_simple(T_STRING));
    col_reserve(res, n);
    buf tmp = {0};
    for (size_t i = 0; i < n; i++) {
        size_t l;
        const char *s = col_str(a[0], i, &l);
        tmp.len = 0;
        size_t k = 0;
        if (l % 2) { /* odd length: the first digit stands alone */
            unsigned char b = (unsigned char)hexval(s[0]);
            buf_append(&tmp, &b, 1);
            k = 1;
        }
        for (; k + 1 < l + 1 && k < l; k += 2) {
            unsigned char b = (unsigned char)(hexval(s[k]) * 16 + hexval(s[k + 1]));
            buf_append(&tmp, &b, 1);
        }
        col_push_str(res, (const char *)tmp.p, tmp.len);
    }
    buf_free(&tmp);
    *out = res;
    return 0;
}

static int b64val(int ch)
{
    return ch >= 'A' && ch <= 'Z' ? ch - 'A' : ch >= 'a' && ch <= 'z' ? ch - 'a' + 26 : ch >= '0' && ch <= '9' ? ch - '0' + 52
         : ch == '+' ? 62 : ch == '/' ? 63 : -1;
}

/* Decodes padded base64; returns false on invalid input. */
static bool b64_decode(const char *s, size_t l, buf *o)
{
    if (l % 4)
        return false;
    for (size_t k = 0; k < l; k += 4) {
        int v[4], pad = 0;
        for (int q = 0; q < 4; q++) {
            if (s[k + q] == '=' && k + 4 == l && q >= 2) {
                v[q] = 0, pad++;
                continue;
            }
            if (pad || (v[q] = b64val((unsigned char)s[k + q])) < 0)
                return false;
        }
        unsigned char b[3] = {(unsigned char)(v[0] << 2 | v[1] >> 4), (unsigned char)(v[1] << 4 | v[2] >> 2),
                              (unsigned char)(v[2] << 6 | v[3])};
        buf_append(o, b, (size_t)(3 - pad));
    }
    return true;
}

static int b64_exec(const fn_call *c, column **a, size_t n, column **out)
{
    static const char al[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    int mode = (int)(intptr_t)c->state; /* 0 encode, 1 decode, 2 try decode */
    column *res = col_new(type_simple(T_STRING));
    col_reserve(res, n);
    buf tmp = {0};
    for (size_t i = 0; i < n; i++) {
        size_t l;
        const unsigned char *s = (const unsigned char *)col_str(a[0], i, &l);
        tmp.len = 0;
        if (mode == 0) {
            for (size_t k = 0; k < l; k += 3) {
                unsigned v = (unsigned)s[k] << 16 | (k + 1 < l ? (unsigned)s[k + 1] << 8 : 0) | (k + 2 < l ? s[k + 2] : 0);
                char q[4] = {al[v >> 18 & 63], al[v >> 12 & 63], k + 1 < l ? al[v >> 6 & 63] : '=', k + 2 < l ? al[v & 63] : '='};
                buf_append(&tmp, q, 4);
            }
        } else if (!b64_decode((const char *)s, l, &tmp)) {
            if (mode == 1) {
                buf_free(&tmp);
                col_free(res);
                return err_set(ERR_INCORRECT_DATA, "Failed to %s base64 string '%.*s'", "decode", (int)(l > 64 ? 64 : l),
                               (const char *)s);
            }
            tmp.len = 0;
        }
        col_push_str(res, (const char *)tmp.p, tmp.len);
    }
    buf_free(&tmp);
    *out = res;
    return 0;
}

static int str1_resolve(fn_call *c)
{
    if (c->nargs != 1)
        return fn_bad_nargs(c, "1");
    if (!is_str(c->arg_types[0]))
        return fn_bad_types(c);
    const char *nm = c->def->name;
    c->ret = type_simple(T_STRING);
    if (!strcmp(nm, "unhex")) {
        c->exec = unhex_exec;
    } else {
        c->exec = b64_exec;
        c->state = (void *)(intptr_t)(!strcmp(nm, "base64Encode") ? 0 : !strcmp(nm, "base64Decode") ? 1 : 2);
    }
    return 0;
}

static int countsub_exec(const fn_call *c, column **a, size_t n, column **out)
{
    uint64_t *d;
    column *res = new_u64(n, &d);
    for (size_t i = 0; i < n; i++) {
        size_t l, nl;
        const char *s = col_str(a[0], i, &l), *nd = col_str(a[1], i, &nl);
        uint64_t cnt = 0;
        if (nl > 0) {
            size_t b = 0;
            const char *f;
            while (b + nl <= l && (f = memmem(s + b, l - b, nd, nl))) {
                cnt++;
                b = (size_t)(f - s) + nl; /* non-overlapping */
            }
        }
        d[i] = cnt;
    }
    *out = res;
    return 0;
}

static int countsub_resolve(fn_call *c)
{
    if (c->nargs != 2)
        return fn_bad_nargs(c, "2");
    if (!is_str(c->arg_types[0]) || !is_str(c->arg_types[1]))
        return fn_bad_types(c);
    c->ret = type_simple(T_UINT64);
    c->exec = countsub_exec;
    return 0;
}

static void func_register_string_more(void)
{
    static const func_def defs[] = {
        {"leftPad", FN_CASE_INSENSITIVE, pad_resolve, NULL, "pads a string on the left to a length"},
        {"rightPad", FN_CASE_INSENSITIVE, pad_resolve, NULL, "pads a string on the right to a length"},
        {"leftPadUTF8", 0, pad_resolve, NULL, "leftPad in code points"},
        {"rightPadUTF8", 0, pad_resolve, NULL, "rightPad in code points"},
        {"left", FN_CASE_INSENSITIVE, leftright_resolve, NULL, "first n bytes (negative: all but the last -n)"},
        {"right", FN_CASE_INSENSITIVE, leftright_resolve, NULL, "last n bytes (negative: all but the first -n)"},
        {"leftUTF8", 0, leftright_resolve, NULL, "left in code points"},
        {"rightUTF8", 0, leftright_resolve, NULL, "right in code points"},
        {"concatWithSeparator", 0, cws_resolve, NULL, "concatWithSeparator(sep, x1, x2, ...)"},
        {"format", 0, format_resolve, fmt_free, "format('{} and {1}', a, b)"},
        {"hex", FN_CASE_INSENSITIVE, hex_resolve, NULL, "hexadecimal representation"},
        {"bin", FN_CASE_INSENSITIVE, hex_resolve, NULL, "binary representation"},
        {"unhex", FN_CASE_INSENSITIVE, str1_resolve, NULL, "bytes from hexadecimal digits"},
        {"base64Encode", 0, str1_resolve, NULL, "base64 encoding"},
        {"base64Decode", 0, str1_resolve, NULL, "base64 decoding (error on invalid input)"},
        {"tryBase64Decode", 0, str1_resolve, NULL, "base64 decoding ('' on invalid input)"},
        {"countSubstrings", 0, countsub_resolve, NULL, "number of non-overlapping occurrences"},
    };
    for (size_t i = 0; i < sizeof defs / sizeof defs[0]; i++)
        func_register(&defs[i]);
    func_register_alias("lpad", "leftPad");
    func_register_alias("rpad", "rightPad");
    func_register_alias("concat_ws", "concatWithSeparator");
    func_register_alias("TO_BASE64", "base64Encode");
    func_register_alias("FROM_BASE64", "base64Decode");
}
