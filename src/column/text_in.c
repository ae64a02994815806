/* Input half of text.h: one unescaped value → one appended row.
 *
 * Integer parsing follows ClickHouse's readIntText: digits accumulate with wrap-around
 * in 64 bits and the result is truncated to the column width (so '300' as UInt8 is 44,
 * exactly as ClickHouse's CSV input and CAST('300' AS UInt8) give); a '-' for an unsigned
 * type, a non-digit or an empty value is an error. UUIDs are stored as a uint128 whose
 * low 64 bits hold the first 16 hex digits (ClickHouse's items[0] = high half). */
#include "column/text.h"
#include "column/ipaddr.h"

#include "base/err.h"
#include "base/i256.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>


static int bad(const char *s, size_t n, const type *t, const char *why)
{
    return err_set(ERR_CANNOT_PARSE_TEXT, "Cannot parse string '%.*s' as %s: %s", (int)(n > 200 ? 200 : n), s,
                   t->name, why);
}

/* Integer text → wrapped 64-bit value. */
static int parse_int(const char *s, size_t n, const type *t, bool is_unsigned, uint64_t *out)
{
    size_t i = 0;
    bool neg = false;
    if (i < n && (s[i] == '-' || s[i] == '+')) {
        neg = s[i] == '-';
        i++;
    }
    if (neg && is_unsigned)
        return err_set(ERR_CANNOT_PARSE_NUMBER, "Unsigned type must not contain '-' symbol: value '%.*s' as %s",
                       (int)(n > 200 ? 200 : n), s, t->name);
    if (i == n)
        return bad(s, n, t, "syntax error at begin of string");
    uint64_t v = 0;
    for (; i < n; i++) {
        unsigned d = (unsigned char)s[i] - '0';
        if (d > 9)
            return bad(s, n, t, i == 0 || (i == 1 && (s[0] == '-' || s[0] == '+'))
                                    ? "syntax error at begin of string"
                                    : "syntax error at position of non-digit character");
        v = v * 10 + d;
    }
    *out = neg ? (uint64_t)0 - v : v;
    return 0;
}

static int parse_int128(const char *s, size_t n, const type *t, bool is_unsigned, uint128_t *out)
{
    size_t i = 0;
    bool neg = false;
    if (i < n && (s[i] == '-' || s[i] == '+')) {
        neg = s[i] == '-';
        i++;
    }
    if (neg && is_unsigned)
        return err_set(ERR_CANNOT_PARSE_NUMBER, "Unsigned type must not contain '-' symbol: value '%.*s' as %s",
                       (int)(n > 200 ? 200 : n), s, t->name);
    if (i == n)
        return bad(s, n, t, "syntax error at begin of string");
    uint128_t v = 0;
    for (; i < n; i++) {
        unsigned d = (unsigned char)s[i] - '0';
        if (d > 9)
            return bad(s, n, t, "syntax error at position of non-digit character");
        v = v * 10 + d;
    }
    *out = neg ? (uint128_t)0 - v : v;
    return 0;
}

static int parse_float(const char *s, size_t n, const type *t, double *out)
{
    char tmp[128];
    if (n == 0 || n >= sizeof tmp)
        return bad(s, n, t, n ? "value too long" : "syntax error at begin of string");
    for (size_t i = 0; i < n; i++)
        if (s[i] == 'x' || s[i] == 'X' || s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == 'p' || s[i] == 'P')
            return bad(s, n, t, "syntax error");
    memcpy(tmp, s, n);
    tmp[n] = 0;
    char *end;
    double v = strtod(tmp, &end);
    if (end != tmp + n)
        return bad(s, n, t, end == tmp ? "syntax error at begin of string" : "syntax error");
    *out = v;
    return 0;
}

