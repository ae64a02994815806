/* Arithmetic: plus, minus, multiply, divide, intDiv, intDivOrZero, modulo, moduloOrZero,
 * negate, abs, gcd, lcm — with ClickHouse's result types (NumberTraits):
 *   plus/multiply  float → Float64; else Int/UInt (signed if either is) of the next size
 *                  up from the larger operand (capped at 64 bits unless 128-bit input)
 *   minus          as plus but always signed
 *   divide         Float64
 *   intDiv         integer of A's size, signed if either is
 *   modulo         float → Float64; else B's size (next size up if A is signed), A's sign
 *   negate         signed, next size up for unsigned; abs: unsigned of the same size
 * Date/DateTime ± integer keep the date type; Date − Date and DateTime − DateTime give
 * Int32. Decimals: ± keep the larger scale, × adds scales, ÷ keeps the dividend's scale.
 *
 * Integer kernels compute in 64 bits (or 128 for 128-bit/mixed-sign cases) and narrow to
 * the result type, which wraps in two's complement exactly like ClickHouse's native
 * arithmetic. Constant operands stay scalars (FN_CONST_ARGS_OK) and modulo/intDiv by a
 * constant use a precomputed multiplicative inverse instead of a hardware division. */
#include "func/func.h"
#include "func/scalar/num.h"
#include "func/scalar/wide_ops.h"

#include "base/err.h"

#include <math.h>
#include <stdlib.h>

typedef enum { OP_PLUS, OP_MINUS, OP_MUL, OP_DIV, OP_INTDIV, OP_INTDIV0, OP_MOD, OP_MOD0, OP_GCD, OP_LCM } binop;
typedef enum { K_U64, K_I64, K_F64, K_I128 } kind;

typedef struct arith_state {
    binop op;
    kind k;
    /* Decimal: multipliers applied to each operand before the operation (rescaling to a
     * common scale) and for division the dividend's extra multiplier. */
    int128_t mul_a, mul_b;
    bool dec;
    bool float_dec_a, float_dec_b; /* decimal operand used in a Float64 computation */
    double fdiv_a, fdiv_b;
    fn_call *dt64;      /* DateTime64 ± integer: addSeconds/subtractSeconds(dt, n) */
    /* modulo of a signed A by an unsigned B of 4 or 8 bytes, at least A's size: ClickHouse
     * computes A % B in C++, whose conversions make A unsigned of B's size first
     * (toInt32(-7) % toUInt32(2) is 1). The size, or 0. (ClickHouse's own path for an
     * Int32 column by a constant UInt32 keeps A's sign: docs/differences.md.) */
    unsigned mod_uw;
    bool dt64_swap;     /* n + dt: the arguments are swapped */
} arith_state;

static void arith_free(void *p)
{
    arith_state *st = p;
    if (st && st->dt64)
        fn_call_free(st->dt64);
    free(st);
}

/* DateTime64 ± integer adds whole seconds (as ClickHouse does), via addSeconds. */
static int dt64_exec(const fn_call *c, column **args, size_t n, column **out)
{
    const arith_state *st = c->state;
    column *a[2] = {args[st->dt64_swap], args[!st->dt64_swap]};
    return fn_exec(st->dt64, a, n, out);
}

static unsigned next_size(unsigned s) { return s < 8 ? s * 2 : s; }

static const type *int_result(bool is_signed, unsigned size) { return num_int_type(is_signed, size); }

static bool is_num(const type *t) { return num_is_int(t) || num_is_float(t); }

static int128_t pow10_128(int n)
{
    int128_t m = 1;
    while (n-- > 0)
        m *= 10;
    return m;
}

/* Decimal precision a plain integer occupies when mixed with a decimal. */
static int int_decimal_precision(const type *t)
{
    unsigned s = num_size(t);
    return s <= 2 ? 9 : s <= 8 ? 18 : 38;
}

static int dec_storage_precision(const type *t) { return t->id == T_DECIMAL32 ? 9 : t->id == T_DECIMAL64 ? 18 : 38; }

