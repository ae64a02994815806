-- IPv4/IPv6 columns in MergeTree tables: keys, primary-key ranges, Nullable and Array columns, merges
DROP TABLE IF EXISTS ip_mt;
CREATE TABLE ip_mt (a IPv4, b IPv6, n Nullable(IPv4), v Array(IPv6)) ENGINE = MergeTree ORDER BY (a, b) SETTINGS index_granularity = 100;
INSERT INTO ip_mt SELECT toIPv4(toUInt32(number * 2654435761)), toIPv6(toUInt128(number) * toUInt128('1000000000000000000000000000')), if(number % 3 = 0, NULL, toIPv4(toUInt32(number))), [toIPv6(toIPv4(toUInt32(number)))] FROM numbers(5000);
INSERT INTO ip_mt VALUES ('1.2.3.4', '::1', NULL, ['1::', '::ffff:1.1.1.1']), ('255.255.255.255', 'ffff::', '0.0.0.0', []);
SELECT count(), min(a), max(b), uniqExact(b), countIf(n IS NULL) FROM ip_mt;
SELECT * FROM ip_mt WHERE a = '158.55.121.177';
SELECT * FROM ip_mt WHERE a < toIPv4('0.5.0.0') ORDER BY a LIMIT 3;
SELECT a, b FROM ip_mt ORDER BY b DESC LIMIT 3;
SELECT count() FROM ip_mt WHERE b > '0:3f::';
SELECT count() FROM ip_mt WHERE a BETWEEN '10.0.0.0' AND '20.0.0.0';
SELECT * FROM ip_mt WHERE isIPAddressInRange(a, '1.2.0.0/16');
OPTIMIZE TABLE ip_mt FINAL;
SELECT count(), sum(toUInt32(a)), max(n) FROM ip_mt;
SELECT a, b, n, v FROM ip_mt ORDER BY a LIMIT 4;
DROP TABLE ip_mt;
