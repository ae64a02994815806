/* Comparisons: equals, notEquals, less, greater, lessOrEquals, greaterOrEquals → UInt8.
 *
 * Numbers compare mathematically across types (as ClickHouse's accurate comparison):
 * unsigned pairs in UInt64, signed pairs in Int64, UInt64 against signed in Int128, and
 * floats against integers in long double (64-bit mantissa, exact for every 64-bit int).
 * Decimals are rescaled to a common scale. Dates compare with dates in their common type
 * (a Date is its midnight in that type's time zone, else the session's; DateTime64s meet at the finer scale) and with constant strings, which are parsed once at
 * resolution ('2020-01-01', '2020-01-01 10:00:00', UTC). Strings and FixedStrings compare
 * bytewise (a FixedString as if the shorter side were zero-padded); arrays and tuples of equal types compare element by element. */
#include "column/datetime.h"
#include "func/func.h"
#include "func/supertype.h"
#include "column/text.h"
#include "func/scalar/num.h"
#include "func/scalar/wide_ops.h"

#include "base/err.h"

/* Not in base/err.h (shared header); same value as ClickHouse. */
#ifndef ERR_UNKNOWN_ELEMENT_OF_ENUM
#endif

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef enum { C_EQ, C_NE, C_LT, C_GT, C_LE, C_GE } cmpop;
/* K_U128: integers where one side is UInt128, loaded as Int128 bits and compared with the
 * signs of their types (cmp_u128). */
typedef enum { K_U64, K_I64, K_F64, K_LD, K_I128, K_U128, K_STR, K_GENERIC } kind;

typedef struct cmp_state {
    cmpop op;
    kind k;
    int128_t mul_a, mul_b;   /* decimal rescaling / Date→seconds */
    bool uns_a, uns_b;       /* K_U128: the sides' types are unsigned */
    double fdiv_a, fdiv_b;   /* decimal against float */
    bool has_lit[2];         /* a constant string parsed to a date value */
    int64_t lit[2];
    const tz_info *date_tz[2]; /* a Date side against a time: its days become midnights in
                                * this zone (the time's, else the session's) */
    const type *cast[2];     /* K_GENERIC: the side is first CAST to this type (IPv4/IPv6) */
} cmp_state;

/* IPv4/IPv6 against IPv4/IPv6, text or (IPv4) unsigned integers: both sides go to the IP
 * type, IPv4 to IPv6 when the other side is IPv6, and compare as addresses (ClickHouse's
 * rule; text that is no address fails when it is converted). */
static int ip_resolve(fn_call *c, cmp_state *st, const type *a, const type *b)
{
    const type *ta[2] = {a, b};
    const type *target = a->id == T_IPV6 || b->id == T_IPV6 ? type_simple(T_IPV6) : type_simple(T_IPV4);
    for (int k = 0; k < 2; k++) {
        const type *t = ta[k];
        if (t == target)
            continue;
        if (type_is_ip(t) || type_is_string(t) || (target->id == T_IPV4 && num_is_uint(t) && num_size(t) <= 8)) {
            st->cast[k] = target;
            continue;
        }
        if (target->id == T_IPV4 && (num_is_int(t) || num_is_float(t)))
            return err_set(ERR_NOT_IMPLEMENTED, "Conversion from IPv4 to %s is not supported",
                           num_is_float(t) ? "Float64" : "Int64");
        return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "Illegal types of arguments (`%s`, `%s`) of function `%s`",
                       a->name, b->name, c->name);
    }
    st->k = K_GENERIC;
    return 0;
}

static bool is_num(const type *t) { return num_is_int(t) || num_is_float(t); }
static bool is_enum(const type *t) { return t->id == T_ENUM8 || t->id == T_ENUM16; }

static int64_t days_from_civil(int64_t y, unsigned m, unsigned d)
{
    y -= m <= 2;
    int64_t era = (y >= 0 ? y : y - 399) / 400;
    unsigned yoe = (unsigned)(y - era * 400);
    unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + (int64_t)doe - 719468;
}

