/* Hash functions with ClickHouse's values: xxHash64 (XXH64, seed 0, from libxxhash),
 * sipHash64 (SipHash-2-4, key 0), intHash64 and cityHash64.
 *
 * As in ClickHouse, numbers hash their native little-endian bytes (xxHash64, sipHash64),
 * except cityHash64, which applies intHash64 to a single integer. Several arguments hash
 * separately and fold left with the function's own combine step: sipHash64 hashes the
 * 16 bytes (h_prev, h_next), xxHash64 and cityHash64 use CityHash's Hash128to64.
 * cityHash64 is CityHash v1.0.2 (ClickHouse's version), written from the algorithm.
 * Not supported: Array and Tuple arguments (ILLEGAL_TYPE_OF_ARGUMENT). */
#include "func/func.h"
#include "func/scalar/num.h"

#include "base/err.h"

#include <stdlib.h>
#include <xxhash.h>

static inline uint64_t rotl(uint64_t x, int b) { return (x << b) | (x >> (64 - b)); }

#define SIPROUND                                                        \
    do {                                                                \
        v0 += v1; v1 = rotl(v1, 13); v1 ^= v0; v0 = rotl(v0, 32);       \
        v2 += v3; v3 = rotl(v3, 16); v3 ^= v2;                          \
        v0 += v3; v3 = rotl(v3, 21); v3 ^= v0;                          \
        v2 += v1; v1 = rotl(v1, 17); v1 ^= v2; v2 = rotl(v2, 32);       \
    } while (0)

/* SipHash-2-4 with a zero key. */
static uint64_t siphash64(const void *data, size_t n)
{
    const uint8_t *p = data;
    uint64_t v0 = 0x736f6d6570736575ull, v1 = 0x646f72616e646f6dull;
    uint64_t v2 = 0x6c7967656e657261ull, v3 = 0x7465646279746573ull;
    size_t full = n & ~(size_t)7;
    for (size_t i = 0; i < full; i += 8) {
        uint64_t m;
        memcpy(&m, p + i, 8);
        v3 ^= m;
        SIPROUND;
        SIPROUND;
        v0 ^= m;
    }
    uint64_t last = (uint64_t)(n & 0xff) << 56;
    for (size_t i = full; i < n; i++)
        last |= (uint64_t)p[i] << (8 * (i - full));
    v3 ^= last;
    SIPROUND;
    SIPROUND;
    v0 ^= last;
    v2 ^= 0xff;
    SIPROUND;
    SIPROUND;
    SIPROUND;
    SIPROUND;
    return v0 ^ v1 ^ v2 ^ v3;
}

static uint64_t xxhash64(const void *p, size_t n) { return XXH64(p, n, 0); }

static uint64_t int_hash64(uint64_t x)
{
    x ^= 0x4CF2D2BAAE6DA887ull;
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ull;
    x ^= x >> 33;
    return x;
}

/* CityHash's Hash128to64, ClickHouse's combine step for xxHash64 and cityHash64. */
static uint64_t hash128to64(uint64_t lo, uint64_t hi)
{
    const uint64_t k = 0x9ddfea08eb382d69ull;
    uint64_t a = (lo ^ hi) * k;
    a ^= a >> 47;
    uint64_t b = (hi ^ a) * k;
    b ^= b >> 47;
    return b * k;
}


/* ---- CityHash64, version 1.0.2 ----
 * ClickHouse keeps the 2011 release of CityHash; later releases changed the 64-bit
 * function, so this follows the v1.0.2 algorithm: inputs up to 16, 32 and 64 bytes have
 * their own mixers, longer inputs run a 64-byte loop over two 32-byte weak hashes, seeded
 * from the input's last 64 bytes. Loads are little-endian (unaligned, via memcpy). */

static const uint64_t ck0 = 0xc3a5c85c97cb3127ull;
static const uint64_t ck1 = 0xb492b66fbe98f273ull;
static const uint64_t ck2 = 0x9ae16a3b2f90404full;
static const uint64_t ck3 = 0xc949d7c7509e6557ull;

static inline uint64_t ld64(const uint8_t *p)
{
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
}
static inline uint32_t ld32(const uint8_t *p)
{
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}
/* Rotate right; shift 0 leaves the value unchanged. */
static inline uint64_t rotr(uint64_t v, unsigned s) { return s == 0 ? v : (v >> s) | (v << (64 - s)); }
static inline uint64_t shift_mix(uint64_t v) { return v ^ (v >> 47); }

