/* Built-in scalar functions: date family.
 *
 * Every kernel first turns its date/time argument into an int64 vector (local seconds,
 * UTC seconds or DateTime64 ticks, with the switch on the column type outside the row
 * loop), then computes per row. The time zone of a call is, in order: an explicit
 * time-zone argument (a constant string), the DateTime/DateTime64 argument type's zone,
 * the session zone (env->timezone). Date/Date32 values are civil days and need no zone,
 * except when turned into a DateTime.
 *
 * `d + INTERVAL n DAY` has no Interval type here: the analyzer rewrites it into
 * addDays(d, n) (and subtract* for minus). toIntervalSecond..toIntervalYear exist for
 * toStartOfInterval: they return a one-field named tuple Tuple(IntervalDay Int64) (so
 * toTypeName and a bare SELECT INTERVAL 1 DAY print differently from ClickHouse's
 * IntervalDay / 1). Also toWeek/toYearWeek (MySQL week modes), dateTrunc, age and
 * fromUnixTimestamp/FROM_UNIXTIME.
 *
 * Results and overflow follow ClickHouse 26.7 (checked with chdb): start-of functions
 * returning Date saturate to 1970-01-01..2149-06-06; addX/subtractX and conversions from
 * Date32/DateTime64 to narrower types wrap like integer casts; numbers to DateTime saturate. */
#include "func/func.h"

#include "base/err.h"
#include "base/mem.h"
#include "column/datetime.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

/* ---------------------------------------------------------------- helpers */

static const int64_t p10[19] = {1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000, 1000000000,
                                10000000000LL, 100000000000LL, 1000000000000LL, 10000000000000LL,
                                100000000000000LL, 1000000000000000LL, 10000000000000000LL,
                                100000000000000000LL, 1000000000000000000LL};

static int64_t floordiv(int64_t a, int64_t b)
{
    int64_t q = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0)))
        q--;
    return q;
}

static bool is_dt(const type *t) { return t->id == T_DATETIME || t->id == T_DATETIME64; }
static bool is_date(const type *t) { return t->id == T_DATE || t->id == T_DATE32; }

typedef struct dstate {
    const tz_info *tz;
    const char *tzname; /* for result types: explicit or the argument's, else NULL */
    int op;
    int scale;          /* DateTime64 scale of the result / argument */
    int mode;
    char *fmt;          /* formatDateTime: the format string */
} dstate;

static void dstate_free(void *p)
{
    dstate *s = p;
    if (s)
        free(s->fmt);
    free(s);
}

/* Fills st->tz/tzname from argument tz_arg (a constant string) or arg 0's type. */
static int pick_tz(fn_call *call, int tz_arg, dstate *st)
{
    const char *name = NULL;
    size_t n;
    if (tz_arg >= 0 && tz_arg < call->nargs) {
        if (!type_is_string(call->arg_types[tz_arg]))
            return fn_bad_types(call);
        const char *s = fn_const_str(call, tz_arg, &n);
        if (!s)
            return err_set(ERR_ILLEGAL_COLUMN, "Time zone argument of function %s must be a constant string", call->name);
        char *z = xstrndup(s, n);
        st->tz = tz_get(z);
        free(z);
        if (!st->tz)
            return -1;
        st->tzname = tz_name(st->tz);
        return 0;
    }
    if (call->nargs > 0 && is_dt(call->arg_types[0]) && call->arg_types[0]->tz) {
        name = call->arg_types[0]->tz;
        st->tzname = name;
    } else {
        name = call->env && call->env->timezone ? call->env->timezone : tz_default_name();
    }
    st->tz = tz_get(name);
    return st->tz ? 0 : -1;
}

static dstate *new_state(fn_call *call)
{
    dstate *st = xcalloc(1, sizeof *st);
    call->state = st;
    return st;
}

/* UTC seconds of each row of a date/time column (Date: local midnight in tz). */
static void load_utc(const column *c, const tz_info *tz, int64_t *out, size_t rows)
{
    const type *t = type_phys(c->type);
    switch (t->id) {
    case T_DATE:
        for (size_t i = 0; i < rows; i++)
            out[i] = tz_local_to_utc(tz, (int64_t)COL_DATA(c, uint16_t)[col_idx(c, i)] * 86400);
        break;
    case T_DATE32:
        for (size_t i = 0; i < rows; i++)
            out[i] = tz_local_to_utc(tz, (int64_t)COL_DATA(c, int32_t)[col_idx(c, i)] * 86400);
        break;
    case T_DATETIME:
        for (size_t i = 0; i < rows; i++)
            out[i] = COL_DATA(c, uint32_t)[col_idx(c, i)];
        break;
    case T_DATETIME64: {
        int64_t m = p10[t->scale];
        for (size_t i = 0; i < rows; i++)
            out[i] = floordiv(COL_DATA(c, int64_t)[col_idx(c, i)], m);
        break;
    }
    default:
        for (size_t i = 0; i < rows; i++)
            out[i] = col_get_i64(c, col_idx(c, i));
    }
}

/* The start of local day `days` as a DateTime from a Date or DateTime: ClickHouse gives a
 * day that starts before 1970-01-01 00:00 UTC (day 0 east of UTC, the day before day 0 of
 * a DateTime west of it) the start of the first day that does not (Kolkata's day 0 is
 * 1970-01-02 00:00:00, not a wrapped 2106 time). Date32 and DateTime64 wrap instead. */
static int64_t day_start_unsigned(const tz_info *tz, int64_t days)
{
    int64_t r = tz_local_to_utc(tz, days * 86400);
    for (int i = 0; r < 0 && i < 3; i++)
        r = tz_local_to_utc(tz, ++days * 86400);
    return r;
}

/* Local (civil) seconds of each row. */
static void load_local(const column *c, const tz_info *tz, int64_t *out, size_t rows)
{
    const type *t = type_phys(c->type);
    switch (t->id) {
    case T_DATE:
        for (size_t i = 0; i < rows; i++)
            out[i] = (int64_t)COL_DATA(c, uint16_t)[col_idx(c, i)] * 86400;
        break;
    case T_DATE32:
        for (size_t i = 0; i < rows; i++)
            out[i] = (int64_t)COL_DATA(c, int32_t)[col_idx(c, i)] * 86400;
        break;
    default:
        load_utc(c, tz, out, rows);
        for (size_t i = 0; i < rows; i++)
            out[i] += tz_offset_at(tz, out[i]);
    }
}

/* Sub-second ticks at `scale` for DateTime64 (0 for other types). */
static int64_t ticks_frac(const column *c, size_t i, int scale)
{
    const type *t = type_phys(c->type);
    if (t->id != T_DATETIME64)
        return 0;
    int64_t m = p10[t->scale];
    int64_t v = COL_DATA(c, int64_t)[col_idx(c, i)];
    int64_t f = v - floordiv(v, m) * m;
    if (scale >= t->scale)
        return f * p10[scale - t->scale];
    return f / p10[t->scale - scale];
}

/* Writes int64 values into a new column of fixed-width type rt, as an integer cast. */
static column *store(const type *rt, const int64_t *v, size_t rows)
{
    const type *pt = type_phys(rt);
    column *r = col_new_defaults(pt, rows);
    switch (pt->width) {
    case 1:
        for (size_t i = 0; i < rows; i++)
            COL_DATA(r, uint8_t)[i] = (uint8_t)v[i];
        break;
    case 2:
        for (size_t i = 0; i < rows; i++)
            COL_DATA(r, uint16_t)[i] = (uint16_t)v[i];
        break;
    case 4:
        for (size_t i = 0; i < rows; i++)
            COL_DATA(r, uint32_t)[i] = (uint32_t)v[i];
        break;
    default:
        memcpy(r->data.p, v, rows * sizeof *v);
    }
    return r;
}

static int64_t clamp64(int64_t v, int64_t lo, int64_t hi) { return v < lo ? lo : v > hi ? hi : v; }

static void civil(int64_t days, int64_t *y, unsigned *m, unsigned *d) { dt_civil_from_days(days, y, m, d); }

/* ISO 8601 week-numbering year and week of a day number. */
static void iso_week(int64_t days, int64_t *iy, int *wk)
{
    int wd = (int)((days % 7 + 10) % 7); /* Monday = 0 */
    int64_t thursday = days - wd + 3;
    int64_t y;
    unsigned m, d;
    civil(thursday, &y, &m, &d);
    *iy = y;
    *wk = (int)((thursday - dt_days_from_civil(y, 1, 1)) / 7 + 1);
}

static int weekday_mon1(int64_t days) { return (int)((days % 7 + 10) % 7) + 1; } /* Monday = 1 .. Sunday = 7 */

/* ---------------------------------------------------------------- extractors */

enum {
    X_YEAR, X_MONTH, X_DOM, X_DOW, X_DOY, X_HOUR, X_MINUTE, X_SECOND, X_QUARTER, X_YYYYMM, X_YYYYMMDD,
    X_YYYYMMDDHHMMSS, X_ISOWEEK, X_ISOYEAR, X_MILLISECOND, X_UNIXTS,
    /* → Date */
    X_START_MONTH, X_START_YEAR, X_START_QUARTER, X_MONDAY, X_LAST_DOM, X_START_WEEK,
    /* → DateTime */
    X_START_DAY, X_START_HOUR, X_START_MINUTE, X_START_5MIN, X_START_10MIN, X_START_15MIN,
};

