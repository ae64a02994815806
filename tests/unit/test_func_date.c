/* Date/time functions; expected values from ClickHouse 26.7 (chdb).
 * Needs the function framework (func.c, func_util.h); until that is merged this test
 * compiles to an empty suite. */
#include "check.h"

#if __has_include("func_util.h")
#include "func_util.h"
#include "column/datetime.h"

#include <stdarg.h>

/* A constant String argument. */
static column *S(const char *s)
{
    column *c = col_new(type_simple(T_STRING));
    col_push_str(c, s, strlen(s));
    return col_new_const(c, 1);
}

/* A constant integer/float argument of type tn. */
static column *I(const char *tn, long long v) { return col_new_const(icol(tn, 1, &v), 1); }

static const char *last_err;

/* fn(args...) over one row; takes the arguments. NULL on error (message in last_err). */
static column *F(const char *fn, int n, ...)
{
    column *args[8];
    va_list ap;
    va_start(ap, n);
    for (int i = 0; i < n; i++)
        args[i] = va_arg(ap, column *);
    va_end(ap);
    for (int i = 0; i < n; i++)
        if (!args[i]) {
            free_args(n, args);
            return NULL;
        }
    column *r = call(fn, n, args, 1, NULL);
    if (!r)
        last_err = err_msg();
    free_args(n, args);
    return r;
}

/* "Type:value" with dates rendered as text; takes c. */
static const char *show(column *c)
{
    static char out[16][600];
    static int k;
    char *o = out[k++ & 15];
    if (!c) {
        snprintf(o, 600, "ERR %d %s", err_code(), err_msg());
        return o;
    }
    const type *t = type_base(c->type);
    const column *v = c;
    if (type_phys(c->type)->id == T_NULLABLE) {
        if (col_is_null(c, 0)) {
            snprintf(o, 600, "%s:NULL", c->type->name);
            col_free(c);
            return o;
        }
        v = c->inner;
    }
    char b[400];
    const tz_info *tz = tz_get(t->tz ? t->tz : "UTC");
    switch (t->id) {
    case T_DATE: b[dt_format_date(COL_DATA(v, uint16_t)[0], b)] = 0; break;
    case T_DATE32: b[dt_format_date(COL_DATA(v, int32_t)[0], b)] = 0; break;
    case T_DATETIME: b[dt_format_datetime(COL_DATA(v, uint32_t)[0], tz, b)] = 0; break;
    case T_DATETIME64: b[dt_format_datetime64(COL_DATA(v, int64_t)[0], t->scale, tz, b)] = 0; break;
    default: snprintf(b, sizeof b, "%s", val(v, 0));
    }
    snprintf(o, 600, "%s:%s", c->type->name, b);
    col_free(c);
    return o;
}

#define D(s) F("toDate", 1, S(s))
#define D32(s) F("toDate32", 1, S(s))
#define DT(s) F("toDateTime", 1, S(s))
#define DTZ(s, z) F("toDateTime", 2, S(s), S(z))
#define DT64(s, p) F("toDateTime64", 2, S(s), I("UInt8", p))
#define DT64Z(s, p, z) F("toDateTime64", 3, S(s), I("UInt8", p), S(z))
#define K(x) CHECK_STR(show(x), 