static int binop_resolve(fn_call *c, binop op)
{
    if (c->nargs != 2)
        return fn_bad_nargs(c, "2");
    const type *a = c->arg_types[0], *b = c->arg_types[1];
    arith_state *st = xcalloc(1, sizeof *st);
    st->op = op;
    c->state = st;
    if (type_is_wide(a) || type_is_wide(b))
        return wide_arith_resolve(c);
    bool da = type_is_decimal(a), db = type_is_decimal(b);
    bool ta = type_is_date_or_time(a), tb = type_is_date_or_time(b);
    const type *rt = NULL;
    kind k = K_I64;
    if ((ta && !tb && a->id == T_DATETIME64 && num_is_int(b) && (op == OP_PLUS || op == OP_MINUS)) ||
        (tb && !ta && b->id == T_DATETIME64 && num_is_int(a) && op == OP_PLUS)) {
        st->dt64_swap = tb;
        const type *at[2] = {tb ? b : a, tb ? a : b};
        if (func_resolve(op == OP_PLUS ? "addSeconds" : "subtractSeconds", 2, at, NULL, c->env, &st->dt64) < 0)
            return -1;
        c->ret = type_phys(st->dt64->result_type);
        c->exec = dt64_exec;
        return 0;
    }
    if (ta || tb) {
        if (ta && tb && op == OP_MINUS && a->id == b->id && a->id != T_DATETIME64) {
            rt = type_simple(T_INT32);
        } else if (ta && !tb && num_is_int(b) && (op == OP_PLUS || op == OP_MINUS) && a->id != T_DATETIME64) {
            rt = a;
        } else if (tb && !ta && num_is_int(a) && op == OP_PLUS && b->id != T_DATETIME64) {
            rt = b;
        } else {
            return fn_bad_types(c);
        }
        k = K_I64;
    } else if (da || db) {
        if ((da && !db && !is_num(b)) || (db && !da && !is_num(a)) || op == OP_INTDIV || op == OP_INTDIV0 ||
            op == OP_MOD || op == OP_MOD0 || op == OP_GCD || op == OP_LCM)
            return fn_bad_types(c);
        if ((!da && num_is_float(a)) || (!db && num_is_float(b))) {
            rt = type_simple(T_FLOAT64);
            k = K_F64;
            st->float_dec_a = da;
            st->float_dec_b = db;
            st->fdiv_a = da ? (double)pow10_128(a->scale) : 1;
            st->fdiv_b = db ? (double)pow10_128(b->scale) : 1;
        } else {
            int sa = da ? a->scale : 0, sb = db ? b->scale : 0;
            int pa = da ? dec_storage_precision(a) : int_decimal_precision(a);
            int pb = db ? dec_storage_precision(b) : int_decimal_precision(b);
            int p = pa > pb ? pa : pb, s;
            st->dec = true;
            k = K_I128;
            switch (op) {
            case OP_PLUS: case OP_MINUS:
                s = sa > sb ? sa : sb;
                st->mul_a = pow10_128(s - sa);
                st->mul_b = pow10_128(s - sb);
                break;
            case OP_MUL:
                s = sa + sb;
                st->mul_a = st->mul_b = 1;
                break;
            default: /* OP_DIV: result has the dividend's scale */
                s = sa;
                st->mul_a = pow10_128(sb);
                st->mul_b = 1;
                break;
            }
            if (s > p)
                return err_set(ERR_ARGUMENT_OUT_OF_BOUND, "Decimal result's scale is less than argument's one");
            rt = type_decimal(p, s);
        }
    } else if (is_num(a) && is_num(b)) {
        bool fl = num_is_float(a) || num_is_float(b);
        bool sa = !num_is_uint(a), sb = !num_is_uint(b);
        unsigned za = num_size(a), zb = num_size(b), zmax = za > zb ? za : zb;
        /* ClickHouse has no float ± × of a 128-bit integer (÷, %, intDiv it has) */
        if (fl && zmax == 16 && (op == OP_PLUS || op == OP_MINUS || op == OP_MUL))
            return fn_bad_types(c);
        switch (op) {
        case OP_PLUS: case OP_MUL:
            rt = fl ? type_simple(T_FLOAT64) : int_result(sa || sb, next_size(zmax));
            break;
        case OP_MINUS:
            rt = fl ? type_simple(T_FLOAT64) : int_result(true, next_size(zmax));
            break;
        case OP_DIV:
            rt = type_simple(T_FLOAT64);
            break;
        case OP_INTDIV: case OP_INTDIV0:
            rt = int_result(sa || sb, num_is_float(a) ? 8 : za);
            break;
        case OP_MOD: case OP_MOD0:
            rt = fl ? type_simple(T_FLOAT64) : int_result(sa, sa ? next_size(zb) : zb);
            break;
        case OP_GCD: case OP_LCM:
            if (fl)
                return fn_bad_types(c);
            rt = int_result(sa || sb, zmax);
            break;
        }
        if (fl || op == OP_DIV)
            k = K_F64;
        else if (za == 16 || zb == 16 || num_size(rt) == 16)
            k = K_I128;
        else if (op == OP_PLUS || op == OP_MINUS || op == OP_MUL)
            k = K_U64; /* wrapping arithmetic is sign-agnostic */
        else if (!sa && !sb)
            k = K_U64;
        else if ((a->id == T_UINT64 && sb) || (b->id == T_UINT64 && sa))
            k = K_I128;
        else
            k = K_I64;
        if ((op == OP_INTDIV || op == OP_INTDIV0) && fl)
            k = K_F64;
        if ((op == OP_MOD || op == OP_MOD0) && !fl && sa && !sb && zb >= 4 && zb <= 8 && zb >= za)
            st->mod_uw = zb;
    } else {
        return fn_bad_types(c);
    }
    st->k = k;
    c->ret = rt;
    return 0;
}

/* ---- division by a constant: Granlund–Montgomery round-up method ---- */

typedef struct udiv {
    uint64_t d, magic;
    int shift;   /* l - 1 */
    int pow2;    /* log2(d) when d is a power of two, else -1 */
} udiv;