static const struct xdef {
    const char *name;
    int op;
    type_id ret;      /* T_DATE / T_DATETIME: see above */
    bool time_only;   /* rejects Date/Date32 */
} xdefs[] = {
    {"toYear", X_YEAR, T_UINT16, false},
    {"toMonth", X_MONTH, T_UINT8, false},
    {"toDayOfMonth", X_DOM, T_UINT8, false},
    {"toDayOfWeek", X_DOW, T_UINT8, false},
    {"toDayOfYear", X_DOY, T_UINT16, false},
    {"toHour", X_HOUR, T_UINT8, true},
    {"toMinute", X_MINUTE, T_UINT8, true},
    {"toSecond", X_SECOND, T_UINT8, true},
    {"toMillisecond", X_MILLISECOND, T_UINT16, true},
    {"toQuarter", X_QUARTER, T_UINT8, false},
    {"toYYYYMM", X_YYYYMM, T_UINT32, false},
    {"toYYYYMMDD", X_YYYYMMDD, T_UINT32, false},
    {"toYYYYMMDDhhmmss", X_YYYYMMDDHHMMSS, T_UINT64, false},
    {"toISOWeek", X_ISOWEEK, T_UINT8, false},
    {"toISOYear", X_ISOYEAR, T_UINT16, false},
    {"toStartOfMonth", X_START_MONTH, T_DATE, false},
    {"toStartOfYear", X_START_YEAR, T_DATE, false},
    {"toStartOfQuarter", X_START_QUARTER, T_DATE, false},
    {"toMonday", X_MONDAY, T_DATE, false},
    {"toLastDayOfMonth", X_LAST_DOM, T_DATE, false},
    {"toStartOfWeek", X_START_WEEK, T_DATE, false},
    {"toStartOfDay", X_START_DAY, T_DATETIME, false},
    {"toStartOfHour", X_START_HOUR, T_DATETIME, true},
    {"toStartOfMinute", X_START_MINUTE, T_DATETIME, true},
    {"toStartOfFiveMinutes", X_START_5MIN, T_DATETIME, true},
    {"toStartOfTenMinutes", X_START_10MIN, T_DATETIME, true},
    {"toStartOfFifteenMinutes", X_START_15MIN, T_DATETIME, true},
};

static const struct xdef *xdef_by_name(const char *name)
{
    for (size_t i = 0; i < sizeof xdefs / sizeof xdefs[0]; i++)
        if (strcasecmp(xdefs[i].name, name) == 0)
            return &xdefs[i];
    return NULL;
}

static int x_exec(const fn_call *call, column **args, size_t rows, column **out)
{
    const dstate *st = call->state;
    int64_t *v = mem_alloc((rows ? rows : 1) * sizeof *v);
    const column *c = args[0];
    int op = st->op;
    if (op == X_UNIXTS) {
        load_utc(c, st->tz, v, rows);
        *out = store(call->ret, v, rows);
        mem_free(v);
        return 0;
    }
    load_local(c, st->tz, v, rows);
    for (size_t i = 0; i < rows; i++) {
        int64_t loc = v[i];
        int64_t days = floordiv(loc, 86400);
        int64_t sod = loc - days * 86400;
        int64_t y;
        unsigned m, d;
        int64_t r = 0;
        switch (op) {
        case X_YEAR: civil(days, &y, &m, &d); r = y; break;
        case X_MONTH: civil(days, &y, &m, &d); r = m; break;
        case X_DOM: civil(days, &y, &m, &d); r = d; break;
        case X_DOW: {
            int w = weekday_mon1(days); /* mode 0 */
            int md = st->mode;
            if (md & 2) /* Sunday first */
                w = w % 7 + 1;
            r = (md & 1) ? w - 1 : w;
            break;
        }
        case X_DOY: civil(days, &y, &m, &d); r = days - dt_days_from_civil(y, 1, 1) + 1; break;
        case X_HOUR: r = sod / 3600; break;
        case X_MINUTE: r = sod / 60 % 60; break;
        case X_SECOND: r = sod % 60; break;
        case X_MILLISECOND: r = ticks_frac(c, i, 3); break;
        case X_QUARTER: civil(days, &y, &m, &d); r = (m - 1) / 3 + 1; break;
        case X_YYYYMM: civil(days, &y, &m, &d); r = y * 100 + m; break;
        case X_YYYYMMDD: civil(days, &y, &m, &d); r = y * 10000 + m * 100 + d; break;
        case X_YYYYMMDDHHMMSS:
            civil(days, &y, &m, &d);
            r = (y * 10000 + m * 100 + d) * 1000000 + sod / 3600 * 10000 + sod / 60 % 60 * 100 + sod % 60;
            break;
        case X_ISOWEEK: {
            int wk;
            iso_week(days, &y, &wk);
            r = wk;
            break;
        }
        case X_ISOYEAR: {
            int wk;
            iso_week(days, &y, &wk);
            r = y;
            break;
        }
        case X_START_MONTH: civil(days, &y, &m, &d); r = days - d + 1; break;
        case X_START_YEAR: civil(days, &y, &m, &d); r = dt_days_from_civil(y, 1, 1); break;
        case X_START_QUARTER: civil(days, &y, &m, &d); r = dt_days_from_civil(y, (m - 1) / 3 * 3 + 1, 1); break;
        case X_MONDAY: r = days - (weekday_mon1(days) - 1); break;
        case X_START_WEEK:
            r = (st->mode & 1) ? days - (weekday_mon1(days) - 1) : days - weekday_mon1(days) % 7;
            break;
        case X_LAST_DOM: {
            civil(days, &y, &m, &d);
            unsigned nm = m == 12 ? 1 : m + 1;
            r = dt_days_from_civil(m == 12 ? y + 1 : y, nm, 1) - 1;
            break;
        }
        case X_START_DAY: r = tz_local_to_utc(st->tz, days * 86400); break;
        case X_START_HOUR: r = tz_local_to_utc(st->tz, loc - sod % 3600); break;
        case X_START_MINUTE: r = tz_local_to_utc(st->tz, loc - sod % 60); break;
        case X_START_5MIN: r = tz_local_to_utc(st->tz, loc - sod % 300); break;
        case X_START_10MIN: r = tz_local_to_utc(st->tz, loc - sod % 600); break;
        case X_START_15MIN: r = tz_local_to_utc(st->tz, loc - sod % 900); break;
        }
        /* toLastDayOfMonth of a Date in June 2149 wraps as ClickHouse's (1970-01-24). */
        if (op == X_LAST_DOM && type_phys(c->type)->id == T_DATE)
            r = (uint16_t)r;
        else if (op >= X_START_MONTH && op <= X_START_WEEK)
            r = clamp64(r, 0, 65535);
        else if (op >= X_START_DAY && type_phys(c->type)->id == T_DATETIME64)
            r = (uint32_t)r; /* a DateTime64 out of DateTime's range wraps, as ClickHouse's cast */
        else if (op == X_START_DAY && r < 0)
            r = day_start_unsigned(st->tz, days);
        else if (op >= X_START_DAY)
            r = clamp64(r, 0, UINT32_MAX);
        v[i] = r;
    }
    *out = store(call->ret, v, rows);
    mem_free(v);
    return 0;
}

static int x_resolve(fn_call *call)
{
    const struct xdef *xd = xdef_by_name(call->def->name);
    bool has_mode = xd->op == X_DOW || xd->op == X_START_WEEK;
    int maxargs = has_mode ? 3 : 2;
    if (call->nargs < 1 || call->nargs > maxargs)
        return fn_bad_nargs(call, has_mode ? "1, 2 or 3" : "1 or 2");
    const type *t = call->arg_types[0];
    if (!is_date(t) && !is_dt(t))
        return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type %s of argument of function %s. Should be Date, Date32, DateTime or DateTime64",
                       t->name, call->name);
    if (xd->time_only && is_date(t))
        return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type %s of argument of function %s", t->name, call->name);
    dstate *st = new_state(call);
    st->op = xd->op;
    int tz_arg = -1;
    if (has_mode && call->nargs >= 2) {
        int64_t md;
        if (fn_const_int(call, 1, &md) < 0)
            return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type %s of second argument (mode) of function %s. Must be a constant integer",
                           call->arg_types[1]->name, call->name);
        st->mode = (int)md;
        if (call->nargs == 3)
            tz_arg = 2;
    } else if (!has_mode && call->nargs == 2) {
        tz_arg = 1;
    }
    if (pick_tz(call, tz_arg, st) < 0)
        return -1;
    if (xd->ret == T_DATE)
        call->ret = type_simple(T_DATE);
    else if (xd->ret == T_DATETIME)
        call->ret = type_datetime(is_dt(t) || tz_arg >= 0 ? st->tzname : NULL);
    else
        call->ret = type_simple(xd->ret);
    if (xd->op == X_UNIXTS)
        call->ret = type_simple(T_UINT32);
    call->exec = x_exec;
    return 0;
}

static int unixts_resolve(fn_call *call)
{
    if (call->nargs < 1 || call->nargs > 2)
        return fn_bad_nargs(call, "1 or 2");
    const type *t = call->arg_types[0];
    if (!is_date(t) && !is_dt(t) && !type_is_string(t))
        return fn_bad_types(call);
    dstate *st = new_state(call);
    st->op = X_UNIXTS;
    if (pick_tz(call, call->nargs == 2 ? 1 : -1, st) < 0)
        return -1;
    call->ret = type_simple(T_UINT32);
    call->exec = x_exec;
    if (type_is_string(t))
        call->exec = NULL; /* set below */
    return 0;
}

/* ---------------------------------------------------------------- conversions */

enum { C_DATE, C_DATE32, C_DATETIME, C_DATETIME64 };

static bool dig2(const char *s) { return s[0] >= '0' && s[0] <= '9' && s[1] >= '0' && s[1] <= '9'; }

/* YYYY-MM-DD (optionally followed by a time) whose month or day is out of range. */
static bool bad_ymd(const char *s, size_t n)
{
    if (n < 10 || (n > 10 && s[10] != ' ' && s[10] != 'T') || !dig2(s) || !dig2(s + 2) || !dig2(s + 5) ||
        !dig2(s + 8) || s[4] != s[7] || (s[4] != '-' && s[4] != '/'))
        return false;
    int m = (s[5] - '0') * 10 + (s[6] - '0'), d = (s[8] - '0') * 10 + (s[9] - '0');
    return m < 1 || m > 12 || d < 1 || d > 31;
}

