/* max2(a, b) and min2(a, b): the larger or smaller of two numbers, as Float64.
 *
 * As ClickHouse: both arguments become Float64 (integers up to 64 bits, floats, Bool and
 * decimals; anything else is ILLEGAL_TYPE_OF_ARGUMENT) and the result is `a > b ? a : b`
 * (min2: `a < b`), so a NaN or a signed zero in the second argument wins a tie:
 * max2(1.5, nan) = nan, min2(nan, 1) = 1, min2(0., -0.) = -0. */
#include "func/func.h"
#include "func/scalar/num.h"

#include "base/err.h"
#include "base/mem.h"

static int minmax2_exec(const fn_call *c, column **a, size_t n, column **out)
{
    bool is_max = c->state != NULL;
    double *x = mem_alloc((n ? n : 1) * sizeof *x), *y = mem_alloc((n ? n : 1) * sizeof *y);
    for (int k = 0; k < 2; k++) {
        const type *t = type_phys(c->arg_types[k]);
        double *v = k ? y : x;
        num_load_f64(t, a[k]->data.p, n, v);
        if (type_is_decimal(t)) {
            double m = (double)type_decimal_scale_multiplier(t);
            for (size_t i = 0; i < n; i++)
                v[i] /= m;
        }
    }
    for (size_t i = 0; i < n; i++)
        x[i] = is_max ? (x[i] > y[i] ? x[i] : y[i]) : (x[i] < y[i] ? x[i] : y[i]);
    *out = num_store_f64(type_simple(T_FLOAT64), x, n);
    mem_free(x);
    mem_free(y);
    return 0;
}

static int minmax2_resolve(fn_call *c)
{
    if (c->nargs != 2)
        return fn_bad_nargs(c, "2");
    for (int k = 0; k < 2; k++) {
        const type *t = type_phys(c->arg_types[k]);
        bool ok = ((num_is_int(t) || num_is_float(t)) && num_size(t) <= 8) || t->id == T_DECIMAL32 ||
                  t->id == T_DECIMAL64 || t->id == T_DECIMAL128;
        if (!ok)
            return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type %s of argument of function %s",
                           c->arg_types[k]->name, c->name);
    }
    c->state = c->def->name[1] == 'a' ? (void *)1 : NULL;
    c->ret = type_simple(T_FLOAT64);
    c->exec = minmax2_exec;
    return 0;
}

void func_register_minmax2(void)
{
    static const func_def defs[] = {
        {"max2", 0, minmax2_resolve, NULL, "the larger of two numbers, as Float64"},
        {"min2", 0, minmax2_resolve, NULL, "the smaller of two numbers, as Float64"},
    };
    for (size_t i = 0; i < sizeof defs / sizeof defs[0]; i++)
        func_register(&defs[i]);
}
