/* Vector distances and norms over arrays of numbers: L1Distance, L2Distance,
 * L2SquaredDistance, LinfDistance, LpDistance, cosineDistance, dotProduct, L1Norm, L2Norm,
 * L2SquaredNorm, LinfNorm, LpNorm (and ClickHouse's aliases distanceL2, normL2,
 * scalarProduct, arrayDotProduct, …).
 *
 * Types as ClickHouse: the elements must be native numbers (UInt8…Int64, Float32, Float64;
 * no Nullable elements, no decimals: ILLEGAL_TYPE_OF_ARGUMENT); a distance or norm is
 * Float32 when its elements' supertype is Float32 and Float64 otherwise; dotProduct has the
 * type of the elements' product (UInt8 × UInt8 → UInt16, wrapping as that type) and Float32
 * only for two Float32 arrays. Arrays of different sizes are SIZES_OF_ARRAYS_DONT_MATCH;
 * the p of LpDistance/LpNorm is a constant ≥ 1 and finite (ARGUMENT_OUT_OF_BOUND).
 * Tuples (ClickHouse's tuple forms of these functions) are NOT_IMPLEMENTED.
 *
 * Floating-point results are byte-identical to ClickHouse's only if the additions happen in
 * its order, so the kernels follow it (on a machine with AVX-512, as chdb runs here):
 *   - distances and dotProduct over two column arrays: w running states (8; dotProduct 16),
 *     fed elements wk..wk+w-1 while wk + w <= n, added into one state in order, then the
 *     tail one by one (measured against chdb 26.7: its kernels differ from older sources);
 *   - one constant array against a column, elements of the result's type on both sides,
 *     L2Distance/cosineDistance/dotProduct: 512-bit lanes (16 Float32 or 8 Float64) with
 *     fused multiply-adds while i + lanes < n, the lanes summed pairwise by halves, then the
 *     tail; other constant cases: one by one;
 *   - a multiply-add (L2, L2Squared, cosine, dot) is fused everywhere, as the compiler
 *     contracts it in ClickHouse's build for this machine;
 *   - norms: sixteen running states over the first n / 16 * 16 elements (fused multiply-add
 *     for L2/L2Squared, also in the tail), added in order, then the tail.
 * Thread-safe: no state beyond the resolved call. */
#include "func/func.h"
#include "func/scalar/num.h"
#include "func/supertype.h"

#include "base/err.h"
#include "base/mem.h"

#include <math.h>
#include <string.h>

enum { K_L1, K_L2, K_L2SQ, K_LINF, K_LP, K_COS, K_DOT };
/* Summation orders of ClickHouse's kernels (see the header). */
enum { ORDER_STATES, ORDER_LANES, ORDER_ONE_BY_ONE };

typedef struct dist_state {
    int kind;
    bool norm;       /* one array argument */
    bool f32;        /* computed and returned as Float32 */
    double p;        /* LpDistance/LpNorm */
} dist_state;

