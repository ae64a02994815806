/* CityHash v1.0.2, the 2011 release ClickHouse freezes (contrib/cityhash102) for cityHash64
 * and for the checksums of compressed blocks and part files. Later CityHash releases changed
 * the output, so this follows the v1.0.2 algorithm, written from its description: inputs up
 * to 16, 32 and 64 bytes have their own mixers, longer ones run a 64-byte loop over two
 * 32-byte weak hashes; the 128-bit hash runs a Murmur-style loop below 128 bytes and an
 * unrolled 128-byte loop above. Loads are little-endian (unaligned, via memcpy). */
#include "base/cityhash.h"

#include <stdbool.h>
#include <string.h>

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

/* CityHash's Hash128to64 (HashLen16). */
static inline uint64_t h16(uint64_t lo, uint64_t hi)
{
    const uint64_t k = 0x9ddfea08eb382d69ull;
    uint64_t a = (lo ^ hi) * k;
    a ^= a >> 47;
    uint64_t b = (hi ^ a) * k;
    b ^= b >> 47;
    return b * k;
}

uint64_t cityhash_128to64(uint64_t lo, uint64_t hi) { return h16(lo, hi); }

static uint64_t len0to16(const uint8_t *s, size_t len)
{
    if (len > 8) {
        uint64_t a = ld64(s), b = ld64(s + len - 8);
        return h16(a, rotr(b + len, (unsigned)len)) ^ b;
    }
    if (len >= 4) {
        uint64_t a = ld32(s);
        return h16(len + (a << 3), ld32(s + len - 4));
    }
    if (len > 0) {
        uint32_t y = (uint32_t)s[0] + ((uint32_t)s[len >> 1] << 8);
        uint32_t z = (uint32_t)len + ((uint32_t)s[len - 1] << 2);
        return shift_mix((uint64_t)y * ck2 ^ (uint64_t)z * ck3) * ck2;
    }
    return ck2;
}

static uint64_t len17to32(const uint8_t *s, size_t len)
{
    uint64_t a = ld64(s) * ck1, b = ld64(s + 8);
    uint64_t c = ld64(s + len - 8) * ck2, d = ld64(s + len - 16) * ck0;
    return h16(rotr(a - b, 43) + rotr(c, 30) + d, a + rotr(b ^ ck3, 20) - c + len);
}

/* libcxx: libc++'s variant adds the last word into z where v1.0.2 replaces z with it. */
static uint64_t len33to64_v(const uint8_t *s, size_t len, bool libcxx)
{
    uint64_t z = ld64(s + 24);
    uint64_t a = ld64(s) + (len + ld64(s + len - 16)) * ck0;
    uint64_t b = rotr(a + z, 52), c = rotr(a, 37);
    a += ld64(s + 8);
    c += rotr(a, 7);
    a += ld64(s + 16);
    uint64_t vf = a + z, vs = b + rotr(a, 31) + c;
    a = ld64(s + 16) + ld64(s + len - 32);
    z = libcxx ? z + ld64(s + len - 8) : ld64(s + len - 8);
    b = rotr(a + z, 52);
    c = rotr(a, 37);
    a += ld64(s + len - 24);
    c += rotr(a, 7);
    a += ld64(s + len - 16);
    uint64_t wf = a + z, ws = b + rotr(a, 31) + c;
    uint64_t r = shift_mix((vf + ws) * ck2 + (wf + vs) * ck0);
    return shift_mix(r * ck0 + vs) * ck2;
}

static uint64_t len33to64(const uint8_t *s, size_t len) { return len33to64_v(s, len, false); }

typedef struct pair64 {
    uint64_t first, second;
} pair64;

/* Mixes 32 bytes at s with two seeds into a pair of weak hashes. */
static pair64 weak32(const uint8_t *s, uint64_t a, uint64_t b)
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

uint64_t cityhash64_v102(const void *data, size_t len)
{
    const uint8_t *s = data;
    if (len <= 16)
        return len0to16(s, len);
    if (len <= 32)
        return len17to32(s, len);
    if (len <= 64)
        return len33to64(s, len);
    uint64_t x = ld64(s), y = ld64(s + len - 16) ^ ck1, z = ld64(s + len - 56) ^ ck0;
    pair64 v = weak32(s + len - 64, len, y);
    pair64 w = weak32(s + len - 32, len * ck1, ck0);
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
        v = weak32(s, v.second * ck1, x + w.first);
        w = weak32(s + 32, z + w.second, y);
        uint64_t t = z;
        z = x;
        x = t;
        s += 64;
        left -= 64;
    } while (left != 0);
    return h16(h16(v.first, w.first) + shift_mix(y) * ck1 + z, h16(v.second, w.second) + x);
}

/* Below 128 bytes: a Murmur-like loop over 16-byte steps. */
static u128 city_murmur(const uint8_t *s, size_t len, u128 seed)
{
    uint64_t a = seed.lo, b = seed.hi, c, d;
    if (len <= 16) {
        a = shift_mix(a * ck1) * ck1;
        c = b * ck1 + len0to16(s, len);
        d = shift_mix(a + (len >= 8 ? ld64(s) : c));
    } else {
        c = h16(ld64(s + len - 8) + ck1, a);
        d = h16(b + len, c + ld64(s + len - 16));
        a += d;
        long l = (long)len - 16;
        do {
            a ^= shift_mix(ld64(s) * ck1) * ck1;
            a *= ck1;
            b ^= a;
            c ^= shift_mix(ld64(s + 8) * ck1) * ck1;
            c *= ck1;
            d ^= c;
            s += 16;
            l -= 16;
        } while (l > 0);
    }
    a = h16(a, c);
    b = h16(d, b);
    return (u128){a ^ b, h16(b, a)};
}

