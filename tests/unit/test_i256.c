/* Unit tests of the 256-bit integer module (base/i256.h): fixed values checked against
 * ClickHouse 26.7, and random identities (q * b + r == a, string round trips, agreement
 * with __int128 wherever both apply). */
#include "base/i256.h"
#include "check.h"

#include <stdlib.h>

static uint64_t rng = 88172645463325252ull;
static uint64_t next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

/* Random value with a random number of significant limbs, so short divisors occur. */
static i256 rnd(void)
{
    i256 a = {{next(), next(), next(), next()}};
    int limbs = (int)(next() % 4) + 1;
    for (int i = limbs; i < 4; i++)
        a.w[i] = 0;
    if (next() % 4 == 0)
        a.w[limbs - 1] >>= next() % 64;
    return a;
}

static const char *str_s(i256 a)
{
    static char buf[4][I256_STR_MAX];
    static int k;
    char *b = buf[k++ % 4];
    i256_to_str_s(a, b);
    return b;
}

static const char *str_u(i256 a)
{
    static char buf[I256_STR_MAX];
    i256_to_str_u(a, buf);
    return buf;
}

static i256 parse_s(const char *s)
{
    i256 v = {{0}};
    CHECK(i256_from_str_s(s, strlen(s), &v) == 0);
    return v;
}

static void test_text(void)
{
    CHECK_STR(str_s(i256_from_i64(0)), "0");
    CHECK_STR(str_s(i256_from_i64(-15)), "-15");
    CHECK_STR(str_u(i256_from_i64(-1)),
              "115792089237316195423570985008687907853269984665640564039457584007913129639935");
    CHECK_STR(str_s(i256_shl(i256_from_u64(1), 255)),
              "-57896044618658097711785492504343953926634992332820282019728792003956564819968");
    CHECK_STR(str_s(i256_from_u64(10000000000000000000ull)), "10000000000000000000");
    /* wrap-around as ClickHouse's parser does */
    CHECK_STR(str_s(parse_s("57896044618658097711785492504343953926634992332820282019728792003956564819968")),
              "-57896044618658097711785492504343953926634992332820282019728792003956564819968");
    i256 v;
    CHECK(i256_from_str_u("115792089237316195423570985008687907853269984665640564039457584007913129639941", 78, &v) == 0);
    CHECK_STR(str_u(v), "5");
    CHECK(i256_from_str_u("-1", 2, &v) == -2);
    CHECK(i256_from_str_s("1x", 2, &v) == -1);
    CHECK(i256_from_str_s("", 0, &v) == -1);
    CHECK(i256_from_str_s("-", 1, &v) == -1);
    CHECK_STR(str_s(parse_s("+5")), "5");
    CHECK_STR(str_s(parse_s("-0")), "0");
}

