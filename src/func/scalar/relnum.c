/* toRelativeYearNum, toRelativeQuarterNum, toRelativeMonthNum, toRelativeWeekNum,
 * toRelativeDayNum, toRelativeHourNum, toRelativeMinuteNum, toRelativeSecondNum (d[, tz]):
 * the number of the year, quarter, … since a fixed point, as ClickHouse 26.7 computes them
 * (measured with chdb):
 *   - year: the civil year (UInt16); quarter: year * 4 + quarter - 1; month: year * 12 +
 *     month; week: (day number + 3) / 7 (weeks start on Monday, 1970-01-05 is week 1);
 *     day: the local day number; minute: floor(t / 60); second: t (t = unix seconds);
 *   - hour: t / 3600 when t >= 0 and the zone's offset is a whole number of hours over the
 *     whole DateTime range, else floor((t + 86400 - offset at 1970-01-01) / 3600) (so for
 *     Asia/Kolkata the hour number is shifted by that offset, as ClickHouse's date LUT does);
 *   - the out-of-range rules differ by argument type, as ClickHouse's: Date and DateTime
 *     wrap to the UInt32 result; Date32 saturates the week, day (to 0..65535), hour, minute
 *     and second numbers to 0..4294967295; DateTime64 wraps day and week to 16 bits and the
 *     others to 32.
 * toDaysSinceYearZero(d[, tz]): the local day counted from 0000-01-01 (proleptic
 * Gregorian), UInt32, as ClickHouse (and MySQL's TO_DAYS); toYearNumSinceEpoch (UInt16) and
 * toMonthNumSinceEpoch: years and months since 1970-01, with the day number's range rules.
 * A Date is the local midnight of its day in the zone (the tz argument, else the session's).
 * Errors: ILLEGAL_TYPE_OF_ARGUMENT for a non-date argument or a non-string zone, ILLEGAL_COLUMN
 * for a zone that is not constant. */
#include "func/func.h"

#include "base/err.h"
#include "base/mem.h"
#include "column/datetime.h"

#include <stdlib.h>
#include <string.h>

enum { R_YEAR, R_QUARTER, R_MONTH, R_WEEK, R_DAY, R_HOUR, R_MINUTE, R_SECOND, R_DAYS0, R_YEARS_EPOCH, R_MONTHS_EPOCH };

static const char *const rel_names[] = {"toRelativeYearNum", "toRelativeQuarterNum", "toRelativeMonthNum",
                                        "toRelativeWeekNum", "toRelativeDayNum", "toRelativeHourNum",
                                        "toRelativeMinuteNum", "toRelativeSecondNum", "toDaysSinceYearZero",
                                        "toYearNumSinceEpoch", "toMonthNumSinceEpoch"};

typedef struct relnum_state {
    const tz_info *tz;
    int op;
    bool whole_hours; /* every offset from 1970 to 2106 is a whole number of hours */
    int32_t off0;     /* the offset at unix time 0 */
} relnum_state;

static int64_t fdiv(int64_t a, int64_t b) { return a / b - (a % b != 0 && (a < 0) != (b < 0)); }

static int64_t rel_value(const relnum_state *st, int64_t t, int64_t days)
{
    int64_t y;
    unsigned m, d;
    switch (st->op) {
    case R_YEAR: dt_civil_from_days(days, &y, &m, &d); return y;
    case R_QUARTER: dt_civil_from_days(days, &y, &m, &d); return y * 4 + (m - 1) / 3;
    case R_MONTH: dt_civil_from_days(days, &y, &m, &d); return y * 12 + m;
    case R_WEEK: return fdiv(days + 3, 7);
    case R_DAY: return days;
    case R_HOUR: return t >= 0 && st->whole_hours ? t / 3600 : fdiv(t + 86400 - st->off0, 3600);
    case R_MINUTE: return fdiv(t, 60);
    case R_DAYS0: return days + 719528; /* 1970-01-01 is day 719528 of the proleptic year 0 */
    case R_YEARS_EPOCH: dt_civil_from_days(days, &y, &m, &d); return y - 1970;
    case R_MONTHS_EPOCH: dt_civil_from_days(days, &y, &m, &d); return (y - 1970) * 12 + m - 1;
    default: return t;
    }
}

