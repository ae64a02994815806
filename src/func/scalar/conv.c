/* Type conversion functions: CAST / _CAST, accurateCast[OrNull], toInt8..toUInt128,
 * toFloat32/64, toDecimal32/64/128, toBool, toString, toFixedString, toLowCardinality and
 * the OrZero / OrNull variants of the integer and float conversions.
 *
 * Everything goes through one recursive converter, conv(), from a column of one type to a
 * column of another. Semantics follow ClickHouse 26.7 (checked with chdb):
 *   - integers narrow by two's-complement wrapping (toUInt8(300) = 44);
 *   - floats convert to integers as x86's cvttsd2si does (ClickHouse relies on it):
 *     truncation toward zero, out of range gives the "integer indefinite" value, which
 *     then wraps to the target width (toInt64(1e30) = -2^63, toUInt32(1e30) = 0); NaN and
 *     inf are CANNOT_CONVERT_TYPE; 128-bit targets wrap modulo 2^128;
 *   - decimals: scale changes truncate; a value that does not fit the storage type is
 *     DECIMAL_OVERFLOW (precision is not checked, as in ClickHouse); decimal to integer
 *     checks the range too ("Convert overflow");
 *   - numbers to Date: negative → 1970-01-01, above 65535 the number is a unix time;
 *     Date32 likewise with its own range; DateTime clamps to [0, 2^32-1]; Date32,
 *     DateTime64 → Date/DateTime wrap like ClickHouse;
 *   - strings parse with text_parse (CAST('abc' AS Int32) is CANNOT_PARSE_TEXT), and
 *     anything becomes a string with text_write(TEXT_RAW).
 * Conversions run column-at-a-time with the type switch outside the row loops; the only
 * per-value work that allocates is the text path.
 * Thread-safety: resolved calls hold only immutable state (the target type). */
#include "func/func.h"
#include "func/scalar/num.h"
#include "func/scalar/conv_wide.h"

#include "base/err.h"
#include "column/datetime.h"
#include "column/ipaddr.h"
#include "column/text.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


typedef enum { M_CAST, M_ACCURATE, M_OR_NULL, M_OR_ZERO } cmode;

/* How a conversion runs. `fail` (rows bytes) collects rows that could not be converted
 * in the OrNull/OrZero modes instead of raising an error; only top-level (row-aligned)
 * conversions use it. */
typedef struct conv_ctx {
    const func_env *env;
    cmode mode;
    uint8_t *fail;
    const char *fname; /* for the parse-error note: "toInt32" */
    bool accurate;     /* accurateCast[OrNull]: values that do not fit fail */
    const uint8_t *skip; /* NULL rows of a Nullable source: never fail (they hold defaults) */
} conv_ctx;

static int conv(const conv_ctx *x, const column *src, const type *to, column **out);

/* ---- classification ---- */

static bool is_intlike(const type *t)
{
    return num_is_int(t) || t->id == T_ENUM8 || t->id == T_ENUM16 || t->id == T_DATE || t->id == T_DATE32 ||
           t->id == T_DATETIME;
}
static bool is_dec(const type *t) { return type_is_decimal(t); }
static bool is_date(const type *t) { return type_is_date_or_time(t); }
static bool is_numeric_like(const type *t)
{
    return is_intlike(t) || num_is_float(t) || is_dec(t) || t->id == T_DATETIME64;
}

/* IPv4 and IPv6 (strings aside), as ClickHouse converts them: IPv4 from unsigned
 * integers up to 64 bits (wrapping) and to UInt32/64/128; IPv6 from and to UInt128 (the
 * address as a big-endian number); IPv4 → IPv6 maps (::ffff:a.b.c.d), IPv6 → IPv4 needs
 * a mapped address. */
static bool ip_conv_ok(const type *from, const type *to)
{
    if (to->id == T_IPV4)
        return from->id == T_IPV6 || (num_is_uint(from) && num_size(from) <= 8) || from->id == T_BOOL;
    if (to->id == T_IPV6)
        return from->id == T_IPV4 || from->id == T_UINT128;
    if (from->id == T_IPV4)
        return to->id == T_UINT32 || to->id == T_UINT64 || to->id == T_UINT128;
    if (from->id == T_IPV6)
        return to->id == T_UINT128;
    return false;
}

/* Whether a conversion from `from` to `to` exists (checked at resolution). */
static bool conv_ok(const type *from, const type *to)
{
    from = type_phys(from);
    to = type_phys(to);
    if (from == to)
        return true;
    if (from->id == T_NULLABLE)
        return conv_ok(from->inner, to->id == T_NULLABLE ? to->inner : to);
    if (to->id == T_NULLABLE)
        return conv_ok(from, to->inner);
    if (from->id == T_NOTHING)
        return true;
    if (to->id == T_STRING)
        return true;
    if (to->id == T_FIXEDSTRING)
        return type_is_string(from);
    if (to->id == T_MAP) /* from a Map or an Array(Tuple(key, value)), the same layout; not
                          * from text, as in ClickHouse (maps nested in arrays parse) */
        return (from->id == T_MAP || from->id == T_ARRAY) && conv_ok(from->inner, to->inner);
    if (type_is_string(from))
        return true; /* text_parse reads every type, tuples included */
    if (to->id == T_ARRAY)
        return from->id == T_ARRAY && conv_ok(from->inner, to->inner);
    if (to->id == T_TUPLE) {
        /* Element-wise, between tuples of the same size. */
        if (from->id != T_TUPLE || from->nfields != to->nfields)
            return false;
        for (int i = 0; i < to->nfields; i++)
            if (!conv_ok(from->fields[i], to->fields[i]))
                return false;
        return true;
    }
    if (is_numeric_like(from) && is_numeric_like(to))
        return true;
    if (conv_wide_ok(from, to))
        return true;
    if (from->id == T_UUID && to->id == T_UINT128)
        return true;
    return ip_conv_ok(from, to);
}

static int unsupported(const type *from, const type *to)
{
    from = type_base(from);
    to = type_base(to);
    if (to->id == T_FIXEDSTRING)
        return err_set(ERR_NOT_IMPLEMENTED,
                       "CAST AS FixedString is only implemented for types String and FixedString");
    if (to->id == T_MAP)
        return err_set(ERR_TYPE_MISMATCH, "Unsupported types to CAST AS Map. Left type: %s, right type: %s",
                       from->name, to->name);
    if ((from->id == T_UUID && (is_numeric_like(to) || type_is_ip(to))) ||
        (to->id == T_UUID && (is_numeric_like(from) || type_is_ip(from))))
        return err_set(ERR_NOT_IMPLEMENTED, "Conversion between numeric types and UUID is not supported. "
                       "Probably the passed UUID is unquoted");
    if ((from->id == T_IPV6 && is_intlike(to)) || (to->id == T_IPV6 && is_intlike(from)) ||
        (from->id == T_IPV6 && num_is_float(to)) || (to->id == T_IPV6 && num_is_float(from)))
        return err_set(ERR_NOT_IMPLEMENTED, "Conversion between numeric types and IPv6 is not supported. "
                       "Probably the passed IPv6 is unquoted");
    if (to->id == T_IPV4 && is_dec(from))
        return err_set(ERR_ILLEGAL_COLUMN, "Illegal column %s of first argument of function toIPv4", type_id_name(from->id));
    if (to->id == T_IPV6 && is_dec(from))
        return err_set(ERR_ILLEGAL_COLUMN, "Illegal column %s of first argument of function toIPv6", type_id_name(from->id));
    if ((to->id == T_IPV4 && is_numeric_like(from)) || (from->id == T_IPV4 && is_intlike(to)) ||
        (from->id == T_IPV4 && num_is_float(to)))
        return err_set(ERR_NOT_IMPLEMENTED, "Conversion from %s to %s is not supported", from->name, to->name);
    return err_set(ERR_CANNOT_CONVERT_TYPE, "Conversion from %s to %s is not supported", from->name, to->name);
}

