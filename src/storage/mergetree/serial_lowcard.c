/* LowCardinality in MergeTree parts: ClickHouse's "shared dictionaries with additional
 * keys" format (KeysSerializationVersion 1).
 *
 * .dict stream: UInt64 version (= 1) once at the part's start; then whole dictionaries,
 *   each UInt64 count + count keys in K's bulk form. A dictionary holds the special keys
 *   first: index 0 the default of K, or for Nullable(K) index 0 = NULL (stored as K's
 *   default) and index 1 = the default.
 * keys stream, per written chunk (one per granule):
 *   UInt64 flags: low byte index width (0 UInt8, 1 UInt16, 2 UInt32, 3 UInt64),
 *     0x100 NeedGlobalDictionary: indexes point into the shared dictionary,
 *     0x200 HasAdditionalKeys: keys that overflowed it follow (UInt64 count + keys),
 *     0x400 NeedUpdateDictionary: first chunk of a new shared dictionary;
 *   [additional keys]; UInt64 rows; rows indexes of the width. With a shared dictionary
 *   index i < dict size is dict[i], else additional[i - dict size]; without one the
 *   additional keys are the whole dictionary (and index 0 is NULL for Nullable(K)).
 * The writer keeps a shared dictionary and writes it to .dict only when it is full (in the
 * chunk that fills it) or at the part's end — so the .dict marks of all granules that use
 * a dictionary point at it. A reader that was moved to a granule's marks therefore reads
 * the dictionary again from its .dict mark before the first chunk (need_update). */
#include "storage/mergetree/serial_int.h"

#include "base/err.h"
#include "base/mem.h"

#include <stdlib.h>
#include <string.h>

#define LC_VERSION 1u
#define LC_NEED_GLOBAL 0x100u
#define LC_HAS_ADDITIONAL 0x200u
#define LC_NEED_UPDATE 0x400u

/* Open-addressing table from key bytes to a position in a key column (+1; 0 = empty). */
typedef struct keymap {
    uint32_t *slots;
    size_t cap, used;
    size_t first; /* positions below it are not mapped (the NULL placeholder) */
} keymap;

struct mt_lc_state {
    /* writer */
    column *wdict;    /* shared dictionary being built, NULL when none */
    keymap wmap;
    column *wadd;     /* this chunk's additional keys */
    keymap amap;
    buf idx;          /* this chunk's indexes as uint64 */
    /* reader */
    column *rdict;    /* last shared dictionary read, NULL when none */
    column *radd;     /* current chunk's additional keys, NULL when none */
    bool need_update; /* re-read the dictionary before the next chunk (after a seek) */
    uint64_t pending; /* rows of the current chunk not read yet */
    uint64_t flags;
    buf ridx;
};

static mt_lc_state *st(mt_node *nd)
{
    if (!nd->lc)
        nd->lc = xcalloc(1, sizeof *nd->lc);
    return nd->lc;
}

void mt_lc_free(mt_node *nd)
{
    mt_lc_state *l = nd->lc;
    if (!l)
        return;
    col_free(l->wdict);
    col_free(l->wadd);
    col_free(l->rdict);
    col_free(l->radd);
    free(l->wmap.slots);
    free(l->amap.slots);
    buf_free(&l->idx);
    buf_free(&l->ridx);
    free(l);
}

/* ---- key bytes and the key map ---- */

static const uint8_t *key_bytes(const column *k, size_t i, size_t *len)
{
    if (type_phys(k->type)->id == T_STRING || type_phys(k->type)->id == T_FIXEDSTRING)
        return (const uint8_t *)col_str(k, i, len);
    size_t w = type_phys(k->type)->width ? type_phys(k->type)->width : 1;
    *len = w;
    return k->data.p + col_idx(k, i) * w;
}

static uint64_t hash_bytes(const uint8_t *p, size_t n)
{
    uint64_t h = 0x9E3779B97F4A7C15ull ^ n;
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 0x100000001B3ull;
    return h ^ (h >> 29);
}

static void keymap_clear(keymap *m)
{
    if (m->slots)
        memset(m->slots, 0, m->cap * sizeof *m->slots);
    m->used = 0;
}

static void keymap_put(keymap *m, const column *keys, uint32_t pos);

