/* Human-readable numbers and random strings: formatReadableSize (binary units),
 * formatReadableDecimalSize (decimal units), formatReadableQuantity (thousand, million, …),
 * randomString(n), randomFixedString(n).
 *
 * formatReadable* divide by the unit step while the value is at least one step and a
 * larger unit is left, then print two decimals as double-conversion's ToFixed does
 * (ClickHouse's formatReadable): the exact decimal value rounded half away from zero;
 * values of 1e60 and beyond (and inf, nan), which ToFixed refuses, print in the shortest
 * form as Float64 text does.
 * randomString draws from a per-thread generator (thread-safe, FN_NOT_DETERMINISTIC). */
#include "func/func.h"
#include "func/scalar/num.h"

#include "base/err.h"
#include "column/text.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

typedef struct readable_units {
    double step;
    int n;
    const char *const *names;
    bool space_before_empty; /* formatReadableQuantity prints no unit below a thousand */
} readable_units;

static const char *const binary_units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB", "ZiB", "YiB"};
static const char *const decimal_units[] = {"B", "KB", "MB", "GB", "TB", "PB", "EB", "ZB", "YB"};
static const char *const quantity_units[] = {
    "",           "thousand",    "million",       "billion",           "trillion",      "quadrillion",
    "quintillion", "sextillion",  "septillion",    "octillion",         "nonillion",     "decillion",
    "undecillion", "duodecillion", "tredecillion", "quattuordecillion", "quindecillion", "sexdecillion",
    "septendecillion", "octodecillion", "novemdecillion", "vigintillion"};

static const readable_units r_binary = {1024, 9, binary_units, true};
static const readable_units r_decimal = {1000, 9, decimal_units, true};
static const readable_units r_quantity = {1000, 22, quantity_units, false};

/* v with two decimals, ToFixed's rounding (see above); returns the length. */
static size_t fixed2(double v, char *out, size_t cap)
{
    if (!isfinite(v) || fabs(v) >= 1e60)
        return text_format_f64(v, out);
    /* v * 100 is exact in long double (53 + 7 bits of mantissa), so a tie is seen exactly;
     * printf rounds exact ties to even, ToFixed away from zero */
    long double r = fabsl((long double)v * 100);
    long double fl = floorl(r);
    if (r - fl == 0.5L && fl < 1e18L) {
        uint64_t k = (uint64_t)fl + 1;
        return (size_t)snprintf(out, cap, "%s%llu.%02llu", v < 0 ? "-" : "", (unsigned long long)(k / 100),
                                (unsigned long long)(k % 100));
    }
    return (size_t)snprintf(out, cap, "%.2f", v);
}

static int readable_exec(const fn_call *c, column **a, size_t n, column **out)
{
    const readable_units *u = c->state;
    column *r = col_new(type_simple(T_STRING));
    col_reserve(r, n);
    double *v = mem_alloc((n ? n : 1) * sizeof *v);
    num_load_f64(c->arg_types[0], a[0]->data.p, n, v);
    if (type_is_decimal(c->arg_types[0])) {
        double m = (double)type_decimal_scale_multiplier(c->arg_types[0]);
        for (size_t i = 0; i < n; i++)
            v[i] /= m;
    }
    char tmp[512];
    for (size_t i = 0; i < n; i++) {
        double x = v[i];
        int k = 0;
        while (k + 1 < u->n && fabs(x) >= u->step) {
            x /= u->step;
            k++;
        }
        size_t len = fixed2(x, tmp, 400);
        if (u->names[k][0] || u->space_before_empty)
            len += (size_t)snprintf(tmp + len, sizeof tmp - len, " %s", u->names[k]);
        col_push_str(r, tmp, len);
    }
    mem_free(v);
    *out = r;
    return 0;
}

