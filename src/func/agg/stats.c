/* Statistics aggregates: varPop, varSamp, stddevPop, stddevSamp (one argument) and
 * covarPop, covarSamp, corr (two arguments).
 *
 * Like ClickHouse these use plain sums of powers (count, Σx, Σx², Σy, Σxy, Σy²), not a
 * numerically stable method, so printed values match ClickHouse's digit for digit:
 *   varPop = max(0, (Σx² - (Σx)²/n) / n), varSamp divides by n - 1 (NaN when n <= 1),
 *   covarPop = (Σxy - ΣxΣy/n) / n, covarSamp likewise with n - 1,
 *   corr = (nΣxy - ΣxΣy) / sqrt((nΣx² - (Σx)²)(nΣy² - (Σy)²)).
 * An empty set gives NaN (not NULL). The result is Float32 when every argument is Float32
 * (the sums are then accumulated in Float32, emulated by rounding each step), else Float64.
 * Decimals are converted to their Float64 values.
 * Known differences: with Float32 arguments, and for covar and corr over large inputs,
 * ClickHouse's last digits differ (its accumulation order there is not reproduced yet);
 * the variances of Float64/integer arguments match exactly. */
#include "agg_impl.h"
#include "func/agg_state.h"

#include <math.h>

enum { S_VARPOP, S_VARSAMP, S_STDPOP, S_STDSAMP, S_COVPOP, S_COVSAMP, S_CORR };

typedef struct stat_data {
    int kind;
    bool f32;           /* accumulate and return Float32 */
    double div[2];      /* decimal scale multipliers per argument, 1 otherwise */
} stat_data;

typedef struct stat_state {
    double m0, x1, x2, y1, xy, y2;
} stat_state;

static void stat_init(const agg_call *a, void *st)
{
    (void)a;
    *(stat_state *)st = (stat_state){0};
}

static inline double rnd(bool f32, double v) { return f32 ? (double)(float)v : v; }

/* One row into one state (GROUP BY). */
static inline void stat_row(const agg_call *a, void *st, column *const *args, size_t i)
{
    const stat_data *d = a->data;
    stat_state *s = st;
    bool f = d->f32;
    double x = rnd(f, col_get_f64(args[0], i) / d->div[0]);
    s->m0 = rnd(f, s->m0 + 1);
    s->x1 = rnd(f, s->x1 + x);
    s->x2 = rnd(f, s->x2 + rnd(f, x * x));
    if (a->nargs == 2) {
        double y = rnd(f, col_get_f64(args[1], i) / d->div[1]);
        s->y1 = rnd(f, s->y1 + y);
        s->xy = rnd(f, s->xy + rnd(f, x * y));
        s->y2 = rnd(f, s->y2 + rnd(f, y * y));
    }
}

/* add_all: ClickHouse adds a whole block of each moment in the order of its sum (see
 * basic.c): 16 partial sums over the multiple-of-16 prefix, added to the state in lane order,
 * then the tail summed separately and added last. Matching it makes the printed values
 * equal (verified with chdb over numbers(10000)). m may be NULL. */
static void stat_block(const agg_call *a, stat_state *s, column *const *args, size_t rows, const uint8_t *m)
{
    const stat_data *d = a->data;
    bool f = d->f32, two = a->nargs == 2;
    double part[5][16] = {{0}}, loc[5] = {0};
    size_t un = rows / 16 * 16, cnt = 0;
    for (size_t i = 0; i < rows; i++) {
        if (m && !m[i])
            continue;
        cnt++;
        double x = rnd(f, col_get_f64(args[0], i) / d->div[0]), y = 0;
        if (two)
            y = rnd(f, col_get_f64(args[1], i) / d->div[1]);
        double *t[5];
        if (i < un)
            for (int q = 0; q < 5; q++) t[q] = &part[q][i % 16];
        else
            for (int q = 0; q < 5; q++) t[q] = &loc[q];
        *t[0] = rnd(f, *t[0] + x);
        *t[1] = rnd(f, *t[1] + rnd(f, x * x));
        if (two) {
            *t[2] = rnd(f, *t[2] + y);
            *t[3] = rnd(f, *t[3] + rnd(f, x * y));
            *t[4] = rnd(f, *t[4] + rnd(f, y * y));
        }
    }
    double *acc[5] = {&s->x1, &s->x2, &s->y1, &s->xy, &s->y2};
    for (int q = 0; q < (two ? 5 : 2); q++) {
        for (int k = 0; k < 16; k++)
            *acc[q] = rnd(f, *acc[q] + part[q][k]);
        *acc[q] = rnd(f, *acc[q] + loc[q]);
    }
    s->m0 = rnd(f, s->m0 + (double)cnt);
}