static void udiv_init(udiv *u, uint64_t d)
{
    u->d = d;
    u->pow2 = (d & (d - 1)) == 0 ? __builtin_ctzll(d) : -1;
    if (u->pow2 >= 0)
        return;
    int l = 64 - __builtin_clzll(d - 1); /* ceil(log2 d), d >= 3 here */
    /* m = floor(2^64 * (2^l - d) / d) + 1, the low 64 bits of the 65-bit magic */
    uint128_t num = ((uint128_t)(((uint128_t)1 << l) - d)) << 64;
    u->magic = (uint64_t)(num / d) + 1;
    u->shift = l - 1;
}

static inline uint64_t udiv_q(const udiv *u, uint64_t a)
{
    if (u->pow2 >= 0)
        return a >> u->pow2;
    uint64_t t = (uint64_t)(((uint128_t)u->magic * a) >> 64);
    return (t + ((a - t) >> 1)) >> u->shift;
}

/* ---- kernels ---- */

static int div_zero(void) { return err_set(ERR_ILLEGAL_DIVISION, "Division by zero"); }

/* Loads an operand into an array of the compute type (1 value for a constant). */
static void *load(const column *col, const type *t, size_t rows, kind k, bool *cst)
{
    size_t n = num_rows(col, rows);
    *cst = col->is_const;
    size_t w = k == K_I128 ? 16 : 8;
    void *p = mem_alloc((n ? n : 1) * w);
    switch (k) {
    case K_U64: num_load_u64(t, col->data.p, n, p); break;
    case K_I64: num_load_i64(t, col->data.p, n, p); break;
    case K_F64: num_load_f64(t, col->data.p, n, p); break;
    case K_I128: num_load_i128(t, col->data.p, n, p); break;
    }
    return p;
}

#define IDX(cst, i) ((cst) ? 0 : (i))

/* Applies EXPR (with x, y) over rows with the three constness combinations so each loop
 * is simple enough to vectorize. */
#define LOOP3(T, EXPR)                                                              \
    do {                                                                            \
        const T *X_ = xa, *Y_ = xb;                                                   \
        T *R_ = r;                                                                   \
        if (!ca && !cb)                                                             \
            for (size_t i = 0; i < n; i++) { T x = X_[i], y = Y_[i]; R_[i] = (EXPR); } \
        else if (!ca) {                                                             \
            T y = Y_[0];                                                             \
            for (size_t i = 0; i < n; i++) { T x = X_[i]; R_[i] = (EXPR); }          \
        } else {                                                                    \
            T x = X_[0];                                                             \
            for (size_t i = 0; i < n; i++) { T y = Y_[IDX(cb, i)]; R_[i] = (EXPR); } \
        }                                                                           \
    } while (0)

