/* Built-in aggregate functions quantileTDigest(level)(x), medianTDigest, quantilesTDigest(l1,
 * l2, ...)(x) and their -Weighted forms (x, weight).
 *
 * ClickHouse's QuantileTDigest step for step, so that results and states are ClickHouse's
 * on the same input in the same order: centroids (Float32 mean, Float32 count) appended as
 * values arrive; past 2048 unmerged ones, and before serializing or reading a result, the
 * digest is compressed — centroids stably sorted by mean, neighbours merged while the pair
 * weighs at most 4 * 0.01 * N * q(1 - q) (Float64 temporaries, Float32 storage), then, if
 * more than 2048 remain, merged in fixed batches. A result interpolates between the
 * centroids around level * N (singletons count as points). Results are Float32, or the
 * argument's type for Date and DateTime (truncated). NaN values and zero weights are
 * skipped, as in ClickHouse.
 *
 * State (ClickHouse's): the compressed digest, VarUInt count then (mean, count) Float32
 * pairs. Reading checks the counts (positive, not NaN), drops NaN means and compresses. */
#include "agg_impl.h"
#include "func/agg_state.h"

#include <math.h>
#include <stdlib.h>

#define TD_MAX_CENTROIDS 2048
#define TD_MAX_UNMERGED 2048
#define TD_MAX_DESERIALIZE 65536
#define TD_EPSILON 0.01f

typedef struct cent {
    float mean, count;
} cent;

typedef struct tdigest {
    cent *c;
    size_t n, cap;
    double count;
    size_t unmerged;
} tdigest;

typedef struct td_data {
    type_id tid;     /* physical argument type */
    bool date;       /* Date / DateTime result */
    bool multi;      /* quantiles: Array result */
    bool weighted;
} td_data;

/* ---- the digest ---- */

/* RadixSortFloatTransform: the float's bits as an unsigned key in the float order. */
static inline uint32_t sort_key(float f)
{
    uint32_t x;
    memcpy(&x, &f, 4);
    return x & 0x80000000u ? ~x : x | 0x80000000u;
}

/* Stable sort by mean (ClickHouse sorts with an LSD radix sort, which is stable). */
static void sort_centroids(cent *c, size_t n)
{
    cent *tmp = mem_alloc(sizeof *tmp * n);
    for (size_t w = 1; w < n; w *= 2) {
        for (size_t lo = 0; lo < n; lo += 2 * w) {
            size_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
            size_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi)
                tmp[k++] = sort_key(c[j].mean) < sort_key(c[i].mean) ? c[j++] : c[i++];
            while (i < mid)
                tmp[k++] = c[i++];
            while (j < hi)
                tmp[k++] = c[j++];
        }
        memcpy(c, tmp, sizeof *c * n);
    }
    mem_free(tmp);
}

static inline bool can_merge(double l_mean, float r_mean)
{
    return l_mean == r_mean || (!isinf(l_mean) && !isinf(r_mean));
}

/* compressBrute: past max_centroids, fixed batches are merged whatever their weight. */
static void compress_brute(tdigest *t)
{
    if (t->n <= TD_MAX_CENTROIDS)
        return;
    size_t batch = (t->n + TD_MAX_CENTROIDS - 1) / TD_MAX_CENTROIDS;
    cent *c = t->c;
    size_t l = 0, pos = 0;
    double sum = 0, l_mean = c[0].mean, l_count = c[0].count;
    for (size_t r = 1; r < t->n; r++) {
        if (pos < batch - 1) {
            l_count += c[r].count;
            if (c[r].mean != l_mean)
                l_mean += c[r].count * (c[r].mean - l_mean) / l_count;
            c[l].mean = (float)l_mean;
            c[l].count = (float)l_count;
            pos++;
        } else {
            if (!isnan(c[l].mean)) {
                sum += c[l].count;
                l++;
            }
            c[l] = c[r];
            l_mean = c[l].mean;
            l_count = c[l].count;
            pos = 0;
        }
    }
    if (!isnan(c[l].mean)) {
        t->count = sum + l_count;
        t->n = l + 1;
    } else {
        t->count = sum;
        t->n = l;
    }
}

