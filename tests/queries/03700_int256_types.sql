-- Int256 / UInt256 / Decimal256: names, text in and out, conversions from strings,
-- floats and other numbers, OrZero / OrNull / OrDefault, wrap-around of the parsers.
SELECT toTypeName(toInt256(1)), toTypeName(toUInt256(1)), toTypeName(toDecimal256(1, 5)), toTypeName(CAST(1 AS Decimal(50, 2))), toTypeName(CAST(1 AS Decimal256(3)));
SELECT toInt256('-57896044618658097711785492504343953926634992332820282019728792003956564819968'), toInt256('57896044618658097711785492504343953926634992332820282019728792003956564819967');
SELECT toUInt256('115792089237316195423570985008687907853269984665640564039457584007913129639935'), toUInt256('0'), toInt256('-0'), toInt256('+5');
-- the parsers wrap around modulo 2^256, as ClickHouse's do
SELECT toInt256('57896044618658097711785492504343953926634992332820282019728792003956564819968'), toUInt256('115792089237316195423570985008687907853269984665640564039457584007913129639941');
SELECT toInt256(' 5'); -- { serverError CANNOT_PARSE_TEXT }
SELECT toInt256('1e3'); -- { serverError CANNOT_PARSE_TEXT }
SELECT toUInt256('-1'); -- { serverError CANNOT_PARSE_NUMBER }
SELECT toInt256OrNull('1e3'), toInt256OrZero('abc'), toUInt256OrNull('-1'), toUInt256OrZero('12'), toInt256OrNull('-12');
SELECT toInt256OrDefault('x', toInt256(5)), toInt256OrDefault('7'), toUInt256OrDefault('-1'), toUInt256OrDefault('x', toUInt256(9));
SELECT toDecimal256OrNull('1.5x', 2), toDecimal256OrZero('x', 3), toDecimal256OrNull('-1.25', 4);
-- floats: truncation, and ClickHouse's own long double conversion above 2^63
SELECT toInt256(-1.9), toUInt256(-1.5), toInt256(1.5e19), toInt256(-1e20), toUInt256(1e30), toInt256(-3.9e25);
SELECT toInt256(1e76), toUInt256(1e77), toInt256(1e80);
SELECT toInt256(nan); -- { serverError CANNOT_CONVERT_TYPE }
SELECT toUInt256(inf); -- { serverError CANNOT_CONVERT_TYPE }
-- to and from the other numbers
SELECT toInt8(toInt256(300)), toUInt8(toInt256(-1)), toInt128(toUInt256(-1)), toUInt64(toInt256(-1)), toFloat32(toInt256(7)), toFloat64(toInt256('-12345678901234567890123'));
SELECT toFloat64(toInt256('57896044618658097711785492504343953926634992332820282019728792003956564819967')), toFloat32(toUInt256(-1));
SELECT toInt256(toInt8(-5)), toUInt256(toInt8(-1)), toInt256(toUInt128('340282366920938463463374607431768211455')), toUInt256(toInt128(-1)), toInt256(true);
SELECT toString(toInt256(-9)), toString(toUInt256(9)), toString(toDecimal256('-1.50', 3)), toBool(toInt256(5)), toBool(toUInt256(0));
SELECT toDecimal64(toInt256(5), 3), toDecimal32(toInt256(1000000000), 0), toDecimal256(toUInt256(-1), 0);
SELECT toDecimal256(toInt256('57896044618658097711785492504343953926634992332820282019728792003956564819967'), 1);
SELECT toUInt256(toDecimal64(-1.5, 2)); -- { serverError DECIMAL_OVERFLOW }
SELECT toInt32(toDecimal256(-12345678901.5, 1)); -- { serverError DECIMAL_OVERFLOW }
SELECT toInt32(toDecimal256(-123.5, 1)), toInt256(toDecimal256('-123456789012345678901234567890.99', 2)), toFloat64(toDecimal256('1.5', 10));
SELECT toDecimal128(toDecimal256('-1.55', 2), 1), toDecimal256(toDecimal128('-1.55', 2), 40), toDecimal256(1.5, 3), toDecimal256(-0.1, 20);
SELECT toDecimal256(1e80, 0); -- { serverError DECIMAL_OVERFLOW }
SELECT toDecimal256(5, 77); -- { serverError ARGUMENT_OUT_OF_BOUND }
SELECT CAST(5 AS Decimal(77, 2)); -- { serverError ARGUMENT_OUT_OF_BOUND }
SELECT accurateCastOrNull(toInt256(300), 'UInt8'), accurateCastOrNull(toInt256(-1), 'UInt256'), accurateCastOrNull(toUInt256(-1), 'Int256'), accurateCastOrNull(1e80, 'Int256'), accurateCastOrNull(toInt256(200), 'UInt8');
SELECT accurateCast(toInt256(300), 'UInt8'); -- { serverError CANNOT_CONVERT_TYPE }
SELECT CAST('-123456789012345678901234567890123456789012345678901234567890' AS Int256), CAST(12.5 AS Decimal(50, 3)), toDecimal256('-1.55', 40), CAST('1.23456' AS Decimal(45, 3));
SELECT CAST(toInt256(5) AS Nullable(Int256)), CAST(NULL AS Nullable(UInt256)), CAST([1, 2] AS Array(Int256)), CAST((1, '2') AS Tuple(UInt256, Decimal256(2)));
