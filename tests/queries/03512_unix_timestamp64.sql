-- toUnixTimestamp64Second/Milli/Micro/Nano and fromUnixTimestamp64Second/Milli/Micro/Nano.
SELECT toUnixTimestamp64Milli(toDateTime64('2020-01-01 00:00:00.123456', 6, 'UTC')), toUnixTimestamp64Micro(toDateTime64('2020-01-01 00:00:00.123', 3, 'UTC')), toUnixTimestamp64Nano(toDateTime64('2020-01-01 00:00:00.123', 3, 'UTC')), toUnixTimestamp64Second(toDateTime64('2020-01-01 00:00:00.999', 3, 'UTC')), toTypeName(toUnixTimestamp64Milli(toDateTime64('2020-01-01 00:00:00', 3)));
SELECT toUnixTimestamp64Milli(toDateTime64('1969-12-31 23:59:59.9999', 4, 'UTC')), toUnixTimestamp64Second(toDateTime64('1969-12-31 23:59:59.5', 1, 'UTC')), toUnixTimestamp64Micro(toDateTime64(-1.5, 1, 'UTC')), toUnixTimestamp64Second(toDateTime64(-1.5, 1, 'UTC'));
SELECT toUnixTimestamp64Milli(toDateTime64('2020-01-01 00:00:00.5', 1, 'UTC')) = toUnixTimestamp64Milli(toDateTime64('2020-01-01 00:00:00.5', 1, 'Asia/Tokyo')), toUnixTimestamp64Nano(toDateTime64('2260-01-01 00:00:00.123456789', 9, 'UTC'));
SELECT fromUnixTimestamp64Milli(1577836800123, 'UTC'), toTypeName(fromUnixTimestamp64Milli(1577836800123)), fromUnixTimestamp64Milli(1577836800123, 'Asia/Tokyo'), toTypeName(fromUnixTimestamp64Milli(1577836800123, 'Asia/Tokyo'));
SELECT fromUnixTimestamp64Second(1, 'UTC'), toTypeName(fromUnixTimestamp64Second(1)), fromUnixTimestamp64Nano(-1, 'UTC'), fromUnixTimestamp64Micro(toInt32(5), 'UTC'), toTypeName(fromUnixTimestamp64Micro(5)), toTypeName(fromUnixTimestamp64Nano(5));
SELECT fromUnixTimestamp64Milli(toUInt64(1), 'UTC'), fromUnixTimestamp64Milli(toUInt64(18446744073709551615), 'UTC'), fromUnixTimestamp64Milli(toUInt8(200), 'UTC'), fromUnixTimestamp64Milli(toInt16(-5), 'UTC');
SELECT toUnixTimestamp64Milli(toNullable(toDateTime64('2020-01-01 00:00:00.5', 1, 'UTC'))), fromUnixTimestamp64Milli(NULL), fromUnixTimestamp64Milli(toNullable(1), 'UTC'), toUnixTimestamp64Milli(NULL), toTypeName(fromUnixTimestamp64Milli(NULL));
SELECT number, fromUnixTimestamp64Milli(toInt64(1600000000000 + number * 123456789), 'Europe/Moscow') AS t, toUnixTimestamp64Micro(t), toUnixTimestamp64Second(t) FROM numbers(4);
SELECT toUnixTimestamp64Milli(fromUnixTimestamp64Micro(x, 'UTC')), toUnixTimestamp64Nano(fromUnixTimestamp64Milli(x)) FROM (SELECT arrayJoin([-1001, -1, 0, 1, 999999]) AS x);
SELECT toUnixTimestamp64Milli(toDateTime('2020-01-01 00:00:00', 'UTC')); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT toUnixTimestamp64Milli(toDate('2020-01-01')); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT toUnixTimestamp64Nano(toDateTime64('2299-01-01 00:00:00', 0, 'UTC')); -- { serverError DECIMAL_OVERFLOW }
SELECT toUnixTimestamp64Milli(toDateTime64('2020-01-01 00:00:00.5', 1, 'UTC'), 'UTC'); -- { serverError NUMBER_OF_ARGUMENTS_DOESNT_MATCH }
SELECT fromUnixTimestamp64Milli(1.5); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT fromUnixTimestamp64Milli('1'); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT fromUnixTimestamp64Milli(toDecimal32(1, 0)); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT fromUnixTimestamp64Milli(toInt128(1)); -- { serverError ILLEGAL_COLUMN }
SELECT fromUnixTimestamp64Milli(1, 5); -- { serverError ILLEGAL_COLUMN }
SELECT fromUnixTimestamp64Milli(materialize(1), materialize('UTC')); -- { serverError ILLEGAL_COLUMN }
SELECT fromUnixTimestamp64Milli(1, 'Bad/Zone'); -- { serverError BAD_ARGUMENTS }
SELECT fromUnixTimestamp64Milli(toInt128(number)) FROM numbers(0); -- { serverError ILLEGAL_COLUMN }
CREATE TABLE t64 (x Int128) ENGINE = Memory;
SELECT fromUnixTimestamp64Milli(x) FROM t64 WHERE 0; -- { serverError ILLEGAL_COLUMN }