static void compress(tdigest *t)
{
    if (t->unmerged > 0 || t->n > TD_MAX_CENTROIDS) {
        cent *c = t->c;
        sort_centroids(c, t->n);
        size_t l = 0;
        const double count_eps4 = t->count * (double)TD_EPSILON * 4;
        double sum = 0, l_mean = c[0].mean, l_count = c[0].count;
        for (size_t r = 1; r < t->n; r++) {
            double ql = (sum + l_count * 0.5) / t->count;
            double err = ql * (1 - ql);
            double qr = (sum + l_count + c[r].count * 0.5) / t->count;
            double err2 = qr * (1 - qr);
            if (err > err2)
                err = err2;
            double k = count_eps4 * err;
            if (l_count + c[r].count <= k && can_merge(l_mean, c[r].mean)) {
                l_count += c[r].count;
                if (c[r].mean != l_mean)
                    l_mean += c[r].count * (c[r].mean - l_mean) / l_count;
                c[l].mean = (float)l_mean;
                c[l].count = (float)l_count;
            } else {
                sum += c[l].count; /* the stored (Float32) count, as ClickHouse */
                l++;
                if (l != r)
                    c[l] = c[r];
                l_mean = c[l].mean;
                l_count = c[l].count;
            }
        }
        t->count = sum + l_count;
        t->n = l + 1;
        t->unmerged = 0;
    }
    compress_brute(t);
}

static void add_centroid(tdigest *t, float mean, float count)
{
    if (t->n == t->cap) {
        t->cap = t->cap ? t->cap * 2 : 8;
        t->c = mem_realloc(t->c, sizeof *t->c * t->cap);
    }
    t->c[t->n++] = (cent){mean, count};
    t->count += count;
    if (++t->unmerged > TD_MAX_UNMERGED)
        compress(t);
}

static inline void td_add(tdigest *t, float v, uint64_t cnt)
{
    if (cnt == 0 || isnan(v))
        return;
    add_centroid(t, v, (float)cnt);
}

/* Linear interpolation between (x1, y1) and (x2, y2), in Float64 as ClickHouse 26.7. */
static float interpolate(double x, double x1, float y1, double x2, float y2)
{
    double k = (x - x1) / (x2 - x1);
    return (float)((1 - k) * y1 + k * y2);
}

/* getManyImpl: the levels in ascending order (perm), results written at their positions. */
static void td_get_many(tdigest *t, const double *levels, const int *perm, int nl, float *res)
{
    if (t->n == 0) {
        for (int i = 0; i < nl; i++)
            res[i] = NAN;
        return;
    }
    compress(t);
    if (t->n == 1) {
        for (int i = 0; i < nl; i++)
            res[i] = t->c[0].mean;
        return;
    }
    int rn = 0;
    double x = levels[perm[0]] * t->count, prev_x = 0;
    float sum = 0, prev_mean = t->c[0].mean, prev_count = t->c[0].count;
    for (size_t i = 0; i < t->n; i++) {
        const cent *c = &t->c[i];
        double cur_x = sum + c->count * 0.5;
        if (cur_x >= x) {
            double left = prev_x + 0.5 * (prev_count == 1);
            double right = cur_x - 0.5 * (c->count == 1);
            while (cur_x >= x) {
                float v;
                if (x <= left)
                    v = prev_mean;
                else if (x >= right)
                    v = c->mean;
                else
                    v = interpolate(x, left, prev_mean, right, c->mean);
                res[perm[rn]] = v;
                if (++rn >= nl)
                    return;
                x = levels[perm[rn]] * t->count;
            }
        }
        sum += c->count;
        prev_mean = c->mean;
        prev_count = c->count;
        prev_x = cur_x;
    }
    for (; rn < nl; rn++)
        res[perm[rn]] = t->c[t->n - 1].mean;
}

/* ---- the aggregate ---- */

static void td_init(const agg_call *a, void *st) { memset(st, 0, sizeof(tdigest)); }
static void td_destroy(const agg_call *a, void *st)
{
    mem_free(((tdigest *)st)->c);
    memset(st, 0, sizeof(tdigest));
}

