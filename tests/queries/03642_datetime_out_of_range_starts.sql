-- toStartOfDay/Hour/Minute/…Minutes of a DateTime64 outside DateTime's range wrap to the
-- DateTime (UInt32) as ClickHouse's cast; a Date or DateTime whose local day starts before
-- 1970-01-01 00:00 UTC gives the start of the first day that does not (found by difftest).
SELECT toStartOfHour(toDateTime64('1960-01-01 00:00:00', 3, 'UTC')), toStartOfHour(toDateTime64('2200-01-01 00:00:00', 3, 'UTC'));
SELECT toStartOfMinute(toDateTime64('1900-01-01 00:00:00', 6, 'UTC')), toStartOfDay(toDateTime64('1900-01-01 00:00:00', 6, 'UTC')), toStartOfFifteenMinutes(toDateTime64('2299-12-31 23:59:59', 6, 'UTC'));
SELECT toStartOfFiveMinutes(toDateTime64('1960-01-01 00:00:00', 3, 'UTC')), toStartOfTenMinutes(toDateTime64('1960-01-01 00:00:00', 3, 'UTC'));
SELECT toStartOfHour(toDateTime64('1990-04-26 11:40:01.510855', 6, 'Asia/Kolkata')), toStartOfHour(toDateTime64('2299-12-31 23:59:59', 6, 'Asia/Kolkata'));
SELECT toDateTime(toDate('1970-01-01'), 'Asia/Kolkata'), toDateTime(toDate('1970-01-01'), 'Asia/Tokyo'), toDateTime(toDate('1970-01-02'), 'Asia/Tokyo'), toDateTime(toDate('1970-01-01'), 'America/New_York');
SELECT toUInt32(toDateTime(toDate('1970-01-01'), 'Asia/Kolkata')), toUInt32(toDateTime(toDate32('1969-12-31'), 'UTC'));
SELECT toDateTime(toMonday(toDateTime64('1900-01-01 00:00:00', 1, 'UTC')), 'Asia/Kolkata');
SELECT toUInt32(toStartOfDay(toDateTime(0, 'Asia/Kolkata'))), toUInt32(toStartOfDay(toDateTime(100, 'America/New_York'))), toUInt32(toStartOfHour(toDateTime(0, 'Asia/Kolkata')));
SELECT toStartOfDay(toDateTime(86400 * 3 + 5, 'Asia/Kolkata')), toStartOfHour(toDateTime64('2020-05-05 10:20:30.5', 1, 'Asia/Kolkata'));
