SELECT toTypeName(toUInt8(1) + toUInt8(1)), toTypeName(toInt8(1) + toUInt8(1)), toTypeName(toUInt32(1) * toInt16(1)), toTypeName(toUInt64(1) + toInt64(1));
SELECT toTypeName(1 - 2), 1 - 2, toTypeName(toUInt8(1) - toUInt8(2)), toUInt8(1) - toUInt8(2);
SELECT toTypeName(1 / 2), toTypeName(toFloat32(1) / 2), toTypeName(intDiv(7, 2)), toTypeName(7 % 2), toTypeName(toInt8(-7) % 3);
SELECT intDiv(7, 2), intDiv(-7, 2), intDiv(7, -2), 7 % 3, -7 % 3, 7 % -3, 7.5 % 2;
SELECT intDiv(1, 0); -- { serverError ILLEGAL_DIVISION }
SELECT 1 % 0; -- { serverError ILLEGAL_DIVISION }
SELECT intDivOrZero(1, 0), moduloOrZero(5, 0), 1 / 0, -1 / 0, 0 / 0;
SELECT toUInt8(255) + 1, toTypeName(toUInt8(255) + 1), toInt64(9223372036854775807) + 1, toUInt64(18446744073709551615) + 1;
SELECT -toUInt8(5), toTypeName(-toUInt8(5)), -toInt8(-128), abs(toInt8(-128)), toTypeName(abs(toInt8(-1)));
SELECT 2 * 3.5, 10 / 4, 10 - 0.5, toTypeName(2 * 3.5), toTypeName(toInt32(1) + 0.5);
SELECT number * number - 5 * number FROM numbers(5);
SELECT plus(1, 2), minus(5, 3), multiply(4, 5), divide(9, 3), modulo(10, 4), negate(3);
SELECT 5 > 3, 5 < 3, 5 = 5, 5 != 5, 5 <> 4, 5 >= 5, 5 <= 4, toTypeName(5 > 3);
SELECT -1 < toUInt64(1), toUInt64(18446744073709551615) > -1, 1 = 1.0, 0.1 + 0.2 = 0.3, nan = nan, nan != nan;
SELECT 'abc' < 'abd', 'a' < 'B', '' < 'a', 'abc' = 'abc';
SELECT NULL = NULL, NULL != 1, 1 < NULL, toTypeName(NULL = 1);
SELECT gcd(12, 18), lcm(4, 6), greatest(1, 5, 3), least(1, 5, 3), greatest(1, 2.5);