static void test_types_and_components(void)
{
    K(F("toYear", 1, D("2021-03-04")))"UInt16:2021");
    K(F("toYear", 1, D32("1921-03-04")))"UInt16:1921");
    K(F("toMonth", 1, DTZ("2021-03-04 05:06:07", "Asia/Kolkata")))"UInt8:3");
    K(F("toDayOfMonth", 1, DT64Z("2021-03-04 05:06:07.123", 3, "Asia/Kolkata")))"UInt8:4");
    K(F("toDayOfWeek", 1, D32("1921-03-04")))"UInt8:5");
    K(F("toDayOfWeek", 2, D("2021-03-07"), I("UInt8", 1)))"UInt8:6");
    K(F("toDayOfYear", 1, D("2021-03-04")))"UInt16:63");
    K(F("toHour", 1, DTZ("2021-03-04 05:06:07", "Asia/Kolkata")))"UInt8:5");
    K(F("toMinute", 1, DTZ("2021-03-04 05:06:07", "Asia/Kolkata")))"UInt8:6");
    K(F("toSecond", 1, DTZ("2021-03-04 05:06:07", "Asia/Kolkata")))"UInt8:7");
    K(F("toMillisecond", 1, DT64Z("2021-03-04 05:06:07.123", 3, "Asia/Kolkata")))"UInt16:123");
    K(F("toQuarter", 1, D("2021-03-04")))"UInt8:1");
    K(F("toYYYYMM", 1, D32("1921-03-04")))"UInt32:192103");
    K(F("toYYYYMMDD", 1, DTZ("2021-03-04 05:06:07", "Asia/Kolkata")))"UInt32:20210304");
    K(F("toYYYYMMDDhhmmss", 1, DTZ("2021-03-04 05:06:07", "Asia/Kolkata")))"UInt64:20210304050607");
    K(F("toISOWeek", 1, D("2021-03-04")))"UInt8:9");
    K(F("toISOYear", 1, D32("1921-03-04")))"UInt16:1921");
    K(F("toRelativeDayNum", 1, D("2021-03-04")))"UInt32:18690");
    K(F("toHour", 1, D("2021-03-04")))"ERR 43 Illegal type Date of argument of function toHour");
    /* start-of */
    K(F("toStartOfMonth", 1, D("2021-03-04")))"Date:2021-03-01");
    K(F("toStartOfMonth", 1, D32("1921-03-04")))"Date:1970-01-01");
    K(F("toStartOfYear", 1, DTZ("2021-03-04 05:06:07", "Asia/Kolkata")))"Date:2021-01-01");
    K(F("toStartOfQuarter", 1, D("2021-03-04")))"Date:2021-01-01");
    K(F("toStartOfWeek", 1, D("2021-03-04")))"Date:2021-02-28");
    K(F("toStartOfWeek", 2, D("2021-03-04"), I("UInt8", 1)))"Date:2021-03-01");
    K(F("toStartOfWeek", 2, D("2021-03-07"), I("UInt8", 0)))"Date:2021-03-07");
    K(F("toMonday", 1, D("2021-03-04")))"Date:2021-03-01");
    K(F("toLastDayOfMonth", 1, D("2021-03-04")))"Date:2021-03-31");
    K(F("toStartOfDay", 1, D("2021-03-04")))"DateTime:2021-03-04 00:00:00");
    K(F("toStartOfDay", 1, DTZ("2021-03-04 05:06:07", "Asia/Kolkata")))"DateTime('Asia/Kolkata'):2021-03-04 00:00:00");
    K(F("toStartOfDay", 1, DT64Z("2021-03-04 05:06:07.123", 3, "Asia/Kolkata")))"DateTime('Asia/Kolkata'):2021-03-04 00:00:00");
    K(F("toStartOfHour", 1, DTZ("2021-03-04 05:06:07", "Asia/Kolkata")))"DateTime('Asia/Kolkata'):2021-03-04 05:00:00");
    K(F("toStartOfMinute", 1, DTZ("2021-03-04 05:06:07", "Asia/Kolkata")))"DateTime('Asia/Kolkata'):2021-03-04 05:06:00");
    K(F("toStartOfFiveMinutes", 1, DTZ("2021-03-04 05:06:07", "Asia/Kolkata")))"DateTime('Asia/Kolkata'):2021-03-04 05:05:00");
    K(F("toStartOfFifteenMinutes", 1, DTZ("2021-03-04 05:06:07", "Asia/Kolkata")))"DateTime('Asia/Kolkata'):2021-03-04 05:00:00");
    K(F("toUnixTimestamp", 1, D("2021-03-04")))"UInt32:1614816000");
    K(F("toUnixTimestamp", 1, D32("1921-03-04")))"UInt32:2754023296");
    K(F("toUnixTimestamp", 1, DTZ("2021-03-04 05:06:07", "Asia/Kolkata")))"UInt32:1614814567");
    K(F("toUnixTimestamp", 1, S("2021-01-01 00:00:00")))"UInt32:1609459200");
}