static uint64_t gcd_u(uint64_t a, uint64_t b)
{
    while (b) {
        uint64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

static int128_t i128_abs(int128_t v) { return v < 0 ? -v : v; }

/* ---- typed fast paths ----
 * Integer + - * (column op column of one type, or column op constant) and intDiv/modulo
 * of a column by a positive constant run directly on the input array and write the
 * result column's storage: no widened copies. The kernels are generated by macros over
 * (column C type TA, result storage type TR). A signed result shares its storage with the
 * unsigned type of the same width, so TR is always unsigned: + - * compute in TR (via
 * `+ 0u`, which keeps sub-int types in unsigned arithmetic), and that wraps exactly like
 * the generic path's 64-bit computation narrowed to the result. Division by a constant
 * divides |a| with a multiply-shift: 32-bit lanes (which SSE2 can vectorize) whenever
 * all values of a chunk fit 32 bits, else the 64-bit udiv; the sign of a is reapplied,
 * which is C's (and ClickHouse's) truncating division. Anything else, and 128-bit,
 * decimal and date operands, takes the generic path below. */

/* On x86-64 the division kernels are also compiled for AVX2 (4 lanes instead of SSE2's
 * 2) and picked at load time by the CPU (an ifunc); elsewhere they are compiled once. */
#if defined(__x86_64__) && defined(__linux__) && !defined(SHALE_NO_CLONES)
#define NUM_SIMD_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define NUM_SIMD_CLONES
#endif

typedef struct udiv32 {
    uint32_t d, magic;
    int shift;
    bool ok; /* d in [2, 2^32) */
} udiv32;

static void udiv32_init(udiv32 *u, uint64_t d)
{
    u->ok = d >= 2 && d <= UINT32_MAX;
    if (!u->ok)
        return;
    u->d = (uint32_t)d;
    int l = 64 - __builtin_clzll(d - 1); /* ceil(log2 d) >= 1 */
    u->magic = (uint32_t)(((((uint64_t)1 << l) - d) << 32) / d + 1);
    u->shift = l - 1;
}

/* + - * kernel: mode 0 column op column, 1 column op constant, 2 constant op column. */
#define DEF_ADD(TA, TR)                                                                          \
    static void add_##TA##_##TR(binop op, int mode, const TA *restrict x, const TA *restrict y, \
                                TR c, TR *restrict r, size_t n)                                  \
    {                                                                                            \
        switch (op * 3 + mode) {                                                                 \
        case OP_PLUS * 3 + 0: NUM_FOR(i, n, r[i] = (TR)(((TR)x[i] + 0u) + ((TR)y[i] + 0u))); break; \
        case OP_PLUS * 3 + 1: case OP_PLUS * 3 + 2:                                              \
            NUM_FOR(i, n, r[i] = (TR)(((TR)x[i] + 0u) + (c + 0u))); break;                       \
        case OP_MINUS * 3 + 0: NUM_FOR(i, n, r[i] = (TR)(((TR)x[i] + 0u) - ((TR)y[i] + 0u))); break; \
        case OP_MINUS * 3 + 1: NUM_FOR(i, n, r[i] = (TR)(((TR)x[i] + 0u) - (c + 0u))); break;    \
        case OP_MINUS * 3 + 2: NUM_FOR(i, n, r[i] = (TR)((c + 0u) - ((TR)x[i] + 0u))); break;    \
        case OP_MUL * 3 + 0: NUM_FOR(i, n, r[i] = (TR)(((TR)x[i] + 0u) * ((TR)y[i] + 0u))); break; \
        default: NUM_FOR(i, n, r[i] = (TR)(((TR)x[i] + 0u) * (c + 0u))); break;                 \
        }                                                                                        \
    }

/* Division of a column by a constant d > 0: quotient (mod false) or remainder. SIGNED is
 * 0 or 1 (constant-folded), NEG(x) says whether x is negative, ABS(x) is |x| as uint64_t.
 * A negative row's result is negated as (v ^ s) - s with s = all ones, which vectorizes. */
#define DEF_DIV(TA, TR, SIGNED, NEG, ABS)                                                        \
    NUM_SIMD_CLONES static void div_##TA##_##TR(bool mod, const TA *restrict a, const udiv *u, const udiv32 *v, \
                                TR *restrict r, size_t n)                                        \
    {                                                                                            \
        uint64_t sg[NUM_CHUNK];                                                                  \
        uint32_t x32[NUM_CHUNK], q32[NUM_CHUNK];                                                 \
        TA tail[NUM_CHUNK];                                                                      \
        TR rtail[NUM_CHUNK];                                                                     \
        uint32_t m = v->magic, d32 = v->d;                                                       \
        int sh = v->shift;                                                                       \
        uint64_t d = u->d;                                                                       \
        for (size_t b = 0; b < n; b += NUM_CHUNK) {                                              \
            size_t k_n = n - b < NUM_CHUNK ? n - b : NUM_CHUNK;                                  \
            const TA *restrict p = a + b;                                                        \
            TR *restrict o = r + b;                                                              \
            if (k_n < NUM_CHUNK) { /* the last, partial chunk: via zero-padded buffers */       \
                memset(tail, 0, sizeof tail);                                                    \
                memcpy(tail, p, k_n * sizeof *p);                                                \
                p = tail;                                                                        \
                o = rtail;                                                                       \
            }                                                                                    \
            if (SIGNED)                                                                          \
                for (size_t k = 0; k < NUM_CHUNK; k++)                                           \
                    sg[k] = 0 - (uint64_t)NEG(p[k]);                                             \
            uint64_t hi = 0;                                                                     \
            if (sizeof(TA) == 8)                                                                 \
                for (size_t k = 0; k < NUM_CHUNK; k++)                                           \
                    hi |= ABS(p[k]) >> 32;                                                       \
            if (hi == 0 && v->ok) {                                                              \
                for (size_t k = 0; k < NUM_CHUNK; k++)                                           \
                    x32[k] = (uint32_t)ABS(p[k]);                                                \
                for (size_t k = 0; k < NUM_CHUNK; k++) {                                         \
                    uint32_t xk = x32[k], t = (uint32_t)(((uint64_t)xk * m) >> 32);              \
                    q32[k] = (t + ((xk - t) >> 1)) >> sh;                                        \
                }                                                                                \
                if (mod)                                                                         \
                    for (size_t k = 0; k < NUM_CHUNK; k++)                                       \
                        q32[k] = x32[k] - q32[k] * d32;                                          \
                if (SIGNED)                                                                      \
                    for (size_t k = 0; k < NUM_CHUNK; k++)                                       \
                        o[k] = (TR)(((uint64_t)q32[k] ^ sg[k]) - sg[k]);                         \
                else                                                                             \
                    for (size_t k = 0; k < NUM_CHUNK; k++)                                       \
                        o[k] = (TR)q32[k];                                                       \
            } else {                                                                             \
                for (size_t k = 0; k < NUM_CHUNK; k++) {                                         \
                    uint64_t xk = ABS(p[k]), q = udiv_q(u, xk);                                  \
                    q = mod ? xk - q * d : q;                                                    \
                    o[k] = (TR)(SIGNED ? (q ^ sg[k]) - sg[k] : q);                               \
                }                                                                                \
            }                                                                                    \
            if (k_n < NUM_CHUNK)                                                                 \
                memcpy(r + b, rtail, k_n * sizeof *r);                                           \
        }                                                                                        \
    }

#define UNEG(x) false
#define UABS(x) ((uint64_t)(x))
#define SNEG(x) ((x) < 0)
#define SABS(x) ((x) < 0 ? 0 - (uint64_t)(x) : (uint64_t)(x))

/* Instantiates DEF(TA, TR, NEG, ABS) for every column type and result width. */
#define FOR_TR(DEF, TA, S, NEG, ABS) DEF(TA, uint8_t, S, NEG, ABS) DEF(TA, uint16_t, S, NEG, ABS) \
    DEF(TA, uint32_t, S, NEG, ABS) DEF(TA, uint64_t, S, NEG, ABS)