/* Parses 'YYYY-MM-DD[ hh:mm:ss]' into days and seconds since the epoch (UTC). */
static int parse_datetime_lit(const char *s, size_t n, const fn_call *c, int64_t *days, int64_t *secs)
{
    char b[64];
    if (n >= sizeof b)
        goto bad;
    memcpy(b, s, n);
    b[n] = 0;
    int y, mo, d, h = 0, mi = 0, se = 0, used = 0;
    if (sscanf(b, "%4d-%2d-%2d%n", &y, &mo, &d, &used) != 3)
        goto bad;
    if (b[used] && sscanf(b + used, " %2d:%2d:%2d%n", &h, &mi, &se, &used) == 3)
        ;
    else if (b[used])
        goto bad;
    if (mo < 1 || mo > 12 || d < 1 || d > 31)
        goto bad;
    *days = days_from_civil(y, (unsigned)mo, (unsigned)d);
    *secs = *days * 86400 + h * 3600 + mi * 60 + se;
    return 0;
bad:
    return err_set(ERR_CANNOT_PARSE_DATETIME, "Cannot parse string '%.*s' as %s: while converting '%.*s' to %s",
                   (int)n, s, "DateTime", (int)n, s, "DateTime");
}

static int cmp_resolve(fn_call *c, cmpop op)
{
    if (c->nargs != 2)
        return fn_bad_nargs(c, "2");
    const type *a = c->arg_types[0], *b = c->arg_types[1];
    if ((a->id == T_TUPLE && !a->nfields) || (b->id == T_TUPLE && !b->nfields))
        return err_set(ERR_NOT_IMPLEMENTED, "Comparison of zero-sized tuples is not implemented");
    cmp_state *st = xcalloc(1, sizeof *st);
    c->state = st;
    st->op = op;
    st->mul_a = st->mul_b = 1;
    c->ret = type_simple(T_UINT8);
    bool da = type_is_decimal(a), db = type_is_decimal(b);
    bool ta = type_is_date_or_time(a), tb = type_is_date_or_time(b);
    if (type_is_string(a) && type_is_string(b)) {
        st->k = K_STR;
    } else if (type_is_ip(a) || type_is_ip(b)) {
        return ip_resolve(c, st, a, b);
    } else if ((ta && type_is_string(b)) || (tb && type_is_string(a))) {
        int si = ta ? 1 : 0;
        const type *dt = ta ? a : b;
        size_t n;
        const char *s = fn_const_str(c, si, &n);
        if (!s)
            return fn_bad_types(c);
        st->has_lit[si] = true;
        st->k = K_I64;
        if (dt->id == T_DATE || dt->id == T_DATE32) {
            int64_t days = 0, secs = 0;
            if (parse_datetime_lit(s, n, c, &days, &secs) < 0)
                return -1;
            st->lit[si] = days;
        } else {
            /* The literal is a time in the column's time zone (or the session's), as
             * ClickHouse converts it to the column's type. */
            const char *zone = dt->tz ? dt->tz : c->env && c->env->timezone ? c->env->timezone : tz_default_name();
            const tz_info *tz = tz_get(zone);
            int64_t v;
            int rc = dt->id == T_DATETIME64 ? dt_parse_datetime64(s, n, dt->scale, tz, false, &v)
                                            : dt_parse_datetime(s, n, tz, false, &v);
            if (rc)
                return err_set(ERR_CANNOT_PARSE_DATETIME, "Cannot parse string '%.*s' as %s", (int)n, s, dt->name);
            st->lit[si] = v;
        }
    } else if (ta || tb) {
        if (ta && tb) {
            /* Both sides go to their common type, as ClickHouse compares: days against
             * days; otherwise ticks of the finer scale, a Date being its midnight in the
             * time's zone. */
            bool day_a = a->id == T_DATE || a->id == T_DATE32, day_b = b->id == T_DATE || b->id == T_DATE32;
            if (!day_a || !day_b) {
                int sa = a->id == T_DATETIME64 ? a->scale : 0, sb = b->id == T_DATETIME64 ? b->scale : 0;
                int s = sa > sb ? sa : sb;
                for (int i = sa; i < s; i++) st->mul_a *= 10;
                for (int i = sb; i < s; i++) st->mul_b *= 10;
                const type *both[2] = {a, b}, *super = type_supertype(2, both);
                if (!super)
                    return -1;
                for (int k = 0; k < 2; k++) {
                    if (!(k ? day_b : day_a))
                        continue;
                    const char *zone = super->tz ? super->tz : c->env && c->env->timezone ? c->env->timezone : NULL;
                    if (!(st->date_tz[k] = tz_get(zone)))
                        return -1;
                }
                st->k = K_I128;
                return 0;
            }
        } else if (!(ta ? num_is_int(b) : num_is_int(a))) {
            return fn_bad_types(c);
        }
        st->k = K_I64;
    } else if (da || db) {
        if ((!da && !is_num(a)) || (!db && !is_num(b)))
            return fn_bad_types(c);
        if ((!da && num_is_float(a)) || (!db && num_is_float(b))) {
            st->k = K_F64;
            st->fdiv_a = da ? (double)type_decimal_scale_multiplier(a) : 1;
            st->fdiv_b = db ? (double)type_decimal_scale_multiplier(b) : 1;
        } else {
            int sa = da ? a->scale : 0, sb = db ? b->scale : 0;
            int s = sa > sb ? sa : sb;
            for (int i = sa; i < s; i++) st->mul_a *= 10;
            for (int i = sb; i < s; i++) st->mul_b *= 10;
            st->k = K_I128;
        }
    } else if (is_num(a) && is_num(b)) {
        bool fa = num_is_float(a), fb = num_is_float(b);
        bool ua = num_is_uint(a), ub = num_is_uint(b);
        if (fa && fb)
            st->k = K_F64;
        else if (fa || fb)
            st->k = (num_size(a) == 16 || num_size(b) == 16) ? K_F64 : K_LD;
        else if (a->id == T_UINT128 || b->id == T_UINT128) {
            st->k = K_U128;
            st->uns_a = ua;
            st->uns_b = ub;
        } else if (num_size(a) == 16 || num_size(b) == 16)
            st->k = K_I128;
        else if (ua && ub)
            st->k = K_U64;
        else if ((a->id == T_UINT64 && !ub) || (b->id == T_UINT64 && !ua))
            st->k = K_I128;
        else
            st->k = K_I64;
    } else if (((is_num(a) && type_is_string(b)) || (is_num(b) && type_is_string(a))) &&
               num_size(is_num(a) ? a : b) <= 8) {
        /* A number against a constant string: the string is parsed as the number's type
         * once (number = '1'); text that does not parse is TYPE_MISMATCH. */
        int si = is_num(a) ? 1 : 0;
        const type *nt = is_num(a) ? a : b;
        size_t n;
        const char *s = fn_const_str(c, si, &n);
        if (!s)
            return fn_bad_types(c);
        column *tmp = col_new(nt);
        text_opts o;
        text_opts_default(&o);
        if (text_parse(tmp, s, n, &o) < 0) {
            col_free(tmp);
            return err_set(ERR_TYPE_MISMATCH, "Cannot convert string '%.*s' to type %s: while executing function %s",
                           (int)(n > 200 ? 200 : n), s, nt->name, c->name);
        }
        if (num_is_float(nt)) {
            double d = nt->id == T_FLOAT32 ? (double)*(const float *)tmp->data.p : *(const double *)tmp->data.p;
            memcpy(&st->lit[si], &d, sizeof d);
            st->k = K_F64;
        } else if (num_is_uint(nt)) {
            uint64_t u = col_get_u64(tmp, 0);
            memcpy(&st->lit[si], &u, sizeof u);
            st->k = K_U64;
        } else {
            st->lit[si] = col_get_i64(tmp, 0);
            st->k = K_I64;
        }
        st->has_lit[si] = true;
        col_free(tmp);
    } else if ((a->id == T_ENUM8 || a->id == T_ENUM16) && a == b) {
        st->k = K_I64;
    } else if ((is_enum(a) && num_is_int(b)) || (is_enum(b) && num_is_int(a))) {
        st->k = K_I64;
    } else if ((is_enum(a) && type_is_string(b)) || (is_enum(b) && type_is_string(a))) {
        /* Enum against a constant string: the string is looked up among the enum's
         * names once. An unknown name makes = false and != true (ClickHouse does the
         * same), and is an error for the ordering comparisons. */
        int si = is_enum(a) ? 1 : 0;
        const type *et = is_enum(a) ? a : b;
        size_t n;
        const char *s = fn_const_str(c, si, &n);
        if (!s)
            return fn_bad_types(c);
        int64_t v = INT64_C(1) << 20; /* matches no Enum16 value */
        for (int i = 0; i < et->nitems; i++)
            if (strlen(et->items[i].name) == n && memcmp(et->items[i].name, s, n) == 0)
                v = et->items[i].value;
        if (v == INT64_C(1) << 20 && op != C_EQ && op != C_NE)
            return err_set(ERR_UNKNOWN_ELEMENT_OF_ENUM, "Unknown element '%.*s' for enum: while converting '%.*s' to %s",
                           (int)n, s, (int)n, s, et->name);
        st->has_lit[si] = true;
        st->lit[si] = v;
        st->k = K_I64;
    } else if (a == b && (a->id == T_ARRAY || a->id == T_TUPLE || a->id == T_UUID)) {
        st->k = K_GENERIC;
    } else {
        return fn_bad_types(c);
    }
    return 0;
}

