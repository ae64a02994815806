/* Calendar, time zone and text conversions; expected values come from ClickHouse 26.7. */
#include "check.h"
#include "column/datetime.h"
#include "base/err.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

static const struct { const char *in, *tz; long long ts; const char *out; } dt_cases[] = {
    {"2021-03-28 02:30:00", "Europe/Berlin", 1616891400LL, "2021-03-28 01:30:00"},
    {"2021-03-28 01:59:59", "Europe/Berlin", 1616893199LL, "2021-03-28 01:59:59"},
    {"2021-03-28 03:00:00", "Europe/Berlin", 1616893200LL, "2021-03-28 03:00:00"},
    {"2021-10-31 02:30:00", "Europe/Berlin", 1635640200LL, "2021-10-31 02:30:00"},
    {"2021-10-31 03:00:00", "Europe/Berlin", 1635645600LL, "2021-10-31 03:00:00"},
    {"2021-10-31 01:59:59", "Europe/Berlin", 1635638399LL, "2021-10-31 01:59:59"},
    {"2021-03-14 02:30:00", "America/New_York", 1615703400LL, "2021-03-14 01:30:00"},
    {"2021-11-07 01:30:00", "America/New_York", 1636263000LL, "2021-11-07 01:30:00"},
    {"2021-07-04 12:00:00", "America/New_York", 1625414400LL, "2021-07-04 12:00:00"},
    {"2050-07-04 12:00:00", "America/New_York", 2540563200LL, "2050-07-04 12:00:00"},
    {"2099-03-08 02:30:00", "America/New_York", 4076634600LL, "2099-03-08 01:30:00"},
    {"2099-11-01 01:30:00", "America/New_York", 4097194200LL, "2099-11-01 01:30:00"},
    {"2021-06-01 10:00:00", "Asia/Kolkata", 1622521800LL, "2021-06-01 10:00:00"},
    {"1970-01-01 00:00:00", "Asia/Kolkata", 0LL, "1970-01-01 05:30:00"},
    {"2021-10-03 02:15:00", "Australia/Lord_Howe", 1633187700LL, "2021-10-03 01:45:00"},
    {"2021-04-04 01:45:00", "Australia/Lord_Howe", 1617461100LL, "2021-04-04 01:45:00"},
    {"2060-01-15 12:00:00", "Australia/Lord_Howe", 2841354000LL, "2060-01-15 12:00:00"},
    {"2060-07-15 12:00:00", "Australia/Lord_Howe", 2857080600LL, "2060-07-15 12:00:00"},
    {"2040-01-01 00:00:00", "Australia/Sydney", 2208949200LL, "2040-01-01 00:00:00"},
    {"2040-06-01 00:00:00", "Australia/Sydney", 2222085600LL, "2040-06-01 00:00:00"},
    {"2040-10-07 02:30:00", "Australia/Sydney", 2233150200LL, "2040-10-07 01:30:00"},
    {"2000-02-29 23:59:59", "UTC", 951868799LL, "2000-02-29 23:59:59"},
    {"2106-02-07 06:28:15", "UTC", 4294967295LL, "2106-02-07 06:28:15"},
    {"2021-06-01 10:00:00", "Europe/Moscow", 1622530800LL, "2021-06-01 10:00:00"},
    {"2011-06-01 10:00:00", "Europe/Moscow", 1306908000LL, "2011-06-01 10:00:00"},
    {"2030-03-31 02:30:00", "Europe/London", 1901151000LL, "2030-03-31 02:30:00"},
    {"2030-10-27 01:30:00", "Europe/London", 1919291400LL, "2030-10-27 01:30:00"},
    {"1990-05-05 05:05:05", "Asia/Tokyo", 641851505LL, "1990-05-05 05:05:05"},
};
static const struct { const char *in, *tz; long long ms; const char *out; } dt64_cases[] = {
    {"2250-01-01 00:00:00", "America/New_York", 8835973200000LL, "2250-01-01 00:00:00.000"},
    {"1900-01-01 00:00:00.123", "UTC", -2208988799877LL, "1900-01-01 00:00:00.123"},
    {"1950-06-15 12:34:56.789", "Europe/Berlin", -616854303211LL, "1950-06-15 12:34:56.789"},
    {"1969-12-31 23:59:59.999", "UTC", -1LL, "1969-12-31 23:59:59.999"},
    {"1920-03-01 10:00:00", "America/New_York", -1572685200000LL, "1920-03-01 10:00:00.000"},
};

