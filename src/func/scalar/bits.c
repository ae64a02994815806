/* Bit functions: bitAnd, bitOr, bitXor, bitNot, bitShiftLeft, bitShiftRight, bitTest,
 * bitCount, and the power-of-two helpers intExp2 and roundToExp2.
 *
 * Types as ClickHouse: bitAnd/Or/Xor take integers only and return the integer type of
 * the wider argument, signed when either is (UInt64 & Int64 -> Int64); bitNot keeps the
 * integer type (Bool -> UInt8) and truncates floats to Int32/Int64; shifts keep the type of
 * the first argument and give 0 for shifts of at least the type's width (a negative shift is
 * an error); bitTest checks the position against the type's width; bitCount counts the
 * bits of the value's representation (floats: their IEEE bits) as UInt8. intExp2 is 2^x as
 * UInt64 (x < 0 -> 0, x > 63 -> UInt64 max); roundToExp2 rounds down to a power of two
 * (integers <= 0 -> 0; floats keep their sign and exponent, dropping the mantissa).
 *
 * Kernels load operands into 128-bit integers (sign- or zero-extended by type) and store
 * with truncation, which reproduces two's-complement results for every width. */
#include "func/func.h"
#include "func/scalar/num.h"
#include "func/scalar/wide_ops.h"

#include "base/err.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { B_AND, B_OR, B_XOR, B_SHL, B_SHR };

static bool is_int_arg(const type *t) { return num_is_int(t); }

/* Loads n rows of column c (constant: one row repeated) as int128. */
static int128_t *load_i128(const type *t, const column *c, size_t n)
{
    int128_t *v = mem_alloc((n ? n : 1) * sizeof *v);
    if (c->is_const) {
        int128_t x;
        num_load_i128(t, c->data.p, 1, &x);
        for (size_t i = 0; i < n; i++) v[i] = x;
    } else if (t->id == T_UINT128) {
        memcpy(v, c->data.p, n * sizeof *v);
    } else {
        num_load_i128(t, c->data.p, n, v);
    }
    return v;
}

static int binary_exec(const fn_call *c, column **a, size_t n, column **out)
{
    int op = (int)(intptr_t)c->state;
    int128_t *x = load_i128(c->arg_types[0], a[0], n), *y = load_i128(c->arg_types[1], a[1], n);
    unsigned bits = num_size(c->ret) * 8;
    switch (op) {
    case B_AND: for (size_t i = 0; i < n; i++) x[i] &= y[i]; break;
    case B_OR: for (size_t i = 0; i < n; i++) x[i] |= y[i]; break;
    case B_XOR: for (size_t i = 0; i < n; i++) x[i] ^= y[i]; break;
    default: {
        bool uns128 = c->arg_types[1]->id == T_UINT128;
        for (size_t i = 0; i < n; i++) {
            if (y[i] < 0 && !uns128) {
                mem_free(x);
                mem_free(y);
                return err_set(ERR_ARGUMENT_OUT_OF_BOUND, "The number of shift positions needs to be a non-negative value");
            }
            if (y[i] < 0 || y[i] >= (int128_t)bits)
                x[i] = 0;
            else if (op == B_SHL)
                x[i] = (int128_t)((uint128_t)x[i] << (unsigned)y[i]);
            else
                x[i] >>= (unsigned)y[i]; /* x is sign-extended for signed types, zero-extended otherwise */
        }
        break;
    }
    }
    *out = num_store_i128(c->ret, x, n);
    mem_free(x);
    mem_free(y);
    return 0;
}

static int binary_resolve(fn_call *c)
{
    if (c->nargs != 2)
        return fn_bad_nargs(c, "2");
    const type *a = c->arg_types[0], *b = c->arg_types[1];
    if (type_is_wide(a) || type_is_wide(b))
        return wide_bit_resolve(c);
    if (!is_int_arg(a) || !is_int_arg(b))
        return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "Illegal types %s and %s of arguments of function %s", a->name,
                       b->name, c->name);
    const char *nm = c->def->name;
    int op = !strcmp(nm, "bitAnd") ? B_AND : !strcmp(nm, "bitOr") ? B_OR : !strcmp(nm, "bitXor") ? B_XOR
           : !strcmp(nm, "bitShiftLeft") ? B_SHL : B_SHR;
    c->state = (void *)(intptr_t)op;
    if (op == B_SHL || op == B_SHR) {
        c->ret = a->id == T_BOOL ? type_simple(T_UINT8) : a;
    } else {
        unsigned sz = num_size(a) > num_size(b) ? num_size(a) : num_size(b);
        c->ret = num_int_type(!num_is_uint(a) || !num_is_uint(b), sz);
    }
    c->exec = binary_exec;
    return 0;
}