static uint64_t city_len0to16(const uint8_t *s, size_t len)
{
    if (len > 8) {
        uint64_t a = ld64(s), b = ld64(s + len - 8);
        /* len is 9..16, so the rotation is never by 0 or 64 */
        return hash128to64(a, rotr(b + len, (unsigned)len)) ^ b;
    }
    if (len >= 4) {
        uint64_t a = ld32(s);
        return hash128to64(len + (a << 3), ld32(s + len - 4));
    }
    if (len > 0) {
        uint32_t y = (uint32_t)s[0] + ((uint32_t)s[len >> 1] << 8);
        uint32_t z = (uint32_t)len + ((uint32_t)s[len - 1] << 2);
        return shift_mix((uint64_t)y * ck2 ^ (uint64_t)z * ck3) * ck2;
    }
    return ck2;
}

static uint64_t city_len17to32(const uint8_t *s, size_t len)
{
    uint64_t a = ld64(s) * ck1, b = ld64(s + 8);
    uint64_t c = ld64(s + len - 8) * ck2, d = ld64(s + len - 16) * ck0;
    return hash128to64(rotr(a - b, 43) + rotr(c, 30) + d, a + rotr(b ^ ck3, 20) - c + len);
}

static uint64_t city_len33to64(const uint8_t *s, size_t len)
{
    uint64_t z = ld64(s + 24);
    uint64_t a = ld64(s) + (len + ld64(s + len - 16)) * ck0;
    uint64_t b = rotr(a + z, 52), c = rotr(a, 37);
    a += ld64(s + 8);
    c += rotr(a, 7);
    a += ld64(s + 16);
    uint64_t vf = a + z, vs = b + rotr(a, 31) + c;
    a = ld64(s + 16) + ld64(s + len - 32);
    z = ld64(s + len - 8);
    b = rotr(a + z, 52);
    c = rotr(a, 37);
    a += ld64(s + len - 24);
    c += rotr(a, 7);
    a += ld64(s + len - 16);
    uint64_t wf = a + z, ws = b + rotr(a, 31) + c;
    uint64_t r = shift_mix((vf + ws) * ck2 + (wf + vs) * ck0);
    return shift_mix(r * ck0 + vs) * ck2;
}

typedef struct pair64 {
    uint64_t first, second;
} pair64;

/* Mixes 32 bytes at s with two seeds into a pair of weak hashes. */
static pair64 city_weak32(const uint8_t *s, uint64_t a, uint64_t b)
{
    uint64_t w = ld64(s), x = ld64(s + 8), y = ld64(s + 16), z = ld64(s + 24);
    a += w;
    b = rotr(b + a + z, 21);
    uint64_t c = a;
    a += x;
    a += y;
    b += rotr(a, 44);
    return (pair64){a + z, b + c};
}

static uint64_t cityhash64(const void *data, size_t len)
{
    const uint8_t *s = data;
    if (len <= 16)
        return city_len0to16(s, len);
    if (len <= 32)
        return city_len17to32(s, len);
    if (len <= 64)
        return city_len33to64(s, len);
    uint64_t x = ld64(s), y = ld64(s + len - 16) ^ ck1, z = ld64(s + len - 56) ^ ck0;
    pair64 v = city_weak32(s + len - 64, len, y);
    pair64 w = city_weak32(s + len - 32, len * ck1, ck0);
    z += shift_mix(v.second) * ck1;
    x = rotr(z + x, 39) * ck1;
    y = rotr(y, 33) * ck1;
    /* whole 64-byte blocks, the last one possibly overlapping the tail handled above */
    size_t left = (len - 1) & ~(size_t)63;
    do {
        x = rotr(x + y + v.first + ld64(s + 16), 37) * ck1;
        y = rotr(y + v.second + ld64(s + 48), 42) * ck1;
        x ^= w.second;
        y ^= v.first;
        z = rotr(z ^ w.first, 33);
        v = city_weak32(s, v.second * ck1, x + w.first);
        w = city_weak32(s + 32, z + w.second, y);
        uint64_t t = z;
        z = x;
        x = t;
        s += 64;
        left -= 64;
    } while (left != 0);
    return hash128to64(hash128to64(v.first, w.first) + shift_mix(y) * ck1 + z,
                       hash128to64(v.second, w.second) + x);
}

