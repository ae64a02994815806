-- intDiv, modulo and Decimal division by a Nullable column: a NULL row gives NULL, not a
-- division by zero (ClickHouse divides those rows by 1); gcd has no such rule.
SELECT x, 7 % x, intDiv(7, x), 7 / x, modulo(toInt32(-7), x) FROM (SELECT if(number = 0, NULL, number) AS x FROM numbers(3)) ORDER BY x;
SELECT toDecimal32(1, 2) / x FROM (SELECT if(number = 0, NULL, toDecimal32(number, 2)) AS x FROM numbers(2)) ORDER BY x;
SELECT intDiv(x, x), x % x FROM (SELECT if(number = 0, NULL, toInt64(number)) AS x FROM numbers(2)) ORDER BY x;
SELECT intDiv(7, x) FROM (SELECT if(number = 0, NULL, number - 1) AS x FROM numbers(3)); -- { serverError ILLEGAL_DIVISION }
SELECT intDiv(number, x) FROM (SELECT number, if(number % 2 = 0, NULL, toUInt128(number)) AS x FROM numbers(4)) ORDER BY number;
