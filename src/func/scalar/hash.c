/* Hash functions with ClickHouse's values: xxHash64 (XXH64, seed 0, from libxxhash),
 * sipHash64 (SipHash-2-4, key 0), intHash64 and cityHash64.
 *
 * As in ClickHouse, numbers hash their native little-endian bytes (xxHash64, sipHash64),
 * except cityHash64, which applies intHash64 to a single integer. Several arguments hash
 * separately and fold left with the function's own combine step: sipHash64 hashes the
 * 16 bytes (h_prev, h_next), xxHash64 and cityHash64 use CityHash's Hash128to64.
 * cityHash64 is CityHash v1.0.2 (ClickHouse's version), written from the algorithm.
 * Also murmurHash2_32/64, murmurHash3_32/64, xxHash32 (libxxhash XXH32) and intHash32.
 * Array arguments hash their length (intHash) then fold in each element; Tuples hash as
 * their fields in order. Nullable values nested in arrays/tuples are not supported. */
#include "func/func.h"
#include "func/scalar/num.h"

#include "base/err.h"
#include "base/cityhash.h"
#include "base/mix.h"

#include <stdlib.h>
#include <xxhash.h>

#include "base/siphash.h"

static inline uint64_t rotl(uint64_t x, int b) { return (x << b) | (x >> (64 - b)); }

/* SipHash-2-4 with a zero key (base/siphash.c). */
static uint64_t siphash64(const void *data, size_t n) { return siphash24_64(data, n); }

static uint64_t xxhash64(const void *p, size_t n) { return XXH64(p, n, 0); }

/* ClickHouse's intHash64: MurmurHash3's finaliser of the salted key. */
static uint64_t int_hash64(uint64_t x) { return fmix64(x ^ 0x4CF2D2BAAE6DA887ull); }

/* CityHash's Hash128to64, ClickHouse's combine step for xxHash64 and cityHash64. */
static uint64_t hash128to64(uint64_t lo, uint64_t hi)
{
    const uint64_t k = 0x9ddfea08eb382d69ull;
    uint64_t a = (lo ^ hi) * k;
    a ^= a >> 47;
    uint64_t b = (hi ^ a) * k;
    b ^= b >> 47;
    return b * k;
}


/* Little-endian unaligned loads for the Murmur hashes below. CityHash64 v1.0.2 lives in
 * base/cityhash.c (it also checksums MergeTree blocks). */
static inline uint64_t ld64(const uint8_t *p)
{
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
}
static inline uint32_t ld32(const uint8_t *p)
{
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}

static uint64_t cityhash64(const void *data, size_t len) { return cityhash64_v102(data, len); }

/* ---- MurmurHash2 / MurmurHash64A / MurmurHash3, seed 0, written from Austin Appleby's
 * descriptions. Loads are little-endian. ---- */

static inline uint32_t rotl32(uint32_t x, int b) { return (x << b) | (x >> (32 - b)); }

static uint64_t murmur2_32(const void *data, size_t len)
{
    const uint32_t m = 0x5bd1e995;
    const uint8_t *p = data;
    uint32_t h = (uint32_t)len;
    for (; len >= 4; len -= 4, p += 4) {
        uint32_t k = ld32(p);
        k *= m;
        k ^= k >> 24;
        k *= m;
        h *= m;
        h ^= k;
    }
    switch (len) {
    case 3: h ^= (uint32_t)p[2] << 16; /* fallthrough */
    case 2: h ^= (uint32_t)p[1] << 8;  /* fallthrough */
    case 1: h ^= p[0]; h *= m;
    }
    h ^= h >> 13;
    h *= m;
    h ^= h >> 15;
    return h;
}

static uint64_t murmur2_64(const void *data, size_t len)
{
    const uint64_t m = 0xc6a4a7935bd1e995ull;
    const uint8_t *p = data;
    uint64_t h = (uint64_t)len * m;
    for (; len >= 8; len -= 8, p += 8) {
        uint64_t k = ld64(p);
        k *= m;
        k ^= k >> 47;
        k *= m;
        h ^= k;
        h *= m;
    }
    if (len) {
        for (size_t i = len; i-- > 0;)
            h ^= (uint64_t)p[i] << (8 * i);
        h *= m;
    }
    h ^= h >> 47;
    h *= m;
    h ^= h >> 47;
    return h;
}

