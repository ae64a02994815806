/* Built-in aggregate functions: count, sum, avg, min, max, any, anyLast, argMin, argMax,
 * groupArray.
 *
 * Floating-point sums reproduce ClickHouse's accumulation order bit for bit: within one
 * add_all call, values are added into 16 partial Float64 sums (element i goes to partial
 * i % 16) over the largest multiple-of-16 prefix, the partials are then added into the
 * state in order 0..15, and the remaining tail is summed into a separate local sum which is
 * added last (AggregateFunctionSumData::addMany, unroll_count = 128 / sizeof(Float64)).
 * Verified against chdb: sum(number * 0.1) over numbers(1000000) and numbers(1000003), and
 * sum(Float32) over numbers(100007), with max_threads=1 and one block. avg uses the same
 * summation for its numerator. */
#include "agg_impl.h"
#include "sum_wide.h"
#include "func/agg_state.h"

#include <math.h>
#include <stdlib.h>

/* ---- count ---- */

static void count_init(const agg_call *a, void *st) { *(uint64_t *)st = 0; }
static void count_add_all(const agg_call *a, void *st, column *const *args, size_t rows) { *(uint64_t *)st += rows; }
static void count_add_rows(const agg_call *a, char *const *sts, size_t off, column *const *args, size_t rows)
{
    for (size_t i = 0; i < rows; i++)
        ++*(uint64_t *)(void *)(sts[i] + off);
}
static void count_add_all_mask(const agg_call *a, void *st, column *const *args, size_t rows, const uint8_t *m)
{
    *(uint64_t *)st += agg_mask_count(m, rows);
}
static void count_add_rows_mask(const agg_call *a, char *const *sts, size_t off, column *const *args, size_t rows,
                                const uint8_t *m)
{
    for (size_t i = 0; i < rows; i++)
        *(uint64_t *)(void *)(sts[i] + off) += m[i] != 0;
}
static void u64_merge(const agg_call *a, void *d, void *s) { *(uint64_t *)d += *(uint64_t *)s; }
static int u64_finalize(const agg_call *a, void *st, column *out)
{
    col_push_fixed(out, st);
    return 0;
}

static void count_serialize(const agg_call *a, const void *st, buf *out)
{
    agg_put_varuint(out, *(const uint64_t *)st);
}
static int count_deserialize(const agg_call *a, void *st, agg_rd *in) { return agg_rd_varuint(in, st); }