#define FOR_TA_TR(DEF)                                                                           \
    FOR_TR(DEF, uint8_t, 0, UNEG, UABS) FOR_TR(DEF, uint16_t, 0, UNEG, UABS)                     \
    FOR_TR(DEF, uint32_t, 0, UNEG, UABS) FOR_TR(DEF, uint64_t, 0, UNEG, UABS)                    \
    FOR_TR(DEF, int8_t, 1, SNEG, SABS) FOR_TR(DEF, int16_t, 1, SNEG, SABS)                       \
    FOR_TR(DEF, int32_t, 1, SNEG, SABS) FOR_TR(DEF, int64_t, 1, SNEG, SABS)
#define DEF_ADD4(TA, TR, S, NEG, ABS) DEF_ADD(TA, TR)
FOR_TA_TR(DEF_ADD4)
FOR_TA_TR(DEF_DIV)

/* Dispatch: CALL(TA, TR) for the column's physical type id and the result width w. */
#define SW_TR(CALL, TA, w)                                                                       \
    switch (w) {                                                                                 \
    case 1: CALL(TA, uint8_t); break;                                                            \
    case 2: CALL(TA, uint16_t); break;                                                           \
    case 4: CALL(TA, uint32_t); break;                                                           \
    default: CALL(TA, uint64_t); break;                                                          \
    }
#define SW_TA_TR(CALL, id, w)                                                                    \
    switch (id) {                                                                                \
    case T_UINT8: case T_BOOL: SW_TR(CALL, uint8_t, w); break;                                   \
    case T_UINT16: SW_TR(CALL, uint16_t, w); break;                                              \
    case T_UINT32: SW_TR(CALL, uint32_t, w); break;                                              \
    case T_UINT64: SW_TR(CALL, uint64_t, w); break;                                              \
    case T_INT8: SW_TR(CALL, int8_t, w); break;                                                  \
    case T_INT16: SW_TR(CALL, int16_t, w); break;                                                \
    case T_INT32: SW_TR(CALL, int32_t, w); break;                                                \
    case T_INT64: SW_TR(CALL, int64_t, w); break;                                                \
    default: col_free(res); return 0; /* not reached: fast_int() checked the type */             \
    }

static bool fast_int(const type *t) { return num_is_int(t) && num_size(t) <= 8; }

/* The constant operand's value: as uint64 (two's complement for signed) and its sign. */
static uint64_t const_u64(const column *col, const type *t, bool *negative)
{
    uint64_t v;
    num_load_u64(t, col->data.p, 1, &v);
    *negative = !num_is_uint(t) && (int64_t)v < 0;
    return v;
}

/* Tries a typed kernel. Returns 1 when done (*out set), 0 to take the generic path, -1
 * on error. */
static int fast_exec(const fn_call *c, column **args, size_t n, column **out)
{
    const arith_state *st = c->state;
    const type *ta = c->arg_types[0], *tb = c->arg_types[1];
    if (st->dec || st->k == K_F64 || st->k == K_I128 || st->mod_uw || !fast_int(ta) || !fast_int(tb) ||
        !fast_int(c->ret))
        return 0;
    bool ca = args[0]->is_const, cb = args[1]->is_const;
    if (ca && cb)
        return 0;
    unsigned w = num_size(c->ret);
    binop op = st->op;
    column *res = NULL;
    if (op == OP_PLUS || op == OP_MINUS || op == OP_MUL) {
        if (!ca && !cb && type_phys(ta)->id != type_phys(tb)->id)
            return 0;
        int mode = ca ? 2 : cb ? 1 : 0;
        const column *colx = ca ? args[1] : args[0];
        const type *tx = ca ? tb : ta;
        bool ng;
        uint64_t cv = mode ? const_u64(mode == 1 ? args[1] : args[0], mode == 1 ? tb : ta, &ng) : 0;
        res = col_new(c->ret);
        void *r = buf_grow(&res->data, (n ? n : 1) * w);
        res->len = n;
        const void *x = colx->data.p, *y = mode ? x : args[1]->data.p;
#define CALL_ADD(TA, TR) add_##TA##_##TR(op, mode, x, y, (TR)cv, r, n)
        SW_TA_TR(CALL_ADD, type_phys(tx)->id, w)
#undef CALL_ADD
        *out = res;
        return 1;
    }
    if (op != OP_INTDIV && op != OP_INTDIV0 && op != OP_MOD && op != OP_MOD0)
        return 0;
    if (ca || !cb)
        return 0;
    bool ng;
    uint64_t d = const_u64(args[1], tb, &ng);
    if (ng)
        return 0;
    if (d == 0) {
        if (op == OP_INTDIV || op == OP_MOD)
            return div_zero();
        return 0;
    }
    if (d == 1)
        return 0;
    udiv u = {0};
    udiv32 v = {0};
    udiv_init(&u, d);
    udiv32_init(&v, d);
    bool mod = op == OP_MOD || op == OP_MOD0;
    res = col_new(c->ret);
    void *r = buf_grow(&res->data, (n ? n : 1) * w);
    res->len = n;
    const void *x = args[0]->data.p;
#define CALL_DIV(TA, TR) div_##TA##_##TR(mod, x, &u, &v, r, n)
    SW_TA_TR(CALL_DIV, type_phys(ta)->id, w)
#undef CALL_DIV
    *out = res;
    return 1;
}

