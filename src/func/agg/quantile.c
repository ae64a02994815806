/* Built-in aggregate functions: quantile family.
 *
 * quantileExact(level)(x) / medianExact: all values are kept (typed, in a tracked buffer);
 * the result is the element at index floor(level * n) (clamped to n-1) of the sorted
 * values, of the argument's type, like ClickHouse (quantileExact(0.5) of 1..4 is 3); of no
 * values nan for a float (the type's zero otherwise, and in quantilesExact's array).
 *
 * quantile(level)(x) / median: ClickHouse uses a reservoir sample of 8192 values and
 * interpolates linearly between neighbours; for up to 8192 values it is exact. shale keeps
 * the same interpolation but samples larger inputs with its own deterministic reservoir,
 * so results over more than 8192 rows may differ slightly from ClickHouse's.
 * The result is Float64, or the argument's type for Date/DateTime arguments.
 * quantiles(l1, l2, ...)(x) returns Array(Float64) (one value per level).
 * States: quantileExact's is ClickHouse's value vector; quantile's ClickHouse's reservoir
 * layout (qs_serialize). */
#include "agg_impl.h"
#include "func/agg_state.h"

#include <math.h>
#include <stdlib.h>

#define RESERVOIR 8192

typedef struct qstate {
    buf vals;       /* values: raw fixed-width for exact, double for the sampler */
    uint64_t seen;  /* values offered to the sampler */
    uint64_t rng;
} qstate;

typedef struct qdata {
    bool exact;
    bool multi;     /* quantiles: Array result */
    type_id tid;    /* physical argument type */
    size_t width;
    bool date_result;
} qdata;

static void q_init(const agg_call *a, void *st) { memset(st, 0, sizeof(qstate)); }
static void q_destroy(const agg_call *a, void *st) { buf_free(&((qstate *)st)->vals); }

static void q_spill_write(const agg_call *a, const void *st, buf *out)
{
    const qstate *s = st;
    uint64_t len = s->vals.len;
    buf_append(out, &s->seen, 8);
    buf_append(out, &s->rng, 8);
    buf_append(out, &len, 8);
    buf_append(out, s->vals.p, s->vals.len);
}

static void q_spill_read(const agg_call *a, void *st, const char **p)
{
    qstate *s = st;
    uint64_t len;
    memset(s, 0, sizeof *s);
    memcpy(&s->seen, *p, 8);
    memcpy(&s->rng, *p + 8, 8);
    memcpy(&len, *p + 16, 8);
    *p += 24;
    buf_append(&s->vals, *p, len);
    *p += len;
}

static inline double num_at(const column *c, type_id t, size_t i)
{
    size_t j = col_idx(c, i);
    const void *p = c->data.p;
    switch (t) {
    case T_UINT8: return ((const uint8_t *)p)[j];
    case T_UINT16: return ((const uint16_t *)p)[j];
    case T_UINT32: return ((const uint32_t *)p)[j];
    case T_UINT64: return (double)((const uint64_t *)p)[j];
    case T_INT8: return ((const int8_t *)p)[j];
    case T_INT16: return ((const int16_t *)p)[j];
    case T_INT32: return ((const int32_t *)p)[j];
    case T_INT64: return (double)((const int64_t *)p)[j];
    case T_FLOAT32: return ((const float *)p)[j];
    case T_FLOAT64: return ((const double *)p)[j];
    default: return 0;
    }
}

static inline void sample_push(qstate *s, double v)
{
    if (s->seen < RESERVOIR) {
        buf_append(&s->vals, &v, sizeof v);
    } else {
        s->rng = s->rng * 6364136223846793005ULL + 1442695040888963407ULL;
        uint64_t r = (s->rng >> 11) % (s->seen + 1);
        if (r < RESERVOIR)
            memcpy(s->vals.p + r * sizeof(double), &v, sizeof v);
    }
    s->seen++;
}

static inline void q_row(const agg_call *a, void *st, column *const *args, size_t i)
{
    const qdata *d = a->data;
    qstate *s = st;
    if (d->exact)
        buf_append(&s->vals, args[0]->data.p + col_idx(args[0], i) * d->width, d->width);
    else
        sample_push(s, num_at(args[0], d->tid, i));
}
AGG_ROW_OPS(q, q_row)

/* Reservoir merge as ClickHouse's ReservoirSampler::merge weighs it: a side that saw no
 * more values than the reservoir holds is replayed value by value; two full reservoirs mix
 * slot by slot, each slot taking the source's value with probability total_src / total. */