/* Parses every string row as the target; errors name the value. */
static int conv_from_string(const fn_call *call, const column *c, size_t rows, int target, int64_t *v)
{
    const dstate *st = call->state;
    for (size_t i = 0; i < rows; i++) {
        size_t n;
        const char *s = col_str(c, i, &n);
        int rc;
        if ((target == C_DATE || target == C_DATE32) && bad_ymd(s, n)) {
            /* ClickHouse reads YYYY-MM-DD with a month outside 1..12 or a day outside
             * 1..31 as the type's default (a day past the month's end rolls over). */
            v[i] = target == C_DATE ? 0 : -25567;
            continue;
        }
        if (target == C_DATE || target == C_DATE32) {
            rc = dt_parse_date(s, n, &v[i]);
            if (rc < 0 && n > 10 && (s[10] == ' ' || s[10] == 'T')) {
                int64_t secs;
                rc = dt_parse_date(s, 10, &v[i]);
                if (rc == 0) {
                    rc = dt_parse_datetime(s, n, NULL, false, &secs);
                    if (rc < 0) {
                        rc = dt_parse_date(s, n, &v[i]); /* report the Date error */
                    }
                }
            }
            if (rc == 0)
                v[i] = target == C_DATE ? clamp64(v[i], 0, 65535) : clamp64(v[i], -25567, 120529);
        } else if (target == C_DATETIME) {
            rc = dt_parse_datetime(s, n, st->tz, false, &v[i]);
            if (rc < 0)
                err_suffix(": Cannot parse DateTime from String");
        } else {
            rc = dt_parse_datetime64(s, n, st->scale, st->tz, false, &v[i]);
            if (rc < 0)
                err_suffix(": Cannot parse DateTime64(%d) from String", st->scale);
        }
        if (rc < 0)
            return -1;
    }
    return 0;
}

static int conv_exec(const fn_call *call, column **args, size_t rows, column **out)
{
    const dstate *st = call->state;
    int target = st->op;
    const column *c = args[0];
    const type *t = type_phys(c->type);
    int64_t *v = mem_alloc((rows ? rows : 1) * sizeof *v);
    int rc = 0;
    if (type_is_string(t)) {
        rc = conv_from_string(call, c, rows, target, v);
    } else if (type_is_number(t) || type_is_wide(t)) {
        bool fl = type_is_float(t);
        int64_t mul = target == C_DATETIME64 ? p10[st->scale] : 1;
        for (size_t i = 0; i < rows; i++) {
            double f = fl ? col_get_f64(c, col_idx(c, i)) : 0;
            int64_t x;
            if (fl) {
                if (isnan(f))
                    f = 0;
                if (target == C_DATETIME64) {
                    double p = f * (double)mul;
                    x = p >= 9.2e18 ? INT64_MAX : p <= -9.2e18 ? INT64_MIN : (int64_t)llround(p);
                    v[i] = x;
                    continue;
                }
                x = f >= 9.2e18 ? INT64_MAX : f <= -9.2e18 ? INT64_MIN : (int64_t)f;
            } else if (type_is_wide(t)) { /* 256-bit: saturated to Int64, like the floats */
                i256 w = col_get_i256(c, i);
                bool neg = t->id == T_INT256 && i256_is_neg(w);
                bool fits = neg ? i256_cmp_s(w, i256_from_i64(INT64_MIN)) >= 0
                                : i256_cmp_u(w, i256_from_i64(INT64_MAX)) <= 0;
                x = fits ? (int64_t)w.w[0] : neg ? INT64_MIN : INT64_MAX;
            } else if (type_is_signed(t)) {
                x = col_get_i64(c, col_idx(c, i));
            } else {
                uint64_t u = col_get_u64(c, col_idx(c, i));
                x = u > INT64_MAX ? INT64_MAX : (int64_t)u;
            }
            switch (target) {
            case C_DATE:
                /* Small values are day numbers, larger ones unix timestamps. */
                if (x <= 65535)
                    v[i] = x < 0 ? 0 : x;
                else
                    v[i] = floordiv(clamp64(x, 0, UINT32_MAX) + tz_offset_at(st->tz, clamp64(x, 0, UINT32_MAX)), 86400);
                break;
            case C_DATE32:
                /* a unix time is capped at 2299-12-31 23:59:59 (ClickHouse's MAX_DT64_TIMESTAMP) */
                if (x <= 120529)
                    v[i] = x < -25567 ? -25567 : x;
                else
                    v[i] = floordiv(clamp64(x, 0, 10413791999) + tz_offset_at(st->tz, clamp64(x, 0, 10413791999)), 86400);
                break;
            case C_DATETIME: v[i] = clamp64(x, 0, UINT32_MAX); break;
            default:
                v[i] = (x > INT64_MAX / mul) ? INT64_MAX : (x < INT64_MIN / mul) ? INT64_MIN : x * mul;
            }
        }
    } else {
        /* date/time → date/time */
        if (target == C_DATE || target == C_DATE32) {
            load_local(c, st->tz, v, rows);
            for (size_t i = 0; i < rows; i++)
                v[i] = floordiv(v[i], 86400);
            if (target == C_DATE32 && t->id == T_DATETIME64)
                for (size_t i = 0; i < rows; i++)
                    v[i] = clamp64(v[i], -25567, 120529);
        } else {
            load_utc(c, st->tz, v, rows);
            if (target == C_DATETIME && t->id == T_DATE)
                for (size_t i = 0; i < rows; i++)
                    if (v[i] < 0)
                        v[i] = day_start_unsigned(st->tz, COL_DATA(c, uint16_t)[col_idx(c, i)]);
            if (target == C_DATETIME64) {
                int64_t mul = p10[st->scale];
                for (size_t i = 0; i < rows; i++)
                    v[i] = v[i] * mul + ticks_frac(c, i, st->scale);
            }
        }
    }
    if (rc == 0)
        *out = store(call->ret, v, rows);
    mem_free(v);
    return rc;
}

static int conv_resolve(fn_call *call)
{
    const char *nm = call->def->name;
    int target = strcasecmp(nm, "toDate") == 0 ? C_DATE : strcasecmp(nm, "toDate32") == 0 ? C_DATE32
               : strcasecmp(nm, "toDateTime64") == 0 ? C_DATETIME64 : C_DATETIME;
    dstate *st = new_state(call);
    st->op = target;
    int tz_arg = -1;
    if (target == C_DATETIME64) {
        if (call->nargs < 2 || call->nargs > 3)
            return fn_bad_nargs(call, "2 or 3");
        int64_t sc;
        if (fn_const_int(call, 1, &sc) < 0)
            return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "Second argument for function %s must be a constant integer (scale)", call->name);
        if (sc < 0 || sc > 9)
            return err_set(ERR_ARGUMENT_OUT_OF_BOUND, "Scale %lld for function %s is out of bounds (max 9)", (long long)sc, call->name);
        st->scale = (int)sc;
        if (call->nargs == 3)
            tz_arg = 2;
    } else {
        if (call->nargs < 1 || call->nargs > 2)
            return fn_bad_nargs(call, "1 or 2");
        if (call->nargs == 2)
            tz_arg = 1;
    }
    const type *t = call->arg_types[0];
    if (!type_is_string(t) && !type_is_number(t) && !is_date(t) && !is_dt(t) && !type_is_wide(t))
        return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type %s of first argument of function %s", t->name, call->name);
    if (type_is_decimal(t) || t->id == T_DECIMAL256)
        return err_set(ERR_NOT_IMPLEMENTED, "Conversion from %s in function %s is not supported", t->name, call->name);
    if (pick_tz(call, tz_arg, st) < 0)
        return -1;
    const char *rtz = tz_arg >= 0 || is_dt(t) ? st->tzname : NULL;
    switch (target) {
    case C_DATE: call->ret = type_simple(T_DATE); break;
    case C_DATE32: call->ret = type_simple(T_DATE32); break;
    case C_DATETIME: call->ret = type_datetime(rtz); break;
    default: call->ret = type_datetime64(st->scale, rtz);
    }
    call->exec = conv_exec;
    return 0;
}

/* toUnixTimestamp(String[, tz]) parses first. */
static int unixts_str_exec(const fn_call *call, column **args, size_t rows, column **out)
{
    const dstate *st = call->state;
    int64_t *v = mem_alloc((rows ? rows : 1) * sizeof *v);
    for (size_t i = 0; i < rows; i++) {
        size_t n;
        const char *s = col_str(args[0], i, &n);
        if (dt_parse_datetime(s, n, st->tz, false, &v[i]) < 0) {
            mem_free(v);
            return err_suffix(": Cannot parse DateTime from String");
        }
    }
    *out = store(call->ret, v, rows);
    mem_free(v);
    return 0;
}

static int unixts_resolve2(fn_call *call)
{
    if (unixts_resolve(call) < 0)
        return -1;
    if (!call->exec)
        call->exec = unixts_str_exec;
    return 0;
}

/* ---------------------------------------------------------------- best effort parsing */

enum { BE_THROW, BE_NULL, BE_ZERO };

static int be_exec(const fn_call *call, column **args, size_t rows, column **out)
{
    const dstate *st = call->state;
    bool is64 = st->op & 4;
    int mode = st->op & 3;
    const type *vt = is64 ? type_datetime64(st->scale, st->tzname) : type_datetime(st->tzname);
    int64_t *v = mem_alloc((rows ? rows : 1) * sizeof *v);
    uint8_t *nulls = mode == BE_NULL ? mem_calloc(rows ? rows : 1) : NULL;
    for (size_t i = 0; i < rows; i++) {
        size_t n;
        const char *s = col_str(args[0], i, &n);
        int rc = is64 ? dt_parse_datetime64(s, n, st->scale, st->tz, true, &v[i]) : dt_parse_datetime(s, n, st->tz, true, &v[i]);
        if (rc < 0) {
            if (mode == BE_THROW) {
                mem_free(v);
                return err_suffix(": Cannot parse DateTime from String");
            }
            v[i] = 0;
            if (nulls)
                nulls[i] = 1;
        }
    }
    column *r = store(vt, v, rows);
    mem_free(v);
    if (nulls) {
        column *w = col_new(type_nullable(vt));
        col_free(w->inner);
        w->inner = r;
        buf_append(&w->nulls, nulls, rows);
        w->len = rows;
        mem_free(nulls);
        r = w;
    }
    *out = r;
    return 0;
}

