-- Conversions to and from IPv4/IPv6 (numbers, strings, FixedString(16) bytes, IPv4 ↔ IPv6)
SELECT toUInt32(toIPv4('1.2.3.4')), CAST(toIPv4('1.2.3.4') AS UInt64), CAST(toIPv4('1.2.3.4') AS UInt128), toString(toIPv4('1.2.3.4'));
SELECT toIPv4(16909060), toIPv4(toUInt8(1)), toIPv4(toUInt16(258)), toIPv4(toUInt64(4294967297)), toIPv4(true);
SELECT toUInt128(toIPv6('::1')), toUInt128(toIPv6('1::')), toUInt128(toIPv6('ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff')), toIPv6(toUInt128(1)), CAST(toUInt128('5192296858534827628530496329220096') AS IPv6);
SELECT toIPv6(toIPv4('1.2.3.4')), CAST(toIPv4('0.0.0.0') AS IPv6), toIPv4(toIPv6('::ffff:1.2.3.4')), CAST(toIPv6('::ffff:255.255.255.255') AS IPv4);
SELECT CAST(IPv6StringToNum('1::') AS IPv6), toIPv6(toFixedString('abcdefghijklmnop', 16)), toIPv6(toFixedString('1::2', 16)), toIPv6(IPv6StringToNum('::ffff:1.2.3.4'));
SELECT CAST(toIPv6('2001:db8::1') AS String), toString(toIPv6('::ffff:1.2.3.4')), hex(toIPv4('0.0.0.1')), hex(toIPv4('1.2.3.4')), hex(toIPv6('1::')), bin(toIPv4('0.0.0.1'));
SELECT toIPv4OrNull('x'), toIPv4OrZero('x'), toIPv4OrDefault('x'), toIPv6OrNull('x'), toIPv6OrZero('x'), toIPv6OrDefault('x');
SELECT toIPv4OrDefault('x', toIPv4('1.1.1.1')), toIPv6OrDefault('x', toIPv6('::3')), toIPv4OrDefault('2.2.2.2', toIPv4('1.1.1.1'));
SELECT toTypeName(toIPv4OrNull('x')), toTypeName(toIPv6OrZero('x')), toTypeName(toIPv4OrDefault(toNullable('x'))), toTypeName(toIPv4OrZero(toNullable('x')));
SELECT toIPv4OrDefault(CAST(NULL AS Nullable(String)), toIPv4('1.1.1.1')), toIPv4OrDefault(NULL), toIPv4OrNull(NULL), toIPv4OrNull(toNullable('x'));
SELECT toIPv4OrDefault(x, toIPv4(concat('1.1.1.', toString(number)))) FROM (SELECT number, if(number % 2, 'x', '9.9.9.9') AS x FROM numbers(4));
SELECT toIPv6OrNull(s), toIPv4OrZero(s) FROM (SELECT arrayJoin(['1.2.3.4', 'bad', '::1', '']) AS s);
SELECT toIPv4(toNullable('1.2.3.4')) AS x, toTypeName(x), toIPv4(NULL) AS y, toTypeName(y);
SELECT toIPv4(toLowCardinality('1.2.3.4')) AS x, accurateCastOrNull('x', 'IPv4'), accurateCastOrNull('1.2.3.4', 'IPv4');
SELECT CAST(['1.2.3.4', '5.6.7.8'] AS Array(IPv4)), CAST(('::1', '1.1.1.1') AS Tuple(IPv6, IPv4)), CAST(toNullable('::2') AS Nullable(IPv6));
SELECT CAST(toIPv6('::2') AS IPv4); -- { serverError CANNOT_CONVERT_TYPE }
SELECT toIPv4(-1); -- { serverError NOT_IMPLEMENTED }
SELECT toIPv4(1.5); -- { serverError NOT_IMPLEMENTED }
SELECT toIPv6(1); -- { serverError NOT_IMPLEMENTED }
SELECT CAST(toIPv4('1.2.3.4') AS UInt8); -- { serverError NOT_IMPLEMENTED }
SELECT CAST(toIPv4('1.2.3.4') AS Int64); -- { serverError NOT_IMPLEMENTED }
SELECT CAST(toIPv6('::1') AS UInt64); -- { serverError NOT_IMPLEMENTED }
SELECT CAST(toIPv6('::1') AS FixedString(16)); -- { serverError NOT_IMPLEMENTED }
SELECT toIPv4(toUInt128(1)); -- { serverError NOT_IMPLEMENTED }
SELECT toIPv4OrNull(toUInt32(1)); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT toIPv4OrDefault('x', '1.1.1.1'); -- { serverError BAD_ARGUMENTS }
SELECT toIPv4OrDefault('x', toIPv6('::1')); -- { serverError BAD_ARGUMENTS }
SELECT toIPv4('1.2.3.4', 1); -- { serverError NUMBER_OF_ARGUMENTS_DOESNT_MATCH }
