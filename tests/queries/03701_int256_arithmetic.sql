-- Int256 / UInt256 / Decimal256 arithmetic with ClickHouse's result types; integers and
-- decimals wrap around modulo 2^256.
SELECT toInt256(-5) * toInt256(3), toUInt256(-1) + 1, toInt256(-7) % 3, intDiv(toInt256(-7), 2), toInt256(-7) / 2, toInt256(7) / 0, toInt256(-7) % -3;
SELECT toTypeName(toInt256(1) + 1), toTypeName(toUInt256(1) + 1), toTypeName(toUInt256(1) - 1), toTypeName(toUInt256(1) * toInt8(1)), toTypeName(toInt256(1) / 1), toTypeName(intDiv(toInt256(1), 1)), toTypeName(toInt256(1) % 3), toTypeName(toUInt256(1) % toInt8(3)), toTypeName(intDiv(toUInt8(1), toInt256(1)));
SELECT toTypeName(toInt256(1) + toUInt256(1)), toTypeName(toInt128(1) + toUInt256(1)), toTypeName(toUInt256(1) + toUInt128(1)), toTypeName(toUInt256(1) - toUInt256(1)), toTypeName(toUInt64(1) * toUInt256(2));
SELECT toInt256('57896044618658097711785492504343953926634992332820282019728792003956564819967') + 1, toUInt256(0) - 1, toInt256('-57896044618658097711785492504343953926634992332820282019728792003956564819968') - 1;
SELECT toInt256('340282366920938463463374607431768211456') * toInt256('340282366920938463463374607431768211456'), toInt256('-170141183460469231731687303715884105728') * 3;
SELECT toUInt256(7) % toInt8(-3), toTypeName(toUInt256(7) % toInt8(-3)), intDiv(toUInt256(7), toInt8(-3)), toTypeName(intDiv(toUInt256(7), toInt8(-3)));
SELECT toInt256(-7) % toUInt8(3), toInt8(-7) % toUInt256(3), toTypeName(toInt8(-7) % toUInt256(3)), intDiv(toInt8(-7), toUInt256(3)), toTypeName(intDiv(toInt8(-7), toUInt256(3)));
SELECT intDiv(toInt256('100000000000000000000000000000000000000000000000000'), toInt256('-33333333333333333333333')), toInt256('100000000000000000000000000000000000000000000000000') % toInt256('-33333333333333333333333');
SELECT intDivOrZero(toInt256(7), 0), moduloOrZero(toUInt256(7), 0), toInt256(7) / 2.5, toInt256(7) % 2.5;
SELECT intDiv(toInt256(7), 0); -- { serverError ILLEGAL_DIVISION }
SELECT toInt256(7) % 0; -- { serverError ILLEGAL_DIVISION }
SELECT toInt256(5) + 1.5; -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT toInt256(5) * 1.5; -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT -toUInt256(5), toTypeName(-toUInt256(5)), abs(toInt256(-5)), toTypeName(abs(toInt256(-5))), -toDecimal256('1.5', 2), abs(toDecimal256('-2.5', 1));
SELECT bitAnd(toInt256(-1), 5), toTypeName(bitAnd(toInt256(-1), toUInt8(5))), bitNot(toUInt256(0)), bitNot(toInt256(0)), bitXor(toUInt256(3), 5), bitOr(toInt256(3), toUInt128(4));
SELECT bitShiftLeft(toInt256(1), 200), bitShiftRight(toInt256(-1024), 3), bitShiftRight(toUInt256(-1), 250), bitShiftLeft(toUInt256(1), 256), bitShiftRight(toInt256(-5), 300);
SELECT hex(toInt256(-2)), hex(toUInt256(255)), hex(toDecimal256(1, 2)), bin(toUInt256(5));
-- Decimal256
SELECT toDecimal256('123456789012345678901234567890.123456789', 9) * toDecimal256('2', 1), toDecimal256('1', 10) / toDecimal256('3', 2), toDecimal256(1.5, 2) + toDecimal32(1.25, 2), toDecimal256(10, 2) - 20;
SELECT toTypeName(toDecimal256(1, 5) * toDecimal256(1, 5)), toTypeName(toDecimal256(1, 5) + toDecimal128(1, 2)), toTypeName(toDecimal256(1, 5) / toDecimal32(1, 2));
SELECT toInt256(-7) / toDecimal256(2, 3), toDecimal256(2, 3) / toInt256(7), toDecimal256(1, 2) / toDecimal256(2, 2), toDecimal256('1.5', 2) + toInt256(3), toDecimal256('1.5', 2) * toInt256(-3), toDecimal256('1.5', 2) - toUInt256(3);
SELECT toTypeName(toInt256(-7) / toDecimal256(2, 3)), toTypeName(toDecimal256('1.5', 2) * toInt256(-3));
SELECT toDecimal256('1e70', 5) * toDecimal256('1e10', 0);
SELECT toDecimal256(2, 70) * toDecimal256(3, 6);
SELECT toDecimal256(2, 70) * toDecimal256(3, 7); -- { serverError ARGUMENT_OUT_OF_BOUND }
SELECT toDecimal256(1, 2) / toDecimal256(3, 3); -- { serverError ARGUMENT_OUT_OF_BOUND }
SELECT toDecimal256(1, 2) / toDecimal128(3, 1), toDecimal128(1, 5) * toDecimal256(3, 1);
SELECT abs(toUInt64(18446744073709551615)), abs(toUInt128('340282366920938463463374607431768211455')), abs(toInt64(-5)), abs(toInt128(-5));