static int be_resolve(fn_call *call)
{
    const char *nm = call->def->name;
    bool is64 = strncasecmp(nm, "parseDateTime64", 15) == 0;
    int mode = strstr(nm, "OrNull") ? BE_NULL : strstr(nm, "OrZero") ? BE_ZERO : BE_THROW;
    dstate *st = new_state(call);
    st->op = (is64 ? 4 : 0) | mode;
    int tz_arg = -1;
    if (is64) {
        st->scale = 3;
        if (call->nargs < 1 || call->nargs > 3)
            return fn_bad_nargs(call, "1, 2 or 3");
        if (call->nargs >= 2) {
            int64_t sc;
            if (fn_const_int(call, 1, &sc) < 0 || sc < 0 || sc > 9)
                return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "Second argument of function %s must be a constant scale from 0 to 9", call->name);
            st->scale = (int)sc;
        }
        if (call->nargs == 3)
            tz_arg = 2;
    } else {
        if (call->nargs < 1 || call->nargs > 2)
            return fn_bad_nargs(call, "1 or 2");
        if (call->nargs == 2)
            tz_arg = 1;
    }
    if (!type_is_string(call->arg_types[0]))
        return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type %s of first argument of function %s. Must be String.",
                       call->arg_types[0]->name, call->name);
    if (pick_tz(call, tz_arg, st) < 0)
        return -1;
    if (tz_arg < 0)
        st->tzname = NULL;
    const type *vt = is64 ? type_datetime64(st->scale, st->tzname) : type_datetime(st->tzname);
    call->ret = mode == BE_NULL ? type_nullable(vt) : vt;
    call->exec = be_exec;
    return 0;
}

/* ---------------------------------------------------------------- arithmetic */

enum { U_NANO, U_MICRO, U_MILLI, U_SECOND, U_MINUTE, U_HOUR, U_DAY, U_WEEK, U_MONTH, U_QUARTER, U_YEAR };

static int unit_by_name(const char *s, size_t n)
{
    static const struct {
        const char *n;
        int u;
    } names[] = {
        {"nanosecond", U_NANO}, {"nanoseconds", U_NANO}, {"ns", U_NANO},
        {"microsecond", U_MICRO}, {"microseconds", U_MICRO}, {"us", U_MICRO}, {"u", U_MICRO},
        {"millisecond", U_MILLI}, {"milliseconds", U_MILLI}, {"ms", U_MILLI},
        {"second", U_SECOND}, {"seconds", U_SECOND}, {"ss", U_SECOND}, {"s", U_SECOND},
        {"minute", U_MINUTE}, {"minutes", U_MINUTE}, {"mi", U_MINUTE}, {"n", U_MINUTE},
        {"hour", U_HOUR}, {"hours", U_HOUR}, {"hh", U_HOUR}, {"h", U_HOUR},
        {"day", U_DAY}, {"days", U_DAY}, {"dd", U_DAY}, {"d", U_DAY},
        {"week", U_WEEK}, {"weeks", U_WEEK}, {"wk", U_WEEK}, {"ww", U_WEEK},
        {"month", U_MONTH}, {"months", U_MONTH}, {"mm", U_MONTH}, {"m", U_MONTH},
        {"quarter", U_QUARTER}, {"quarters", U_QUARTER}, {"qq", U_QUARTER}, {"q", U_QUARTER},
        {"year", U_YEAR}, {"years", U_YEAR}, {"yyyy", U_YEAR}, {"yy", U_YEAR},
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strlen(names[i].n) == n && strncasecmp(names[i].n, s, n) == 0)
            return names[i].u;
    return -1;
}

/* Adds `months` to a civil date, clamping the day to the new month's length. */
static int64_t add_months_days(int64_t days, int64_t months)
{
    int64_t y;
    unsigned m, d;
    civil(days, &y, &m, &d);
    int64_t mi = y * 12 + (m - 1) + months;
    int64_t ny = floordiv(mi, 12);
    unsigned nm = (unsigned)(mi - ny * 12) + 1;
    unsigned nm1 = nm == 12 ? 1 : nm + 1;
    unsigned dim = (unsigned)(dt_days_from_civil(nm == 12 ? ny + 1 : ny, nm1, 1) - dt_days_from_civil(ny, nm, 1));
    return dt_days_from_civil(ny, nm, d > dim ? dim : d);
}

static int add_exec(const fn_call *call, column **args, size_t rows, column **out)
{
    const dstate *st = call->state;
    int unit = st->op;
    int sign = st->mode; /* +1 or -1 */
    const column *c = args[0], *nc = args[1];
    const type *t = type_phys(c->type), *rt = type_phys(call->ret);
    int64_t *v = mem_alloc((rows ? rows : 1) * sizeof *v);
    bool nfloat = type_is_float(nc->type);
    if (rt->id == T_DATE || rt->id == T_DATE32) {
        /* date + calendar units */
        load_local(c, st->tz, v, rows);
        for (size_t i = 0; i < rows; i++) {
            int64_t n = nfloat ? (int64_t)col_get_f64(nc, col_idx(nc, i)) : col_get_i64(nc, col_idx(nc, i));
            n *= sign;
            int64_t days = floordiv(v[i], 86400);
            switch (unit) {
            case U_DAY: days += n; break;
            case U_WEEK: days += n * 7; break;
            case U_MONTH: days = add_months_days(days, n); break;
            case U_QUARTER: days = add_months_days(days, n * 3); break;
            default: days = add_months_days(days, n * 12); break;
            }
            /* As ClickHouse: a Date moved by months before 1970 stays at 1970-01-01 (days
             * and weeks wrap, as do months past 2149). */
            if (rt->id == T_DATE && unit >= U_MONTH && days < 0)
                days = 0;
            v[i] = days;
        }
    } else {
        /* result is DateTime or DateTime64 with scale rs: work in ticks */
        int rs = rt->id == T_DATETIME64 ? rt->scale : 0;
        int64_t mul = p10[rs];
        int64_t *utc = v;
        load_utc(c, st->tz, utc, rows);
        for (size_t i = 0; i < rows; i++) {
            int64_t n = nfloat ? (int64_t)col_get_f64(nc, col_idx(nc, i)) : col_get_i64(nc, col_idx(nc, i));
            n *= sign;
            int64_t secs = utc[i];
            int64_t frac = ticks_frac(c, i, rs);
            int64_t ticks;
            if (unit <= U_HOUR) {
                static const int64_t per[] = {0, 0, 0, 1, 60, 3600};
                if (unit >= U_SECOND) {
                    ticks = (secs + n * per[unit]) * mul + frac;
                } else {
                    int us = unit == U_NANO ? 9 : unit == U_MICRO ? 6 : 3;
                    /* n is in 10^-us s; the result scale is at least us */
                    ticks = secs * mul + frac + n * p10[rs - us];
                }
            } else {
                int64_t loc = secs + tz_offset_at(st->tz, secs);
                int64_t days = floordiv(loc, 86400), sod = loc - days * 86400;
                switch (unit) {
                case U_DAY: days += n; break;
                case U_WEEK: days += n * 7; break;
                case U_MONTH: days = add_months_days(days, n); break;
                case U_QUARTER: days = add_months_days(days, n * 3); break;
                default: days = add_months_days(days, n * 12); break;
                }
                ticks = tz_local_to_utc(st->tz, days * 86400 + sod) * mul + frac;
            }
            v[i] = ticks;
        }
    }
    (void)t;
    *out = store(call->ret, v, rows);
    mem_free(v);
    return 0;
}

static int add_setup(fn_call *call, int unit, int sign, int date_arg, int n_arg)
{
    const type *t = call->arg_types[date_arg];
    if (!is_date(t) && !is_dt(t))
        return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type %s of first argument of function %s. Should be a date or a date with time",
                       t->name, call->name);
    if (!type_is_number(call->arg_types[n_arg]) || type_is_decimal(call->arg_types[n_arg]))
        return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type %s of second argument of function %s. Should be a number",
                       call->arg_types[n_arg]->name, call->name);
    dstate *st = new_state(call);
    st->op = unit;
    st->mode = sign;
    if (pick_tz(call, -1, st) < 0)
        return -1;
    const char *rtz = is_dt(t) ? t->tz : NULL;
    if (unit >= U_DAY) {
        call->ret = is_date(t) ? type_simple(t->id) : t;
    } else if (unit >= U_SECOND) {
        if (t->id == T_DATETIME64)
            call->ret = t;
        else if (t->id == T_DATE32)
            call->ret = type_datetime64(0, NULL);
        else
            call->ret = type_datetime(rtz);
    } else {
        int us = unit == U_NANO ? 9 : unit == U_MICRO ? 6 : 3;
        int sc = t->id == T_DATETIME64 && t->scale > us ? t->scale : us;
        call->ret = type_datetime64(sc, rtz);
    }
    call->exec = add_exec;
    return 0;
}

static const struct {
    const char *name;
    int unit;
    int sign;
} add_names[] = {
    {"addNanoseconds", U_NANO, 1}, {"addMicroseconds", U_MICRO, 1}, {"addMilliseconds", U_MILLI, 1},
    {"addSeconds", U_SECOND, 1}, {"addMinutes", U_MINUTE, 1}, {"addHours", U_HOUR, 1}, {"addDays", U_DAY, 1},
    {"addWeeks", U_WEEK, 1}, {"addMonths", U_MONTH, 1}, {"addQuarters", U_QUARTER, 1}, {"addYears", U_YEAR, 1},
    {"subtractNanoseconds", U_NANO, -1}, {"subtractMicroseconds", U_MICRO, -1}, {"subtractMilliseconds", U_MILLI, -1},
    {"subtractSeconds", U_SECOND, -1}, {"subtractMinutes", U_MINUTE, -1}, {"subtractHours", U_HOUR, -1},
    {"subtractDays", U_DAY, -1}, {"subtractWeeks", U_WEEK, -1}, {"subtractMonths", U_MONTH, -1},
    {"subtractQuarters", U_QUARTER, -1}, {"subtractYears", U_YEAR, -1},
};

static int add_resolve(fn_call *call)
{
    if (call->nargs != 2)
        return fn_bad_nargs(call, "2");
    for (size_t i = 0; i < sizeof add_names / sizeof add_names[0]; i++)
        if (strcasecmp(add_names[i].name, call->def->name) == 0)
            return add_setup(call, add_names[i].unit, add_names[i].sign, 0, 1);
    return err_set(ERR_LOGICAL_ERROR, "Unknown date arithmetic function %s", call->name);
}

