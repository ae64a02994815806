/* ClickHouse's HashSet for keys of up to 16 bytes (chset.h). */
#include "chset.h"

#include "base/cityhash.h"
#include "base/err.h"
#include "base/mix.h"
#include "base/mem.h"
#include "func/agg_state.h"

#include <string.h>

/* CRC-32C (Castagnoli, reflected), one table lookup per byte. */
static uint32_t crc_table[256];
__attribute__((constructor)) static void crc_table_init(void)
{
    for (uint32_t i = 0; i < 256; i++) {
        uint32_t c = i;
        for (int k = 0; k < 8; k++)
            c = (c >> 1) ^ (0x82F63B78u & (0u - (c & 1)));
        crc_table[i] = c;
    }
}

/* _mm_crc32_u64(crc, x): x's 8 bytes folded into crc (CRC-32C, no final xor). */
static uint32_t crc32c_u64(uint32_t crc, uint64_t x)
{
    for (int b = 0; b < 8; b++)
        crc = (crc >> 8) ^ crc_table[(crc ^ (uint8_t)(x >> (8 * b))) & 0xff];
    return crc;
}

uint32_t ch_int_hash_crc32(uint64_t x) { return crc32c_u64(0xFFFFFFFFu, x); }
uint32_t ch_crc32c_u64(uint32_t crc, uint64_t x) { return crc32c_u64(crc, x); }

/* hashLessThan8 (CityHash's short-string step), truncated to 32 bits by the caller. */
static uint64_t hash_less_than8(const uint8_t *d, size_t n)
{
    const uint64_t k2 = 0x9ae16a3b2f90404fULL, k3 = 0xc949d7c7509e6557ULL;
    if (n >= 4) {
        uint32_t a, b;
        memcpy(&a, d, 4);
        memcpy(&b, d + n - 4, 4);
        return cityhash_128to64(n + ((uint64_t)a << 3), b);
    }
    uint32_t y = (uint32_t)d[0] + ((uint32_t)d[n >> 1] << 8);
    uint32_t z = (uint32_t)n + ((uint32_t)d[n - 1] << 2);
    uint64_t v = y * k2 ^ z * k3;
    return (v ^ (v >> 47)) * k2;
}

uint32_t ch_string_ref_hash(const void *p, size_t n)
{
    const uint8_t *d = p;
    if (n == 0)
        return 0;
    if (n < 8)
        return (uint32_t)hash_less_than8(d, n);
    uint32_t res = 0xFFFFFFFFu;
    size_t pos = 0;
    uint64_t w;
    do { /* whole words, then the last 8 bytes (overlapping), as ClickHouse */
        memcpy(&w, d + pos, 8);
        res = crc32c_u64(res, w);
        pos += 8;
    } while (pos + 8 < n);
    memcpy(&w, d + n - 8, 8);
    return crc32c_u64(res, w);
}

uint64_t ch_int_hash64(uint64_t x) { return fmix64(x); }

static inline uint64_t chs_hash_of(const chset *s, uint128_t k)
{
    switch (s->hash) {
    case CHS_CRC32: return ch_int_hash_crc32((uint64_t)k);
    case CHS_INTHASH64: return ch_int_hash64((uint64_t)k);
    case CHS_CRC32_128: return crc32c_u64(ch_int_hash_crc32((uint64_t)k), (uint64_t)(k >> 64));
    default: return (uint64_t)k;
    }
}

static inline size_t chs_cap(const chset *s) { return (size_t)1 << s->degree; }
static inline size_t chs_home(const chset *s, uint128_t k) { return (size_t)chs_hash_of(s, k) & (chs_cap(s) - 1); }

void chset_init(chset *s, int kw, chs_hash hash, int init_degree)
{
    *s = (chset){.degree = (uint8_t)init_degree, .init_degree = (uint8_t)init_degree, .kw = (uint8_t)kw,
                 .hash = (uint8_t)hash};
}