static uint32_t fmix32(uint32_t h)
{
    h ^= h >> 16;
    h *= 0x85ebca6b;
    h ^= h >> 13;
    h *= 0xc2b2ae35;
    h ^= h >> 16;
    return h;
}

static uint64_t murmur3_32(const void *data, size_t len)
{
    const uint32_t c1 = 0xcc9e2d51, c2 = 0x1b873593;
    const uint8_t *p = data;
    uint32_t h = 0;
    size_t nb = len / 4;
    for (size_t i = 0; i < nb; i++) {
        uint32_t k = ld32(p + 4 * i);
        k *= c1;
        k = rotl32(k, 15);
        k *= c2;
        h ^= k;
        h = rotl32(h, 13);
        h = h * 5 + 0xe6546b64;
    }
    const uint8_t *t = p + 4 * nb;
    uint32_t k = 0;
    switch (len & 3) {
    case 3: k ^= (uint32_t)t[2] << 16; /* fallthrough */
    case 2: k ^= (uint32_t)t[1] << 8;  /* fallthrough */
    case 1: k ^= t[0]; k *= c1; k = rotl32(k, 15); k *= c2; h ^= k;
    }
    h ^= (uint32_t)len;
    return fmix32(h);
}

/* MurmurHash3_x64_128; ClickHouse's murmurHash3_64 folds the two halves with XOR. */
static uint64_t murmur3_64(const void *data, size_t len)
{
    const uint64_t c1 = 0x87c37b91114253d5ull, c2 = 0x4cf5ad432745937full;
    const uint8_t *p = data;
    uint64_t h1 = 0, h2 = 0;
    size_t nb = len / 16;
    for (size_t i = 0; i < nb; i++) {
        uint64_t k1 = ld64(p + 16 * i), k2 = ld64(p + 16 * i + 8);
        k1 *= c1; k1 = rotl(k1, 31); k1 *= c2; h1 ^= k1;
        h1 = rotl(h1, 27); h1 += h2; h1 = h1 * 5 + 0x52dce729;
        k2 *= c2; k2 = rotl(k2, 33); k2 *= c1; h2 ^= k2;
        h2 = rotl(h2, 31); h2 += h1; h2 = h2 * 5 + 0x38495ab5;
    }
    const uint8_t *t = p + 16 * nb;
    size_t rem = len & 15;
    uint64_t k1 = 0, k2 = 0;
    if (rem > 8) {
        for (size_t i = rem; i-- > 8;)
            k2 ^= (uint64_t)t[i] << (8 * (i - 8));
        k2 *= c2; k2 = rotl(k2, 33); k2 *= c1; h2 ^= k2;
    }
    if (rem) {
        for (size_t i = (rem < 8 ? rem : 8); i-- > 0;)
            k1 ^= (uint64_t)t[i] << (8 * i);
        k1 *= c1; k1 = rotl(k1, 31); k1 *= c2; h1 ^= k1;
    }
    h1 ^= len;
    h2 ^= len;
    h1 += h2;
    h2 += h1;
    h1 = fmix64(h1);
    h2 = fmix64(h2);
    h1 += h2;
    h2 += h1;
    return h1 ^ h2;
}

static uint64_t xxhash32(const void *p, size_t n) { return XXH32(p, n, 0); }

/* ClickHouse's SQL intHash32 (salted, 64-bit input, 32-bit output). */
static inline uint32_t int_hash32(uint64_t key) { return ch_int_hash32(key, 0x75D9543DE018BF45ull); }

typedef uint64_t (*bytes_hash)(const void *, size_t);

enum { COMB_SIP, COMB_128TO64, COMB_INT32_XOR, COMB_INT64_XOR };

typedef struct hash_impl {
    const char *name;
    bytes_hash f;
    bool bits32;   /* UInt32 result */
    bool int_hash; /* integers go through intHash64/intHash32 (cityHash64) */
    int combine;   /* how the hashes of several arguments (and array elements) fold */
} hash_impl;