/* ---- bitNot ---- */

static int not_exec(const fn_call *c, column **a, size_t n, column **out)
{
    const type *t = c->arg_types[0];
    int128_t *x;
    if (num_is_float(t)) {
        double *f = mem_alloc((n ? n : 1) * sizeof *f);
        num_load_f64(t, a[0]->data.p, n, f);
        x = mem_alloc((n ? n : 1) * sizeof *x);
        for (size_t i = 0; i < n; i++)
            x[i] = (isfinite(f[i]) && fabs(f[i]) < 9.2e18) ? (int128_t)(int64_t)f[i] : 0;
        mem_free(f);
    } else {
        x = load_i128(t, a[0], n);
    }
    for (size_t i = 0; i < n; i++) x[i] = ~x[i];
    *out = num_store_i128(c->ret, x, n);
    mem_free(x);
    return 0;
}

static int not_resolve(fn_call *c)
{
    if (c->nargs != 1)
        return fn_bad_nargs(c, "1");
    const type *t = c->arg_types[0];
    if (type_is_wide(t))
        return wide_unary_resolve(c);
    if (num_is_float(t))
        c->ret = type_simple(t->id == T_FLOAT32 ? T_INT32 : T_INT64);
    else if (is_int_arg(t))
        c->ret = t->id == T_BOOL ? type_simple(T_UINT8) : t;
    else
        return fn_bad_types(c);
    c->exec = not_exec;
    return 0;
}

/* ---- bitTest ---- */

static int test_exec(const fn_call *c, column **a, size_t n, column **out)
{
    int128_t *x = load_i128(c->arg_types[0], a[0], n), *y = load_i128(c->arg_types[1], a[1], n);
    unsigned bits = num_size(c->arg_types[0]) * 8;
    uint8_t *d;
    column *res = num_new_u8(n, &d);
    for (size_t i = 0; i < n; i++) {
        if (y[i] < 0 || y[i] >= (int128_t)bits) {
            char num[48];
            int128_t v = x[i];
            bool neg = v < 0;
            uint128_t u = neg ? -(uint128_t)v : (uint128_t)v;
            size_t k = sizeof num;
            num[--k] = 0;
            do num[--k] = (char)('0' + (int)(u % 10)); while ((u /= 10) > 0);
            if (neg)
                num[--k] = '-';
            mem_free(x);
            mem_free(y);
            col_free(res);
            return err_set(ERR_PARAMETER_OUT_OF_BOUND,
                           "The bit position argument needs to a positive value and less or equal to %u for integer %s",
                           bits - 1, num + k);
        }
        d[i] = (uint8_t)(((uint128_t)x[i] >> (unsigned)y[i]) & 1);
    }
    mem_free(x);
    mem_free(y);
    *out = res;
    return 0;
}

static int test_resolve(fn_call *c)
{
    if (c->nargs != 2)
        return fn_bad_nargs(c, "2");
    if (!is_int_arg(c->arg_types[0]) || !is_int_arg(c->arg_types[1]))
        return fn_bad_types(c);
    c->ret = type_simple(T_UINT8);
    c->exec = test_exec;
    return 0;
}

/* ---- bitCount ---- */

static int count_exec(const fn_call *c, column **a, size_t n, column **out)
{
    const type *t = c->arg_types[0];
    unsigned w = t->width;
    const uint8_t *p = a[0]->data.p;
    /* 256 bits can all be set: UInt16 then, as ClickHouse */
    column *res = col_new(c->ret);
    uint8_t *d8 = NULL;
    uint16_t *d16 = NULL;
    if (c->ret->id == T_UINT16)
        d16 = buf_grow(&res->data, n * 2);
    else
        d8 = buf_grow(&res->data, n);
    res->len = n;
    for (size_t i = 0; i < n; i++) {
        unsigned cnt = 0;
        const uint8_t *v = p + i * w;
        for (unsigned b = 0; b < w; b++)
            cnt += (unsigned)__builtin_popcount(v[b]);
        if (d16)
            d16[i] = (uint16_t)cnt;
        else
            d8[i] = (uint8_t)cnt;
    }
    *out = res;
    return 0;
}

