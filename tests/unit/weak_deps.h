/* Weak stand-ins for functions other modules provide (datetime.c, the format writer's
 * fmt_settings_default), so these tests link on a branch where those are not merged yet.
 * A strong definition elsewhere in the link wins. */
#include "column/datetime.h"
#include "format/format.h"

#include <stdio.h>
#include <string.h>

__attribute__((weak)) const tz_info *tz_get(const char *name)
{
    (void)name;
    static int dummy;
    return (const tz_info *)&dummy;
}
__attribute__((weak)) int dt_parse_date(const char *s, size_t n, int64_t *days)
{
    int y, m, d;
    char tmp[16];
    if (n != 10)
        return -1;
    memcpy(tmp, s, 10);
    tmp[10] = 0;
    if (sscanf(tmp, "%4d-%2d-%2d", &y, &m, &d) != 3)
        return -1;
    y -= m <= 2;
    int era = y / 400, yoe = y - era * 400, doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    *days = (int64_t)era * 146097 + yoe * 365 + yoe / 4 - yoe / 100 + doy - 719468;
    return 0;
}
__attribute__((weak)) int dt_parse_datetime(const char *s, size_t n, const tz_info *tz, bool be, int64_t *secs)
{
    int64_t days;
    int hh, mm, ss;
    if (n != 19 || dt_parse_date(s, 10, &days) || sscanf(s + 11, "%2d:%2d:%2d", &hh, &mm, &ss) != 3)
        return -1;
    *secs = days * 86400 + hh * 3600 + mm * 60 + ss;
    return 0;
}
__attribute__((weak)) int dt_parse_datetime64(const char *s, size_t n, int scale, const tz_info *tz, bool be,
                                              int64_t *ticks)
{
    int64_t secs;
    if (n < 19 || dt_parse_datetime(s, 19, tz, be, &secs))
        return -1;
    int64_t m = 1, frac = 0;
    for (int i = 0; i < scale; i++)
        m *= 10;
    int64_t f = m / 10;
    for (size_t i = 20; i < n && f; i++, f /= 10)
        frac += (s[i] - '0') * f;
    *ticks = secs * m + frac;
    return 0;
}
__attribute__((weak)) void fmt_settings_default(fmt_settings *s)
{
    memset(s, 0, sizeof *s);
    s->csv_delimiter = ',';
    s->skip_unknown_fields = true;
    s->null_as_default = true;
    s->max_block_rows = 65536;
    s->max_block_bytes = 1 << 20;
    s->schema_inference_make_columns_nullable = true;
    s->try_infer_integers = s->try_infer_dates = s->try_infer_datetimes = true;
    s->max_rows_to_read_for_schema_inference = 25000;
    s->with_names_use_header = true;
    s->timezone = "UTC";
}