static int binop_exec(const fn_call *c, column **args, size_t rows, column **out)
{
    int fr = fast_exec(c, args, rows, out);
    if (fr != 0)
        return fr < 0 ? -1 : 0;
    const arith_state *st = c->state;
    bool ca, cb;
    void *xa = load(args[0], c->arg_types[0], rows, st->k, &ca);
    void *xb = load(args[1], c->arg_types[1], rows, st->k, &cb);
    size_t n = rows;
    void *r = mem_alloc((n ? n : 1) * (st->k == K_I128 ? 16 : 8));
    int rc = 0;
    binop op = st->op;
    if (st->mod_uw) { /* A as unsigned of B's size (the compute type holds it) */
        size_t na = num_rows(args[0], rows);
        for (size_t i = 0; i < na; i++) {
            if (st->k == K_I128)
                ((int128_t *)xa)[i] = (int128_t)(uint64_t)((int128_t *)xa)[i];
            else
                ((int64_t *)xa)[i] = st->mod_uw == 4 ? (int64_t)(uint32_t)((int64_t *)xa)[i] : ((int64_t *)xa)[i];
        }
    }
    if (op == OP_GCD || op == OP_LCM) {
        /* ClickHouse divides by both operands: a 0 on either side (also in a NULL row,
         * whose value is the default) is ILLEGAL_DIVISION */
        size_t w = st->k == K_I128 ? 16 : 8;
        static const char zero[16];
        for (size_t i = 0; i < n && !rc; i++)
            if (!memcmp((const char *)xa + IDX(ca, i) * w, zero, w) || !memcmp((const char *)xb + IDX(cb, i) * w, zero, w))
                rc = div_zero();
        if (rc) {
            mem_free(xa);
            mem_free(xb);
            mem_free(r);
            return rc;
        }
    }
    switch (st->k) {
    case K_F64: {
        if (st->float_dec_a)
            for (size_t i = 0; i < num_rows(args[0], rows); i++)
                ((double *)xa)[i] /= st->fdiv_a;
        if (st->float_dec_b)
            for (size_t i = 0; i < num_rows(args[1], rows); i++)
                ((double *)xb)[i] /= st->fdiv_b;
        switch (op) {
        case OP_PLUS: LOOP3(double, x + y); break;
        case OP_MINUS: LOOP3(double, x - y); break;
        case OP_MUL: LOOP3(double, x * y); break;
        case OP_DIV: LOOP3(double, x / y); break;
        case OP_MOD: case OP_MOD0: LOOP3(double, (op == OP_MOD0 && y == 0) ? 0 : fmod(x, y)); break;
        case OP_INTDIV: case OP_INTDIV0: {
            const double *X = xa, *Y = xb;
            double *R = r;
            for (size_t i = 0; i < n; i++) {
                double x = X[IDX(ca, i)], y = Y[IDX(cb, i)];
                if (y == 0) {
                    if (op == OP_INTDIV0) { R[i] = 0; continue; }
                    rc = div_zero();
                    break;
                }
                double q = trunc(x / y);
                if (!isfinite(q) || q >= 9.2233720368547758e18 || q < -9.2233720368547758e18) {
                    rc = err_set(ERR_ILLEGAL_DIVISION, "Cannot perform integer division, because it will produce infinite or too large number");
                    break;
                }
                R[i] = q;
            }
            break;
        }
        default: break;
        }
        if (rc == 0) {
            if (op == OP_INTDIV || op == OP_INTDIV0) {
                /* integer result: convert through int64 */
                int64_t *tmp = mem_alloc((n ? n : 1) * 8);
                for (size_t i = 0; i < n; i++)
                    tmp[i] = (int64_t)((double *)r)[i];
                *out = num_store_i64(c->ret, tmp, n);
                mem_free(tmp);
            } else {
                *out = num_store_f64(c->ret, r, n);
            }
        }
        break;
    }
    case K_U64: {
        switch (op) {
        case OP_PLUS: LOOP3(uint64_t, x + y); break;
        case OP_MINUS: LOOP3(uint64_t, x - y); break;
        case OP_MUL: LOOP3(uint64_t, x * y); break;
        case OP_GCD: LOOP3(uint64_t, gcd_u(x, y)); break;
        case OP_LCM: LOOP3(uint64_t, (x && y) ? x / gcd_u(x, y) * y : 0); break;
        default: {
            bool mod = op == OP_MOD || op == OP_MOD0, orzero = op == OP_INTDIV0 || op == OP_MOD0;
            const uint64_t *X = xa, *Y = xb;
            uint64_t *R = r;
            if (cb && !ca) {
                uint64_t d = Y[0];
                if (d == 0) {
                    if (!orzero) { rc = div_zero(); break; }
                    memset(R, 0, n * 8);
                    break;
                }
                udiv u = {0};
                udiv_init(&u, d);
                if (mod)
                    for (size_t i = 0; i < n; i++) R[i] = X[i] - udiv_q(&u, X[i]) * d;
                else
                    for (size_t i = 0; i < n; i++) R[i] = udiv_q(&u, X[i]);
                break;
            }
            for (size_t i = 0; i < n; i++) {
                uint64_t x = X[IDX(ca, i)], y = Y[IDX(cb, i)];
                if (y == 0) {
                    if (!orzero) { rc = div_zero(); break; }
                    R[i] = 0;
                    continue;
                }
                R[i] = mod ? x % y : x / y;
            }
            break;
        }
        }
        if (rc == 0)
            *out = num_store_u64(c->ret, r, n);
        break;
    }
    case K_I64: {
        bool mod = op == OP_MOD || op == OP_MOD0, orzero = op == OP_INTDIV0 || op == OP_MOD0;
        const int64_t *X = xa, *Y = xb;
        int64_t *R = r;
        if (op == OP_PLUS || op == OP_MINUS) {
            /* Date/DateTime arithmetic */
            if (op == OP_PLUS) LOOP3(int64_t, x + y);
            else LOOP3(int64_t, x - y);
        } else if (op == OP_GCD || op == OP_LCM) {
            for (size_t i = 0; i < n; i++) {
                int64_t x = X[IDX(ca, i)], y = Y[IDX(cb, i)];
                uint64_t ux = x < 0 ? -(uint64_t)x : (uint64_t)x, uy = y < 0 ? -(uint64_t)y : (uint64_t)y;
                uint64_t g = gcd_u(ux, uy);
                R[i] = op == OP_GCD ? (int64_t)g : (ux && uy) ? (int64_t)(ux / g * uy) : 0;
            }
        } else if (cb && !ca && Y[0] > 0) {
            uint64_t d = (uint64_t)Y[0];
            udiv u = {0};
            udiv_init(&u, d);
            for (size_t i = 0; i < n; i++) {
                int64_t x = X[i];
                uint64_t ax = x < 0 ? -(uint64_t)x : (uint64_t)x;
                uint64_t q = udiv_q(&u, ax);
                uint64_t v = mod ? ax - q * d : q;
                R[i] = (int64_t)(x < 0 ? 0 - v : v); /* wraps for INT64_MIN / 1, no UB */
            }
        } else {
            for (size_t i = 0; i < n; i++) {
                int64_t x = X[IDX(ca, i)], y = Y[IDX(cb, i)];
                if (y == 0) {
                    if (!orzero) { rc = div_zero(); break; }
                    R[i] = 0;
                    continue;
                }
                if (y == -1) {
                    if (x == INT64_MIN && !mod && !orzero) {
                        rc = err_set(ERR_ILLEGAL_DIVISION, "Division of minimal signed number by minus one");
                        break;
                    }
                    R[i] = mod ? 0 : (int64_t)(0 - (uint64_t)x);
                    continue;
                }
                R[i] = mod ? x % y : x / y;
            }
        }
        if (rc == 0)
            *out = num_store_i64(c->ret, r, n);
        break;
    }
    case K_I128: {
        const int128_t *X = xa, *Y = xb;
        int128_t *R = r;
        bool orzero = op == OP_INTDIV0 || op == OP_MOD0;
        for (size_t i = 0; i < n; i++) {
            int128_t x = X[IDX(ca, i)], y = Y[IDX(cb, i)];
            if (st->dec) {
                x *= st->mul_a;
                y *= st->mul_b;
            }
            switch (op) {
            case OP_PLUS: R[i] = (int128_t)((uint128_t)x + (uint128_t)y); break;
            case OP_MINUS: R[i] = (int128_t)((uint128_t)x - (uint128_t)y); break;
            case OP_MUL: R[i] = (int128_t)((uint128_t)x * (uint128_t)y); break;
            case OP_GCD: case OP_LCM: {
                int128_t g = i128_abs(x), h = i128_abs(y);
                while (h) { int128_t t = g % h; g = h; h = t; }
                R[i] = op == OP_GCD ? g : (x && y) ? i128_abs(x) / g * i128_abs(y) : 0;
                break;
            }
            default:
                if (y == 0) {
                    if (!orzero) { rc = div_zero(); goto done128; }
                    R[i] = 0;
                    break;
                }
                R[i] = (op == OP_MOD || op == OP_MOD0) ? x % y : x / y;
                break;
            }
        }
    done128:
        if (rc == 0)
            *out = num_store_i128(c->ret, r, n);
        break;
    }
    }
    mem_free(xa);
    mem_free(xb);
    mem_free(r);
    return rc;
}

