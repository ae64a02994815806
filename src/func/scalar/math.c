/* Math functions: round/roundBankers/floor/ceil/trunc (x[, N]), sqrt, cbrt, exp, exp2,
 * exp10, log/ln, log2, log10, log1p, sin, cos, tan, asin, acos, atan, the hyperbolic ones and their
 * inverses, erf, erfc, sigmoid, degrees, radians, pow/power, atan2, hypot, sign, factorial, pi(), e().
 *
 * Types as ClickHouse: rounding keeps the argument type (floats stay Float32/Float64,
 * integers keep their type, N < 0 rounds integers to tens/hundreds with wrap-around on
 * overflow, e.g. round(toUInt8(255), -1) = 4); the transcendental functions return
 * Float64; sign returns Int8. round() on floats rounds half to even (like nearbyint, as
 * ClickHouse does); on integers with N < 0 and on decimals (which keep their type) it
 * rounds half away from zero. */
#include "func/func.h"
#include "func/scalar/num.h"

#include "base/err.h"

#include <math.h>
#include <stdlib.h>
#include <strings.h>

typedef enum { R_ROUND, R_FLOOR, R_CEIL, R_TRUNC, R_BANKERS } rmode;

static double round_f(double x, rmode m)
{
    switch (m) {
    case R_ROUND: case R_BANKERS: return nearbyint(x);
    case R_FLOOR: return floor(x);
    case R_CEIL: return ceil(x);
    default: return trunc(x);
    }
}

typedef struct round_state {
    rmode mode;
    int64_t digits;
} round_state;

static int round_exec(const fn_call *c, column **a, size_t n, column **out)
{
    const round_state *st = c->state;
    const type *t = c->arg_types[0];
    int64_t N = st->digits;
    if (num_is_float(t)) {
        double *v = mem_alloc((n ? n : 1) * 8);
        num_load_f64(t, a[0]->data.p, n, v);
        if (N == 0) {
            for (size_t i = 0; i < n; i++) v[i] = round_f(v[i], st->mode);
        } else {
            double p = pow(10.0, (double)(N > 0 ? N : -N));
            for (size_t i = 0; i < n; i++) {
                if (N > 0) {
                    double s = v[i] * p;
                    v[i] = isfinite(s) ? round_f(s, st->mode) / p : v[i];
                } else {
                    v[i] = round_f(v[i] / p, st->mode) * p;
                }
            }
        }
        if (t->id == T_FLOAT32)
            for (size_t i = 0; i < n; i++) v[i] = (float)v[i];
        *out = num_store_f64(t, v, n);
        mem_free(v);
        return 0;
    }
    /* integers, and decimals as their raw integers: N digits after the point are the raw
     * value to a multiple of 10^(scale - N) */
    int128_t *v = mem_alloc((n ? n : 1) * 16);
    num_load_i128(t, a[0]->data.p, n, v);
    int64_t drop = type_is_decimal(t) ? (int64_t)t->scale - N : -N;
    if (drop > 0) {
        int128_t p = 1;
        for (int64_t k = 0; k < drop && k < 38; k++) p *= 10;
        for (size_t i = 0; i < n; i++) {
            /* r against p - r: 2r may overflow when p is 10^38 */
            int128_t x = v[i], q = x / p, r = x % p;
            switch (st->mode) {
            case R_ROUND: /* half away from zero */
                if (r >= p - r) q++;
                else if (-r >= p + r) q--;
                break;
            case R_BANKERS: /* half to even */
                if (r > p - r || (r == p - r && (q & 1))) q++;
                else if (-r > p + r || (-r == p + r && (q & 1))) q--;
                break;
            case R_FLOOR: if (r < 0) q--; break;
            case R_CEIL: if (r > 0) q++; break;
            default: break;
            }
            v[i] = q * p;
        }
    }
    *out = num_store_i128(t, v, n);
    mem_free(v);
    return 0;
}

static int round_resolve(fn_call *c)
{
    if (c->nargs != 1 && c->nargs != 2)
        return err_set(ERR_NUMBER_OF_ARGUMENTS_DOESNT_MATCH,
                       "Number of arguments for function %s doesn't match: passed %d, should be 1 or 2", c->name, c->nargs);
    const type *t = c->arg_types[0];
    if (!num_is_int(t) && !num_is_float(t) && !type_is_decimal(t))
        return fn_bad_types(c);
    round_state *st = xcalloc(1, sizeof *st);
    c->state = st;
    const char *nm = c->def->name;
    st->mode = !strcasecmp(nm, "floor") ? R_FLOOR : !strcasecmp(nm, "ceil") ? R_CEIL : !strcasecmp(nm, "trunc") ? R_TRUNC : !strcmp(nm, "roundBankers") ? R_BANKERS : R_ROUND;
    if (c->nargs == 2 && fn_const_int(c, 1, &st->digits) < 0)
        return err_set(ERR_ILLEGAL_COLUMN, "Scale argument for rounding functions must be constant");
    c->ret = t->id == T_BOOL ? type_simple(T_UINT8) : t;
    c->exec = round_exec;
    return 0;
}