static void test_civil(void)
{
    CHECK(dt_days_from_civil(1970, 1, 1) == 0);
    CHECK(dt_days_from_civil(2000, 3, 1) == 11017);
    CHECK(dt_days_from_civil(1900, 1, 1) == -25567);
    CHECK(dt_days_from_civil(2149, 6, 6) == 65535);
    CHECK(dt_days_from_civil(2299, 12, 31) == 120529);
    /* round trip over a wide range, including negative years */
    int bad = 0;
    for (int64_t d = -800000; d < 800000; d += 7) {
        int64_t y;
        unsigned m, dd;
        dt_civil_from_days(d, &y, &m, &dd);
        if (dt_days_from_civil(y, m, dd) != d)
            bad++;
    }
    CHECK(bad == 0);
    char b[64];
    b[dt_format_date(0, b)] = 0;
    CHECK_STR(b, "1970-01-01");
    b[dt_format_date(-25567, b)] = 0;
    CHECK_STR(b, "1900-01-01");
    b[dt_format_date(65535, b)] = 0;
    CHECK_STR(b, "2149-06-06");
}

static void test_zones(void)
{
    char b[64];
    for (size_t i = 0; i < sizeof dt_cases / sizeof dt_cases[0]; i++) {
        const tz_info *tz = tz_get(dt_cases[i].tz);
        CHECK(tz != NULL);
        if (!tz)
            continue;
        int64_t t = -1;
        CHECK(dt_parse_datetime(dt_cases[i].in, strlen(dt_cases[i].in), tz, false, &t) == 0);
        if (t != dt_cases[i].ts)
            fprintf(stderr, "case %zu %s %s: got %lld want %lld\n", i, dt_cases[i].in, dt_cases[i].tz, (long long)t, dt_cases[i].ts);
        CHECK(t == dt_cases[i].ts);
        b[dt_format_datetime(t, tz, b)] = 0;
        CHECK_STR(b, dt_cases[i].out);
    }
    for (size_t i = 0; i < sizeof dt64_cases / sizeof dt64_cases[0]; i++) {
        const tz_info *tz = tz_get(dt64_cases[i].tz);
        int64_t t = -1;
        CHECK(dt_parse_datetime64(dt64_cases[i].in, strlen(dt64_cases[i].in), 3, tz, false, &t) == 0);
        if (t != dt64_cases[i].ms)
            fprintf(stderr, "case64 %zu %s %s: got %lld want %lld\n", i, dt64_cases[i].in, dt64_cases[i].tz, (long long)t, dt64_cases[i].ms);
        CHECK(t == dt64_cases[i].ms);
        b[dt_format_datetime64(t, 3, tz, b)] = 0;
        CHECK_STR(b, dt64_cases[i].out);
    }
    CHECK(tz_get("Nope/Zone") == NULL && err_code() == ERR_BAD_ARGUMENTS);
    CHECK(tz_get("../etc/passwd") == NULL);
    CHECK(tz_get("zone.tab") == NULL); /* not a TZif file: rejected, no crash */
    CHECK(tz_get("Europe") == NULL);   /* a directory */
    CHECK(tz_get("Europe/Berlin") == tz_get("Europe/Berlin")); /* cached */
    CHECK_STR(tz_default_name(), "Etc/UTC");
    const tz_info *k = tz_get("Asia/Kolkata");
    CHECK(tz_offset_at(k, 1600000000) == 19800);
    CHECK_STR(tz_name(k), "Asia/Kolkata");
}

static int64_t pdt(const char *s, const char *tz, bool be)
{
    int64_t t;
    if (dt_parse_datetime(s, strlen(s), tz_get(tz), be, &t) < 0)
        return -999;
    return t;
}