/* dateAdd('unit', n, date) / dateSub: the kernel sees (unit, n, date); reorder. */
static int dateadd_exec(const fn_call *call, column **args, size_t rows, column **out)
{
    column *a2[2] = {args[2], args[1]};
    return add_exec(call, a2, rows, out);
}

static int dateadd_resolve(fn_call *call)
{
    if (call->nargs != 3)
        return fn_bad_nargs(call, "3");
    size_t n;
    const char *u = fn_const_str(call, 0, &n);
    if (!u)
        return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "First argument for function %s (unit) must be a constant string", call->name);
    int unit = unit_by_name(u, n);
    if (unit < 0)
        return err_set(ERR_BAD_ARGUMENTS, "Function %s does not support '%.*s' unit", call->name, (int)n, u);
    int sign = strncasecmp(call->def->name, "dateSub", 7) == 0 ? -1 : 1;
    /* add_setup reads arg types 0 and 1: present the date first */
    const type *saved[3] = {call->arg_types[0], call->arg_types[1], call->arg_types[2]};
    const type **at = (const type **)call->arg_types;
    at[0] = saved[2];
    int rc = add_setup(call, unit, sign, 0, 1);
    at[0] = saved[0];
    if (rc < 0)
        return -1;
    call->exec = dateadd_exec;
    return 0;
}

/* dateDiff('unit', a, b[, tz]): boundaries of `unit` crossed from a to b. */
static int datediff_exec(const fn_call *call, column **args, size_t rows, column **out)
{
    const dstate *st = call->state;
    int unit = st->op;
    const column *a = args[1], *b = args[2];
    int64_t *va = mem_alloc((rows ? rows : 1) * sizeof *va);
    int64_t *vb = mem_alloc((rows ? rows : 1) * sizeof *vb);
    if (unit <= U_SECOND) {
        load_utc(a, st->tz, va, rows);
        load_utc(b, st->tz, vb, rows);
        int sc = unit == U_NANO ? 9 : unit == U_MICRO ? 6 : unit == U_MILLI ? 3 : 0;
        for (size_t i = 0; i < rows; i++)
            va[i] = (vb[i] - va[i]) * p10[sc] + ticks_frac(b, i, sc) - ticks_frac(a, i, sc);
    } else {
        load_local(a, st->tz, va, rows);
        load_local(b, st->tz, vb, rows);
        for (size_t i = 0; i < rows; i++) {
            int64_t x = va[i], y = vb[i], r;
            int64_t dx = floordiv(x, 86400), dy = floordiv(y, 86400);
            switch (unit) {
            case U_MINUTE: r = floordiv(y, 60) - floordiv(x, 60); break;
            case U_HOUR: r = floordiv(y, 3600) - floordiv(x, 3600); break;
            case U_DAY: r = dy - dx; break;
            case U_WEEK: r = floordiv(dy + 3, 7) - floordiv(dx + 3, 7); break; /* weeks start on Monday */
            default: {
                int64_t y1, y2;
                unsigned m1, m2, d1, d2;
                civil(dx, &y1, &m1, &d1);
                civil(dy, &y2, &m2, &d2);
                if (unit == U_MONTH)
                    r = (y2 * 12 + m2) - (y1 * 12 + m1);
                else if (unit == U_QUARTER)
                    r = (y2 * 4 + (m2 - 1) / 3) - (y1 * 4 + (m1 - 1) / 3);
                else
                    r = y2 - y1;
            }
            }
            va[i] = r;
        }
    }
    *out = store(call->ret, va, rows);
    mem_free(va);
    mem_free(vb);
    return 0;
}

static int datediff_resolve(fn_call *call)
{
    if (call->nargs < 3 || call->nargs > 4)
        return fn_bad_nargs(call, "3 or 4");
    size_t n;
    const char *u = fn_const_str(call, 0, &n);
    if (!u)
        return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "First argument for function %s (unit) must be a constant string", call->name);
    int unit = unit_by_name(u, n);
    if (unit < 0)
        return err_set(ERR_BAD_ARGUMENTS, "Function %s does not support '%.*s' unit", call->name, (int)n, u);
    for (int i = 1; i <= 2; i++)
        if (!is_date(call->arg_types[i]) && !is_dt(call->arg_types[i]))
            return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type %s of argument %d of function %s. Should be a date or a date with time",
                           call->arg_types[i]->name, i + 1, call->name);
    dstate *st = new_state(call);
    st->op = unit;
    /* zone: explicit, else the first DateTime argument's, else the session's */
    if (call->nargs == 4) {
        if (pick_tz(call, 3, st) < 0)
            return -1;
    } else {
        const char *z = is_dt(call->arg_types[1]) && call->arg_types[1]->tz ? call->arg_types[1]->tz
                      : is_dt(call->arg_types[2]) && call->arg_types[2]->tz ? call->arg_types[2]->tz
                      : call->env && call->env->timezone ? call->env->timezone : tz_default_name();
        st->tz = tz_get(z);
        if (!st->tz)
            return -1;
    }
    call->ret = type_simple(T_INT64);
    call->exec = datediff_exec;
    return 0;
}

/* ---------------------------------------------------------------- now, today, zones */

static int now_exec(const fn_call *call, column **args, size_t rows, column **out)
{
    const dstate *st = call->state;
    int64_t t = call->env ? call->env->query_start : (int64_t)time(NULL);
    int64_t v;
    switch (st->op) {
    case 0: v = t; break;                                      /* now */
    case 1: v = floordiv(t + tz_offset_at(st->tz, t), 86400); break; /* today */
    case 2: v = floordiv(t + tz_offset_at(st->tz, t), 86400) - 1; break;
    default: {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        int64_t ns = (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
        v = floordiv(ns, p10[9 - st->scale]);
    }
    }
    column *one = store(call->ret, &v, 1);
    *out = col_new_const(one, rows);
    return 0;
}

static int now_resolve(fn_call *call)
{
    const char *nm = call->def->name;
    dstate *st = new_state(call);
    int tz_arg = -1;
    if (strcasecmp(nm, "now") == 0 || strcasecmp(nm, "current_timestamp") == 0) {
        st->op = 0;
        if (call->nargs > 1)
            return fn_bad_nargs(call, "0 or 1");
        tz_arg = call->nargs == 1 ? 0 : -1;
    } else if (strcasecmp(nm, "now64") == 0) {
        st->op = 3;
        st->scale = 3;
        if (call->nargs > 2)
            return fn_bad_nargs(call, "0, 1 or 2");
        if (call->nargs >= 1) {
            int64_t sc;
            if (fn_const_int(call, 0, &sc) < 0 || sc < 0 || sc > 9)
                return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "Argument of function %s must be a constant scale from 0 to 9", call->name);
            st->scale = (int)sc;
        }
        tz_arg = call->nargs == 2 ? 1 : -1;
    } else {
        st->op = strcasecmp(nm, "yesterday") == 0 ? 2 : 1;
        if (call->nargs != 0)
            return fn_bad_nargs(call, "0");
    }
    if (pick_tz(call, tz_arg, st) < 0)
        return -1;
    const char *rtz = tz_arg >= 0 ? st->tzname : NULL;
    call->ret = st->op == 0 ? type_datetime(rtz) : st->op == 3 ? type_datetime64(st->scale, rtz) : type_simple(T_DATE);
    call->exec = now_exec;
    return 0;
}

static int timezone_exec(const fn_call *call, column **args, size_t rows, column **out)
{
    const char *z = call->env && call->env->timezone ? call->env->timezone : tz_default_name();
    column *one = col_new(type_simple(T_STRING));
    col_push_str(one, z, strlen(z));
    *out = col_new_const(one, rows);
    return 0;
}

static int timezone_resolve(fn_call *call)
{
    if (call->nargs != 0)
        return fn_bad_nargs(call, "0");
    call->ret = type_simple(T_STRING);
    call->exec = timezone_exec;
    return 0;
}

/* timeZoneOf(dt): the time zone of its argument's type (the session's when the type has
 * none), a constant. */
static int tzof_exec(const fn_call *call, column **args, size_t rows, column **out)
{
    (void)args;
    const char *z = call->arg_types[0]->tz;
    if (!z)
        z = call->env && call->env->timezone ? call->env->timezone : tz_default_name();
    column *one = col_new(type_simple(T_STRING));
    col_push_str(one, z, strlen(z));
    *out = col_new_const(one, rows);
    return 0;
}

static int tzof_resolve(fn_call *call)
{
    if (call->nargs != 1)
        return fn_bad_nargs(call, "1");
    if (!is_dt(call->arg_types[0]))
        return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT,
                       "A value of illegal type was provided as 1st argument 'datetime' to function '%s'. Expected: "
                       "DateTime or DateTime64, got: %s",
                       call->name, call->arg_types[0]->name);
    call->ret = type_simple(T_STRING);
    call->exec = tzof_exec;
    return 0;
}

static int totz_exec(const fn_call *call, column **args, size_t rows, column **out)
{
    column *r = col_materialize(col_ref(args[0]));
    if (r->refs > 1) {
        column *cl = col_clone(r);
        col_free(r);
        r = cl;
    }
    *out = r;
    return 0;
}

static int totz_resolve(fn_call *call)
{
    if (call->nargs != 2)
        return fn_bad_nargs(call, "2");
    const type *t = call->arg_types[0];
    if (!is_dt(t))
        return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type %s of argument of function %s. Should be DateTime or DateTime64",
                       t->name, call->name);
    dstate *st = new_state(call);
    if (pick_tz(call, 1, st) < 0)
        return -1;
    call->ret = t->id == T_DATETIME ? type_datetime(st->tzname) : type_datetime64(t->scale, st->tzname);
    call->exec = totz_exec;
    return 0;
}

/* ---------------------------------------------------------------- formatDateTime */

static const char *const month_full[12] = {"January", "February", "March", "April", "May", "June", "July",
                                           "August", "September", "October", "November", "December"};
static const char *const wday_full[7] = {"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"};

