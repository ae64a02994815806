-- A number above Date32's last day is a unix time, capped at 2299-12-31 23:59:59 (not at
-- DateTime's 2106): toDate32 and CAST alike.
SELECT toDate32(1234567890123456, 'UTC'), toDate32(10413791999), toDate32(10413792000), toDate32(10413791999, 'Asia/Tokyo'),
    toDate32(5000000000), toDate(5000000000);
SELECT CAST(5000000000 AS Date32), CAST(1234567890123456 AS Date32), CAST(10413791999 AS Date32), CAST(toInt128(1e20) AS Date32),
    CAST(5000000000 AS Date);
SELECT age('minute', toDate32(1234567890123456, 'UTC'), toDateTime64('1927-01-02 00:00:00', 3, 'UTC'), 'UTC');
