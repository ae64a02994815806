SELECT toUInt8(-1), toUInt16(70000), toInt8(200), toInt32(2147483648), toUInt32(-1), toInt64(-1.5);
SELECT toFloat32(1e40), toFloat32(-1e40), toFloat64(toFloat32(0.1)), toFloat32('0.1'), toFloat64('1e-10');
SELECT toDecimal32(123.456, 2), toDecimal64(-0.5, 0), toDecimal32('3.14159', 4);
SELECT toDecimal64(1e19, 0); -- { serverError DECIMAL_OVERFLOW }
SELECT toUInt64('18446744073709551616'), toUInt32('99999999999');
SELECT toInt32(' 5'); -- { serverError CANNOT_PARSE_TEXT }
SELECT CAST(3.7 AS Int32), CAST(-3.7 AS Int32), CAST('42' AS UInt8), CAST(1 AS String), CAST(1.5 AS Decimal(5, 2));
SELECT 42::String, '7'::Int64 + 1, '2021-01-01'::Date, toTypeName('1'::Float32);
SELECT accurateCast(300, 'UInt8'); -- { serverError CANNOT_CONVERT_TYPE }
SELECT accurateCastOrNull(300, 'UInt8'), accurateCastOrNull(200, 'UInt8'), accurateCast(1.0, 'Int8');
SELECT toInt64OrNull('123abc'), toFloat64OrZero('x'), toFloat32OrNull('1.5'), toUInt128OrNull('-1');
SELECT toString(toUInt128(12345)), toString(toInt128(-12345)), toString(toFloat32(1.1)), toString(1.1);
SELECT toUInt8(true), toInt32(false), toFloat64(true), toBool(2.5), CAST(1 AS Bool);
SELECT toInt32(toDate('1970-01-10')), toUInt32(toDateTime('1970-01-02 00:00:00')), toFloat64(toDate('1970-01-03'));
SELECT toDateTime(toDate('2021-01-01'), 'Asia/Tokyo'), toDate(toDateTime('2021-01-01 23:00:00', 'America/New_York'));
SELECT toTypeName(toNullable(toInt8(1)) + 1), toUInt8(toNullable(300));
SELECT CAST(number AS String) FROM numbers(3);
SELECT CAST(number AS Nullable(Float32)) / 2 FROM numbers(3);
SELECT CAST('1,2' AS Array(Int32)); -- { serverError CANNOT_READ_ARRAY_FROM_TEXT }
SELECT CAST('[1,2' AS Array(Int32)); -- { serverError CANNOT_PARSE_INPUT_ASSERTION_FAILED }
SELECT CAST('[1,2]x' AS Array(Int32)); -- { serverError UNEXPECTED_DATA_AFTER_PARSED_VALUE }
SELECT CAST('[1,2]' AS Array(Int32)), CAST('[\'a\']' AS Array(String)), toTypeName(CAST('[1]' AS Array(Float64)));