#define LOOPC(T, X, Y, OP)                                                              \
    do {                                                                                \
        const T *X_ = (const T *)(X), *Y_ = (const T *)(Y);                             \
        if (!ca && !cb)                                                                 \
            for (size_t i = 0; i < n; i++) r[i] = X_[i] OP Y_[i];                       \
        else if (!ca) {                                                                 \
            T y = Y_[0];                                                                \
            for (size_t i = 0; i < n; i++) r[i] = X_[i] OP y;                           \
        } else if (!cb) {                                                               \
            T x = X_[0];                                                                \
            for (size_t i = 0; i < n; i++) r[i] = x OP Y_[i];                           \
        } else {                                                                        \
            uint8_t v = X_[0] OP Y_[0];                                                 \
            memset(r, v, n);                                                            \
        }                                                                               \
    } while (0)

#define BYOP(T, X, Y)                                        \
    switch (st->op) {                                        \
    case C_EQ: LOOPC(T, X, Y, ==); break;                    \
    case C_NE: LOOPC(T, X, Y, !=); break;                    \
    case C_LT: LOOPC(T, X, Y, <); break;                     \
    case C_GT: LOOPC(T, X, Y, >); break;                     \
    case C_LE: LOOPC(T, X, Y, <=); break;                    \
    case C_GE: LOOPC(T, X, Y, >=); break;                    \
    }

