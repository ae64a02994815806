/* A dictionary that String values are coded into as a part is read (serial.h). */
#include "storage/mergetree/serial.h"

#include "base/mem.h"
#include "base/mix.h"
#include "exec/agg_hash.h"

#include <stdlib.h>
#include <string.h>

struct mt_codes {
    column *dict;      /* the values in order of arrival; copied before growing once shared */
    buf hashes;        /* uint64 per entry: the hash (longer values) or the short key */
    uint32_t *slots;   /* entry + 1; 0 = empty */
    size_t cap;        /* a power of two, at least twice the entries */
};

mt_codes *mt_codes_new(const type *t)
{
    mt_codes *d = xcalloc(1, sizeof *d);
    d->dict = col_new(t);
    d->cap = 256;
    d->slots = xcalloc(d->cap, sizeof *d->slots);
    return d;
}

void mt_codes_free(mt_codes *d)
{
    if (!d)
        return;
    col_free(d->dict);
    buf_free(&d->hashes);
    free(d->slots);
    free(d);
}

size_t mt_codes_size(const mt_codes *d) { return d->dict->len; }

column *mt_codes_dict(mt_codes *d) { return col_ref(d->dict); }

/* Values of up to 8 bytes are compared by a key that, with the length, determines them:
 * their first and last 4 bytes (overlapping) or 3 sampled bytes; longer ones by a hash
 * and their bytes. */
static inline uint64_t short_key(const uint8_t *p, size_t len)
{
    if (len >= 4) {
        uint32_t a, b;
        memcpy(&a, p, 4);
        memcpy(&b, p + len - 4, 4);
        return (uint64_t)a | (uint64_t)b << 32;
    }
    return len ? (uint64_t)p[0] | (uint64_t)p[len / 2] << 8 | (uint64_t)p[len - 1] << 16 : 0;
}

static inline uint64_t slot_hash(uint64_t key, size_t len) { return len <= 8 ? mix64(key ^ (uint64_t)len << 59) : key; }

static void grow(mt_codes *d)
{
    size_t cap = d->cap * 2, mask = cap - 1;
    uint32_t *slots = xcalloc(cap, sizeof *slots);
    const uint64_t *k = (const uint64_t *)(const void *)d->hashes.p;
    const uint64_t *o = col_offs(d->dict);
    for (size_t e = 0; e < d->dict->len; e++) {
        size_t i = slot_hash(k[e], (size_t)(o[e + 1] - o[e])) & mask;
        while (slots[i])
            i = (i + 1) & mask;
        slots[i] = (uint32_t)e + 1;
    }
    free(d->slots);
    d->slots = slots;
    d->cap = cap;
}

uint32_t mt_codes_put(mt_codes *d, const uint8_t *p, size_t len)
{
    bool shrt = len <= 8;
    uint64_t key = shrt ? short_key(p, len) : agg_key_hash((const char *)p, len);
    size_t mask = d->cap - 1;
    const uint64_t *ks = (const uint64_t *)(const void *)d->hashes.p;
    const uint64_t *o = col_offs(d->dict);
    size_t i = slot_hash(key, len) & mask;
    for (;;) {
        uint32_t e = d->slots[i];
        if (!e)
            break;
        e--;
        if (ks[e] == key && o[e + 1] - o[e] == len && (shrt || memcmp(d->dict->data.p + o[e], p, len) == 0))
            return e;
        i = (i + 1) & mask;
    }
    /* A new value. Coded columns handed out hold the dictionary and a consumer may cache
     * what it computed per entry by its address: a shared dictionary is not changed but
     * copied (once per block at most: the copy is ours alone until the block ends). */
    if (d->dict->refs > 1) {
        column *c = col_clone(d->dict);
        col_free(d->dict);
        d->dict = c;
    }
    uint32_t e = (uint32_t)d->dict->len;
    col_push_str(d->dict, (const char *)p, len);
    buf_append(&d->hashes, &key, sizeof key);
    d->slots[i] = e + 1;
    if (d->dict->len * 2 > d->cap)
        grow(d);
    return e;
}