static int fmt_check(const fn_call *call, const char *f, size_t n, bool has_time)
{
    for (size_t i = 0; i < n; i++) {
        if (f[i] != '%')
            continue;
        if (i + 1 >= n)
            return err_set(ERR_BAD_ARGUMENTS, "Incorrect syntax '%.*s', symbol is not supported '%%' for function %s", (int)n, f, call->name);
        char c = f[++i];
        if (strchr("abcCdDeFfgGhHiIjklmMnpQrRsStTuVwWyYz%", c) == NULL) {
            if (strchr("UvxX", c))
                return err_set(ERR_NOT_IMPLEMENTED, "format is not supported for %s",
                               c == 'U' ? "WEEK (Sun-Sat)" : c == 'v' ? "WEEK (Mon-Sun)" : c == 'x' ? "YEAR for week (Mon-Sun)" : "YEAR for week (Sun-Sat)");
            return err_set(ERR_BAD_ARGUMENTS, "Incorrect syntax '%.*s', symbol is not supported '%c' for function %s", (int)n, f, c, call->name);
        }
        if (c == 'z' && !has_time)
            return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "Illegal argument of type %s for function timezoneOffset", call->arg_types[0]->name);
    }
    return 0;
}

static char *p2(char *p, int64_t v)
{
    *p++ = (char)('0' + v / 10 % 10);
    *p++ = (char)('0' + v % 10);
    return p;
}

static int fmt_exec(const fn_call *call, column **args, size_t rows, column **out)
{
    const dstate *st = call->state;
    const column *c = args[0];
    const type *t = type_phys(c->type);
    int64_t *loc = mem_alloc((rows ? rows : 1) * sizeof *loc);
    int64_t *utc = mem_alloc((rows ? rows : 1) * sizeof *utc);
    load_local(c, st->tz, loc, rows);
    load_utc(c, st->tz, utc, rows);
    const char *f = st->fmt;
    size_t fn = strlen(f);
    int fdig = t->id == T_DATETIME64 && t->scale > 6 ? t->scale : 6;
    column *r = col_new(type_simple(T_STRING));
    col_reserve(r, rows);
    char tmp[64];
    buf line = {0};
    for (size_t i = 0; i < rows; i++) {
        line.len = 0;
        int64_t days = floordiv(loc[i], 86400), sod = loc[i] - days * 86400;
        int64_t y;
        unsigned m, d;
        civil(days, &y, &m, &d);
        int64_t hh = sod / 3600, mi = sod / 60 % 60, ss = sod % 60;
        int wd = weekday_mon1(days) % 7; /* Sunday = 0 */
        for (size_t k = 0; k < fn; k++) {
            if (f[k] != '%') {
                buf_putc(&line, f[k]);
                continue;
            }
            char sp = f[++k];
            char *p = tmp;
            switch (sp) {
            case 'a': memcpy(p, wday_full[wd], 3); p += 3; break;
            case 'b': memcpy(p, month_full[m - 1], 3); p += 3; break;
            case 'c': case 'm': p = p2(p, m); break;
            case 'C': p = p2(p, floordiv(y, 100)); break;
            case 'd': p = p2(p, d); break;
            case 'D': p = p2(p, m); *p++ = '/'; p = p2(p, d); *p++ = '/'; p = p2(p, y % 100); break;
            case 'e': p += sprintf(p, "%u", d); break;
            case 'f': {
                int64_t fr = ticks_frac(c, i, fdig);
                for (int q = fdig - 1; q >= 0; q--) {
                    p[q] = (char)('0' + fr % 10);
                    fr /= 10;
                }
                p += fdig;
                break;
            }
            case 'F': p += dt_format_date(days, p); break;
            case 'g': case 'G': {
                int64_t iy;
                int wk;
                iso_week(days, &iy, &wk);
                if (sp == 'g')
                    p = p2(p, iy % 100);
                else
                    p += sprintf(p, "%04lld", (long long)iy);
                break;
            }
            case 'h': case 'I': case 'l': p = p2(p, hh % 12 == 0 ? 12 : hh % 12); break;
            case 'H': case 'k': p = p2(p, hh); break;
            case 'i': p = p2(p, mi); break;
            case 'j': p += sprintf(p, "%03lld", (long long)(days - dt_days_from_civil(y, 1, 1) + 1)); break;
            case 'M': p += sprintf(p, "%s", month_full[m - 1]); break;
            case 'n': *p++ = '\n'; break;
            case 't': *p++ = '\t'; break;
            case 'p': memcpy(p, hh < 12 ? "AM" : "PM", 2); p += 2; break;
            case 'Q': *p++ = (char)('0' + (m - 1) / 3 + 1); break;
            case 'r': p = p2(p, hh % 12 == 0 ? 12 : hh % 12); *p++ = ':'; p = p2(p, mi); *p++ = ' '; memcpy(p, hh < 12 ? "AM" : "PM", 2); p += 2; break;
            case 'R': p = p2(p, hh); *p++ = ':'; p = p2(p, mi); break;
            case 's': case 'S': p = p2(p, ss); break;
            case 'T': p = p2(p, hh); *p++ = ':'; p = p2(p, mi); *p++ = ':'; p = p2(p, ss); break;
            case 'u': *p++ = (char)('0' + weekday_mon1(days)); break;
            case 'V': {
                int64_t iy;
                int wk;
                iso_week(days, &iy, &wk);
                p = p2(p, wk);
                break;
            }
            case 'w': *p++ = (char)('0' + wd); break;
            case 'W': p += sprintf(p, "%s", wday_full[wd]); break;
            case 'y': p = p2(p, y % 100); break;
            case 'Y': p += sprintf(p, "%04lld", (long long)y); break;
            case 'z': {
                int32_t off = tz_offset_at(st->tz, utc[i]);
                *p++ = off < 0 ? '-' : '+';
                if (off < 0)
                    off = -off;
                p = p2(p, off / 3600);
                p = p2(p, off / 60 % 60);
                break;
            }
            case '%': *p++ = '%'; break;
            }
            buf_append(&line, tmp, (size_t)(p - tmp));
        }
        col_push_str(r, (const char *)line.p, line.len);
    }
    buf_free(&line);
    mem_free(loc);
    mem_free(utc);
    *out = r;
    return 0;
}

static int fmt_resolve(fn_call *call)
{
    if (call->nargs < 2 || call->nargs > 3)
        return fn_bad_nargs(call, "2 or 3");
    const type *t = call->arg_types[0];
    if (!is_date(t) && !is_dt(t))
        return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type %s of first argument of function %s. Should be a date or a date with time",
                       t->name, call->name);
    size_t n;
    const char *f = fn_const_str(call, 1, &n);
    if (!f)
        return err_set(ERR_ILLEGAL_COLUMN, "Illegal column of second ('format') argument of function %s. Must be constant string.", call->name);
    if (fmt_check(call, f, n, is_dt(t)) < 0)
        return -1;
    dstate *st = new_state(call);
    st->fmt = xstrndup(f, n);
    if (pick_tz(call, call->nargs == 3 ? 2 : -1, st) < 0)
        return -1;
    call->ret = type_simple(T_STRING);
    call->exec = fmt_exec;
    return 0;
}

/* ---------------------------------------------------------------- weeks, intervals, age */

/* MySQL's week numbering (ClickHouse toWeek/toYearWeek). Mode bits after normalisation:
 * 1 = Monday first, 2 = week of the week-year (1..53, never 0), 4 = week 1 is the first
 * week containing the first weekday (else the first with 4+ days in the year). */
static bool leap(int64_t y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

static int calc_week(int64_t days, int mode, int64_t *year_out)
{
    int fmt = mode & 7;
    if (!(fmt & 1))
        fmt ^= 4;
    bool monday_first = fmt & 1, week_year = fmt & 2, first_weekday = fmt & 4;
    int64_t y;
    unsigned m, d;
    civil(days, &y, &m, &d);
    int64_t first = dt_days_from_civil(y, 1, 1);
    /* weekday of Jan 1: 0 = first day of the week */
    int wd = monday_first ? (int)(((first + 3) % 7 + 7) % 7) : (int)(((first + 4) % 7 + 7) % 7);
    *year_out = y;
    if (m == 1 && (int)d <= 7 - wd) {
        if (!week_year && ((first_weekday && wd != 0) || (!first_weekday && wd >= 4)))
            return 0;
        week_year = true;
        (*year_out)--;
        int ylen = leap(*year_out) ? 366 : 365;
        first -= ylen;
        wd = (wd + 53 * 7 - ylen) % 7;
    }
    int64_t n;
    if ((first_weekday && wd != 0) || (!first_weekday && wd >= 4))
        n = days - (first + (7 - wd));
    else
        n = days - (first - wd);
    if (week_year && n >= 52 * 7) {
        wd = (int)((wd + (leap(*year_out) ? 366 : 365)) % 7);
        if ((!first_weekday && wd < 4) || (first_weekday && wd == 0)) {
            (*year_out)++;
            return 1;
        }
    }
    return (int)(n / 7 + 1);
}

static int week_exec(const fn_call *call, column **args, size_t rows, column **out)
{
    const dstate *st = call->state;
    int64_t *v = mem_alloc((rows ? rows : 1) * sizeof *v);
    load_local(args[0], st->tz, v, rows);
    bool yw = st->op != 0;
    for (size_t i = 0; i < rows; i++) {
        int64_t y;
        int w = calc_week(floordiv(v[i], 86400), yw ? st->mode | 2 : st->mode, &y);
        v[i] = yw ? y * 100 + w : w;
    }
    *out = store(call->ret, v, rows);
    mem_free(v);
    return 0;
}

static int week_resolve(fn_call *call)
{
    if (call->nargs < 1 || call->nargs > 3)
        return fn_bad_nargs(call, "1, 2 or 3");
    const type *t = call->arg_types[0];
    if (!is_date(t) && !is_dt(t))
        return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT,
                       "Illegal type %s of first argument of function %s. Must be Date, Date32, DateTime or DateTime64.",
                       t->name, call->name);
    dstate *st = new_state(call);
    st->op = strcmp(call->def->name, "toYearWeek") == 0;
    if (call->nargs >= 2) {
        int64_t md;
        if (fn_const_int(call, 1, &md) < 0)
            return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT,
                           "A value of illegal type was provided as 2nd argument 'week_mode' to function '%s'. "
                           "Expected: const UInt8, got: %s",
                           call->name, call->arg_types[1]->name);
        st->mode = (int)md;
    }
    if (pick_tz(call, call->nargs == 3 ? 2 : -1, st) < 0)
        return -1;
    call->ret = type_simple(st->op ? T_UINT32 : T_UINT8);
    call->exec = week_exec;
    return 0;
}

