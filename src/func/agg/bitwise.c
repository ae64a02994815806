/* Aggregates that fold values in their own type: groupBitAnd, groupBitOr, groupBitXor
 * (integers and Bool) and sumWithOverflow (integers, Bool, floats, decimals), whose result
 * has the argument's type and wraps on overflow, as ClickHouse's.
 *
 * The state is the running value in 16 bytes (wide enough for (U)Int128 and Decimal128);
 * groupBitAnd starts from all ones, so over no rows it gives the type's all-ones value
 * (18446744073709551615 for UInt64), as ClickHouse does. The serialized state is the value
 * in the argument's width, little-endian (ClickHouse's writeBinary). Bool counts as UInt8. */
#include "func/agg/agg_impl.h"
#include "func/agg_state.h"
#include "func/scalar/num.h"

enum { BIT_AND, BIT_OR, BIT_XOR, SUM_WRAP };

typedef struct fold_data {
    int kind;
    type_id tid;   /* physical id of the argument */
    unsigned width;
} fold_data;

typedef struct fold_state {
    union {
        uint8_t bytes[16];
        uint128_t u;
        double f;
        float f32;
    };
} __attribute__((aligned(16))) fold_state;

static void fold_init(const agg_call *a, void *st)
{
    const fold_data *d = a->data;
    memset(st, d->kind == BIT_AND ? 0xff : 0, sizeof(fold_state));
    if (d->kind == BIT_AND && d->width < 16) /* only the argument's width is the value */
        memset((char *)st + d->width, 0, 16 - d->width);
}

/* Integers are folded as 128-bit two's complement and cut to the width when read out, so
 * one path serves every width and signedness. */
static uint128_t load_int(const fold_data *d, const column *c, size_t i)
{
    const uint8_t *p = c->data.p + col_idx(c, i) * d->width;
    switch (d->tid) {
    case T_INT8: return (uint128_t)(int128_t) * (const int8_t *)p;
    case T_INT16: { int16_t v; memcpy(&v, p, 2); return (uint128_t)(int128_t)v; }
    case T_INT32: { int32_t v; memcpy(&v, p, 4); return (uint128_t)(int128_t)v; }
    case T_INT64: { int64_t v; memcpy(&v, p, 8); return (uint128_t)(int128_t)v; }
    default: {
        uint128_t v = 0;
        memcpy(&v, p, d->width);
        return v;
    }
    }
}

static inline void fold_row(const agg_call *a, void *st, column *const *args, size_t i)
{
    const fold_data *d = a->data;
    fold_state *s = st;
    const column *c = args[0];
    if (d->tid == T_FLOAT64) {
        s->f += COL_DATA(c, double)[col_idx(c, i)];
        return;
    }
    if (d->tid == T_FLOAT32) {
        s->f32 += COL_DATA(c, float)[col_idx(c, i)];
        return;
    }
    uint128_t v = load_int(d, c, i);
    switch (d->kind) {
    case BIT_AND: s->u &= v; break;
    case BIT_OR: s->u |= v; break;
    case BIT_XOR: s->u ^= v; break;
    default: s->u += v; break;
    }
}
AGG_ROW_OPS(fold, fold_row)

static void fold_merge(const agg_call *a, void *dst, void *src)
{
    const fold_data *d = a->data;
    fold_state *x = dst, *y = src;
    if (d->tid == T_FLOAT64) {
        x->f += y->f;
        return;
    }
    if (d->tid == T_FLOAT32) {
        x->f32 += y->f32;
        return;
    }
    switch (d->kind) {
    case BIT_AND: x->u &= y->u; break;
    case BIT_OR: x->u |= y->u; break;
    case BIT_XOR: x->u ^= y->u; break;
    default: x->u += y->u; break;
    }
}

static int fold_finalize(const agg_call *a, void *st, column *out)
{
    col_push_fixed(out, ((fold_state *)st)->bytes); /* the low `width` bytes: the value */
    return 0;
}

static void fold_serialize(const agg_call *a, const void *st, buf *out)
{
    const fold_data *d = a->data;
    buf_append(out, ((const fold_state *)st)->bytes, d->width);
}

static int fold_deserialize(const agg_call *a, void *st, agg_rd *in)
{
    const fold_data *d = a->data;
    fold_state *s = st;
    memset(s, 0, sizeof *s);
    return agg_rd_bytes(in, s->bytes, d->width);
}

static int fold_resolve(agg_call *a)
{
    if (agg_no_params(a) < 0 || agg_need_args(a, 1) < 0)
        return -1;
    const char *nm = a->def->name;
    int kind = !strcmp(nm, "groupBitAnd") ? BIT_AND : !strcmp(nm, "groupBitOr") ? BIT_OR
             : !strcmp(nm, "groupBitXor") ? BIT_XOR : SUM_WRAP;
    const type *t = type_base(a->arg_types[0]);
    bool is_int = (t->id >= T_UINT8 && t->id <= T_INT128) || t->id == T_BOOL;
    bool ok = kind == SUM_WRAP ? is_int || t->id == T_FLOAT32 || t->id == T_FLOAT64 || type_is_decimal(t) : is_int;
    if (!ok) {
        if (kind != SUM_WRAP && type_is_date_or_time(t))
            return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "The type %s of argument for aggregate function %s is illegal, "
                           "because it cannot be used in bitwise operations", a->arg_types[0]->name, nm);
        return agg_bad_type(a, 0);
    }
    fold_data *d = xmalloc(sizeof *d);
    d->kind = kind;
    d->tid = agg_tid(t);
    d->width = type_phys(t)->width;
    a->data = d;
    a->ret = t->id == T_BOOL ? type_simple(T_UINT8) : t;
    a->state_size = sizeof(fold_state);
    a->state_align = _Alignof(fold_state);
    a->ops = (agg_ops){.init = fold_init, .merge = fold_merge, .finalize = fold_finalize,
                       .serialize = fold_serialize, .deserialize = fold_deserialize};
    AGG_SET_ADD_OPS(a, fold);
    return 0;
}

void agg_register_bitwise(void)
{
    static const agg_def defs[] = {
        {"groupBitAnd", 0, fold_resolve, "Bitwise AND of the values"},
        {"groupBitOr", 0, fold_resolve, "Bitwise OR of the values"},
        {"groupBitXor", 0, fold_resolve, "Bitwise XOR of the values"},
        {"sumWithOverflow", 0, fold_resolve, "Sum in the argument's type, wrapping on overflow"},
    };
    for (size_t i = 0; i < sizeof defs / sizeof defs[0]; i++)
        agg_register(&defs[i]);
    agg_register_alias_ci("BIT_AND", "groupBitAnd");
    agg_register_alias_ci("BIT_OR", "groupBitOr");
    agg_register_alias_ci("BIT_XOR", "groupBitXor");
}