#define BINOP(NAME, OP)                                     \
    static int NAME##_resolve(fn_call *c)                   \
    {                                                       \
        if (binop_resolve(c, OP) < 0)                       \
            return -1;                                      \
        if (!c->exec) /* DateTime64 ± n set its own */      \
            c->exec = binop_exec;                           \
        return 0;                                           \
    }
BINOP(plus, OP_PLUS)
BINOP(minus, OP_MINUS)
BINOP(multiply, OP_MUL)
BINOP(divide, OP_DIV)
BINOP(intdiv, OP_INTDIV)
BINOP(intdiv0, OP_INTDIV0)
BINOP(modulo, OP_MOD)
BINOP(modulo0, OP_MOD0)
BINOP(gcd, OP_GCD)
BINOP(lcm, OP_LCM)

/* ---- unary: negate, abs ---- */

static int unary_exec(const fn_call *c, column **args, size_t rows, column **out)
{
    bool neg = c->state != NULL;
    const type *t = c->arg_types[0];
    size_t n = rows;
    if (num_is_float(t) || type_is_decimal(t)) {
        if (type_is_decimal(t) || num_size(t) == 16) {
            int128_t *v = mem_alloc((n ? n : 1) * 16);
            num_load_i128(t, args[0]->data.p, n, v);
            for (size_t i = 0; i < n; i++)
                v[i] = neg ? (int128_t)(0 - (uint128_t)v[i]) : i128_abs(v[i]);
            *out = num_store_i128(c->ret, v, n);
            mem_free(v);
            return 0;
        }
        double *v = mem_alloc((n ? n : 1) * 8);
        num_load_f64(t, args[0]->data.p, n, v);
        for (size_t i = 0; i < n; i++)
            v[i] = neg ? -v[i] : fabs(v[i]);
        *out = num_store_f64(c->ret, v, n);
        mem_free(v);
        return 0;
    }
    bool uns = num_is_uint(t); /* abs of an unsigned value is the value */
    if (num_size(t) == 16) {
        int128_t *v = mem_alloc((n ? n : 1) * 16);
        num_load_i128(t, args[0]->data.p, n, v);
        for (size_t i = 0; i < n; i++)
            v[i] = neg ? (int128_t)(0 - (uint128_t)v[i]) : uns ? v[i] : i128_abs(v[i]);
        *out = num_store_i128(c->ret, v, n);
        mem_free(v);
        return 0;
    }
    int64_t *v = mem_alloc((n ? n : 1) * 8);
    if (num_is_uint(t)) {
        num_load_u64(t, args[0]->data.p, n, (uint64_t *)v);
    } else {
        num_load_i64(t, args[0]->data.p, n, v);
    }
    for (size_t i = 0; i < n; i++)
        v[i] = neg ? (int64_t)(0 - (uint64_t)v[i]) : (v[i] < 0 && !uns ? (int64_t)(0 - (uint64_t)v[i]) : v[i]);
    *out = num_store_i64(c->ret, v, n);
    mem_free(v);
    return 0;
}