static void q_merge(const agg_call *a, void *dst, void *src)
{
    const qdata *d = a->data;
    qstate *ds = dst, *ss = src;
    if (d->exact) {
        buf_append(&ds->vals, ss->vals.p, ss->vals.len);
        buf_free(&ss->vals);
        return;
    }
    if (ss->seen > RESERVOIR && ds->seen <= RESERVOIR) {
        qstate t = *ds;
        *ds = *ss;
        *ss = t;
    }
    size_t n = ss->vals.len / sizeof(double);
    if (ss->seen <= RESERVOIR) {
        for (size_t i = 0; i < n; i++) {
            double v;
            memcpy(&v, ss->vals.p + i * sizeof(double), sizeof v);
            sample_push(ds, v);
        }
    } else {
        uint64_t total = ds->seen + ss->seen;
        for (size_t i = 0; i < n && i < ds->vals.len / sizeof(double); i++) {
            ds->rng = ds->rng * 6364136223846793005ULL + 1442695040888963407ULL;
            if ((ds->rng >> 11) % total < ss->seen)
                memcpy(ds->vals.p + i * sizeof(double), ss->vals.p + i * sizeof(double), sizeof(double));
        }
        ds->seen = total;
    }
    buf_free(&ss->vals);
}

/* quantile's state in ClickHouse's ReservoirSampler layout: UInt64 reservoir size (8192),
 * UInt64 values seen, the generator's state as text (shale writes ClickHouse's initial
 * one: shale's own generator picks the samples), then the samples in the argument's type.
 * Up to 8192 values the samples are the values in the order added, as in ClickHouse. */
static const char RNG_TEXT[] = "6364136223846793005 0 123459";

static void raw_from_double(type_id t, double v, void *out)
{
    switch (t) {
    case T_UINT8: { uint8_t x = (uint8_t)v; memcpy(out, &x, 1); break; }
    case T_UINT16: { uint16_t x = (uint16_t)v; memcpy(out, &x, 2); break; }
    case T_UINT32: { uint32_t x = (uint32_t)v; memcpy(out, &x, 4); break; }
    case T_UINT64: { uint64_t x = (uint64_t)v; memcpy(out, &x, 8); break; }
    case T_INT8: { int8_t x = (int8_t)v; memcpy(out, &x, 1); break; }
    case T_INT16: { int16_t x = (int16_t)v; memcpy(out, &x, 2); break; }
    case T_INT32: { int32_t x = (int32_t)v; memcpy(out, &x, 4); break; }
    case T_INT64: { int64_t x = (int64_t)v; memcpy(out, &x, 8); break; }
    case T_FLOAT32: { float x = (float)v; memcpy(out, &x, 4); break; }
    default: memcpy(out, &v, 8); break;
    }
}

/* p holds width bytes (the state's element width): never read past them, the value may be
 * the last bytes of the input. */
static double raw_to_double(type_id t, const uint8_t *p, size_t width)
{
    union { uint8_t u8; uint16_t u16; uint32_t u32; uint64_t u64; int8_t i8; int16_t i16; int32_t i32;
            int64_t i64; float f; double d; } x;
    memset(&x, 0, sizeof x);
    memcpy(&x, p, width < sizeof x ? width : sizeof x);
    switch (t) {
    case T_UINT8: return x.u8;
    case T_UINT16: return x.u16;
    case T_UINT32: return x.u32;
    case T_UINT64: return (double)x.u64;
    case T_INT8: return x.i8;
    case T_INT16: return x.i16;
    case T_INT32: return x.i32;
    case T_INT64: return (double)x.i64;
    case T_FLOAT32: return x.f;
    default: return x.d;
    }
}

static void qs_serialize(const agg_call *a, const void *st, buf *out)
{
    const qdata *d = a->data;
    const qstate *s = st;
    uint64_t cap = RESERVOIR;
    buf_append(out, &cap, 8);
    buf_append(out, &s->seen, 8);
    agg_put_varuint(out, sizeof RNG_TEXT - 1);
    buf_append(out, RNG_TEXT, sizeof RNG_TEXT - 1);
    size_t n = s->vals.len / sizeof(double);
    for (size_t i = 0; i < n; i++) {
        double v;
        uint8_t raw[8];
        memcpy(&v, s->vals.p + i * sizeof(double), sizeof v);
        raw_from_double(d->tid, v, raw);
        buf_append(out, raw, d->width);
    }
}