/* ---- float → integer, as x86 (and therefore ClickHouse) does it ---- */

static inline int64_t cvt64(double v)
{
    return v >= -9223372036854775808.0 && v < 9223372036854775808.0 ? (int64_t)v : INT64_MIN;
}
static inline int32_t cvt32(double v)
{
    return v > -2147483649.0 && v < 2147483648.0 ? (int32_t)v : INT32_MIN;
}
/* The compiler's unsigned sequence: cvt(x) | (cvt(x - 2^63) & sign(cvt(x))). */
static inline uint64_t cvtu64(double v)
{
    int64_t a = cvt64(v), b = cvt64(v - 9223372036854775808.0);
    return (uint64_t)(a | (b & (a >> 63)));
}
/* (U)Int128 from a float: ClickHouse's wide-integer conversion (approximate above 2^63,
 * wrapping past 2^128); its 256-bit form taken modulo 2^128 is the same value. */
static inline int128_t cvt128(double v)
{
    return (int128_t)i256_low128(i256_from_double(v));
}

/* Whether ClickHouse's conversion of v to a wide integer is exact (accurateCast's test:
 * the converted value must compare equal to v). */
static bool float_exact(double v)
{
    i256 e;
    return i256_from_double_exact(v, &e) == 0 && i256_eq(e, i256_from_double(v));
}

/* ---- helpers ---- */

static const tz_info *tz_of(const conv_ctx *x, const type *t)
{
    return tz_get(t->tz ? t->tz : x->env && x->env->timezone ? x->env->timezone : "UTC");
}

static int128_t pow10i(int s)
{
    int128_t m = 1;
    for (int i = 0; i < s; i++)
        m *= 10;
    return m;
}

/* Range of a fixed-width integer-like physical type, as int128 (UInt128's max is
 * clipped to Int128's: no source here exceeds it without wrapping first). */
static void int_range(const type *t, int128_t *lo, int128_t *hi)
{
    switch (t->id) {
    case T_BOOL: *lo = 0; *hi = 1; break;
    case T_UINT8: *lo = 0; *hi = UINT8_MAX; break;
    case T_UINT16: case T_DATE: *lo = 0; *hi = UINT16_MAX; break;
    case T_UINT32: case T_DATETIME: *lo = 0; *hi = UINT32_MAX; break;
    case T_UINT64: *lo = 0; *hi = UINT64_MAX; break;
    case T_UINT128: *lo = 0; *hi = (int128_t)(((uint128_t)1 << 127) - 1); break;
    case T_INT8: case T_ENUM8: *lo = INT8_MIN; *hi = INT8_MAX; break;
    case T_INT16: case T_ENUM16: *lo = INT16_MIN; *hi = INT16_MAX; break;
    case T_INT32: case T_DATE32: case T_DECIMAL32: *lo = INT32_MIN; *hi = INT32_MAX; break;
    case T_INT64: case T_DATETIME64: case T_DECIMAL64: *lo = INT64_MIN; *hi = INT64_MAX; break;
    default: *lo = -(int128_t)(((uint128_t)1 << 127) - 1) - 1; *hi = (int128_t)(((uint128_t)1 << 127) - 1); break;
    }
}

static void i128_str(int128_t v, char *out)
{
    char tmp[48];
    int n = 0;
    bool neg = v < 0;
    uint128_t u = neg ? (uint128_t)0 - (uint128_t)v : (uint128_t)v;
    do {
        tmp[n++] = (char)('0' + (int)(u % 10));
        u /= 10;
    } while (u);
    if (neg)
        *out++ = '-';
    while (n)
        *out++ = tmp[--n];
    *out = 0;
}

/* A row that cannot be converted: in OrNull/OrZero modes it is recorded, else it is the
 * error already set. Returns 0 to continue, -1 to stop. */
static int row_fail(const conv_ctx *x, size_t i)
{
    if (x->skip && x->skip[i]) {
        err_clear();
        return 0;
    }
    if (!x->fail)
        return -1;
    x->fail[i] = 1;
    err_clear();
    return 0;
}

/* ---- numeric conversions ---- */

/* Loads a numeric-like column as int128 values in the source's own unit (decimal and
 * DateTime64 ticks unscaled). UInt128 keeps its bits. */
static int128_t *load_i128(const column *src, size_t n)
{
    int128_t *v = mem_alloc((n ? n : 1) * sizeof *v);
    num_load_i128(type_phys(src->type), src->data.p, n, v);
    return v;
}

/* Source values as doubles in real units (decimals and DateTime64 divided by 10^scale). */
static double *load_f64(const column *src, size_t n)
{
    const type *f = type_phys(src->type);
    double *v = mem_alloc((n ? n : 1) * sizeof *v);
    if (f->id == T_UINT128) {
        const uint128_t *s = (const uint128_t *)(const void *)src->data.p;
        for (size_t i = 0; i < n; i++)
            v[i] = (double)s[i];
        return v;
    }
    num_load_f64(f, src->data.p, n, v);
    if (is_dec(f) || f->id == T_DATETIME64) {
        double m = (double)pow10i(f->scale);
        for (size_t i = 0; i < n; i++)
            v[i] /= m;
    }
    return v;
}

static int nan_to_int(const conv_ctx *x, size_t i)
{
    err_set(ERR_CANNOT_CONVERT_TYPE, "Unexpected inf or nan to integer conversion");
    return row_fail(x, i);
}

static int not_safe(const conv_ctx *x, size_t i, const type *from, const type *to)
{
    err_set(ERR_CANNOT_CONVERT_TYPE, "Value in column %s cannot be safely converted into type %s", from->name,
            to->name);
    return row_fail(x, i);
}

/* Numbers (ints, floats, decimals, enums, dates as their numbers) → integer, Bool or Enum. */
static int to_int(const conv_ctx *x, const column *src, const type *to, column **out)
{
    const type *f = type_phys(src->type);
    size_t n = src->len;
    int128_t *v = NULL;
    int128_t lo, hi;
    int_range(to, &lo, &hi);
    bool accurate = x->accurate;
    if (num_is_float(f)) {
        double *d = load_f64(src, n);
        v = mem_alloc((n ? n : 1) * sizeof *v);
        if (to->id == T_BOOL) {
            for (size_t i = 0; i < n; i++)
                v[i] = d[i] != 0;
        } else {
            /* Checks first (rare failures), then one tight loop per target width. */
            for (size_t i = 0; i < n; i++) {
                if (!isfinite(d[i])) {
                    d[i] = 0;
                    if (nan_to_int(x, i) < 0)
                        goto fail_d;
                } else if (accurate && (d[i] != trunc(d[i]) || d[i] < (double)lo || d[i] > (double)hi ||
                                        (to->id == T_UINT64 && d[i] >= 18446744073709551616.0) ||
                                        (to->id == T_INT64 && d[i] >= 9223372036854775808.0) ||
                                        ((to->id == T_INT128 || to->id == T_UINT128) && !float_exact(d[i])))) {
                    d[i] = 0;
                    if (not_safe(x, i, f, to) < 0)
                        goto fail_d;
                }
            }
            switch (to->id) {
            case T_UINT8: case T_UINT16: case T_INT8: case T_INT16: case T_INT32: case T_ENUM8: case T_ENUM16:
                for (size_t i = 0; i < n; i++)
                    v[i] = cvt32(d[i]);
                break;
            case T_UINT32: case T_INT64:
                for (size_t i = 0; i < n; i++)
                    v[i] = cvt64(d[i]);
                break;
            case T_UINT64:
                for (size_t i = 0; i < n; i++)
                    v[i] = (int128_t)cvtu64(d[i]);
                break;
            default:
                for (size_t i = 0; i < n; i++)
                    v[i] = cvt128(d[i]);
                break;
            }
        }
        mem_free(d);
        goto store;
    fail_d:
        mem_free(d);
        mem_free(v);
        return -1;
    }
    v = load_i128(src, n);
    if (is_dec(f) || f->id == T_DATETIME64) {
        int128_t m = pow10i(f->scale);
        for (size_t i = 0; i < n; i++)
            v[i] /= m;
        if (is_dec(f) && to->id != T_BOOL) {
            for (size_t i = 0; i < n; i++)
                if (v[i] < lo || v[i] > hi) {
                    err_set(ERR_DECIMAL_OVERFLOW, "Convert overflow");
                    v[i] = 0;
                    if (row_fail(x, i) < 0)
                        goto fail;
                }
        }
    } else if (accurate && to->id != T_BOOL) {
        bool from_u128 = f->id == T_UINT128;
        for (size_t i = 0; i < n; i++)
            if ((from_u128 && v[i] < 0) || v[i] < lo || v[i] > hi) {
                v[i] = 0;
                if (not_safe(x, i, f, to) < 0)
                    goto fail;
            }
    }
    if (to->id == T_BOOL)
        for (size_t i = 0; i < n; i++)
            v[i] = v[i] != 0;
store:
    if (to->id == T_ENUM8 || to->id == T_ENUM16) {
        for (size_t i = 0; i < n; i++) {
            bool found = false;
            for (int k = 0; k < to->nitems && !found; k++)
                found = to->items[k].value == v[i];
            if (!found) {
                char b[48];
                i128_str(v[i], b);
                err_set(ERR_UNKNOWN_ELEMENT_OF_ENUM, "Unexpected value %s in enum", b);
                v[i] = to->nitems ? to->items[0].value : 0;
                if (row_fail(x, i) < 0)
                    goto fail;
            }
        }
    }
    *out = num_store_i128(to, v, n);
    mem_free(v);
    return 0;
fail:
    mem_free(v);
    return -1;
}

