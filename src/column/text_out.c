/* Output half of text.h: values as text in ClickHouse's escaping styles.
 *
 * Hot path: integers are formatted with a hand-written itoa (no printf), strings are
 * escaped with a scan that copies runs of plain bytes at once, and nothing allocates per
 * value (all output goes into the caller's buf). */
#include "column/text.h"
#include "column/ipaddr.h"
#include "column/text_out_util.h"
#include "base/i256.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void text_opts_default(text_opts *o)
{
    o->tz = "UTC";
    /* ClickHouse 26.7 defaults: output_format_json_quote_64bit_integers = 0. */
    o->json_quote_64bit_integers = false;
    o->json_quote_decimals = false;
    o->csv_delimiter = ',';
}

/* ---- integers ---------------------------------------------------------------------- */

static const char digit_pairs[201] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

size_t text_u64(uint64_t v, char *out)
{
    char tmp[24];
    char *p = tmp + sizeof tmp;
    while (v >= 100) {
        unsigned r = (unsigned)(v % 100);
        v /= 100;
        p -= 2;
        memcpy(p, digit_pairs + 2 * r, 2);
    }
    if (v >= 10) {
        p -= 2;
        memcpy(p, digit_pairs + 2 * v, 2);
    } else {
        *--p = (char)('0' + v);
    }
    size_t n = (size_t)(tmp + sizeof tmp - p);
    memcpy(out, p, n);
    return n;
}

size_t text_i64(int64_t v, char *out)
{
    if (v < 0) {
        out[0] = '-';
        return 1 + text_u64(0 - (uint64_t)v, out + 1);
    }
    return text_u64((uint64_t)v, out);
}

size_t text_u128(uint128_t v, char *out)
{
    if (v <= UINT64_MAX)
        return text_u64((uint64_t)v, out);
    char tmp[48];
    char *p = tmp + sizeof tmp;
    /* Peel 19 digits at a time so most of the work is 64-bit division. */
    const uint64_t e19 = 10000000000000000000ull;
    while (v > UINT64_MAX) {
        uint64_t lo = (uint64_t)(v % e19);
        v /= e19;
        for (int k = 0; k < 19; k++) {
            *--p = (char)('0' + lo % 10);
            lo /= 10;
        }
    }
    char head[24];
    size_t hn = text_u64((uint64_t)v, head);
    size_t tn = (size_t)(tmp + sizeof tmp - p);
    memcpy(out, head, hn);
    memcpy(out + hn, p, tn);
    return hn + tn;
}

size_t text_i128(int128_t v, char *out)
{
    if (v < 0) {
        out[0] = '-';
        return 1 + text_u128((uint128_t)0 - (uint128_t)v, out + 1);
    }
    return text_u128((uint128_t)v, out);
}

/* ---- floats ------------------------------------------------------------------------ */

/* Lays out `k` significant digits d[] with decimal point position n (value =
 * 0.d1d2.. * 10^n) the way ClickHouse prints floats (JavaScript's Number::toString rules,
 * without the '+' in exponents). */
static size_t float_layout(bool neg, const char *d, int k, int n, char *out)
{
    char *p = out;
    if (neg)
        *p++ = '-';
    if (k <= n && n <= 21) {
        memcpy(p, d, (size_t)k);
        p += k;
        for (int i = k; i < n; i++)
            *p++ = '0';
    } else if (0 < n && n <= 21) {
        memcpy(p, d, (size_t)n);
        p += n;
        *p++ = '.';
        memcpy(p, d + n, (size_t)(k - n));
        p += k - n;
    } else if (-6 < n && n <= 0) {
        *p++ = '0';
        *p++ = '.';
        for (int i = 0; i < -n; i++)
            *p++ = '0';
        memcpy(p, d, (size_t)k);
        p += k;
    } else {
        *p++ = d[0];
        if (k > 1) {
            *p++ = '.';
            memcpy(p, d + 1, (size_t)(k - 1));
            p += k - 1;
        }
        *p++ = 'e';
        p += text_i64(n - 1, p);
    }
    return (size_t)(p - out);
}

