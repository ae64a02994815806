/* Conversions to and from Int256, UInt256 and Decimal256: see conv_wide.h.
 *
 * Every value goes through one i256 (with its source's signedness and scale), so one
 * loop serves all sources. ClickHouse's rules, checked against it:
 *   - integers to integers wrap (toUInt8(toInt256(300)) is 44); accurateCast refuses what
 *     does not fit;
 *   - floats to integers truncate through ClickHouse's own wide conversion (i256.h); NaN
 *     and infinities are errors;
 *   - decimals to integers truncate the fraction and must fit (DECIMAL_OVERFLOW);
 *   - integers to Decimal256 wrap (toDecimal256(toUInt256(-1), 0) is -1); to narrower
 *     decimals they must fit the storage integer;
 *   - floats to decimals must stay inside the storage range. */
#include "func/scalar/conv_wide.h"

#include "base/err.h"

#include <math.h>
#include <string.h>

static bool is_wide_id(type_id id) { return id == T_UINT256 || id == T_INT256 || id == T_DECIMAL256; }

static bool is_dec_id(type_id id)
{
    return id == T_DECIMAL32 || id == T_DECIMAL64 || id == T_DECIMAL128 || id == T_DECIMAL256;
}

static bool is_float_id(type_id id) { return id == T_FLOAT32 || id == T_FLOAT64; }

/* Integers, Bool and decimals: what this module reads and writes. Dates, enums and
 * DateTime64 with wide integers are left to a clear NOT_IMPLEMENTED. */
static bool plain_number(type_id id)
{
    return (id >= T_UINT8 && id <= T_INT128) || id == T_BOOL || is_float_id(id) || is_dec_id(id) || is_wide_id(id);
}

static bool unsigned_id(type_id id) { return (id >= T_UINT8 && id <= T_UINT128) || id == T_UINT256 || id == T_BOOL; }

bool conv_wide_ok(const type *from, const type *to)
{
    return (is_wide_id(from->id) || is_wide_id(to->id)) && plain_number(from->id) && plain_number(to->id);
}

static i256 pow10_256(int n)
{
    i256 m = i256_from_u64(1);
    bool over = false;
    for (int i = 0; i < n; i++)
        m = i256_mul_small_add(m, 10, 0, &over);
    return m;
}

/* The target's bits of v sign- or zero-extended back, as the target would read them. */
static i256 narrow(i256 v, const type *to)
{
    if (to->width >= 32)
        return v;
    i256 r = {{0}};
    memcpy(&r, &v, to->width);
    bool sign = !unsigned_id(to->id) && (((const uint8_t *)&r)[to->width - 1] & 0x80);
    if (sign)
        memset((uint8_t *)&r + to->width, 0xff, 32 - to->width);
    return r;
}

/* Whether the value v (negative per v_neg, i.e. read with its source's signedness) is
 * representable in the target integer (or decimal storage) type. */
static bool fits(i256 v, bool v_neg, const type *to)
{
    if (to->id == T_BOOL)
        return i256_is_zero(v) || i256_eq(v, i256_from_u64(1));
    bool to_unsigned = unsigned_id(to->id);
    if (v_neg && to_unsigned)
        return false;
    if (!v_neg && i256_is_neg(v)) /* >= 2^255 as unsigned */
        return to->id == T_UINT256;
    if (to->width >= 32)
        return true;
    i256 back = narrow(v, to);
    return i256_eq(back, v) && i256_is_neg(back) == v_neg;
}

/* accurateCast from a float: the conversion must be exact (ClickHouse compares the result
 * with the float) and fit the target. */
static bool exact_fit(double d, const type *to)
{
    i256 e;
    return i256_from_double_exact(d, &e) == 0 && i256_eq(e, i256_from_double(d)) && fits(e, d < 0, to);
}

static int row_error(uint8_t *fail, const uint8_t *skip, size_t i)
{
    if ((skip && skip[i]) || fail) {
        if (fail && !(skip && skip[i]))
            fail[i] = 1;
        err_clear();
        return 0;
    }
    return -1;
}

static void store_f(column *res, size_t i, double x, const type *to)
{
    uint8_t *d = res->data.p + (size_t)i * to->width;
    if (to->id == T_FLOAT32) {
        float f = (float)x;
        memcpy(d, &f, 4);
    } else {
        memcpy(d, &x, 8);
    }
}

static void store(column *res, size_t i, i256 v, bool v_neg, const type *to)
{
    uint8_t *d = res->data.p + (size_t)i * to->width;
    if (to->id == T_BOOL) {
        d[0] = !i256_is_zero(v);
    } else if (is_float_id(to->id)) {
        store_f(res, i, v_neg ? i256_to_double_s(v) : i256_to_double_u(v), to);
    } else {
        memcpy(d, &v, to->width); /* low bytes, little-endian: the wrap-around */
    }
}

