-- ClickHouse has no float plus, minus or multiply of a 128-bit integer (found by difftest:
-- `0.1 * int8` over a UInt128 column was answered); divide, modulo and intDiv it has.
SELECT 0.1 * toUInt128(1); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT toInt128(1) + 0.5; -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT toFloat32(1) - toInt128(3); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT toUInt128(1) / 2, toInt128(5) % 2.5, intDiv(toInt128(5), 2.5), toInt128(5) < 2.5;
SELECT toInt128(7) * 3, toUInt128(7) + toInt64(-2), toFloat64(2) * toInt64(3);
