/* sum and avg over Int256, UInt256 and Decimal256 (basic.c hands them here).
 *
 * ClickHouse's types: sum keeps the argument's type (Decimal256 becomes Decimal(76, S)),
 * avg is Float64. The sum wraps around modulo 2^256 like ClickHouse's. The serialized
 * state is the 32-byte little-endian sum (avg: then the row count as a VarUInt), as
 * ClickHouse writes it. States are plain values: thread-safe as every aggregate state. */
#include "agg_impl.h"
#include "sum_wide.h"
#include "func/agg_state.h"

#include <math.h>
#include <string.h>

typedef struct wsum_state {
    i256 sum;
    uint64_t count;
} wsum_state;

typedef struct wsum_data {
    bool avg, is_unsigned;
    int scale;
} wsum_data;

static void ws_init(const agg_call *a, void *st)
{
    (void)a;
    memset(st, 0, sizeof(wsum_state));
}

static void ws_one(wsum_state *s, const column *c, size_t i)
{
    s->sum = i256_add(s->sum, col_get_i256(c, i));
    s->count++;
}

static void ws_add_all(const agg_call *a, void *st, column *const *args, size_t rows)
{
    (void)a;
    for (size_t i = 0; i < rows; i++)
        ws_one(st, args[0], i);
}

static void ws_add_all_mask(const agg_call *a, void *st, column *const *args, size_t rows, const uint8_t *m)
{
    (void)a;
    for (size_t i = 0; i < rows; i++)
        if (m[i])
            ws_one(st, args[0], i);
}

static void ws_add_rows(const agg_call *a, char *const *sts, size_t off, column *const *args, size_t rows)
{
    (void)a;
    for (size_t i = 0; i < rows; i++)
        ws_one((wsum_state *)(void *)(sts[i] + off), args[0], i);
}

static void ws_add_rows_mask(const agg_call *a, char *const *sts, size_t off, column *const *args, size_t rows,
                             const uint8_t *m)
{
    (void)a;
    for (size_t i = 0; i < rows; i++)
        if (m[i])
            ws_one((wsum_state *)(void *)(sts[i] + off), args[0], i);
}

static void ws_merge(const agg_call *a, void *dst, void *src)
{
    (void)a;
    wsum_state *d = dst, *s = src;
    d->sum = i256_add(d->sum, s->sum);
    d->count += s->count;
}

static int ws_finalize(const agg_call *a, void *st, column *out)
{
    const wsum_data *wd = a->data;
    wsum_state *s = st;
    if (!wd->avg) {
        col_push_fixed(out, &s->sum);
        return 0;
    }
    double num = wd->is_unsigned ? i256_to_double_u(s->sum) : i256_to_double_s(s->sum);
    double v = num / pow(10, wd->scale) / (double)s->count; /* 0/0 = nan, as ClickHouse */
    col_push_fixed(out, &v);
    return 0;
}

static void ws_serialize(const agg_call *a, const void *st, buf *out)
{
    const wsum_data *wd = a->data;
    const wsum_state *s = st;
    buf_append(out, &s->sum, 32);
    if (wd->avg)
        agg_put_varuint(out, s->count);
}

static int ws_deserialize(const agg_call *a, void *st, agg_rd *in)
{
    const wsum_data *wd = a->data;
    wsum_state *s = st;
    if (agg_rd_bytes(in, &s->sum, 32) < 0)
        return -1;
    return wd->avg ? agg_rd_varuint(in, &s->count) : 0;
}

int agg_sum_wide_resolve(agg_call *a, bool avg)
{
    const type *t = type_base(a->arg_types[0]);
    wsum_data *wd = xmalloc(sizeof *wd);
    wd->avg = avg;
    wd->is_unsigned = t->id == T_UINT256;
    wd->scale = t->id == T_DECIMAL256 ? t->scale : 0;
    a->data = wd;
    a->ret = avg ? type_simple(T_FLOAT64) : t->id == T_DECIMAL256 ? type_decimal(76, t->scale) : t;
    a->state_size = sizeof(wsum_state);
    a->state_align = _Alignof(wsum_state);
    a->ops = (agg_ops){.init = ws_init,
                       .add_all = ws_add_all,
                       .add_rows = ws_add_rows,
                       .merge = ws_merge,
                       .finalize = ws_finalize,
                       .add_all_mask = ws_add_all_mask,
                       .add_rows_mask = ws_add_rows_mask,
                       .serialize = ws_serialize,
                       .deserialize = ws_deserialize};
    return 0;
}
