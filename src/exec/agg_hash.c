#include "exec/agg_hash.h"

#include "base/mem.h"
#include "column/rowser.h"

#include <string.h>

void agg_table_init(agg_table *t)
{
    memset(t, 0, sizeof *t);
    arena_init(&t->mem);
    t->cap = 256;
    t->slots = mem_calloc(t->cap * sizeof *t->slots);
}

void agg_key_serialize(buf *out, column *const *keys, int nkeys, size_t row)
{
    for (int k = 0; k < nkeys; k++)
        col_row_write(out, keys[k], row);
}

void agg_key_deserialize(const char **p, column *const *keys, int nkeys)
{
    for (int k = 0; k < nkeys; k++)
        col_row_read(p, keys[k]);
}

uint64_t agg_key_hash(const char *key, size_t len)
{
    uint64_t h = 0x9E3779B97F4A7C15ULL ^ (len * 0x100000001b3ULL);
    while (len >= 8) {
        uint64_t w;
        memcpy(&w, key, 8);
        h = (h ^ w) * 0xff51afd7ed558ccdULL;
        h ^= h >> 32;
        key += 8;
        len -= 8;
    }
    uint64_t tail = 0;
    memcpy(&tail, key, len);
    h = (h ^ tail ^ ((uint64_t)len << 59)) * 0xc4ceb9fe1a85ec53ULL;
    h ^= h >> 29;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 32;
    return h;
}

static void grow(agg_table *t)
{
    size_t cap = t->cap * 2;
    agg_slot *slots = mem_calloc(cap * sizeof *slots);
    for (size_t i = 0; i < t->cap; i++) {
        if (!t->slots[i].states)
            continue;
        size_t j = t->slots[i].hash & (cap - 1);
        while (slots[j].states)
            j = (j + 1) & (cap - 1);
        slots[j] = t->slots[i];
    }
    mem_free(t->slots);
    t->slots = slots;
    t->cap = cap;
}

agg_slot *agg_table_find_or_insert(agg_table *t, const char *key, size_t len, uint64_t hash,
                                   size_t state_size, size_t state_align, bool *inserted)
{
    size_t mask = t->cap - 1;
    for (size_t i = hash & mask;; i = (i + 1) & mask) {
        agg_slot *s = &t->slots[i];
        if (!s->states) {
            s->hash = hash;
            s->key_len = (uint32_t)len;
            size_t align = state_align ? state_align : 8;
            if (len <= AGG_INLINE_KEY) {
                memcpy(s->key.inline_key, key, len);
                s->states = arena_alloc(&t->mem, state_size ? state_size : 1, align);
            } else {
                /* Key and states share one allocation, so a probe that finds the key has
                 * the states in the same or the next cache line. */
                size_t koff = (len + align - 1) / align * align;
                char *k = arena_alloc(&t->mem, koff + (state_size ? state_size : 1), align);
                memcpy(k, key, len);
                s->key.ptr = k;
                s->states = k + koff;
            }
            t->count++;
            *inserted = true;
            if (t->count * 2 > t->cap) {
                char *states = s->states;
                grow(t);
                /* The slot moved; find it again by its (unique) states pointer. */
                for (size_t j = hash & (t->cap - 1);; j = (j + 1) & (t->cap - 1))
                    if (t->slots[j].states == states)
                        return &t->slots[j];
            }
            return s;
        }
        if (s->hash == hash && s->key_len == len && memcmp(agg_slot_key(s), key, len) == 0) {
            *inserted = false;
            return s;
        }
    }
}

void agg_table_prefetch(const agg_table *t, uint64_t hash)
{
    __builtin_prefetch(&t->slots[hash & (t->cap - 1)]);
}

void agg_table_prefetch_key(const agg_table *t, uint64_t hash)
{
    const agg_slot *s = &t->slots[hash & (t->cap - 1)];
    if (s->states)
        __builtin_prefetch(s->key_len <= AGG_INLINE_KEY ? s->states : s->key.ptr);
}

void agg_table_free(agg_table *t)
{
    mem_free(t->slots);
    t->slots = NULL;
    arena_free(&t->mem);
}
