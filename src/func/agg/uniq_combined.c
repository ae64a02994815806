/* Built-in aggregate functions uniqCombined(K)(x...) and uniqCombined64(K)(x...), K the
 * log2 of the HyperLogLog's bucket count (12..20, default 17).
 *
 * ClickHouse's CombinedCardinalityEstimator, step for step, so that estimates and states
 * are ClickHouse's: each row becomes a hash value (a key) of HashValueType — 32 bits for
 * uniqCombined, 64 for uniqCombined64 and for strings in both — kept first in an array of
 * up to 16 keys, then in a HashSet (identity hash, grown by doubling from 256 cells) of up
 * to 2^(K-5) keys (2^(K-4) for 32-bit keys), then in a HyperLogLogCounter (uniq_hll.c) fed
 * with the keys themselves; at K = 17 the estimate gets ClickHouse's bias correction.
 *
 * Keys: numbers up to 64 bits (and Date, Date32, DateTime, Enum, Bool) are hashed with
 * intHash64 (a Float32's bits zero-extended, not widened), strings and IPv6 with CityHash64 v1.0.2;
 * other single arguments whose values are contiguous (Decimal, DateTime64...), several
 * arguments and a tuple with ClickHouse's variadic CityHash chain; Int128 and UUID with
 * intHash64 of their halves xor-ed, UInt128 with SipHash-64. Arguments that ClickHouse
 * hashes with SipHash-128 of their serialized values (arrays, maps, Nullable inside a
 * tuple...) are refused with NOT_IMPLEMENTED.
 *
 * State (ClickHouse's): a byte 1/2/3 for array/set/HyperLogLog, then the array (VarUInt
 * count, keys), the set (HashTable::write: VarUInt count, keys in cell order) or the
 * counter's bytes. */
#include "agg_impl.h"
#include "base/cityhash.h"
#include "base/siphash.h"
#include "chset.h"
#include "func/agg_state.h"
#include "uniq_combined.h"

enum { UC_SMALL = 1, UC_MEDIUM = 2, UC_LARGE = 3 };
enum { UC_INT, UC_F32, UC_STR, UC_IPV6, UC_XOR128, UC_SIP128, UC_VAR, UC_TUPLE };
#define UC_SMALL_MAX 16

typedef struct uc_data {
    uc_hll_cfg hll;
    int kw;              /* key bytes: 4 or 8 */
    uint32_t medium_max; /* keys the hash set holds before the counter takes over */
    int mode;
} uc_data;

typedef struct ucomb {
    uint64_t small[UC_SMALL_MAX];
    chset medium;
    uc_hll *large;
    uint8_t kind, nsmall;
} ucomb;

/* ---- the estimator ---- */

static void uc_init(const agg_call *a, void *st)
{
    const uc_data *d = a->data;
    ucomb *u = st;
    u->kind = UC_SMALL;
    u->nsmall = 0;
    u->large = NULL;
    chset_init(&u->medium, d->kw, CHS_TRIVIAL128, 8);
    u->medium.grow_by_one = true;
}

static void uc_destroy(const agg_call *a, void *st)
{
    ucomb *u = st;
    chset_free(&u->medium);
    uc_hll_free(u->large);
    u->large = NULL;
    u->kind = UC_SMALL;
    u->nsmall = 0;
}

static void to_medium(ucomb *u)
{
    for (int i = 0; i < u->nsmall; i++)
        chset_insert(&u->medium, u->small[i]);
    u->kind = UC_MEDIUM;
}

/* Context of the chset_each callbacks below. */
typedef struct ins_ctx {
    const uc_data *d;
    ucomb *u;
} ins_ctx;

static void feed_one(void *ctx, uint128_t k)
{
    ins_ctx *c = ctx;
    uc_hll_insert(&c->d->hll, c->u->large, (uint64_t)k);
}