static int qs_deserialize(const agg_call *a, void *st, agg_rd *in)
{
    const qdata *d = a->data;
    qstate *s = st;
    uint64_t cap, total, tl;
    if (agg_rd_bytes(in, &cap, 8) < 0 || agg_rd_bytes(in, &total, 8) < 0 || agg_rd_varuint(in, &tl) < 0)
        return -1;
    if (cap != RESERVOIR)
        return err_set(ERR_INCORRECT_DATA, "quantile state has a reservoir of %llu samples, expected %d",
                       (unsigned long long)cap, RESERVOIR);
    if (tl > 256)
        return err_set(ERR_INCORRECT_DATA, "quantile state: random generator state of %llu bytes",
                       (unsigned long long)tl);
    if (tl > (uint64_t)(in->end - in->p))
        return agg_rd_short(in, (size_t)tl);
    in->p += tl; /* shale samples with its own generator */
    uint64_t n = total < cap ? total : cap;
    if (n > (uint64_t)(in->end - in->p) / d->width)
        return agg_rd_short(in, (size_t)(n * d->width));
    s->vals.len = 0;
    for (uint64_t i = 0; i < n; i++) {
        double v = raw_to_double(d->tid, in->p, d->width);
        buf_append(&s->vals, &v, sizeof v);
        in->p += d->width;
    }
    s->seen = total;
    return 0;
}

#define CMP_FN(NAME, T)                                         \
    static int NAME(const void *x, const void *y)               \
    {                                                           \
        T a, b;                                                 \
        memcpy(&a, x, sizeof a);                                \
        memcpy(&b, y, sizeof b);                                \
        if (a != a)                                             \
            return b != b ? 0 : 1; /* NaN sorts last */         \
        if (b != b)                                             \
            return -1;                                          \
        return a < b ? -1 : a > b;                              \
    }
CMP_FN(cmp_u8, uint8_t)
CMP_FN(cmp_u16, uint16_t)
CMP_FN(cmp_u32, uint32_t)
CMP_FN(cmp_u64, uint64_t)
CMP_FN(cmp_i8, int8_t)
CMP_FN(cmp_i16, int16_t)
CMP_FN(cmp_i32, int32_t)
CMP_FN(cmp_i64, int64_t)
CMP_FN(cmp_i128, int128_t)
CMP_FN(cmp_f32, float)
CMP_FN(cmp_f64, double)

static int (*cmp_for(type_id t))(const void *, const void *)
{
    switch (t) {
    case T_UINT8: return cmp_u8;
    case T_UINT16: return cmp_u16;
    case T_UINT32: return cmp_u32;
    case T_UINT64: return cmp_u64;
    case T_INT8: return cmp_i8;
    case T_INT16: return cmp_i16;
    case T_INT32: return cmp_i32;
    case T_INT64: return cmp_i64;
    case T_INT128: return cmp_i128;
    case T_FLOAT32: return cmp_f32;
    default: return cmp_f64;
    }
}

static double interp(const double *v, size_t n, double level)
{
    if (!n)
        return NAN;
    double idx = level * (double)(n - 1);
    if (idx < 0)
        idx = 0;
    if (idx > (double)(n - 1))
        idx = (double)(n - 1);
    size_t k = (size_t)idx;
    double frac = idx - (double)k;
    if (frac == 0 || k + 1 >= n)
        return v[k];
    return v[k] * (1 - frac) + v[k + 1] * frac;
}

static void push_level(const agg_call *a, qstate *s, double level, column *out)
{
    const qdata *d = a->data;
    if (d->exact) {
        size_t n = s->vals.len / d->width;
        if (!n && !d->multi && (d->tid == T_FLOAT32 || d->tid == T_FLOAT64)) {
            /* ClickHouse: quantileExact of no floats is nan; quantilesExact gives zeros */
            if (d->tid == T_FLOAT32) {
                float nanf = NAN;
                col_push_fixed(out, &nanf);
            } else {
                double nand = NAN;
                col_push_fixed(out, &nand);
            }
            return;
        }
        if (!n) {
            col_push_default(out);
            return;
        }
        size_t k = (size_t)(level * (double)n);
        if (k >= n)
            k = n - 1;
        col_push_fixed(out, s->vals.p + k * d->width);
        return;
    }
    double v = interp((const double *)(const void *)s->vals.p, s->vals.len / sizeof(double), level);
    if (d->date_result) {
        /* Date/DateTime: the interpolated value truncated back to the argument's type. */
        uint8_t raw[8] = {0};
        if (d->tid == T_UINT16) {
            uint16_t x = (uint16_t)v;
            memcpy(raw, &x, 2);
        } else if (d->tid == T_UINT32) {
            uint32_t x = (uint32_t)v;
            memcpy(raw, &x, 4);
        } else {
            int32_t x = (int32_t)v;
            memcpy(raw, &x, 4);
        }
        col_push_fixed(out, raw);
        return;
    }
    col_push_fixed(out, &v);
}