/* x and y hold Int128 bits; an unsigned type's value above INT128_MAX reads negative. */
static inline int cmp_u128(int128_t x, bool x_unsigned, int128_t y, bool y_unsigned)
{
    if (x_unsigned && y_unsigned)
        return (unsigned __int128)x < (unsigned __int128)y ? -1 : x != y;
    if (x_unsigned && x < 0)
        return 1;
    if (y_unsigned && y < 0)
        return -1;
    return x < y ? -1 : x > y;
}

static inline bool op_result(cmpop op, int c)
{
    switch (op) {
    case C_EQ: return c == 0;
    case C_NE: return c != 0;
    case C_LT: return c < 0;
    case C_GT: return c > 0;
    case C_LE: return c <= 0;
    default: return c >= 0;
    }
}

/* ---- typed fast paths ----
 * Comparisons of two columns of one type, or of a column with a constant, run directly on
 * the native arrays (no conversion) with kernels generated per C type by DEF_CMP. A
 * constant of another integer type is first brought into the column's type: when it is
 * outside that type's range every row has the same answer, else the cast is exact. The
 * loops use NUM_FOR (fixed chunks) and restrict pointers so that gcc -O2 vectorizes them. */

/* mode 0: column OP column; mode 1: column OP constant c. */
#define CMP_CASES(OPV, OP)                                                                       \
    case OPV * 2 + 0: NUM_FOR(i, n, r[i] = x[i] OP y[i]); break;                                 \
    case OPV * 2 + 1: NUM_FOR(i, n, r[i] = x[i] OP c); break;
#define DEF_CMP(T, NAME)                                                                         \
    static void cmp_##NAME(cmpop op, int mode, const T *restrict x, const T *restrict y, T c,   \
                           uint8_t *restrict r, size_t n)                                        \
    {                                                                                            \
        switch (op * 2 + mode) {                                                                 \
        CMP_CASES(C_EQ, ==) CMP_CASES(C_NE, !=) CMP_CASES(C_LT, <)                               \
        CMP_CASES(C_GT, >) CMP_CASES(C_LE, <=) CMP_CASES(C_GE, >=)                               \
        }                                                                                        \
    }
