/* 64-bit bit mixers: a 64-bit value in, a 64-bit value out whose bits each depend on every
 * input bit. For spreading keys over hash-table slots and nodes, never for security: they
 * are bijections anyone can invert, not cryptographic hashes, and nothing that must resist
 * an adversary (authentication, integrity) may rely on them.
 *
 * fmix64: MurmurHash3's 64-bit finaliser, exactly. ClickHouse uses it bit for bit (the
 * intHash64 of its hash tables, which orders HashSet cells and uniq states; the SQL function
 * intHash64 as fmix64(x ^ 0x4CF2D2BAAE6DA887); murmurHash3_64's last step), so it must never
 * change: tests/unit/test_mix.c checks it against ClickHouse's intHash64.
 *
 * mix64: the mixer of shale's own hashes (hash tables, dictionary codes, node choices,
 * col_hash_row), never compared with ClickHouse's values. Today it is fmix64. Another good
 * mixer would change no result, with one caveat: uniq's states of the types it keys by
 * col_hash_row (func/agg/uniq.c) hold these hashes, and a state written before the change
 * would not merge with one written after.
 *
 * Pure functions, thread-safe. */
#ifndef SHALE_BASE_MIX_H
#define SHALE_BASE_MIX_H

#include <stdint.h>

static inline uint64_t fmix64(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    x ^= x >> 33;
    return x;
}

static inline uint64_t mix64(uint64_t x) { return fmix64(x); }

/* ClickHouse's intHash32<salt> (Thomas Wang's 64-to-32-bit mix after xor-ing the salt),
 * bit for bit: salt 0 in its hash containers (uniqHLL12's HyperLogLog), 0x75D9543DE018BF45
 * in the SQL function intHash32. */
static inline uint32_t ch_int_hash32(uint64_t key, uint64_t salt)
{
    key ^= salt;
    key = (~key) + (key << 18);
    key = key ^ ((key >> 31) | (key << 33));
    key = key * 21;
    key = key ^ ((key >> 11) | (key << 53));
    key = key + (key << 6);
    key = key ^ ((key >> 22) | (key << 42));
    return (uint32_t)key;
}

#endif