static int parse_bool(const char *s, size_t n, const type *t, uint8_t *out)
{
    static const char *const yes[] = {"true", "1", "yes", "on", "t", "y", "enable", "enabled"};
    static const char *const no[] = {"false", "0", "no", "off", "f", "n", "disable", "disabled"};
    for (size_t k = 0; k < sizeof yes / sizeof *yes; k++) {
        if (strlen(yes[k]) == n && strncasecmp(s, yes[k], n) == 0) {
            *out = 1;
            return 0;
        }
        if (strlen(no[k]) == n && strncasecmp(s, no[k], n) == 0) {
            *out = 0;
            return 0;
        }
    }
    return err_set(ERR_CANNOT_PARSE_TEXT, "Cannot parse boolean value here: '%.*s', should be true/false, 1/0 or "
                   "on/off/enable/disable/yes/no", (int)(n > 200 ? 200 : n), s);
}

/* Decimal text → scaled integer; extra fractional digits are truncated as ClickHouse's
 * text input does; too many integer digits is ARGUMENT_OUT_OF_BOUND. */
static int parse_decimal(const char *s, size_t n, const type *t, i256 *out)
{
    size_t i = 0;
    bool neg = false;
    if (i < n && (s[i] == '-' || s[i] == '+'))
        neg = s[i++] == '-';
    i256 v = i256_from_u64(0);
    bool over = false; /* cannot happen: digits are bounded below 2^256 */
    int maxdig = t->id == T_DECIMAL256 ? 76 : 38;
    int digits = 0, frac = 0;
    bool any = false, dot = false;
    int64_t exp = 0;
    for (; i < n; i++) {
        char c = s[i];
        if (c >= '0' && c <= '9') {
            any = true;
            if (dot) {
                if (frac >= t->scale)
                    continue; /* truncated */
                frac++;
            }
            if (i256_is_zero(v) && c == '0' && !dot)
                continue;
            if (digits >= maxdig)
                return err_set(ERR_ARGUMENT_OUT_OF_BOUND, "Too many digits in decimal value '%.*s' for %s",
                               (int)(n > 200 ? 200 : n), s, t->name);
            v = i256_mul_small_add(v, 10, (uint64_t)(c - '0'), &over);
            digits++;
        } else if (c == '.' && !dot) {
            dot = true;
        } else if ((c == 'e' || c == 'E') && any) {
            uint64_t e;
            if (parse_int(s + i + 1, n - i - 1, t, false, &e))
                return -1;
            exp = (int64_t)e;
            if (exp > 76 || exp < -76)
                return err_set(ERR_ARGUMENT_OUT_OF_BOUND, "Decimal exponent is out of range in '%.*s'",
                               (int)(n > 200 ? 200 : n), s);
            break;
        } else {
            return bad(s, n, t, any ? "syntax error" : "syntax error at begin of string");
        }
    }
    if (!any)
        return bad(s, n, t, "syntax error at begin of string");
    int sc = frac + 0;
    /* bring to the type's scale, applying the exponent */
    int shift = t->scale - sc + (int)exp;
    while (shift > 0) {
        if (digits >= maxdig)
            return err_set(ERR_ARGUMENT_OUT_OF_BOUND, "Too many digits in decimal value '%.*s' for %s",
                           (int)(n > 200 ? 200 : n), s, t->name);
        v = i256_mul_small_add(v, 10, 0, &over);
        if (!i256_is_zero(v))
            digits++;
        shift--;
    }
    while (shift < 0) {
        i256 r;
        i256_divmod_u(v, i256_from_u64(10), &v, &r);
        shift++;
    }
    if (digits > t->precision)
        return err_set(ERR_ARGUMENT_OUT_OF_BOUND, "Too many digits (%d > %d) in decimal value '%.*s' for %s", digits,
                       t->precision, (int)(n > 200 ? 200 : n), s, t->name);
    *out = neg ? i256_neg(v) : v;
    return 0;
}