static void test_parse(void)
{
    /* basic */
    CHECK(pdt("1234567890", "UTC", false) == 1234567890);
    CHECK(pdt("2021-01-01 1:2:3", "UTC", false) == 1609462923);
    CHECK(pdt("2021-01-01 10", "UTC", false) == 1609495200);
    CHECK(pdt("2021-01-01T10:00:00", "UTC", false) == 1609495200);
    CHECK(pdt(" 2021-01-01 10:00:00", "UTC", false) == 1609495200);
    CHECK(pdt("2021-01-01 10:00:00.123", "UTC", false) == 1609495200);
    CHECK(pdt("2021-01-01", "UTC", false) == 1609459200);
    CHECK(pdt("1960-01-01 00:00:00", "UTC", false) == 0);
    CHECK(pdt("2200-01-01 00:00:00", "UTC", false) == 4294967295LL);
    CHECK(pdt("12345", "UTC", false) == -999 && err_code() == ERR_CANNOT_PARSE_DATETIME);
    CHECK_STR(err_msg(), "Cannot read DateTime: unexpected number of decimal digits: 5");
    CHECK(pdt("2021-02-30 10:00:00", "UTC", false) == -999);
    CHECK_STR(err_msg(), "Cannot read DateTime: unexpected date: 2021-2-30");
    CHECK(pdt("2021-01-01 10:00:00abc", "UTC", false) == -999);
    CHECK(pdt("", "UTC", false) == -999);
    CHECK_STR(err_msg(), "Cannot read DateTime: neither Date nor Time was parsed successfully");
    CHECK(pdt("abc", "UTC", false) == -999);
    CHECK_STR(err_msg(), "Cannot read DateTime: unexpected word");
    /* best effort (values from parseDateTimeBestEffort) */
    CHECK(pdt("2023-01-03T10:00:00Z", "UTC", true) == 1672740000);
    CHECK(pdt("2023-01-03T10:00:00+05:30", "UTC", true) == 1672720200);
    CHECK(pdt("2023-01-03 10:00:00 -0800", "UTC", true) == 1672768800);
    CHECK(pdt("2023/01/03 10:00", "UTC", true) == 1672740000);
    CHECK(pdt("03/01/2023", "UTC", true) == 1672704000);
    CHECK(pdt("03/01/2023 10:20:30", "UTC", true) == 1672741230);
    CHECK(pdt("Tue, 3 Jan 2023 10:00:00 GMT", "UTC", true) == 1672740000);
    CHECK(pdt("3 Jan 2023", "UTC", true) == 1672704000);
    CHECK(pdt("Jan 3 2023 10:00 PM", "UTC", true) == 1672783200);
    CHECK(pdt("January 3, 2023", "UTC", true) == 1672704000);
    CHECK(pdt("20230103102030", "UTC", true) == 1672741230);
    CHECK(pdt("20230103", "UTC", true) == 1672704000);
    CHECK(pdt("2023-01-03T10:00:00.123Z", "UTC", true) == 1672740000);
    CHECK(pdt("1672740000", "UTC", true) == 1672740000);
    {
        /* time only: January 1st of the current year */
        time_t now = time(NULL);
        struct tm tmv;
        gmtime_r(&now, &tmv);
        int64_t jan1 = dt_days_from_civil(tmv.tm_year + 1900, 1, 1) * 86400;
        CHECK(pdt("10:20:30", "UTC", true) == jan1 + 37230);
    }
    CHECK(pdt("2023-01", "UTC", true) == 1672531200);
    CHECK(pdt("12 Mar 2021 5:30 am", "UTC", true) == 1615527000);
    CHECK(pdt("2023-01-03 10:00:00+01", "UTC", true) == 1672736400);
    CHECK(pdt("Sat, 18 Aug 2018 07:22:16 GMT", "UTC", true) == 1534576936);
    CHECK(pdt("2018-08-18T07:22:16.123456+03:00", "UTC", true) == 1534566136);
    CHECK(pdt("17 Apr 2000 2:00 PM", "UTC", true) == 955980000);
    CHECK(pdt("2019-04-01 22:34:56 Z", "UTC", true) == 1554158096);
    CHECK(pdt("2020-02-29 12:00:00", "UTC", true) == 1582977600);
    CHECK(pdt("31.12.2022", "UTC", true) == 1672444800);
    int64_t d;
    CHECK(dt_parse_date("2021-1-5", 8, &d) == 0 && d == 18632);
    CHECK(dt_parse_date("2021/01/05", 10, &d) == 0 && d == 18632);
    CHECK(dt_parse_date("20210105", 8, &d) == 0 && d == 18632);
    CHECK(dt_parse_date("0000-00-00", 10, &d) == 0 && d == 0);
    CHECK(dt_parse_date("2021-02-30", 10, &d) == 0 && d == 18688); /* rolls into March */
    CHECK(dt_parse_date("2021-01-01abc", 13, &d) < 0 && err_code() == ERR_CANNOT_PARSE_TEXT);
    CHECK_STR(err_msg(), "Cannot parse string '2021-01-01abc' as Date: syntax error at position 10 (parsed just '2021-01-01')");
    int64_t t64;
    CHECK(dt_parse_datetime64("1234567890.123", 14, 3, tz_get("UTC"), false, &t64) == 0 && t64 == 1234567890123LL);
    CHECK(dt_parse_datetime64("2021-01-01 10:00:00.1", 21, 6, tz_get("UTC"), false, &t64) == 0 && t64 == 1609495200100000LL);
    CHECK(dt_parse_datetime64("2021-01-01 10:00:00.123456789", 29, 3, tz_get("UTC"), false, &t64) == 0 && t64 == 1609495200123LL);
    char b[64];
    b[dt_format_datetime64(-1, 3, tz_get("UTC"), b)] = 0;
    CHECK_STR(b, "1969-12-31 23:59:59.999");
    b[dt_format_datetime64(5, 0, tz_get("UTC"), b)] = 0;
    CHECK_STR(b, "1970-01-01 00:00:05");
}

int main(void)
{
    test_civil();
    test_zones();
    test_parse();
    return check_done("datetime");
}
