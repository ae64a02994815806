/* Operations over Int256, UInt256 and Decimal256: see wide_ops.h.
 *
 * Result types, as ClickHouse 26.7 gives them (checked with chdb):
 *   plus, multiply     Int256 if either operand is signed, else UInt256
 *   minus              Int256
 *   divide             Float64
 *   intDiv             A's size (256 when A is wide), signed if either is
 *   modulo             B's size, one step up when A is signed (capped at 256), A's sign;
 *                      the value is C++'s: both operands go to their common type first,
 *                      which is the wider one (unsigned when both are 256 bits and either
 *                      is unsigned), so toInt8(-7) % toUInt256(3) is 0
 *   floats             only divide and modulo (Float64); ± × are ILLEGAL_TYPE_OF_ARGUMENT
 *   Decimal256         ± keep the larger scale, × adds the scales, ÷ keeps the dividend's
 *                      (a smaller one than the divisor's is an error); precision 76
 * All integer and decimal results wrap around modulo 2^256, as ClickHouse's do. */
#include "func/scalar/wide_ops.h"

#include "base/err.h"
#include "base/mem.h"
#include "func/scalar/num.h"

#include <math.h>
#include <string.h>

static bool is_uns(const type *t)
{
    return (t->id >= T_UINT8 && t->id <= T_UINT128) || t->id == T_UINT256 || t->id == T_BOOL;
}
static bool is_int(const type *t) { return num_is_int(t) || t->id == T_UINT256 || t->id == T_INT256; }
static bool is_dec(const type *t) { return type_is_decimal(t) || t->id == T_DECIMAL256; }
static bool is_flt(const type *t) { return t->id == T_FLOAT32 || t->id == T_FLOAT64; }
static unsigned size_of(const type *t) { return t->id == T_BOOL ? 1 : t->width; }
static int scale_of(const type *t) { return is_dec(t) ? t->scale : 0; }

static const type *int_type(bool sign, unsigned size)
{
    if (size >= 32)
        return type_simple(sign ? T_INT256 : T_UINT256);
    return num_int_type(sign, size);
}

/* A value with the sign its type gives it. */
typedef struct wv {
    i256 v;
    bool neg;
} wv;

static wv load(const column *c, const type *t, size_t i)
{
    wv r = {col_get_i256(c, i), false};
    r.neg = !is_uns(t) && i256_is_neg(r.v);
    return r;
}

/* All n values of c as i256 (a constant repeated): the kernels below run over these
 * arrays. The caller frees the result (mem_free). */
static i256 *load_all(const column *c, size_t n)
{
    i256 *v = mem_alloc((n ? n : 1) * sizeof *v);
    col_get_i256_n(c, n, v);
    return v;
}

static double load_f(const column *c, const type *t, size_t i)
{
    if (is_flt(t))
        return col_get_f64(c, i);
    wv x = load(c, t, i);
    double d = x.neg ? i256_to_double_s(x.v) : i256_to_double_u(x.v);
    if (is_dec(t))
        d /= pow(10, t->scale);
    return d;
}

static i256 pow10w(int n)
{
    i256 m = i256_from_u64(1);
    bool over = false;
    while (n-- > 0)
        m = i256_mul_small_add(m, 10, 0, &over);
    return m;
}

static column *result(const type *rt, size_t n)
{
    column *r = col_new(rt);
    buf_grow(&r->data, n * rt->width);
    memset(r->data.p, 0, n * rt->width);
    r->len = n;
    return r;
}

static void put(column *r, size_t i, i256 v) { memcpy(r->data.p + i * r->type->width, &v, r->type->width); }

static const type *base(const type *t) { return type_base(t); }

/* ---- arithmetic ---- */

typedef enum { W_PLUS, W_MINUS, W_MUL, W_DIV, W_INTDIV, W_INTDIV0, W_MOD, W_MOD0 } wop;

/* The index of name in names[0..n), or -1. */
static int name_index(const char *name, const char *const *names, int n)
{
    for (int i = 0; i < n; i++)
        if (strcmp(name, names[i]) == 0)
            return i;
    return -1;
}