void chset_free(chset *s)
{
    mem_free(s->cells);
    bool g = s->grow_by_one;
    chset_init(s, s->kw, (chs_hash)s->hash, s->init_degree);
    s->grow_by_one = g;
}

/* HashTable::resize to 2^degree cells: cells move right, stay, or move left along their
 * chain; a chain that wrapped around the old end is finished past the old size. */
static void chs_resize(chset *s, int degree)
{
    size_t old = s->cells ? chs_cap(s) : 0;
    s->cells = mem_realloc(s->cells, sizeof(uint128_t) << degree);
    memset(s->cells + old, 0, sizeof(uint128_t) * (((size_t)1 << degree) - old));
    s->degree = (uint8_t)degree;
    size_t m = chs_cap(s) - 1;
    for (size_t i = 0; i < old || (i <= m && s->cells[i]); i++) {
        uint128_t x = s->cells[i];
        if (!x)
            continue;
        size_t p = chs_home(s, x);
        if (p == i)
            continue;
        while (s->cells[p] && s->cells[p] != x)
            p = (p + 1) & m;
        if (s->cells[p] == x)
            continue;
        s->cells[p] = x;
        s->cells[i] = 0;
    }
}

bool chset_insert(chset *s, uint128_t k)
{
    if (!k) {
        if (s->has_zero)
            return false;
        s->has_zero = true;
        s->size++;
        return true;
    }
    if (!s->cells)
        s->cells = mem_calloc(sizeof(uint128_t) * chs_cap(s));
    size_t m = chs_cap(s) - 1, p = chs_home(s, k);
    while (s->cells[p]) {
        if (s->cells[p] == k)
            return false;
        p = (p + 1) & m;
    }
    s->cells[p] = k;
    if (++s->size > (chs_cap(s) >> 1))
        chs_resize(s, s->degree + (s->degree >= 23 || s->grow_by_one ? 1 : 2));
    return true;
}

void chset_each(const chset *s, void (*fn)(void *ctx, uint128_t k), void *ctx)
{
    if (s->has_zero)
        fn(ctx, 0);
    if (s->cells)
        for (size_t i = 0; i < chs_cap(s); i++)
            if (s->cells[i])
                fn(ctx, s->cells[i]);
}

static void ins_one(void *ctx, uint128_t k) { chset_insert(ctx, k); }

void chset_merge(chset *dst, const chset *src) { chset_each(src, ins_one, dst); }

static void put_key(void *ctx, uint128_t k)
{
    buf *out = ((void **)ctx)[0];
    const chset *s = ((void **)ctx)[1];
    buf_append(out, &k, s->kw); /* little-endian: the low kw bytes */
}

void chset_write(const chset *s, buf *out)
{
    agg_put_varuint(out, s->size);
    void *ctx[2] = {out, (void *)s};
    chset_each(s, put_key, ctx);
}

int chset_read(chset *s, agg_rd *in)
{
    uint64_t n;
    if (agg_rd_varuint(in, &n) < 0)
        return -1;
    if (n > 100000000000ull)
        return err_set(ERR_TOO_LARGE_ARRAY_SIZE, "The size of serialized hash table is suspiciously large: %llu",
                       (unsigned long long)n);
    if (n > (uint64_t)(in->end - in->p) / s->kw)
        return agg_rd_short(in, (size_t)(n * s->kw));
    chset_free(s);
    /* HashTableGrower::set: the smallest degree above the initial one that holds n */
    int deg = s->init_degree;
    if (n > 1) {
        int l = 63 - __builtin_clzll(n - 1);
        if (l + 2 > deg)
            deg = l + 2;
    }
    s->degree = (uint8_t)deg;
    for (uint64_t i = 0; i < n; i++) {
        uint128_t k = 0;
        memcpy(&k, in->p, s->kw);
        in->p += s->kw;
        chset_insert(s, k); /* a key listed twice counts once, as in ClickHouse */
    }
    return 0;
}