static void test_conversions(void)
{
    K(D("2200-01-01"))"Date:2149-06-06");
    K(D("1960-01-01"))"Date:1970-01-01");
    K(D32("1800-01-01"))"Date32:1900-01-01");
    K(D32("2300-01-01"))"Date32:2299-12-31");
    K(D("2021-02-30"))"Date:2021-03-02");
    K(D("2021-01-01 10:00:00"))"Date:2021-01-01");
    K(D("2021-01-01abc"))"ERR 6 Cannot parse string '2021-01-01abc' as Date: syntax error at position 10 (parsed just '2021-01-01')");
    K(DTZ("2021-03-28 02:30:00", "Europe/Berlin"))"DateTime('Europe/Berlin'):2021-03-28 01:30:00");
    K(DT("2200-01-01 00:00:00"))"DateTime:2106-02-07 06:28:15");
    K(DT("1234567890"))"DateTime:2009-02-13 23:31:30");
    K(DT("2021-01-01 25:00:00"))"DateTime:2021-01-02 01:00:00");
    K(DT("abc"))"ERR 41 Cannot read DateTime: unexpected word: Cannot parse DateTime from String");
    K(DT64("2021-01-01 10:00:00.123456789", 3))"DateTime64(3):2021-01-01 10:00:00.123");
    K(DT64("1900-01-01 00:00:00.123", 3))"DateTime64(3):1900-01-01 00:00:00.123");
    K(DT64("1234567890.123", 3))"DateTime64(3):2009-02-13 23:31:30.123");
    /* numbers */
    K(F("toDate", 1, I("UInt16", 19000)))"Date:2022-01-08");
    K(F("toDate", 1, I("UInt32", 65536)))"Date:1970-01-01");
    K(F("toDate", 1, I("UInt32", 100000)))"Date:1970-01-02");
    K(F("toDate", 1, I("Int8", -1)))"Date:1970-01-01");
    K(F("toDate", 1, I("UInt32", 1614816000)))"Date:2021-03-04");
    K(F("toDate", 1, I("Int64", 4294967296LL)))"Date:2106-02-07");
    K(F("toDate32", 1, I("Int8", -1)))"Date32:1969-12-31");
    K(F("toDate32", 1, I("UInt32", 200000)))"Date32:1970-01-03");
    K(F("toDateTime", 1, I("Int8", -1)))"DateTime:1970-01-01 00:00:00");
    K(F("toDateTime", 1, I("Int64", 4294967296LL)))"DateTime:2106-02-07 06:28:15");
    K(F("toDateTime", 2, I("UInt32", 1614816000), S("Asia/Kolkata")))"DateTime('Asia/Kolkata'):2021-03-04 05:30:00");
    K(F("toDateTime64", 3, I("UInt32", 1614816000), I("UInt8", 3), S("UTC")))"DateTime64(3, 'UTC'):2021-03-04 00:00:00.000");
    /* between date types */
    K(F("toDate", 1, D32("1921-03-04")))"Date:2100-08-08");
    K(F("toDate", 1, DTZ("2021-03-04 23:00:00", "America/New_York")))"Date:2021-03-04");
    K(F("toDateTime", 2, D("2021-03-04"), S("Asia/Kolkata")))"DateTime('Asia/Kolkata'):2021-03-04 00:00:00");
    K(F("toUnixTimestamp", 1, F("toDateTime", 2, D("2021-03-04"), S("Asia/Kolkata"))))"UInt32:1614796200");
    K(F("toDateTime64", 2, D("2021-01-01"), I("UInt8", 3)))"DateTime64(3):2021-01-01 00:00:00.000");
    K(F("toDateTime", 2, S("2021-01-01"), S("Nope/Zone")))"ERR 36 Cannot load time zone Nope/Zone");
    K(F("toTimeZone", 2, DT("2021-03-04 05:06:07"), S("Asia/Kolkata")))"DateTime('Asia/Kolkata'):2021-03-04 10:36:07");
}