/* Formats |v| with `prec` significant digits in %e style; returns true if it parses back
 * to v (as a double, or as a float when is_f32). */
static bool try_prec(double v, int prec, bool is_f32, char *s, size_t cap)
{
    snprintf(s, cap, "%.*e", prec - 1, v);
    if (is_f32)
        return strtof(s, NULL) == (float)v;
    return strtod(s, NULL) == v;
}

static size_t format_float(double v, bool is_f32, char *out)
{
    if (isnan(v)) {
        /* ClickHouse prints every NaN as "nan", whatever its sign bit (0/0 yields a
         * negative NaN on x86). */
        memcpy(out, "nan", 3);
        return 3;
    }
    if (isinf(v)) {
        if (v < 0) {
            memcpy(out, "-inf", 4);
            return 4;
        }
        memcpy(out, "inf", 3);
        return 3;
    }
    bool neg = signbit(v);
    double a = fabs(v);
    if (a == 0) {
        if (neg) {
            memcpy(out, "-0", 2);
            return 2;
        }
        out[0] = '0';
        return 1;
    }
    /* Integers below 2^53 print exactly as themselves (up to 21 digits plain anyway). */
    if (a < 9007199254740992.0 && a == (double)(int64_t)a) {
        char *p = out;
        if (neg)
            *p++ = '-';
        return (size_t)(p - out) + text_u64((uint64_t)a, p);
    }
    /* Shortest precision that round-trips. Round-tripping is monotonic in the precision,
     * so a binary search finds it; most "nice" values succeed at 15 (doubles) / 6. */
    char s[64];
    int maxp = is_f32 ? 9 : 17;
    int guess = is_f32 ? 6 : 15;
    int lo, hi; /* answer in [lo, hi]; hi known to round-trip */
    if (try_prec(a, guess, is_f32, s, sizeof s)) {
        lo = 1;
        hi = guess;
    } else {
        lo = guess + 1;
        hi = maxp;
    }
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (try_prec(a, mid, is_f32, s, sizeof s))
            hi = mid;
        else
            lo = mid + 1;
    }
    try_prec(a, hi, is_f32, s, sizeof s);
    /* s = "d.ddde±XX" */
    char digits[32];
    int k = 0;
    const char *q = s;
    for (; *q && *q != 'e'; q++)
        if (*q >= '0' && *q <= '9')
            digits[k++] = *q;
    int e = atoi(q + 1);
    while (k > 1 && digits[k - 1] == '0')
        k--;
    return float_layout(neg, digits, k, e + 1, out);
}

size_t text_format_f64(double v, char *out) { return format_float(v, false, out); }
size_t text_format_f32(float v, char *out) { return format_float((double)v, true, out); }

/* ---- strings ----------------------------------------------------------------------- */

/* Escaped (TSV) and quoted (SQL literal) styles share one escape set. */
static void put_escaped(buf *out, const char *s, size_t n)
{
    buf_reserve(out, n + 2);
    size_t start = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        char esc;
        switch (c) {
        case '\t': esc = 't'; break;
        case '\n': esc = 'n'; break;
        case '\\': esc = '\\'; break;
        case '\'': esc = '\''; break;
        case '\0': esc = '0'; break;
        case '\b': esc = 'b'; break;
        case '\f': esc = 'f'; break;
        case '\r': esc = 'r'; break;
        default: continue;
        }
        buf_append(out, s + start, i - start);
        char two[2] = {'\\', esc};
        buf_append(out, two, 2);
        start = i + 1;
    }
    buf_append(out, s + start, n - start);
}

static void put_csv(buf *out, const char *s, size_t n)
{
    buf_reserve(out, n + 2);
    out->p[out->len++] = '"';
    size_t start = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '"') {
            buf_append(out, s + start, i + 1 - start);
            buf_putc(out, '"');
            start = i + 1;
        }
    }
    buf_append(out, s + start, n - start);
    buf_putc(out, '"');
}