static void keymap_grow(keymap *m, const column *keys)
{
    size_t ncap = m->cap ? m->cap * 2 : 64;
    free(m->slots);
    m->slots = xcalloc(ncap, sizeof *m->slots);
    m->cap = ncap;
    m->used = 0;
    /* every position from `first` on is mapped */
    for (size_t i = m->first; i < keys->len; i++)
        keymap_put(m, keys, (uint32_t)i);
}

/* Finds the key (p, n) in keys through m; returns its position or -1. */
static int64_t keymap_find(const keymap *m, const column *keys, const uint8_t *p, size_t n)
{
    if (!m->cap)
        return -1;
    size_t mask = m->cap - 1;
    for (size_t h = (size_t)hash_bytes(p, n) & mask;; h = (h + 1) & mask) {
        uint32_t v = m->slots[h];
        if (!v)
            return -1;
        size_t kl;
        const uint8_t *kp = key_bytes(keys, v - 1, &kl);
        if (kl == n && memcmp(kp, p, n) == 0)
            return v - 1;
    }
}

static void keymap_put(keymap *m, const column *keys, uint32_t pos)
{
    if ((m->used + 1) * 2 > m->cap) {
        keymap_grow(m, keys); /* re-inserts every position up to keys->len, pos included */
        return;
    }
    size_t n;
    const uint8_t *p = key_bytes(keys, pos, &n);
    size_t mask = m->cap - 1;
    for (size_t h = (size_t)hash_bytes(p, n) & mask;; h = (h + 1) & mask) {
        uint32_t v = m->slots[h];
        if (!v) {
            m->slots[h] = pos + 1;
            m->used++;
            return;
        }
        size_t kl;
        const uint8_t *kp = key_bytes(keys, v - 1, &kl);
        if (kl == n && memcmp(kp, p, n) == 0)
            return; /* an equal key is already mapped (the default after the NULL slot) */
    }
}

/* ---- writing ---- */

void mt_lc_write_prefix(mt_serial *s, mt_node *nd, mt_byte_sink *sinks)
{
    (void)s;
    uint64_t v = LC_VERSION;
    sinks[nd->stream2].write(sinks[nd->stream2].ctx, &v, 8);
    mt_lc_state *l = st(nd);
    col_free(l->wdict);
    l->wdict = NULL;
}

/* A fresh key column holding the special keys (NULL placeholder, default). */
static column *new_keys(mt_node *nd, keymap *m)
{
    column *k = col_new(nd->lc_key_type);
    if (nd->lc_nullable)
        col_push_default(k);
    col_push_default(k);
    keymap_clear(m);
    m->first = nd->lc_nullable ? 1 : 0;
    /* only the default is findable by value (the NULL slot is not a value) */
    keymap_put(m, k, (uint32_t)(k->len - 1));
    return k;
}

static void write_keys(mt_serial *s, const column *keys, int stream, mt_byte_sink *sinks)
{
    buf *b = &s->scratch;
    uint64_t cnt = keys->len;
    buf_append(b, &cnt, 8);
    mt_leaf_bulk(keys, 0, keys->len, b);
    sinks[stream].write(sinks[stream].ctx, b->p, b->len);
    b->len = 0;
}