static int dist_kind(const char *name, bool *norm)
{
    static const struct { const char *n; int k; bool norm; } names[] = {
        {"L1Distance", K_L1, false}, {"L2Distance", K_L2, false}, {"L2SquaredDistance", K_L2SQ, false},
        {"LinfDistance", K_LINF, false}, {"LpDistance", K_LP, false}, {"cosineDistance", K_COS, false},
        {"dotProduct", K_DOT, false}, {"L1Norm", K_L1, true}, {"L2Norm", K_L2, true},
        {"L2SquaredNorm", K_L2SQ, true}, {"LinfNorm", K_LINF, true}, {"LpNorm", K_LP, true},
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (!strcmp(names[i].n, name)) {
            *norm = names[i].norm;
            return names[i].k;
        }
    return -1;
}

/* ---- floating-point kernels, instantiated for float and double ---- */

#define DIST_FLOAT_KERNELS(T, SFX, FMA, SQRT, FABS, FMAX, LANES)                               \
    typedef struct { T a, b, c; } st_##SFX;                                                         \
    static void acc_##SFX(int k, st_##SFX *s, T x, T y, double p)                                   \
    {                                                                                               \
        switch (k) {                                                                                \
        case K_L1: s->a += FABS(x - y); break;                                                      \
        case K_L2: case K_L2SQ: s->a = FMA(x - y, x - y, s->a); break;                              \
        case K_LINF: s->a = FMAX(s->a, FABS(x - y)); break;                                         \
        case K_LP: s->a += (T)pow((double)FABS(x - y), p); break;                                   \
        case K_COS: s->a = FMA(x, y, s->a); s->b = FMA(x, x, s->b); s->c = FMA(y, y, s->c); break;  \
        default: s->a = FMA(x, y, s->a); break;                                                     \
        }                                                                                           \
    }                                                                                               \
    static void comb_##SFX(int k, st_##SFX *s, const st_##SFX *o)                                   \
    {                                                                                               \
        if (k == K_LINF) {                                                                          \
            s->a = FMAX(s->a, o->a);                                                                \
            return;                                                                                 \
        }                                                                                           \
        s->a += o->a, s->b += o->b, s->c += o->c;                                                   \
    }                                                                                               \
    static T fin_##SFX(int k, const st_##SFX *s, double p)                                          \
    {                                                                                               \
        switch (k) {                                                                                \
        case K_L2: return SQRT(s->a);                                                               \
        case K_LP: return (T)pow((double)s->a, 1 / p);                                              \
        case K_COS: return 1 - s->a / SQRT(s->b * s->c);                                            \
        default: return s->a;                                                                       \
        }                                                                                           \
    }                                                                                               \
    /* Pairwise sum of the lanes by halves (as _mm512_reduce_add_*). */                            \
    static T reduce_##SFX(T *v)                                                                     \
    {                                                                                               \
        for (int w = LANES / 2; w >= 1; w /= 2)                                                     \
            for (int j = 0; j < w; j++)                                                             \
                v[j] = v[j] + v[j + w];                                                             \
        return v[0];                                                                                \
    }                                                                                               \
    /* x and y: n elements each, in ClickHouse's order `mode` (see the header). */                 \
    static T pair_##SFX(int k, const T *x, const T *y, size_t n, int mode, double p)                \
    {                                                                                               \
        st_##SFX s = {0, 0, 0};                                                                     \
        size_t i = 0;                                                                               \
        if (mode == ORDER_LANES) {                                                                  \
            T va[LANES] = {0}, vb[LANES] = {0}, vc[LANES] = {0};                                    \
            for (; i + LANES < n; i += LANES)                                                       \
                for (int j = 0; j < LANES; j++) {                                                   \
                    T a = x[i + j], b = y[i + j];                                                   \
                    if (k == K_COS) {                                                               \
                        va[j] = FMA(a, b, va[j]);                                                   \
                        vb[j] = FMA(a, a, vb[j]);                                                   \
                        vc[j] = FMA(b, b, vc[j]);                                                   \
                    } else if (k == K_DOT) {                                                        \
                        va[j] = FMA(a, b, va[j]);                                                   \
                    } else {                                                                        \
                        T d = a - b;                                                                \
                        va[j] = FMA(d, d, va[j]);                                                   \
                    }                                                                               \
                }                                                                                   \
            s.a = reduce_##SFX(va), s.b = reduce_##SFX(vb), s.c = reduce_##SFX(vc);                 \
        } else if (mode == ORDER_STATES) {                                                          \
            int w = k == K_DOT ? 16 : 8;                                                            \
            st_##SFX v[16];                                                                         \
            memset(v, 0, sizeof v);                                                                 \
            for (; i + w <= n; i += w)                                                              \
                for (int j = 0; j < w; j++)                                                         \
                    acc_##SFX(k, &v[j], x[i + j], y[i + j], p);                                     \
            for (int j = 0; j < w; j++)                                                             \
                comb_##SFX(k, &s, &v[j]);                                                           \
        }                                                                                           \
        for (; i < n; i++)                                                                          \
            acc_##SFX(k, &s, x[i], y[i], p);                                                        \
        return fin_##SFX(k, &s, p);                                                                 \
    }                                                                                               \
    static T norm_##SFX(int k, const T *x, size_t n, double p)                                      \
    {                                                                                               \
        T v[16] = {0}, r = 0;                                                                       \
        size_t i = 0, end = n / 16 * 16;                                                            \
        for (; i < end; i += 16)                                                                    \
            for (int j = 0; j < 16; j++)                                                            \
                v[j] = norm_acc_##SFX(k, v[j], x[i + j], p);                                        \
        for (int j = 0; j < 16; j++)                                                                \
            r = k == K_LINF ? FMAX(r, v[j]) : r + v[j];                                             \
        for (; i < n; i++)                                                                          \
            r = norm_acc_##SFX(k, r, x[i], p);                                                      \
        return k == K_L2 ? SQRT(r) : k == K_LP ? (T)pow((double)r, 1 / p) : r;                      \
    }

#define DIST_NORM_ACC(T, SFX, FMA, FABS, FMAX)                                                      \
    static T norm_acc_##SFX(int k, T r, T v, double p)                                              \
    {                                                                                               \
        switch (k) {                                                                                \
        case K_L1: return r + FABS(v);                                                              \
        case K_L2: case K_L2SQ: return FMA(v, v, r);                                                \
        case K_LINF: return FMAX(r, FABS(v));                                                       \
        default: return r + (T)pow((double)FABS(v), p);                                             \
        }                                                                                           \
    }

DIST_NORM_ACC(float, f32, fmaf, fabsf, fmaxf)
DIST_NORM_ACC(double, f64, fma, fabs, fmax)
DIST_FLOAT_KERNELS(float, f32, fmaf, sqrtf, fabsf, fmaxf, 16)
DIST_FLOAT_KERNELS(double, f64, fma, sqrt, fabs, fmax, 8)

/* ---- execution ---- */

/* Elements of array column a (rows of it: all its elements) as doubles or floats. */
static void *load_elems(const type *et, const column *a, bool f32)
{
    size_t n = a->inner->len;
    double *d = mem_alloc((n ? n : 1) * sizeof *d);
    num_load_f64(et, a->inner->data.p, n, d);
    if (!f32)
        return d;
    float *f = mem_alloc((n ? n : 1) * sizeof *f);
    for (size_t i = 0; i < n; i++)
        f[i] = (float)d[i];
    mem_free(d);
    return f;
}

static int size_mismatch(const fn_call *c)
{
    return err_set(ERR_SIZES_OF_ARRAYS_DONT_MATCH, "Array arguments for function %s must have equal sizes", c->name);
}

static int norm_exec(const fn_call *c, column **a, size_t n, column **out)
{
    const dist_state *st = c->state;
    const type *et = type_phys(c->arg_types[0]->inner);
    const uint64_t *o = col_offs(a[0]);
    void *e = load_elems(et, a[0], st->f32);
    column *r = col_new(c->ret);
    void *d = buf_grow(&r->data, (n ? n : 1) * (st->f32 ? sizeof(float) : sizeof(double)));
    r->len = n;
    for (size_t i = 0; i < n; i++) {
        size_t b = o[col_idx(a[0], i)], len = o[col_idx(a[0], i) + 1] - b;
        if (st->f32)
            ((float *)d)[i] = norm_f32(st->kind, (const float *)e + b, len, st->p);
        else
            ((double *)d)[i] = norm_f64(st->kind, (const double *)e + b, len, st->p);
    }
    mem_free(e);
    *out = r;
    return 0;
}

/* dotProduct over integers: products and sums wrap in the result's width (two's complement),
 * so they are computed modulo 2^64 and narrowed. */
static uint64_t dot_int(const uint64_t *x, const uint64_t *y, size_t n)
{
    uint64_t v[4] = {0, 0, 0, 0}, s = 0;
    size_t i = 0;
    for (; i + 4 < n; i += 4)
        for (int j = 0; j < 4; j++)
            v[j] += x[i + j] * y[i + j];
    s = v[0] + v[1] + v[2] + v[3];
    for (; i < n; i++)
        s += x[i] * y[i];
    return s;
}

static int pair_exec(const fn_call *c, column **a, size_t n, column **out)
{
    const dist_state *st = c->state;
    const type *ret = type_phys(c->ret);
    bool f32 = ret->id == T_FLOAT32, flt = f32 || ret->id == T_FLOAT64;
    /* One constant side: ClickHouse puts it first (the argument order does not change
     * these symmetric sums). */
    int cx = a[1]->is_const && !a[0]->is_const ? 1 : 0, cy = 1 - cx;
    const column *X = a[cx], *Y = a[cy];
    const type *tx = type_phys(c->arg_types[cx]->inner), *ty = type_phys(c->arg_types[cy]->inner);
    bool one_const = X->is_const && !Y->is_const;
    const uint64_t *ox = col_offs(X), *oy = col_offs(Y);
    for (size_t i = 0; i < n; i++) {
        size_t lx = ox[col_idx(X, i) + 1] - ox[col_idx(X, i)], ly = oy[col_idx(Y, i) + 1] - oy[col_idx(Y, i)];
        if (lx != ly)
            return size_mismatch(c);
    }
    bool lanes = one_const && tx == ret && ty == ret && (st->kind == K_L2 || st->kind == K_COS || st->kind == K_DOT);
    int mode = !one_const ? ORDER_STATES : lanes ? ORDER_LANES : ORDER_ONE_BY_ONE;
    column *r = col_new(c->ret);
    size_t w = ret->width;
    void *d = buf_grow(&r->data, (n ? n : 1) * w);
    r->len = n;
    if (flt) {
        void *ex = load_elems(tx, X, f32), *ey = load_elems(ty, Y, f32);
        for (size_t i = 0; i < n; i++) {
            size_t bx = ox[col_idx(X, i)], by = oy[col_idx(Y, i)], len = ox[col_idx(X, i) + 1] - bx;
            if (f32)
                ((float *)d)[i] = pair_f32(st->kind, (const float *)ex + bx, (const float *)ey + by, len, mode, st->p);
            else
                ((double *)d)[i] = pair_f64(st->kind, (const double *)ex + bx, (const double *)ey + by, len, mode, st->p);
        }
        mem_free(ex);
        mem_free(ey);
    } else {
        size_t nx = X->inner->len, ny = Y->inner->len;
        uint64_t *ex = mem_alloc((nx ? nx : 1) * sizeof *ex), *ey = mem_alloc((ny ? ny : 1) * sizeof *ey);
        num_load_u64(tx, X->inner->data.p, nx, ex);
        num_load_u64(ty, Y->inner->data.p, ny, ey);
        uint64_t *s = mem_alloc((n ? n : 1) * sizeof *s);
        for (size_t i = 0; i < n; i++) {
            size_t bx = ox[col_idx(X, i)], by = oy[col_idx(Y, i)], len = ox[col_idx(X, i) + 1] - bx;
            s[i] = dot_int(ex + bx, ey + by, len);
        }
        col_free(r);
        r = num_store_u64(c->ret, s, n);
        mem_free(s);
        mem_free(ex);
        mem_free(ey);
    }
    *out = r;
    return 0;
}

/* ---- resolution ---- */

static bool native_number(const type *t)
{
    t = type_phys(t);
    return (num_is_int(t) && num_size(t) <= 8) || num_is_float(t); /* Bool is UInt8 there */
}

static int elem_type_error(const fn_call *c, const type *et)
{
    return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT,
                   "Arguments of function %s has nested type %s. Supported types: UInt8, UInt16, UInt32, UInt64, "
                   "Int8, Int16, Int32, Int64, Float32, Float64",
                   c->name, et->name);
}

