/* Built-in aggregate function uniqHLL12(x...): ClickHouse's HyperLogLogWithSmallSetOptimization
 * (an array of up to 16 keys, then a HyperLogLogCounter of 2^12 buckets, uniq_hll.c) so that
 * estimates and states are ClickHouse's.
 *
 * Keys, as ClickHouse's uniqHLL12 forms them: a number's own value in its own width (a float
 * is its bits read as an integer and converted back to the float type, as ClickHouse's cast
 * does), a string's or an IPv6's CityHash64 v1.0.2, a UUID's, Int128's or UInt128's intHash64
 * of the halves xor-ed (the last two kept 16 bytes wide); the counter hashes
 * a key with intHash32 (salt 0) of its bytes. Several arguments, a tuple and the other
 * contiguous types (Decimal, DateTime64) use ClickHouse's variadic CityHash chain, whose
 * value the counter takes as its hash. Arguments that ClickHouse hashes by SipHash-128 of
 * their serialized values (arrays, maps, a tuple holding Nullable) are NOT_IMPLEMENTED.
 *
 * State (ClickHouse's): a byte 0/1 for array/counter, then the array (VarUInt count, keys in
 * their width) or the counter's bytes. */
#include "agg_impl.h"
#include "base/cityhash.h"
#include "base/mix.h"
#include "chset.h"
#include "func/agg_state.h"
#include "uniq_combined.h"

#define H12_SMALL_MAX 16

enum { H12_INT, H12_F32, H12_F64, H12_STR, H12_IPV6, H12_XOR128, H12_VAR, H12_TUPLE };

typedef struct h12_data {
    int mode;
    int width; /* bytes of a key in the array */
} h12_data;

typedef struct h12 {
    uint64_t small[H12_SMALL_MAX];
    uc_hll *large;
    uint8_t nsmall;
} h12;

static const uc_hll_cfg cfg12 = {.k = 12, .hbits = 32, .bias = false};


/* The counter's hash of a key: intHash32 of its bytes, or the variadic hash itself. */
static inline uint64_t hll_hash(const h12_data *d, uint64_t k)
{
    return d->mode == H12_VAR || d->mode == H12_TUPLE ? (uint32_t)k : ch_int_hash32(k, 0);
}

static void h12_init(const agg_call *a, void *st) { memset(st, 0, sizeof(h12)); }

static void h12_destroy(const agg_call *a, void *st)
{
    h12 *s = st;
    uc_hll_free(s->large);
    s->large = NULL;
    s->nsmall = 0;
}

static void to_large(const h12_data *d, h12 *s)
{
    s->large = uc_hll_new(&cfg12);
    for (int i = 0; i < s->nsmall; i++)
        uc_hll_insert(&cfg12, s->large, hll_hash(d, s->small[i]));
}

static void h12_insert(const h12_data *d, h12 *s, uint64_t k)
{
    if (!s->large) {
        for (int i = 0; i < s->nsmall; i++)
            if (s->small[i] == k)
                return;
        if (s->nsmall < H12_SMALL_MAX) {
            s->small[s->nsmall++] = k;
            return;
        }
        to_large(d, s);
    }
    uc_hll_insert(&cfg12, s->large, hll_hash(d, k));
}

static inline uint64_t h12_key(const agg_call *a, column *const *args, size_t i)
{
    const h12_data *d = a->data;
    const column *c = args[0];
    size_t j = col_idx(c, i);
    switch (d->mode) {
    case H12_INT: {
        uint64_t v = 0;
        memcpy(&v, c->data.p + j * (size_t)d->width, (size_t)d->width); /* zero-extended */
        return v;
    }
    case H12_F32: {
        uint32_t b;
        memcpy(&b, (const float *)c->data.p + j, 4);
        float f = (float)(uint64_t)b; /* static_cast<Float32>(bit_cast<UInt64>(x)) */
        memcpy(&b, &f, 4);
        return b;
    }
    case H12_F64: {
        uint64_t b;
        memcpy(&b, (const double *)c->data.p + j, 8);
        double f = (double)b;
        memcpy(&b, &f, 8);
        return b;
    }
    case H12_STR: {
        size_t n;
        const char *s = col_str(c, i, &n);
        return cityhash64_v102(s, n);
    }
    case H12_IPV6: return cityhash64_v102(c->data.p + j * 16, 16);
    case H12_XOR128: {
        uint64_t w[2];
        memcpy(w, c->data.p + j * 16, 16);
        return ch_int_hash64(w[0] ^ w[1]);
    }
    case H12_TUPLE: return agg_uniq_var_hash(c->fields, c->nfields, j);
    default: return agg_uniq_var_hash(args, a->nargs, i);
    }
}

static inline void h12_row(const agg_call *a, void *st, column *const *args, size_t i)
{
    h12_insert(a->data, st, h12_key(a, args, i));
}
AGG_ROW_OPS(h12, h12_row)

static void h12_merge(const agg_call *a, void *dst, void *src)
{
    const h12_data *d = a->data;
    h12 *u = dst, *s = src;
    if (s->large) {
        if (!u->large)
            to_large(d, u);
        uc_hll_merge(&cfg12, u->large, s->large);
    } else {
        for (int i = 0; i < s->nsmall; i++)
            h12_insert(d, u, s->small[i]);
    }
    h12_destroy(a, src);
}