static int parse_uuid(const char *s, size_t n, const type *t, uint128_t *out)
{
    uint64_t half[2] = {0, 0};
    int k = 0;
    if (n != 36 && n != 32)
        goto fail;
    for (size_t i = 0; i < n; i++) {
        if (n == 36 && (i == 8 || i == 13 || i == 18 || i == 23)) {
            if (s[i] != '-')
                goto fail;
            continue;
        }
        int h = text_hex_digit(s[i]);
        if (h < 0)
            goto fail;
        half[k / 16] = half[k / 16] << 4 | (uint64_t)h;
        k++;
    }
    *out = (uint128_t)half[1] << 64 | half[0];
    return 0;
fail: /* ClickHouse's code and words */
    (void)t;
    return err_set(ERR_CANNOT_PARSE_UUID, "Cannot parse uuid %.*s: Cannot parse UUID from String",
                   (int)(n > 100 ? 100 : n), s);
}

static const char *tz_for(const type *t, const text_opts *o)
{
    if (t->tz)
        return t->tz;
    return o && o->tz ? o->tz : "UTC";
}

static void skip_ws(const char *s, size_t n, size_t *i);
static int parse_tuple(column *dst, const char *s, size_t n, size_t *i, const text_opts *o, int depth);

int text_parse(column *dst, const char *s, size_t n, const text_opts *o)
{
    const type *t = type_phys(dst->type);
    switch (t->id) {
    case T_NULLABLE: {
        if (n == 2 && s[0] == '\\' && s[1] == 'N') {
            col_push_null(dst);
            return 0;
        }
        if (text_parse(dst->inner, s, n, o))
            return -1;
        col_nullable_commit(dst, false);
        return 0;
    }
    case T_ARRAY:
    case T_MAP:
        return text_parse_array(dst, s, n, o);
    case T_STRING:
        col_push_str(dst, s, n);
        return 0;
    case T_AGGSTATE: { /* the state's bytes, checked as ClickHouse deserializes them */
        const type_agg_hooks *h = type_get_agg_hooks();
        if (h && h->check_state && h->check_state(t, s, n) < 0)
            return -1;
        col_push_str(dst, s, n);
        return 0;
    }
    case T_FIXEDSTRING:
        if (n > t->width)
            return err_set(ERR_TOO_LARGE_STRING_SIZE, "Too large value for %s: '%.*s'", t->name,
                           (int)(n > 200 ? 200 : n), s);
        col_push_str(dst, s, n);
        return 0;
    case T_UINT8: case T_UINT16: case T_UINT32: case T_UINT64:
    case T_INT8: case T_INT16: case T_INT32: case T_INT64: {
        uint64_t v;
        bool u = t->id <= T_UINT64;
        if (parse_int(s, n, t, u, &v))
            return -1;
        uint8_t b8 = (uint8_t)v;
        uint16_t b16 = (uint16_t)v;
        uint32_t b32 = (uint32_t)v;
        const void *p = t->width == 1 ? (const void *)&b8 : t->width == 2 ? (const void *)&b16
                      : t->width == 4 ? (const void *)&b32 : (const void *)&v;
        col_push_fixed(dst, p);
        return 0;
    }
    case T_UINT128: case T_INT128: {
        uint128_t v;
        if (parse_int128(s, n, t, t->id == T_UINT128, &v))
            return -1;
        col_push_fixed(dst, &v);
        return 0;
    }
    case T_FLOAT32: case T_FLOAT64: {
        double v;
        if (parse_float(s, n, t, &v))
            return -1;
        if (t->id == T_FLOAT32) {
            float f = (float)v;
            col_push_fixed(dst, &f);
        } else {
            col_push_fixed(dst, &v);
        }
        return 0;
    }
    case T_BOOL: {
        uint8_t b;
        if (parse_bool(s, n, t, &b))
            return -1;
        col_push_fixed(dst, &b);
        return 0;
    }
    case T_UINT256: case T_INT256: {
        i256 v;
        int rc = t->id == T_UINT256 ? i256_from_str_u(s, n, &v) : i256_from_str_s(s, n, &v);
        if (rc == -2)
            return err_set(ERR_CANNOT_PARSE_NUMBER, "Unsigned type must not contain '-' symbol: value '%.*s' as %s",
                           (int)(n > 200 ? 200 : n), s, t->name);
        if (rc)
            return bad(s, n, t, n && (s[0] >= '0' && s[0] <= '9') ? "syntax error at position of non-digit character"
                                                             : "syntax error at begin of string");
        col_push_fixed(dst, &v);
        return 0;
    }
    case T_DECIMAL256: {
        i256 v;
        if (parse_decimal(s, n, t, &v))
            return -1;
        col_push_fixed(dst, &v);
        return 0;
    }
    case T_DECIMAL32: case T_DECIMAL64: case T_DECIMAL128: {
        i256 w;
        if (parse_decimal(s, n, t, &w))
            return -1;
        int128_t v = (int128_t)i256_low128(w);
        int32_t v32 = (int32_t)v;
        int64_t v64 = (int64_t)v;
        col_push_fixed(dst, t->id == T_DECIMAL32 ? (const void *)&v32 : t->id == T_DECIMAL64 ? (const void *)&v64
                                                                                            : (const void *)&v);
        return 0;
    }
    case T_UUID: {
        uint128_t v;
        if (parse_uuid(s, n, t, &v))
            return -1;
        col_push_fixed(dst, &v);
        return 0;
    }
    case T_IPV4: {
        uint32_t v;
        if (!ipaddr_parse_v4(s, n, &v))
            return err_set(ERR_CANNOT_PARSE_IPV4, "Cannot parse IPv4 %.*s", (int)(n > 100 ? 100 : n), s);
        col_push_fixed(dst, &v);
        return 0;
    }
    case T_IPV6: {
        uint8_t v[16];
        if (!ipaddr_parse_v6(s, n, v))
            return err_set(ERR_CANNOT_PARSE_IPV6, "Cannot parse IPv6 %.*s", (int)(n > 100 ? 100 : n), s);
        col_push_fixed(dst, v);
        return 0;
    }
    case T_ENUM8: case T_ENUM16: {
        for (int k = 0; k < t->nitems; k++)
            if (strlen(t->items[k].name) == n && memcmp(t->items[k].name, s, n) == 0) {
                int8_t v8 = (int8_t)t->items[k].value;
                int16_t v16 = t->items[k].value;
                col_push_fixed(dst, t->id == T_ENUM8 ? (const void *)&v8 : (const void *)&v16);
                return 0;
            }
        uint64_t num;
        err_clear();
        if (n && parse_int(s, n, t, false, &num) == 0) {
            for (int k = 0; k < t->nitems; k++)
                if ((int64_t)t->items[k].value == (int64_t)num) {
                    int8_t v8 = (int8_t)t->items[k].value;
                    int16_t v16 = t->items[k].value;
                    col_push_fixed(dst, t->id == T_ENUM8 ? (const void *)&v8 : (const void *)&v16);
                    return 0;
                }
        }
        return err_set(ERR_UNKNOWN_ELEMENT_OF_ENUM, "Unknown element '%.*s' for enum %s", (int)(n > 200 ? 200 : n),
                       s, t->name);
    }
    case T_DATE: case T_DATE32: {
        int64_t days;
        if (dt_parse_date(s, n, &days))
            return -1;
        if (t->id == T_DATE) {
            uint16_t d = days < 0 ? 0 : days > 65535 ? 65535 : (uint16_t)days;
            col_push_fixed(dst, &d);
        } else {
            int32_t d = days < -25567 ? -25567 : days > 120529 ? 120529 : (int32_t)days;
            col_push_fixed(dst, &d);
        }
        return 0;
    }
    case T_DATETIME: case T_DATETIME64: {
        const tz_info *tz = tz_get(tz_for(t, o));
        if (!tz)
            return -1;
        int64_t v;
        if (t->id == T_DATETIME) {
            if (dt_parse_datetime(s, n, tz, false, &v))
                return -1;
            uint32_t u = v < 0 ? 0 : v > 4294967295LL ? 4294967295u : (uint32_t)v;
            col_push_fixed(dst, &u);
        } else {
            if (dt_parse_datetime64(s, n, t->scale, tz, false, &v))
                return -1;
            col_push_fixed(dst, &v);
        }
        return 0;
    }
    case T_NOTHING: {
        uint8_t z = 0;
        col_push_fixed(dst, &z);
        return 0;
    }
    case T_TUPLE: {
        size_t i = 0;
        if (parse_tuple(dst, s, n, &i, o, 0))
            return -1;
        skip_ws(s, n, &i);
        if (i != n)
            return err_set(ERR_UNEXPECTED_DATA_AFTER_PARSED_VALUE, "Cannot parse tuple '%.*s' as %s: unexpected text after ')'",
                           (int)(n > 200 ? 200 : n), s, dst->type->name);
        return 0;
    }
    default:
        return err_set(ERR_NOT_IMPLEMENTED, "Parsing text as %s is not supported", dst->type->name);
    }
}

