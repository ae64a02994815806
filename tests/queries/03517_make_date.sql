-- makeDate, makeDate32, makeDateTime, makeDateTime64: components, roll-over, the zero /
-- minimum / maximum for bad or out-of-range values, fractions and precision, time zones.
SELECT makeDate(2023, 2, 28), makeDate(2023, 59), toTypeName(makeDate(2023, 1, 1)), makeDate32(1900, 1, 1), toTypeName(makeDate32(1900, 1, 1)), makeDate(1969, 12, 31), makeDate(2150, 1, 1), makeDate(2023, 2, 30), makeDate(2023, 13, 1), makeDate(2023, 0, 1), makeDate(2023.7, 1.9, 1.5), makeDate(2023, 366), makeDate(2023, 0);
SELECT makeDate(2149, 5, 40), makeDate32(2299, 12, 32), makeDate(2020, 1, 0), makeDate(2020, 1, 32), makeDate(2020, 2, 31), makeDate(nan, 1, 1), makeDate(2020, -1, 1), makeDate(1970, 1, -1), makeDate32(2299, 366), makeDate32(1900, 0), makeDate(2024, 366);
SELECT makeDate(-5, 1, 1), makeDate(10000, 1, 1), makeDate32(2300, 1, 1), makeDate32(1899, 12, 31), makeDate32(2299, 12, 31), makeDate(2149, 6, 6), makeDate(2149, 6, 7), makeDate(1970, 1, 1), makeDate(toDecimal32(2020, 0), 1, 1), MAKEDATE(2020, 2, 2);
SELECT makeDate(NULL, 1, 1), makeDate(toNullable(2020), 1, 1), makeDate(2020, 1), toTypeName(makeDate(toNullable(2020), 1, 1));
SELECT makeDateTime(2023, 2, 28, 17, 12, 33), toTypeName(makeDateTime(2023, 2, 28, 17, 12, 33)), makeDateTime(2023, 2, 28, 17, 12, 33, 'Asia/Tokyo'), toTypeName(makeDateTime(2023, 2, 28, 17, 12, 33, 'Asia/Tokyo')), makeDateTime(1969, 1, 1, 0, 0, 0), makeDateTime(2023, 2, 28, 25, 0, 0), makeDateTime(2023, 2, 28, 23, 61, 0) SETTINGS session_timezone = 'UTC';
SELECT makeDateTime(2020, 1, 0, 0, 0, 0), makeDateTime(2020, 13, 1, 0, 0, 0), makeDateTime(2020, 1, 1, -1, 0, 0), makeDateTime(2020, 1, 1, 0, -1, 0), makeDateTime(2020, 1, 1, 0, 0, -1), makeDateTime(2020, 1, 1, 100, 0, 0), makeDateTime(2020, 2, 31, 0, 0, 0), makeDateTime(1970, 1, 1, 0, 0, 0, 'Asia/Tokyo'), makeDateTime(2020, 1, 1, 0, 0, 86400 * 400), makeDateTime(2107, 1, 1, 0, 0, 0), makeDateTime(1970, 1, 1, 0, 0, 0, 'America/New_York') SETTINGS session_timezone = 'UTC';
SELECT makeDateTime(2106, 2, 7, 6, 28, 15, 'UTC'), makeDateTime(2106, 2, 7, 6, 28, 16, 'UTC'), makeDateTime(2020, 3, 29, 2, 30, 0, 'Europe/Berlin'), makeDateTime(2020, 10, 25, 2, 30, 0, 'Europe/Berlin');
SELECT makeDateTime64(2023, 5, 15, 10, 30, 45, 779, 5, 'UTC'), toTypeName(makeDateTime64(2023, 5, 15, 10, 30, 45, 779, 5)), makeDateTime64(2023, 5, 15, 10, 30, 45, 0, 3, 'UTC'), toTypeName(makeDateTime64(2023, 5, 15, 10, 30, 45)), makeDateTime64(2023, 5, 15, 10, 30, 45, 779, 3, 'UTC');
SELECT makeDateTime64(2020, 1, 0, 0, 0, 0, 0, 3, 'UTC'), makeDateTime64(2020, 1, 1, -1, 0, 0, 5, 2, 'UTC'), makeDateTime64(2020, 1, 1, 0, 0, 0, -5, 3, 'UTC'), makeDateTime64(2300, 1, 1, 0, 0, 0, 0, 3, 'UTC'), makeDateTime64(2020, 1, 1, 0, 0, 0, 5, 0, 'UTC'), makeDateTime64(2020, 1, 1, 0, 0, 1.7, 0, 3, 'UTC'), makeDateTime64(2020, 1, 1, 0, 0, 0, 1.5, 3, 'UTC');
SELECT makeDateTime64(1900, 1, 1, 0, 0, 0, 0, 0, 'UTC'), makeDateTime64(1899, 12, 31, 23, 59, 59, 0, 0, 'UTC'), makeDateTime64(2299, 12, 31, 23, 59, 59, 99, 2, 'UTC'), makeDateTime64(2023, 1, 1, 0, 0, 0, 1234, 3, 'UTC'), makeDateTime64(2023, 1, 1, 12, 0, 0, 5, 1, 'Asia/Tokyo');
SELECT makeDate(number + 2020, number + 1, number * 10 + 1), makeDateTime(2020, 1, 1, number, number, number, 'UTC'), makeDateTime64(2020, 1, 1, 0, 0, number, number * 7, 2, 'UTC'), makeDate32(1900 + number * 100, number * 100 + 1) FROM numbers(4);
SELECT makeDate('2023', 1, 1); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT makeDate(2020, 1, 1, 1); -- { serverError NUMBER_OF_ARGUMENTS_DOESNT_MATCH }
SELECT makeDate32(2020); -- { serverError NUMBER_OF_ARGUMENTS_DOESNT_MATCH }
SELECT makeDateTime(2020, 1, 1, 0, 0); -- { serverError NUMBER_OF_ARGUMENTS_DOESNT_MATCH }
SELECT makeDateTime(2020, 1, 1, 0, 0, 0, 5); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT makeDateTime64(2020, 1, 1, 0, 0, 0, 0, materialize(3)); -- { serverError ILLEGAL_COLUMN }
SELECT makeDateTime64(2023, 1, 1, 0, 0, 0, 0, 10); -- { serverError ARGUMENT_OUT_OF_BOUND }
SELECT makeDateTime(2020, 1, 1, 0, 0, 0, 'Bad/Zone'); -- { serverError BAD_ARGUMENTS }