static const hash_impl impls[] = {
    {"xxHash64", xxhash64, false, false, COMB_128TO64},
    {"sipHash64", siphash64, false, false, COMB_SIP},
    {"cityHash64", cityhash64, false, true, COMB_128TO64},
    {"murmurHash2_32", murmur2_32, true, false, COMB_INT32_XOR},
    {"murmurHash2_64", murmur2_64, false, false, COMB_INT64_XOR},
    {"murmurHash3_32", murmur3_32, true, false, COMB_INT32_XOR},
    {"murmurHash3_64", murmur3_64, false, false, COMB_INT64_XOR},
    {"xxHash32", xxhash32, true, false, COMB_INT32_XOR},
};

static inline uint64_t combine(const hash_impl *im, uint64_t prev, uint64_t h)
{
    switch (im->combine) {
    case COMB_SIP: {
        uint64_t pair[2] = {prev, h};
        return siphash64(pair, 16);
    }
    case COMB_128TO64: return hash128to64(prev, h);
    case COMB_INT32_XOR: return (uint32_t)(int_hash32(prev) ^ h);
    default: return int_hash64(prev) ^ h;
    }
}

/* cityHash64 of a fixed-width value: ClickHouse applies intHash64 to the value's bits,
 * zero-extended to 64 (so Int8 -1 hashes as 255 and a Float32 as its 4-byte pattern),
 * for integers up to 64 bits, floats, dates, times, enums and Bool; wider integers,
 * UUIDs, decimals and DateTime64 hash their little-endian bytes with CityHash. */
static bool city_uses_int_hash(const type *t)
{
    if (t->width > 8 || type_is_decimal(t) || t->id == T_DATETIME64)
        return false;
    return true;
}

static inline uint64_t load_bits(const uint8_t *p, unsigned width)
{
    uint64_t v = 0;
    memcpy(&v, p, width); /* little-endian host: zero-extends */
    return v;
}

static bool hash_type_ok(const type *t)
{
    t = type_phys(t);
    if (t->id == T_ARRAY) /* [] is Array(Nothing): it has no elements to hash */
        return type_phys(t->inner)->id == T_NOTHING || hash_type_ok(t->inner);
    if (t->id == T_TUPLE) {
        for (int i = 0; i < t->nfields; i++)
            if (!hash_type_ok(t->fields[i]))
                return false;
        return t->nfields > 0;
    }
    return type_is_string(t) || (t->width && t->id != T_NOTHING && t->id != T_NULLABLE);
}

/* Hashes rows [0, n) of column a (type t) into h, either as the first hashed value
 * (first) or folded into h. Tuples hash as their fields in order; an array row hashes its
 * length (intHash) and then folds in each element's hash. */
static void hash_col(const hash_impl *im, const type *t, const column *a, size_t n, uint64_t *h, bool *first)
{
    t = type_phys(t);
    if (t->id == T_TUPLE) {
        for (int f = 0; f < t->nfields; f++)
            hash_col(im, t->fields[f], a->fields[f], n, h, first);
        return;
    }
    if (t->id == T_ARRAY) {
        const uint64_t *off = col_offs(a);
        size_t total = off[n] - off[0];
        uint64_t *eh = mem_alloc((total ? total : 1) * sizeof *eh);
        bool efirst = true;
        column *inner = a->inner;
        if (off[0] != 0 || inner->len != total)
            inner = col_slice(a->inner, off[0], total);
        else
            inner = col_ref(inner);
        hash_col(im, t->inner, inner, total, eh, &efirst);
        col_free(inner);
        for (size_t i = 0; i < n; i++) {
            uint64_t len = off[i + 1] - off[i];
            uint64_t v = im->bits32 ? int_hash32(len) : int_hash64(len);
            uint64_t r = *first ? v : combine(im, h[i], v);
            for (uint64_t j = off[i] - off[0]; j < off[i + 1] - off[0]; j++)
                r = combine(im, r, eh[j]);
            h[i] = r;
        }
        mem_free(eh);
        *first = false;
        return;
    }
    bool str = type_is_string(t);
    bool ih = im->int_hash && !str && city_uses_int_hash(t);
    for (size_t i = 0; i < n; i++) {
        uint64_t v;
        if (str) {
            size_t l;
            const char *s = col_str(a, i, &l);
            v = im->f(s, l);
        } else if (ih) {
            v = int_hash64(load_bits(a->data.p + col_idx(a, i) * t->width, t->width));
        } else {
            v = im->f(a->data.p + col_idx(a, i) * t->width, t->width);
        }
        h[i] = *first ? v : combine(im, h[i], v);
    }
    *first = false;
}