static int to_float(const conv_ctx *x, const column *src, const type *to, column **out)
{
    (void)x;
    size_t n = src->len;
    double *d = load_f64(src, n);
    *out = num_store_f64(to, d, n); /* Float64 → Float32 rounds; out of range is inf */
    mem_free(d);
    return 0;
}

static int to_decimal(const conv_ctx *x, const column *src, const type *to, column **out)
{
    const type *f = type_phys(src->type);
    size_t n = src->len;
    int128_t lo, hi;
    int_range(to, &lo, &hi);
    int128_t m = pow10i(to->scale);
    int128_t *v;
    if (num_is_float(f)) {
        double *d = load_f64(src, n);
        v = mem_alloc((n ? n : 1) * sizeof *v);
        double md = (double)m;
        for (size_t i = 0; i < n; i++) {
            if (!isfinite(d[i])) {
                err_set(ERR_DECIMAL_OVERFLOW, "Decimal convert overflow. Cannot convert infinity or NaN to decimal");
                v[i] = 0;
                if (row_fail(x, i) < 0)
                    goto fail_d;
                continue;
            }
            double s = d[i] * md;
            if (s <= (double)lo - 1 || s >= (double)hi + 1) {
                err_set(ERR_DECIMAL_OVERFLOW, "Decimal convert overflow. Float is out of Decimal range");
                v[i] = 0;
                if (row_fail(x, i) < 0)
                    goto fail_d;
                continue;
            }
            v[i] = (int128_t)s;
        }
        mem_free(d);
        goto store;
    fail_d:
        mem_free(d);
        mem_free(v);
        return -1;
    }
    v = load_i128(src, n);
    int fs = is_dec(f) || f->id == T_DATETIME64 ? f->scale : 0;
    if (fs > to->scale) {
        int128_t dv = pow10i(fs - to->scale);
        for (size_t i = 0; i < n; i++)
            v[i] /= dv;
    } else if (fs < to->scale) {
        int128_t mv = pow10i(to->scale - fs);
        for (size_t i = 0; i < n; i++) {
            int128_t r;
            if (__builtin_mul_overflow(v[i], mv, &r) || r < lo || r > hi) {
                if (is_dec(f)) {
                    char b[48], bl[48], bh[48];
                    i128_str(v[i], b);
                    i128_str(lo, bl);
                    i128_str(hi, bh);
                    err_set(ERR_DECIMAL_OVERFLOW, "Decimal convert overflow: %s is not in range (%s, %s)", b, bl, bh);
                } else {
                    err_set(ERR_DECIMAL_OVERFLOW, "Decimal convert overflow");
                }
                r = 0;
                if (row_fail(x, i) < 0)
                    goto fail;
            }
            v[i] = r;
        }
        goto store;
    }
    for (size_t i = 0; i < n; i++)
        if (v[i] < lo || v[i] > hi) {
            char b[48], bl[48], bh[48];
            i128_str(v[i], b);
            i128_str(lo, bl);
            i128_str(hi, bh);
            if (is_dec(f))
                err_set(ERR_DECIMAL_OVERFLOW, "Decimal convert overflow: %s is not in range (%s, %s)", b, bl, bh);
            else
                err_set(ERR_DECIMAL_OVERFLOW, "Decimal convert overflow");
            v[i] = 0;
            if (row_fail(x, i) < 0)
                goto fail;
        }
store:
    *out = num_store_i128(to, v, n);
    mem_free(v);
    return 0;
fail:
    mem_free(v);
    return -1;
}

/* Days of a unix time in a zone. */
static int64_t days_of(const tz_info *tz, int64_t secs)
{
    int64_t l = secs + tz_offset_at(tz, secs);
    return l >= 0 ? l / 86400 : -((-l + 86399) / 86400);
}

static int64_t floor_div(int64_t a, int64_t b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }

/* Anything numeric → Date / Date32 / DateTime / DateTime64. */
static int to_datetime_family(const conv_ctx *x, const column *src, const type *to, column **out)
{
    const type *f = type_phys(src->type);
    size_t n = src->len;
    int128_t *v = NULL;
    if (num_is_float(f) || is_dec(f)) {
        double *d = load_f64(src, n);
        v = mem_alloc((n ? n : 1) * sizeof *v);
        if (to->id == T_DATETIME64) {
            double m = (double)pow10i(to->scale);
            for (size_t i = 0; i < n; i++)
                v[i] = isfinite(d[i]) ? (int128_t)cvt64(d[i] * m) : 0;
        } else {
            for (size_t i = 0; i < n; i++)
                v[i] = isfinite(d[i]) ? (d[i] < -1e30 ? -(int128_t)1e30 : d[i] > 1e30 ? (int128_t)1e30 : (int128_t)d[i]) : 0;
        }
        mem_free(d);
        f = type_simple(T_INT64); /* now plain numbers */
        if (to->id == T_DATETIME64)
            goto store;
    } else {
        v = load_i128(src, n);
    }
    const tz_info *ftz = NULL, *ttz = NULL;
    if (f->id == T_DATETIME || f->id == T_DATETIME64) {
        ftz = tz_of(x, f);
        if (!ftz)
            goto fail;
    }
    if (to->id != T_DATE32 || !is_date(f)) {
        ttz = tz_of(x, to);
        if (!ttz)
            goto fail;
    }
    switch (to->id) {
    case T_DATE:
    case T_DATE32: {
        bool d32 = to->id == T_DATE32;
        if (f->id == T_DATE || f->id == T_DATE32)
            break; /* days; Date32 → Date wraps in the store */
        if (f->id == T_DATETIME || f->id == T_DATETIME64) {
            int64_t m = f->id == T_DATETIME64 ? (int64_t)pow10i(f->scale) : 1;
            for (size_t i = 0; i < n; i++)
                v[i] = days_of(ftz, floor_div((int64_t)v[i], m));
            break;
        }
        /* above the last day number a value is a unix time, capped at the type's last second
         * (Date32: 2299-12-31 23:59:59, ClickHouse's MAX_DT64_TIMESTAMP) */
        int128_t maxday = d32 ? 120529 : 65535, minday = d32 ? -25567 : 0;
        int128_t maxtime = d32 ? 10413791999 : 4294967295;
        for (size_t i = 0; i < n; i++) {
            if (v[i] < minday)
                v[i] = minday;
            else if (v[i] > maxday)
                v[i] = days_of(ttz, v[i] > maxtime ? (int64_t)maxtime : (int64_t)v[i]);
        }
        break;
    }
    case T_DATETIME:
    case T_DATETIME64: {
        int128_t m = to->id == T_DATETIME64 ? pow10i(to->scale) : 1;
        if (f->id == T_DATE || f->id == T_DATE32) {
            for (size_t i = 0; i < n; i++)
                v[i] = (int128_t)tz_local_to_utc(ttz, (int64_t)v[i] * 86400) * m;
        } else if (f->id == T_DATETIME64) {
            int128_t fm = pow10i(f->scale);
            if (to->id == T_DATETIME) {
                for (size_t i = 0; i < n; i++)
                    v[i] = floor_div((int64_t)v[i], (int64_t)fm);
            } else if (fm > m) {
                for (size_t i = 0; i < n; i++)
                    v[i] /= fm / m;
            } else {
                for (size_t i = 0; i < n; i++)
                    v[i] *= m / fm;
            }
        } else if (to->id == T_DATETIME64) {
            for (size_t i = 0; i < n; i++)
                v[i] *= m;
        } else if (f->id != T_DATETIME) {
            for (size_t i = 0; i < n; i++)
                v[i] = v[i] < 0 ? 0 : v[i] > 4294967295 ? 4294967295 : v[i];
        }
        break;
    }
    default:
        break;
    }
store:
    *out = num_store_i128(to, v, n);
    mem_free(v);
    return 0;
fail:
    mem_free(v);
    return -1;
}