static int unary_resolve(fn_call *c, bool neg)
{
    if (c->nargs != 1)
        return fn_bad_nargs(c, "1");
    const type *t = c->arg_types[0];
    if (type_is_wide(t))
        return wide_unary_resolve(c);
    if (type_is_decimal(t) || num_is_float(t))
        c->ret = t;
    else if (num_is_int(t))
        c->ret = neg ? int_result(true, num_is_uint(t) ? next_size(num_size(t)) : num_size(t))
                     : int_result(false, num_size(t));
    else
        return fn_bad_types(c);
    c->state = neg ? (void *)1 : NULL;
    c->exec = unary_exec;
    return 0;
}

static int negate_resolve(fn_call *c) { return unary_resolve(c, true); }
static int abs_resolve(fn_call *c) { return unary_resolve(c, false); }

static void free_state(void *p)
{
    if (p != (void *)1)
        free(p);
}

void func_register_arith(void)
{
    static const func_def defs[] = {
        {"plus", FN_CONST_ARGS_OK, plus_resolve, arith_free, "a + b"},
        {"minus", FN_CONST_ARGS_OK, minus_resolve, arith_free, "a - b"},
        {"multiply", FN_CONST_ARGS_OK, multiply_resolve, free, "a * b"},
        {"divide", FN_CONST_ARGS_OK | FN_NULL_DIVISOR_ONE, divide_resolve, free, "a / b (floating point)"},
        {"intDiv", FN_CONST_ARGS_OK | FN_NULL_DIVISOR_ONE, intdiv_resolve, free, "integer division, rounding toward zero"},
        {"intDivOrZero", FN_CONST_ARGS_OK, intdiv0_resolve, free, "intDiv, 0 when dividing by zero"},
        {"modulo", FN_CONST_ARGS_OK | FN_NULL_DIVISOR_ONE, modulo_resolve, free, "remainder of a / b"},
        /* MOD is modulo in any case (modulo itself is case-sensitive), as in ClickHouse */
        {"mod", FN_CONST_ARGS_OK | FN_NULL_DIVISOR_ONE | FN_CASE_INSENSITIVE, modulo_resolve, free, "remainder of a / b (modulo)"},
        {"moduloOrZero", FN_CONST_ARGS_OK, modulo0_resolve, free, "modulo, 0 when dividing by zero"},
        {"gcd", FN_CONST_ARGS_OK, gcd_resolve, free, "greatest common divisor"},
        {"lcm", FN_CONST_ARGS_OK, lcm_resolve, free, "least common multiple"},
        {"negate", 0, negate_resolve, free_state, "-a"},
        {"abs", FN_CASE_INSENSITIVE, abs_resolve, free_state, "absolute value"},
    };
    for (size_t i = 0; i < sizeof defs / sizeof defs[0]; i++)
        func_register(&defs[i]);
}