/* ---- Float64 functions of one or two arguments ---- */

typedef double (*f1)(double);
typedef double (*f2)(double, double);

static double exp10_(double x) { return pow(10, x); }
/* glibc's cbrt is not correctly rounded (cbrt(27) = 3.0000000000000004); the long
 * double one, rounded to double, gives ClickHouse's results (3, 10, 1e-100). */
static double cbrt_(double x) { return (double)cbrtl((long double)x); }
static double sign_(double x) { return (double)((x > 0) - (x < 0)); }

static double log1p_(double x) { return log1p(x); }
static double sigmoid_(double x) { return 1.0 / (1.0 + exp(-x)); }
static double degrees_(double x) { return x * (180.0 / M_PI); }
static double radians_(double x) { return x * (M_PI / 180.0); }

/* ci: the name is case-insensitive in ClickHouse (system.functions.case_insensitive). */
static const struct { const char *name; f1 f; bool ci; } f1s[] = {
    {"sqrt", sqrt, 1}, {"cbrt", cbrt_, 0}, {"exp", exp, 1}, {"exp2", exp2, 0}, {"exp10", exp10_, 0},
    {"log", log, 1}, {"log2", log2, 1}, {"log10", log10, 1}, {"sin", sin, 1}, {"cos", cos, 1},
    {"tan", tan, 1}, {"asin", asin, 1}, {"acos", acos, 1}, {"atan", atan, 1}, {"sinh", sinh, 0},
    {"cosh", cosh, 0}, {"tanh", tanh, 1}, {"erf", erf, 0}, {"lgamma", lgamma, 0}, {"tgamma", tgamma, 0},
    {"sign", sign_, 1}, {"log1p", log1p_, 0}, {"asinh", asinh, 0}, {"acosh", acosh, 0},
    {"atanh", atanh, 0}, {"erfc", erfc, 0}, {"sigmoid", sigmoid_, 0}, {"degrees", degrees_, 1},
    {"radians", radians_, 1},
};

/* n values of a numeric or decimal column as Float64 (decimals unscaled). */
static void load_f64(const type *t, const column *c, size_t n, double *v)
{
    num_load_f64(t, c->data.p, n, v);
    if (type_is_decimal(t)) {
        double d = (double)type_decimal_scale_multiplier(t);
        for (size_t i = 0; i < n; i++) v[i] /= d;
    }
}

static int f1_exec(const fn_call *c, column **a, size_t n, column **out)
{
    f1 f = (f1)c->state;
    double *v = mem_alloc((n ? n : 1) * 8);
    load_f64(c->arg_types[0], a[0], n, v);
    for (size_t i = 0; i < n; i++)
        v[i] = f(v[i]);
    *out = num_store_f64(c->ret, v, n);
    mem_free(v);
    return 0;
}

static int f1_resolve(fn_call *c)
{
    if (c->nargs != 1)
        return fn_bad_nargs(c, "1");
    const type *t = c->arg_types[0];
    if (!num_is_int(t) && !num_is_float(t) && !type_is_decimal(t))
        return fn_bad_types(c);
    for (size_t i = 0; i < sizeof f1s / sizeof f1s[0]; i++)
        if (!strcasecmp(f1s[i].name, c->def->name))
            c->state = (void *)f1s[i].f;
    c->ret = type_simple(T_FLOAT64);
    if (!strcmp(c->def->name, "sign"))
        c->ret = type_simple(T_INT8);
    c->exec = f1_exec;
    return 0;
}

static int pow_exec(const fn_call *c, column **a, size_t n, column **out)
{
    double *x = mem_alloc((n ? n : 1) * 8), *y = mem_alloc((n ? n : 1) * 8);
    load_f64(c->arg_types[0], a[0], n, x);
    load_f64(c->arg_types[1], a[1], n, y);
    f2 f = (f2)c->state;
    for (size_t i = 0; i < n; i++)
        x[i] = f(x[i], y[i]);
    *out = num_store_f64(c->ret, x, n);
    mem_free(x);
    mem_free(y);
    return 0;
}