static void test_parse_best_effort(void)
{
    K(F("parseDateTimeBestEffort", 2, S("2021-03-04 05:06:07"), S("Asia/Kolkata")))"DateTime('Asia/Kolkata'):2021-03-04 05:06:07");
    K(F("parseDateTimeBestEffort", 1, S("Tue, 3 Jan 2023 10:00:00 GMT")))"DateTime:2023-01-03 10:00:00");
    K(F("parseDateTimeBestEffortOrNull", 1, S("abc")))"Nullable(DateTime):NULL");
    K(F("parseDateTimeBestEffortOrZero", 1, S("abc")))"DateTime:1970-01-01 00:00:00");
    K(F("parseDateTime64BestEffort", 1, S("2021-03-04 05:06:07.123456")))"DateTime64(3):2021-03-04 05:06:07.123");
    K(F("parseDateTimeBestEffort", 1, S("abc")))"ERR 41 Cannot read DateTime: unexpected word: Cannot parse DateTime from String");
}

static void test_arith(void)
{
    K(F("dateDiff", 3, S("day"), D("2021-01-01"), D("2021-03-01")))"Int64:59");
    K(F("dateDiff", 3, S("month"), D("2021-01-31"), D("2021-02-01")))"Int64:1");
    K(F("dateDiff", 3, S("year"), D("2020-12-31"), D("2021-01-01")))"Int64:1");
    K(F("dateDiff", 3, S("hour"), DT("2021-01-01 10:59:59"), DT("2021-01-01 11:00:00")))"Int64:1");
    K(F("dateDiff", 3, S("week"), D("2021-01-03"), D("2021-01-04")))"Int64:1");
    K(F("dateDiff", 3, S("quarter"), D("2021-03-31"), D("2021-04-01")))"Int64:1");
    K(F("dateDiff", 3, S("second"), DT("2021-01-01 00:00:00"), DT("2021-01-01 00:00:10")))"Int64:10");
    K(F("dateDiff", 3, S("minute"), D("2021-01-01"), DT("2021-01-01 00:10:00")))"Int64:10");
    K(F("date_diff", 3, S("d"), D("2021-01-01"), D("2021-01-05")))"Int64:4");
    K(F("dateDiff", 3, S("millisecond"), DT64("2021-01-01 00:00:00.100", 3), DT64("2021-01-01 00:00:01.050", 3)))"Int64:950");
    K(F("dateDiff", 3, S("day"), DT("2021-01-01 23:00:00"), DT("2021-01-02 01:00:00")))"Int64:1");
    K(F("dateDiff", 3, S("month"), D("2021-01-31"), D("2021-01-01")))"Int64:0");
    K(F("addMonths", 2, D("2021-01-31"), I("UInt8", 1)))"Date:2021-02-28");
    K(F("addYears", 2, D("2020-02-29"), I("UInt8", 1)))"Date:2021-02-28");
    K(F("addDays", 2, D("2149-06-06"), I("UInt8", 1)))"Date:1970-01-01");
    K(F("addDays", 2, D("1970-01-01"), I("Int8", -1)))"Date:2149-06-06");
    K(F("addHours", 2, D("2021-01-01"), I("UInt8", 1)))"DateTime:2021-01-01 01:00:00");
    K(F("addDays", 2, DTZ("2021-03-27 12:00:00", "Europe/Berlin"), I("UInt8", 1)))"DateTime('Europe/Berlin'):2021-03-28 12:00:00");
    K(F("subtractDays", 2, D("2021-01-01"), I("UInt8", 1)))"Date:2020-12-31");
    K(F("addMonths", 2, DT("2021-01-31 10:00:00"), I("UInt8", 1)))"DateTime:2021-02-28 10:00:00");
    K(F("addSeconds", 2, DT64("2021-01-01 00:00:00.5", 3), I("UInt8", 1)))"DateTime64(3):2021-01-01 00:00:01.500");
    K(F("addMinutes", 2, DT("2021-01-01 00:00:00"), I("Int8", -1)))"DateTime:2020-12-31 23:59:00");
    K(F("addDays", 2, D32("2021-01-01"), I("UInt8", 1)))"Date32:2021-01-02");
    K(F("dateAdd", 3, S("month"), I("UInt8", 1), D("2021-01-31")))"Date:2021-02-28");
    K(F("dateSub", 3, S("hour"), I("UInt8", 1), D("2021-01-01")))"DateTime:2020-12-31 23:00:00");
}