u128 cityhash128_v102_seed(const void *data, size_t len, u128 seed)
{
    const uint8_t *s = data;
    if (len < 128)
        return city_murmur(s, len, seed);
    uint64_t x = seed.lo, y = seed.hi, z = len * ck1;
    pair64 v, w;
    v.first = rotr(y ^ ck1, 49) * ck1 + ld64(s);
    v.second = rotr(v.first, 42) * ck1 + ld64(s + 8);
    w.first = rotr(y + z, 35) * ck1 + x;
    w.second = rotr(x + ld64(s + 88), 53) * ck1;
    do {
        for (int half = 0; half < 2; half++) {
            x = rotr(x + y + v.first + ld64(s + 16), 37) * ck1;
            y = rotr(y + v.second + ld64(s + 48), 42) * ck1;
            x ^= w.second;
            y ^= v.first;
            z = rotr(z ^ w.first, 33);
            v = weak32(s, v.second * ck1, x + w.first);
            w = weak32(s + 32, z + w.second, y);
            uint64_t t = z;
            z = x;
            x = t;
            s += 64;
        }
        len -= 128;
    } while (len >= 128);
    y += rotr(w.first, 37) * ck0 + z;
    x += rotr(v.first + z, 49) * ck0;
    /* up to four 32-byte chunks from the end of the input */
    for (size_t done = 0; done < len;) {
        done += 32;
        y = rotr(y - x, 42) * ck0 + v.second;
        w.first += ld64(s + len - done + 16);
        x = rotr(x, 49) * ck0 + w.first;
        w.first += v.first;
        v = weak32(s + len - done, v.first, v.second);
    }
    x = h16(x, v.first);
    y = h16(y, w.first);
    return (u128){h16(x + v.second, w.second) + y, h16(x + w.second, y + v.second)};
}

u128 cityhash128_v102(const void *data, size_t len)
{
    const uint8_t *s = data;
    if (len >= 16)
        return cityhash128_v102_seed(s + 16, len - 16, (u128){ld64(s) ^ ck3, ld64(s + 8)});
    if (len >= 8)
        return cityhash128_v102_seed(NULL, 0, (u128){ld64(s) ^ (len * ck0), ld64(s + len - 8) ^ ck1});
    return cityhash128_v102_seed(s, len, (u128){ck0, ck1});
}

/* ---- HashingWriteBuffer: 2048-byte blocks, each hashed with the previous state ---- */

void mt_hasher_init(mt_hasher *h)
{
    h->state = (u128){0, 0};
    h->fill = 0;
    h->total = 0;
}

void mt_hasher_update(mt_hasher *h, const void *p, size_t n)
{
    const uint8_t *s = p;
    if (!n)
        return; /* p may be NULL then (an empty file) */
    h->total += n;
    if (h->fill) {
        size_t k = sizeof h->block - h->fill < n ? sizeof h->block - h->fill : n;
        memcpy(h->block + h->fill, s, k);
        h->fill += k;
        s += k;
        n -= k;
        if (h->fill < sizeof h->block)
            return;
        h->state = cityhash128_v102_seed(h->block, sizeof h->block, h->state);
        h->fill = 0;
    }
    while (n >= sizeof h->block) {
        h->state = cityhash128_v102_seed(s, sizeof h->block, h->state);
        s += sizeof h->block;
        n -= sizeof h->block;
    }
    if (n)
        memcpy(h->block, s, n);
    h->fill = n;
}

u128 mt_hasher_final(const mt_hasher *h)
{
    if (!h->fill)
        return h->state;
    return cityhash128_v102_seed(h->block, h->fill, h->state);
}

/* libc++'s std::hash of a string (__murmur2_or_cityhash<size_t, 64>): CityHash64 as of
 * v1.1, which equals v1.0.2 up to 32 bytes and differs in the 33..64-byte mix and in the
 * loop over longer strings. */
uint64_t cityhash64_libcxx(const void *data, size_t len)
{
    const uint8_t *s = data;
    if (len <= 32)
        return cityhash64_v102(data, len);
    if (len <= 64)
        return len33to64_v(s, len, true);
    uint64_t x = ld64(s + len - 40), y = ld64(s + len - 16) + ld64(s + len - 56);
    uint64_t z = h16(ld64(s + len - 48) + len, ld64(s + len - 24));
    pair64 v = weak32(s + len - 64, len, z);
    pair64 w = weak32(s + len - 32, y + ck1, x);
    x = x * ck1 + ld64(s);
    size_t left = (len - 1) & ~(size_t)63;
    do {
        x = rotr(x + y + v.first + ld64(s + 8), 37) * ck1;
        y = rotr(y + v.second + ld64(s + 48), 42) * ck1;
        x ^= w.second;
        y += v.first + ld64(s + 40);
        z = rotr(z + w.first, 33) * ck1;
        v = weak32(s, v.second * ck1, x + w.first);
        w = weak32(s + 32, z + w.second, y + ld64(s + 16));
        uint64_t t = z;
        z = x;
        x = t;
        s += 64;
        left -= 64;
    } while (left != 0);
    return h16(h16(v.first, w.first) + shift_mix(y) * ck1 + z, h16(v.second, w.second) + x);
}