static int count_resolve(fn_call *c)
{
    if (c->nargs != 1)
        return fn_bad_nargs(c, "1");
    const type *t = c->arg_types[0];
    if (!is_int_arg(t) && !num_is_float(t) && t->id != T_INT256 && t->id != T_UINT256)
        return fn_bad_types(c);
    c->ret = type_simple(t->width == 32 ? T_UINT16 : T_UINT8);
    c->exec = count_exec;
    return 0;
}

/* ---- intExp2 ---- */

static int exp2_exec(const fn_call *c, column **a, size_t n, column **out)
{
    const type *t = c->arg_types[0];
    double *f = mem_alloc((n ? n : 1) * sizeof *f);
    num_load_f64(t, a[0]->data.p, n, f);
    uint64_t *r = mem_alloc((n ? n : 1) * sizeof *r);
    for (size_t i = 0; i < n; i++) {
        double x = trunc(f[i]);
        r[i] = !(x >= 0) ? 0 : x > 63 ? UINT64_MAX : (uint64_t)1 << (unsigned)x;
    }
    *out = num_store_u64(c->ret, r, n);
    mem_free(f);
    mem_free(r);
    return 0;
}

static int exp2_resolve(fn_call *c)
{
    if (c->nargs != 1)
        return fn_bad_nargs(c, "1");
    const type *t = c->arg_types[0];
    if (!is_int_arg(t) && !num_is_float(t))
        return fn_bad_types(c);
    c->ret = type_simple(T_UINT64);
    c->exec = exp2_exec;
    return 0;
}

/* ---- roundToExp2 ---- */

static int rexp2_exec(const fn_call *c, column **a, size_t n, column **out)
{
    const type *t = c->ret;
    column *res = col_new(t);
    uint8_t *d = buf_grow(&res->data, n * t->width);
    res->len = n;
    memcpy(d, a[0]->data.p, n * t->width);
    if (t->id == T_FLOAT32) {
        uint32_t *v = (uint32_t *)(void *)d;
        for (size_t i = 0; i < n; i++) v[i] &= ~(((uint32_t)1 << 23) - 1);
    } else if (t->id == T_FLOAT64) {
        uint64_t *v = (uint64_t *)(void *)d;
        for (size_t i = 0; i < n; i++) v[i] &= ~(((uint64_t)1 << 52) - 1);
    } else {
        int128_t *x = load_i128(t, a[0], n);
        for (size_t i = 0; i < n; i++) {
            if (x[i] <= 0 && t->id != T_UINT128) {
                x[i] = 0;
                continue;
            }
            uint128_t u = (uint128_t)x[i], p = 1;
            while (u >>= 1) p <<= 1;
            x[i] = (int128_t)p;
        }
        col_free(res);
        res = num_store_i128(t, x, n);
        mem_free(x);
    }
    *out = res;
    return 0;
}

static int rexp2_resolve(fn_call *c)
{
    if (c->nargs != 1)
        return fn_bad_nargs(c, "1");
    const type *t = c->arg_types[0];
    if (!is_int_arg(t) && !num_is_float(t))
        return fn_bad_types(c);
    c->ret = t->id == T_BOOL ? type_simple(T_UINT8) : t;
    c->exec = rexp2_exec;
    return 0;
}

void func_register_bits(void)
{
    static const func_def defs[] = {
        {"bitAnd", 0, binary_resolve, NULL, "bitwise AND of two integers"},
        {"bitOr", 0, binary_resolve, NULL, "bitwise OR of two integers"},
        {"bitXor", 0, binary_resolve, NULL, "bitwise XOR of two integers"},
        {"bitShiftLeft", 0, binary_resolve, NULL, "shifts the bits of an integer left"},
        {"bitShiftRight", 0, binary_resolve, NULL, "shifts the bits of an integer right"},
        {"bitNot", 0, not_resolve, NULL, "bitwise NOT of an integer"},
        {"bitTest", 0, test_resolve, NULL, "the bit at a position (0 = least significant)"},
        {"bitCount", 0, count_resolve, NULL, "number of set bits"},
        {"intExp2", 0, exp2_resolve, NULL, "2 to the power x as UInt64"},
        {"roundToExp2", 0, rexp2_resolve, NULL, "rounds down to a power of two"},
    };
    for (size_t i = 0; i < sizeof defs / sizeof defs[0]; i++)
        func_register(&defs[i]);
}