static int op_of(const char *name)
{
    static const char *const names[] = {"plus", "minus", "multiply", "divide", "intDiv", "intDivOrZero", "modulo",
                                        "moduloOrZero"};
    return name_index(name, names, 8);
}

static int arith_exec(const fn_call *c, column **args, size_t n, column **out)
{
    wop op = (wop)op_of(c->def->name);
    const type *ta = base(c->arg_types[0]), *tb = base(c->arg_types[1]);
    const type *rt = type_base(c->ret);
    column *r = result(rt, n);
    if (rt->id == T_FLOAT64) {
        for (size_t i = 0; i < n; i++) {
            double a = load_f(args[0], ta, i), b = load_f(args[1], tb, i), v;
            v = op == W_DIV ? a / b : fmod(a, b);
            memcpy(r->data.p + i * 8, &v, 8);
        }
        *out = r;
        return 0;
    }
    bool dec = is_dec(rt);
    int sa = scale_of(ta), sb = scale_of(tb), s = scale_of(rt);
    /* ± bring both to the result's scale; ÷ scales the dividend up by the divisor's */
    i256 ma = pow10w(op == W_DIV ? sb + (is_dec(ta) ? 0 : sb) : (op == W_MUL || !dec) ? 0 : s - sa);
    i256 mb = pow10w((op == W_MUL || op == W_DIV || !dec) ? 0 : s - sb);
    /* intDiv and modulo compute in C++'s common type of the operands */
    bool common_signed;
    if (size_of(ta) == 32 && size_of(tb) == 32)
        common_signed = !is_uns(ta) && !is_uns(tb);
    else
        common_signed = !is_uns(size_of(ta) >= size_of(tb) ? ta : tb);
    if (op == W_INTDIV || op == W_INTDIV0)
        common_signed = !is_uns(rt);
    bool scale_a = !i256_eq(ma, i256_from_u64(1)), scale_b = !i256_eq(mb, i256_from_u64(1));
    i256 *A = load_all(args[0], n), *B = load_all(args[1], n);
    for (size_t i = 0; i < n; i++) {
        i256 a = A[i], b = B[i], v, q, m;
        if (scale_a && op != W_DIV)
            a = i256_mul(a, ma);
        if (scale_b)
            b = i256_mul(b, mb);
        switch (op) {
        case W_PLUS: v = i256_add(a, b); break;
        case W_MINUS: v = i256_sub(a, b); break;
        case W_MUL: v = i256_mul(a, b); break;
        case W_DIV: /* decimal ÷ */
        case W_INTDIV: case W_INTDIV0: case W_MOD: case W_MOD0:
            if (i256_is_zero(b)) {
                if (op == W_INTDIV0 || op == W_MOD0) {
                    v = i256_from_u64(0);
                    break;
                }
                col_free(r);
                mem_free(A);
                mem_free(B);
                return err_set(ERR_ILLEGAL_DIVISION, "Division by zero");
            }
            if (op == W_DIV && scale_a)
                a = i256_mul(a, ma);
            if (common_signed || dec)
                i256_divmod_s(a, b, &q, &m);
            else
                i256_divmod_u(a, b, &q, &m);
            v = (op == W_MOD || op == W_MOD0) ? m : q;
            break;
        }
        put(r, i, v);
    }
    mem_free(A);
    mem_free(B);
    *out = r;
    return 0;
}

