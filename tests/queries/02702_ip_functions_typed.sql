-- IP functions over the IPv4/IPv6 types
SELECT IPv4NumToString(toIPv4('1.2.3.4')), IPv4NumToStringClassC(toIPv4('1.2.3.4')), IPv6NumToString(toIPv6('1::')), IPv6NumToString(toIPv6('1.2.3.4'));
SELECT toTypeName(IPv4NumToString(toNullable(toIPv4('1.2.3.4')))), IPv4NumToString(toNullable(toIPv4('1.2.3.4')));
SELECT IPv4ToIPv6(toIPv4('1.2.3.4')) AS x, toTypeName(x), toTypeName(IPv4ToIPv6(16909060)), hex(IPv4ToIPv6(toUInt32(1))), IPv4ToIPv6(toUInt32(16909060)) = IPv6StringToNum('1.2.3.4');
SELECT IPv4CIDRToRange(toIPv4('192.168.5.2'), 16) AS r, toTypeName(r), IPv4CIDRToRange(3232236802, 16), IPv4CIDRToRange(toIPv4('1.2.3.4'), 0), IPv4CIDRToRange(toIPv4('1.2.3.4'), 32), IPv4CIDRToRange(toIPv4('1.2.3.4'), 33);
SELECT IPv4CIDRToRange(toIPv4('1.2.3.4'), toUInt8(number + 8)) FROM numbers(3);
SELECT IPv6CIDRToRange(toIPv6('2001:0db8:0000:85a3:0000:0000:ac1f:8001'), 32) AS r, toTypeName(r), IPv6CIDRToRange(IPv6StringToNum('1::'), 0), IPv6CIDRToRange(toIPv6('1::1'), 128), IPv6CIDRToRange(toIPv6('1::1'), 200);
SELECT IPv6CIDRToRange(toIPv6('ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff'), toUInt8(number * 13)) FROM numbers(11);
SELECT tupleElement(IPv4CIDRToRange(toIPv4('10.1.2.3'), 8), 1) <= toIPv4('10.1.2.3'), tupleElement(IPv6CIDRToRange(toIPv6('1:2::3'), 32), 2) >= toIPv6('1:2::3');
SELECT isIPAddressInRange('127.0.0.1', '127.0.0.0/8'), isIPAddressInRange('128.0.0.1', '127.0.0.0/8'), isIPAddressInRange('127.0.0.1', '127.0.0.0/08'), isIPAddressInRange('1.2.3.4', '1.2.3.4/32');
SELECT isIPAddressInRange('1.2.3.4', '::ffff:1.2.3.0/120'), isIPAddressInRange('::ffff:1.2.3.4', '1.2.3.0/24'), isIPAddressInRange('1.2.3.5', '1.2.3.4/31'), isIPAddressInRange('1.2.3.4', '1.2.3.5/31'), isIPAddressInRange('1.2.3.4', '0.0.0.0/0'), isIPAddressInRange('::1', '0.0.0.0/0'), isIPAddressInRange('::1', '::/0');
SELECT isIPAddressInRange(toIPv4('127.0.0.1'), '127.0.0.0/8'), isIPAddressInRange(toIPv6('::1'), '::/8'), isIPAddressInRange(toNullable(toIPv4('1.2.3.4')), '1.2.0.0/16'), isIPAddressInRange(toLowCardinality('1.2.3.4'), '1.2.0.0/16');
SELECT isIPAddressInRange(CAST(NULL AS Nullable(String)), '10.0.0.0/8') AS x, toTypeName(x), isIPAddressInRange(toNullable('127.0.0.1'), '127.0.0.0/8') AS y, toTypeName(y);
SELECT x, isIPAddressInRange(x, y) FROM (SELECT arrayJoin(['10.0.0.1', '11.0.0.1', '2001:db8::1']) AS x, if(x LIKE '%:%', '2001:db8::/32', '10.0.0.0/8') AS y);
SELECT cutIPv6(toIPv6('2001:db8:ac10:fe01:feed:babe:cafe:f00d'), 2, 0), cutIPv6(IPv6StringToNum('::ffff:192.168.0.1'), 0, 2), cutIPv6(toIPv6('1.2.3.4'), 0, 1), cutIPv6(toIPv6('1::'), 16, 0);
SELECT cutIPv6(toIPv6('::1.2.3.4'), 0, 1), cutIPv6(toIPv6('::1.2.3.4'), 1, 0), cutIPv6(toIPv6('1:2::3'), 1, 0), cutIPv6(toIPv6('1:2:3:4:5:6:7:8'), 3, 0), cutIPv6(toIPv6('::ffff:1.2.3.4'), 4, 0), cutIPv6(toIPv6('::ffff:1.2.3.4'), 0, 5);
SELECT isIPAddressInRange('x', '127.0.0.0/8'); -- { serverError CANNOT_PARSE_TEXT }
SELECT isIPAddressInRange('01.2.3.4', '1.2.3.4/32'); -- { serverError CANNOT_PARSE_TEXT }
SELECT isIPAddressInRange('127.0.0.1', '127.0.0.0/33'); -- { serverError CANNOT_PARSE_TEXT }
SELECT isIPAddressInRange('127.0.0.1', '127.0.0.0/ 8'); -- { serverError CANNOT_PARSE_TEXT }
SELECT isIPAddressInRange('1.2.3.4', '1.2.3.4/'); -- { serverError CANNOT_PARSE_TEXT }
SELECT isIPAddressInRange('127.0.0.1', 'bad'); -- { serverError CANNOT_PARSE_TEXT }
SELECT isIPAddressInRange(toFixedString('1.2.3.4', 7), '1.2.3.4/32'); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT isIPAddressInRange('1.2.3.4', toNullable('1.2.3.4/2')); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT IPv4CIDRToRange(toIPv4('1.2.3.4'), toUInt16(16)); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT IPv4CIDRToRange('1.2.3.4', 8); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT IPv6CIDRToRange(toIPv4('1.2.3.4'), 8); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT IPv6NumToString(toFixedString('abc', 15)); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT IPv4StringToNum(toIPv4('1.2.3.4')); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT IPv6StringToNum(toIPv6('::1')); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT IPv4ToIPv6(toUInt64(1)); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT cutIPv6(toIPv6('1::'), 17, 0); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT cutIPv6(toIPv6('1::'), toUInt16(1), 0); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