static void to_large(const uc_data *d, ucomb *u)
{
    u->large = uc_hll_new(&d->hll);
    if (u->kind == UC_SMALL) {
        for (int i = 0; i < u->nsmall; i++)
            uc_hll_insert(&d->hll, u->large, u->small[i]);
    } else {
        ins_ctx c = {d, u};
        chset_each(&u->medium, feed_one, &c);
        chset_free(&u->medium);
    }
    u->kind = UC_LARGE;
}

static void uc_insert(const uc_data *d, ucomb *u, uint64_t k)
{
    switch (u->kind) {
    case UC_SMALL:
        for (int i = 0; i < u->nsmall; i++)
            if (u->small[i] == k)
                return;
        if (u->nsmall < UC_SMALL_MAX) {
            u->small[u->nsmall++] = k;
            return;
        }
        to_medium(u);
        chset_insert(&u->medium, k);
        return;
    case UC_MEDIUM:
        if (u->medium.size < d->medium_max) {
            chset_insert(&u->medium, k);
            return;
        }
        to_large(d, u);
        uc_hll_insert(&d->hll, u->large, k);
        return;
    default: uc_hll_insert(&d->hll, u->large, k); return;
    }
}

/* ---- keys ---- */

static inline uint64_t uc_key(const agg_call *a, column *const *args, size_t i)
{
    const uc_data *d = a->data;
    const column *c = args[0];
    uint64_t h;
    switch (d->mode) {
    case UC_INT: {
        size_t j = col_idx(c, i);
        const void *p = c->data.p;
        uint64_t v;
        switch (agg_tid(c->type)) {
        case T_UINT8: v = ((const uint8_t *)p)[j]; break;
        case T_UINT16: v = ((const uint16_t *)p)[j]; break;
        case T_UINT32: case T_IPV4: v = ((const uint32_t *)p)[j]; break;
        case T_INT8: v = (uint64_t)(int64_t)((const int8_t *)p)[j]; break;
        case T_INT16: v = (uint64_t)(int64_t)((const int16_t *)p)[j]; break;
        case T_INT32: v = (uint64_t)(int64_t)((const int32_t *)p)[j]; break;
        default: memcpy(&v, (const uint64_t *)p + j, 8); break; /* 64-bit ints, Float64's bits */
        }
        h = ch_int_hash64(v);
        break;
    }
    case UC_F32: {
        uint32_t b;
        memcpy(&b, (const float *)c->data.p + col_idx(c, i), 4);
        h = ch_int_hash64(b); /* bit_cast<UInt64>(Float32): the bits, zero-extended */
        break;
    }
    case UC_STR: {
        size_t n;
        const char *s = col_str(c, i, &n);
        return cityhash64_v102(s, n); /* 64-bit keys for strings in both functions */
    }
    case UC_IPV6: /* ClickHouse hashes an IPv6 as the string of its 16 bytes */
        return cityhash64_v102(c->data.p + col_idx(c, i) * 16, 16);
    case UC_XOR128: { /* Int128, UUID: DefaultHash64, intHash64 of the halves xor-ed */
        uint64_t w[2];
        memcpy(w, c->data.p + col_idx(c, i) * 16, 16);
        h = ch_int_hash64(w[0] ^ w[1]);
        break;
    }
    case UC_SIP128: h = siphash24_64(c->data.p + col_idx(c, i) * 16, 16); break; /* UInt128 */
    case UC_TUPLE: h = agg_uniq_var_hash(c->fields, c->nfields, col_idx(c, i)); break;
    default: h = agg_uniq_var_hash(args, a->nargs, i); break;
    }
    return d->kw == 4 ? (uint32_t)h : h;
}

static inline void uc_row(const agg_call *a, void *st, column *const *args, size_t i)
{
    uc_insert(a->data, st, uc_key(a, args, i));
}
AGG_ROW_OPS(uc, uc_row)

static void ins_one(void *ctx, uint128_t k)
{
    ins_ctx *c = ctx;
    uc_insert(c->d, c->u, (uint64_t)k);
}

/* CombinedCardinalityEstimator::merge: dst first takes the larger container kind, then
 * src's keys are inserted one by one (or the counters merged). */