/* static_cast<Float32>(x): 64-bit integers convert directly (not through Float64). */
static inline float value_at(const column *c, type_id t, size_t i)
{
    size_t j = col_idx(c, i);
    const void *p = c->data.p;
    switch (t) {
    case T_UINT8: return ((const uint8_t *)p)[j];
    case T_UINT16: return ((const uint16_t *)p)[j];
    case T_UINT32: return (float)((const uint32_t *)p)[j];
    case T_UINT64: return (float)((const uint64_t *)p)[j];
    case T_INT8: return ((const int8_t *)p)[j];
    case T_INT16: return ((const int16_t *)p)[j];
    case T_INT32: return (float)((const int32_t *)p)[j];
    case T_INT64: return (float)((const int64_t *)p)[j];
    case T_FLOAT32: return ((const float *)p)[j];
    case T_FLOAT64: return (float)((const double *)p)[j];
    default: return 0;
    }
}

/* The weight is read as IColumn::getUInt reads it (agg_int_as_u64). */
static inline void td_row(const agg_call *a, void *st, column *const *args, size_t i)
{
    const td_data *d = a->data;
    td_add(st, value_at(args[0], d->tid, i), d->weighted ? agg_int_as_u64(args[1], i) : 1);
}
AGG_ROW_OPS(td, td_row)

static void td_merge(const agg_call *a, void *dst, void *src)
{
    tdigest *s = src;
    for (size_t i = 0; i < s->n; i++)
        add_centroid(dst, s->c[i].mean, s->c[i].count);
    td_destroy(a, src);
}

static void push_value(const td_data *d, float v, bool empty, column *out)
{
    if (!d->date) {
        col_push_fixed(out, &v);
        return;
    }
    /* Date / DateTime: ClickHouse converts the Float32 back to the type (0 when empty) */
    uint8_t raw[4] = {0};
    if (!empty && d->tid == T_UINT16) {
        uint16_t x = (uint16_t)v;
        memcpy(raw, &x, 2);
    } else if (!empty) {
        uint32_t x = (uint32_t)v;
        memcpy(raw, &x, 4);
    }
    col_push_fixed(out, raw);
}

static int td_finalize(const agg_call *a, void *st, column *out)
{
    const td_data *d = a->data;
    tdigest *t = st;
    int nl = d->multi ? a->nparams : 1;
    double one = a->nparams ? a->params[0] : 0.5;
    const double *levels = d->multi ? a->params : &one;
    int perm_buf[64], *perm = nl <= 64 ? perm_buf : xmalloc(sizeof(int) * (size_t)nl);
    float res_buf[64], *res = nl <= 64 ? res_buf : xmalloc(sizeof(float) * (size_t)nl);
    for (int i = 0; i < nl; i++) { /* the levels' ascending order (insertion sort: few levels) */
        int j = i;
        for (; j > 0 && levels[perm[j - 1]] > levels[i]; j--)
            perm[j] = perm[j - 1];
        perm[j] = i;
    }
    bool empty = t->n == 0;
    if (nl)
        td_get_many(t, levels, perm, nl, res);
    if (d->date && !empty)
        for (int i = 0; i < nl; i++)
            if (!(res[i] > -1.0f && res[i] < (d->tid == T_UINT16 ? 65536.0f : 4294967296.0f))) {
                if (perm != perm_buf)
                    free(perm);
                if (res != res_buf)
                    free(res);
                return err_set(ERR_DECIMAL_OVERFLOW, "Numeric overflow");
            }
    if (d->multi) {
        for (int i = 0; i < nl; i++)
            push_value(d, res[i], empty, out->inner);
        col_array_commit(out);
    } else {
        push_value(d, res[0], empty, out);
    }
    if (perm != perm_buf)
        free(perm);
    if (res != res_buf)
        free(res);
    return 0;
}

/* serialize compresses first, as ClickHouse's does (the state is a compressed digest). */
static void td_serialize(const agg_call *a, const void *st, buf *out)
{
    tdigest *t = (tdigest *)st;
    if (t->n)
        compress(t);
    agg_put_varuint(out, t->n);
    buf_append(out, t->c, sizeof(cent) * t->n);
}