static int dist_resolve(fn_call *c)
{
    bool norm = false;
    int kind = dist_kind(c->def->name, &norm);
    int arrays = norm ? 1 : 2, want = arrays + (kind == K_LP);
    if (c->nargs != want)
        return fn_bad_nargs(c, want == 1 ? "1" : want == 2 ? "2" : "3");
    for (int i = 0; i < arrays; i++) {
        const type *t = type_phys(c->arg_types[i]);
        if (t->id == T_TUPLE)
            return err_set(ERR_NOT_IMPLEMENTED, "Function %s over tuples is not supported yet (arrays are)", c->name);
        if (t->id != T_ARRAY)
            return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "Argument %d of function %s must be array.", i, c->name);
        if (!native_number(t->inner))
            return elem_type_error(c, t->inner);
    }
    dist_state *st = mem_calloc(sizeof *st);
    st->kind = kind;
    st->norm = norm;
    if (kind == K_LP) {
        column *pc = c->const_args ? c->const_args[arrays] : NULL;
        const type *pt = type_phys(c->arg_types[arrays]);
        if (!num_is_int(pt) && !num_is_float(pt)) {
            mem_free(st);
            return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "Argument p of function %s must be numeric constant", c->name);
        }
        if (!pc) {
            mem_free(st);
            return err_set(ERR_ILLEGAL_COLUMN, "Second argument for function %s must be either constant Float64 or constant UInt",
                           c->name);
        }
        num_load_f64(pt, pc->data.p, 1, &st->p);
        if (!(st->p >= 1) || isinf(st->p)) {
            mem_free(st);
            return err_set(ERR_ARGUMENT_OUT_OF_BOUND,
                           "Second argument for function %s must be not less than one and not be an infinity", c->name);
        }
    }
    const type *e0 = type_phys(c->arg_types[0]->inner);
    if (kind == K_DOT) {
        const type *e1 = type_phys(c->arg_types[1]->inner);
        if (e0->id == T_FLOAT32 && e1->id == T_FLOAT32) {
            c->ret = type_simple(T_FLOAT32);
        } else {
            fn_call *mul;
            const type *tt[2] = {e0, e1};
            if (func_resolve("multiply", 2, tt, NULL, c->env, &mul) < 0) {
                mem_free(st);
                return -1;
            }
            c->ret = mul->ret;
            fn_call_free(mul);
        }
    } else if (norm) {
        c->ret = type_simple(e0->id == T_FLOAT32 ? T_FLOAT32 : T_FLOAT64);
    } else {
        const type *tt[2] = {e0, type_phys(c->arg_types[1]->inner)};
        const type *sup = type_supertype(2, tt);
        if (!sup) {
            mem_free(st);
            return -1;
        }
        c->ret = type_simple(type_phys(sup)->id == T_FLOAT32 ? T_FLOAT32 : T_FLOAT64);
    }
    st->f32 = type_phys(c->ret)->id == T_FLOAT32;
    c->state = st;
    c->exec = norm ? norm_exec : pair_exec;
    return 0;
}

