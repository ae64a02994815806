-- bit functions: result types follow ClickHouse (wider type, signed if either is)
SELECT bitAnd(toUInt8(3), toInt16(5)) AS a, toTypeName(a), bitOr(1, 256) AS b, toTypeName(b), bitXor(toUInt64(1), -1) AS c, toTypeName(c);
SELECT bitAnd(toUInt64(5), toInt64(-1)), bitAnd(toUInt32(5), toInt64(-1)), bitAnd(toUInt128(3), 1), toTypeName(bitAnd(toUInt64(1), toInt128(3)));
SELECT bitNot(toUInt8(1)), bitNot(toInt32(1)), bitNot(true), bitNot(1.5), toTypeName(bitNot(toFloat32(1.5))), bitNot(toInt128(0));
SELECT bitShiftLeft(toUInt8(1), 9), bitShiftLeft(1, 3), bitShiftRight(toInt8(-8), 1), bitShiftLeft(toInt8(-1), 7), bitShiftRight(toInt8(-8), 7), bitShiftRight(toInt8(-8), 70);
SELECT bitShiftLeft(toUInt128(1), 100), bitShiftRight(toUInt64(-1), 63), bitShiftLeft(toUInt64(1), 63), toTypeName(bitShiftLeft(toUInt16(1), 3));
SELECT bitTest(5, 0), bitTest(5, 1), bitTest(5, 2), bitTest(toUInt64(-1), 63), bitTest(toInt8(-1), 7);
SELECT bitCount(toInt8(-1)), bitCount(7), bitCount(toUInt16(65535)), bitCount(toInt128(-1)), bitCount(1.5), bitCount(toFloat32(1.5)), bitCount(-0.);
SELECT number, bitAnd(number, 6), bitOr(number, 8), bitXor(number, 3), bitShiftLeft(number, number), bitShiftRight(255, number), bitTest(number, 1), bitCount(number) FROM numbers(6);
SELECT bitAnd(NULL, 1), bitAnd(toNullable(3), 1), bitOr(x, 1) FROM (SELECT if(number = 1, NULL, number * 3 + 1) AS x FROM numbers(3));
SELECT intExp2(3), intExp2(-1), intExp2(64), intExp2(63), intExp2(2.7), intExp2(toUInt8(3)), toTypeName(intExp2(1));
SELECT roundToExp2(toUInt8(100)), roundToExp2(-5), roundToExp2(0), roundToExp2(3.7), roundToExp2(toFloat32(0.3)), roundToExp2(toInt64(1000000)), roundToExp2(toUInt64(-1)), roundToExp2(-3.7), roundToExp2(toInt8(-128));
SELECT number * 7 AS x, roundToExp2(x), intExp2(x) FROM numbers(5);
SELECT roundBankers(2.5), roundBankers(3.5), roundBankers(-2.5), roundBankers(2.345, 2), roundBankers(-15, -1), roundBankers(25, -1), roundBankers(35, -1), roundBankers(-26, -1), roundBankers(toUInt8(25), -1), toTypeName(roundBankers(toInt16(5)));
SELECT bitAnd(1.5, 1); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT bitShiftLeft(1, -1); -- { serverError ARGUMENT_OUT_OF_BOUND }
SELECT bitTest(5, 8); -- { serverError PARAMETER_OUT_OF_BOUND }
SELECT bitAnd('a', 1); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