static int h12_finalize(const agg_call *a, void *st, column *out)
{
    const h12 *s = st;
    uint64_t v = s->large ? uc_hll_size(&cfg12, s->large) : s->nsmall;
    col_push_fixed(out, &v);
    return 0;
}

static void h12_serialize(const agg_call *a, const void *st, buf *out)
{
    const h12_data *d = a->data;
    const h12 *s = st;
    buf_putc(out, s->large ? 1 : 0);
    if (s->large) {
        uc_hll_write(&cfg12, s->large, out);
        return;
    }
    agg_put_varuint(out, s->nsmall);
    static const uint8_t zero[8];
    for (int i = 0; i < s->nsmall; i++) {
        buf_append(out, &s->small[i], d->width < 8 ? (size_t)d->width : 8);
        if (d->width > 8)
            buf_append(out, zero, (size_t)d->width - 8); /* 16-byte keys: the high half is 0 */
    }
}

static int h12_deserialize(const agg_call *a, void *st, agg_rd *in)
{
    const h12_data *d = a->data;
    h12 *s = st;
    uint8_t large;
    h12_destroy(a, st);
    if (agg_rd_bytes(in, &large, 1) < 0)
        return -1;
    if (large > 1)
        return err_set(ERR_INCORRECT_DATA, "Cannot read the state of uniqHLL12: bad flag %u", large);
    if (large) {
        s->large = uc_hll_new(&cfg12);
        return uc_hll_read(&cfg12, s->large, in);
    }
    uint64_t n;
    if (agg_rd_varuint(in, &n) < 0)
        return -1;
    if (n > 1000000)
        return err_set(ERR_TOO_LARGE_ARRAY_SIZE, "The size of serialized small table is suspiciously large: %llu",
                       (unsigned long long)n);
    if (n > H12_SMALL_MAX)
        return err_set(ERR_INCORRECT_DATA, "Illegal size");
    for (uint64_t i = 0; i < n; i++) {
        uint64_t w[2] = {0, 0};
        if (agg_rd_bytes(in, w, (size_t)d->width) < 0)
            return -1;
        if (w[1]) /* never written by ClickHouse: its 16-byte keys are 64-bit hashes */
            return err_set(ERR_INCORRECT_DATA, "Cannot read the state of uniqHLL12: a key above 64 bits");
        s->small[i] = w[0];
    }
    s->nsmall = (uint8_t)n;
    return 0;
}

static void h12_spill_write(const agg_call *a, const void *st, buf *out)
{
    agg_spill_write_serialized(a, st, out, h12_serialize);
}
static void h12_spill_read(const agg_call *a, void *st, const char **p)
{
    agg_spill_read_serialized(a, st, p, h12_deserialize);
}

/* Mode and key width of the arguments, or -1 with NOT_IMPLEMENTED. */
static int h12_mode(const agg_call *a, int *width)
{
    const type *t0 = type_base(a->arg_types[0]);
    *width = 8;
    if (a->nargs == 1 && t0->id != T_TUPLE) {
        switch (t0->id) {
        case T_UUID: return H12_XOR128;
        case T_INT128: *width = 16; return H12_XOR128;
        case T_UINT128: *width = 16; return H12_XOR128;
        case T_IPV6: return H12_IPV6;
        case T_IPV4: *width = 4; return H12_INT;
        case T_STRING: case T_FIXEDSTRING: return H12_STR;
        case T_FLOAT32: *width = 4; return H12_F32;
        case T_FLOAT64: return H12_F64;
        default: break;
        }
        if (!type_is_decimal(t0) && t0->id != T_DATETIME64) {
            switch (agg_tid(t0)) {
            case T_UINT8: case T_UINT16: case T_UINT32: case T_UINT64:
            case T_INT8: case T_INT16: case T_INT32: case T_INT64:
                *width = (int)type_simple(agg_tid(t0))->width;
                return H12_INT;
            default: break;
            }
        }
    }
    return agg_uniq_variadic_mode(a) < 0 ? -1 : a->nargs == 1 && t0->id == T_TUPLE ? H12_TUPLE : H12_VAR;
}

static int h12_resolve(agg_call *a)
{
    if (a->nargs < 1)
        return err_set(ERR_NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Incorrect number of arguments for aggregate function %s",
                       a->def->name);
    if (agg_no_params(a) < 0)
        return -1;
    int width;
    int mode = h12_mode(a, &width);
    if (mode < 0)
        return -1;
    h12_data *d = xcalloc(1, sizeof *d);
    a->data = d;
    d->mode = mode;
    d->width = width;
    a->ret = type_simple(T_UINT64);
    a->state_size = sizeof(h12);
    a->state_align = _Alignof(h12);
    a->ops = (agg_ops){.init = h12_init, .merge = h12_merge, .finalize = h12_finalize, .destroy = h12_destroy,
                       .serialize = h12_serialize, .deserialize = h12_deserialize, .spill_write = h12_spill_write,
                       .spill_read = h12_spill_read};
    AGG_SET_ADD_OPS(a, h12);
    return 0;
}

static const agg_def defs[] = {
    {"uniqHLL12", AGG_NULLS_KEEP_TYPE, h12_resolve,
     "Approximate number of distinct values (HyperLogLog of 4096 buckets after 16 values)"},
};

void agg_register_uniq_hll12(void)
{
    for (size_t i = 0; i < sizeof defs / sizeof defs[0]; i++)
        agg_register(&defs[i]);
}
