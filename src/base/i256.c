/* 256-bit integer arithmetic: see i256.h. Schoolbook algorithms on 64-bit limbs with
 * unsigned __int128 for carries; division is Knuth's algorithm D on 32-bit digits, which
 * keeps every partial product inside 64 bits and stays short and easy to check. */
#include "base/i256.h"

#include <math.h>
#include <string.h>

typedef unsigned __int128 u128;

int i256_cmp_u(i256 a, i256 b)
{
    for (int i = 3; i >= 0; i--)
        if (a.w[i] != b.w[i])
            return a.w[i] < b.w[i] ? -1 : 1;
    return 0;
}

int i256_cmp_s(i256 a, i256 b)
{
    bool na = i256_is_neg(a), nb = i256_is_neg(b);
    if (na != nb)
        return na ? -1 : 1;
    return i256_cmp_u(a, b); /* same sign: two's complement orders like unsigned */
}

i256 i256_add(i256 a, i256 b)
{
    i256 r;
    u128 c = 0;
    for (int i = 0; i < 4; i++) {
        c += (u128)a.w[i] + b.w[i];
        r.w[i] = (uint64_t)c;
        c >>= 64;
    }
    return r;
}

i256 i256_sub(i256 a, i256 b)
{
    i256 r;
    uint64_t borrow = 0;
    for (int i = 0; i < 4; i++) {
        u128 d = (u128)a.w[i] - b.w[i] - borrow;
        r.w[i] = (uint64_t)d;
        borrow = (uint64_t)(d >> 64) & 1;
    }
    return r;
}

/* Full 512-bit product's low half; *high_nonzero tells whether anything spilled past it. */
static i256 mul_full(i256 a, i256 b, bool *spill)
{
    uint64_t r[8] = {0};
    for (int i = 0; i < 4; i++) {
        if (!a.w[i]) /* small operands are common: their zero limbs add nothing */
            continue;
        u128 c = 0;
        for (int j = 0; j < 4; j++) {
            c += (u128)a.w[i] * b.w[j] + r[i + j];
            r[i + j] = (uint64_t)c;
            c >>= 64;
        }
        r[i + 4] = (uint64_t)c;
    }
    if (spill)
        *spill = (r[4] | r[5] | r[6] | r[7]) != 0;
    return (i256){{r[0], r[1], r[2], r[3]}};
}

i256 i256_mul(i256 a, i256 b) { return mul_full(a, b, NULL); }

bool i256_mul_overflow_u(i256 a, i256 b, i256 *product)
{
    bool spill;
    *product = mul_full(a, b, &spill);
    return spill;
}

i256 i256_mul_small_add(i256 a, uint64_t m, uint64_t d, bool *overflow)
{
    i256 r;
    u128 c = d;
    for (int i = 0; i < 4; i++) {
        c += (u128)a.w[i] * m;
        r.w[i] = (uint64_t)c;
        c >>= 64;
    }
    if (c)
        *overflow = true;
    return r;
}

i256 i256_neg(i256 a) { return i256_sub(i256_from_u64(0), a); }
i256 i256_not(i256 a) { return (i256){{~a.w[0], ~a.w[1], ~a.w[2], ~a.w[3]}}; }
i256 i256_and(i256 a, i256 b) { return (i256){{a.w[0] & b.w[0], a.w[1] & b.w[1], a.w[2] & b.w[2], a.w[3] & b.w[3]}}; }
i256 i256_or(i256 a, i256 b) { return (i256){{a.w[0] | b.w[0], a.w[1] | b.w[1], a.w[2] | b.w[2], a.w[3] | b.w[3]}}; }
i256 i256_xor(i256 a, i256 b) { return (i256){{a.w[0] ^ b.w[0], a.w[1] ^ b.w[1], a.w[2] ^ b.w[2], a.w[3] ^ b.w[3]}}; }

i256 i256_shl(i256 a, unsigned n)
{
    i256 r = {{0}};
    if (n >= 256)
        return r;
    unsigned limbs = n / 64, bits = n % 64;
    for (unsigned i = limbs; i < 4; i++) {
        r.w[i] = a.w[i - limbs] << bits;
        if (bits && i > limbs)
            r.w[i] |= a.w[i - limbs - 1] >> (64 - bits);
    }
    return r;
}

static i256 shr(i256 a, unsigned n, uint64_t fill)
{
    i256 r = {{fill, fill, fill, fill}};
    if (n >= 256)
        return r;
    unsigned limbs = n / 64, bits = n % 64;
    for (unsigned i = 0; i + limbs < 4; i++) {
        r.w[i] = a.w[i + limbs] >> bits;
        uint64_t next = i + limbs + 1 < 4 ? a.w[i + limbs + 1] : fill;
        if (bits)
            r.w[i] |= next << (64 - bits);
    }
    return r;
}

