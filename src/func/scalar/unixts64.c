/* toUnixTimestamp64Second/Milli/Micro/Nano(dt64): a DateTime64 as an Int64 count of seconds,
 * milliseconds, … since the epoch; fromUnixTimestamp64Second/Milli/Micro/Nano(n[, tz]): the
 * inverse, a DateTime64(0/3/6/9[, tz]).
 *
 * As ClickHouse 26.7: toUnixTimestamp64* takes only DateTime64 (the zone does not matter);
 * going to a coarser unit truncates toward zero (-1.5 s is -1 second), to a finer one
 * multiplies and fails with DECIMAL_OVERFLOW past Int64. fromUnixTimestamp64* takes an
 * integer of up to 64 bits (a UInt64 is reinterpreted as Int64; 128/256-bit integers are
 * ILLEGAL_COLUMN, other types ILLEGAL_TYPE_OF_ARGUMENT) and a constant time-zone string.
 * Stateless kernels; thread-safe. */
#include "func/func.h"
#include "func/scalar/num.h"

#include "base/err.h"
#include "column/datetime.h"

#include <stdlib.h>
#include <string.h>

/* The unit's decimal scale from the function name's suffix. */
static int unit_scale(const char *name)
{
    size_t n = strlen(name);
    if (n >= 5 && !strcmp(name + n - 5, "Milli"))
        return 3;
    if (n >= 5 && !strcmp(name + n - 5, "Micro"))
        return 6;
    if (n >= 4 && !strcmp(name + n - 4, "Nano"))
        return 9;
    return 0;
}

static int64_t pow10i(int k)
{
    int64_t p = 1;
    while (k-- > 0)
        p *= 10;
    return p;
}

static int to_exec(const fn_call *c, column **a, size_t n, column **out)
{
    int from = type_phys(c->arg_types[0])->scale, to = unit_scale(c->def->name);
    const int64_t *v = COL_DATA(a[0], int64_t);
    int64_t *r = mem_alloc((n ? n : 1) * sizeof *r);
    int64_t p = pow10i(to > from ? to - from : from - to);
    for (size_t i = 0; i < n; i++) {
        if (to >= from) {
            if (__builtin_mul_overflow(v[i], p, &r[i])) {
                mem_free(r);
                return err_set(ERR_DECIMAL_OVERFLOW, "Decimal overflow in %s", c->name);
            }
        } else {
            r[i] = v[i] / p; /* C division truncates toward zero, as ClickHouse's */
        }
    }
    *out = num_store_i64(c->ret, r, n);
    mem_free(r);
    return 0;
}

static int to_resolve(fn_call *c)
{
    if (c->nargs != 1)
        return fn_bad_nargs(c, "1");
    if (type_phys(c->arg_types[0])->id != T_DATETIME64)
        return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT,
                       "A value of illegal type was provided as 1st argument 'value' to function '%s'. Expected: "
                       "DateTime64, got: %s",
                       c->name, c->arg_types[0]->name);
    c->ret = type_simple(T_INT64);
    c->exec = to_exec;
    return 0;
}

static int from_exec(const fn_call *c, column **a, size_t n, column **out)
{
    int64_t *v = mem_alloc((n ? n : 1) * sizeof *v);
    num_load_i64(type_phys(c->arg_types[0]), a[0]->data.p, n, v);
    *out = num_store_i64(c->ret, v, n);
    mem_free(v);
    return 0;
}

static int from_resolve(fn_call *c)
{
    if (c->nargs != 1 && c->nargs != 2)
        return fn_bad_nargs(c, "1 or 2");
    const type *t = type_phys(c->arg_types[0]);
    /* ClickHouse finds this when it executes (on every block, even an empty one), so
     * rejecting it here differs only where ClickHouse runs no block at all (WHERE false). */
    if (t->id == T_INT128 || t->id == T_UINT128)
        return err_set(ERR_ILLEGAL_COLUMN, "Illegal column %s of first argument of function %s", c->arg_types[0]->name,
                       c->name);
    if (!num_is_int(t))
        return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "The first argument for function %s must be integer", c->name);
    const char *zone = NULL;
    if (c->nargs == 2) {
        size_t len;
        const char *s = type_is_string(c->arg_types[1]) ? fn_const_str(c, 1, &len) : NULL;
        if (!s)
            return err_set(ERR_ILLEGAL_COLUMN,
                           "Illegal column of time zone argument of function %s, must be a constant string", c->name);
        const tz_info *tz = fn_tz_named(s, len);
        if (!tz)
            return -1;
        zone = tz_name(tz);
    }
    c->ret = type_datetime64(unit_scale(c->def->name), zone);
    c->exec = from_exec;
    return 0;
}

void func_register_unixts64(void)
{
    static const func_def defs[] = {
        {"toUnixTimestamp64Second", 0, to_resolve, NULL, "a DateTime64 as Int64 seconds since the epoch"},
        {"toUnixTimestamp64Milli", 0, to_resolve, NULL, "a DateTime64 as Int64 milliseconds since the epoch"},
        {"toUnixTimestamp64Micro", 0, to_resolve, NULL, "a DateTime64 as Int64 microseconds since the epoch"},
        {"toUnixTimestamp64Nano", 0, to_resolve, NULL, "a DateTime64 as Int64 nanoseconds since the epoch"},
        {"fromUnixTimestamp64Second", 0, from_resolve, NULL, "Int64 seconds since the epoch as DateTime64(0)"},
        {"fromUnixTimestamp64Milli", 0, from_resolve, NULL, "Int64 milliseconds since the epoch as DateTime64(3)"},
        {"fromUnixTimestamp64Micro", 0, from_resolve, NULL, "Int64 microseconds since the epoch as DateTime64(6)"},
        {"fromUnixTimestamp64Nano", 0, from_resolve, NULL, "Int64 nanoseconds since the epoch as DateTime64(9)"},
    };
    for (size_t i = 0; i < sizeof defs / sizeof defs[0]; i++)
        func_register(&defs[i]);
}
