/* mix64: MurmurHash3's 64-bit finaliser, the bit mixer of shale's in-memory hash tables
 * (never persisted, never compared with ClickHouse's hashes). Pure, thread-safe. */
#ifndef SHALE_BASE_MIX_H
#define SHALE_BASE_MIX_H

#include <stdint.h>

static inline uint64_t mix64(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    x ^= x >> 33;
    return x;
}

#endif