i256 i256_shr_u(i256 a, unsigned n) { return shr(a, n, 0); }
i256 i256_shr_s(i256 a, unsigned n) { return shr(a, n, i256_is_neg(a) ? ~(uint64_t)0 : 0); }

/* ---- division ---- */

static int digits32(const uint32_t *d, int n)
{
    while (n > 0 && d[n - 1] == 0)
        n--;
    return n;
}

static void to32(i256 a, uint32_t d[8])
{
    for (int i = 0; i < 4; i++) {
        d[2 * i] = (uint32_t)a.w[i];
        d[2 * i + 1] = (uint32_t)(a.w[i] >> 32);
    }
}

static i256 from32(const uint32_t d[8])
{
    i256 r;
    for (int i = 0; i < 4; i++)
        r.w[i] = (uint64_t)d[2 * i + 1] << 32 | d[2 * i];
    return r;
}

int i256_divmod_u(i256 a, i256 b, i256 *q, i256 *r)
{
    uint32_t u[9] = {0}, v[8], qd[8] = {0};
    to32(b, v);
    int n = digits32(v, 8);
    if (n == 0)
        return -1;
    if (i256_cmp_u(a, b) < 0) {
        *r = a;
        *q = i256_from_u64(0);
        return 0;
    }
    to32(a, u);
    int m = digits32(u, 8);
    if (n == 1) { /* short division */
        uint64_t rem = 0;
        for (int i = m - 1; i >= 0; i--) {
            uint64_t cur = rem << 32 | u[i];
            qd[i] = (uint32_t)(cur / v[0]);
            rem = cur % v[0];
        }
        *q = from32(qd);
        *r = i256_from_u64(rem);
        return 0;
    }
    /* Knuth D: normalise so the divisor's top digit has its high bit set. */
    int s = __builtin_clz(v[n - 1]);
    uint32_t vn[8] = {0}, un[9] = {0};
    for (int i = n - 1; i > 0; i--)
        vn[i] = v[i] << s | (s ? (uint32_t)((uint64_t)v[i - 1] >> (32 - s)) : 0);
    vn[0] = v[0] << s;
    un[m] = s ? (uint32_t)((uint64_t)u[m - 1] >> (32 - s)) : 0;
    for (int i = m - 1; i > 0; i--)
        un[i] = u[i] << s | (s ? (uint32_t)((uint64_t)u[i - 1] >> (32 - s)) : 0);
    un[0] = u[0] << s;
    for (int j = m - n; j >= 0; j--) {
        uint64_t num = (uint64_t)un[j + n] << 32 | un[j + n - 1];
        uint64_t qhat = num / vn[n - 1], rhat = num % vn[n - 1];
        while (qhat >> 32 || qhat * vn[n - 2] > (rhat << 32 | un[j + n - 2])) {
            qhat--;
            rhat += vn[n - 1];
            if (rhat >> 32)
                break;
        }
        int64_t borrow = 0;
        uint64_t carry = 0;
        for (int i = 0; i < n; i++) {
            uint64_t p = qhat * vn[i] + carry;
            carry = p >> 32;
            int64_t t = (int64_t)un[i + j] - borrow - (int64_t)(uint32_t)p;
            un[i + j] = (uint32_t)t;
            borrow = t < 0 ? 1 : 0;
        }
        int64_t t = (int64_t)un[j + n] - borrow - (int64_t)carry;
        un[j + n] = (uint32_t)t;
        if (t < 0) { /* qhat was one too large: add the divisor back */
            qhat--;
            uint64_t c = 0;
            for (int i = 0; i < n; i++) {
                c += (uint64_t)un[i + j] + vn[i];
                un[i + j] = (uint32_t)c;
                c >>= 32;
            }
            un[j + n] += (uint32_t)c;
        }
        qd[j] = (uint32_t)qhat;
    }
    uint32_t rd[8] = {0};
    for (int i = 0; i < n; i++)
        rd[i] = un[i] >> s | (s ? (uint32_t)((uint64_t)un[i + 1] << (32 - s)) : 0);
    *q = from32(qd);
    *r = from32(rd);
    return 0;
}

int i256_divmod_s(i256 a, i256 b, i256 *q, i256 *r)
{
    bool na = i256_is_neg(a), nb = i256_is_neg(b);
    i256 qq, rr;
    if (i256_divmod_u(na ? i256_neg(a) : a, nb ? i256_neg(b) : b, &qq, &rr))
        return -1;
    *q = na != nb ? i256_neg(qq) : qq;
    *r = na ? i256_neg(rr) : rr;
    return 0;
}

/* ---- text ---- */

