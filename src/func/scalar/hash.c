/* Hash functions with ClickHouse's values: xxHash64 (XXH64, seed 0, from libxxhash),
 * sipHash64 (SipHash-2-4, key 0), intHash64, and cityHash64 for integer arguments.
 *
 * As in ClickHouse, numbers hash their native little-endian bytes (xxHash64, sipHash64),
 * except cityHash64, which applies intHash64 to a single integer. Several arguments hash
 * separately and fold left with the function's own combine step: sipHash64 hashes the
 * 16 bytes (h_prev, h_next), xxHash64 and cityHash64 use CityHash's Hash128to64. cityHash64 of strings is not implemented yet (needs CityHash v1.0.2);
 * it fails with NOT_IMPLEMENTED rather than return different values. */
#include "func/func.h"
#include "func/scalar/num.h"

#include "base/err.h"

#include <stdlib.h>
#include <xxhash.h>

static inline uint64_t rotl(uint64_t x, int b) { return (x << b) | (x >> (64 - b)); }

#define SIPROUND                                                        \
    do {                                                                \
        v0 += v1; v1 = rotl(v1, 13); v1 ^= v0; v0 = rotl(v0, 32);       \
        v2 += v3; v3 = rotl(v3, 16); v3 ^= v2;                          \
        v0 += v3; v3 = rotl(v3, 21); v3 ^= v0;                          \
        v2 += v1; v1 = rotl(v1, 17); v1 ^= v2; v2 = rotl(v2, 32);       \
    } while (0)

/* SipHash-2-4 with a zero key. */
static uint64_t siphash64(const void *data, size_t n)
{
    const uint8_t *p = data;
    uint64_t v0 = 0x736f6d6570736575ull, v1 = 0x646f72616e646f6dull;
    uint64_t v2 = 0x6c7967656e657261ull, v3 = 0x7465646279746573ull;
    size_t full = n & ~(size_t)7;
    for (size_t i = 0; i < full; i += 8) {
        uint64_t m;
        memcpy(&m, p + i, 8);
        v3 ^= m;
        SIPROUND;
        SIPROUND;
        v0 ^= m;
    }
    uint64_t last = (uint64_t)(n & 0xff) << 56;
    for (size_t i = full; i < n; i++)
        last |= (uint64_t)p[i] << (8 * (i - full));
    v3 ^= last;
    SIPROUND;
    SIPROUND;
    v0 ^= last;
    v2 ^= 0xff;
    SIPROUND;
    SIPROUND;
    SIPROUND;
    SIPROUND;
    return v0 ^ v1 ^ v2 ^ v3;
}

static uint64_t xxhash64(const void *p, size_t n) { return XXH64(p, n, 0); }

static uint64_t int_hash64(uint64_t x)
{
    x ^= 0x4CF2D2BAAE6DA887ull;
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ull;
    x ^= x >> 33;
    return x;
}

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

typedef uint64_t (*bytes_hash)(const void *, size_t);

typedef struct hash_state {
    bytes_hash f;
    bool int_hash; /* cityHash64: integers go through intHash64 */
} hash_state;

static int hash_exec(const fn_call *c, column **a, size_t n, column **out)
{
    const hash_state *st = c->state;
    column *r = col_new(type_simple(T_UINT64));
    uint64_t *h = buf_grow(&r->data, n * 8);
    r->len = n;
    for (int k = 0; k < c->nargs; k++) {
        const type *t = c->arg_types[k];
        for (size_t i = 0; i < n; i++) {
            uint64_t v;
            if (type_is_string(t)) {
                size_t l;
                const char *s = col_str(a[k], i, &l);
                v = st->f(s, l);
            } else if (st->int_hash) {
                v = int_hash64(col_get_u64(a[k], i));
            } else {
                v = st->f(a[k]->data.p + col_idx(a[k], i) * t->width, t->width);
            }
            if (k == 0) {
                h[i] = v;
            } else if (st->f == siphash64) {
                uint64_t pair[2] = {h[i], v};
                h[i] = siphash64(pair, 16);
            } else {
                h[i] = hash128to64(h[i], v);
            }
        }
    }
    *out = r;
    return 0;
}

static int hash_resolve(fn_call *c)
{
    if (c->nargs < 1)
        return fn_bad_nargs(c, "at least 1");
    hash_state *st = xcalloc(1, sizeof *st);
    c->state = st;
    const char *nm = c->def->name;
    st->f = !strcmp(nm, "xxHash64") ? xxhash64 : siphash64;
    st->int_hash = !strcmp(nm, "cityHash64");
    for (int k = 0; k < c->nargs; k++) {
        const type *t = c->arg_types[k];
        bool ok = type_is_string(t) || (t->width && t->id != T_FIXEDSTRING && t->id != T_NOTHING);
        if (!ok)
            return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type %s of argument of function %s", t->name, c->name);
        if (st->int_hash && (type_is_string(t) || !num_is_int(t) || num_size(t) > 8))
            return err_set(ERR_NOT_IMPLEMENTED, "cityHash64 is implemented only for integer arguments");
    }
    c->ret = type_simple(T_UINT64);
    c->exec = hash_exec;
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
    c->ret = type_simple(T_UINT64);
    c->exec = inthash_exec;
    return 0;
}

void func_register_hash(void)
{
    static const func_def defs[] = {
        {"xxHash64", 0, hash_resolve, free, "XXH64 with seed 0"},
        {"sipHash64", 0, hash_resolve, free, "SipHash-2-4"},
        {"cityHash64", 0, hash_resolve, free, "CityHash64 v1.0.2 (integers only for now)"},
        {"intHash64", 0, inthash_resolve, NULL, "64-bit integer hash"},
    };
    for (size_t i = 0; i < sizeof defs / sizeof defs[0]; i++)
        func_register(&defs[i]);
}
