/* Functions about types and sub-second truncation, as ClickHouse 26.7 (measured with chdb):
 *   defaultValueOfArgumentType(x): the default of x's type (NULL for Nullable, '' for
 *     String, the first value for Enum), as a constant of that type (LowCardinality kept);
 *   defaultValueOfTypeName('T'): the default of the named type (a constant string, else
 *     ILLEGAL_COLUMN; an unknown type is UNKNOWN_TYPE);
 *   getSizeOfEnumType(e): the number of an Enum's values, UInt8 for Enum8, UInt16 for Enum16;
 *   toStartOfSecond/Millisecond/Microsecond/Nanosecond(dt64[, tz]): a DateTime64 rounded
 *     down (toward the past) to the unit, at the finer of its precision and the unit's; the
 *     optional zone only changes the result type's zone. Other types: ILLEGAL_TYPE_OF_ARGUMENT.
 *   fromDaysSinceYearZero(32)(n): see below.
 * Stateless; thread-safe. */
#include "func/func.h"

#include "base/err.h"
#include "base/mem.h"
#include "column/datetime.h"
#include "func/scalar/num.h"

#include <stdlib.h>
#include <string.h>

static int default_exec(const fn_call *c, column **a, size_t n, column **out)
{
    *out = col_new_const(col_new_defaults(c->ret, 1), n);
    return 0;
}

static int default_arg_resolve(fn_call *c)
{
    if (c->nargs != 1)
        return fn_bad_nargs(c, "1");
    c->ret = c->arg_types[0];
    c->exec = default_exec;
    return 0;
}

static int default_name_resolve(fn_call *c)
{
    if (c->nargs != 1)
        return fn_bad_nargs(c, "1");
    size_t len;
    const char *s = type_is_string(c->arg_types[0]) ? fn_const_str(c, 0, &len) : NULL;
    if (!s)
        return err_set(ERR_ILLEGAL_COLUMN, "The argument of function %s must be a constant string describing type",
                       c->name);
    const type *t = type_parse(s, len);
    if (!t)
        return -1;
    c->ret = t;
    c->exec = default_exec;
    return 0;
}

static int enum_size_exec(const fn_call *c, column **a, size_t n, column **out)
{
    column *one = col_new(c->ret);
    if (c->ret->id == T_UINT8) {
        uint8_t v = (uint8_t)c->arg_types[0]->nitems;
        col_push_fixed(one, &v);
    } else {
        uint16_t v = (uint16_t)c->arg_types[0]->nitems;
        col_push_fixed(one, &v);
    }
    *out = col_new_const(one, n);
    return 0;
}

static int enum_size_resolve(fn_call *c)
{
    if (c->nargs != 1)
        return fn_bad_nargs(c, "1");
    type_id id = c->arg_types[0]->id;
    if (id != T_ENUM8 && id != T_ENUM16)
        return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "The argument for function %s must be Enum", c->name);
    c->ret = type_simple(id == T_ENUM8 ? T_UINT8 : T_UINT16);
    c->exec = enum_size_exec;
    return 0;
}

/* The unit's digits after the second, from the function name. */
static int start_digits(const char *name)
{
    return strstr(name, "Milli") ? 3 : strstr(name, "Micro") ? 6 : strstr(name, "Nano") ? 9 : 0;
}

static int start_exec(const fn_call *c, column **a, size_t n, column **out)
{
    int scale = type_phys(c->arg_types[0])->scale, digits = start_digits(c->def->name);
    int64_t step = 1, up = 1; /* ticks per unit; the result's finer scale (max of both) */
    for (int k = digits; k < scale; k++)
        step *= 10;
    for (int k = scale; k < digits; k++)
        up *= 10;
    column *r = col_new_defaults(type_phys(c->ret), n);
    const int64_t *s = COL_DATA(a[0], int64_t);
    int64_t *d = COL_DATA(r, int64_t);
    for (size_t i = 0; i < n; i++) {
        int64_t q = s[i] / step;
        if (s[i] % step < 0)
            q--;
        d[i] = q * step * up;
    }
    *out = r;
    return 0;
}

