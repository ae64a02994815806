-- UNION ALL of different types: each column takes the parts' supertype, as ClickHouse.
SELECT x, toTypeName(x) FROM (SELECT toUInt8(1) AS x UNION ALL SELECT toUInt32(300) UNION ALL SELECT toInt16(-2)) ORDER BY x;
SELECT x, toTypeName(x) FROM (SELECT 1 AS x UNION ALL SELECT NULL) ORDER BY x;
SELECT x, length(x) FROM (SELECT toFixedString('a', 2) AS x UNION ALL SELECT toFixedString('b', 5)) ORDER BY x;
SELECT x, toTypeName(x) FROM (SELECT [1] AS x UNION ALL SELECT [NULL, 1000]) ORDER BY length(x);
SELECT s, toTypeName(s) FROM (SELECT toInt32(sum(number)) AS s FROM numbers(10) UNION ALL SELECT toInt8(-1)) ORDER BY s;
SELECT d, toTypeName(d) FROM (SELECT toDate('2020-01-01') AS d UNION ALL SELECT toDateTime('2020-01-02 03:04:05', 'UTC')) ORDER BY d;
SELECT count(), sum(x) FROM (SELECT toUInt16(number) AS x FROM numbers(100000) UNION ALL SELECT toInt64(-number) FROM numbers(10));
SELECT 1 UNION ALL SELECT 2.5 UNION ALL SELECT -3 ORDER BY 1;