/* ---- quoted literal lists: [1, 'a', NULL, [2]] ---- */

static void skip_ws(const char *s, size_t n, size_t *i)
{
    while (*i < n && (s[*i] == ' ' || s[*i] == '\t' || s[*i] == '\n' || s[*i] == '\r'))
        (*i)++;
}

/* Unescapes a quoted string starting at s[*i] (the quote) into out. */
static int read_quoted(const char *s, size_t n, size_t *i, buf *out)
{
    char q = s[(*i)++];
    while (*i < n) {
        char c = s[(*i)++];
        if (c == q) {
            if (*i < n && s[*i] == q) { /* doubled quote */
                buf_putc(out, q);
                (*i)++;
                continue;
            }
            return 0;
        }
        if (c == '\\' && *i < n) {
            char e = s[(*i)++];
            switch (e) {
            case 'n': c = '\n'; break;
            case 't': c = '\t'; break;
            case 'r': c = '\r'; break;
            case '0': c = '\0'; break;
            case 'b': c = '\b'; break;
            case 'f': c = '\f'; break;
            case 'a': c = '\a'; break;
            case 'v': c = '\v'; break;
            case 'x':
                if (*i + 1 < n && text_hex_digit(s[*i]) >= 0 && text_hex_digit(s[*i + 1]) >= 0) {
                    c = (char)(text_hex_digit(s[*i]) * 16 + text_hex_digit(s[*i + 1]));
                    *i += 2;
                } else {
                    c = 'x';
                }
                break;
            default: c = e; break;
            }
        }
        buf_putc(out, c);
    }
    return err_set(ERR_CANNOT_PARSE_QUOTED_STRING, "Cannot parse quoted string: expected closing quote in '%.*s'",
                   (int)(n > 200 ? 200 : n), s);
}