static int td_deserialize(const agg_call *a, void *st, agg_rd *in)
{
    tdigest *t = st;
    uint64_t n;
    td_destroy(a, st);
    if (agg_rd_varuint(in, &n) < 0)
        return -1;
    if (n > TD_MAX_DESERIALIZE)
        return err_set(ERR_TOO_LARGE_ARRAY_SIZE, "Too large t-digest centroids size");
    if (n * sizeof(cent) > (uint64_t)(in->end - in->p))
        return agg_rd_short(in, (size_t)n * sizeof(cent));
    t->c = mem_alloc(sizeof(cent) * (n ? n : 1));
    t->cap = n ? n : 1;
    memcpy(t->c, in->p, sizeof(cent) * n);
    in->p += sizeof(cent) * n;
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        cent c = t->c[i];
        if (!(c.count > 0))
            return err_set(ERR_CANNOT_PARSE_INPUT_ASSERTION_FAILED, "Invalid centroid %f:%f", (double)c.count,
                           (double)c.mean);
        if (isnan(c.mean))
            continue;
        t->count += c.count;
        t->c[k++] = c;
    }
    t->n = k;
    if (t->n)
        compress(t);
    return 0;
}

static void td_spill_write(const agg_call *a, const void *st, buf *out)
{
    agg_spill_write_serialized(a, st, out, td_serialize);
}
static void td_spill_read(const agg_call *a, void *st, const char **p)
{
    agg_spill_read_serialized(a, st, p, td_deserialize);
}

static int td_resolve_common(agg_call *a, bool multi, bool weighted)
{
    if (agg_need_args(a, weighted ? 2 : 1) < 0)
        return -1;
    if (!multi && a->nparams > 1)
        return err_set(ERR_NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Aggregate function %s requires one level parameter or less",
                       a->def->name);
    for (int i = 0; i < a->nparams; i++)
        if (!(a->params[i] >= 0 && a->params[i] <= 1))
            return err_set(ERR_PARAMETER_OUT_OF_BOUND, "Quantile level is out of range [0..1]");
    const type *t = type_base(a->arg_types[0]);
    td_data d = {.tid = agg_tid(t), .multi = multi, .weighted = weighted};
    d.date = t->id == T_DATE || t->id == T_DATETIME;
    bool num = (type_is_integer(t) || type_is_float(t) || t->id == T_BOOL) && t->width <= 8 && !type_is_decimal(t);
    if (!num && !d.date)
        return agg_bad_type(a, 0);
    if (weighted) {
        const type *w = type_base(a->arg_types[1]);
        if (!type_is_integer(w) || w->width > 8 || type_is_decimal(w))
            return err_set(ERR_NOT_IMPLEMENTED, "%s with a weight of type %s is not supported yet (integer weights are)",
                           a->def->name, a->arg_types[1]->name);
    }
    a->ret = d.date ? t : type_simple(T_FLOAT32);
    if (multi)
        a->ret = type_array(a->ret);
    td_data *p = xmalloc(sizeof *p);
    *p = d;
    a->data = p;
    a->state_size = sizeof(tdigest);
    a->state_align = _Alignof(tdigest);
    a->ops = (agg_ops){.init = td_init, .merge = td_merge, .finalize = td_finalize, .destroy = td_destroy,
                       .serialize = td_serialize, .deserialize = td_deserialize, .spill_write = td_spill_write,
                       .spill_read = td_spill_read};
    AGG_SET_ADD_OPS(a, td);
    return 0;
}

static int td_resolve(agg_call *a) { return td_resolve_common(a, false, false); }
static int tds_resolve(agg_call *a) { return td_resolve_common(a, true, false); }
static int tdw_resolve(agg_call *a) { return td_resolve_common(a, false, true); }
static int tdsw_resolve(agg_call *a) { return td_resolve_common(a, true, true); }

static const agg_def defs[] = {
    {"quantileTDigest", 0, td_resolve, "Approximate quantile (t-digest)"},
    {"medianTDigest", 0, td_resolve, "Approximate median (t-digest)"},
    {"quantilesTDigest", 0, tds_resolve, "Approximate quantiles at several levels (t-digest)"},
    {"quantileTDigestWeighted", 0, tdw_resolve, "Approximate weighted quantile (t-digest)"},
    {"medianTDigestWeighted", 0, tdw_resolve, "Approximate weighted median (t-digest)"},
    {"quantilesTDigestWeighted", 0, tdsw_resolve, "Approximate weighted quantiles at several levels (t-digest)"},
};

void agg_register_quantile_tdigest(void)
{
    for (size_t i = 0; i < sizeof defs / sizeof defs[0]; i++)
        agg_register(&defs[i]);
}
