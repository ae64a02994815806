-- log1p, the inverse hyperbolic functions, erfc, sigmoid, degrees, radians, hypot, factorial;
-- decimals in pow/atan2/hypot; which names are case-insensitive.
SELECT log1p(1), acosh(2), asinh(1), atanh(0.5), erfc(1), degrees(pi()), radians(180), sigmoid(1), hypot(3, 4);
SELECT toTypeName(log1p(toFloat32(1))), toTypeName(degrees(1)), toTypeName(sigmoid(1)), toTypeName(hypot(toFloat32(1), toFloat32(2))), toTypeName(erfc(toDecimal32(1, 2))), toTypeName(radians(toFloat32(1)));
SELECT log1p(1e-20), log1p(1e-10), log1p(-1), log1p(-2), atanh(1), acosh(0.5), sigmoid(-1000), sigmoid(1000), degrees(toDecimal32(1, 2)), hypot(inf, nan);
SELECT degrees(number), radians(number * 33.3), sigmoid(number - 2.5), hypot(number, 1.5), factorial(number), log1p(number / 7) FROM numbers(6);
SELECT factorial(20), factorial(0), factorial(-1), toTypeName(factorial(toUInt8(3))), toTypeName(factorial(toInt64(3))), factorial(toUInt64(20));
SELECT factorial(NULL), factorial(toNullable(5)), hypot(NULL, 1), degrees(toNullable(1)), toTypeName(factorial(toNullable(toInt8(1))));
SELECT hypot(toDecimal32(3, 1), 4), pow(toDecimal32(3, 1), 2), atan2(toDecimal64(1, 3), 1), pow(2, toDecimal128(0.5, 5));
SELECT DEGREES(1), RADIANS(1), HYPOT(1, 1), FACTORIAL(3), SQRT(4), TANH(0);
SELECT factorial(21); -- { serverError BAD_ARGUMENTS }
SELECT factorial(number + 18) FROM numbers(4); -- { serverError BAD_ARGUMENTS }
SELECT factorial(1.5); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT factorial(toInt128(3)); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT factorial('a'); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT hypot(1); -- { serverError NUMBER_OF_ARGUMENTS_DOESNT_MATCH }
SELECT pow(1, 'a'); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT E(); -- { serverError UNKNOWN_FUNCTION }
SELECT ERF(1); -- { serverError UNKNOWN_FUNCTION }
SELECT SIGMOID(1); -- { serverError UNKNOWN_FUNCTION }
