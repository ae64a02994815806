-- formatReadableSize / DecimalSize / Quantity: units, rounding half away from zero, huge values
SELECT x, formatReadableQuantity(x), formatReadableDecimalSize(x), formatReadableSize(x)
FROM (SELECT arrayJoin([0, 1, 999, 1000, 1500, 999999, 1e6, 1.5e9, 1e12, 1e15, 1e18, 1e21, 1e27, 1e30, -1500, -0.5, 0.001, 1e300, inf, -inf, nan]) AS x);
SELECT formatReadableQuantity(0.125), formatReadableQuantity(0.375), formatReadableQuantity(1125), formatReadableDecimalSize(2.675);
SELECT formatReadableSize(toDecimal32(1.5, 2)), formatReadableQuantity(true), formatReadableQuantity(toNullable(1000)), formatReadableSize(NULL);
SELECT formatReadableSize(1e60), formatReadableQuantity(-1e66), formatReadableSize(number * 1000) FROM numbers(3);
SELECT length(formatReadableQuantity(5)), toTypeName(formatReadableSize(1));
SELECT length(randomString(10)), toTypeName(randomFixedString(3)), length(randomFixedString(3)), length(randomString(number)) FROM numbers(3);
SELECT formatReadableSize('a'); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT randomString('a'); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