static void uc_merge(const agg_call *a, void *dst, void *src)
{
    const uc_data *d = a->data;
    ucomb *u = dst, *s = src;
    int kind = u->kind > s->kind ? u->kind : s->kind;
    if (u->kind != kind) {
        if (kind == UC_MEDIUM)
            to_medium(u);
        else
            to_large(d, u);
    }
    if (s->kind == UC_SMALL) {
        for (int i = 0; i < s->nsmall; i++)
            uc_insert(d, u, s->small[i]);
    } else if (s->kind == UC_MEDIUM) {
        ins_ctx c = {d, u};
        chset_each(&s->medium, ins_one, &c);
    } else {
        uc_hll_merge(&d->hll, u->large, s->large);
    }
    uc_destroy(a, src);
}

static int uc_finalize(const agg_call *a, void *st, column *out)
{
    const uc_data *d = a->data;
    const ucomb *u = st;
    uint64_t v = u->kind == UC_SMALL ? u->nsmall : u->kind == UC_MEDIUM ? u->medium.size
                                                                         : uc_hll_size(&d->hll, u->large);
    col_push_fixed(out, &v);
    return 0;
}

static void uc_serialize(const agg_call *a, const void *st, buf *out)
{
    const uc_data *d = a->data;
    const ucomb *u = st;
    buf_putc(out, (char)u->kind);
    if (u->kind == UC_SMALL) {
        agg_put_varuint(out, u->nsmall);
        for (int i = 0; i < u->nsmall; i++)
            buf_append(out, &u->small[i], (size_t)d->kw); /* little-endian: the low kw bytes */
    } else if (u->kind == UC_MEDIUM) {
        chset_write(&u->medium, out);
    } else {
        uc_hll_write(&d->hll, u->large, out);
    }
}

static int uc_deserialize(const agg_call *a, void *st, agg_rd *in)
{
    const uc_data *d = a->data;
    ucomb *u = st;
    uint8_t kind;
    uc_destroy(a, st);
    if (agg_rd_bytes(in, &kind, 1) < 0)
        return -1;
    if (kind == UC_SMALL) {
        uint64_t n;
        if (agg_rd_varuint(in, &n) < 0)
            return -1;
        if (n > 1000000)
            return err_set(ERR_TOO_LARGE_ARRAY_SIZE, "The size of serialized small table is suspiciously large: %llu",
                           (unsigned long long)n);
        if (n > UC_SMALL_MAX)
            return err_set(ERR_INCORRECT_DATA, "Illegal size");
        for (uint64_t i = 0; i < n; i++) {
            uint64_t k = 0;
            if (agg_rd_bytes(in, &k, (size_t)d->kw) < 0)
                return -1;
            u->small[i] = k;
        }
        u->nsmall = (uint8_t)n; /* kept as written, as SmallTable::read does */
        return 0;
    }
    if (kind == UC_MEDIUM) {
        u->kind = UC_MEDIUM;
        return chset_read(&u->medium, in);
    }
    if (kind == UC_LARGE) {
        u->large = uc_hll_new(&d->hll);
        u->kind = UC_LARGE;
        return uc_hll_read(&d->hll, u->large, in);
    }
    return err_set(ERR_INCORRECT_DATA, "Cannot read the state of %s: unknown container kind %u", a->def->name,
                   kind);
}

static void uc_spill_write(const agg_call *a, const void *st, buf *out)
{
    agg_spill_write_serialized(a, st, out, uc_serialize);
}
static void uc_spill_read(const agg_call *a, void *st, const char **p)
{
    agg_spill_read_serialized(a, st, p, uc_deserialize);
}

/* ---- resolution ---- */