void text_put_json_string(buf *out, const char *s, size_t n, bool escape_slash)
{
    static const char hex[] = "0123456789ABCDEF";
    buf_reserve(out, n + 2);
    out->p[out->len++] = '"';
    size_t start = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        char esc = 0;
        switch (c) {
        case '"': esc = '"'; break;
        case '\\': esc = '\\'; break;
        case '/':
            if (!escape_slash)
                continue;
            esc = '/';
            break;
        case '\b': esc = 'b'; break;
        case '\f': esc = 'f'; break;
        case '\n': esc = 'n'; break;
        case '\r': esc = 'r'; break;
        case '\t': esc = 't'; break;
        default:
            if (c < 0x20) {
                buf_append(out, s + start, i - start);
                char u[6] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 15]};
                buf_append(out, u, 6);
                start = i + 1;
            } else if (c == 0xE2 && i + 2 < n && (unsigned char)s[i + 1] == 0x80 &&
                       ((unsigned char)s[i + 2] == 0xA8 || (unsigned char)s[i + 2] == 0xA9)) {
                /* U+2028 / U+2029 break JavaScript string literals. */
                buf_append(out, s + start, i - start);
                buf_puts(out, (unsigned char)s[i + 2] == 0xA8 ? "\\u2028" : "\\u2029");
                i += 2;
                start = i + 1;
            }
            continue;
        }
        buf_append(out, s + start, i - start);
        char two[2] = {'\\', esc};
        buf_append(out, two, 2);
        start = i + 1;
    }
    if (n > start) /* s may be NULL when n is 0 */
        buf_append(out, s + start, n - start);
    buf_putc(out, '"');
}

void text_write_string(buf *out, const char *s, size_t n, text_style style)
{
    switch (style) {
    case TEXT_RAW: buf_append(out, s, n); break;
    case TEXT_TSV: put_escaped(out, s, n); break;
    case TEXT_CSV: put_csv(out, s, n); break;
    case TEXT_JSON: text_put_json_string(out, s, n, true); break;
    case TEXT_QUOTED:
        buf_putc(out, '\'');
        put_escaped(out, s, n);
        buf_putc(out, '\'');
        break;
    }
}

/* ---- values ------------------------------------------------------------------------ */

/* Writes an unquoted token (date, UUID, enum name) that needs quotes in CSV/JSON/quoted
 * styles but contains nothing that needs escaping (enum names may, so they go through
 * text_write_string). */
static void put_token(buf *out, const char *s, size_t n, text_style style)
{
    char q = style == TEXT_QUOTED ? '\'' : style == TEXT_CSV || style == TEXT_JSON ? '"' : 0;
    buf_reserve(out, n + 2);
    if (q)
        out->p[out->len++] = (uint8_t)q;
    memcpy(out->p + out->len, s, n);
    out->len += n;
    if (q)
        out->p[out->len++] = (uint8_t)q;
}

static const char *enum_name(const type *t, int v)
{
    int lo = 0, hi = t->nitems - 1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        if (t->items[mid].value == v)
            return t->items[mid].name;
        if (t->items[mid].value < v)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return NULL;
}

/* A scaled decimal of any width (Decimal32..256 widen to i256) as ClickHouse prints it. */
static size_t format_decimal(i256 v, int scale, char *out)
{
    char *p = out;
    if (i256_is_neg(v)) {
        *p++ = '-';
        v = i256_neg(v);
    }
    i256 m = i256_from_u64(1);
    bool over = false;
    for (int i = 0; i < scale; i++)
        m = i256_mul_small_add(m, 10, 0, &over);
    i256 ip, fp;
    i256_divmod_u(v, m, &ip, &fp);
    p += i256_to_str_u(ip, p);
    if (scale > 0 && !i256_is_zero(fp)) {
        /* ClickHouse drops trailing zeros (output_format_decimal_trailing_zeros = 0). */
        char digits[I256_STR_MAX], frac[I256_STR_MAX];
        size_t nd = i256_to_str_u(fp, digits);
        memset(frac, '0', (size_t)scale);
        memcpy(frac + scale - nd, digits, nd);
        int k = scale;
        while (k > 0 && frac[k - 1] == '0')
            k--;
        *p++ = '.';
        memcpy(p, frac, (size_t)k);
        p += k;
    }
    return (size_t)(p - out);
}