int wide_arith_resolve(fn_call *c)
{
    if (c->nargs != 2)
        return fn_bad_nargs(c, "2");
    int op = op_of(c->def->name);
    const type *a = base(c->arg_types[0]), *b = base(c->arg_types[1]);
    bool num_a = is_int(a) || is_flt(a) || is_dec(a), num_b = is_int(b) || is_flt(b) || is_dec(b);
    if (op < 0 || !num_a || !num_b)
        return fn_bad_types(c);
    const type *rt;
    if (is_dec(a) || is_dec(b)) {
        if (is_flt(a) || is_flt(b) || (op != W_PLUS && op != W_MINUS && op != W_MUL && op != W_DIV))
            return fn_bad_types(c);
        /* a wide integer with a narrower decimal gives that decimal's precision in
         * ClickHouse, computed in its storage type: not done here */
        if ((!is_dec(a) && b->id != T_DECIMAL256) || (!is_dec(b) && a->id != T_DECIMAL256))
            return err_set(ERR_NOT_IMPLEMENTED, "Arithmetic of %s and %s is not implemented", a->name, b->name);
        /* an integer dividend takes the divisor's scale */
        int sa = is_dec(a) ? scale_of(a) : scale_of(b), sb = scale_of(b), s;
        if (op == W_DIV && sa < sb)
            return err_set(ERR_ARGUMENT_OUT_OF_BOUND, "Decimal result's scale is less than argument's one");
        s = op == W_MUL ? sa + sb : op == W_DIV ? sa : sa > sb ? sa : sb;
        if (s > 76)
            return err_set(ERR_ARGUMENT_OUT_OF_BOUND, "Decimal result's scale is less than argument's one");
        rt = type_decimal(76, s);
    } else if (is_flt(a) || is_flt(b)) {
        if (op != W_DIV && op != W_MOD && op != W_MOD0)
            return fn_bad_types(c);
        rt = type_simple(T_FLOAT64);
    } else {
        bool sign = !is_uns(a) || !is_uns(b);
        switch (op) {
        case W_PLUS: case W_MUL: rt = int_type(sign, 32); break;
        case W_MINUS: rt = int_type(true, 32); break;
        case W_DIV: rt = type_simple(T_FLOAT64); break;
        case W_INTDIV: case W_INTDIV0: rt = int_type(sign, size_of(a)); break;
        default: {
            unsigned sz = size_of(b);
            if (!is_uns(a))
                sz = sz < 32 ? sz * 2 : 32;
            rt = int_type(!is_uns(a), sz);
            break;
        }
        }
    }
    c->ret = rt;
    c->exec = arith_exec;
    return 0;
}

/* ---- comparison ---- */

typedef enum { CW_EQ, CW_NE, CW_LT, CW_GT, CW_LE, CW_GE } cwop;

static int cmp_op_of(const char *name)
{
    static const char *const names[] = {"equals", "notEquals", "less", "greater", "lessOrEquals", "greaterOrEquals"};
    return name_index(name, names, 6);
}

static int cmp_exec(const fn_call *c, column **args, size_t n, column **out)
{
    cwop op = (cwop)cmp_op_of(c->def->name);
    const type *ta = base(c->arg_types[0]), *tb = base(c->arg_types[1]);
    bool flt = is_flt(ta) || is_flt(tb);
    int sa = scale_of(ta), sb = scale_of(tb), s = sa > sb ? sa : sb;
    i256 ma = pow10w(s - sa), mb = pow10w(s - sb);
    column *r = result(type_simple(T_UINT8), n);
    bool scale_a = sa != s, scale_b = sb != s, sign_a = !is_uns(ta), sign_b = !is_uns(tb);
    i256 *A = flt ? NULL : load_all(args[0], n), *B = flt ? NULL : load_all(args[1], n);
    for (size_t i = 0; i < n; i++) {
        int k;
        if (flt) {
            double a = load_f(args[0], ta, i), b = load_f(args[1], tb, i);
            k = a < b ? -1 : a > b ? 1 : a == b ? 0 : 2; /* 2: NaN, unordered */
        } else {
            i256 a = scale_a ? i256_mul(A[i], ma) : A[i], b = scale_b ? i256_mul(B[i], mb) : B[i];
            bool na = sign_a && i256_is_neg(A[i]), nb = sign_b && i256_is_neg(B[i]);
            k = na != nb ? (na ? -1 : 1) : i256_cmp_u(a, b);
        }
        bool v;
        switch (op) {
        case CW_EQ: v = k == 0; break;
        case CW_NE: v = k != 0; break;
        case CW_LT: v = k == -1; break;
        case CW_GT: v = k == 1; break;
        case CW_LE: v = k == -1 || k == 0; break;
        default: v = k == 1 || k == 0; break;
        }
        r->data.p[i] = v;
    }
    mem_free(A);
    mem_free(B);
    *out = r;
    return 0;
}