static int parse_list(column *dst, const char *s, size_t n, size_t *i, const text_opts *o, int depth);

static int parse_map(column *dst, const char *s, size_t n, size_t *i, const text_opts *o, int depth);

/* One element of a quoted-style list, tuple or map: a nested array, tuple or map, a quoted
 * string, NULL, or a bare token up to the next character of `stops`. */
static int parse_elem_until(column *el, const char *s, size_t n, size_t *i, const text_opts *o, int depth, buf *tmp,
                            const char *stops)
{
    const type *et = type_phys(el->type);
    const type *base = type_base(el->type);
    skip_ws(s, n, i);
    if (base->id == T_MAP)
        return parse_map(el, s, n, i, o, depth + 1);
    if (base->id == T_ARRAY) {
        if (et->id == T_NULLABLE)
            return err_set(ERR_CANNOT_READ_ARRAY_FROM_TEXT, "Nullable(Array) cannot exist");
        return parse_list(el, s, n, i, o, depth + 1);
    }
    if (base->id == T_TUPLE)
        return parse_tuple(el, s, n, i, o, depth + 1);
    if (*i < n && (s[*i] == '\'' || s[*i] == '"')) {
        tmp->len = 0;
        if (read_quoted(s, n, i, tmp))
            return -1;
        return text_parse(el, (const char *)tmp->p, tmp->len, o);
    }
    size_t st = *i;
    while (*i < n && !strchr(stops, s[*i]))
        (*i)++;
    size_t e = *i;
    while (e > st && (s[e - 1] == ' ' || s[e - 1] == '\t' || s[e - 1] == '\n' || s[e - 1] == '\r'))
        e--;
    if (e - st == 4 && strncasecmp(s + st, "NULL", 4) == 0) {
        if (et->id == T_NULLABLE)
            col_push_null(el);
        else
            col_push_default(el);
        return 0;
    }
    return text_parse(el, s + st, e - st, o);
}

