SELECT groupBitAnd(number), groupBitOr(number), groupBitXor(number), sumWithOverflow(number), toTypeName(groupBitAnd(number)) FROM numbers(0);
SELECT groupBitAnd(number), groupBitOr(number), groupBitXor(number), sumWithOverflow(number) FROM numbers(100);
SELECT groupBitAnd(toUInt8(number)), groupBitOr(toInt8(-number)), groupBitXor(toInt16(number)), sumWithOverflow(toUInt8(number + 250)), toTypeName(sumWithOverflow(toUInt8(1))), toTypeName(groupBitOr(toInt8(1))), sumWithOverflow(toFloat32(number)+0.5), toTypeName(sumWithOverflow(toFloat32(1))) FROM numbers(10);
SELECT sumWithOverflow(toDecimal32(1.5, 2)), toTypeName(sumWithOverflow(toDecimal32(1.5,2))), sumWithOverflow(toDecimal64(-2.25, 3)), sumWithOverflow(toDecimal128(1, 10));
SELECT groupBitAnd(true), toTypeName(groupBitAnd(true)), toTypeName(sumWithOverflow(true)), sumWithOverflow(true);
SELECT hex(groupBitAndState(toUInt16(5))), hex(sumWithOverflowState(toUInt8(3))), hex(groupBitXorState(toNullable(toUInt8(3)))), hex(sumWithOverflowState(toInt64(-1))), hex(groupBitOrState(toInt128(7)));
SELECT hex(groupBitAndState(toUInt8(number))) FROM numbers(0);
SELECT groupBitAndMerge(s), groupBitOrMerge(o), sumWithOverflowMerge(w) FROM (SELECT groupBitAndState(toUInt32(number + 7)) s, groupBitOrState(toUInt32(number)) o, sumWithOverflowState(toUInt8(number * 50)) w FROM numbers(10) GROUP BY number % 3);
SELECT groupBitOr(x), sumWithOverflow(x), toTypeName(sumWithOverflow(x)) FROM (SELECT if(number = 2, NULL, toUInt8(number * 100)) x FROM numbers(4));
SELECT groupBitOr(x), sumWithOverflow(x) FROM (SELECT CAST(NULL AS Nullable(UInt8)) x);
SELECT sumWithOverflow(toUInt128(number)), groupBitXor(toInt128(-number)), groupBitAnd(toUInt128(number + 1)), sumWithOverflow(toInt32(2147483647) + number) FROM numbers(5);
SELECT sumWithOverflow(toInt64(9223372036854775807) + number), groupBitAnd(toInt64(-1) - number) FROM numbers(3);
SELECT sumWithOverflow(toFloat64(number) / 4) FROM numbers(100);
SELECT number % 3 AS k, groupBitAnd(toUInt16(number * 7)), groupBitOr(toUInt16(number * 7)), groupBitXor(toUInt16(number * 7)), sumWithOverflow(toInt8(number * 7)) FROM numbers(50) GROUP BY k ORDER BY k;
SELECT groupBitAndIf(number, number > 5), groupBitOrIf(number, number < 3), sumWithOverflowIf(toUInt8(number), number % 2 = 0) FROM numbers(20);
SELECT groupBitAnd(toLowCardinality(toUInt8(3))), sumWithOverflow(toLowCardinality(toNullable(toUInt8(200)))) FROM numbers(2);
SELECT BIT_AND(number + 1), BIT_OR(number), BIT_XOR(number) FROM numbers(4);
SELECT groupBitAnd(1.5); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT groupBitAnd(toDate('2020-01-01')); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT groupBitXor('a'); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT sumWithOverflow(toDate('2020-01-01')); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT sumWithOverflow('a'); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT sumWithOverflow(1, 2); -- { serverError NUMBER_OF_ARGUMENTS_DOESNT_MATCH }