/* ---- text ---- */

static int to_string(const conv_ctx *x, const column *src, const type *to, column **out)
{
    text_opts o;
    text_opts_default(&o);
    o.tz = x->env && x->env->timezone ? x->env->timezone : "UTC";
    column *c = col_new(to);
    col_reserve(c, src->len);
    buf b = {0};
    bool strip_zeros = to->id == T_STRING && type_phys(src->type)->id == T_FIXEDSTRING;
    for (size_t i = 0; i < src->len; i++) {
        b.len = 0;
        text_write(&b, src, i, TEXT_RAW, &o);
        if (strip_zeros) /* ClickHouse drops a FixedString's zero padding on the way to String */
            while (b.len && b.p[b.len - 1] == 0)
                b.len--;
        if (to->id == T_FIXEDSTRING && b.len > to->width) {
            buf_free(&b);
            col_free(c);
            return err_set(ERR_TOO_LARGE_STRING_SIZE, "String too long for type %s", to->name);
        }
        col_push_str(c, (const char *)b.p, b.len);
    }
    buf_free(&b);
    *out = c;
    return 0;
}

static int str_to_fixed(const column *src, const type *to, column **out)
{
    column *c = col_new(to);
    col_reserve(c, src->len);
    for (size_t i = 0; i < src->len; i++) {
        size_t n;
        const char *s = col_str(src, i, &n);
        if (n > to->width) {
            col_free(c);
            return err_set(ERR_TOO_LARGE_STRING_SIZE, "String too long for type %s", to->name);
        }
        col_push_str(c, s, n);
    }
    *out = c;
    return 0;
}

/* Rewrites an integer parse error in ClickHouse's words, with the OrZero/OrNull note. */
static void parse_error_note(const conv_ctx *x, const char *s, size_t n, const type *to)
{
    if (err_code() != ERR_CANNOT_PARSE_TEXT)
        return;
    const char *tn = to->name;
    bool is_int = num_is_int(to) && to->id != T_BOOL;
    int w = (int)(n > 200 ? 200 : n);
    if (is_int && n == 0) {
        err_set(ERR_ATTEMPT_TO_READ_AFTER_EOF,
                "Attempt to read after eof: Cannot parse %s from String, because value is too short", tn);
        return;
    }
    if (num_is_float(to)) {
        /* The longest prefix that is a number decides between the two messages. */
        char tmp[128];
        size_t m = n < sizeof tmp - 1 ? n : sizeof tmp - 1;
        memcpy(tmp, s, m);
        tmp[m] = 0;
        char *end = tmp;
        if (m && !(tmp[0] == ' ' || tmp[0] == '\t' || tmp[0] == '\n'))
            strtod(tmp, &end);
        size_t p = (size_t)(end - tmp);
        if (p == 0) {
            err_set(ERR_CANNOT_PARSE_NUMBER, "Cannot read floating point value here: %.*s: Cannot parse %s from String",
                    w, s, tn);
            return;
        }
        err_set(ERR_CANNOT_PARSE_TEXT, "Cannot parse string '%.*s' as %s: syntax error at position %zu (parsed just '%.*s')",
                w, s, tn, p, (int)p, s);
    }
    if (is_int) {
        size_t p = 0;
        if (p < n && (s[p] == '-' || s[p] == '+'))
            p++;
        size_t start = p;
        while (p < n && s[p] >= '0' && s[p] <= '9')
            p++;
        if (p == start)
            err_set(ERR_CANNOT_PARSE_TEXT, "Cannot parse string '%.*s' as %s: syntax error at begin of string", w, s,
                    tn);
        else
            err_set(ERR_CANNOT_PARSE_TEXT, "Cannot parse string '%.*s' as %s: syntax error at position %zu (parsed just '%.*s')",
                    w, s, tn, p, (int)p, s);
    }
    if (is_int || num_is_float(to)) {
        char base[32];
        snprintf(base, sizeof base, "%s", x->fname && strncmp(x->fname, "to", 2) == 0 ? x->fname : "");
        if (!base[0])
            snprintf(base, sizeof base, "to%s", tn);
        err_suffix(". Note: there are %sOrZero and %sOrNull functions, which returns zero/NULL instead of throwing "
                   "exception.", base, base);
    }
}

/* OrZero/OrNull integer parsing: a value outside the target's range is a failed row
 * (toUInt8OrZero('300') = 0) even though the plain conversion wraps (toUInt8('300') =
 * 44). The text is parsed again as Int128 into tmp to see the exact value. */
static bool int_text_fits(const type *to, const char *s, size_t n, const text_opts *o, column *tmp)
{
    tmp->len = 0;
    tmp->data.len = 0;
    if (text_parse(tmp, s, n, o) < 0) {
        err_clear();
        return false;
    }
    int128_t v;
    memcpy(&v, tmp->data.p, sizeof v);
    unsigned bits = num_size(to) * 8;
    if (num_is_uint(to))
        return v >= 0 && (bits == 64 ? v <= (int128_t)UINT64_MAX : v < ((int128_t)1 << bits));
    int128_t lim = (int128_t)1 << (bits - 1);
    return v >= -lim && v < lim;
}

static int from_string(const conv_ctx *x, const column *src, const type *to, column **out)
{
    text_opts o;
    text_opts_default(&o);
    o.tz = x->env && x->env->timezone ? x->env->timezone : "UTC";
    bool fixed = type_phys(src->type)->id == T_FIXEDSTRING;
    column *c = col_new(to);
    column *wide = x->fail && num_is_int(to) && to->id != T_BOOL && num_size(to) <= 8
                       ? col_new(type_simple(T_INT128)) : NULL;
    col_reserve(c, src->len);
    for (size_t i = 0; i < src->len; i++) {
        size_t n;
        const char *s = col_str(src, i, &n);
        if (fixed)
            while (n && s[n - 1] == 0)
                n--;
        if (x->skip && x->skip[i]) {
            col_push_default(c);
            continue;
        }
        int rc = to->id == T_ARRAY ? text_parse_array(c, s, n, &o) : text_parse(c, s, n, &o);
        if (rc == 0 && wide && !int_text_fits(to, s, n, &o, wide)) {
            x->fail[i] = 1;
            continue; /* the wrapped value stays; the row becomes 0 / NULL */
        }
        if (rc < 0) {
            if (x->fail) {
                x->fail[i] = 1;
                err_clear();
                if (c->len == i)
                    col_push_default(c);
                continue;
            }
            parse_error_note(x, s, n, to);
            col_free(c);
            if (wide)
                col_free(wide);
            return -1;
        }
    }
    if (wide)
        col_free(wide);
    *out = c;
    return 0;
}

