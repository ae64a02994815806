-- toJSONString: any value as JSON text.
SELECT toJSONString(1), toJSONString(toUInt64(18446744073709551615)), toJSONString(toInt64(-5)), toJSONString(1.5), toJSONString(nan), toJSONString(-inf), toJSONString(-0.), toJSONString(1e300), toJSONString(toFloat32(0.1));
SELECT toJSONString('a"b\\c\n\t'), toJSONString('é\x01/\x7f'), toJSONString(''), toJSONString(toFixedString('ab', 3)), toJSONString(CAST('a' AS Enum8('a' = 1)));
SELECT toJSONString(NULL), toTypeName(toJSONString(NULL)), toJSONString(toNullable(3)), toTypeName(toJSONString(toNullable(3))), toJSONString(toLowCardinality('x')), toTypeName(toJSONString(toLowCardinality('x')));
SELECT toJSONString([1, 2]), toJSONString([NULL, 1]), toJSONString([[1], [], [2, 3]]), toJSONString(['a', 'b"']), toJSONString(CAST([], 'Array(String)'));
SELECT toJSONString((1, 'a')), toJSONString(CAST((1, 'q') AS Tuple(x UInt8, y String))), toJSONString(((1, 2), [3])), toJSONString(map('k', 1, 'j', 2)), toJSONString(map(1, [1.5], 2, [])), toJSONString(map('a', NULL, 'b', toNullable(2)));
SELECT toJSONString(toDate('2020-01-01')), toJSONString(toDate32('1900-01-01')), toJSONString(toDateTime('2020-01-01 00:00:00', 'UTC')), toJSONString(toDateTime64('2020-01-01 00:00:00.5', 3, 'Asia/Tokyo'));
SELECT toJSONString(toDecimal32(1.5, 2)), toJSONString(toDecimal128(-12.345, 3)), toJSONString(true), toJSONString(toUInt128(5)), toJSONString(toUUID('00000000-0000-0000-0000-000000000001')), toJSONString(toIPv4('1.2.3.4'));
CREATE TABLE tj (n Nullable(Int32), s LowCardinality(String), a Array(Nullable(String)), t Tuple(k UInt64, v Float64), m Map(String, UInt8)) ENGINE = Memory;
INSERT INTO tj SELECT 1, 'x', ['a', NULL], (1, 0.5), map('a', 1);
INSERT INTO tj SELECT NULL, 'y"', [], (18446744073709551615, nan), map();
SELECT toJSONString(n), toJSONString(s), toJSONString(a), toJSONString(t), toJSONString(m), toJSONString((n, s)) FROM tj ORDER BY s;
SELECT toJSONString(number), toJSONString([number, NULL]), toJSONString(materialize('q')) FROM numbers(2);
SELECT toJSONString(); -- { serverError NUMBER_OF_ARGUMENTS_DOESNT_MATCH }
SELECT toJSONString(1, 2); -- { serverError NUMBER_OF_ARGUMENTS_DOESNT_MATCH }
