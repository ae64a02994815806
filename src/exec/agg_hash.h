/* agg_hash: GROUP BY's hash table — serialized keys → a row of aggregate states.
 *
 * Keys of any types are serialized into a compact byte string (fixed-width values as
 * raw bytes, strings length-prefixed, NULL flags) and stored in the table's arena; the
 * states row (plan->state_size bytes) is allocated from the arena too. One table per
 * worker thread; tables are merged into one at the end. Not thread-safe. */
#ifndef SHALE_EXEC_AGG_HASH_H
#define SHALE_EXEC_AGG_HASH_H

#include "base/arena.h"
#include "column/column.h"

/* Keys of up to AGG_INLINE_KEY bytes live in the slot itself, so the comparison that
 * confirms a hash match touches no other memory; longer keys live in the arena, with the
 * states row right after them. An empty slot has states == NULL. */
#define AGG_INLINE_KEY 16

typedef struct agg_slot {
    uint64_t hash;
    uint32_t key_len;
    uint32_t unused;
    union {
        char inline_key[AGG_INLINE_KEY];
        const char *ptr;
    } key;
    char *states;
} agg_slot;

static inline const char *agg_slot_key(const agg_slot *s)
{
    return s->key_len <= AGG_INLINE_KEY ? s->key.inline_key : s->key.ptr;
}

/* Two-level aggregation splits a table into AGG_BUCKETS tables by the top bits of the key
 * hash (select.c, agg_spill.c). */
#define AGG_BUCKETS 256
#define AGG_BUCKET_OF(h) ((size_t)((h) >> 56))

typedef struct agg_table {
    agg_slot *slots;
    size_t cap;
    size_t count;
    arena mem;
} agg_table;

void agg_table_init(agg_table *t);
/* Appends row `row` of the key columns serialized to `out`. */
void agg_key_serialize(buf *out, column *const *keys, int nkeys, size_t row);
/* Reads one serialized key into the key columns. */
void agg_key_deserialize(const char **p, column *const *keys, int nkeys);
uint64_t agg_key_hash(const char *key, size_t len);
/* Finds or inserts the key; *inserted tells which (the caller initialises the states). */
agg_slot *agg_table_find_or_insert(agg_table *t, const char *key, size_t len, uint64_t hash,
                                   size_t state_size, size_t state_align, bool *inserted);
/* Hints that the slot for `hash` is about to be probed (hides memory latency when the
 * table is larger than the caches: probe row i while row i+k's slot is being fetched). */
void agg_table_prefetch(const agg_table *t, uint64_t hash);
/* Second stage: the slot is cached by now; fetch the key (and states) it points to. */
void agg_table_prefetch_key(const agg_table *t, uint64_t hash);
void agg_table_free(agg_table *t);

#endif
