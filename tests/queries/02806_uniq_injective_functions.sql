-- optimize_injective_functions_inside_uniq (on by default): uniq*(f(x)) counts x when f is
-- injective with one argument, which changes uniq's estimate.
SELECT uniq(toString(number)), uniq(number), uniq(tuple(toString(number))), uniq(reverse(toString(number))),
    uniq(negate(toFloat64(number))), uniq(toString(number), number), uniq(hex(number)), uniq(concat(toString(number)))
FROM numbers(100000);
SELECT uniq(toString(number)) FROM numbers(100000) SETTINGS optimize_injective_functions_inside_uniq = 0;
-- not injective, or a combinator: unchanged
SELECT uniq(toFloat64(number)), uniq(lower(toString(number))), uniqIf(toString(number), number > 5) FROM numbers(100000);
SELECT uniqExact(toString(number % 7)) AS u, toTypeName(u) FROM numbers(100);