/* ---- IPv4 / IPv6 (ip_conv_ok says which pairs reach here) ---- */

static uint128_t be128(const uint8_t *p)
{
    uint128_t v = 0;
    for (int k = 0; k < 16; k++)
        v = v << 8 | p[k];
    return v;
}

static int ip_conv(const conv_ctx *x, const column *src, const type *to, column **out)
{
    const type *from = type_phys(src->type);
    size_t n = src->len;
    if (from->id == T_IPV4 || to->id == T_IPV4) {
        if (from->id != T_IPV6 && to->id != T_IPV6) {
            /* IPv4 is a UInt32: integers wrap into it, it widens to UInt64/128 */
            column *v = col_clone(src);
            v->type = from->id == T_IPV4 ? type_simple(T_UINT32) : from;
            int rc = conv(x, v, to->id == T_IPV4 ? type_simple(T_UINT32) : to, out);
            col_free(v);
            return rc;
        }
    }
    column *r = col_new(to);
    col_reserve(r, n);
    for (size_t i = 0; i < n; i++) {
        size_t k = col_idx(src, i);
        uint8_t b[16];
        if (from->id == T_IPV4 && to->id == T_IPV6) {
            ipaddr_v4_to_v6(COL_DATA(src, const uint32_t)[k], b);
            col_push_fixed(r, b);
        } else if (from->id == T_IPV6 && to->id == T_IPV4) {
            const uint8_t *p = src->data.p + k * 16;
            uint32_t v4 = 0;
            if (!ipaddr_v6_to_v4(p, &v4) && !(x->skip && x->skip[i])) {
                if (x->fail) {
                    x->fail[i] = 1;
                } else {
                    char t[IPADDR_V6_TEXT_MAX];
                    ipaddr_format_v6(p, t);
                    col_free(r);
                    return err_set(ERR_CANNOT_CONVERT_TYPE, "IPv6 %s in column IPv6 is not in IPv4 mapping block", t);
                }
            }
            col_push_fixed(r, &v4);
        } else if (from->id == T_IPV6) { /* → UInt128: the address as a big-endian number */
            uint128_t v = be128(src->data.p + k * 16);
            col_push_fixed(r, &v);
        } else { /* UInt128 → IPv6 */
            uint128_t v = COL_DATA(src, const uint128_t)[k];
            for (int j = 0; j < 16; j++)
                b[j] = (uint8_t)(v >> (120 - 8 * j));
            col_push_fixed(r, b);
        }
    }
    *out = r;
    return 0;
}

/* ---- the converter ---- */

static int conv(const conv_ctx *x, const column *src, const type *to_full, column **out)
{
    const type *from = type_phys(src->type), *to = type_phys(to_full);
    column *res = NULL;
    int rc = 0;
    size_t n = src->len;
    if (from == to && to->id != T_NULLABLE) {
        res = col_clone(src);
    } else if (to->id == T_NULLABLE) {
        column *w = col_new(to);
        col_free(w->inner);
        w->inner = NULL;
        if (from->id == T_NULLABLE) {
            /* NULL rows hold defaults, which need not convert ('' as Int32): skip them. */
            conv_ctx y = *x;
            y.skip = src->nulls.p;
            rc = conv(&y, src->inner, to->inner, &w->inner);
            if (rc == 0)
                buf_append(&w->nulls, src->nulls.p, n);
        } else {
            rc = conv(x, src, to->inner, &w->inner);
            if (rc == 0)
                buf_resize_zero(&w->nulls, n);
        }
        if (rc < 0) {
            w->inner = col_new(type_simple(T_UINT8));
            col_free(w);
            return -1;
        }
        w->len = n;
        res = w;
    } else if (from->id == T_NULLABLE) {
        for (size_t i = 0; i < n; i++)
            if (src->nulls.p[i])
                return err_set(ERR_CANNOT_INSERT_NULL_IN_ORDINARY_COLUMN,
                               "Cannot convert NULL value to non-Nullable type");
        rc = conv(x, src->inner, to, &res);
    } else if (from->id == T_NOTHING) {
        res = col_new_defaults(to, n);
    } else if (to->id == T_STRING) {
        rc = to_string(x, src, to, &res);
    } else if (to->id == T_FIXEDSTRING) {
        rc = str_to_fixed(src, to, &res);
    } else if (to->id == T_IPV6 && from->id == T_FIXEDSTRING && from->width == 16) {
        res = col_clone(src); /* the address's bytes, as ClickHouse reads a FixedString(16) */
    } else if (type_is_string(from)) {
        rc = from_string(x, src, to, &res);
    } else if ((to->id == T_ARRAY && from->id == T_ARRAY) ||
               (to->id == T_MAP && (from->id == T_MAP || from->id == T_ARRAY))) {
        column *a = col_new(to);
        column *inner;
        conv_ctx y = *x;
        y.fail = NULL;
        y.skip = NULL;
        if (conv(&y, src->inner, to->inner, &inner) < 0) {
            col_free(a);
            return -1;
        }
        col_free(a->inner);
        a->inner = inner;
        a->offs.len = 0;
        buf_append(&a->offs, src->offs.p, (n + 1) * sizeof(uint64_t));
        a->len = n;
        res = a;
    } else if (to->id == T_TUPLE && from->id == T_TUPLE && from->nfields == to->nfields) {
        res = col_new(to);
        conv_ctx y = *x;
        y.fail = NULL;
        y.skip = NULL;
        for (int f = 0; f < to->nfields; f++) {
            column *fc;
            if (conv(&y, src->fields[f], to->fields[f], &fc) < 0) {
                col_free(res);
                return -1;
            }
            col_free(res->fields[f]);
            res->fields[f] = fc;
        }
        res->len = n;
    } else if (type_is_ip(from) || type_is_ip(to)) {
        rc = ip_conv(x, src, to, &res);
    } else if (from->id == T_UUID && to->id == T_UINT128) {
        /* shale keeps the first 16 hex digits in the low half; ClickHouse's UInt128 value
         * has them in the high half. */
        res = col_new(to);
        uint128_t *d = buf_grow(&res->data, n * 16);
        const uint128_t *u = (const uint128_t *)(const void *)src->data.p;
        for (size_t i = 0; i < n; i++)
            d[i] = u[i] << 64 | u[i] >> 64;
        res->len = n;
    } else if (type_is_wide(from) || type_is_wide(to)) {
        rc = conv_wide(src, to, x->fail, x->skip, x->accurate, &res);
    } else if (is_numeric_like(from) && is_numeric_like(to)) {
        if (is_date(to))
            rc = to_datetime_family(x, src, to, &res);
        else if (num_is_float(to))
            rc = to_float(x, src, to, &res);
        else if (is_dec(to))
            rc = to_decimal(x, src, to, &res);
        else
            rc = to_int(x, src, to, &res);
    } else {
        return unsupported(from, to);
    }
    if (rc < 0)
        return -1;
    res->type = to_full;
    *out = res;
    return 0;
}

/* ---- resolution and kernels ---- */

typedef struct conv_state {
    const type *target;  /* what the kernel converts to (before OrNull wrapping) */
    cmode mode;
    bool accurate;
    const char *tz;      /* toString(dt, tz) */
} conv_state;

static void conv_free(void *p) { free(p); }

/* The result for a source and a target: with Nullable source rows, a Nullable target
 * (when it can be); a NULL literal stays NULL. */
static const type *wrap_like(const type *src, const type *t)
{
    if (type_is_nullable(src) && type_can_be_nullable(type_phys(t)))
        return type_phys(t) == t ? type_nullable(t) : type_lowcard(type_nullable(t->inner));
    return t;
}

