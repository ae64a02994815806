/* Calendar and time-zone arithmetic, and the text forms of Date/DateTime values.
 *
 * Time zones come from the system's TZif files (/usr/share/zoneinfo), loaded once per
 * name and cached for the life of the process (never freed). ClickHouse semantics:
 * Date = days since 1970-01-01 (UInt16, 1970..2149), Date32 = days (Int32, 1900..2299),
 * DateTime = unix seconds (UInt32), DateTime64(P) = unix time in 10^-P s ticks (Int64).
 * Time-zone offsets are applied when converting to and from civil time.
 * All functions are thread-safe. Errors: -1 with err_set (ERR_CANNOT_PARSE_DATETIME,
 * ERR_CANNOT_PARSE_DATE, ERR_BAD_ARGUMENTS for an unknown time zone). */
#ifndef SHALE_COLUMN_DATETIME_H
#define SHALE_COLUMN_DATETIME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct tz_info tz_info;

/* The zone for a name such as "UTC", "Europe/Moscow"; NULL with an error if unknown. */
const tz_info *tz_get(const char *name);
const char *tz_name(const tz_info *tz);
/* The process default: $TZ, else /etc/timezone or /etc/localtime's zone, else UTC. */
const char *tz_default_name(void);
/* Offset from UTC in seconds at unix time t. */
int32_t tz_offset_at(const tz_info *tz, int64_t t);
/* Unix time of a civil (local) time; for gaps and overlaps picks as ClickHouse does
 * (the earlier offset). */
int64_t tz_local_to_utc(const tz_info *tz, int64_t local_seconds);

/* Civil calendar helpers (proleptic Gregorian). */
int64_t dt_days_from_civil(int64_t y, unsigned m, unsigned d);
void dt_civil_from_days(int64_t days, int64_t *y, unsigned *m, unsigned *d);

/* Text: "YYYY-MM-DD" (10 chars) and "YYYY-MM-DD hh:mm:ss" (19 chars), "...ss.fff" for
 * DateTime64 with `scale` digits. Return the number of chars written (no NUL). */
size_t dt_format_date(int64_t days, char *out);
size_t dt_format_datetime(int64_t secs, const tz_info *tz, char *out);
size_t dt_format_datetime64(int64_t ticks, int scale, const tz_info *tz, char *out);

/* Parsing the formats ClickHouse accepts by default in text input and in CAST
 * (date_time_input_format = 'basic'): "YYYY-MM-DD", "YYYY-MM-DD hh:mm:ss[.fff]", unix
 * timestamps as digits. `best_effort` accepts what parseDateTimeBestEffort accepts. */
int dt_parse_date(const char *s, size_t n, int64_t *days);
int dt_parse_datetime(const char *s, size_t n, const tz_info *tz, bool best_effort, int64_t *secs);
int dt_parse_datetime64(const char *s, size_t n, int scale, const tz_info *tz, bool best_effort, int64_t *ticks);

#endif