static void stat_add_all(const agg_call *a, void *st, column *const *args, size_t rows)
{
    stat_block(a, st, args, rows, NULL);
}
static void stat_add_all_mask(const agg_call *a, void *st, column *const *args, size_t rows, const uint8_t *m)
{
    stat_block(a, st, args, rows, m);
}
static void stat_add_rows(const agg_call *a, char *const *sts, size_t off, column *const *args, size_t rows)
{
    for (size_t i = 0; i < rows; i++)
        stat_row(a, sts[i] + off, args, i);
}
static void stat_add_rows_mask(const agg_call *a, char *const *sts, size_t off, column *const *args, size_t rows,
                               const uint8_t *m)
{
    for (size_t i = 0; i < rows; i++)
        if (m[i])
            stat_row(a, sts[i] + off, args, i);
}

static void stat_merge(const agg_call *a, void *dst, void *src)
{
    bool f = ((const stat_data *)a->data)->f32;
    stat_state *d = dst, *s = src;
    d->m0 = rnd(f, d->m0 + s->m0);
    d->x1 = rnd(f, d->x1 + s->x1);
    d->x2 = rnd(f, d->x2 + s->x2);
    d->y1 = rnd(f, d->y1 + s->y1);
    d->xy = rnd(f, d->xy + s->xy);
    d->y2 = rnd(f, d->y2 + s->y2);
}

static int stat_finalize(const agg_call *a, void *st, column *out)
{
    const stat_data *d = a->data;
    const stat_state *s = st;
    bool f = d->f32;
    double r;
#define R(e) rnd(f, (e))
    switch (d->kind) {
    case S_VARPOP: case S_STDPOP:
        r = s->m0 == 0 ? NAN : R(R(s->x2 - R(R(s->x1 * s->x1) / s->m0)) / s->m0);
        break;
    case S_VARSAMP: case S_STDSAMP:
        r = s->m0 <= 1 ? NAN : R(R(s->x2 - R(R(s->x1 * s->x1) / s->m0)) / R(s->m0 - 1));
        break;
    case S_COVPOP:
        r = s->m0 == 0 ? NAN : R(R(s->xy - R(R(s->x1 * s->y1) / s->m0)) / s->m0);
        break;
    case S_COVSAMP:
        r = s->m0 <= 1 ? NAN : R(R(s->xy - R(R(s->x1 * s->y1) / s->m0)) / R(s->m0 - 1));
        break;
    default:
        r = R(R(R(s->m0 * s->xy) - R(s->x1 * s->y1)) /
              R(sqrt(R(R(R(s->m0 * s->x2) - R(s->x1 * s->x1)) * R(R(s->m0 * s->y2) - R(s->y1 * s->y1))))));
        break;
    }
    if (d->kind <= S_STDSAMP && r < 0)
        r = 0; /* rounding can make the difference slightly negative */
    if (d->kind == S_STDPOP || d->kind == S_STDSAMP)
        r = R(sqrt(r));
#undef R
    if (f) {
        float v = (float)r;
        col_push_fixed(out, &v);
    } else {
        col_push_fixed(out, &r);
    }
    return 0;
}

/* ClickHouse's moments, raw (writePODBinary): varPop and friends m0, Σx, Σx²; covariances
 * m0, Σx, Σy, Σxy; corr m0, Σx, Σy, Σxy, Σx², Σy². Float32 when the sums are. */