static int parse_elem(column *el, const char *s, size_t n, size_t *i, const text_opts *o, int depth, buf *tmp)
{
    return parse_elem_until(el, s, n, i, o, depth, tmp, ",])");
}

/* The opening bracket brackets[0] of an array or map row: -1 with `code` when it is not
 * there, 0 when the row is empty (committed, closing bracket consumed), 1 to read elements. */
static int open_nested(column *dst, const char *s, size_t n, size_t *i, const char *brackets, int code,
                       const char *what)
{
    skip_ws(s, n, i);
    if (*i >= n || s[*i] != brackets[0])
        return err_set(code, "Cannot parse %s '%.*s' as %s: expected '%c'", what, (int)(n > 200 ? 200 : n), s,
                       dst->type->name, brackets[0]);
    (*i)++;
    skip_ws(s, n, i);
    if (*i < n && s[*i] == brackets[1]) {
        (*i)++;
        col_array_commit(dst);
        return 0;
    }
    return 1;
}

/* {k:v, …}: a Map row, keys and values in quoted style, as ClickHouse writes maps. */
static int parse_map(column *dst, const char *s, size_t n, size_t *i, const text_opts *o, int depth)
{
    if (depth > 100)
        return err_set(ERR_TOO_DEEP_AST, "Too deep nesting in '%.*s'", (int)(n > 200 ? 200 : n), s);
    column *kv = dst->inner;
    size_t len0 = kv->len;
    int open = open_nested(dst, s, n, i, "{}", ERR_CANNOT_PARSE_INPUT_ASSERTION_FAILED, "map");
    if (open <= 0)
        return open;
    buf tmp = {0};
    int rc = -1;
    const char *want = NULL;
    for (;;) {
        if (parse_elem_until(kv->fields[0], s, n, i, o, depth, &tmp, ":,}"))
            goto out;
        skip_ws(s, n, i);
        if (*i >= n || s[*i] != ':') {
            want = "':'";
            break;
        }
        (*i)++;
        if (parse_elem_until(kv->fields[1], s, n, i, o, depth, &tmp, ",}"))
            goto out;
        kv->len++;
        skip_ws(s, n, i);
        if (*i < n && s[*i] == ',') {
            (*i)++;
            continue;
        }
        if (*i < n && s[*i] == '}') {
            (*i)++;
            col_array_commit(dst);
            rc = 0;
            goto out;
        }
        want = "',' or '}'";
        break;
    }
    err_set(ERR_CANNOT_PARSE_INPUT_ASSERTION_FAILED, "Cannot parse map '%.*s' as %s: expected %s",
            (int)(n > 200 ? 200 : n), s, dst->type->name, want);
out:
    if (rc) { /* keep keys and values aligned: drop what this row pushed */
        for (int f = 0; f < 2; f++)
            if (kv->fields[f]->len > len0) {
                column *cut = col_slice(kv->fields[f], 0, len0);
                col_free(kv->fields[f]);
                kv->fields[f] = cut;
            }
        kv->len = len0;
    }
    buf_free(&tmp);
    return rc;
}

static int parse_list(column *dst, const char *s, size_t n, size_t *i, const text_opts *o, int depth)
{
    if (depth > 100)
        return err_set(ERR_TOO_DEEP_AST, "Too deep nesting of arrays in '%.*s'", (int)(n > 200 ? 200 : n), s);
    column *el = dst->inner;
    int open = open_nested(dst, s, n, i, "[]", ERR_CANNOT_READ_ARRAY_FROM_TEXT, "array");
    if (open <= 0)
        return open;
    buf tmp = {0};
    int rc = -1;
    for (;;) {
        skip_ws(s, n, i);
        if (*i >= n)
            break;
        if (parse_elem(el, s, n, i, o, depth, &tmp))
            goto out;
        skip_ws(s, n, i);
        if (*i < n && s[*i] == ',') {
            (*i)++;
            continue;
        }
        if (*i < n && s[*i] == ']') {
            (*i)++;
            col_array_commit(dst);
            rc = 0;
            goto out;
        }
        break;
    }
    err_set(ERR_CANNOT_PARSE_INPUT_ASSERTION_FAILED, "Cannot parse array '%.*s' as %s: expected ',' or ']'", (int)(n > 200 ? 200 : n),
            s, dst->type->name);
out:
    buf_free(&tmp);
    return rc;
}