DEF_CMP(uint8_t, u8)
DEF_CMP(uint16_t, u16)
DEF_CMP(uint32_t, u32)
DEF_CMP(uint64_t, u64)
DEF_CMP(int8_t, i8)
DEF_CMP(int16_t, i16)
DEF_CMP(int32_t, i32)
DEF_CMP(int64_t, i64)
DEF_CMP(float, f32)
DEF_CMP(double, f64)

/* c OP x as x OP' c. */
static cmpop mirror(cmpop op)
{
    switch (op) {
    case C_LT: return C_GT;
    case C_GT: return C_LT;
    case C_LE: return C_GE;
    case C_GE: return C_LE;
    default: return op;
    }
}

/* Runs the kernel for physical type t: x, y arrays (y unused in mode 1) and the constant
 * given as its bytes in t's representation. False when t has no kernel. */
static bool run_typed(cmpop op, int mode, const type *t, const void *x, const void *y, const void *cst, uint8_t *r,
                      size_t n)
{
#define RUN(T, NAME)                                                                             \
    {                                                                                            \
        T c_ = 0;                                                                                \
        if (mode)                                                                                \
            memcpy(&c_, cst, sizeof c_);                                                         \
        cmp_##NAME(op, mode, x, y, c_, r, n);                                                    \
        return true;                                                                             \
    }
    switch (t->id) {
    case T_UINT8: case T_BOOL: RUN(uint8_t, u8)
    case T_UINT16: case T_DATE: RUN(uint16_t, u16)
    case T_UINT32: case T_DATETIME: RUN(uint32_t, u32)
    case T_UINT64: RUN(uint64_t, u64)
    case T_INT8: RUN(int8_t, i8)
    case T_INT16: RUN(int16_t, i16)
    case T_INT32: case T_DATE32: RUN(int32_t, i32)
    case T_INT64: case T_DATETIME64: RUN(int64_t, i64)
    case T_FLOAT32: RUN(float, f32)
    case T_FLOAT64: RUN(double, f64)
    default: return false;
    }
#undef RUN
}

/* Same-type fast path: both columns (or a column and a constant) of physical type t. */
static bool same_type_fast(const cmp_state *st, const type *t, const column *a, const column *b, uint8_t *r, size_t n)
{
    bool ca = a->is_const, cb = b->is_const;
    if (ca && cb) {
        uint8_t v;
        if (!run_typed(st->op, 0, t, a->data.p, b->data.p, NULL, &v, 1))
            return false;
        memset(r, v, n);
        return true;
    }
    if (!ca && !cb)
        return run_typed(st->op, 0, t, a->data.p, b->data.p, NULL, r, n);
    if (cb)
        return run_typed(st->op, 1, t, a->data.p, NULL, b->data.p, r, n);
    return run_typed(mirror(st->op), 1, t, b->data.p, NULL, a->data.p, r, n);
}

static bool int64_fits(const type *t) { return num_is_int(t) && num_size(t) <= 8; }

/* An integer column against an integer constant of another type: the constant is cast to
 * the column's type when in its range, else the answer is the same for every row. */
static bool int_const_fast(const cmp_state *st, const type *ta, const type *tb, const column *a, const column *b,
                           uint8_t *r, size_t n)
{
    if (a->is_const == b->is_const || !int64_fits(ta) || !int64_fits(tb))
        return false;
    cmpop op = st->op;
    const column *col = a, *cst = b;
    const type *tc = ta, *tk = tb;
    if (a->is_const) {
        col = b, cst = a, tc = tb, tk = ta;
        op = mirror(op);
    }
    int128_t v;
    num_load_i128(tk, cst->data.p, 1, &v); /* exact for every integer type */
    unsigned bits = num_size(tc) * 8;
    int128_t lo = num_is_uint(tc) ? 0 : -((int128_t)1 << (bits - 1));
    int128_t hi = num_is_uint(tc) ? ((int128_t)1 << bits) - 1 : ((int128_t)1 << (bits - 1)) - 1;
    if (tc->id == T_BOOL)
        hi = 255;
    if (v < lo || v > hi) {
        /* every row is above (constant below the range) or below the constant */
        bool above = v < lo;
        bool res = op == C_NE || (above ? (op == C_GT || op == C_GE) : (op == C_LT || op == C_LE));
        memset(r, res, n);
        return true;
    }
    uint64_t bytes = (uint64_t)v; /* little-endian: the low bytes are the cast value */
    return run_typed(op, 1, type_phys(tc), col->data.p, NULL, &bytes, r, n);
}

