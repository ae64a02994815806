/* ClickHouse's HashSet (Common/HashTable) for keys of up to 16 bytes, cell for cell: the
 * same hash functions, linear probing, growth (a table of 2^degree cells grows by 4x, past
 * 2^23 cells by 2x, when it holds more than half; by 2x always with grow_by_one) and
 * in-place resize, so that the cell order, which a serialized state lists, is ClickHouse's.
 * uniqExact, groupUniqArray and uniqCombined's medium set keep their states in one. The zero key is kept aside, as ClickHouse does, and written first.
 *
 * Private to func/agg; not thread-safe (one set per aggregation state).
 * Errors: chset_read sets CANNOT_READ_ALL_DATA / TOO_LARGE_ARRAY_SIZE / INCORRECT_DATA. */
#ifndef SHALE_FUNC_AGG_CHSET_H
#define SHALE_FUNC_AGG_CHSET_H

#include "base/buf.h"
#include "func/agg.h"

#include <stdbool.h>
#include <stdint.h>

typedef enum {
    CHS_CRC32,      /* HashCRC32: _mm_crc32_u64(-1, key zero-extended to 64 bits) */
    CHS_TRIVIAL128, /* UInt128TrivialHash: the low 64 bits (keys that are SipHash values) */
    CHS_INTHASH64,  /* DefaultHash of integers: intHash64 */
    CHS_CRC32_128,  /* HashCRC32 of 16-byte keys: CRC-32C of the low then the high 8 bytes */
} chs_hash;

typedef struct chset {
    uint128_t *cells; /* 2^degree cells, 0 = empty; NULL until the first non-zero key */
    uint64_t size;    /* elements, the zero key included */
    uint8_t degree, init_degree, kw, hash;
    bool has_zero;
    bool grow_by_one; /* UniqCombinedHashTableGrower: doubles at every size (set after init) */
} chset;

/* kw: bytes of a key (1..16) as written; init_degree: ClickHouse's initial size degree. */
void chset_init(chset *s, int kw, chs_hash hash, int init_degree);
void chset_free(chset *s);
/* Inserts k (only its low kw bytes may be set); true when it was new. */
bool chset_insert(chset *s, uint128_t k);
/* HashSet::merge: src's zero key, then its cells in table order. */
void chset_merge(chset *dst, const chset *src);
/* HashTable::write: VarUInt size, the zero key if present, then the cells in table order. */
void chset_write(const chset *s, buf *out);
/* HashSet::read as UniqExactSet reads it: a table reserved for the size, keys inserted in
 * the order written (s is cleared first). */
int chset_read(chset *s, agg_rd *in);
/* Calls fn for every key in the order chset_write lists them. */
void chset_each(const chset *s, void (*fn)(void *ctx, uint128_t k), void *ctx);

/* ClickHouse's hashes (shared with uniq). */
uint32_t ch_int_hash_crc32(uint64_t x);
/* _mm_crc32_u64(crc, x): HashCRC32 of wider keys chains it over their 8-byte words. */
uint32_t ch_crc32c_u64(uint32_t crc, uint64_t x);
/* StringRefHash (CRC32Hash) of n bytes: the keys of ClickHouse's string hash sets. */
uint32_t ch_string_ref_hash(const void *p, size_t n);
uint64_t ch_int_hash64(uint64_t x);

#endif