/* toIntervalDay(n) etc. There is no Interval type in shale, so an interval is a
 * one-field named tuple, Tuple(IntervalDay Int64): the unit travels in the type, which is
 * what toStartOfInterval reads. `d + INTERVAL ...` never gets here (the analyzer rewrites
 * it to addDays(d, n)). */
static const char *const interval_units[] = {"Nanosecond", "Microsecond", "Millisecond", "Second", "Minute", "Hour",
                                             "Day", "Week", "Month", "Quarter", "Year"};

static int interval_exec(const fn_call *call, column **args, size_t rows, column **out)
{
    int64_t *v = mem_alloc((rows ? rows : 1) * sizeof *v);
    for (size_t i = 0; i < rows; i++)
        v[i] = col_get_i64(args[0], i);
    column *r = col_new_defaults(call->ret, rows);
    col_free(r->fields[0]);
    r->fields[0] = store(type_simple(T_INT64), v, rows);
    mem_free(v);
    *out = r;
    return 0;
}

static int interval_resolve(fn_call *call)
{
    if (call->nargs != 1)
        return fn_bad_nargs(call, "1");
    const type *t = call->arg_types[0];
    if (!type_is_integer(t) && t->id != T_BOOL)
        return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type %s of argument of function %s", t->name, call->name);
    char nm[32];
    snprintf(nm, sizeof nm, "Interval%s", call->def->name + 10);
    const type *f = type_simple(T_INT64);
    const char *names[1] = {nm};
    call->ret = type_tuple(1, &f, names);
    call->exec = interval_exec;
    return 0;
}

/* The unit (U_*) of an interval type made by interval_resolve, or -1. */
static int interval_unit_of(const type *t)
{
    t = type_phys(t);
    if (t->id != T_TUPLE || t->nfields != 1 || !t->field_names || strncmp(t->field_names[0], "Interval", 8) != 0)
        return -1;
    for (int u = 0; u <= U_YEAR; u++)
        if (!strcmp(t->field_names[0] + 8, interval_units[u]))
            return u;
    return -1;
}

static int64_t trunc_days_unit(int64_t days, int unit, int64_t n)
{
    int64_t y;
    unsigned m, d;
    switch (unit) {
    case U_DAY: return floordiv(days, n) * n;
    case U_WEEK: return n == 1 ? days - (weekday_mon1(days) - 1) : 4 + floordiv(days - 4, 7 * n) * 7 * n;
    case U_MONTH:
    case U_QUARTER: {
        civil(days, &y, &m, &d);
        int64_t mn = (y - 1970) * 12 + (m - 1), k = unit == U_QUARTER ? 3 * n : n;
        mn = floordiv(mn, k) * k;
        int64_t ny = 1970 + floordiv(mn, 12);
        return dt_days_from_civil(ny, (unsigned)(mn - floordiv(mn, 12) * 12) + 1, 1);
    }
    default:
        civil(days, &y, &m, &d);
        return dt_days_from_civil(floordiv(y, n) * n, 1, 1);
    }
}

/* toStartOfInterval(d, INTERVAL n unit[, tz]) and dateTrunc('unit', d[, tz]) share this
 * kernel: st->op = unit, st->mode = n. Units of a day or less give a DateTime (seconds
 * floored in local time), longer units a Date (Date32 for Date32 arguments). */
static int sti_exec(const fn_call *call, column **args, size_t rows, column **out)
{
    const dstate *st = call->state;
    const column *c = args[st->scale]; /* the date argument's index */
    int64_t *v = mem_alloc((rows ? rows : 1) * sizeof *v);
    int unit = st->op;
    int64_t n = st->mode;
    load_local(c, st->tz, v, rows);
    type_id rid = type_phys(call->ret)->id;
    for (size_t i = 0; i < rows; i++) {
        int64_t loc = v[i], r;
        if (unit <= U_HOUR) {
            /* Seconds (minutes) count from the epoch when the zone's offset is a whole
             * number of hours (minutes), as ClickHouse's date library does; otherwise,
             * and always for hours, from the start of the local day. */
            int64_t day0 = floordiv(loc, 86400) * 86400;
            int64_t unit_s = unit == U_HOUR ? 3600 : unit == U_MINUTE ? 60 : 1, step = unit_s * n;
            int64_t off = loc - tz_local_to_utc(st->tz, loc);
            int64_t whole = unit == U_SECOND ? 3600 : 60;
            if (unit != U_HOUR && off % whole == 0) {
                int64_t utc = loc - off;
                r = floordiv(utc, step) * step;
            } else {
                r = tz_local_to_utc(st->tz, day0 + (loc - day0) / step * step);
            }
        } else {
            int64_t days = trunc_days_unit(floordiv(loc, 86400), unit, n);
            r = (rid == T_DATE || rid == T_DATE32) ? days : tz_local_to_utc(st->tz, days * 86400);
        }
        if (rid == T_DATE && type_phys(c->type)->id != T_DATE32)
            r = clamp64(r, 0, 65535);
        else if (rid == T_DATETIME)
            r = clamp64(r, 0, UINT32_MAX);
        v[i] = r;
    }
    *out = store(call->ret, v, rows);
    mem_free(v);
    return 0;
}

static int sti_resolve(fn_call *call)
{
    bool trunc = strcmp(call->def->name, "dateTrunc") == 0;
    if (call->nargs < 2 || call->nargs > 3)
        return fn_bad_nargs(call, "2 or 3");
    dstate *st = new_state(call);
    int darg = trunc ? 1 : 0;
    st->scale = darg;
    const type *t = call->arg_types[darg];
    if (trunc) {
        size_t n;
        const char *u = fn_const_str(call, 0, &n);
        if (!u)
            return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "First argument for function %s must be constant string: name of datepart", call->name);
        st->op = unit_by_name(u, n);
        if (st->op < U_SECOND)
            return err_set(ERR_BAD_ARGUMENTS, "%.*s doesn't look like datepart name in %s", (int)n, u, call->name);
        st->mode = 1;
    } else {
        st->op = interval_unit_of(call->arg_types[1]);
        column *iv = call->const_args ? call->const_args[1] : NULL;
        if (st->op < 0 || !iv)
            return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type %s of 2nd argument of function %s, expected a time interval",
                           call->arg_types[1]->name, call->name);
        if (st->op < U_SECOND)
            return err_set(ERR_NOT_IMPLEMENTED, "Sub-second intervals are not supported by %s", call->name);
        int64_t k = col_get_i64(iv->fields[0], 0);
        if (k <= 0)
            return err_set(ERR_ARGUMENT_OUT_OF_BOUND, "Value for second argument of function %s must be positive", call->name);
        st->mode = (int)(k > INT32_MAX ? INT32_MAX : k);
    }
    if (!is_date(t) && !is_dt(t))
        return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type %s of argument of function %s. Should be a date or a date with time",
                       t->name, call->name);
    if (is_date(t) && st->op < U_DAY && !trunc)
        return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "Illegal interval kind for argument data type %s", t->name);
    if (pick_tz(call, call->nargs == 3 ? 2 : -1, st) < 0)
        return -1;
    /* dateTrunc keeps Date32; toStartOfInterval gives Date (wrapping, as ClickHouse) */
    if (st->op > U_DAY)
        call->ret = type_simple(t->id == T_DATE32 && trunc ? T_DATE32 : T_DATE);
    else
        call->ret = type_datetime(is_dt(t) || call->nargs == 3 ? st->tzname : NULL);
    call->exec = sti_exec;
    return 0;
}

/* age('unit', a, b[, tz]): whole units elapsed from a to b, counting a unit only when the
 * smaller components of b have reached those of a (unlike dateDiff, which counts
 * boundaries). */
static int age_exec(const fn_call *call, column **args, size_t rows, column **out)
{
    const dstate *st = call->state;
    int64_t *a = mem_alloc((rows ? rows : 1) * sizeof *a), *b = mem_alloc((rows ? rows : 1) * sizeof *b);
    load_local(args[1], st->tz, a, rows);
    load_local(args[2], st->tz, b, rows);
    int unit = st->op;
    for (size_t i = 0; i < rows; i++) {
        int64_t x = a[i], y = b[i], r;
        if (unit <= U_HOUR) {
            int64_t step = unit == U_SECOND ? 1 : unit == U_MINUTE ? 60 : 3600;
            r = (y - x) / step;
        } else if (unit <= U_WEEK) {
            int64_t dx = floordiv(x, 86400), dy = floordiv(y, 86400);
            int64_t tx = x - dx * 86400, ty = y - dy * 86400;
            r = dy - dx;
            if (r > 0 && ty < tx)
                r--;
            else if (r < 0 && ty > tx)
                r++;
            if (unit == U_WEEK)
                r /= 7;
        } else {
            int64_t dx = floordiv(x, 86400), dy = floordiv(y, 86400);
            int64_t yx, yy;
            unsigned mx, my, ddx, ddy;
            civil(dx, &yx, &mx, &ddx);
            civil(dy, &yy, &my, &ddy);
            int64_t kx = (int64_t)ddx * 86400 + (x - dx * 86400), ky = (int64_t)ddy * 86400 + (y - dy * 86400);
            r = (yy * 12 + my) - (yx * 12 + mx);
            if (r > 0 && ky < kx)
                r--;
            else if (r < 0 && ky > kx)
                r++;
            if (unit == U_QUARTER)
                r /= 3;
            else if (unit == U_YEAR)
                r /= 12;
        }
        a[i] = r;
    }
    *out = store(call->ret, a, rows);
    mem_free(a);
    mem_free(b);
    return 0;
}