static void *load(const column *col, const type *t, size_t rows, kind k)
{
    size_t n = num_rows(col, rows);
    size_t w = (k == K_I128 || k == K_U128 || k == K_LD) ? 16 : 8;
    void *p = mem_alloc((n ? n : 1) * w);
    switch (k) {
    case K_U64: num_load_u64(t, col->data.p, n, p); break;
    case K_I64: num_load_i64(t, col->data.p, n, p); break;
    case K_F64: num_load_f64(t, col->data.p, n, p); break;
    case K_LD: num_load_ld(t, col->data.p, n, p); break;
    case K_I128:
    case K_U128: num_load_i128(t, col->data.p, n, p); break;
    default: break;
    }
    return p;
}

static int cmp_exec(const fn_call *c, column **args, size_t n, column **out)
{
    const cmp_state *st = c->state;
    uint8_t *r;
    *out = num_new_u8(n, &r);
    const type *ta = c->arg_types[0], *tb = c->arg_types[1];
    bool ca = args[0]->is_const, cb = args[1]->is_const;
    if (st->k == K_STR) {
        /* A FixedString compares as if the shorter side were padded with zero bytes:
         * toFixedString('hi', 3) = 'hi' and = 'hi\0'. */
        bool pad = type_base(ta)->id == T_FIXEDSTRING || type_base(tb)->id == T_FIXEDSTRING;
        for (size_t i = 0; i < n; i++) {
            size_t la, lb;
            const char *sa = col_str(args[0], i, &la), *sb = col_str(args[1], i, &lb);
            int d;
            if (pad && la != lb) {
                size_t m = la < lb ? la : lb;
                d = memcmp(sa, sb, m);
                const char *rest = la > lb ? sa : sb;
                for (size_t j = m; d == 0 && j < (la > lb ? la : lb); j++)
                    if (rest[j])
                        d = la > lb ? 1 : -1;
            } else if (st->op == C_EQ || st->op == C_NE) {
                d = la != lb || memcmp(sa, sb, la) != 0;
            } else {
                d = memcmp(sa, sb, la < lb ? la : lb);
                if (d == 0)
                    d = (la > lb) - (la < lb);
            }
            r[i] = op_result(st->op, d);
        }
        return 0;
    }
    if (st->k == K_GENERIC) {
        column *conv[2] = {NULL, NULL};
        for (int k = 0; k < 2; k++)
            if (st->cast[k] && func_cast_column(args[k], st->cast[k], c->env, &conv[k]) < 0) {
                col_free(conv[0]);
                col_free(*out);
                return -1;
            }
        const column *x = conv[0] ? conv[0] : args[0], *y = conv[1] ? conv[1] : args[1];
        for (size_t i = 0; i < n; i++)
            r[i] = op_result(st->op, col_compare(x, col_idx(x, i), y, col_idx(y, i), 1));
        col_free(conv[0]);
        col_free(conv[1]);
        return 0;
    }
    if (st->mul_a == 1 && st->mul_b == 1 && !st->has_lit[0] && !st->has_lit[1] && !st->date_tz[0] && !st->date_tz[1]) {
        if (ta == tb && same_type_fast(st, type_phys(ta), args[0], args[1], r, n))
            return 0;
        if (st->k != K_GENERIC && st->k != K_STR && int_const_fast(st, ta, tb, args[0], args[1], r, n))
            return 0;
    }
    void *xa, *xb;
    int64_t la = st->lit[0], lb = st->lit[1];
    xa = st->has_lit[0] ? NULL : load(args[0], ta, n, st->k);
    xb = st->has_lit[1] ? NULL : load(args[1], tb, n, st->k);
    if (st->has_lit[0]) ca = true;
    if (st->has_lit[1]) cb = true;
    const void *pa = xa ? xa : (const void *)&la, *pb = xb ? xb : (const void *)&lb;
    size_t na = ca ? 1 : n, nb = cb ? 1 : n;
    switch (st->k) {
    case K_U64: BYOP(uint64_t, pa, pb); break;
    /* Scaling to the common scale wraps on overflow, as ClickHouse's does (a defined
     * wrap: the product is taken unsigned). */
    case K_I64:
        if (st->mul_a != 1)
            for (size_t i = 0; i < na; i++)
                ((int64_t *)xa)[i] = (int64_t)((uint64_t)((int64_t *)xa)[i] * (uint64_t)(int64_t)st->mul_a);
        if (st->mul_b != 1)
            for (size_t i = 0; i < nb; i++)
                ((int64_t *)xb)[i] = (int64_t)((uint64_t)((int64_t *)xb)[i] * (uint64_t)(int64_t)st->mul_b);
        BYOP(int64_t, pa, pb);
        break;
    case K_F64:
        if (type_is_decimal(ta)) for (size_t i = 0; i < na; i++) ((double *)xa)[i] /= st->fdiv_a;
        if (type_is_decimal(tb)) for (size_t i = 0; i < nb; i++) ((double *)xb)[i] /= st->fdiv_b;
        BYOP(double, pa, pb);
        break;
    case K_LD: BYOP(long double, pa, pb); break;
    case K_U128:
        for (size_t i = 0; i < n; i++)
            r[i] = op_result(st->op, cmp_u128(((const int128_t *)pa)[na == 1 ? 0 : i], st->uns_a,
                                              ((const int128_t *)pb)[nb == 1 ? 0 : i], st->uns_b));
        break;
    case K_I128:
        if (st->date_tz[0])
            for (size_t i = 0; i < na; i++)
                ((int128_t *)xa)[i] = tz_local_to_utc(st->date_tz[0], (int64_t)((int128_t *)xa)[i] * 86400);
        if (st->date_tz[1])
            for (size_t i = 0; i < nb; i++)
                ((int128_t *)xb)[i] = tz_local_to_utc(st->date_tz[1], (int64_t)((int128_t *)xb)[i] * 86400);
        if (st->mul_a != 1)
            for (size_t i = 0; i < na; i++)
                ((int128_t *)xa)[i] = (int128_t)((unsigned __int128)((int128_t *)xa)[i] * (unsigned __int128)st->mul_a);
        if (st->mul_b != 1)
            for (size_t i = 0; i < nb; i++)
                ((int128_t *)xb)[i] = (int128_t)((unsigned __int128)((int128_t *)xb)[i] * (unsigned __int128)st->mul_b);
        BYOP(int128_t, pa, pb);
        break;
    default: break;
    }
    mem_free(xa);
    mem_free(xb);
    return 0;
}