static int count_resolve(agg_call *a)
{
    if (a->nargs > 1)
        return err_set(ERR_NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Aggregate function count requires zero or one argument");
    a->ret = type_simple(T_UINT64);
    a->state_size = sizeof(uint64_t);
    a->state_align = _Alignof(uint64_t);
    a->ops = (agg_ops){.init = count_init,
                       .merge = u64_merge,
                       .finalize = u64_finalize,
                       .serialize = count_serialize,
                       .deserialize = count_deserialize};
    AGG_SET_ADD_OPS(a, count);
    return 0;
}

/* ---- sum / avg ---- */

/* Sum state: the accumulator and, for avg, a row count. Integer sums wrap like
 * ClickHouse's (computed in unsigned arithmetic to stay defined). */
typedef struct sum_state {
    union {
        uint64_t u;
        int64_t i;
        double f;
        uint128_t d; /* Decimal: sum of scaled values, as Int128 */
    };
    uint64_t count;
} __attribute__((aligned(16))) sum_state;

enum { ACC_U, ACC_I, ACC_F, ACC_D };

typedef struct sum_data {
    type_id src;    /* physical source type */
    int acc;
    bool avg;
    int scale;      /* Decimal scale, for avg */
    bool u128;      /* UInt128: the 128-bit accumulator is unsigned */
} sum_data;

/* Float sum of one block in ClickHouse's order; m may be NULL. */
#define FSUM_BLOCK(SRC)                                                                     \
    static double fsum_##SRC(const SRC *x, size_t rows, const uint8_t *m, bool cst, double s) \
    {                                                                                       \
        double part[16] = {0};                                                              \
        size_t i = 0, st = cst ? 0 : 1;                                                     \
        size_t un = rows / 16 * 16;                                                         \
        if (m) {                                                                            \
            for (; i < un; i += 16)                                                         \
                for (size_t k = 0; k < 16; k++)                                             \
                    if (m[i + k])                                                           \
                        part[k] += (double)x[(i + k) * st];                                 \
        } else {                                                                            \
            for (; i < un; i += 16)                                                         \
                for (size_t k = 0; k < 16; k++)                                             \
                    part[k] += (double)x[(i + k) * st];                                     \
        }                                                                                   \
        for (size_t k = 0; k < 16; k++)                                                     \
            s += part[k];                                                                   \
        double loc = 0;                                                                     \
        for (; i < rows; i++)                                                               \
            if (!m || m[i])                                                                 \
                loc += (double)x[i * st];                                                   \
        return s + loc;                                                                     \
    }
FSUM_BLOCK(float)
FSUM_BLOCK(double)

/* Integer/decimal sum of one block. */
#define ISUM_BLOCK(NAME, SRC, ACC)                                                    \
    static ACC NAME(const SRC *x, size_t rows, const uint8_t *m, bool cst)            \
    {                                                                                 \
        ACC s = 0;                                                                    \
        if (cst) {                                                                    \
            size_t n = m ? agg_mask_count(m, rows) : rows;                            \
            return rows ? (ACC)x[0] * (ACC)n : 0;                                     \
        }                                                                             \
        if (m) {                                                                      \
            for (size_t i = 0; i < rows; i++)                                         \
                s += m[i] ? (ACC)x[i] : 0;                                            \
        } else {                                                                      \
            for (size_t i = 0; i < rows; i++)                                         \
                s += (ACC)x[i];                                                       \
        }                                                                             \
        return s;                                                                     \
    }
ISUM_BLOCK(isum_u8, uint8_t, uint64_t)
ISUM_BLOCK(isum_u16, uint16_t, uint64_t)
ISUM_BLOCK(isum_u32, uint32_t, uint64_t)
ISUM_BLOCK(isum_u64, uint64_t, uint64_t)
ISUM_BLOCK(isum_i8, int8_t, uint64_t)
ISUM_BLOCK(isum_i16, int16_t, uint64_t)
ISUM_BLOCK(isum_i32, int32_t, uint64_t)
ISUM_BLOCK(isum_i64, int64_t, uint64_t)
ISUM_BLOCK(dsum_i32, int32_t, uint128_t)
ISUM_BLOCK(dsum_i64, int64_t, uint128_t)
ISUM_BLOCK(dsum_i128, int128_t, uint128_t)
ISUM_BLOCK(dsum_u128, uint128_t, uint128_t)

static void sum_block(const agg_call *a, sum_state *s, const column *c, size_t rows, const uint8_t *m)
{
    const sum_data *sd = a->data;
    const void *x = c->data.p;
    bool k = c->is_const;
    switch (sd->src) {
    case T_UINT8: s->u += isum_u8(x, rows, m, k); break;
    case T_UINT16: s->u += isum_u16(x, rows, m, k); break;
    case T_UINT32: s->u += isum_u32(x, rows, m, k); break;
    case T_UINT64: s->u += isum_u64(x, rows, m, k); break;
    case T_INT8: s->u += isum_i8(x, rows, m, k); break;
    case T_INT16: s->u += isum_i16(x, rows, m, k); break;
    case T_INT32:
        if (sd->acc == ACC_D)
            s->d += dsum_i32(x, rows, m, k);
        else
            s->u += isum_i32(x, rows, m, k);
        break;
    case T_INT64:
        if (sd->acc == ACC_D)
            s->d += dsum_i64(x, rows, m, k);
        else
            s->u += isum_i64(x, rows, m, k);
        break;
    case T_INT128: s->d += dsum_i128(x, rows, m, k); break;
    case T_UINT128: s->d += dsum_u128(x, rows, m, k); break;
    case T_FLOAT32: s->f = fsum_float(x, rows, m, k, s->f); break;
    case T_FLOAT64: s->f = fsum_double(x, rows, m, k, s->f); break;
    default: break;
    }
    s->count += m ? agg_mask_count(m, rows) : rows;
}

static void sum_init(const agg_call *a, void *st) { memset(st, 0, sizeof(sum_state)); }
static void sum_add_all(const agg_call *a, void *st, column *const *args, size_t rows)
{
    sum_block(a, st, args[0], rows, NULL);
}
static void sum_add_all_mask(const agg_call *a, void *st, column *const *args, size_t rows, const uint8_t *m)
{
    sum_block(a, st, args[0], rows, m);
}

/* One row into one state (GROUP BY). */
static inline void sum_one(const sum_data *sd, sum_state *s, const column *c, size_t i)
{
    i = col_idx(c, i);
    const void *p = c->data.p;
    switch (sd->src) {
    case T_UINT8: s->u += ((const uint8_t *)p)[i]; break;
    case T_UINT16: s->u += ((const uint16_t *)p)[i]; break;
    case T_UINT32: s->u += ((const uint32_t *)p)[i]; break;
    case T_UINT64: s->u += ((const uint64_t *)p)[i]; break;
    case T_INT8: s->u += (uint64_t)(int64_t)((const int8_t *)p)[i]; break;
    case T_INT16: s->u += (uint64_t)(int64_t)((const int16_t *)p)[i]; break;
    case T_INT32:
        if (sd->acc == ACC_D)
            s->d += (uint128_t)(int128_t)((const int32_t *)p)[i];
        else
            s->u += (uint64_t)(int64_t)((const int32_t *)p)[i];
        break;
    case T_INT64:
        if (sd->acc == ACC_D)
            s->d += (uint128_t)(int128_t)((const int64_t *)p)[i];
        else
            s->u += (uint64_t)((const int64_t *)p)[i];
        break;
    case T_INT128: s->d += (uint128_t)((const int128_t *)p)[i]; break;
    case T_UINT128: s->d += ((const uint128_t *)p)[i]; break;
    case T_FLOAT32: s->f += ((const float *)p)[i]; break;
    case T_FLOAT64: s->f += ((const double *)p)[i]; break;
    default: break;
    }
    s->count++;
}

static void sum_add_rows(const agg_call *a, char *const *sts, size_t off, column *const *args, size_t rows)
{
    const sum_data *sd = a->data;
    for (size_t i = 0; i < rows; i++)
        sum_one(sd, (sum_state *)(void *)(sts[i] + off), args[0], i);
}
static void sum_add_rows_mask(const agg_call *a, char *const *sts, size_t off, column *const *args, size_t rows,
                              const uint8_t *m)
{
    const sum_data *sd = a->data;
    for (size_t i = 0; i < rows; i++)
        if (m[i])
            sum_one(sd, (sum_state *)(void *)(sts[i] + off), args[0], i);
}

static void sum_merge(const agg_call *a, void *dst, void *src)
{
    const sum_data *sd = a->data;
    sum_state *d = dst, *s = src;
    switch (sd->acc) {
    case ACC_F: d->f += s->f; break;
    case ACC_D: d->d += s->d; break;
    default: d->u += s->u; break;
    }
    d->count += s->count;
}

static int sum_finalize(const agg_call *a, void *st, column *out)
{
    const sum_data *sd = a->data;
    sum_state *s = st;
    if (sd->avg) {
        double num;
        switch (sd->acc) {
        case ACC_F: num = s->f; break;
        case ACC_I: num = (double)(int64_t)s->u; break;
        case ACC_U: num = (double)s->u; break;
        default: num = (sd->u128 ? (double)s->d : (double)(int128_t)s->d) / pow(10, sd->scale); break;
        }
        double v = num / (double)s->count; /* 0/0 = nan, as ClickHouse */
        col_push_fixed(out, &v);
        return 0;
    }
    switch (sd->acc) {
    case ACC_F: col_push_fixed(out, &s->f); break;
    case ACC_D: {
        int128_t v = (int128_t)s->d;
        col_push_fixed(out, &v);
        break;
    }
    default: col_push_fixed(out, &s->u); break;
    }
    return 0;
}

/* ClickHouse: sum writes its result type's value (8 bytes, 16 for Decimal128); avg writes
 * the numerator the same way and then the row count as a VarUInt. */
static void sum_serialize(const agg_call *a, const void *st, buf *out)
{
    const sum_data *sd = a->data;
    const sum_state *s = st;
    if (sd->acc == ACC_D)
        buf_append(out, &s->d, 16);
    else
        buf_append(out, &s->u, 8);
    if (sd->avg)
        agg_put_varuint(out, s->count);
}
static int sum_deserialize(const agg_call *a, void *st, agg_rd *in)
{
    const sum_data *sd = a->data;
    sum_state *s = st;
    if (agg_rd_bytes(in, sd->acc == ACC_D ? (void *)&s->d : (void *)&s->u, sd->acc == ACC_D ? 16 : 8) < 0)
        return -1;
    return sd->avg ? agg_rd_varuint(in, &s->count) : 0;
}

static int sum_avg_resolve(agg_call *a, bool avg)
{
    if (agg_no_params(a) < 0 || agg_need_args(a, 1) < 0)
        return -1;
    const type *t = type_base(a->arg_types[0]);
    sum_data sd = {.src = agg_tid(t), .avg = avg};
    switch (t->id) {
    case T_UINT8: case T_UINT16: case T_UINT32: case T_UINT64: case T_BOOL:
        sd.acc = ACC_U;
        a->ret = type_simple(T_UINT64);
        break;
    case T_INT8: case T_INT16: case T_INT32: case T_INT64:
        sd.acc = ACC_I;
        a->ret = type_simple(T_INT64);
        break;
    case T_FLOAT32: case T_FLOAT64:
        sd.acc = ACC_F;
        a->ret = type_simple(T_FLOAT64);
        break;
    case T_DECIMAL32: case T_DECIMAL64: case T_DECIMAL128:
        sd.acc = ACC_D;
        sd.scale = t->scale;
        a->ret = type_decimal(38, t->scale);
        break;
    case T_INT128: case T_UINT128: /* the 128-bit accumulator of decimals, scale 0, wrapping */
        sd.acc = ACC_D;
        sd.u128 = t->id == T_UINT128;
        a->ret = t;
        break;
    case T_INT256: case T_UINT256: case T_DECIMAL256:
        return agg_sum_wide_resolve(a, avg);
    default:
        return agg_bad_type(a, 0);
    }
    if (avg)
        a->ret = type_simple(T_FLOAT64);
    sum_data *p = xmalloc(sizeof *p);
    *p = sd;
    a->data = p;
    a->state_size = sizeof(sum_state);
    a->state_align = _Alignof(sum_state);
    a->ops = (agg_ops){.init = sum_init,
                       .add_all = sum_add_all,
                       .add_rows = sum_add_rows,
                       .merge = sum_merge,
                       .finalize = sum_finalize,
                       .add_all_mask = sum_add_all_mask,
                       .add_rows_mask = sum_add_rows_mask,
                       .serialize = sum_serialize,
                       .deserialize = sum_deserialize};
    return 0;
}
static int sum_resolve(agg_call *a) { return sum_avg_resolve(a, false); }
static int avg_resolve(agg_call *a) { return sum_avg_resolve(a, true); }

/* ---- min / max on fixed-width numbers: typed loops ---- */

typedef struct fixed_state {
    union {
        uint8_t bytes[16];
        int128_t i128;
    };
    uint8_t has;
} __attribute__((aligned(16))) fixed_state;

typedef struct mm_data {
    type_id tid;
    bool is_max;
} mm_data;

#define MM_KERNEL(NAME, T)                                                                        \
    static void NAME(fixed_state *s, const column *c, size_t rows, const uint8_t *m, bool is_max) \
    {                                                                                             \
        const T *x = (const T *)(const void *)c->data.p;                                          \
        size_t st = c->is_const ? 0 : 1;                                                          \
        T best;                                                                                   \
        bool has = s->has;                                                                        \
        memcpy(&best, s->bytes, sizeof(T));                                                       \
        for (size_t i = 0; i < rows; i++) {                                                       \
            if (m && !m[i])                                                                       \
                continue;                                                                         \
            T v = x[i * st];                                                                      \
            if (!has || (is_max ? best < v : v < best)) {                                         \
                best = v;                                                                         \
                has = true;                                                                       \
            }                                                                                     \
        }                                                                                         \
        memcpy(s->bytes, &best, sizeof(T));                                                       \
        s->has = has;                                                                             \
    }
MM_KERNEL(mm_u8, uint8_t)
MM_KERNEL(mm_u16, uint16_t)
MM_KERNEL(mm_u32, uint32_t)
MM_KERNEL(mm_u64, uint64_t)
MM_KERNEL(mm_u128, uint128_t)
MM_KERNEL(mm_i8, int8_t)
MM_KERNEL(mm_i16, int16_t)
MM_KERNEL(mm_i32, int32_t)
MM_KERNEL(mm_i64, int64_t)
MM_KERNEL(mm_i128, int128_t)
MM_KERNEL(mm_f32, float)
MM_KERNEL(mm_f64, double)

static void mm_block(const agg_call *a, fixed_state *s, const column *c, size_t rows, const uint8_t *m)
{
    const mm_data *d = a->data;
    switch (d->tid) {
    case T_UINT8: mm_u8(s, c, rows, m, d->is_max); break;
    case T_UINT16: mm_u16(s, c, rows, m, d->is_max); break;
    case T_UINT32: mm_u32(s, c, rows, m, d->is_max); break;
    case T_UINT64: mm_u64(s, c, rows, m, d->is_max); break;
    case T_UINT128: mm_u128(s, c, rows, m, d->is_max); break;
    case T_INT8: mm_i8(s, c, rows, m, d->is_max); break;
    case T_INT16: mm_i16(s, c, rows, m, d->is_max); break;
    case T_INT32: mm_i32(s, c, rows, m, d->is_max); break;
    case T_INT64: mm_i64(s, c, rows, m, d->is_max); break;
    case T_INT128: mm_i128(s, c, rows, m, d->is_max); break;
    case T_FLOAT32: mm_f32(s, c, rows, m, d->is_max); break;
    case T_FLOAT64: mm_f64(s, c, rows, m, d->is_max); break;
    default: break;
    }
}

/* One row: a block of one row starting at row i (a shallow view). */
static inline void mm_row(const agg_call *a, void *st, column *const *args, size_t i)
{
    column v = *args[0];
    size_t w = type_phys(v.type)->width;
    if (!v.is_const)
        v.data.p += i * w;
    mm_block(a, st, &v, 1, NULL);
}
static void fmm_add_all(const agg_call *a, void *st, column *const *args, size_t rows)
{
    mm_block(a, st, args[0], rows, NULL);
}
static void fmm_add_all_mask(const agg_call *a, void *st, column *const *args, size_t rows, const uint8_t *m)
{
    mm_block(a, st, args[0], rows, m);
}
static void fmm_add_rows(const agg_call *a, char *const *sts, size_t off, column *const *args, size_t rows)
{
    for (size_t i = 0; i < rows; i++)
        mm_row(a, sts[i] + off, args, i);
}
static void fmm_add_rows_mask(const agg_call *a, char *const *sts, size_t off, column *const *args, size_t rows,
                              const uint8_t *m)
{
    for (size_t i = 0; i < rows; i++)
        if (m[i])
            mm_row(a, sts[i] + off, args, i);
}
static void fixed_init(const agg_call *a, void *st) { memset(st, 0, sizeof(fixed_state)); }
static void fmm_merge(const agg_call *a, void *dst, void *src)
{
    fixed_state *s = src;
    if (!s->has)
        return;
    column v = {.type = a->arg_types[0], .len = 1};
    v.data.p = s->bytes;
    v.data.len = 16;
    mm_block(a, dst, &v, 1, NULL);
}
/* SingleValueDataFixed: a "has" byte, then the value when set. */
static void fixed_serialize(const agg_call *a, const void *st, buf *out)
{
    const fixed_state *s = st;
    buf_putc(out, (char)(s->has != 0));
    if (s->has)
        buf_append(out, s->bytes, type_base(a->ret)->width);
}
static int read_has(const agg_call *a, agg_rd *in, uint8_t *has)
{
    if (agg_rd_bytes(in, has, 1) < 0)
        return -1;
    if (*has > 1)
        return err_set(ERR_INCORRECT_DATA, "Malformed flag %u in the state of aggregate function %s", *has, a->name);
    return 0;
}
static int fixed_deserialize(const agg_call *a, void *st, agg_rd *in)
{
    fixed_state *s = st;
    if (read_has(a, in, &s->has) < 0)
        return -1;
    return s->has ? agg_rd_bytes(in, s->bytes, type_base(a->ret)->width) : 0;
}
static int fixed_finalize(const agg_call *a, void *st, column *out)
{
    col_push_fixed(out, ((fixed_state *)st)->bytes); /* zero bytes = default when empty */
    return 0;
}

/* ---- generic single value: min/max of anything comparable, any, anyLast, argMin/argMax ----
 *
 * The state keeps the chosen row in a one-row column (and, for argMin/argMax, the key in
 * another). Replacing a value re-creates the column: this path serves strings, arrays and
 * other non-fixed types, where a copy per replacement is inherent anyway. */

enum { GV_MIN, GV_MAX, GV_ANY, GV_ANYLAST, GV_ARGMIN, GV_ARGMAX };

typedef struct gv_state {
    column *val;
    column *key;
} gv_state;

static void gv_init(const agg_call *a, void *st) { memset(st, 0, sizeof(gv_state)); }
static void gv_destroy(const agg_call *a, void *st)
{
    gv_state *s = st;
    col_free(s->val);
    col_free(s->key);
    s->val = s->key = NULL;
}

static column *one_row(const column *src, size_t i, const type *t)
{
    column view = *src;
    view.type = t; /* argument columns may carry LowCardinality-typed views */
    column *c = col_new(t);
    col_push_from(c, &view, i);
    return c;
}

static inline void gv_set(const agg_call *a, gv_state *s, column *const *args, size_t i)
{
    col_free(s->val);
    s->val = one_row(args[0], i, a->ret);
    if (a->nargs > 1) {
        col_free(s->key);
        s->key = one_row(args[1], i, type_base(a->arg_types[1]));
    }
}

static inline void gv_row(const agg_call *a, void *st, column *const *args, size_t i)
{
    gv_state *s = st;
    int kind = *(const int *)a->data;
    if (!s->val) {
        gv_set(a, s, args, i);
        return;
    }
    switch (kind) {
    case GV_ANY: return;
    case GV_ANYLAST: gv_set(a, s, args, i); return;
    case GV_MIN:
    case GV_MAX: {
        column v = *args[0];
        v.type = a->ret;
        int c = col_compare(&v, i, s->val, 0, 1);
        if (kind == GV_MIN ? c < 0 : c > 0)
            gv_set(a, s, args, i);
        return;
    }
    default: {
        column v = *args[1];
        v.type = s->key->type;
        int c = col_compare(&v, i, s->key, 0, 1);
        if (kind == GV_ARGMIN ? c < 0 : c > 0)
            gv_set(a, s, args, i);
        return;
    }
    }
}
AGG_ROW_OPS(gv, gv_row)

static void gv_merge(const agg_call *a, void *dst, void *src)
{
    gv_state *s = src;
    if (!s->val)
        return;
    column *args[2] = {s->val, s->key};
    gv_row(a, dst, args, 0);
    gv_destroy(a, src);
}

static int gv_finalize(const agg_call *a, void *st, column *out)
{
    gv_state *s = st;
    if (s->val)
        col_push_from(out, s->val, 0);
    else
        col_push_default(out);
    return 0;
}

/* One single value as ClickHouse writes it: String as an Int32 size counting a trailing
 * NUL (-1 when there is no value) and the bytes with the NUL; any other type as a "has"
 * byte and the value's binary serialization. */
static void sv_serialize(const column *v, const type *t, buf *out)
{
    if (type_phys(t)->id == T_STRING) {
        if (!v) {
            int32_t m1 = -1;
            buf_append(out, &m1, 4);
            return;
        }
        size_t n;
        const char *p = col_str(v, 0, &n);
        int32_t sz = (int32_t)(n + 1);
        buf_append(out, &sz, 4);
        buf_append(out, p, n);
        buf_putc(out, 0);
        return;
    }
    buf_putc(out, v ? 1 : 0);
    if (v)
        agg_put_value(out, v, 0);
}
static int sv_deserialize(const agg_call *a, column **dst, const type *t, agg_rd *in)
{
    if (type_phys(t)->id == T_STRING) {
        int32_t sz;
        if (agg_rd_bytes(in, &sz, 4) < 0)
            return -1;
        if (sz <= 0)
            return 0;
        if ((size_t)sz > (size_t)(in->end - in->p))
            return agg_rd_short(in, (size_t)sz);
        *dst = col_new(t);
        col_push_str(*dst, (const char *)in->p, (size_t)sz - 1);
        in->p += sz;
        return 0;
    }
    uint8_t has;
    if (read_has(a, in, &has) < 0)
        return -1;
    if (!has)
        return 0;
    *dst = col_new(t);
    return agg_get_value(in, *dst);
}
static void gv_serialize(const agg_call *a, const void *st, buf *out)
{
    const gv_state *s = st;
    sv_serialize(s->val, a->ret, out);
    if (a->nargs > 1)
        sv_serialize(s->key, type_base(a->arg_types[1]), out);
}
static int gv_deserialize(const agg_call *a, void *st, agg_rd *in)
{
    gv_state *s = st;
    if (sv_deserialize(a, &s->val, a->ret, in) < 0)
        return -1;
    if (a->nargs > 1 && sv_deserialize(a, &s->key, type_base(a->arg_types[1]), in) < 0)
        return -1;
    if (a->nargs > 1 && !s->val != !s->key)
        return err_set(ERR_INCORRECT_DATA, "State of aggregate function %s has a value without a key or the reverse",
                       a->name);
    return 0;
}

static void gv_spill_write(const agg_call *a, const void *st, buf *out)
{
    const gv_state *s = st;
    agg_spill_put_col(out, s->val);
    agg_spill_put_col(out, s->key);
}

static void gv_spill_read(const agg_call *a, void *st, const char **p)
{
    gv_state *s = st;
    s->val = agg_spill_get_col(p, a->ret);
    s->key = agg_spill_get_col(p, a->nargs > 1 ? type_base(a->arg_types[1]) : a->ret);
}

static bool fixed_numeric(type_id t)
{
    switch (t) {
    case T_UINT8: case T_UINT16: case T_UINT32: case T_UINT64: case T_UINT128:
    case T_INT8: case T_INT16: case T_INT32: case T_INT64: case T_INT128:
    case T_FLOAT32: case T_FLOAT64: return true;
    default: return false;
    }
}

static int gv_resolve(agg_call *a, int kind)
{
    if (agg_no_params(a) < 0)
        return -1;
    if (agg_need_args(a, kind >= GV_ARGMIN ? 2 : 1) < 0)
        return -1;
    a->ret = type_base(a->arg_types[0]);
    if ((kind == GV_MIN || kind == GV_MAX) && fixed_numeric(agg_tid(a->ret))) {
        mm_data *d = xmalloc(sizeof *d);
        d->tid = agg_tid(a->ret);
        d->is_max = kind == GV_MAX;
        a->data = d;
        a->state_size = sizeof(fixed_state);
        a->state_align = _Alignof(fixed_state);
        a->ops = (agg_ops){.init = fixed_init,
                           .add_all = fmm_add_all,
                           .add_rows = fmm_add_rows,
                           .merge = fmm_merge,
                           .finalize = fixed_finalize,
                           .add_all_mask = fmm_add_all_mask,
                           .add_rows_mask = fmm_add_rows_mask,
                           .serialize = fixed_serialize,
                           .deserialize = fixed_deserialize};
        return 0;
    }
    a->state_size = sizeof(gv_state);
    a->state_align = _Alignof(gv_state);
    a->ops = (agg_ops){.init = gv_init,
                       .merge = gv_merge,
                       .finalize = gv_finalize,
                       .destroy = gv_destroy,
                       .serialize = gv_serialize,
                       .deserialize = gv_deserialize,
                       .spill_write = gv_spill_write,
                       .spill_read = gv_spill_read};
    AGG_SET_ADD_OPS(a, gv);
    /* data holds the kind as an integer; agg_call_free calls free(data) only when it is a
     * pointer, so keep it in a small allocation. */
    int *k = xmalloc(sizeof *k);
    *k = kind;
    a->data = k;
    return 0;
}

static int min_resolve(agg_call *a) { return gv_resolve(a, GV_MIN); }
static int max_resolve(agg_call *a) { return gv_resolve(a, GV_MAX); }
static int any_resolve(agg_call *a) { return gv_resolve(a, GV_ANY); }
static int anylast_resolve(agg_call *a) { return gv_resolve(a, GV_ANYLAST); }
static int argmin_resolve(agg_call *a) { return gv_resolve(a, GV_ARGMIN); }
static int argmax_resolve(agg_call *a) { return gv_resolve(a, GV_ARGMAX); }

/* ---- groupArray ---- */

typedef struct ga_state {
    column *vals;
} ga_state;

static inline size_t ga_limit(const agg_call *a) { return a->nparams ? (size_t)a->params[0] : SIZE_MAX; }

static inline void ga_row(const agg_call *a, void *st, column *const *args, size_t i)
{
    ga_state *s = st;
    const type *t = a->ret->inner;
    if (!s->vals)
        s->vals = col_new(t);
    if (s->vals->len >= ga_limit(a))
        return;
    column v = *args[0];
    v.type = t;
    col_push_from(s->vals, &v, i);
}
AGG_ROW_OPS(ga, ga_row)

static void ga_init(const agg_call *a, void *st) { ((ga_state *)st)->vals = NULL; }
static void ga_destroy(const agg_call *a, void *st)
{
    ga_state *s = st;
    col_free(s->vals);
    s->vals = NULL;
}
static void ga_merge(const agg_call *a, void *dst, void *src)
{
    ga_state *d = dst, *s = src;
    if (!s->vals)
        return;
    if (!d->vals) {
        d->vals = s->vals;
        s->vals = NULL;
        return;
    }
    size_t lim = ga_limit(a), room = d->vals->len < lim ? lim - d->vals->len : 0;
    size_t n = s->vals->len < room ? s->vals->len : room;
    if (n)
        col_push_range(d->vals, s->vals, 0, n);
    ga_destroy(a, src);
}
static int ga_finalize(const agg_call *a, void *st, column *out)
{
    ga_state *s = st;
    if (s->vals && s->vals->len)
        col_push_range(out->inner, s->vals, 0, s->vals->len);
    col_array_commit(out);
    return 0;
}

/* ClickHouse's groupArray keeps numbers (and Date, DateTime, Enum, Bool) in a plain
 * array, Strings as sized nodes and everything else as arena blobs: 0 = raw values,
 * 1 = String (VarUInt size + bytes), 2 = VarUInt size + the arena layout. */
static int ga_kind(const agg_call *a)
{
    switch (type_phys(a->ret->inner)->id) {
    case T_UINT8: case T_UINT16: case T_UINT32: case T_UINT64: case T_UINT128:
    case T_INT8: case T_INT16: case T_INT32: case T_INT64: case T_INT128:
    case T_FLOAT32: case T_FLOAT64: case T_BOOL: case T_DATE: case T_DATETIME:
    case T_ENUM8: case T_ENUM16: return 0;
    case T_STRING: return 1;
    default: return 2;
    }
}

/* A VarUInt count and the values. */
static void ga_serialize(const agg_call *a, const void *st, buf *out)
{
    const ga_state *s = st;
    size_t n = s->vals ? s->vals->len : 0;
    agg_put_varuint(out, n);
    int kind = ga_kind(a);
    buf tmp = {0};
    for (size_t i = 0; i < n; i++) {
        if (kind < 2) {
            agg_put_value(out, s->vals, i);
            continue;
        }
        tmp.len = 0;
        agg_put_arena(&tmp, s->vals, i);
        agg_put_varuint(out, tmp.len);
        buf_append(out, tmp.p, tmp.len);
    }
    buf_free(&tmp);
}
static int ga_deserialize(const agg_call *a, void *st, agg_rd *in)
{
    ga_state *s = st;
    uint64_t n;
    if (agg_rd_varuint(in, &n) < 0)
        return -1;
    uint64_t max = ga_limit(a) < 0xFFFFFF ? ga_limit(a) : 0xFFFFFF;
    if (n > max)
        return err_set(ERR_TOO_LARGE_ARRAY_SIZE, "Too large array size %llu (maximum: %llu)", (unsigned long long)n,
                       (unsigned long long)max);
    if (!s->vals)
        s->vals = col_new(a->ret->inner);
    bool blob = ga_kind(a) == 2;
    for (uint64_t i = 0; i < n; i++) {
        if (!blob) {
            if (agg_get_value(in, s->vals) < 0)
                return -1;
            continue;
        }
        uint64_t len;
        if (agg_rd_varuint(in, &len) < 0)
            return -1;
        if (len > (uint64_t)(in->end - in->p))
            return agg_rd_short(in, (size_t)len);
        agg_rd one = {in->p, in->p + len, 0};
        if (agg_get_arena(&one, s->vals) < 0)
            return -1;
        if (one.p != one.end)
            return err_set(ERR_INCORRECT_DATA, "Value of %llu bytes in the state of %s has %zu bytes after its end",
                           (unsigned long long)len, a->name, (size_t)(one.end - one.p));
        in->p += len;
    }
    return 0;
}

static void ga_spill_write(const agg_call *a, const void *st, buf *out)
{
    agg_spill_put_col(out, ((const ga_state *)st)->vals);
}

static void ga_spill_read(const agg_call *a, void *st, const char **p)
{
    ((ga_state *)st)->vals = agg_spill_get_col(p, a->ret->inner);
}

static int ga_resolve(agg_call *a)
{
    if (agg_need_args(a, 1) < 0)
        return -1;
    if (a->nparams > 1)
        return err_set(ERR_NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Incorrect number of parameters for aggregate function %s, should be 0 or 1",
                       a->def->name);
    if (a->nparams == 1 && (a->params[0] < 1 || a->params[0] != floor(a->params[0])))
        return err_set(ERR_BAD_ARGUMENTS, "Parameter for aggregate function %s should be positive number",
                       a->def->name);
    a->ret = type_array(type_base(a->arg_types[0]));
    a->state_size = sizeof(ga_state);
    a->state_align = _Alignof(ga_state);
    a->ops = (agg_ops){.init = ga_init,
                       .merge = ga_merge,
                       .finalize = ga_finalize,
                       .destroy = ga_destroy,
                       .serialize = ga_serialize,
                       .deserialize = ga_deserialize,
                       .spill_write = ga_spill_write,
                       .spill_read = ga_spill_read};
    AGG_SET_ADD_OPS(a, ga);
    return 0;
}

static const agg_def defs[] = {
    {"count", AGG_CASE_INSENSITIVE | AGG_NULLS_KEEP_TYPE | AGG_NULL_NO_FLAG, count_resolve, "Number of rows or non-NULL values"},
    {"sum", AGG_CASE_INSENSITIVE, sum_resolve, "Sum of values"},
    {"avg", AGG_CASE_INSENSITIVE, avg_resolve, "Arithmetic mean"},
    {"min", AGG_CASE_INSENSITIVE, min_resolve, "Minimum value"},
    {"max", AGG_CASE_INSENSITIVE, max_resolve, "Maximum value"},
    {"any", 0, any_resolve, "First value encountered"},
    {"anyLast", 0, anylast_resolve, "Last value encountered"},
    {"argMin", 0, argmin_resolve, "Value of the first argument at the minimum of the second"},
    {"argMax", 0, argmax_resolve, "Value of the first argument at the maximum of the second"},
    {"groupArray", AGG_NULLS_KEEP_TYPE | AGG_NULL_LITERAL_NULL | AGG_NULL_NO_FLAG, ga_resolve, "Array of the values"},
};

void agg_register_basic(void)
{
    for (size_t i = 0; i < sizeof defs / sizeof defs[0]; i++)
        agg_register(&defs[i]);
    agg_register_alias_ci("any_value", "any");
    agg_register_alias_ci("first_value", "any");
    agg_register_alias_ci("last_value", "anyLast");
    agg_register_alias_ci("array_agg", "groupArray");
    agg_register_alias_ci("max_by", "argMax");
    agg_register_alias_ci("min_by", "argMin");
}