int agg_uniq_variadic_mode(const agg_call *a)
{
    const type *t0 = type_base(a->arg_types[0]);
    bool tuple = a->nargs == 1 && t0->id == T_TUPLE;
    int n = tuple ? t0->nfields : a->nargs;
    for (int k = 0; k < n; k++) {
        const type *t = tuple ? t0->fields[k] : type_base(a->arg_types[k]);
        column *c = col_new(t);
        col_push_default(c);
        const void *p;
        size_t len;
        bool ok = agg_uniq_data_at(c, 0, &p, &len) && !(tuple && a->arg_types[0]->id == T_NULLABLE);
        col_free(c);
        if (!ok)
            return err_set(ERR_NOT_IMPLEMENTED, "%s of arguments of type %s is not supported yet (ClickHouse hashes "
                           "such values with SipHash)", a->def->name, t->name);
    }
    if (n == 0)
        return err_set(ERR_NOT_IMPLEMENTED, "%s of an empty tuple is not supported yet", a->def->name);
    return 0;
}

/* The key mode of the arguments (UC_*), or -1 (NOT_IMPLEMENTED set) for types whose
 * ClickHouse key shale does not compute. */
static int uc_mode(const agg_call *a)
{
    const type *t0 = type_base(a->arg_types[0]);
    if (a->nargs == 1 && t0->id != T_TUPLE && !type_is_decimal(t0) && t0->id != T_DATETIME64) {
        if (t0->id == T_UUID || t0->id == T_INT128)
            return UC_XOR128;
        if (t0->id == T_UINT128)
            return UC_SIP128;
        switch (agg_tid(t0)) {
        case T_UINT8: case T_UINT16: case T_UINT32: case T_UINT64: case T_IPV4:
        case T_INT8: case T_INT16: case T_INT32: case T_INT64: case T_FLOAT64:
            return UC_INT;
        case T_IPV6: return UC_IPV6;
        case T_FLOAT32: return UC_F32;
        case T_STRING: case T_FIXEDSTRING: return UC_STR;
        default: break;
        }
    }
    if (agg_uniq_variadic_mode(a) < 0)
        return -1;
    return a->nargs == 1 && t0->id == T_TUPLE ? UC_TUPLE : UC_VAR;
}

static int uc_resolve(agg_call *a)
{
    bool wide = strcmp(a->def->name, "uniqCombined64") == 0;
    int k = 17;
    if (a->nparams > 1)
        return err_set(ERR_NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Aggregate function %s requires one parameter or less.",
                       a->def->name);
    if (a->nparams == 1) {
        double p = a->params[0];
        if (!(p >= 12 && p <= 20))
            return err_set(ERR_ARGUMENT_OUT_OF_BOUND, "Parameter for aggregate function %s is out of range: [12, 20].",
                           a->def->name);
        k = (int)p;
    }
    if (a->nargs < 1)
        return err_set(ERR_NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Incorrect number of arguments for aggregate function %s",
                       a->def->name);
    int mode = uc_mode(a);
    if (mode < 0)
        return -1;
    uc_data *d = xcalloc(1, sizeof *d);
    a->data = d;
    d->mode = mode;
    d->kw = wide || mode == UC_STR || mode == UC_IPV6 ? 8 : 4;
    d->medium_max = 1u << (k - 5 + (d->kw == 4));
    d->hll = (uc_hll_cfg){.k = (uint8_t)k, .hbits = (uint8_t)(d->kw * 8), .bias = k == 17};
    a->ret = type_simple(T_UINT64);
    a->state_size = sizeof(ucomb);
    a->state_align = _Alignof(ucomb);
    a->ops = (agg_ops){.init = uc_init, .merge = uc_merge, .finalize = uc_finalize, .destroy = uc_destroy,
                       .serialize = uc_serialize, .deserialize = uc_deserialize, .spill_write = uc_spill_write,
                       .spill_read = uc_spill_read};
    AGG_SET_ADD_OPS(a, uc);
    return 0;
}

static const agg_def defs[] = {
    {"uniqCombined", 0, uc_resolve,
     "Approximate number of distinct values (array, hash set, then HyperLogLog; 32-bit hashes)"},
    {"uniqCombined64", 0, uc_resolve,
     "Approximate number of distinct values (array, hash set, then HyperLogLog; 64-bit hashes)"},
};

void agg_register_uniq_combined(void)
{
    for (size_t i = 0; i < sizeof defs / sizeof defs[0]; i++)
        agg_register(&defs[i]);
}