typedef uint64_t (*bytes_hash)(const void *, size_t);

typedef struct hash_state {
    bytes_hash f;
    bool int_hash; /* cityHash64: integers go through intHash64 */
} hash_state;

/* cityHash64 of a fixed-width value: ClickHouse applies intHash64 to the value's bits,
 * zero-extended to 64 (so Int8 -1 hashes as 255 and a Float32 as its 4-byte pattern),
 * for integers up to 64 bits, floats, dates, times, enums and Bool; wider integers,
 * UUIDs, decimals and DateTime64 hash their little-endian bytes with CityHash. */
static bool city_uses_int_hash(const type *t)
{
    if (t->width > 8 || type_is_decimal(t) || t->id == T_DATETIME64)
        return false;
    return true;
}

static inline uint64_t load_bits(const uint8_t *p, unsigned width)
{
    uint64_t v = 0;
    memcpy(&v, p, width); /* little-endian host: zero-extends */
    return v;
}

static int hash_exec(const fn_call *c, column **a, size_t n, column **out)
{
    const hash_state *st = c->state;
    column *r = col_new(type_simple(T_UINT64));
    uint64_t *h = buf_grow(&r->data, n * 8);
    r->len = n;
    for (int k = 0; k < c->nargs; k++) {
        const type *t = type_phys(c->arg_types[k]);
        bool str = type_is_string(t);
        bool ih = st->int_hash && !str && city_uses_int_hash(t);
        for (size_t i = 0; i < n; i++) {
            uint64_t v;
            if (str) {
                size_t l;
                const char *s = col_str(a[k], i, &l);
                v = st->f(s, l);
            } else if (ih) {
                v = int_hash64(load_bits(a[k]->data.p + col_idx(a[k], i) * t->width, t->width));
            } else {
                v = st->f(a[k]->data.p + col_idx(a[k], i) * t->width, t->width);
            }
            if (k == 0) {
                h[i] = v;
            } else if (st->f == siphash64) {
                uint64_t pair[2] = {h[i], v};
                h[i] = siphash64(pair, 16);
            } else {
                h[i] = hash128to64(h[i], v);
            }
        }
    }
    *out = r;
    return 0;
}

static int hash_resolve(fn_call *c)
{
    if (c->nargs < 1)
        return fn_bad_nargs(c, "at least 1");
    hash_state *st = xcalloc(1, sizeof *st);
    c->state = st;
    const char *nm = c->def->name;
    st->int_hash = !strcmp(nm, "cityHash64");
    st->f = st->int_hash ? cityhash64 : !strcmp(nm, "xxHash64") ? xxhash64 : siphash64;
    for (int k = 0; k < c->nargs; k++) {
        const type *t = type_phys(c->arg_types[k]);
        bool ok = type_is_string(t) || (t->width && t->id != T_FIXEDSTRING && t->id != T_NOTHING);
        if (!ok)
            return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type %s of argument of function %s", t->name, c->name);
    }
    c->ret = type_simple(T_UINT64);
    c->exec = hash_exec;
    return 0;
}

static int inthash_exec(const fn_call *c, column **a, size_t n, column **out)
{
    column *r = col_new(type_simple(T_UINT64));
    uint64_t *h = buf_grow(&r->data, n * 8);
    r->len = n;
    num_load_u64(c->arg_types[0], a[0]->data.p, n, h);
    for (size_t i = 0; i < n; i++)
        h[i] = int_hash64(h[i]);
    *out = r;
    return 0;
}

static int inthash_resolve(fn_call *c)
{
    if (c->nargs != 1)
        return fn_bad_nargs(c, "1");
    if (!num_is_int(c->arg_types[0]) || num_size(c->arg_types[0]) > 8)
        return fn_bad_types(c);
    c->ret = type_simple(T_UINT64);
    c->exec = inthash_exec;
    return 0;
}

void func_register_hash(void)
{
    static const func_def defs[] = {
        {"xxHash64", 0, hash_resolve, free, "XXH64 with seed 0"},
        {"sipHash64", 0, hash_resolve, free, "SipHash-2-4"},
        {"cityHash64", 0, hash_resolve, free, "CityHash64 v1.0.2"},
        {"intHash64", 0, inthash_resolve, NULL, "64-bit integer hash"},
    };
    for (size_t i = 0; i < sizeof defs / sizeof defs[0]; i++)
        func_register(&defs[i]);
}
