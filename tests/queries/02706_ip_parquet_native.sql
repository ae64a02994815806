-- IPv4/IPv6 in binary formats: Parquet as ClickHouse writes them (IPv4 a UInt32 column, IPv6 a
-- FixedString(16) one) read back with and without the IP types; Native and RowBinary round trips
INSERT INTO FUNCTION file('data/ip_w.parquet') SELECT toIPv4(concat('10.0.', toString(number % 256), '.', toString(number % 7))) AS a, toIPv6(concat('2001:db8::', toString(number))) AS b, if(number % 3 = 0, NULL, a) AS n, [a, toIPv4('1.1.1.1')] AS arr, toLowCardinality(b) AS l FROM numbers(1000) SETTINGS engine_file_truncate_on_insert = 1;
DESCRIBE file('data/ip_w.parquet');
SELECT a, hex(b), n, arr, hex(l) FROM file('data/ip_w.parquet') ORDER BY a, b LIMIT 5;
SELECT * FROM file('data/ip_w.parquet', Parquet, 'a IPv4, b IPv6, n Nullable(IPv4), arr Array(IPv4), l IPv6') ORDER BY b DESC LIMIT 5;
SELECT count(), min(a), max(b), countIf(n IS NULL), uniqExact(l) FROM file('data/ip_w.parquet', Parquet, 'a IPv4, b IPv6, n Nullable(IPv4), arr Array(IPv4), l IPv6');
SELECT count() FROM file('data/ip_w.parquet', Parquet, 'a IPv4, b IPv6, n Nullable(IPv4), arr Array(IPv4), l IPv6') WHERE a > '10.0.200.0' AND isIPAddressInRange(b, '2001:db8::/120');
INSERT INTO FUNCTION file('data/ip_w.native', Native) SELECT toIPv4(toUInt32(number * 16777259)) AS a, toIPv6(toUInt128(number) * toUInt128('18446744073709551629')) AS b, if(number % 2 = 0, NULL, b) AS n, [a] AS arr FROM numbers(100) SETTINGS engine_file_truncate_on_insert = 1;
SELECT * FROM file('data/ip_w.native', Native) ORDER BY a LIMIT 5;
SELECT toTypeName(a), toTypeName(b), toTypeName(n), toTypeName(arr) FROM file('data/ip_w.native', Native) LIMIT 1;
INSERT INTO FUNCTION file('data/ip_w.rowbinary', RowBinaryWithNamesAndTypes) SELECT toIPv4(toUInt32(number * 16777259)) AS a, toIPv6(toUInt128(number) * toUInt128('18446744073709551629')) AS b FROM numbers(100) SETTINGS engine_file_truncate_on_insert = 1;
SELECT * FROM file('data/ip_w.rowbinary', RowBinaryWithNamesAndTypes) ORDER BY b DESC LIMIT 3;
INSERT INTO FUNCTION file('data/ip_w.rb', RowBinary) SELECT toIPv4(toUInt32(number * 16777259)) AS a, toIPv6(toUInt128(number) * toUInt128('18446744073709551629')) AS b FROM numbers(100) SETTINGS engine_file_truncate_on_insert = 1;
SELECT a, hex(b) FROM file('data/ip_w.rb', RowBinary, 'a UInt32, b FixedString(16)') ORDER BY a LIMIT 3;
SELECT * FROM file('data/ip_w.rb', RowBinary, 'a IPv4, b IPv6') ORDER BY a LIMIT 3;
