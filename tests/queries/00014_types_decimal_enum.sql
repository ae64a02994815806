SELECT toDecimal32(1.5, 2), toTypeName(toDecimal32(1.5, 2)), toDecimal64(-3.14159, 4), toDecimal128('12345678901234567890.123', 3);
SELECT CAST('1.25' AS Decimal(10, 2)), toTypeName(CAST('1.25' AS Decimal(10, 2))), CAST(1 AS Decimal(20, 5)), toTypeName(CAST(1 AS Decimal(38, 10)));
SELECT CAST(0.005 AS Decimal(9, 2)), CAST(-0.005 AS Decimal(9, 2)), CAST('0.005' AS Decimal(9, 2)), toDecimal32('-1.999', 2);
SELECT toDecimal32(1, 2) + toDecimal32(2.5, 1), toTypeName(toDecimal32(1, 2) + toDecimal32(2.5, 1));
SELECT toDecimal32(1.5, 2) * toDecimal32(2, 3), toTypeName(toDecimal32(1.5, 2) * toDecimal32(2, 3));
SELECT toDecimal64(10, 2) / toDecimal64(3, 2), toTypeName(toDecimal64(10, 2) / 3);
SELECT toDecimal32(1.5, 2) + 1, toDecimal32(1.5, 2) + 1.5, toTypeName(toDecimal32(1.5, 2) + 1.5);
SELECT toDecimal32(100, 8); -- { serverError DECIMAL_OVERFLOW }
SELECT toDecimal32(1, 2) / 0; -- { serverError ILLEGAL_DIVISION }
SELECT toDecimal64('0', 5), toDecimal64('-0.1', 1), toDecimal128(0.1, 20);
SELECT toDecimal32OrNull('abc', 2), toDecimal32OrZero('x', 3), toDecimal32OrNull('1.234', 2);
SELECT toFloat64(toDecimal32(1.25, 2)), toInt32(toDecimal32(-7.9, 2)), toString(toDecimal64(3, 3));
SELECT CAST('a' AS Enum8('a' = 1, 'b' = 2)), toTypeName(CAST('a' AS Enum8('a' = 1, 'b' = 2)));
SELECT CAST(2 AS Enum8('a' = 1, 'b' = 2)), CAST('b' AS Enum16('a' = 1000, 'b' = 2000)), toTypeName(CAST('b' AS Enum16('a' = 1000, 'b' = 2000)));
SELECT CAST('c' AS Enum8('a' = 1, 'b' = 2)); -- { serverError UNKNOWN_ELEMENT_OF_ENUM }
SELECT toInt8(CAST('b' AS Enum8('a' = 1, 'b' = 2))), CAST('a' AS Enum8('a' = 1, 'b' = 2)) = 'a';
SELECT CAST('x' AS Enum8('x' = -1, 'y' = 5)), toString(CAST('y' AS Enum8('x' = -1, 'y' = 5)));