void mt_lc_write(mt_serial *s, mt_node *nd, const column *c, size_t from, size_t n, mt_byte_sink *sinks)
{
    mt_lc_state *l = st(nd);
    size_t maxd = s->lc_max_dict;
    bool use_dict = maxd != 0;
    bool need_update = false;
    if (!l->wdict) {
        /* ClickHouse creates the shared dictionary at the first chunk even without one */
        l->wdict = new_keys(nd, &l->wmap);
        need_update = true;
    }
    /* An empty chunk (a granule of empty arrays) writes nothing — yet, as in ClickHouse,
     * it used up the "new dictionary" flag: the next chunk goes without it. Readers read
     * a dictionary whenever they have none, so this is still readable. */
    if (n == 0)
        return;
    col_free(l->wadd);
    l->wadd = use_dict ? col_new(nd->lc_key_type) : new_keys(nd, &l->amap);
    if (use_dict) {
        keymap_clear(&l->amap);
        l->amap.first = 0;
    }
    const column *vals = nd->lc_nullable ? c->inner : c;
    l->idx.len = 0;
    uint64_t *ix = buf_grow(&l->idx, n * 8);
    size_t dict_fixed = 0; /* dictionary size the additional keys' indexes start at */
    for (size_t r = 0; r < n; r++) {
        size_t row = from + r;
        if (nd->lc_nullable && col_is_null(c, row)) {
            ix[r] = 0;
            continue;
        }
        size_t kl;
        const uint8_t *kp = key_bytes(vals, row, &kl);
        if (use_dict) {
            int64_t pos = keymap_find(&l->wmap, l->wdict, kp, kl);
            if (pos >= 0) {
                ix[r] = (uint64_t)pos;
                continue;
            }
            if (l->wdict->len < maxd) {
                col_push_from(l->wdict, vals, col_idx(vals, row));
                keymap_put(&l->wmap, l->wdict, (uint32_t)(l->wdict->len - 1));
                ix[r] = l->wdict->len - 1;
                continue;
            }
            dict_fixed = l->wdict->len; /* full: it does not grow any more in this chunk */
        }
        int64_t pos = keymap_find(&l->amap, l->wadd, kp, kl);
        if (pos < 0) {
            col_push_from(l->wadd, vals, col_idx(vals, row));
            keymap_put(&l->amap, l->wadd, (uint32_t)(l->wadd->len - 1));
            pos = (int64_t)l->wadd->len - 1;
        }
        ix[r] = (uint64_t)pos | (1ull << 63); /* marked: offset by the final dict size */
    }
    if (use_dict && l->wadd->len)
        dict_fixed = l->wdict->len;
    uint64_t maxv = 0;
    for (size_t r = 0; r < n; r++) {
        if (ix[r] >> 63)
            ix[r] = (ix[r] & ~(1ull << 63)) + dict_fixed;
        if (ix[r] > maxv)
            maxv = ix[r];
    }
    size_t total = (use_dict ? l->wdict->len : 0) + l->wadd->len;
    (void)maxv;
    unsigned wt = total <= 0xFF ? 0 : total <= 0xFFFF ? 1 : total <= 0xFFFFFFFFull ? 2 : 3;
    uint64_t flags = wt;
    bool has_add = l->wadd->len != 0;
    if (has_add)
        flags |= LC_HAS_ADDITIONAL;
    if (use_dict)
        flags |= LC_NEED_GLOBAL;
    if (need_update)
        flags |= LC_NEED_UPDATE;
    buf *b = &s->scratch;
    b->len = 0;
    buf_append(b, &flags, 8);
    if (use_dict && l->wdict->len >= maxd) {
        /* full: flush it now; the next chunk starts a new one */
        buf tmp = *b;
        *b = (buf){0};
        write_keys(s, l->wdict, nd->stream2, sinks);
        buf_free(b);
        *b = tmp;
        col_free(l->wdict);
        l->wdict = NULL;
    }
    if (has_add) {
        uint64_t cnt = l->wadd->len;
        buf_append(b, &cnt, 8);
        mt_leaf_bulk(l->wadd, 0, l->wadd->len, b);
    }
    uint64_t rows = n;
    buf_append(b, &rows, 8);
    size_t w = (size_t)1 << wt;
    uint8_t *out = buf_grow(b, n * w);
    for (size_t r = 0; r < n; r++) {
        uint64_t v = ix[r];
        memcpy(out + r * w, &v, w); /* little-endian: the low w bytes */
    }
    sinks[nd->stream].write(sinks[nd->stream].ctx, b->p, b->len);
    b->len = 0;
}

void mt_lc_write_suffix(mt_serial *s, mt_node *nd, mt_byte_sink *sinks)
{
    mt_lc_state *l = st(nd);
    if (l->wdict && s->lc_max_dict)
        write_keys(s, l->wdict, nd->stream2, sinks);
    col_free(l->wdict);
    l->wdict = NULL;
}

/* ---- reading ---- */

int mt_lc_read_start(mt_serial *s, mt_node *nd, mt_byte_src *srcs, bool at_part_start)
{
    mt_lc_state *l = st(nd);
    l->pending = 0;
    l->need_update = true;
    if (!at_part_start)
        return 0;
    col_free(l->rdict);
    l->rdict = NULL;
    uint64_t v;
    if (mt_src_read(s, nd->stream2, srcs, &v, 8) < 0)
        return -1;
    if (v != LC_VERSION)
        return err_set(ERR_INCORRECT_DATA, "Invalid version for SerializationLowCardinality key column: %llu (stream '%s')",
                       (unsigned long long)v, s->names[nd->stream2]);
    return 0;
}

