/* 256-bit integers for Int256, UInt256 and Decimal256.
 *
 * A value is four 64-bit limbs, least significant first: on a little-endian machine that is
 * exactly the 32 bytes ClickHouse keeps in memory, on disk, in Native and in RowBinary, so
 * column data can be memcpy'd to and from `i256`. Signed values are two's complement in the
 * same bits; the `_s` functions read them as signed, the `_u` ones as unsigned, and the
 * rest (add, sub, mul, bit operations) are the same for both and wrap around modulo 2^256,
 * as ClickHouse's wide integers do.
 *
 * Pure functions on values: no allocation, no global state, thread-safe. Errors (division
 * by zero, a malformed or out-of-range string) come back as a return value; nothing here
 * sets err.h's error. */
#ifndef SHALE_BASE_I256_H
#define SHALE_BASE_I256_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct i256 {
    uint64_t w[4]; /* w[0] least significant */
} i256;

/* Enough for "-" and 78 digits and the terminating zero. */
#define I256_STR_MAX 80

static inline i256 i256_from_u64(uint64_t v) { return (i256){{v, 0, 0, 0}}; }
static inline i256 i256_from_i64(int64_t v)
{
    uint64_t s = v < 0 ? ~(uint64_t)0 : 0;
    return (i256){{(uint64_t)v, s, s, s}};
}
static inline i256 i256_from_u128(unsigned __int128 v)
{
    return (i256){{(uint64_t)v, (uint64_t)(v >> 64), 0, 0}};
}
static inline i256 i256_from_i128(__int128 v)
{
    uint64_t s = v < 0 ? ~(uint64_t)0 : 0;
    return (i256){{(uint64_t)v, (uint64_t)((unsigned __int128)v >> 64), s, s}};
}
/* The low 128 bits (the wrap-around conversion to (U)Int128 and narrower). */
static inline unsigned __int128 i256_low128(i256 a) { return (unsigned __int128)a.w[1] << 64 | a.w[0]; }

static inline bool i256_is_zero(i256 a) { return !(a.w[0] | a.w[1] | a.w[2] | a.w[3]); }
static inline bool i256_is_neg(i256 a) { return a.w[3] >> 63; }
static inline bool i256_eq(i256 a, i256 b)
{
    return a.w[0] == b.w[0] && a.w[1] == b.w[1] && a.w[2] == b.w[2] && a.w[3] == b.w[3];
}

int i256_cmp_u(i256 a, i256 b); /* -1, 0, 1 */
int i256_cmp_s(i256 a, i256 b);

i256 i256_add(i256 a, i256 b);
i256 i256_sub(i256 a, i256 b);
i256 i256_mul(i256 a, i256 b);
i256 i256_neg(i256 a);
i256 i256_not(i256 a);
i256 i256_and(i256 a, i256 b);
i256 i256_or(i256 a, i256 b);
i256 i256_xor(i256 a, i256 b);
i256 i256_shl(i256 a, unsigned n);   /* n >= 256 gives 0 */
i256 i256_shr_u(i256 a, unsigned n); /* logical */
i256 i256_shr_s(i256 a, unsigned n); /* arithmetic */

/* Multiplies by m, adds d; *overflow is set (never cleared) when the unsigned result does
 * not fit in 256 bits. Used by parsers and decimal scaling. */
i256 i256_mul_small_add(i256 a, uint64_t m, uint64_t d, bool *overflow);
/* true when a * b overflows as unsigned (the product still wraps). */
bool i256_mul_overflow_u(i256 a, i256 b, i256 *product);

/* Truncating division; the remainder has the dividend's sign for the signed form. Return
 * -1 when b is zero (q and r untouched). Signed MIN / -1 wraps to MIN, remainder 0. */
int i256_divmod_u(i256 a, i256 b, i256 *q, i256 *r);
int i256_divmod_s(i256 a, i256 b, i256 *q, i256 *r);

/* Decimal text; return the length written (without the terminating zero) to out, which
 * needs I256_STR_MAX bytes. */
size_t i256_to_str_u(i256 a, char *out);
size_t i256_to_str_s(i256 a, char *out);

/* Parses [+-]digits (the whole of s[0..n)), wrapping modulo 2^256 as ClickHouse's parser
 * does (toUInt256 of 2^256 + 5 is 5). Return 0, -1 on a malformed string, -2 for a '-' in
 * the unsigned form (ClickHouse refuses it). */
int i256_from_str_u(const char *s, size_t n, i256 *out);
int i256_from_str_s(const char *s, size_t n, i256 *out);

double i256_to_double_u(i256 a);
double i256_to_double_s(i256 a);
/* Truncates toward zero, reproducing ClickHouse's wide-integer conversion bit for bit
 * (including its long double approximations above 2^64 and its wrap-around past 2^256).
 * NaN and infinities give 0; callers that must refuse them check first. */
i256 i256_from_double(double v);
/* The exact value of an integral v with |v| < 2^256 (two's complement when negative):
 * 0, or -1 for fractions, NaN, infinities and larger magnitudes. accurateCast compares
 * it with i256_from_double's result, as ClickHouse compares the converted value with v. */
int i256_from_double_exact(double v, i256 *out);

#endif