static int pow_resolve(fn_call *c)
{
    if (c->nargs != 2)
        return fn_bad_nargs(c, "2");
    for (int i = 0; i < 2; i++) {
        const type *t = c->arg_types[i];
        if ((num_is_int(t) && num_size(t) > 8) || (!num_is_int(t) && !num_is_float(t) && !type_is_decimal(t)))
            return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type %s of argument of function %s", t->name, c->name);
    }
    c->state = !strcmp(c->def->name, "atan2") ? (void *)atan2 : !strcmp(c->def->name, "hypot") ? (void *)hypot : (void *)pow;
    c->ret = type_simple(T_FLOAT64);
    c->exec = pow_exec;
    return 0;
}

/* factorial(n): UInt64; n < 0 gives 1 and n > 20 (which would overflow) is BAD_ARGUMENTS, as
 * ClickHouse. Floats, decimals and 128/256-bit integers are ILLEGAL_TYPE_OF_ARGUMENT. */
static int factorial_exec(const fn_call *c, column **a, size_t n, column **out)
{
    int128_t *v = mem_alloc((n ? n : 1) * sizeof *v);
    num_load_i128(c->arg_types[0], a[0]->data.p, n, v);
    uint64_t *r = mem_alloc((n ? n : 1) * sizeof *r);
    for (size_t i = 0; i < n; i++) {
        if (v[i] > 20) {
            mem_free(v);
            mem_free(r);
            return err_set(ERR_BAD_ARGUMENTS, "The maximum value for the input argument of function %s is 20", c->name);
        }
        uint64_t f = 1;
        for (int k = 2; k <= (int)v[i]; k++)
            f *= (uint64_t)k;
        r[i] = f;
    }
    *out = num_store_u64(c->ret, r, n);
    mem_free(v);
    mem_free(r);
    return 0;
}

static int factorial_resolve(fn_call *c)
{
    if (c->nargs != 1)
        return fn_bad_nargs(c, "1");
    const type *t = c->arg_types[0];
    if (!num_is_int(t) || num_size(t) > 8)
        return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT,
                       "Illegal type %s of argument of function %s, should not be floating point or big int", t->name,
                       c->name);
    c->ret = type_simple(T_UINT64);
    c->exec = factorial_exec;
    return 0;
}

static int const_exec(const fn_call *c, column **a, size_t n, column **out)
{
    double v = c->state ? M_PI : M_E;
    column *one = col_new(type_simple(T_FLOAT64));
    col_push_fixed(one, &v);
    *out = col_new_const(one, n);
    return 0;
}

static int const_resolve(fn_call *c)
{
    if (c->nargs != 0)
        return fn_bad_nargs(c, "0");
    c->state = !strcasecmp(c->def->name, "pi") ? (void *)1 : NULL;
    c->ret = type_simple(T_FLOAT64);
    c->exec = const_exec;
    return 0;
}

void func_register_math(void)
{
    static const func_def rdefs[] = {
        {"round", FN_CASE_INSENSITIVE, round_resolve, free, "rounds half to even (floats) to N digits"},
        {"roundBankers", 0, round_resolve, free, "rounds half to even (also integers) to N digits"},
        {"floor", FN_CASE_INSENSITIVE, round_resolve, free, "rounds down to N digits"},
        {"ceil", FN_CASE_INSENSITIVE, round_resolve, free, "rounds up to N digits"},
        {"trunc", FN_CASE_INSENSITIVE, round_resolve, free, "rounds toward zero to N digits"},
        {"pow", FN_CASE_INSENSITIVE, pow_resolve, NULL, "x to the power y"},
        {"atan2", FN_CASE_INSENSITIVE, pow_resolve, NULL, "atan2(y, x)"},
        {"pi", FN_CASE_INSENSITIVE, const_resolve, NULL, "π"},
        {"e", 0, const_resolve, NULL, "Euler's number"},
        {"hypot", FN_CASE_INSENSITIVE, pow_resolve, NULL, "sqrt(x² + y²) without undue overflow"},
        {"factorial", FN_CASE_INSENSITIVE, factorial_resolve, NULL, "n! of an integer from 0 to 20 (negative: 1)"},
    };
    for (size_t i = 0; i < sizeof rdefs / sizeof rdefs[0]; i++)
        func_register(&rdefs[i]);
    static func_def fdefs[sizeof f1s / sizeof f1s[0]];
    for (size_t i = 0; i < sizeof f1s / sizeof f1s[0]; i++) {
        fdefs[i] = (func_def){f1s[i].name, f1s[i].ci ? FN_CASE_INSENSITIVE : 0, f1_resolve, NULL, "mathematical function"};
        func_register(&fdefs[i]);
    }
    func_register_alias("ceiling", "ceil");
    func_register_alias("truncate", "trunc");
    func_register_alias("power", "pow");
    func_register_alias("ln", "log");
}
