/* SipHash-2-4 with a zero key, as ClickHouse computes it: sipHash64 is the xor of the four
 * final state words, ClickHouse's 128-bit form (partition IDs) is (v0 ^ v1, v2 ^ v3).
 * Pure functions; thread-safe. */
#ifndef SHALE_BASE_SIPHASH_H
#define SHALE_BASE_SIPHASH_H

#include <stddef.h>
#include <stdint.h>

/* The four state words after hashing data[0..n) and finalising. */
void siphash24_final_state(const void *data, size_t n, uint64_t v[4]);

static inline uint64_t siphash24_64(const void *data, size_t n)
{
    uint64_t v[4];
    siphash24_final_state(data, n, v);
    return v[0] ^ v[1] ^ v[2] ^ v[3];
}

/* ClickHouse's SipHash::get128: low word v0 ^ v1, high word v2 ^ v3, as 16 little-endian bytes. */
void siphash24_128(const void *data, size_t n, uint8_t out[16]);

#endif