static size_t format_uuid(uint128_t v, char *out)
{
    static const char hex[] = "0123456789abcdef";
    /* ClickHouse's UUID layout (and text_in.c's): the first 16 hex digits are the low
     * 64 bits, the last 16 the high 64 bits. */
    uint64_t hi = (uint64_t)v, lo = (uint64_t)(v >> 64);
    char h[32];
    for (int i = 0; i < 16; i++) {
        h[i] = hex[(hi >> (60 - 4 * i)) & 15];
        h[16 + i] = hex[(lo >> (60 - 4 * i)) & 15];
    }
    memcpy(out, h, 8);
    out[8] = '-';
    memcpy(out + 9, h + 8, 4);
    out[13] = '-';
    memcpy(out + 14, h + 12, 4);
    out[18] = '-';
    memcpy(out + 19, h + 16, 4);
    out[23] = '-';
    memcpy(out + 24, h + 20, 12);
    return 36;
}

static const tz_info *value_tz(const type *t, const text_opts *o)
{
    const char *name = t->tz ? t->tz : (o && o->tz ? o->tz : "UTC");
    const tz_info *z = tz_get(name);
    return z ? z : tz_get("UTC");
}

static void put_null(buf *out, text_style style)
{
    switch (style) {
    case TEXT_JSON: buf_append(out, "null", 4); break;
    case TEXT_QUOTED: buf_append(out, "NULL", 4); break;
    default: buf_append(out, "\\N", 2); break;
    }
}

static text_style nested_style(text_style s) { return s == TEXT_JSON ? TEXT_JSON : TEXT_QUOTED; }

static void write_value(buf *out, const column *c, size_t i, text_style style, const text_opts *o);

static void write_array(buf *out, const column *c, size_t i, text_style style, const text_opts *o)
{
    const uint64_t *offs = col_offs(c);
    uint64_t from = offs[i], to = offs[i + 1];
    text_style ns = nested_style(style);
    buf_putc(out, '[');
    for (uint64_t j = from; j < to; j++) {
        if (j > from)
            buf_putc(out, ',');
        write_value(out, c->inner, (size_t)j, ns, o);
    }
    buf_putc(out, ']');
}

/* {k:v,...}: keys and values in quoted style; JSON writes an object whose keys are the keys'
 * text as JSON strings, as ClickHouse does. */
static void write_map(buf *out, const column *c, size_t i, text_style style, const text_opts *o)
{
    const uint64_t *offs = col_offs(c);
    const column *keys = c->inner->fields[0], *vals = c->inner->fields[1];
    buf_putc(out, '{');
    for (uint64_t j = offs[i]; j < offs[i + 1]; j++) {
        if (j > offs[i])
            buf_putc(out, ',');
        if (style == TEXT_JSON && type_base(keys->type)->id != T_STRING) {
            static _Thread_local buf key;
            key.len = 0;
            write_value(&key, keys, (size_t)j, TEXT_TSV, o);
            text_put_json_string(out, (const char *)key.p, key.len, true);
        } else
            write_value(out, keys, (size_t)j, nested_style(style), o);
        buf_putc(out, ':');
        write_value(out, vals, (size_t)j, nested_style(style), o);
    }
    buf_putc(out, '}');
}