static void dist_free(void *s) { mem_free(s); }

void func_register_distance(void)
{
    static const func_def defs[] = {
        {"L1Distance", FN_CONST_ARGS_OK, dist_resolve, dist_free, "sum of absolute differences of two arrays"},
        {"L2Distance", FN_CONST_ARGS_OK, dist_resolve, dist_free, "Euclidean distance of two arrays"},
        {"L2SquaredDistance", FN_CONST_ARGS_OK, dist_resolve, dist_free, "sum of squared differences of two arrays"},
        {"LinfDistance", FN_CONST_ARGS_OK, dist_resolve, dist_free, "largest absolute difference of two arrays"},
        {"LpDistance", FN_CONST_ARGS_OK, dist_resolve, dist_free, "Minkowski distance of order p of two arrays"},
        {"cosineDistance", FN_CONST_ARGS_OK, dist_resolve, dist_free, "1 - cosine of the angle between two arrays"},
        {"dotProduct", FN_CONST_ARGS_OK, dist_resolve, dist_free, "sum of the products of two arrays' elements"},
        {"L1Norm", FN_CONST_ARGS_OK, dist_resolve, dist_free, "sum of absolute values of an array"},
        {"L2Norm", FN_CONST_ARGS_OK, dist_resolve, dist_free, "Euclidean length of an array"},
        {"L2SquaredNorm", FN_CONST_ARGS_OK, dist_resolve, dist_free, "sum of squares of an array"},
        {"LinfNorm", FN_CONST_ARGS_OK, dist_resolve, dist_free, "largest absolute value of an array"},
        {"LpNorm", FN_CONST_ARGS_OK, dist_resolve, dist_free, "p-norm of an array"},
    };
    for (size_t i = 0; i < sizeof defs / sizeof defs[0]; i++)
        func_register(&defs[i]);
    static const char *aliases[][2] = {
        {"distanceL1", "L1Distance"}, {"distanceL2", "L2Distance"}, {"distanceL2Squared", "L2SquaredDistance"},
        {"distanceLinf", "LinfDistance"}, {"distanceLp", "LpDistance"}, {"distanceCosine", "cosineDistance"},
        {"scalarProduct", "dotProduct"}, {"arrayDotProduct", "dotProduct"}, {"normL1", "L1Norm"},
        {"normL2", "L2Norm"}, {"normL2Squared", "L2SquaredNorm"}, {"normLinf", "LinfNorm"}, {"normLp", "LpNorm"},
    };
    for (size_t i = 0; i < sizeof aliases / sizeof aliases[0]; i++)
        func_register_alias(aliases[i][0], aliases[i][1]);
}