int conv_wide(const column *src, const type *to, uint8_t *fail, const uint8_t *skip, bool accurate, column **out)
{
    const type *from = type_phys(src->type);
    if (!conv_wide_ok(from, to))
        return err_set(ERR_NOT_IMPLEMENTED, "Conversion from %s to %s is not implemented", from->name, to->name);
    size_t n = src->len;
    column *res = col_new(to);
    buf_grow(&res->data, n * to->width);
    memset(res->data.p, 0, n * to->width);
    res->len = n;
    if ((to->id == T_INT256 || to->id == T_UINT256) && !accurate && !is_dec_id(from->id) && !is_float_id(from->id)) {
        col_get_i256_n(src, n, (i256 *)(void *)res->data.p); /* integers widen without checks */
        *out = res;
        return 0;
    }
    bool from_dec = is_dec_id(from->id), to_dec = is_dec_id(to->id);
    bool from_unsigned = unsigned_id(from->id);
    int fs = from_dec ? from->scale : 0, ts = to_dec ? to->scale : 0;
    i256 up = pow10_256(ts > fs ? ts - fs : 0), down = pow10_256(fs > ts ? fs - ts : 0);
    /* Decimal32..128 targets store into their integer; check against it. */
    const type *storage = to->id == T_DECIMAL32 ? type_simple(T_INT32)
                          : to->id == T_DECIMAL64 ? type_simple(T_INT64)
                          : to->id == T_DECIMAL128 ? type_simple(T_INT128)
                          : to->id == T_DECIMAL256 ? type_simple(T_INT256) : to;
    for (size_t i = 0; i < n; i++) {
        i256 v;
        bool neg;
        if (is_float_id(from->id)) {
            double d = col_get_f64(src, i);
            if (!isfinite(d)) {
                if (to_dec)
                    err_set(ERR_DECIMAL_OVERFLOW, "Decimal convert overflow. Cannot convert infinity or NaN to decimal");
                else
                    err_set(ERR_CANNOT_CONVERT_TYPE, "Unexpected inf or nan to integer conversion");
                if (row_error(fail, skip, i) < 0)
                    goto fail;
                continue;
            }
            if (is_float_id(to->id)) { /* not reached: float to float is conv.c's */
                store(res, i, i256_from_double(d), d < 0, to);
                continue;
            }
            double s = d * i256_to_double_u(pow10_256(ts));
            if (to_dec ? fabs(s) >= 0x1p255 || (to->width < 32 && !fits(i256_from_double(s), s < 0, storage))
                       : accurate && !exact_fit(s, to)) {
                if (to_dec)
                    err_set(ERR_DECIMAL_OVERFLOW, "Decimal convert overflow. Float is out of Decimal range");
                else
                    err_set(ERR_CANNOT_CONVERT_TYPE, "Value in column %s cannot be safely converted into type %s",
                            from->name, to->name);
                if (row_error(fail, skip, i) < 0)
                    goto fail;
                continue;
            }
            v = i256_from_double(s);
            neg = s < 0;
        } else {
            v = col_get_i256(src, i);
            neg = !from_unsigned && i256_is_neg(v);
            if (from_dec && !to_dec) { /* to an integer or a float: drop the fraction */
                if (is_float_id(to->id)) {
                    double x = (neg ? i256_to_double_s(v) : i256_to_double_u(v)) / i256_to_double_u(pow10_256(fs));
                    store_f(res, i, x, to);
                    continue;
                }
                i256 q, r;
                i256_divmod_s(v, down, &q, &r);
                v = q;
                neg = i256_is_neg(v);
                if (to->id != T_BOOL && !fits(v, neg, to)) {
                    err_set(ERR_DECIMAL_OVERFLOW, "Convert overflow");
                    if (row_error(fail, skip, i) < 0)
                        goto fail;
                    continue;
                }
            } else if (to_dec) {
                if (fs > ts) {
                    i256 q, r;
                    if (neg || !from_unsigned)
                        i256_divmod_s(v, down, &q, &r);
                    else
                        i256_divmod_u(v, down, &q, &r);
                    v = q;
                } else if (ts > fs) {
                    i256 p;
                    i256 mag = neg ? i256_neg(v) : v;
                    bool over = i256_mul_overflow_u(mag, up, &p) || (to->width < 32 && i256_is_neg(p));
                    if (over && to->id != T_DECIMAL256) {
                        err_set(ERR_DECIMAL_OVERFLOW, "Decimal convert overflow");
                        if (row_error(fail, skip, i) < 0)
                            goto fail;
                        continue;
                    }
                    v = neg ? i256_neg(p) : p;
                }
                if (to->id != T_DECIMAL256 && !fits(v, neg, storage)) {
                    err_set(ERR_DECIMAL_OVERFLOW, "Decimal convert overflow");
                    if (row_error(fail, skip, i) < 0)
                        goto fail;
                    continue;
                }
            } else if (accurate && !is_float_id(to->id) && !fits(v, neg, to)) {
                err_set(ERR_CANNOT_CONVERT_TYPE, "Value in column %s cannot be safely converted into type %s",
                        from->name, to->name);
                if (row_error(fail, skip, i) < 0)
                    goto fail;
                continue;
            }
        }
        store(res, i, v, neg, to);
    }
    *out = res;
    return 0;
fail:
    col_free(res);
    return -1;
}