static int stat_fields(const agg_call *a, stat_state *s, double **f)
{
    int kind = ((const stat_data *)a->data)->kind;
    double *all[6] = {&s->m0, &s->x1, &s->x2, &s->y1, &s->xy, &s->y2};
    int n = 0;
    if (kind <= S_STDSAMP) {
        f[n++] = all[0], f[n++] = all[1], f[n++] = all[2];
    } else {
        f[n++] = all[0], f[n++] = all[1], f[n++] = all[3], f[n++] = all[4];
        if (kind == S_CORR)
            f[n++] = all[2], f[n++] = all[5];
    }
    return n;
}

static void stat_serialize(const agg_call *a, const void *st, buf *out)
{
    double *f[6];
    int n = stat_fields(a, (stat_state *)st, f); /* only read through f */
    for (int i = 0; i < n; i++) {
        if (((const stat_data *)a->data)->f32) {
            float v = (float)*f[i];
            buf_append(out, &v, 4);
        } else {
            buf_append(out, f[i], 8);
        }
    }
}

static int stat_deserialize(const agg_call *a, void *st, agg_rd *in)
{
    double *f[6];
    int n = stat_fields(a, st, f);
    for (int i = 0; i < n; i++) {
        if (((const stat_data *)a->data)->f32) {
            float v;
            if (agg_rd_bytes(in, &v, 4) < 0)
                return -1;
            *f[i] = v;
        } else if (agg_rd_bytes(in, f[i], 8) < 0) {
            return -1;
        }
    }
    return 0;
}

static int stat_resolve(agg_call *a)
{
    static const char *const names[] = {"varPop", "varSamp", "stddevPop", "stddevSamp", "covarPop", "covarSamp", "corr"};
    int kind = 0;
    while (kind < S_CORR && strcmp(names[kind], a->def->name)) kind++;
    if (agg_no_params(a) < 0 || agg_need_args(a, kind >= S_COVPOP ? 2 : 1) < 0)
        return -1;
    stat_data *d = xcalloc(1, sizeof *d);
    a->data = d;
    d->kind = kind;
    d->f32 = true;
    for (int i = 0; i < a->nargs; i++) {
        const type *t = type_base(a->arg_types[i]);
        d->div[i] = 1;
        if (type_is_decimal(t))
            d->div[i] = (double)type_decimal_scale_multiplier(t);
        else if (!type_is_number(t) || t->id == T_BOOL)
            return agg_bad_type(a, i);
        if (t->id != T_FLOAT32)
            d->f32 = false;
    }
    a->ret = type_simple(d->f32 ? T_FLOAT32 : T_FLOAT64);
    a->state_size = sizeof(stat_state);
    a->state_align = _Alignof(stat_state);
    a->ops = (agg_ops){.init = stat_init, .merge = stat_merge, .finalize = stat_finalize,
                       .serialize = stat_serialize, .deserialize = stat_deserialize};
    AGG_SET_ADD_OPS(a, stat);
    return 0;
}

void agg_register_stats(void);
void agg_register_stats(void)
{
    static const agg_def defs[] = {
        {"varPop", 0, stat_resolve, "population variance"},
        {"varSamp", 0, stat_resolve, "sample variance"},
        {"stddevPop", 0, stat_resolve, "population standard deviation"},
        {"stddevSamp", 0, stat_resolve, "sample standard deviation"},
        {"covarPop", 0, stat_resolve, "population covariance"},
        {"covarSamp", 0, stat_resolve, "sample covariance"},
        {"corr", 0, stat_resolve, "Pearson correlation coefficient"},
    };
    for (size_t i = 0; i < sizeof defs / sizeof defs[0]; i++)
        agg_register(&defs[i]);
    agg_register_alias_ci("VAR_POP", "varPop");
    agg_register_alias_ci("VAR_SAMP", "varSamp");
    agg_register_alias_ci("STDDEV_POP", "stddevPop");
    agg_register_alias_ci("STDDEV_SAMP", "stddevSamp");
    agg_register_alias_ci("STD", "stddevPop");
    agg_register_alias_ci("STDDEV", "stddevSamp");
    agg_register_alias_ci("COVAR_POP", "covarPop");
    agg_register_alias_ci("COVAR_SAMP", "covarSamp");
}
