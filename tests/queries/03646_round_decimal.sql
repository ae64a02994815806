-- round/roundBankers/floor/ceil/trunc of a Decimal keep its type and round its digits:
-- round half away from zero, roundBankers half to even (found by difftest: round(dec, 1)
-- was ILLEGAL_TYPE_OF_ARGUMENT).
SELECT round(toDecimal32(1.234, 3), 1), toTypeName(round(toDecimal32(1.234, 3), 1)), round(toDecimal64(-1.255, 3), 2), round(toDecimal64(1.255, 3), 2);
SELECT floor(toDecimal32(1.234, 3), 1), ceil(toDecimal32(1.234, 3), 1), trunc(toDecimal32(-1.299, 3), 1), floor(toDecimal32(-1.201, 3), 1), ceil(toDecimal32(-1.299, 3), 1);
SELECT roundBankers(toDecimal32(1.225, 3), 2), roundBankers(toDecimal32(1.235, 3), 2), roundBankers(toDecimal32(-1.225, 3), 2), roundBankers(toDecimal32(-2.5, 1));
SELECT round(toDecimal32(12.5, 1)), round(toDecimal32(-12.5, 1)), round(toDecimal32(1234.5, 1), -2), round(toDecimal32(1.5, 1), 3), floor(toDecimal64(-0.5, 2));
SELECT round(toDecimal128('12345678901234567890.123456789', 9), 4), ceil(toDecimal128('-1.000000001', 9), 0), round(toDecimal128('99.5', 1), -40);
SELECT round(toNullable(toDecimal32(1.234, 3)), 1), round(CAST(NULL AS Nullable(Decimal(9, 2))), 1);
SELECT x, round(x, 1), floor(x), ceil(x, 1) FROM (SELECT arrayJoin(CAST([-2.45, 0, 2.45, 17.462] AS Array(Decimal(18, 3)))) AS x) ORDER BY x;
SELECT round(toDecimal64('999999999999999.404', 3), 1), floor(toDecimal64('-999999999999999.404', 3)), round(toDecimal32('9.99', 2));
