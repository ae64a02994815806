/* makeDate(year, month, day) / makeDate(year, day_of_year), makeDate32 (same),
 * makeDateTime(year, month, day, hour, minute, second[, tz]) and
 * makeDateTime64(year, month, day, hour, minute, second[, fraction[, precision[, tz]]]).
 *
 * As ClickHouse 26.7 (measured with chdb): the components are any numbers, truncated to
 * integers. A date with a month outside 1..12, a day outside 1..31, a day of year outside
 * 1..365 (even in a leap year) or a year outside 1900..2299 is the type's zero (1970-01-01);
 * otherwise days past the month's end roll over (Feb 30 is Mar 1 or 2) and a day outside the
 * type's range is the zero too. For date-times an hour, minute or second outside 0..99 (or a bad date) gives
 * the minimum (DateTime: 1970-01-01 00:00:00; DateTime64: 1900-01-01 00:00:00 in the zone),
 * a year past 2299 the maximum; overflowing hours, minutes and seconds roll over; the
 * result saturates to the type's range. makeDateTime64's fraction counts 10^-precision
 * seconds (clamped to 0..10^precision - 1); precision (default 3) must be a constant 0..9. */
#include "func/func.h"
#include "func/scalar/num.h"

#include "base/err.h"
#include "column/datetime.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { MK_DATE, MK_DATE32, MK_DT, MK_DT64 };

typedef struct mk_state {
    int kind;
    int scale;          /* makeDateTime64 */
    const tz_info *tz;
} mk_state;

static const char *const ordinal[] = {"1st", "2nd", "3rd", "4th", "5th", "6th", "7th", "8th", "9th"};
static const char *const arg_names[] = {"year", "month", "day", "hour", "minute", "second", "fraction", "precision", "timezone"};

/* Argument k of every row as an int64 (truncated), and whether it was NaN. */
static void load_trunc(const type *t, const column *c, size_t n, int64_t *v, uint8_t *bad)
{
    double *f = mem_alloc((n ? n : 1) * sizeof *f);
    num_load_f64(type_phys(t), c->data.p, c->is_const ? 1 : n, f);
    if (type_is_decimal(t)) {
        double m = (double)type_decimal_scale_multiplier(t);
        for (size_t i = 0; i < (c->is_const ? 1 : n); i++)
            f[i] /= m;
    }
    for (size_t i = 0; i < n; i++) {
        double x = f[c->is_const ? 0 : i];
        bad[i] |= isnan(x) || fabs(x) > 9e18;
        v[i] = bad[i] ? 0 : (int64_t)x;
    }
    mem_free(f);
}

static int mk_exec(const fn_call *c, column **a, size_t n, column **out)
{
    const mk_state *st = c->state;
    int ncomp = st->kind <= MK_DATE32 ? c->nargs : st->kind == MK_DT ? 6 : (c->nargs >= 7 ? 7 : 6);
    int64_t *v[7];
    uint8_t *bad = mem_calloc(n ? n : 1);
    for (int k = 0; k < ncomp; k++) {
        v[k] = mem_alloc((n ? n : 1) * sizeof *v[k]);
        load_trunc(c->arg_types[k], a[k], n, v[k], bad);
    }
    int64_t *r = mem_alloc((n ? n : 1) * sizeof *r);
    int64_t p10 = 1;
    for (int k = 0; k < st->scale; k++)
        p10 *= 10;
    for (size_t i = 0; i < n; i++) {
        int64_t y = v[0][i];
        bool ok = !bad[i] && y >= 1900 && y <= 2299;
        int64_t days = 0;
        if (st->kind <= MK_DATE32 && c->nargs == 2) {
            int64_t doy = v[1][i];
            ok = ok && doy >= 1 && doy <= 365; /* as ClickHouse: day 366 of a leap year too */
            if (ok)
                days = dt_days_from_civil(y, 1, 1) + doy - 1;
        } else {
            int64_t m = v[1][i], d = v[2][i];
            ok = ok && m >= 1 && m <= 12 && d >= 1 && d <= 31;
            if (ok)
                days = dt_days_from_civil(y, (unsigned)m, 1) + d - 1;
        }
        if (st->kind == MK_DATE) {
            r[i] = ok && days >= 0 && days <= 65535 ? days : 0;
            continue;
        }
        if (st->kind == MK_DATE32) {
            r[i] = ok && days >= -25567 && days <= 120529 ? days : 0;
            continue;
        }
        bool past_max = !bad[i] && v[0][i] > 2299;
        for (int k = 3; k < 6; k++)
            ok = ok && v[k][i] >= 0 && v[k][i] <= 99;
        int64_t min_s = st->kind == MK_DT ? 0 : tz_local_to_utc(st->tz, dt_days_from_civil(1900, 1, 1) * 86400);
        int64_t max_s = st->kind == MK_DT ? UINT32_MAX : tz_local_to_utc(st->tz, dt_days_from_civil(2299, 12, 31) * 86400 + 86399);
        int64_t secs;
        if (past_max && !(v[1][i] < 1 || v[1][i] > 12 || v[2][i] < 1 || v[2][i] > 31))
            secs = max_s;
        else if (!ok)
            secs = min_s;
        else
            secs = tz_local_to_utc(st->tz, days * 86400 + v[3][i] * 3600 + v[4][i] * 60 + v[5][i]);
        bool at_max = secs >= max_s;
        secs = secs < min_s ? min_s : secs > max_s ? max_s : secs;
        if (st->kind == MK_DT) {
            r[i] = secs;
        } else {
            int64_t frac = ncomp == 7 && ok && !at_max ? v[6][i] : at_max ? p10 - 1 : 0;
            frac = frac < 0 ? 0 : frac >= p10 ? p10 - 1 : frac;
            r[i] = secs * p10 + frac;
        }
    }
    *out = num_store_i64(c->ret, r, n);
    for (int k = 0; k < ncomp; k++)
        mem_free(v[k]);
    mem_free(bad);
    mem_free(r);
    return 0;
}

