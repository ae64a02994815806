SELECT DATE_TRUNC('month', toDate('2020-05-05')), toStartOfInterval(toDateTime('2020-05-05 23:11:12'), INTERVAL 1 DAY, 'Asia/Tokyo'), age('hour', toDateTime('2020-01-01 00:00:00'), toDateTime('2020-01-02 00:00:00'), 'Asia/Tokyo');
SELECT age('days', toDate('2020-01-01'), toDate('2020-02-01')), age('dd', toDate('2020-01-01'), toDate('2020-02-01'));
SELECT toStartOfInterval(toDate32('1950-05-05'), INTERVAL 1 MONTH), toTypeName(toStartOfInterval(toDate32('1950-05-05'), INTERVAL 1 MONTH)), dateTrunc('month', toDate32('1950-05-05'));
SELECT toStartOfInterval(toDateTime64('2020-05-05 10:11:12.345', 3), INTERVAL 1 MINUTE);
SELECT toStartOfInterval(toDateTime('2020-05-05 10:11:12', 'Asia/Kathmandu'), INTERVAL 7 MINUTE), toStartOfInterval(toDateTime('2020-05-05 10:11:12', 'Asia/Kathmandu'), INTERVAL 7 SECOND), toStartOfInterval(toDateTime('2020-05-05 10:11:12', 'Europe/Berlin'), INTERVAL 7 MINUTE), toStartOfInterval(toDateTime('2020-05-05 10:11:12', 'Europe/Berlin'), INTERVAL 3 HOUR);
SELECT dateTrunc('fortnight', now()); -- { serverError BAD_ARGUMENTS }
SELECT toStartOfInterval(now(), 1); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT toWeek(toDate('2020-01-01'), number) FROM numbers(2); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
