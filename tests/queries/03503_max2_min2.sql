SELECT max2(1, 2), min2(1, 2), toTypeName(max2(1, 2)), max2(toInt8(-1), toUInt64(5)), toTypeName(max2(toInt8(-1), toUInt64(5))), max2(1.5, nan), min2(nan, 1), max2(toDecimal32(1.5, 2), 1), toTypeName(min2(toFloat32(1), toFloat32(2))), max2(-0., 0.), min2(0., -0.);
SELECT max2(nan, 1.5), min2(1, nan), max2(0., -0.), min2(-0., 0.), max2(inf, -inf), min2(-inf, inf);
SELECT max2(NULL, 1), max2(toNullable(1), 2), toTypeName(max2(toNullable(1), 2)), max2(true, 0), max2(toUInt64(18446744073709551615), 0), min2(toInt64(-9223372036854775808), 0), min2(toDecimal64(-1.25, 4), toFloat32(0.5));
SELECT number, max2(number, 5 - number), min2(toInt32(number) - 2, toFloat32(0.5)), max2(if(number = 1, NULL, number), 2) FROM numbers(5);
SELECT max2(toLowCardinality(toNullable(3)), 2), min2(materialize(1), 0);
SELECT max2('a', 'b'); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT max2(toDate('2020-01-01'), 1); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT max2(toDecimal128(1.5, 2), 1), min2(toDecimal128(-12345678901234567890.5, 1), 0);
SELECT max2(toInt128(1), 2); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT min2([1], 2); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT max2(1); -- { serverError NUMBER_OF_ARGUMENTS_DOESNT_MATCH }
SELECT min2(1, 2, 3); -- { serverError NUMBER_OF_ARGUMENTS_DOESNT_MATCH }