static void test_arith(void)
{
    i256 q, r;
    CHECK(i256_divmod_s(i256_from_i64(-7), i256_from_i64(2), &q, &r) == 0);
    CHECK_STR(str_s(q), "-3");
    CHECK_STR(str_s(r), "-1");
    CHECK(i256_divmod_s(i256_from_i64(-7), i256_from_i64(-3), &q, &r) == 0);
    CHECK_STR(str_s(q), "2");
    CHECK_STR(str_s(r), "-1");
    CHECK(i256_divmod_u(i256_from_i64(7), i256_from_i64(0), &q, &r) == -1);
    i256 min = i256_shl(i256_from_u64(1), 255);
    CHECK(i256_divmod_s(min, i256_from_i64(-1), &q, &r) == 0);
    CHECK(i256_eq(q, min) && i256_is_zero(r));
    CHECK(i256_is_zero(i256_add(i256_from_i64(-1), i256_from_u64(1))));
    CHECK_STR(str_s(i256_mul(i256_from_i64(-5), i256_from_i64(3))), "-15");
    CHECK(i256_cmp_s(i256_from_i64(-1), i256_from_u64(1)) < 0);
    CHECK(i256_cmp_u(i256_from_i64(-1), i256_from_u64(1)) > 0);
    CHECK_STR(str_s(i256_shr_s(i256_from_i64(-256), 4)), "-16");
    CHECK_STR(str_s(i256_shr_u(i256_shl(i256_from_u64(3), 200), 199)), "6");

    for (int it = 0; it < 20000; it++) {
        i256 a = rnd(), b = rnd();
        if (i256_is_zero(b))
            continue;
        CHECK(i256_divmod_u(a, b, &q, &r) == 0);
        CHECK(i256_cmp_u(r, b) < 0);
        CHECK(i256_eq(i256_add(i256_mul(q, b), r), a));
        CHECK(i256_eq(i256_sub(i256_add(a, b), b), a));
        i256 sa = next() % 2 ? i256_neg(a) : a, sb = next() % 2 ? i256_neg(b) : b;
        CHECK(i256_divmod_s(sa, sb, &q, &r) == 0);
        CHECK(i256_eq(i256_add(i256_mul(q, sb), r), sa));
        char buf[I256_STR_MAX];
        size_t n = i256_to_str_s(sa, buf);
        i256 back;
        CHECK(i256_from_str_s(buf, n, &back) == 0 && i256_eq(back, sa));
        /* where __int128 applies, it must agree */
        __int128 x = (__int128)(((unsigned __int128)next() << 64 | next()) >> (next() % 127));
        __int128 y = (__int128)(((unsigned __int128)next() << 64 | next()) >> (next() % 127 + 1));
        if (next() % 2)
            x = -x;
        if (next() % 2)
            y = -y;
        if (y == 0)
            continue;
        i256 X = i256_from_i128(x), Y = i256_from_i128(y);
        CHECK(i256_divmod_s(X, Y, &q, &r) == 0);
        CHECK(i256_eq(q, i256_from_i128(x / y)) && i256_eq(r, i256_from_i128(x % y)));
        CHECK(i256_cmp_s(X, Y) == (x < y ? -1 : x > y));
        CHECK((unsigned __int128)i256_low128(i256_mul(X, Y)) == (unsigned __int128)x * (unsigned __int128)y);
    }
}

static void test_double(void)
{
    /* values from ClickHouse 26.7 (toInt256 / toUInt256 of a Float64) */
    CHECK_STR(str_s(i256_from_double(1e76)),
              "10000000000000000468975041700326439164102534195992280967396974317317789248000");
    CHECK_STR(str_s(i256_from_double(1e80)),
              "-44365101041192841035637724060347859689903013068527972362349355714120035335329");
    CHECK_STR(str_s(i256_from_double(-1e20)), "-100000000000000000003");
    CHECK_STR(str_s(i256_from_double(1.5e19)), "15000000000000000000");
    CHECK_STR(str_s(i256_from_double(1e30)), "1000000000000000019899134206768");
    CHECK_STR(str_s(i256_from_double(-3.9e25)), "-39000000000000002032123246");
    CHECK_STR(str_s(i256_from_double(-1.9)), "-1");
    CHECK_STR(str_u(i256_from_double(1e77)),
              "99999999999999998261998239967303290518524403776395359287976164277962754304000");
    CHECK(i256_to_double_s(i256_from_i64(-12345)) == -12345.0);
    CHECK(i256_to_double_u(i256_from_i64(-1)) == 0x1p256);
    CHECK(i256_to_double_s(i256_shl(i256_from_u64(1), 255)) == -0x1p255);
    CHECK(i256_to_double_s(parse_s("-12345678901234567890123")) == -1.2345678901234568e22);
    i256 e;
    CHECK(i256_from_double_exact(1e20, &e) == 0);
    CHECK_STR(str_s(e), "100000000000000000000");
    CHECK(i256_from_double_exact(-0x1p255, &e) == 0 && i256_eq(e, i256_shl(i256_from_u64(1), 255)));
    CHECK(i256_from_double_exact(1.5, &e) == -1);
    CHECK(i256_from_double_exact(0x1p256, &e) == -1);
    CHECK(i256_from_double_exact(-7, &e) == 0 && i256_eq(e, i256_from_i64(-7)));
}

int main(void)
{
    test_text();
    test_arith();
    test_double();
    return check_done("i256");
}