size_t i256_to_str_u(i256 a, char *out)
{
    char tmp[I256_STR_MAX];
    size_t n = 0;
    /* Peel off 19 digits at a time by dividing by 10^19. */
    const i256 chunk = i256_from_u64(10000000000000000000ull);
    do {
        i256 q, r;
        i256_divmod_u(a, chunk, &q, &r);
        uint64_t d = r.w[0];
        bool last = i256_is_zero(q);
        for (int k = 0; k < 19 && (!last || d); k++) {
            tmp[n++] = (char)('0' + d % 10);
            d /= 10;
        }
        a = q;
    } while (!i256_is_zero(a));
    if (n == 0)
        tmp[n++] = '0';
    for (size_t i = 0; i < n; i++)
        out[i] = tmp[n - 1 - i];
    out[n] = 0;
    return n;
}

size_t i256_to_str_s(i256 a, char *out)
{
    if (!i256_is_neg(a))
        return i256_to_str_u(a, out);
    out[0] = '-';
    return 1 + i256_to_str_u(i256_neg(a), out + 1);
}

/* Digits with an optional sign; *neg says whether it was '-'. Accumulates modulo 2^256 and
 * reports whether the magnitude exceeded 256 bits (ClickHouse's parsers wrap silently, so
 * callers ignore it). */
static int parse_digits(const char *s, size_t n, i256 *out, bool *neg, bool *overflow)
{
    size_t i = 0;
    *neg = false;
    if (i < n && (s[i] == '+' || s[i] == '-'))
        *neg = s[i++] == '-';
    if (i == n)
        return -1;
    i256 v = i256_from_u64(0);
    for (; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return -1;
        v = i256_mul_small_add(v, 10, (uint64_t)(s[i] - '0'), overflow);
    }
    *out = v;
    return 0;
}

int i256_from_str_u(const char *s, size_t n, i256 *out)
{
    bool neg, over = false;
    i256 v;
    if (parse_digits(s, n, &v, &neg, &over))
        return -1;
    if (neg)
        return -2;
    *out = v;
    return 0;
}

int i256_from_str_s(const char *s, size_t n, i256 *out)
{
    bool neg, over = false;
    i256 v;
    if (parse_digits(s, n, &v, &neg, &over))
        return -1;
    *out = neg ? i256_neg(v) : v;
    return 0;
}

/* ---- floating point ---- */

double i256_to_double_u(i256 a)
{
    /* Sum from the top limb down; long double keeps the rounding to one final step for
     * all values up to 2^64 significant bits, like a direct conversion would. */
    long double r = 0;
    for (int i = 3; i >= 0; i--)
        r = r * 18446744073709551616.0L + (long double)a.w[i];
    return (double)r;
}

double i256_to_double_s(i256 a)
{
    return i256_is_neg(a) ? -i256_to_double_u(i256_neg(a)) : i256_to_double_u(a);
}

/* ClickHouse's wide-integer conversion from a floating value t >= 2^63: split t into
 * a * (2^64 - 1) + b with a, b computed in long double (recursing on a in double when a is
 * itself too large), and assemble a * (2^64 - 1) + b modulo 2^256. Reproduced step by step
 * because the approximations are visible in results (toInt256(1e76) is not 1e76's exact
 * value). */
static i256 from_long_double(long double t, bool outer)
{
    if (!isfinite(t))
        return i256_from_u64(0);
    const uint64_t max_int = UINT64_MAX;
    long double alpha = outer ? t / (long double)max_int : (long double)((double)t / (double)max_int);
    i256 self;
    bool small = outer ? alpha < (long double)max_int : (double)alpha < (double)max_int;
    if (small)
        self = i256_from_u64((uint64_t)alpha);
    else
        self = from_long_double((long double)(double)alpha, false);
    self = i256_mul(self, i256_from_u64(max_int));
    long double sub;
    uint64_t b;
    if (outer) {
        sub = floorl(alpha) * (long double)max_int;
        b = (uint64_t)(t - sub);
    } else {
        double da = (double)alpha;
        double dsub = floor(da) * (double)max_int;
        b = (uint64_t)((double)t - dsub);
    }
    return i256_add(self, i256_from_u64(b));
}

i256 i256_from_double(double v)
{
    if (isnan(v))
        return i256_from_u64(0);
    if ((long double)v > (long double)INT64_MIN && (long double)v < (long double)INT64_MAX)
        return i256_from_i64((int64_t)v);
    long double a = v < 0 ? -(long double)v : (long double)v;
    i256 r = from_long_double(a, true);
    return v < 0 ? i256_neg(r) : r;
}

int i256_from_double_exact(double v, i256 *out)
{
    if (!isfinite(v) || v != trunc(v) || fabs(v) >= 0x1p256)
        return -1;
    double a = fabs(v);
    i256 r;
    if (a < 0x1p63) {
        r = i256_from_u64((uint64_t)a);
    } else {
        int e;
        double m = frexp(a, &e); /* a = m * 2^e, 0.5 <= m < 1, e > 63 */
        r = i256_shl(i256_from_u64((uint64_t)ldexp(m, 53)), (unsigned)(e - 53));
    }
    *out = v < 0 ? i256_neg(r) : r;
    return 0;
}
