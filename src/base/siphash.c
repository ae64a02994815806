#include "base/siphash.h"

#include <string.h>

static inline uint64_t rotl(uint64_t x, int b) { return (x << b) | (x >> (64 - b)); }

#define SIPROUND                                                                                                       \
    do {                                                                                                               \
        v0 += v1; v1 = rotl(v1, 13); v1 ^= v0; v0 = rotl(v0, 32);                                                      \
        v2 += v3; v3 = rotl(v3, 16); v3 ^= v2;                                                                         \
        v0 += v3; v3 = rotl(v3, 21); v3 ^= v0;                                                                         \
        v2 += v1; v1 = rotl(v1, 17); v1 ^= v2; v2 = rotl(v2, 32);                                                      \
    } while (0)

void siphash24_final_state(const void *data, size_t n, uint64_t v[4])
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
    v[0] = v0, v[1] = v1, v[2] = v2, v[3] = v3;
}

void siphash24_128(const void *data, size_t n, uint8_t out[16])
{
    uint64_t v[4];
    siphash24_final_state(data, n, v);
    uint64_t lo = v[0] ^ v[1], hi = v[2] ^ v[3];
    memcpy(out, &lo, 8);
    memcpy(out + 8, &hi, 8);
}