static int conv_exec(const fn_call *call, column **args, size_t rows, column **out)
{
    const conv_state *st = call->state;
    conv_ctx x = {call->env, st->mode, NULL, call->name, st->accurate, NULL};
    column *src = args[0];
    column *tmp = NULL;
    if (st->tz) {
        tmp = col_clone(src);
        const type *t = type_phys(src->type);
        if (t->id == T_NULLABLE) {
            t = t->inner;
            tmp->inner->type = t->id == T_DATETIME ? type_datetime(st->tz) : type_datetime64(t->scale, st->tz);
        } else {
            tmp->type = t->id == T_DATETIME ? type_datetime(st->tz) : type_datetime64(t->scale, st->tz);
        }
        src = tmp;
    }
    (void)rows;
    if (st->mode == M_OR_NULL || st->mode == M_OR_ZERO) {
        x.fail = mem_calloc(rows ? rows : 1);
        /* OrNull: convert into the plain type, then mark failed rows NULL. */
        const type *plain = type_phys(call->ret)->id == T_NULLABLE ? type_phys(call->ret)->inner : call->ret;
        column *r;
        if (conv(&x, src, wrap_like(src->type, plain), &r) < 0) {
            mem_free(x.fail);
            col_free(tmp);
            return -1;
        }
        column *vals = type_phys(r->type)->id == T_NULLABLE ? r->inner : r;
        const type *vt = type_phys(vals->type);
        for (size_t i = 0; i < rows; i++)
            if (x.fail[i] && vt->width)
                memset(vals->data.p + i * vt->width, 0, vt->width);
        if (st->mode == M_OR_NULL) {
            if (type_phys(r->type)->id != T_NULLABLE) {
                column *w = col_new(type_nullable(r->type));
                col_free(w->inner);
                w->inner = r;
                buf_resize_zero(&w->nulls, rows);
                w->len = rows;
                r = w;
            }
            for (size_t i = 0; i < rows; i++)
                r->nulls.p[i] |= x.fail[i];
        }
        r->type = call->ret;
        mem_free(x.fail);
        col_free(tmp);
        *out = r;
        return 0;
    }
    int rc = conv(&x, src, call->ret, out);
    col_free(tmp);
    return rc;
}

static int set_state(fn_call *c, const type *target, cmode mode, const type *ret)
{
    const type *from = c->arg_types[0];
    if (!conv_ok(from, target)) {
        if (strcmp(c->def->name, "CAST") == 0 || strcmp(c->def->name, "_CAST") == 0 ||
            strncmp(c->def->name, "accurate", 8) == 0 || type_is_ip(target) || type_is_ip(from))
            return unsupported(from, target);
        return fn_bad_types(c);
    }
    conv_state *st = xcalloc(1, sizeof *st);
    st->target = target;
    st->mode = mode;
    c->state = st;
    c->ret = ret;
    c->exec = conv_exec;
    return 0;
}

/* CAST(x, 'T'), _CAST, accurateCast, accurateCastOrNull */
static int cast_resolve(fn_call *c)
{
    if (c->nargs != 2)
        return fn_bad_nargs(c, "2");
    size_t n;
    const char *s = fn_const_str(c, 1, &n);
    if (!s)
        return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT,
                       "Second argument to %s must be a constant string describing type. Instead there is %s",
                       c->name, c->arg_types[1]->name);
    const type *t = type_parse(s, n);
    if (!t)
        return -1;
    const type *from = c->arg_types[0];
    bool or_null = strcmp(c->def->name, "accurateCastOrNull") == 0;
    bool accurate = strncmp(c->def->name, "accurate", 8) == 0;
    if (type_base(from)->id == T_NOTHING && !type_is_nullable(t) && !or_null)
        return err_set(ERR_CANNOT_CONVERT_TYPE, "Cannot convert NULL to a non-nullable type");
    const type *ret = t;
    if (or_null && type_can_be_nullable(type_phys(t)))
        ret = type_nullable(type_phys(t));
    if (set_state(c, t, or_null ? M_OR_NULL : accurate ? M_ACCURATE : M_CAST, ret) < 0)
        return -1;
    ((conv_state *)c->state)->accurate = accurate;
    return 0;
}

typedef struct named_conv {
    const char *name;
    type_id id;
} named_conv;

static const named_conv named[] = {
    {"toUInt8", T_UINT8},   {"toUInt16", T_UINT16}, {"toUInt32", T_UINT32},   {"toUInt64", T_UINT64},
    {"toUInt128", T_UINT128}, {"toInt8", T_INT8},   {"toInt16", T_INT16},     {"toInt32", T_INT32},
    {"toInt64", T_INT64},   {"toInt128", T_INT128}, {"toFloat32", T_FLOAT32}, {"toFloat64", T_FLOAT64},
    {"toUInt256", T_UINT256}, {"toInt256", T_INT256},
    {"toBool", T_BOOL},     {"toString", T_STRING}, {"toUUID", T_UUID},
    {"toIPv4", T_IPV4},     {"toIPv6", T_IPV6},
    /* only their OrZero / OrNull forms live here; toDate etc. are in date.c */
    {"toDate", T_DATE},     {"toDate32", T_DATE32}, {"toDateTime", T_DATETIME},
};

static const type *named_target(const char *name, size_t len)
{
    for (size_t i = 0; i < sizeof named / sizeof *named; i++)
        if (strlen(named[i].name) == len && strncmp(named[i].name, name, len) == 0)
            return type_simple(named[i].id);
    return NULL;
}

/* toInt32(x), toString(x[, tz]), toInt32OrZero(s), toInt32OrNull(s) */
static int named_resolve(fn_call *c)
{
    const char *nm = c->def->name;
    size_t len = strlen(nm);
    cmode mode = M_CAST;
    if (len > 6 && strcmp(nm + len - 6, "OrNull") == 0)
        mode = M_OR_NULL, len -= 6;
    else if (len > 6 && strcmp(nm + len - 6, "OrZero") == 0)
        mode = M_OR_ZERO, len -= 6;
    const type *t = named_target(nm, len);
    if (!t)
        return err_set(ERR_LOGICAL_ERROR, "unknown conversion %s", nm);
    const type *from = c->arg_types[0];
    bool to_str = t->id == T_STRING;
    if (c->nargs < 1 || c->nargs > (to_str ? 2 : 1))
        return fn_bad_nargs(c, to_str ? "1 or 2" : "1");
    if (mode != M_CAST && !type_is_string(type_strip_nullable(from)) && type_base(from)->id != T_NOTHING)
        return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT,
                       "Illegal type %s of first argument of function %s. Conversion functions with postfix "
                       "'OrZero' or 'OrNull' should take String argument",
                       type_base(from)->name, c->name);
    if (type_base(from)->id == T_NOTHING) {
        c->ret = type_nullable(type_simple(T_NOTHING));
        return set_state(c, c->ret, M_CAST, c->ret);
    }
    int rcs;
    if (mode == M_OR_NULL)
        rcs = set_state(c, t, mode, type_nullable(t));
    else
        rcs = set_state(c, t, mode, wrap_like(from, t));
    if (rcs < 0)
        return -1;
    if (to_str && c->nargs == 2) {
        size_t n;
        const char *tz = fn_const_str(c, 1, &n);
        const type *b = type_base(from);
        if (!tz)
            return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type %s of second argument of function %s",
                           c->arg_types[1]->name, c->name);
        if (b->id != T_DATETIME && b->id != T_DATETIME64)
            return fn_bad_types(c);
        char z[128];
        snprintf(z, sizeof z, "%.*s", (int)n, tz);
        if (!tz_get(z))
            return -1;
        ((conv_state *)c->state)->tz = type_datetime(z)->tz;
    }
    return 0;
}

