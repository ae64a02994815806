-- Pretty measures values as ClickHouse's UTF8::computeWidth: ANSI escape sequences and
-- control characters take no room, a tab reaches the next multiple of 8.
SELECT format('\x1b[38;2;{0};{1};{2}m█\x1b[0m', 255, 128, 128) AS x FORMAT Pretty;
SELECT 'Hello', format('\x1b[1m{0}\x1b[0m and \x1b[4m{0}\x1b[0m', toString(number)) AS x FROM numbers(3) FORMAT PrettyCompact;
SELECT 'a\tb' AS x, 'ab\tcd\te' AS y FORMAT PrettySpace;
SELECT 'a\tb' AS x, 'ab\tcd\te' AS y FORMAT PrettyCompact;
SELECT concat('\x01\x02', 'ab') AS ctl, 'é中文' AS wide FORMAT PrettyCompact;
-- numbers, dates and times are right-aligned, other types left
SELECT toDate('2020-01-01') AS a, toDateTime('2020-01-01 00:00:00') AS bbbbbbbbbbbbbbbbbbbbb, toNullable(toDate('2020-01-01')) AS cccccccccccccc, toUUID('00000000-0000-0000-0000-000000000000') AS e FORMAT PrettyCompactNoEscapes;
SELECT toIPv4('1.2.3.4') AS aaaaaaaaaaaaaaaaa, CAST('a' AS Enum('a' = 1)) AS bbbbbbbbbbbb, toNullable(1) AS eeeeee, true AS bbbbbbb FORMAT PrettyCompactNoEscapes;
