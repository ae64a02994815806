/* CityHash v1.0.2, the version ClickHouse freezes for cityHash64 and for the checksums of
 * compressed blocks and part files. Pure functions; thread-safe. */
#ifndef SHALE_BASE_CITYHASH_H
#define SHALE_BASE_CITYHASH_H

#include <stddef.h>
#include <stdint.h>

typedef struct u128 {
    uint64_t lo, hi;
} u128;
u128 cityhash128_v102(const void *data, size_t len);
u128 cityhash128_v102_seed(const void *data, size_t len, u128 seed);
uint64_t cityhash64_v102(const void *data, size_t len);
/* libc++'s std::hash<std::string_view> (CityHash64 v1.1): the order of ClickHouse's
 * std::unordered_map of strings depends on it. */
uint64_t cityhash64_libcxx(const void *data, size_t len);
/* CityHash's Hash128to64(uint128(lo, hi)), which ClickHouse uses to combine hashes. */
uint64_t cityhash_128to64(uint64_t lo, uint64_t hi);

/* ClickHouse's HashingWriteBuffer checksum of a stream of bytes (checksums.txt): the bytes
 * are hashed in 2048-byte blocks, each seeded with the previous block's hash. */
typedef struct mt_hasher {
    u128 state;
    size_t fill;
    uint64_t total;
    uint8_t block[2048];
} mt_hasher;
void mt_hasher_init(mt_hasher *h);
void mt_hasher_update(mt_hasher *h, const void *p, size_t n);
u128 mt_hasher_final(const mt_hasher *h);

#endif
