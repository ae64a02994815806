-- modulo of a signed integer by an unsigned one of 4 or more bytes (and at least its size)
-- is computed unsigned, as C++ converts in ClickHouse (found by difftest: modulo(Int32,
-- UInt64)); intDiv and smaller unsigned divisors keep the sign.
SELECT toInt32(-7) % toUInt32(2), toInt32(-7) % toUInt16(2), toInt64(-7) % toUInt32(2), toInt8(-7) % toUInt8(2), toInt64(-7) % toUInt64(2), toInt16(-7) % toUInt32(3), toInt64(-7) % toUInt64(3);
SELECT toInt32(-7) % toUInt64(3), toTypeName(toInt32(-7) % toUInt32(3)), -7 % 3, toInt128(-7) % toUInt64(3);
SELECT intDiv(toInt32(-7), toUInt64(2)), intDiv(toInt32(-7), toUInt32(2)), intDiv(toInt64(-7), toUInt32(2));
SELECT moduloOrZero(toInt32(-7), toUInt64(3)), moduloOrZero(toInt32(-7), toUInt64(0)), toInt32(-7) % toUInt64(number + 3) FROM numbers(2);
SELECT toInt32(number) - 3 AS a, a % toUInt64(4), a % 4, toInt8(a) % toUInt32(1000), a % toUInt64(5000000000) FROM numbers(6);