/* toDecimal32(x, S) / toDecimal64 / toDecimal128 (and OrZero / OrNull) */
static int decimal_resolve(fn_call *c)
{
    if (c->nargs != 2)
        return fn_bad_nargs(c, "2");
    const char *nm = c->def->name;
    size_t len = strlen(nm);
    cmode mode = M_CAST;
    if (len > 6 && strcmp(nm + len - 6, "OrNull") == 0)
        mode = M_OR_NULL;
    else if (len > 6 && strcmp(nm + len - 6, "OrZero") == 0)
        mode = M_OR_ZERO;
    int bits = atoi(nm + 9);
    int maxp = bits == 32 ? 9 : bits == 64 ? 18 : bits == 128 ? 38 : 76;
    int64_t s;
    if (fn_const_int(c, 1, &s) < 0)
        return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type %s of second argument of function %s",
                       c->arg_types[1]->name, c->name);
    if (s < 0 || s > maxp)
        return err_set(ERR_ARGUMENT_OUT_OF_BOUND, "Scale %lld is out of bounds (max scale: %d)", (long long)s, maxp);
    const type *t = type_decimal(maxp, (int)s);
    const type *from = c->arg_types[0];
    if (mode != M_CAST && !type_is_string(type_strip_nullable(from)))
        return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT,
                       "Illegal type %s of first argument of function %s. Conversion functions with postfix "
                       "'OrZero' or 'OrNull' should take String argument",
                       type_base(from)->name, c->name);
    return set_state(c, t, mode, mode == M_OR_NULL ? type_nullable(t) : wrap_like(from, t));
}

static int fixedstring_resolve(fn_call *c)
{
    if (c->nargs != 2)
        return fn_bad_nargs(c, "2");
    int64_t n;
    if (fn_const_int(c, 1, &n) < 0)
        return err_set(ERR_ILLEGAL_COLUMN, "Second argument for function %s must be constant", c->name);
    if (n <= 0 || n > 0xFFFFFF)
        return err_set(ERR_ARGUMENT_OUT_OF_BOUND, "FixedString size must be positive and not greater than 16777215");
    const type *from = c->arg_types[0];
    if (!type_is_string(type_strip_nullable(from)))
        return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type %s of first argument of function %s",
                       type_base(from)->name, c->name);
    const type *t = type_fixedstring((uint32_t)n);
    return set_state(c, t, M_CAST, wrap_like(from, t));
}

/* toIPv4OrDefault(s[, default]), toIPv6OrDefault: text that does not parse, and NULL,
 * becomes the default (a column of exactly the target type) or the zero address; the
 * result is never Nullable. */
static int or_default_exec(const fn_call *call, column **args, size_t rows, column **out)
{
    const conv_state *st = call->state;
    conv_ctx x = {call->env, M_OR_ZERO, NULL, call->name, false, NULL};
    x.fail = mem_calloc(rows ? rows : 1);
    const column *src = args[0];
    const type *pt = type_phys(src->type);
    if (pt->id == T_NULLABLE) {
        for (size_t i = 0; i < rows; i++)
            x.fail[i] = col_is_null(src, i);
        x.skip = src->nulls.p;
        src = src->inner;
    }
    column *r;
    if (type_phys(src->type)->id == T_NOTHING) {
        r = col_new_defaults(st->target, rows);
        memset(x.fail, 1, rows);
    } else if (conv(&x, src, st->target, &r) < 0) {
        mem_free(x.fail);
        return -1;
    }
    uint32_t w = st->target->width;
    for (size_t i = 0; i < rows; i++) {
        if (!x.fail[i])
            continue;
        if (call->nargs == 2)
            memcpy(r->data.p + i * w, args[1]->data.p + col_idx(args[1], i) * w, w);
        else
            memset(r->data.p + i * w, 0, w);
    }
    mem_free(x.fail);
    *out = r;
    return 0;
}

static int or_default_resolve(fn_call *c)
{
    if (c->nargs < 1 || c->nargs > 2)
        return fn_bad_nargs(c, "1 or 2");
    const type *t = named_target(c->def->name, strlen(c->def->name) - 9); /* without "OrDefault" */
    const type *from = type_strip_nullable(c->arg_types[0]);
    if (!type_is_string(from) && from->id != T_NOTHING)
        return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT,
                       "Illegal type %s of first argument of function %s. Conversion functions with postfix "
                       "'OrDefault' should take String argument",
                       from->name, c->name);
    if (c->nargs == 2 && c->arg_types[1] != t)
        return err_set(ERR_BAD_ARGUMENTS, "Default value type should be same as cast type. Expected %s. Actual %s",
                       t->name, c->arg_types[1]->name);
    if (set_state(c, t, M_OR_ZERO, t) < 0)
        return -1;
    c->exec = or_default_exec;
    return 0;
}

static int lowcard_resolve(fn_call *c)
{
    if (c->nargs != 1)
        return fn_bad_nargs(c, "1");
    const type *from = c->arg_types[0];
    if (from->id == T_LOWCARDINALITY)
        return set_state(c, from, M_CAST, from);
    const type *b = type_strip_nullable(from);
    if (!(type_is_number(b) || type_is_wide(b) || type_is_string(b) || type_is_date_or_time(b) || b->id == T_UUID ||
          type_is_ip(b)))
        return fn_bad_types(c);
    const type *t = type_lowcard(from);
    return set_state(c, t, M_CAST, t);
}