static int mk_resolve(fn_call *c)
{
    const char *nm = c->def->name;
    mk_state *st = xcalloc(1, sizeof *st);
    c->state = st;
    st->kind = !strcmp(nm, "makeDate") ? MK_DATE : !strcmp(nm, "makeDate32") ? MK_DATE32 : !strcmp(nm, "makeDateTime") ? MK_DT : MK_DT64;
    int lo = st->kind <= MK_DATE32 ? 2 : 6, hi = st->kind <= MK_DATE32 ? 3 : st->kind == MK_DT ? 7 : 9;
    if (c->nargs < lo || c->nargs > hi) {
        if (st->kind <= MK_DATE32)
            return err_set(ERR_NUMBER_OF_ARGUMENTS_DOESNT_MATCH,
                           "An incorrect number of arguments was specified for function '%s'. Expected 2 arguments, got "
                           "%d arguments",
                           c->name, c->nargs);
        return err_set(ERR_NUMBER_OF_ARGUMENTS_DOESNT_MATCH,
                       "An incorrect number of arguments was specified for function '%s'. Expected 6 mandatory arguments "
                       "and %d optional argument%s, got %d arguments",
                       c->name, hi - 6, hi - 6 > 1 ? "s" : "", c->nargs);
    }
    int ncomp = st->kind <= MK_DATE32 ? c->nargs : st->kind == MK_DT ? 6 : (c->nargs >= 7 ? 7 : 6);
    for (int k = 0; k < ncomp; k++) {
        const type *t = c->arg_types[k];
        if (!type_is_number(t) && !type_is_decimal(t))
            return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT,
                           "A value of illegal type was provided as %s argument '%s' to function '%s'. Expected: Number, "
                           "got: %s",
                           ordinal[k], st->kind <= MK_DATE32 && c->nargs == 2 && k == 1 ? "dayofyear" : arg_names[k], c->name,
                           t->name);
    }
    st->scale = st->kind == MK_DT64 ? 3 : 0;
    if (st->kind == MK_DT64 && c->nargs >= 8) {
        int64_t p;
        if (!type_is_number(c->arg_types[7]) || fn_const_int(c, 7, &p) < 0)
            return err_set(ERR_ILLEGAL_COLUMN,
                           "A value of illegal type was provided as 7th argument 'precision' to function '%s'. Expected: "
                           "const Number, got: %s",
                           c->name, c->arg_types[7]->name);
        if (p < 0 || p > 9)
            return err_set(ERR_ARGUMENT_OUT_OF_BOUND, "Argument 'precision' for function %s must be in range [0, 9]", c->name);
        st->scale = (int)p;
    }
    int tz_arg = st->kind == MK_DT ? 6 : st->kind == MK_DT64 ? 8 : -1;
    const char *zone = NULL;
    if (tz_arg >= 0 && c->nargs > tz_arg) {
        size_t len;
        const char *s = type_is_string(c->arg_types[tz_arg]) ? fn_const_str(c, tz_arg, &len) : NULL;
        if (!s)
            return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT,
                           "A value of illegal type was provided as %s argument 'timezone' to function '%s'. Expected: "
                           "const String, got: %s",
                           ordinal[tz_arg - 1], c->name, c->arg_types[tz_arg]->name);
        st->tz = fn_tz_named(s, len);
        if (!st->tz)
            return -1;
        zone = tz_name(st->tz);
    } else if (st->kind >= MK_DT) {
        st->tz = tz_get(c->env && c->env->timezone ? c->env->timezone : tz_default_name());
        if (!st->tz)
            return -1;
    }
    c->ret = st->kind == MK_DATE ? type_simple(T_DATE) : st->kind == MK_DATE32 ? type_simple(T_DATE32)
           : st->kind == MK_DT ? type_datetime(zone) : type_datetime64(st->scale, zone);
    c->exec = mk_exec;
    return 0;
}

void func_register_makedate(void)
{
    static const func_def defs[] = {
        {"makeDate", FN_CASE_INSENSITIVE, mk_resolve, free, "a Date from year, month and day (or day of year)"},
        {"makeDate32", FN_CASE_INSENSITIVE, mk_resolve, free, "a Date32 from year, month and day (or day of year)"},
        {"makeDateTime", FN_CASE_INSENSITIVE, mk_resolve, free, "a DateTime from its components"},
        {"makeDateTime64", FN_CASE_INSENSITIVE, mk_resolve, free, "a DateTime64 from its components"},
    };
    for (size_t i = 0; i < sizeof defs / sizeof defs[0]; i++)
        func_register(&defs[i]);
}