static int start_resolve(fn_call *c)
{
    if (c->nargs != 1 && c->nargs != 2)
        return fn_bad_nargs(c, "1 or 2");
    const type *t = c->arg_types[0];
    if (t->id != T_DATETIME64)
        return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type %s of argument for function %s", t->name, c->name);
    const char *zone = t->tz;
    if (c->nargs == 2) {
        size_t len;
        const char *s = type_is_string(c->arg_types[1]) ? fn_const_str(c, 1, &len) : NULL;
        if (!s)
            return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT,
                           "Function %s supports 1 or 2 arguments. The optional 2nd argument must be a constant string "
                           "with a timezone name",
                           c->name);
        const tz_info *tz = fn_tz_named(s, len);
        if (!tz)
            return -1;
        zone = tz_name(tz);
    }
    int digits = start_digits(c->def->name);
    c->ret = type_datetime64(t->scale > digits ? t->scale : digits, zone);
    c->exec = start_exec;
    return 0;
}

/* fromDaysSinceYearZero(n) / fromDaysSinceYearZero32(n): the Date / Date32 of day n counted
 * from 0000-01-01; a negative n is ARGUMENT_OUT_OF_BOUND; a Date out of range wraps to 16
 * bits as ClickHouse's (day 0 is 1973-09-30); a Date32 past 9999-12-31 is NOT_IMPLEMENTED. */
static int from_days0_exec(const fn_call *c, column **a, size_t n, column **out)
{
    const type *t = type_phys(c->arg_types[0]);
    int128_t *v = mem_alloc((n ? n : 1) * sizeof *v);
    if (t->id == T_UINT128)
        memcpy(v, a[0]->data.p, n * sizeof *v);
    else
        num_load_i128(t, a[0]->data.p, n, v);
    bool d32 = c->ret->id == T_DATE32;
    column *r = col_new_defaults(c->ret, n);
    for (size_t i = 0; i < n; i++) {
        int128_t x = v[i];
        const char *why = x < 0 ? "Expected a non-negative integer, got: %lld" : NULL;
        /* ClickHouse keeps a Date32 past 9999-12-31 and prints it as that day; shale's text
         * output cannot yet, so it is refused rather than printed differently. */
        if (!why && d32 && x > 3652424)
            why = "fromDaysSinceYearZero32 beyond 9999-12-31 (day %lld) is not supported";
        if (why) {
            mem_free(v);
            col_free(r);
            return err_set(x < 0 ? ERR_ARGUMENT_OUT_OF_BOUND : ERR_NOT_IMPLEMENTED, why, (long long)x);
        }
        int128_t days = x - 719528;
        if (d32)
            COL_DATA(r, int32_t)[i] = (int32_t)days;
        else
            COL_DATA(r, uint16_t)[i] = (uint16_t)days;
    }
    mem_free(v);
    *out = r;
    return 0;
}

static int from_days0_resolve(fn_call *c)
{
    if (c->nargs != 1)
        return fn_bad_nargs(c, "1");
    const type *t = c->arg_types[0];
    if (!num_is_int(t) || t->id == T_BOOL)
        return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT,
                       "A value of illegal type was provided as 1st argument 'days' to function '%s'. Expected: Integer, "
                       "got: %s",
                       c->name, t->name);
    c->ret = type_simple(strstr(c->def->name, "32") ? T_DATE32 : T_DATE);
    c->exec = from_days0_exec;
    return 0;
}

void func_register_typefn(void)
{
    static const func_def defs[] = {
        {"defaultValueOfArgumentType", FN_OWN_NULLS | FN_OWN_LOWCARD | FN_CONST_ARGS_OK, default_arg_resolve, NULL,
         "the default value of the argument's type"},
        {"defaultValueOfTypeName", FN_CONST_ARGS_OK, default_name_resolve, NULL, "the default value of the named type"},
        {"getSizeOfEnumType", FN_OWN_NULLS | FN_CONST_ARGS_OK, enum_size_resolve, NULL, "the number of values of an Enum"},
        {"toStartOfSecond", 0, start_resolve, NULL, "a DateTime64 rounded down to the second"},
        {"toStartOfMillisecond", 0, start_resolve, NULL, "a DateTime64 rounded down to the millisecond"},
        {"toStartOfMicrosecond", 0, start_resolve, NULL, "a DateTime64 rounded down to the microsecond"},
        {"toStartOfNanosecond", 0, start_resolve, NULL, "a DateTime64 rounded down to the nanosecond"},
        {"fromDaysSinceYearZero", 0, from_days0_resolve, NULL, "the Date of a day counted from year 0"},
        {"fromDaysSinceYearZero32", 0, from_days0_resolve, NULL, "the Date32 of a day counted from year 0"},
    };
    for (size_t i = 0; i < sizeof defs / sizeof defs[0]; i++)
        func_register(&defs[i]);
    func_register_alias("FROM_DAYS", "fromDaysSinceYearZero");
}