void func_register_conv(void)
{
    static const func_def defs[] = {
        /* FN_CONST_ARGS_OK: the type name (the constant second argument) is read once by
         * the resolver; materialising it would copy it into every row of every block. The
         * first argument is constant only when both are (then the call is folded). */
        {"CAST", FN_OWN_NULLS | FN_OWN_LOWCARD | FN_CASE_INSENSITIVE | FN_CONST_ARGS_OK, cast_resolve, conv_free,
         "CAST(x, 'T'): converts x to type T"},
        {"_CAST", FN_OWN_NULLS | FN_OWN_LOWCARD | FN_CONST_ARGS_OK, cast_resolve, conv_free, "CAST that keeps Nullable as written"},
        {"accurateCast", FN_OWN_NULLS | FN_OWN_LOWCARD | FN_CONST_ARGS_OK, cast_resolve, conv_free,
         "CAST that fails on values that do not fit"},
        {"accurateCastOrNull", FN_OWN_NULLS | FN_OWN_LOWCARD | FN_CONST_ARGS_OK, cast_resolve, conv_free,
         "CAST that gives NULL for values that do not fit"},
        {"toUInt8", FN_OWN_NULLS, named_resolve, conv_free, "converts to UInt8"},
        {"toUInt16", FN_OWN_NULLS, named_resolve, conv_free, "converts to UInt16"},
        {"toUInt32", FN_OWN_NULLS, named_resolve, conv_free, "converts to UInt32"},
        {"toUInt64", FN_OWN_NULLS, named_resolve, conv_free, "converts to UInt64"},
        {"toUInt128", FN_OWN_NULLS, named_resolve, conv_free, "converts to UInt128"},
        {"toInt8", FN_OWN_NULLS, named_resolve, conv_free, "converts to Int8"},
        {"toInt16", FN_OWN_NULLS, named_resolve, conv_free, "converts to Int16"},
        {"toInt32", FN_OWN_NULLS, named_resolve, conv_free, "converts to Int32"},
        {"toInt64", FN_OWN_NULLS, named_resolve, conv_free, "converts to Int64"},
        {"toInt128", FN_OWN_NULLS, named_resolve, conv_free, "converts to Int128"},
        {"toFloat32", FN_OWN_NULLS, named_resolve, conv_free, "converts to Float32"},
        {"toFloat64", FN_OWN_NULLS, named_resolve, conv_free, "converts to Float64"},
        {"toBool", FN_OWN_NULLS, named_resolve, conv_free, "converts to Bool"},
        {"toString", FN_OWN_NULLS, named_resolve, conv_free, "converts to String; toString(datetime, tz)"},
        {"toUInt8OrZero", FN_OWN_NULLS, named_resolve, conv_free, "parses UInt8, 0 on error"},
        {"toUInt16OrZero", FN_OWN_NULLS, named_resolve, conv_free, "parses UInt16, 0 on error"},
        {"toUInt32OrZero", FN_OWN_NULLS, named_resolve, conv_free, "parses UInt32, 0 on error"},
        {"toUInt64OrZero", FN_OWN_NULLS, named_resolve, conv_free, "parses UInt64, 0 on error"},
        {"toUInt128OrZero", FN_OWN_NULLS, named_resolve, conv_free, "parses UInt128, 0 on error"},
        {"toInt8OrZero", FN_OWN_NULLS, named_resolve, conv_free, "parses Int8, 0 on error"},
        {"toInt16OrZero", FN_OWN_NULLS, named_resolve, conv_free, "parses Int16, 0 on error"},
        {"toInt32OrZero", FN_OWN_NULLS, named_resolve, conv_free, "parses Int32, 0 on error"},
        {"toInt64OrZero", FN_OWN_NULLS, named_resolve, conv_free, "parses Int64, 0 on error"},
        {"toInt128OrZero", FN_OWN_NULLS, named_resolve, conv_free, "parses Int128, 0 on error"},
        {"toFloat32OrZero", FN_OWN_NULLS, named_resolve, conv_free, "parses Float32, 0 on error"},
        {"toFloat64OrZero", FN_OWN_NULLS, named_resolve, conv_free, "parses Float64, 0 on error"},
        {"toUInt8OrNull", FN_OWN_NULLS, named_resolve, conv_free, "parses UInt8, NULL on error"},
        {"toDateOrNull", FN_OWN_NULLS, named_resolve, conv_free, "parses Date, NULL on error"},
        {"toDateOrZero", FN_OWN_NULLS, named_resolve, conv_free, "parses Date, 1970-01-01 on error"},
        {"toDate32OrNull", FN_OWN_NULLS, named_resolve, conv_free, "parses Date32, NULL on error"},
        {"toDateTimeOrNull", FN_OWN_NULLS, named_resolve, conv_free, "parses DateTime, NULL on error"},
        {"toDateTimeOrZero", FN_OWN_NULLS, named_resolve, conv_free, "parses DateTime, 1970-01-01 00:00:00 on error"},
        {"toUInt16OrNull", FN_OWN_NULLS, named_resolve, conv_free, "parses UInt16, NULL on error"},
        {"toUInt32OrNull", FN_OWN_NULLS, named_resolve, conv_free, "parses UInt32, NULL on error"},
        {"toUInt64OrNull", FN_OWN_NULLS, named_resolve, conv_free, "parses UInt64, NULL on error"},
        {"toUInt128OrNull", FN_OWN_NULLS, named_resolve, conv_free, "parses UInt128, NULL on error"},
        {"toInt8OrNull", FN_OWN_NULLS, named_resolve, conv_free, "parses Int8, NULL on error"},
        {"toInt16OrNull", FN_OWN_NULLS, named_resolve, conv_free, "parses Int16, NULL on error"},
        {"toInt32OrNull", FN_OWN_NULLS, named_resolve, conv_free, "parses Int32, NULL on error"},
        {"toInt64OrNull", FN_OWN_NULLS, named_resolve, conv_free, "parses Int64, NULL on error"},
        {"toInt128OrNull", FN_OWN_NULLS, named_resolve, conv_free, "parses Int128, NULL on error"},
        {"toFloat32OrNull", FN_OWN_NULLS, named_resolve, conv_free, "parses Float32, NULL on error"},
        {"toFloat64OrNull", FN_OWN_NULLS, named_resolve, conv_free, "parses Float64, NULL on error"},
        {"toDecimal32", FN_OWN_NULLS, decimal_resolve, conv_free, "toDecimal32(x, S)"},
        {"toDecimal64", FN_OWN_NULLS, decimal_resolve, conv_free, "toDecimal64(x, S)"},
        {"toDecimal128", FN_OWN_NULLS, decimal_resolve, conv_free, "toDecimal128(x, S)"},
        {"toDecimal256", FN_OWN_NULLS, decimal_resolve, conv_free, "toDecimal256(x, S)"},
        {"toDecimal256OrZero", FN_OWN_NULLS, decimal_resolve, conv_free, "parses Decimal256(S), 0 on error"},
        {"toDecimal256OrNull", FN_OWN_NULLS, decimal_resolve, conv_free, "parses Decimal256(S), NULL on error"},
        {"toInt256", FN_OWN_NULLS, named_resolve, conv_free, "converts to Int256"},
        {"toUInt256", FN_OWN_NULLS, named_resolve, conv_free, "converts to UInt256"},
        {"toInt256OrZero", FN_OWN_NULLS, named_resolve, conv_free, "parses Int256, 0 on error"},
        {"toUInt256OrZero", FN_OWN_NULLS, named_resolve, conv_free, "parses UInt256, 0 on error"},
        {"toInt256OrNull", FN_OWN_NULLS, named_resolve, conv_free, "parses Int256, NULL on error"},
        {"toUInt256OrNull", FN_OWN_NULLS, named_resolve, conv_free, "parses UInt256, NULL on error"},
        {"toInt256OrDefault", FN_OWN_NULLS, or_default_resolve, conv_free, "parses Int256, 0 or the default on error"},
        {"toUInt256OrDefault", FN_OWN_NULLS, or_default_resolve, conv_free, "parses UInt256, 0 or the default on error"},
        {"toDecimal32OrZero", FN_OWN_NULLS, decimal_resolve, conv_free, "parses Decimal32(S), 0 on error"},
        {"toDecimal64OrZero", FN_OWN_NULLS, decimal_resolve, conv_free, "parses Decimal64(S), 0 on error"},
        {"toDecimal128OrZero", FN_OWN_NULLS, decimal_resolve, conv_free, "parses Decimal128(S), 0 on error"},
        {"toDecimal32OrNull", FN_OWN_NULLS, decimal_resolve, conv_free, "parses Decimal32(S), NULL on error"},
        {"toDecimal64OrNull", FN_OWN_NULLS, decimal_resolve, conv_free, "parses Decimal64(S), NULL on error"},
        {"toDecimal128OrNull", FN_OWN_NULLS, decimal_resolve, conv_free, "parses Decimal128(S), NULL on error"},
        {"toFixedString", FN_OWN_NULLS, fixedstring_resolve, conv_free, "toFixedString(s, N)"},
        {"toUUID", FN_OWN_NULLS, named_resolve, conv_free, "converts to UUID"},
        {"toUUIDOrZero", FN_OWN_NULLS, named_resolve, conv_free, "parses UUID, the zero UUID on error"},
        {"toUUIDOrNull", FN_OWN_NULLS, named_resolve, conv_free, "parses UUID, NULL on error"},
        {"toIPv4", FN_OWN_NULLS, named_resolve, conv_free, "converts to IPv4 (text, UInt32, a mapped IPv6)"},
        {"toIPv4OrZero", FN_OWN_NULLS, named_resolve, conv_free, "parses IPv4, 0.0.0.0 on error"},
        {"toIPv4OrNull", FN_OWN_NULLS, named_resolve, conv_free, "parses IPv4, NULL on error"},
        {"toIPv4OrDefault", FN_OWN_NULLS, or_default_resolve, conv_free, "parses IPv4, 0.0.0.0 or the default on error"},
        {"toIPv6", FN_OWN_NULLS, named_resolve, conv_free, "converts to IPv6 (text, UInt128, IPv4 mapped)"},
        {"toIPv6OrZero", FN_OWN_NULLS, named_resolve, conv_free, "parses IPv6, :: on error"},
        {"toIPv6OrNull", FN_OWN_NULLS, named_resolve, conv_free, "parses IPv6, NULL on error"},
        {"toIPv6OrDefault", FN_OWN_NULLS, or_default_resolve, conv_free, "parses IPv6, :: or the default on error"},
        {"toLowCardinality", FN_OWN_NULLS | FN_OWN_LOWCARD, lowcard_resolve, conv_free,
         "the value as LowCardinality"},
    };
    for (size_t i = 0; i < sizeof defs / sizeof defs[0]; i++)
        func_register(&defs[i]);
}
