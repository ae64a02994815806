-- toDaysSinceYearZero (TO_DAYS), fromDaysSinceYearZero (FROM_DAYS), fromDaysSinceYearZero32.
SELECT toDaysSinceYearZero(toDate('2023-09-08')), toTypeName(toDaysSinceYearZero(toDate('2023-09-08'))), toDaysSinceYearZero(toDateTime('2023-09-08 23:00:00', 'Asia/Tokyo')), toDaysSinceYearZero(toDate32('1900-01-01')), toDaysSinceYearZero(toDateTime64('1900-01-01 00:00:00', 3, 'UTC')), toDaysSinceYearZero(toDate('2023-09-08'), 'Asia/Tokyo'), TO_DAYS(toDate('2000-01-01')), FROM_DAYS(730485);
SELECT fromDaysSinceYearZero(739136), toTypeName(fromDaysSinceYearZero(739136)), fromDaysSinceYearZero32(739136), toTypeName(fromDaysSinceYearZero32(739136)), fromDaysSinceYearZero(0), fromDaysSinceYearZero(719528), fromDaysSinceYearZero(719527), fromDaysSinceYearZero(99999999), fromDaysSinceYearZero32(693961), fromDaysSinceYearZero32(0), fromDaysSinceYearZero32(693960), fromDaysSinceYearZero32(3652424);
SELECT fromDaysSinceYearZero(toUInt64(18446744073709551615)), fromDaysSinceYearZero(toNullable(739136)), fromDaysSinceYearZero(NULL);
SELECT number, toDaysSinceYearZero(toDate('2020-02-27') + number) AS d, fromDaysSinceYearZero(d), fromDaysSinceYearZero32(d - 50000) FROM numbers(4);
SELECT toDaysSinceYearZero('2023-09-08'); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT fromDaysSinceYearZero(-1); -- { serverError ARGUMENT_OUT_OF_BOUND }
SELECT fromDaysSinceYearZero(toInt64(-5)); -- { serverError ARGUMENT_OUT_OF_BOUND }
SELECT fromDaysSinceYearZero(1.5); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT toYearNumSinceEpoch(toDateTime('2023-12-31 23:00:00', 'UTC')), toYearNumSinceEpoch(toDateTime('2023-12-31 23:00:00', 'UTC'), 'Asia/Tokyo'), toMonthNumSinceEpoch(toDateTime64('1969-12-31 00:00:00', 3, 'UTC')), toYearNumSinceEpoch(toDateTime64('1900-01-01 00:00:00', 3, 'UTC')), toMonthNumSinceEpoch(toDate32('2299-12-31')), toYearNumSinceEpoch(toDate32('2299-12-31')), toMonthNumSinceEpoch(toDate('1970-01-01')), toYearNumSinceEpoch(toDate32('1969-12-31'));
SELECT toYearNumSinceEpoch(toDate('2023-09-08')), toMonthNumSinceEpoch(toDate('2023-09-08')), toTypeName(toYearNumSinceEpoch(toDate('2023-09-08'))), toTypeName(toMonthNumSinceEpoch(toDate('2023-09-08'))), toYearNumSinceEpoch(toDate32('1900-05-01')), toMonthNumSinceEpoch(toDate32('1900-05-01'));
SELECT toYearNumSinceEpoch(1); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT toYearNumSinceEpoch(toDate('2020-01-01'), 1); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
