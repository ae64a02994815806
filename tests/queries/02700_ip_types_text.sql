-- IPv4/IPv6 types: names (INET4/INET6 aliases), text parsing with ClickHouse's rules, printing
SELECT toIPv4('1.2.3.4') AS a, toTypeName(a), toIPv6('::1') AS b, toTypeName(b);
SELECT CAST('1.2.3.4' AS INET4) AS a, toTypeName(a), CAST('::1' AS inet6) AS b, toTypeName(b);
SELECT CAST('10.0.0.1' AS IPv4), CAST('2001:db8::1' AS IPv6), '1.1.1.1'::IPv4, '::'::IPv6;
SELECT s, toIPv4OrNull(s), toIPv6OrNull(s) FROM (SELECT arrayJoin(['1.2.3.4', '1.2.3.4 ', ' 1.2.3.4', '0001.2.3.4', '00001.2.3.4', '01.02.03.004', '1.2.3', '1.2.3.4.5', '256.1.1.1', '255.255.255.255', '0.0.0.0', '1..2.3', '+1.2.3.4', '1.2.3.4x', '', '1.2.3.0004', '1.2.3.00004', '123.1.2.3']) AS s);
SELECT s, toIPv6OrNull(s) FROM (SELECT arrayJoin(['::', '::1', '1::', '1::2::3', ':::1', '::ffff:1.2.3.4', '::1.2.3.4', '::01.2.3.4', '::0255.1.2.3', '::1.2.3.0004', '::1.2.3.00004', '1:2:3:4:5:6:7:8', '1:2:3:4:5:6:7:8:9', '00001::', '0001::', '::g', 'FFFF::', 'fFfF::AbCd', '1:2:3:4:5:6:1.2.3.4', '1:2:3:4:5:6:7:1.2.3.4', '[::1]', '::1%eth0', '1:2:3:4:5:6:7::', '1::2:3:4:5:6:7:8', '::1:2:3:4:5:6:7:8', '1:2:3:4:5:6:7:8::', ':1::', '1::2:', '1:2', '0:0:0:0:0:ffff:102:304', '::ffff:0:0', '64:ff9b::1.2.3.4', '::ffff:1.2.3.4:5', '1.2.3.4', '1:.2.3.4', '::a.1.2.3', '::1234.1.2.3']) AS s);
SELECT toIPv6(s) FROM (SELECT arrayJoin(['::1:2', '::ffff:1:2', '::1:0:0', '0:0:1::', '1:0:0:1:0:0:0:1', '0:0:0:0:0:1:0:0', '::ffff:0:1:2', '::101:202', '0:0:0:0:ffff:0:0:1', '0:1:0:0:0:0:0:0', '2001:0DB8:0000:0000:0000:0000:0000:0001']) AS s);
SELECT toIPv4(toFixedString('1.2.3.4', 7)), toIPv4(toFixedString('1.2.3.4', 9)), toIPv6(toFixedString('::1', 3));
SELECT toIPv4('x'); -- { serverError CANNOT_PARSE_IPV4 }
SELECT toIPv4(''); -- { serverError CANNOT_PARSE_IPV4 }
SELECT toIPv6('x'); -- { serverError CANNOT_PARSE_IPV6 }
SELECT CAST('1.2.3.256' AS IPv4); -- { serverError CANNOT_PARSE_IPV4 }
SELECT CAST('1::2::3' AS IPv6); -- { serverError CANNOT_PARSE_IPV6 }
SELECT CAST('1.2.3.4' AS ipv4); -- { serverError UNKNOWN_TYPE }