static int readable_resolve(fn_call *c)
{
    if (c->nargs != 1)
        return err_set(ERR_NUMBER_OF_ARGUMENTS_DOESNT_MATCH,
                       "Incorrect number of arguments for function '%s': passed %d, expected 1", c->name, c->nargs);
    const type *t = c->arg_types[0];
    if (!type_is_number(t))
        return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT,
                       "A value of illegal type was provided as 1st argument 'value' to function '%s'. Expected: "
                       "Number, got: %s",
                       c->name, t->name);
    const char *nm = c->def->name;
    c->state = (void *)(strcmp(nm, "formatReadableSize") == 0          ? &r_binary
                        : strcmp(nm, "formatReadableDecimalSize") == 0 ? &r_decimal
                                                                        : &r_quantity);
    c->ret = type_simple(T_STRING);
    c->exec = readable_exec;
    return 0;
}

/* ---- randomString(n), randomFixedString(n) ---- */


static void fill_random(char *p, size_t len)
{
    for (size_t k = 0; k < len; k += 8) {
        uint64_t x = fn_rand_u64();
        memcpy(p + k, &x, len - k < 8 ? len - k : 8);
    }
}

/* ClickHouse's limit on one random string (1 GiB). */
#define RANDOM_STRING_MAX (1ull << 30)

static int rstring_exec(const fn_call *c, column **a, size_t n, column **out)
{
    column *r = col_new(c->ret);
    col_reserve(r, n);
    bool fixed = c->ret->id == T_FIXEDSTRING;
    char small[256];
    for (size_t i = 0; i < n; i++) {
        uint64_t len = fixed ? c->ret->width : col_get_u64(a[0], i);
        if (!fixed && type_is_signed(c->arg_types[0]) && col_get_i64(a[0], i) < 0)
            len = 0;
        if (len > RANDOM_STRING_MAX) {
            col_free(r);
            return err_set(ERR_TOO_LARGE_STRING_SIZE, "Too large string size in function %s", c->name);
        }
        char *p = len <= sizeof small ? small : mem_alloc(len);
        fill_random(p, len);
        col_push_str(r, p, len);
        if (p != small)
            mem_free(p);
    }
    *out = r;
    return 0;
}

static int rstring_resolve(fn_call *c)
{
    bool fixed = strcmp(c->def->name, "randomFixedString") == 0;
    if (fixed ? c->nargs != 1 : c->nargs < 1 || c->nargs > 2)
        return fn_bad_nargs(c, fixed ? "1" : "1 or 2");
    if (!type_is_integer(c->arg_types[0]))
        return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type %s of argument of function %s",
                       c->arg_types[0]->name, c->name);
    if (fixed) {
        int64_t w;
        if (fn_const_int(c, 0, &w))
            return err_set(ERR_ILLEGAL_COLUMN, "First argument for function %s must be constant", c->name);
        if (w <= 0 || (uint64_t)w > 0xFFFFFF)
            return err_set(ERR_ARGUMENT_OUT_OF_BOUND, "Too large FixedString size or zero size in function %s",
                           c->name);
        c->ret = type_fixedstring((uint32_t)w);
    } else {
        c->ret = type_simple(T_STRING);
    }
    c->exec = rstring_exec;
    return 0;
}

void func_register_format(void)
{
    static const func_def defs[] = {
        {"formatReadableSize", 0, readable_resolve, NULL, "bytes as a size with binary units (1.18 MiB)"},
        {"formatReadableDecimalSize", 0, readable_resolve, NULL, "bytes as a size with decimal units (1.24 MB)"},
        {"formatReadableQuantity", 0, readable_resolve, NULL, "a number with a word for its magnitude"},
        {"randomString", FN_NOT_DETERMINISTIC | FN_NO_CONST_FOLD, rstring_resolve, NULL,
         "a string of n random bytes"},
        {"randomFixedString", FN_NOT_DETERMINISTIC | FN_NO_CONST_FOLD, rstring_resolve, NULL,
         "a FixedString(n) of random bytes"},
    };
    for (size_t i = 0; i < sizeof defs / sizeof defs[0]; i++)
        func_register(&defs[i]);
}