static void write_tuple(buf *out, const column *c, size_t i, text_style style, const text_opts *o)
{
    const type *t = type_phys(c->type);
    if (style == TEXT_JSON) {
        bool named = t->field_names != NULL;
        buf_putc(out, named ? '{' : '[');
        for (int f = 0; f < c->nfields; f++) {
            if (f)
                buf_putc(out, ',');
            if (named) {
                text_put_json_string(out, t->field_names[f], strlen(t->field_names[f]), true);
                buf_putc(out, ':');
            }
            write_value(out, c->fields[f], i, TEXT_JSON, o);
        }
        buf_putc(out, named ? '}' : ']');
        return;
    }
    if (style == TEXT_CSV) {
        /* CSV writes a tuple as separate fields. */
        char d = o && o->csv_delimiter ? o->csv_delimiter : ',';
        for (int f = 0; f < c->nfields; f++) {
            if (f)
                buf_putc(out, d);
            write_value(out, c->fields[f], i, TEXT_CSV, o);
        }
        return;
    }
    buf_putc(out, '(');
    for (int f = 0; f < c->nfields; f++) {
        if (f)
            buf_putc(out, ',');
        write_value(out, c->fields[f], i, TEXT_QUOTED, o);
    }
    buf_putc(out, ')');
}

static void write_value(buf *out, const column *c, size_t i, text_style style, const text_opts *o)
{
    const type *t = type_phys(c->type);
    i = col_idx(c, i);
    char tmp[96];
    size_t n;
    switch (t->id) {
    case T_NOTHING:
        put_null(out, style);
        return;
    case T_UINT8: n = text_u64(COL_DATA(c, uint8_t)[i], tmp); break;
    case T_UINT16: n = text_u64(COL_DATA(c, uint16_t)[i], tmp); break;
    case T_UINT32: n = text_u64(COL_DATA(c, uint32_t)[i], tmp); break;
    case T_UINT64:
        n = text_u64(COL_DATA(c, uint64_t)[i], tmp);
        if (style == TEXT_JSON && o && o->json_quote_64bit_integers) {
            put_token(out, tmp, n, style);
            return;
        }
        break;
    case T_INT8: n = text_i64(COL_DATA(c, int8_t)[i], tmp); break;
    case T_INT16: n = text_i64(COL_DATA(c, int16_t)[i], tmp); break;
    case T_INT32: n = text_i64(COL_DATA(c, int32_t)[i], tmp); break;
    case T_INT64:
        n = text_i64(COL_DATA(c, int64_t)[i], tmp);
        if (style == TEXT_JSON && o && o->json_quote_64bit_integers) {
            put_token(out, tmp, n, style);
            return;
        }
        break;
    case T_UINT128:
        n = text_u128(COL_DATA(c, uint128_t)[i], tmp);
        if (style == TEXT_JSON && o && o->json_quote_64bit_integers) {
            put_token(out, tmp, n, style);
            return;
        }
        break;
    case T_INT128:
        n = text_i128(COL_DATA(c, int128_t)[i], tmp);
        if (style == TEXT_JSON && o && o->json_quote_64bit_integers) {
            put_token(out, tmp, n, style);
            return;
        }
        break;
    case T_UINT256:
    case T_INT256: {
        i256 v;
        memcpy(&v, c->data.p + (size_t)i * 32, 32);
        n = t->id == T_UINT256 ? i256_to_str_u(v, tmp) : i256_to_str_s(v, tmp);
        if (style == TEXT_JSON && o && o->json_quote_64bit_integers) {
            put_token(out, tmp, n, style);
            return;
        }
        break;
    }
    case T_FLOAT32:
    case T_FLOAT64: {
        double v = t->id == T_FLOAT32 ? (double)COL_DATA(c, float)[i] : COL_DATA(c, double)[i];
        if (style == TEXT_JSON && !isfinite(v)) {
            buf_append(out, "null", 4);
            return;
        }
        n = t->id == T_FLOAT32 ? text_format_f32(COL_DATA(c, float)[i], tmp) : text_format_f64(v, tmp);
        break;
    }
    case T_BOOL:
        if (COL_DATA(c, uint8_t)[i])
            buf_append(out, "true", 4);
        else
            buf_append(out, "false", 5);
        return;
    case T_STRING:
    case T_FIXEDSTRING:
    case T_AGGSTATE: { /* a state: its serialized bytes, escaped like a String (ClickHouse) */
        size_t len;
        const char *s = col_str(c, i, &len);
        text_write_string(out, s, len, style);
        return;
    }
    case T_DATE:
        put_token(out, tmp, dt_format_date(COL_DATA(c, uint16_t)[i], tmp), style);
        return;
    case T_DATE32:
        put_token(out, tmp, dt_format_date(COL_DATA(c, int32_t)[i], tmp), style);
        return;
    case T_DATETIME:
        put_token(out, tmp, dt_format_datetime(COL_DATA(c, uint32_t)[i], value_tz(t, o), tmp), style);
        return;
    case T_DATETIME64:
        put_token(out, tmp,
                  dt_format_datetime64(COL_DATA(c, int64_t)[i], t->scale, value_tz(t, o), tmp), style);
        return;
    case T_ENUM8:
    case T_ENUM16: {
        int v = t->id == T_ENUM8 ? COL_DATA(c, int8_t)[i] : COL_DATA(c, int16_t)[i];
        const char *name = enum_name(t, v);
        if (!name) { /* not a valid value: print the number rather than crash */
            n = text_i64(v, tmp);
            break;
        }
        text_write_string(out, name, strlen(name), style);
        return;
    }
    case T_DECIMAL32:
    case T_DECIMAL64:
    case T_DECIMAL128:
    case T_DECIMAL256: {
        i256 v;
        if (t->id == T_DECIMAL256)
            memcpy(&v, c->data.p + (size_t)i * 32, 32);
        else
            v = i256_from_i128(t->id == T_DECIMAL32   ? COL_DATA(c, int32_t)[i]
                               : t->id == T_DECIMAL64 ? COL_DATA(c, int64_t)[i]
                                                      : COL_DATA(c, int128_t)[i]);
        n = format_decimal(v, t->scale, tmp);
        if (style == TEXT_JSON && o && o->json_quote_decimals) {
            put_token(out, tmp, n, style);
            return;
        }
        break;
    }
    case T_UUID:
        put_token(out, tmp, format_uuid(COL_DATA(c, uint128_t)[i], tmp), style);
        return;
    case T_IPV4:
        put_token(out, tmp, ipaddr_format_v4(COL_DATA(c, uint32_t)[i], tmp), style);
        return;
    case T_IPV6:
        put_token(out, tmp, ipaddr_format_v6(c->data.p + i * 16, tmp), style);
        return;
    case T_NULLABLE:
        if (c->nulls.p && c->nulls.p[i]) {
            put_null(out, style);
            return;
        }
        write_value(out, c->inner, i, style, o);
        return;
    case T_ARRAY:
    case T_MAP: {
        void (*write_nested)(buf *, const column *, size_t, text_style, const text_opts *) =
            t->id == T_MAP ? write_map : write_array;
        if (style == TEXT_CSV) {
            /* The quoted-style text of the array, as one CSV field. */
            /* A per-thread scratch buffer avoids an allocation per value; nested values
             * are in quoted style, so this never recurses into itself. */
            static _Thread_local buf scratch;
            scratch.len = 0;
            write_nested(&scratch, c, i, TEXT_QUOTED, o);
            put_csv(out, (const char *)scratch.p, scratch.len);
            return;
        }
        write_nested(out, c, i, style, o);
        return;
    }
    case T_TUPLE:
        write_tuple(out, c, i, style, o);
        return;
    default:
        return;
    }
    buf_append(out, tmp, n);
}

void text_write(buf *out, const column *c, size_t i, text_style style, const text_opts *o)
{
    write_value(out, c, i, style, o);
}
