-- timeZoneOf / timezoneOf: the time zone of a DateTime or DateTime64 value's type.
SELECT timezoneOf(now()), timeZoneOf(toDateTime(0, 'Asia/Tokyo')), timezoneOf(toDateTime64(0, 3, 'UTC')), toTypeName(timezoneOf(now())), timezoneOf(materialize(toDateTime(0, 'Europe/Moscow')));
SELECT timezoneOf(toDateTime('2020-01-01 00:00:00', 'America/New_York')) FROM numbers(2);
SET session_timezone = 'Asia/Kolkata';
SELECT timezoneOf(now()), timezoneOf(toDateTime(0, 'UTC'));
SELECT timezoneOf(toDate(0)); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT timezoneOf(); -- { serverError NUMBER_OF_ARGUMENTS_DOESNT_MATCH }