static int age_resolve(fn_call *call)
{
    if (call->nargs < 3 || call->nargs > 4)
        return fn_bad_nargs(call, "3 or 4");
    size_t n;
    const char *u = fn_const_str(call, 0, &n);
    if (!u)
        return err_set(ERR_ILLEGAL_COLUMN, "First argument for function %s (unit) must be a constant String", call->name);
    for (int k = 1; k <= 2; k++) {
        const type *t = call->arg_types[k];
        if (!is_date(t) && !is_dt(t))
            return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type %s of argument of function %s. Should be a date or a date with time",
                           t->name, call->name);
    }
    dstate *st = new_state(call);
    st->op = unit_by_name(u, n);
    if (st->op < U_SECOND)
        return err_set(ERR_BAD_ARGUMENTS, "Function %s does not support '%.*s' unit", call->name, (int)n, u);
    /* The zone: explicit, else the first DateTime argument's, else the session's. */
    const char *z = NULL;
    for (int k = 1; k <= 2 && !z; k++)
        if (is_dt(call->arg_types[k]))
            z = call->arg_types[k]->tz;
    if (call->nargs == 4) {
        if (pick_tz(call, 3, st) < 0)
            return -1;
    } else {
        st->tz = tz_get(z ? z : call->env && call->env->timezone ? call->env->timezone : tz_default_name());
        if (!st->tz)
            return -1;
    }
    call->ret = type_simple(T_INT64);
    call->exec = age_exec;
    return 0;
}

/* fromUnixTimestamp(n) = toDateTime(n); fromUnixTimestamp(n, fmt[, tz]) =
 * formatDateTime(toDateTime(n), fmt[, tz]). */
typedef struct chain_state {
    fn_call *to_dt, *fmt;
} chain_state;

static void chain_free(void *p)
{
    chain_state *c = p;
    if (!c)
        return;
    if (c->to_dt)
        fn_call_free(c->to_dt);
    if (c->fmt)
        fn_call_free(c->fmt);
    free(c);
}

static int fromunix_exec(const fn_call *call, column **args, size_t rows, column **out)
{
    const chain_state *cs = call->state;
    column *dt;
    if (fn_exec(cs->to_dt, args, rows, &dt) < 0)
        return -1;
    if (!cs->fmt) {
        *out = dt;
        return 0;
    }
    column *fa[3] = {dt, call->nargs > 1 ? args[1] : NULL, call->nargs > 2 ? args[2] : NULL};
    int rc = fn_exec(cs->fmt, fa, rows, out);
    col_free(dt);
    return rc;
}

static int fromunix_resolve(fn_call *call)
{
    if (call->nargs < 1 || call->nargs > 3)
        return fn_bad_nargs(call, "1, 2 or 3");
    const type *t = call->arg_types[0];
    if (call->nargs == 1 && !type_is_integer(t))
        return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT,
                       "Illegal type %s of first argument of function %s when arguments size is 1. Should be integer",
                       t->name, call->name);
    chain_state *cs = xcalloc(1, sizeof *cs);
    call->state = cs;
    if (func_resolve("toDateTime", 1, &t, NULL, call->env, &cs->to_dt) < 0)
        return -1;
    call->ret = type_phys(cs->to_dt->result_type);
    if (call->nargs > 1) {
        const type *ft[3] = {cs->to_dt->result_type, call->arg_types[1], call->nargs > 2 ? call->arg_types[2] : NULL};
        column *fc[3] = {NULL, call->const_args ? call->const_args[1] : NULL,
                         call->const_args && call->nargs > 2 ? call->const_args[2] : NULL};
        if (func_resolve("formatDateTime", call->nargs, ft, fc, call->env, &cs->fmt) < 0)
            return -1;
        call->ret = type_phys(cs->fmt->result_type);
    }
    call->exec = fromunix_exec;
    return 0;
}

/* ---------------------------------------------------------------- registration */

static func_def xdef_defs[sizeof xdefs / sizeof xdefs[0]];
static func_def add_defs[sizeof add_names / sizeof add_names[0]];

static const func_def misc_defs[] = {
    {"toDate", 0, conv_resolve, dstate_free, "Converts a number, string or date/time to Date"},
    {"toDate32", 0, conv_resolve, dstate_free, "Converts a number, string or date/time to Date32"},
    {"toDateTime", 0, conv_resolve, dstate_free, "Converts a number, string or date to DateTime"},
    {"toDateTime64", 0, conv_resolve, dstate_free, "Converts a number, string or date to DateTime64(P)"},
    {"toUnixTimestamp", 0, unixts_resolve2, dstate_free, "Unix timestamp of a date/time"},
    {"parseDateTimeBestEffort", 0, be_resolve, dstate_free, "Parses a date and time in many text forms"},
    {"parseDateTimeBestEffortOrNull", 0, be_resolve, dstate_free, "parseDateTimeBestEffort, NULL on failure"},
    {"parseDateTimeBestEffortOrZero", 0, be_resolve, dstate_free, "parseDateTimeBestEffort, zero on failure"},
    {"parseDateTime64BestEffort", 0, be_resolve, dstate_free, "Parses a date and time with fraction in many text forms"},
    {"parseDateTime64BestEffortOrNull", 0, be_resolve, dstate_free, "parseDateTime64BestEffort, NULL on failure"},
    {"parseDateTime64BestEffortOrZero", 0, be_resolve, dstate_free, "parseDateTime64BestEffort, zero on failure"},
    {"dateDiff", FN_CASE_INSENSITIVE, datediff_resolve, dstate_free, "Count of unit boundaries between two dates"},
    {"dateAdd", FN_CASE_INSENSITIVE, dateadd_resolve, dstate_free, "dateAdd('unit', n, date)"},
    {"dateSub", FN_CASE_INSENSITIVE, dateadd_resolve, dstate_free, "dateSub('unit', n, date)"},
    {"now", FN_NOT_DETERMINISTIC | FN_CASE_INSENSITIVE, now_resolve, dstate_free, "Current date and time at query start"},
    {"now64", FN_NOT_DETERMINISTIC, now_resolve, dstate_free, "Current date and time with sub-second precision"},
    {"today", FN_NOT_DETERMINISTIC, now_resolve, dstate_free, "Current date"},
    {"yesterday", FN_NOT_DETERMINISTIC, now_resolve, dstate_free, "Yesterday's date"},
    {"timezone", FN_CASE_INSENSITIVE, timezone_resolve, NULL, "The session time zone"},
    {"timeZoneOf", 0, tzof_resolve, NULL, "The time zone of a DateTime or DateTime64 value's type"},
    {"toTimeZone", 0, totz_resolve, dstate_free, "Same instant, shown in another time zone"},
    {"formatDateTime", 0, fmt_resolve, dstate_free, "Formats a date/time with MySQL-style % specifiers"},
};

void func_register_date(void)
{
    for (size_t i = 0; i < sizeof xdefs / sizeof xdefs[0]; i++) {
        xdef_defs[i] = (func_def){xdefs[i].name, 0, x_resolve, dstate_free, "Date/time component or truncation"};
        func_register(&xdef_defs[i]);
    }
    for (size_t i = 0; i < sizeof add_names / sizeof add_names[0]; i++) {
        add_defs[i] = (func_def){add_names[i].name, 0, add_resolve, dstate_free, "Date/time arithmetic"};
        func_register(&add_defs[i]);
    }
    for (size_t i = 0; i < sizeof misc_defs / sizeof misc_defs[0]; i++)
        func_register(&misc_defs[i]);
    static const func_def more_defs[] = {
        {"toWeek", 0, week_resolve, dstate_free, "Week number (MySQL modes 0..7)"},
        {"toYearWeek", 0, week_resolve, dstate_free, "Year and week number as YYYYWW"},
        {"toStartOfInterval", 0, sti_resolve, dstate_free, "toStartOfInterval(d, INTERVAL n unit[, tz])"},
        {"dateTrunc", 0, sti_resolve, dstate_free, "dateTrunc('unit', d[, tz])"},
        {"age", 0, age_resolve, dstate_free, "age('unit', a, b[, tz]): whole units elapsed"},
        {"fromUnixTimestamp", 0, fromunix_resolve, chain_free, "fromUnixTimestamp(n[, format[, tz]])"},
    };
    for (size_t i = 0; i < sizeof more_defs / sizeof more_defs[0]; i++)
        func_register(&more_defs[i]);
    static func_def iv_defs[11];
    static char iv_names[11][32];
    for (int u = U_SECOND; u <= U_YEAR; u++) {
        snprintf(iv_names[u], sizeof iv_names[u], "toInterval%s", interval_units[u]);
        iv_defs[u] = (func_def){iv_names[u], 0, interval_resolve, NULL, "An interval (a one-field named tuple here)"};
        func_register(&iv_defs[u]);
    }
    static const char *const aliases[][2] = {
        {"YEAR", "toYear"}, {"MONTH", "toMonth"}, {"DAY", "toDayOfMonth"}, {"DAYOFMONTH", "toDayOfMonth"},
        {"DAYOFWEEK", "toDayOfWeek"}, {"DAYOFYEAR", "toDayOfYear"}, {"HOUR", "toHour"}, {"MINUTE", "toMinute"},
        {"SECOND", "toSecond"}, {"QUARTER", "toQuarter"}, {"date_diff", "dateDiff"}, {"DATE_DIFF", "dateDiff"},
        {"timestampDiff", "dateDiff"}, {"timestamp_diff", "dateDiff"}, {"TIMESTAMP_DIFF", "dateDiff"},
        {"date_add", "dateAdd"}, {"DATE_ADD", "dateAdd"}, {"timestampAdd", "dateAdd"}, {"timestamp_add", "dateAdd"},
        {"date_sub", "dateSub"}, {"DATE_SUB", "dateSub"}, {"timestampSub", "dateSub"}, {"timestamp_sub", "dateSub"},
        {"timeZone", "timezone"}, {"timezoneOf", "timeZoneOf"}, {"toTimezone", "toTimeZone"}, {"DATE_FORMAT", "formatDateTime"},
        {"current_timestamp", "now"}, {"CURRENT_TIMESTAMP", "now"}, {"curdate", "today"}, {"current_date", "today"},
        {"CURRENT_DATE", "today"}, {"toStartOfFiveMinute", "toStartOfFiveMinutes"}, {"FROM_UNIXTIME", "fromUnixTimestamp"},
        {"date_trunc", "dateTrunc"}, {"DATE_TRUNC", "dateTrunc"}, {"DATETRUNC", "dateTrunc"},
    };
    for (size_t i = 0; i < sizeof aliases / sizeof aliases[0]; i++)
        func_register_alias(aliases[i][0], aliases[i][1]);
}
