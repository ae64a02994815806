-- IPv4/IPv6 functions over numbers and FixedString(16) (no IPv4/IPv6 types yet)
SELECT IPv4NumToString(3232235521), IPv4NumToStringClassC(3232235521), IPv4NumToString(toUInt8(5)), IPv4NumToString(toUInt16(258));
SELECT IPv4StringToNum('192.168.0.1') AS v, toTypeName(v), IPv4StringToNumOrNull('x'), IPv4StringToNumOrDefault('x'), toTypeName(IPv4StringToNumOrNull('1.1.1.1'));
SELECT isIPv4String('1.2.3.4'), isIPv4String('01.2.3.4'), isIPv4String('1.2.3.256'), isIPv4String(' 1.2.3.4'), isIPv4String('');
SELECT isIPv6String('::1'), isIPv6String('1.2.3.4'), isIPv6String('::1%eth0'), isIPv6String('1::2::3');
SELECT x, IPv6NumToString(IPv6StringToNum(x)) FROM (SELECT arrayJoin(['::1', '::', '1:0:0:0:0:0:0:1', '2001:db8:0:0:1:0:0:1', '::ffff:1.2.3.4', '1.2.3.4', 'fe80::1:0:0:0', '2001:DB8::', '1:2:3:4:5:6:7:8', '1:0:3:4:5:6:7:8', '::1.2.3.4']) AS x);
SELECT hex(IPv6StringToNumOrDefault('zz')), IPv6StringToNumOrNull('zz'), IPv6NumToString(toFixedString('abc', 16)), toTypeName(IPv6StringToNumOrNull('1::'));
SELECT INET_NTOA(1), INET_ATON('0.0.0.1'), hex(INET6_ATON('::2')), INET6_NTOA(INET6_ATON('1::'));
SELECT IPv4NumToString(toUInt32(number * 16777259)), IPv4StringToNumOrNull(toString(number)), IPv4StringToNum(IPv4NumToString(toUInt32(number * 1000003))) = number * 1000003 FROM numbers(3);
SELECT IPv4StringToNum('x'); -- { serverError CANNOT_PARSE_IPV4 }
SELECT IPv6StringToNum('zz'); -- { serverError CANNOT_PARSE_IPV6 }
SELECT IPv4NumToString(-1); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT IPv6NumToString('abc'); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT isIPv4String(toFixedString('1.2.3.4', 8)); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
