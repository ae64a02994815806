-- gcd and lcm with a zero operand are ILLEGAL_DIVISION, as in ClickHouse, also when the zero
-- is the value under a NULL (found by difftest: gcd(int1, int5) with a 0 in int5).
SELECT gcd(12, 18), lcm(4, 6), gcd(-8, 12), lcm(-4, 6), gcd(toUInt128(12), toUInt128(18)), gcd(toInt64(-9), 6);
SELECT gcd(7, 0); -- { serverError ILLEGAL_DIVISION }
SELECT gcd(0, 7); -- { serverError ILLEGAL_DIVISION }
SELECT lcm(7, 0); -- { serverError ILLEGAL_DIVISION }
SELECT gcd(toUInt128(7), toUInt128(0)); -- { serverError ILLEGAL_DIVISION }
SELECT gcd(number, 2) FROM numbers(3); -- { serverError ILLEGAL_DIVISION }
SELECT gcd(7, x) FROM (SELECT if(number = 0, NULL, number) AS x FROM numbers(2)); -- { serverError ILLEGAL_DIVISION }
SELECT gcd(number + 1, 4), lcm(number + 1, toInt32(-4)) FROM numbers(4);
SELECT gcd(number, 2) FROM numbers(3) WHERE number > 0;