#define CMP(NAME, OP)                                \
    static int NAME##_resolve(fn_call *c)            \
    {                                                \
        if (c->nargs == 2 && (type_is_wide(c->arg_types[0]) || type_is_wide(c->arg_types[1]))) \
            return wide_cmp_resolve(c);              \
        if (cmp_resolve(c, OP) < 0)                  \
            return -1;                               \
        c->exec = cmp_exec;                          \
        return 0;                                    \
    }
CMP(equals, C_EQ)
CMP(not_equals, C_NE)
CMP(less, C_LT)
CMP(greater, C_GT)
CMP(less_eq, C_LE)
CMP(greater_eq, C_GE)

void func_register_compare(void)
{
    static const func_def defs[] = {
        {"equals", FN_CONST_ARGS_OK, equals_resolve, free, "a = b"},
        {"notEquals", FN_CONST_ARGS_OK, not_equals_resolve, free, "a != b"},
        {"less", FN_CONST_ARGS_OK, less_resolve, free, "a < b"},
        {"greater", FN_CONST_ARGS_OK, greater_resolve, free, "a > b"},
        {"lessOrEquals", FN_CONST_ARGS_OK, less_eq_resolve, free, "a <= b"},
        {"greaterOrEquals", FN_CONST_ARGS_OK, greater_eq_resolve, free, "a >= b"},
    };
    for (size_t i = 0; i < sizeof defs / sizeof defs[0]; i++)
        func_register(&defs[i]);
}
