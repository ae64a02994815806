SELECT reinterpretAsUInt8('a'), reinterpretAsUInt16('ab'), reinterpretAsUInt32(''), reinterpretAsUInt64('abcdefghij'), reinterpretAsInt8(toUInt8(255)), reinterpretAsFloat64(toUInt64(4607182418800017408)), reinterpretAsFloat32(toUInt32(1065353216)), reinterpretAsUInt64(1.0), reinterpretAsInt32(toDate('2020-01-01')), reinterpretAsDate(18262), reinterpretAsDateTime(toUInt32(0));
SELECT reinterpretAsUUID(toFixedString('0123456789abcdef', 16)), reinterpretAsUUID('01234567'), reinterpretAsUInt128(toUUID('00000000-0000-0001-0000-000000000002')), reinterpretAsUUID(toUInt8(1)), reinterpretAsUUID(toUInt128(1));
SELECT reinterpretAsDate('a'), reinterpretAsDateTime('abcd'), reinterpretAsUInt128('a'), reinterpretAsInt128(toInt8(-1)), reinterpretAsInt16(toInt8(-1)), reinterpretAsUInt64(toFloat32(1));
SELECT reinterpretAsInt8(toDecimal32(1,2)), reinterpretAsUInt8(toLowCardinality('a')), reinterpretAsUInt8(toFixedString('ab', 2)), reinterpretAsInt16(toFixedString('a', 1)), reinterpretAsUInt8(true), reinterpretAsUInt64(toDateTime64('2020-01-01 00:00:00', 3, 'UTC'));
SELECT reinterpretAsUInt8(NULL), reinterpretAsUInt8(toNullable('a')), toTypeName(reinterpretAsUInt8(toNullable(1)));
SELECT hex(reinterpretAsFixedString(x)), toTypeName(reinterpretAsFixedString(x)) FROM (SELECT toDate('2020-01-01') AS x);
SELECT hex(reinterpretAsFixedString(toDate32('2020-01-01'))), hex(reinterpretAsFixedString(toDecimal64(1, 2))), hex(reinterpretAsFixedString(toUUID('00000000-0000-0001-0000-000000000002'))), hex(reinterpretAsFixedString(toIPv6('::1'))), hex(reinterpretAsFixedString(toFloat32(1.5))), hex(reinterpretAsFixedString(toFixedString('ab', 2))), hex(reinterpretAsFixedString(toUInt128(5))), hex(reinterpretAsFixedString(true));
SELECT reinterpretAsFixedString(toUInt32(97)), length(reinterpretAsFixedString(toUInt32(97))), toTypeName(reinterpretAsFixedString(toUInt32(0))), reinterpretAsFixedString(toUInt64(0)), reinterpretAsFixedString(toFixedString('ab', 3));
SELECT reinterpret(toInt8(-1), 'UInt8'), reinterpret(1.0, 'UInt64'), reinterpret('ab', 'UInt16'), reinterpret(toUInt32(97), 'FixedString(4)'), reinterpret('abc', 'Array(UInt8)'), reinterpret(toFixedString('ab',2), 'Array(Int8)'), reinterpret('abcd', 'Array(UInt16)');
SELECT reinterpret(toUInt64(97), 'FixedString(2)'), reinterpret(toUInt64(97), 'FixedString(8)'), reinterpret('abc', 'Decimal(9,2)'), length(reinterpret(toUInt32(7), 'String')), reinterpret(toFixedString('ab', 2), 'String'), reinterpret('a', 'String');
SELECT reinterpret(1, 'Decimal(9,2)'), reinterpret(toUInt8(1), 'Bool'), reinterpret(1, 'UUID'), reinterpret(1, 'Date'), reinterpret(1, 'DateTime(\'UTC\')'), reinterpret(1, 'DateTime64(3, \'UTC\')');
SELECT number, reinterpretAsUInt16(toString(number)), reinterpretAsFloat32(toUInt32(number * 1000000000)), reinterpret(toInt16(number - 2), 'UInt16'), hex(reinterpretAsFixedString(toInt16(number - 2))), reinterpret(repeat('a', number), 'Array(Int8)') FROM numbers(5);
SELECT reinterpretAsUInt8(s), reinterpret(n, 'UInt16'), reinterpretAsFixedString(n) FROM (SELECT toLowCardinality(toNullable(toString(number))) AS s, if(number = 1, NULL, toUInt8(number)) AS n FROM numbers(3));
SELECT reinterpret('abc', 'Array(UInt16)'); -- { serverError BAD_ARGUMENTS }
SELECT reinterpretAsUInt8([1]); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT reinterpretAsUInt64(toDate32('2020-01-01')); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT reinterpretAsUInt64(toIPv6('::1')); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT reinterpretAsUInt32(toIPv4('1.2.3.4')); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT reinterpretAsUInt8(CAST(1 AS Enum8('a'=1))); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT reinterpretAsFixedString('abc'); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT reinterpret('a', 'FixedString(3)'); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT reinterpret([1, 2], 'Array(Int8)'); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT reinterpret(toUInt8(1), 'Enum8(\'a\'=1)'); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT reinterpret(toUInt8(1), 'Date32'); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT reinterpret(toUInt8(1), 'IPv6'); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT reinterpret(toUInt8(1), 'Nullable(UInt8)'); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT reinterpret(toUInt8(1), 'Foo'); -- { serverError UNKNOWN_TYPE }
SELECT reinterpret(toUInt8(1)); -- { serverError NUMBER_OF_ARGUMENTS_DOESNT_MATCH }
SELECT reinterpretAsUInt8(); -- { serverError NUMBER_OF_ARGUMENTS_DOESNT_MATCH }
SELECT length(CAST(toFixedString('a',2) AS String)), length(toString(toFixedString('a',2))), hex(CAST(toFixedString('a\0b',4) AS String)), hex(toString(toFixedString('\0\0',2))), hex(materialize(toFixedString('a',3))::String), hex(CAST(materialize(toFixedString('a',3)) AS Nullable(String)));
