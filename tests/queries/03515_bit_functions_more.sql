-- bitRotateLeft/Right, bitTestAll/Any, bitPositionsToArray, bitmaskToArray, bitmaskToList,
-- byteSwap, bitHammingDistance.
SELECT bitRotateLeft(toUInt8(129), 1), bitRotateRight(toUInt8(129), 1), bitRotateLeft(toInt8(-127), 1), toTypeName(bitRotateLeft(toInt16(1), 1)), bitRotateLeft(1, 9), bitRotateLeft(toUInt32(1), 33), bitRotateLeft(toUInt64(1), -1), toTypeName(bitRotateLeft(1, 1));
SELECT bitRotateLeft(toUInt8(129), toInt64(1)), bitRotateRight(toInt32(1), 1), bitRotateRight(toUInt16(1), -3), bitRotateLeft(number, number * 7) FROM numbers(4);
SELECT bitTestAll(7, 0, 1, 2), bitTestAll(5, 0, 1), bitTestAny(5, 1, 2), bitTestAny(5, 1), toTypeName(bitTestAll(7, 0));
SELECT bitTestAll(1, materialize(0)), bitTestAny(number, number), bitTestAll(number, 0, 1), bitTestAny(toNullable(number), 1) FROM numbers(4);
SELECT bitPositionsToArray(5), bitPositionsToArray(toInt8(-1)), bitmaskToArray(50), bitmaskToList(50), toTypeName(bitPositionsToArray(toUInt8(1))), toTypeName(bitmaskToArray(toUInt8(1))), bitmaskToArray(toInt8(-1)), bitmaskToList(toInt16(-3)), bitPositionsToArray(0);
SELECT bitPositionsToArray(toUInt128(3)), bitPositionsToArray(toInt64(-9223372036854775808)), bitmaskToList(toInt64(-9223372036854775807)), bitPositionsToArray(true), bitmaskToList(0), bitmaskToArray(number) FROM numbers(3);
SELECT byteSwap(toUInt16(258)), byteSwap(3351772109), byteSwap(toInt8(-1)), toTypeName(byteSwap(1)), byteSwap(toInt64(1)), byteSwap(true), toTypeName(byteSwap(true)), byteSwap(toUInt128(1)), BYTESWAP(toInt32(16777216));
SELECT bitHammingDistance(111, 121), toTypeName(bitHammingDistance(1, 2)), bitHammingDistance(toInt8(-1), toUInt64(0)), bitHammingDistance(number, 7) FROM numbers(3);
SELECT bitRotateLeft(1.5, 1); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT bitRotateLeft(toUInt128(1), 127); -- { serverError NOT_IMPLEMENTED }
SELECT bitRotateLeft(1, toUInt128(1)); -- { serverError NOT_IMPLEMENTED }
SELECT bitTestAll(7); -- { serverError TOO_FEW_ARGUMENTS_FOR_FUNCTION }
SELECT bitTestAll(7, 64); -- { serverError PARAMETER_OUT_OF_BOUND }
SELECT bitTestAny(toUInt8(7), 9); -- { serverError PARAMETER_OUT_OF_BOUND }
SELECT bitTestAll(1, -1); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT bitTestAll(1, 1.5); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT bitTestAll(toUInt128(1), 0); -- { serverError ILLEGAL_COLUMN }
SELECT bitPositionsToArray(1.5); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT bitmaskToArray(1.5); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT bitmaskToArray(toUInt128(3)); -- { serverError ILLEGAL_COLUMN }
SELECT bitmaskToList(toInt128(3)); -- { serverError ILLEGAL_COLUMN }
SELECT byteSwap(1.5); -- { serverError NOT_IMPLEMENTED }
SELECT bitHammingDistance(toUInt128(1), 0); -- { serverError ILLEGAL_COLUMN }