static int q_finalize(const agg_call *a, void *st, column *out)
{
    const qdata *d = a->data;
    qstate *s = st;
    size_t w = d->exact ? d->width : sizeof(double);
    /* Sorting fully is simpler than nth_element and gives the same element. */
    if (s->vals.len) /* an empty state has no buffer: qsort must not see NULL */
        qsort(s->vals.p, s->vals.len / w, w, cmp_for(d->exact ? d->tid : T_FLOAT64));
    if (d->multi) {
        for (int i = 0; i < a->nparams; i++)
            push_level(a, s, a->params[i], out->inner);
        col_array_commit(out);
        return 0;
    }
    push_level(a, s, a->nparams ? a->params[0] : 0.5, out);
    return 0;
}

/* quantileExact's state is ClickHouse's (writeVectorBinary): VarUInt count, the values raw
 * in the argument's layout, in the order added (merges append). */
static void qx_serialize(const agg_call *a, const void *st, buf *out)
{
    const qstate *s = st;
    agg_put_varuint(out, s->vals.len / ((const qdata *)a->data)->width);
    buf_append(out, s->vals.p, s->vals.len);
}

static int qx_deserialize(const agg_call *a, void *st, agg_rd *in)
{
    qstate *s = st;
    size_t w = ((const qdata *)a->data)->width;
    uint64_t n;
    if (agg_rd_varuint(in, &n) < 0)
        return -1;
    if (n > (1ull << 40))
        return err_set(ERR_TOO_LARGE_ARRAY_SIZE, "Too large array size %llu in a quantileExact state",
                       (unsigned long long)n);
    if (n > (uint64_t)(in->end - in->p) / w)
        return agg_rd_short(in, (size_t)(n * w));
    s->vals.len = 0;
    buf_append(&s->vals, in->p, (size_t)n * w);
    in->p += n * w;
    return 0;
}

static int q_resolve_common(agg_call *a, bool exact, bool multi)
{
    if (agg_need_args(a, 1) < 0)
        return -1;
    if (!multi && a->nparams > 1)
        return err_set(ERR_NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Aggregate function %s requires one level parameter or less",
                       a->def->name);
    for (int i = 0; i < a->nparams; i++)
        if (!(a->params[i] >= 0 && a->params[i] <= 1))
            return err_set(ERR_PARAMETER_OUT_OF_BOUND, "Quantile level is out of range [0..1]");
    const type *t = type_base(a->arg_types[0]);
    qdata d = {.exact = exact, .multi = multi, .tid = agg_tid(t), .width = type_phys(t)->width};
    bool is_date = t->id == T_DATE || t->id == T_DATE32 || t->id == T_DATETIME;
    bool num = type_is_integer(t) || type_is_float(t) || t->id == T_BOOL;
    if (!num && !is_date && !(exact && (t->id == T_DATETIME64 || type_is_decimal(t))))
        return agg_bad_type(a, 0);
    if (exact)
        a->ret = t;
    else if (is_date) {
        a->ret = t;
        d.date_result = true;
    } else
        a->ret = type_simple(T_FLOAT64);
    if (multi)
        a->ret = type_array(a->ret);
    qdata *p = xmalloc(sizeof *p);
    *p = d;
    a->data = p;
    a->state_size = sizeof(qstate);
    a->state_align = _Alignof(qstate);
    a->ops = (agg_ops){.init = q_init, .merge = q_merge, .finalize = q_finalize, .destroy = q_destroy,
                       .spill_write = q_spill_write, .spill_read = q_spill_read};
    if (exact) {
        a->ops.serialize = qx_serialize;
        a->ops.deserialize = qx_deserialize;
    } else {
        a->ops.serialize = qs_serialize;
        a->ops.deserialize = qs_deserialize;
    }
    AGG_SET_ADD_OPS(a, q);
    return 0;
}

static int quantile_resolve(agg_call *a) { return q_resolve_common(a, false, false); }
static int quantile_exact_resolve(agg_call *a) { return q_resolve_common(a, true, false); }
static int quantiles_resolve(agg_call *a) { return q_resolve_common(a, false, true); }
static int quantiles_exact_resolve(agg_call *a) { return q_resolve_common(a, true, true); }

static const agg_def defs[] = {
    {"quantile", 0, quantile_resolve, "Approximate quantile (reservoir sample, interpolated)"},
    {"quantileExact", 0, quantile_exact_resolve, "Exact quantile"},
    {"median", 0, quantile_resolve, "Approximate median"},
    {"medianExact", 0, quantile_exact_resolve, "Exact median"},
    {"quantiles", 0, quantiles_resolve, "Approximate quantiles at several levels"},
    {"quantilesExact", 0, quantiles_exact_resolve, "Exact quantiles at several levels"},
};

void agg_register_quantile(void)
{
    for (size_t i = 0; i < sizeof defs / sizeof defs[0]; i++)
        agg_register(&defs[i]);
}
