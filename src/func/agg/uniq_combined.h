/* ClickHouse's HyperLogLogCounter, bucket for bucket, for uniqCombined / uniqCombined64
 * (uniq_combined.c) and uniqHLL12: 2^k buckets holding the rank (trailing zeros + 1) of the
 * hash's high bits, the count of empty buckets, and the denominator of the harmonic mean as
 * counts of buckets per rank (ClickHouse's "stable" denominator, which every precision of
 * 12 and above uses). Serialized as ClickHouse writes the object: the ranks
 * packed 5 (32-bit hashes) or 6 (64-bit) bits each, little-endian, then the denominator,
 * then the zero count (UInt16 below 2^16 buckets, else UInt32).
 *
 * Private to func/agg; not thread-safe (one counter per aggregation state).
 * Errors: uc_hll_read sets CANNOT_READ_ALL_DATA / INCORRECT_DATA. */
#ifndef SHALE_FUNC_AGG_UNIQ_COMBINED_H
#define SHALE_FUNC_AGG_UNIQ_COMBINED_H

#include "base/buf.h"
#include "func/agg.h"

#include <stdbool.h>
#include <stdint.h>

#define UC_BIAS_N 200
extern const double uc_bias_raw[UC_BIAS_N];
extern const double uc_bias_val[UC_BIAS_N];

typedef struct uc_hll_cfg {
    uint8_t k;      /* log2 of the bucket count */
    uint8_t hbits;  /* 32 or 64: width of the hash value */
    bool bias;      /* HyperLogLog++ bias correction from uc_bias_* (uniqCombined at k = 17) */
} uc_hll_cfg;

typedef struct uc_hll {
    uint8_t *rank;           /* 2^k ranks, one byte each */
    uint32_t rank_count[66]; /* the denominator: buckets per rank */
    uint32_t zeros;          /* buckets of rank 0 */
} uc_hll;

uc_hll *uc_hll_new(const uc_hll_cfg *c);
void uc_hll_free(uc_hll *h);
/* Adds one hash value (already the HashValueType's bits). */
void uc_hll_insert(const uc_hll_cfg *c, uc_hll *h, uint64_t hash);
void uc_hll_merge(const uc_hll_cfg *c, uc_hll *dst, const uc_hll *src);
uint64_t uc_hll_size(const uc_hll_cfg *c, const uc_hll *h);
size_t uc_hll_bytes(const uc_hll_cfg *c);
void uc_hll_write(const uc_hll_cfg *c, const uc_hll *h, buf *out);
/* Reads a whole counter into h (a fresh one). */
int uc_hll_read(const uc_hll_cfg *c, uc_hll *h, agg_rd *in);

#endif
