/* agg_spill: external GROUP BY — a worker's two-level hash tables written to a spill
 * file and merged back bucket by bucket (ClickHouse's max_bytes_before_external_group_by).
 *
 * The design (select.c drives it):
 *  1. A worker aggregates into AGG_BUCKETS tables split by the top bits of the key hash
 *     (two-level aggregation). When the query's tracked memory passes the threshold
 *     (spill.h spill_threshold), the worker appends every bucket's groups to its spill
 *     file as one segment per bucket, and empties its tables: memory falls back to what
 *     the tables cost when empty.
 *  2. A group's record is u32 key length, the serialized key (agg_hash.h), u32 length of
 *     the states and each aggregate's state as agg_state_spill_write writes it (func/agg.h:
 *     plain states as their bytes, others by their family). A state that cannot be
 *     spilled yet fails the query with NOT_IMPLEMENTED naming the aggregate — never a
 *     wrong answer.
 *  3. At the end, bucket b holds the same keys in every worker's tables and in every
 *     segment b of every spill: merging bucket b on its own (in memory: one bucket's
 *     groups) gives the final groups of those keys. Buckets are merged a few at a time and
 *     handed to the next step before the next ones are read, so the result never needs to
 *     be in memory at once.
 *
 * Ownership: an agg_spill owns its file; agg_spill_free closes it (the file vanishes,
 * spill.h). Errors: -1 with err_set (I/O as spill.h; NOT_IMPLEMENTED as above).
 * Thread-safety: written by its worker only; after the workers finish, merges of distinct
 * buckets may read the same agg_spill from several threads (pread, no shared cursor). */
#ifndef SHALE_EXEC_AGG_SPILL_H
#define SHALE_EXEC_AGG_SPILL_H

#include "exec/agg_hash.h"
#include "exec/select.h"

typedef struct agg_spill agg_spill;

/* Checks that every aggregate of p can be spilled: 0, or -1 with NOT_IMPLEMENTED. */
int agg_spill_check(const select_plan *p);
/* Appends the groups of buckets[0..AGG_BUCKETS) to *s (created under q's spill directory
 * when NULL), destroys their states and empties the tables. */
int agg_spill_write(agg_spill **s, const select_plan *p, query_ctx *q, agg_table *buckets);
/* Merges the groups of bucket b of every spill in spills[0..n) (NULLs skipped) into dst. */
int agg_spill_merge_bucket(const select_plan *p, agg_spill *const *spills, int n, int b, agg_table *dst);
/* Times this spill wrote (for tests: a spill really happened). */
int agg_spill_count(const agg_spill *s);
void agg_spill_free(agg_spill *s);

#endif