static void test_format(void)
{
    K(F("formatDateTime", 2, DT64("2021-03-04 15:06:07.123456", 6), S("%a|%b|%c|%C|%d|%D|%e|%f|%F|%g|%G|%h|%H|%i|%I|%j|%k|%l|%m|%M|%p|%Q|%r|%R|%s|%S|%T|%u|%V|%w|%W|%y|%Y|%%")))
        "String:Thu|Mar|03|20|04|03/04/21|4|123456|2021-03-04|21|2021|03|15|06|03|063|15|03|03|March|PM|1|03:06 PM|15:06|07|07|15:06:07|4|09|4|Thursday|21|2021|%");
    K(F("formatDateTime", 2, DTZ("2021-01-03 05:06:07", "Asia/Kolkata"), S("%G %V %u %w %a %z")))"String:2020 53 7 0 Sun +0530");
    K(F("formatDateTime", 2, D("2021-03-04"), S("%F %T %f %h %r")))"String:2021-03-04 00:00:00 000000 12 12:00 AM");
    K(F("formatDateTime", 2, DT64("2021-03-04 15:06:07.123", 3), S("%f")))"String:123000");
    K(F("formatDateTime", 3, DT("2021-03-04 05:06:07"), S("%H:%i"), S("Asia/Kolkata")))"String:10:36");
    K(F("formatDateTime", 2, DT("2021-03-04 05:06:07"), S("%E")))
        "ERR 36 Incorrect syntax '%E', symbol is not supported 'E' for function formatDateTime");
    K(F("formatDateTime", 2, D("2021-03-04"), S("%z")))"ERR 43 Illegal argument of type Date for function timezoneOffset");
}

static void test_now(void)
{
    test_env.query_start = 1614816000 + 3600;
    K(F("now", 0))"DateTime:2021-03-04 01:00:00");
    K(F("now", 1, S("Asia/Kolkata")))"DateTime('Asia/Kolkata'):2021-03-04 06:30:00");
    K(F("today", 0))"Date:2021-03-04");
    K(F("yesterday", 0))"Date:2021-03-03");
    K(F("timezone", 0))"String:UTC");
    const char *t;
    column *r = call("now64", 0, NULL, 1, &t);
    CHECK(r != NULL);
    CHECK_STR(t, "DateTime64(3)");
    col_free(r);
}

static void test_columns(void)
{
    /* a full (non-constant) column through a kernel */
    long long v[4] = {0, 18690, 65535, 1};
    column *d = icol("Date", 4, v);
    column *args[1] = {d};
    const char *tn;
    column *r = call("toYYYYMMDD", 1, args, 4, &tn);
    CHECK(r && !r->is_const && r->len == 4);
    if (r) {
        CHECK(COL_DATA(r, uint32_t)[0] == 19700101 && COL_DATA(r, uint32_t)[1] == 20210304);
        CHECK(COL_DATA(r, uint32_t)[2] == 21490606 && COL_DATA(r, uint32_t)[3] == 19700102);
    }
    col_free(r);
    col_free(d);
}

int main(void)
{
    test_types_and_components();
    test_conversions();
    test_parse_best_effort();
    test_arith();
    test_format();
    test_now();
    test_columns();
    (void)last_err;
    return check_done("func_date");
}
#else
int main(void) { return check_done("func_date (function framework not present)"); }
#endif