static int relnum_exec(const fn_call *c, column **a, size_t n, column **out)
{
    const relnum_state *st = c->state;
    const type *at = type_phys(c->arg_types[0]);
    int64_t tick = 1;
    for (int k = 0; at->id == T_DATETIME64 && k < at->scale; k++)
        tick *= 10;
    int64_t *v = mem_alloc((n ? n : 1) * sizeof *v);
    for (size_t i = 0; i < n; i++) {
        int64_t t, days;
        if (at->id == T_DATE || at->id == T_DATE32) {
            days = at->id == T_DATE ? COL_DATA(a[0], uint16_t)[i] : COL_DATA(a[0], int32_t)[i];
            t = tz_local_to_utc(st->tz, days * 86400);
        } else {
            t = at->id == T_DATETIME ? COL_DATA(a[0], uint32_t)[i] : fdiv(COL_DATA(a[0], int64_t)[i], tick);
            days = fdiv(t + tz_offset_at(st->tz, t), 86400);
        }
        int64_t r = rel_value(st, t, days);
        if (st->op == R_DAYS0) {
            /* every type's days fit */
        } else if (at->id == T_DATE32 && st->op >= R_WEEK) {
            int64_t hi = st->op == R_DAY ? 65535 : UINT32_MAX;
            r = r < 0 ? 0 : r > hi ? hi : r;
        } else if (at->id == T_DATETIME64 && (st->op == R_DAY || st->op == R_WEEK || st->op >= R_YEARS_EPOCH)) {
            r = (uint16_t)r;
        }
        v[i] = r;
    }
    column *r = col_new_defaults(type_phys(c->ret), n);
    for (size_t i = 0; i < n; i++) {
        if (c->ret->id == T_UINT16)
            COL_DATA(r, uint16_t)[i] = (uint16_t)v[i];
        else
            COL_DATA(r, uint32_t)[i] = (uint32_t)v[i];
    }
    mem_free(v);
    *out = r;
    return 0;
}

static int relnum_resolve(fn_call *c)
{
    if (c->nargs < 1 || c->nargs > 2)
        return fn_bad_nargs(c, "1 or 2");
    const type *t = type_phys(c->arg_types[0]);
    if (t->id != T_DATE && t->id != T_DATE32 && t->id != T_DATETIME && t->id != T_DATETIME64)
        return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT,
                       "Illegal type %s of argument of function %s. Should be Date, Date32, DateTime or DateTime64",
                       c->arg_types[0]->name, c->name);
    const tz_info *tz;
    if (c->nargs == 2) {
        size_t len;
        const char *s = type_is_string(c->arg_types[1]) ? fn_const_str(c, 1, &len) : NULL;
        if (!s && type_is_string(c->arg_types[1]))
            return err_set(ERR_ILLEGAL_COLUMN, "Argument at index 1 for function %s must be constant", c->name);
        if (!s)
            return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT,
                           "Function %s supports 1 or 2 arguments. The optional 2nd argument must be a constant string "
                           "with a timezone name",
                           c->name);
        tz = fn_tz_named(s, len);
    } else {
        bool typed = (t->id == T_DATETIME || t->id == T_DATETIME64) && c->arg_types[0]->tz;
        tz = tz_get(typed ? c->arg_types[0]->tz : c->env && c->env->timezone ? c->env->timezone : tz_default_name());
    }
    if (!tz)
        return -1;
    relnum_state *st = xcalloc(1, sizeof *st);
    c->state = st;
    st->tz = tz;
    for (int k = 0; k < (int)(sizeof rel_names / sizeof rel_names[0]); k++)
        if (!strcmp(rel_names[k], c->def->name))
            st->op = k;
    st->off0 = tz_offset_at(tz, 0);
    st->whole_hours = true;
    /* Offsets change at most a few times a year; a daily sample sees every period. */
    for (int64_t s = 0; s <= (int64_t)UINT32_MAX && st->whole_hours; s += 86400)
        st->whole_hours = tz_offset_at(tz, s) % 3600 == 0;
    c->ret = type_simple(st->op == R_YEAR || st->op == R_YEARS_EPOCH ? T_UINT16 : T_UINT32);
    c->exec = relnum_exec;
    return 0;
}

void func_register_relnum(void)
{
    static func_def defs[sizeof rel_names / sizeof rel_names[0]];
    for (size_t i = 0; i < sizeof rel_names / sizeof rel_names[0]; i++) {
        defs[i] = (func_def){rel_names[i], 0, relnum_resolve, free, "number of the year, quarter, … since a fixed point"};
        func_register(&defs[i]);
    }
    func_register_alias("TO_DAYS", "toDaysSinceYearZero");
}