static int read_keys(mt_serial *s, mt_node *nd, int stream, mt_byte_src *srcs, column **out)
{
    uint64_t cnt;
    if (mt_src_read(s, stream, srcs, &cnt, 8) < 0)
        return -1;
    column *k = col_new(nd->lc_key_type);
    if (mt_read_leaf(s, stream, srcs, k, (size_t)cnt) < 0) {
        col_free(k);
        return -1;
    }
    col_free(*out);
    *out = k;
    return 0;
}

static int read_chunk_header(mt_serial *s, mt_node *nd, mt_byte_src *srcs)
{
    mt_lc_state *l = nd->lc;
    uint64_t f;
    if (mt_src_read(s, nd->stream, srcs, &f, 8) < 0)
        return -1;
    if ((f & ~(uint64_t)(0xFF | LC_NEED_GLOBAL | LC_HAS_ADDITIONAL | LC_NEED_UPDATE)) || (f & 0xFF) > 3)
        return err_set(ERR_INCORRECT_DATA, "Invalid type for SerializationLowCardinality index column: 0x%llx (stream '%s')",
                       (unsigned long long)f, s->names[nd->stream]);
    l->flags = f;
    if ((f & LC_NEED_GLOBAL) && (!l->rdict || (f & LC_NEED_UPDATE) || l->need_update)) {
        if (read_keys(s, nd, nd->stream2, srcs, &l->rdict) < 0)
            return -1;
        l->need_update = false;
    }
    col_free(l->radd);
    l->radd = NULL;
    if ((f & LC_HAS_ADDITIONAL) && read_keys(s, nd, nd->stream, srcs, &l->radd) < 0)
        return -1;
    if (!(f & LC_NEED_GLOBAL) && !l->radd)
        return err_set(ERR_INCORRECT_DATA, "No additional keys found (stream '%s')", s->names[nd->stream]);
    if (mt_src_read(s, nd->stream, srcs, &l->pending, 8) < 0)
        return -1;
    return 0;
}

int mt_lc_read(mt_serial *s, mt_node *nd, column *c, size_t n, mt_byte_src *srcs)
{
    mt_lc_state *l = st(nd);
    while (n) {
        if (l->pending == 0 && read_chunk_header(s, nd, srcs) < 0)
            return -1;
        size_t m = l->pending < n ? (size_t)l->pending : n;
        size_t w = (size_t)1 << (l->flags & 3);
        l->ridx.len = 0;
        /* bounded steps: a corrupt row count must not allocate more than the data holds */
        for (size_t done = 0; done < m;) {
            size_t step = m - done < 65536 ? m - done : 65536;
            uint8_t *p = buf_grow(&l->ridx, step * w);
            if (mt_src_read(s, nd->stream, srcs, p, step * w) < 0)
                return -1;
            done += step;
        }
        bool global = (l->flags & LC_NEED_GLOBAL) != 0;
        size_t dsize = global ? l->rdict->len : 0;
        size_t asize = l->radd ? l->radd->len : 0;
        column *dst = nd->lc_nullable ? c->inner : c;
        for (size_t r = 0; r < m; r++) {
            uint64_t v = 0;
            memcpy(&v, l->ridx.p + r * w, w);
            const column *src;
            uint64_t at;
            if (v < dsize) {
                src = l->rdict;
                at = v;
            } else if (v - dsize < asize) {
                src = l->radd;
                at = v - dsize;
            } else {
                return err_set(ERR_INCORRECT_DATA,
                               "Index %llu is out of range of the LowCardinality dictionary (%zu keys + %zu additional) "
                               "in stream '%s' of column '%s'",
                               (unsigned long long)v, dsize, asize, s->names[nd->stream], s->name);
            }
            /* NULL is position 0 of the shared dictionary, or of the additional keys when
             * they are the whole dictionary; additional keys next to a shared one are values */
            if (nd->lc_nullable && at == 0 && (src == l->rdict || !global)) {
                col_push_null(c);
            } else {
                col_push_from(dst, src, (size_t)at);
                if (nd->lc_nullable)
                    col_nullable_commit(c, false);
            }
        }
        l->pending -= m;
        n -= m;
    }
    return 0;
}
