SELECT abs(-5), abs(5.5), abs(-0.), round(2.5), round(3.5), round(-2.5), round(2.567, 2), round(1234, -2);
SELECT floor(2.7), floor(-2.7), ceil(2.1), ceil(-2.1), trunc(-2.7), floor(123.456, 1), ceil(123.456, -1);
SELECT sqrt(16), sqrt(2), sqrt(-1), cbrt(27), pow(2, 10), power(2, 0.5), pow(0, 0), exp(0), exp(1);
SELECT log(1), log(exp(2)), ln(10), log2(8), log10(1000), log(0), log(-1);
SELECT sin(0), cos(0), tan(0), atan(1) * 4, pi(), e();
SELECT toTypeName(round(2.5)), toTypeName(floor(toInt32(5))), floor(toInt32(5)), round(toInt64(15), -1), toTypeName(sqrt(4));
SELECT floor(toFloat32(1.5)), cbrt(1000), cbrt(0.001), cbrt(-8);
SELECT sign(-3), sign(0), sign(2.5), exp2(3), exp10(2);
SELECT number, sqrt(number), pow(number, 2) FROM numbers(4);