int wide_cmp_resolve(fn_call *c)
{
    if (c->nargs != 2)
        return fn_bad_nargs(c, "2");
    const type *a = base(c->arg_types[0]), *b = base(c->arg_types[1]);
    bool num_a = is_int(a) || is_flt(a) || is_dec(a), num_b = is_int(b) || is_flt(b) || is_dec(b);
    if (cmp_op_of(c->def->name) < 0 || !num_a || !num_b)
        return fn_bad_types(c);
    c->ret = type_simple(T_UINT8);
    c->exec = cmp_exec;
    return 0;
}

/* ---- negate, abs, bit operations ---- */

static int unary_exec(const fn_call *c, column **args, size_t n, column **out)
{
    const char *nm = c->def->name;
    const type *ta = base(c->arg_types[0]);
    column *r = result(type_base(c->ret), n);
    for (size_t i = 0; i < n; i++) {
        wv a = load(args[0], ta, i);
        i256 v = strcmp(nm, "negate") == 0 ? i256_neg(a.v) : strcmp(nm, "bitNot") == 0 ? i256_not(a.v)
                 : a.neg                   ? i256_neg(a.v) : a.v;
        put(r, i, v);
    }
    *out = r;
    return 0;
}

int wide_unary_resolve(fn_call *c)
{
    if (c->nargs != 1)
        return fn_bad_nargs(c, "1");
    const type *a = base(c->arg_types[0]);
    const char *nm = c->def->name;
    if (strcmp(nm, "negate") == 0)
        c->ret = a->id == T_UINT256 ? type_simple(T_INT256) : a;
    else if (strcmp(nm, "abs") == 0)
        c->ret = a->id == T_INT256 ? type_simple(T_UINT256) : a;
    else if (strcmp(nm, "bitNot") == 0 && a->id != T_DECIMAL256)
        c->ret = a;
    else
        return fn_bad_types(c);
    c->exec = unary_exec;
    return 0;
}

static int bit_exec(const fn_call *c, column **args, size_t n, column **out)
{
    const char *nm = c->def->name;
    const type *ta = base(c->arg_types[0]), *tb = base(c->arg_types[1]);
    bool shl = strcmp(nm, "bitShiftLeft") == 0, shr = strcmp(nm, "bitShiftRight") == 0;
    column *r = result(type_base(c->ret), n);
    for (size_t i = 0; i < n; i++) {
        wv a = load(args[0], ta, i), b = load(args[1], tb, i);
        i256 v;
        if (shl || shr) {
            if (b.neg) {
                col_free(r);
                return err_set(ERR_ARGUMENT_OUT_OF_BOUND, "The number of shift positions needs to be a non-negative value");
            }
            /* 256 or more positions clear every bit, as for the narrower types */
            unsigned k = i256_cmp_u(b.v, i256_from_u64(256)) >= 0 ? 256 : (unsigned)b.v.w[0];
            v = shl ? i256_shl(a.v, k) : k >= 256 ? i256_from_u64(0) : ta->id == T_INT256 ? i256_shr_s(a.v, k) : i256_shr_u(a.v, k);
        } else {
            v = nm[3] == 'A' ? i256_and(a.v, b.v) : nm[3] == 'O' ? i256_or(a.v, b.v) : i256_xor(a.v, b.v);
        }
        put(r, i, v);
    }
    *out = r;
    return 0;
}

int wide_bit_resolve(fn_call *c)
{
    if (c->nargs != 2)
        return fn_bad_nargs(c, "2");
    const type *a = base(c->arg_types[0]), *b = base(c->arg_types[1]);
    const char *nm = c->def->name;
    if (!is_int(a) || !is_int(b))
        return fn_bad_types(c);
    if (strncmp(nm, "bitShift", 8) == 0) {
        if (!type_is_wide(a))
            return fn_bad_types(c);
        c->ret = a;
    } else if (strcmp(nm, "bitAnd") == 0 || strcmp(nm, "bitOr") == 0 || strcmp(nm, "bitXor") == 0) {
        c->ret = int_type(!is_uns(a) || !is_uns(b), 32);
    } else {
        return fn_bad_types(c);
    }
    c->exec = bit_exec;
    return 0;
}