/* (v1, v2, …): one value per field, as ClickHouse writes tuples in text formats. */
static int parse_tuple(column *dst, const char *s, size_t n, size_t *i, const text_opts *o, int depth)
{
    if (depth > 100)
        return err_set(ERR_TOO_DEEP_AST, "Too deep nesting in '%.*s'", (int)(n > 200 ? 200 : n), s);
    skip_ws(s, n, i);
    if (*i >= n || s[*i] != '(')
        return err_set(ERR_CANNOT_PARSE_INPUT_ASSERTION_FAILED, "Cannot parse tuple '%.*s' as %s: expected '('",
                       (int)(n > 200 ? 200 : n), s, dst->type->name);
    (*i)++;
    buf tmp = {0};
    int rc = -1;
    size_t len0 = dst->len;
    for (int f = 0; f < dst->nfields; f++) {
        if (f > 0) {
            skip_ws(s, n, i);
            if (*i >= n || s[*i] != ',') {
                err_set(ERR_CANNOT_PARSE_INPUT_ASSERTION_FAILED, "Cannot parse tuple '%.*s' as %s: expected ','",
                        (int)(n > 200 ? 200 : n), s, dst->type->name);
                goto out;
            }
            (*i)++;
        }
        if (parse_elem(dst->fields[f], s, n, i, o, depth, &tmp))
            goto out;
    }
    skip_ws(s, n, i);
    if (*i >= n || s[*i] != ')') {
        err_set(ERR_CANNOT_PARSE_INPUT_ASSERTION_FAILED, "Cannot parse tuple '%.*s' as %s: expected ')'",
                (int)(n > 200 ? 200 : n), s, dst->type->name);
        goto out;
    }
    (*i)++;
    dst->len++;
    rc = 0;
out:
    if (rc) /* keep the fields aligned: drop what this row pushed */
        for (int f = 0; f < dst->nfields; f++)
            if (dst->fields[f]->len > len0) {
                column *cut = col_slice(dst->fields[f], 0, len0);
                col_free(dst->fields[f]);
                dst->fields[f] = cut;
            }
    buf_free(&tmp);
    return rc;
}

int text_parse_array(column *dst, const char *s, size_t n, const text_opts *o)
{
    bool map = type_phys(dst->type)->id == T_MAP;
    if (type_phys(dst->type)->id != T_ARRAY && !map)
        return err_set(ERR_LOGICAL_ERROR, "text_parse_array on a column of type %s", dst->type->name);
    /* On failure the array column may hold pushed elements of the bad row; roll them back
     * so the column stays consistent (len rows, offsets matching). */
    size_t len0 = dst->len;
    uint64_t inner0 = col_offs(dst)[len0];
    size_t i = 0;
    if ((map ? parse_map : parse_list)(dst, s, n, &i, o, 0) == 0) {
        skip_ws(s, n, &i);
        if (i == n)
            return 0;
        err_set(ERR_UNEXPECTED_DATA_AFTER_PARSED_VALUE, "Cannot parse %s '%.*s' as %s: unexpected text after '%c'",
                map ? "map" : "array", (int)(n > 200 ? 200 : n), s, dst->type->name, map ? '}' : ']');
    }
    /* rollback: truncate */
    column *cut = col_slice(dst->inner, 0, (size_t)inner0);
    col_free(dst->inner);
    dst->inner = cut;
    dst->len = len0;
    dst->offs.len = (len0 + 1) * sizeof(uint64_t);
    return -1;
}