static int hash_exec(const fn_call *c, column **a, size_t n, column **out)
{
    const hash_impl *im = c->state;
    uint64_t *h = mem_alloc((n ? n : 1) * sizeof *h);
    bool first = true;
    for (int k = 0; k < c->nargs; k++)
        hash_col(im, c->arg_types[k], a[k], n, h, &first);
    column *r = col_new(c->ret);
    if (im->bits32) {
        uint32_t *d = buf_grow(&r->data, n * 4);
        for (size_t i = 0; i < n; i++)
            d[i] = (uint32_t)h[i];
    } else {
        memcpy(buf_grow(&r->data, n * 8), h, n * 8);
    }
    r->len = n;
    mem_free(h);
    *out = r;
    return 0;
}

static int hash_resolve(fn_call *c)
{
    if (c->nargs < 1)
        return fn_bad_nargs(c, "at least 1");
    const hash_impl *im = NULL;
    for (size_t i = 0; i < sizeof impls / sizeof impls[0]; i++)
        if (!strcmp(impls[i].name, c->def->name))
            im = &impls[i];
    for (int k = 0; k < c->nargs; k++) {
        const type *t = type_phys(c->arg_types[k]);
        if (!hash_type_ok(t))
            return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type %s of argument of function %s", t->name, c->name);
    }
    c->state = (void *)im;
    c->ret = type_simple(im->bits32 ? T_UINT32 : T_UINT64);
    c->exec = hash_exec;
    return 0;
}

static int inthash32_exec(const fn_call *c, column **a, size_t n, column **out)
{
    column *r = col_new(type_simple(T_UINT32));
    uint64_t *h = mem_alloc((n ? n : 1) * sizeof *h);
    num_load_u64(c->arg_types[0], a[0]->data.p, n, h);
    uint32_t *d = buf_grow(&r->data, n * 4);
    for (size_t i = 0; i < n; i++)
        d[i] = int_hash32(h[i]);
    r->len = n;
    mem_free(h);
    *out = r;
    return 0;
}

static int inthash_exec(const fn_call *c, column **a, size_t n, column **out)
{
    column *r = col_new(type_simple(T_UINT64));
    uint64_t *h = buf_grow(&r->data, n * 8);
    r->len = n;
    num_load_u64(c->arg_types[0], a[0]->data.p, n, h);
    for (size_t i = 0; i < n; i++)
        h[i] = int_hash64(h[i]);
    *out = r;
    return 0;
}

static int inthash_resolve(fn_call *c)
{
    if (c->nargs != 1)
        return fn_bad_nargs(c, "1");
    if (!num_is_int(c->arg_types[0]) || num_size(c->arg_types[0]) > 8)
        return fn_bad_types(c);
    bool h32 = !strcmp(c->def->name, "intHash32");
    c->ret = type_simple(h32 ? T_UINT32 : T_UINT64);
    c->exec = h32 ? inthash32_exec : inthash_exec;
    return 0;
}

void func_register_hash(void)
{
    static const func_def defs[] = {
        {"xxHash64", 0, hash_resolve, NULL, "XXH64 with seed 0"},
        {"xxHash32", 0, hash_resolve, NULL, "XXH32 with seed 0"},
        {"sipHash64", 0, hash_resolve, NULL, "SipHash-2-4"},
        {"cityHash64", 0, hash_resolve, NULL, "CityHash64 v1.0.2"},
        {"murmurHash2_32", 0, hash_resolve, NULL, "MurmurHash2, 32 bits, seed 0"},
        {"murmurHash2_64", 0, hash_resolve, NULL, "MurmurHash64A, seed 0"},
        {"murmurHash3_32", 0, hash_resolve, NULL, "MurmurHash3_x86_32, seed 0"},
        {"murmurHash3_64", 0, hash_resolve, NULL, "MurmurHash3_x64_128, halves XORed, seed 0"},
        {"intHash64", 0, inthash_resolve, NULL, "64-bit integer hash"},
        {"intHash32", 0, inthash_resolve, NULL, "32-bit integer hash"},
    };
    for (size_t i = 0; i < sizeof defs / sizeof defs[0]; i++)
        func_register(&defs[i]);
}
