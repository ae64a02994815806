-- A Date moved by months, quarters or years before 1970 stays at 1970-01-01 (days and weeks
-- wrap, as do months past 2149); toLastDayOfMonth of a Date in June 2149 wraps. Found by the
-- differential generator through toRelative*Num.
SELECT addMonths(toDate('1970-03-01'), -4), addYears(toDate('1970-03-01'), -1), subtractMonths(toDate('1970-01-01'), 4), subtractQuarters(toDate('1970-01-01'), 1), subtractYears(toDate('1970-06-01'), 1);
SELECT addMonths(toDate('2149-06-01'), 12), addYears(toDate('2149-01-01'), 1), subtractWeeks(toDate('1970-01-01'), 1), subtractDays(toDate('1970-01-01'), 1), addMonths(toDate('2149-05-31'), 1);
SELECT addMonths(toDate32('1900-01-01'), -1), addMonths(toDate32('2299-12-01'), 1);
SELECT toLastDayOfMonth(toDate32('2299-12-31')), toLastDayOfMonth(toDate32('1900-01-01')), toLastDayOfMonth(toDate('2149-06-06')), toLastDayOfMonth(toDate('2149-05-06')), toLastDayOfMonth(toDateTime('2106-02-07 00:00:00', 'UTC'));
SELECT toRelativeSecondNum(subtractMonths(toDate('1970-01-01'), 4)), toRelativeWeekNum(toLastDayOfMonth(toDate('2149-06-06'))) SETTINGS session_timezone = 'UTC';
SELECT subtractMonths(toDate('1970-03-01') + number * 20, 2) FROM numbers(4);
