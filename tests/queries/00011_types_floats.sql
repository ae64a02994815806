SELECT 0.1 + 0.2, 1 / 3, 2 / 3, 1e21, 1e20, 1e-7, 1e-5, 123456789.123;
SELECT inf, -inf, nan, -0., 0. * -1;
SELECT toFloat32(0.1), toFloat32(1) / 3, toFloat32(16777217), toFloat32(1e38), toFloat32(1e-40);
SELECT toTypeName(toFloat32(0.1)), toTypeName(toFloat32(1) + 1), toTypeName(toFloat32(1) + toFloat64(1));
SELECT 1.5e300 * 1e10, -1.5e300 * 1e10, 1e-320, 5e-324, 1.7976931348623157e308;
SELECT 100000000000000000000., 0.000001, 0.0000001, 123e-20, 1234567890123456789.;
SELECT toFloat64('1.5'), toFloat64('inf'), toFloat64('-nan'), toFloat64('1e400');
SELECT toFloat64('  '); -- { serverError CANNOT_PARSE_NUMBER }
SELECT toFloat32('3.4028235e38'), toFloat32(2.5), toFloat32(-0.), toFloat32(nan);
SELECT 0.1::Float32 + 0.2::Float32, toFloat32(1e-7), toFloat32(123456.7);
SELECT 1 / 0, -1 / 0, 0 / 0, 1 % 0.;
SELECT number / 7 FROM numbers(8);
SELECT toFloat64(number) * 0.1 FROM numbers(11);
SELECT isNaN(nan), isInfinite(inf), isFinite(1.), isNaN(0 / 0);
SELECT 3.0, 3.10, -2.50, 1e0, 2e1;
