SELECT trimBoth('xxaxyx', 'xy'), trimLeft('  a  '), trimRight('abcba', 'ab'), trim(LEADING 'ab' FROM 'abcba'), trimBoth('aaa', 'a'), trimBoth('abc', ''), ltrim('xxa', 'x'), toTypeName(trimBoth(toFixedString('ab', 3), 'a'));
SELECT trim(BOTH 'x' FROM 'xxaxx'), trim(TRAILING 'x' FROM 'xxaxx'), rtrim('a  '), trim('  a  ');
SELECT concat('[', trimBoth(toString(number) || '--', '-'), ']') FROM numbers(3);
SELECT format('{} and {}', 1, 'b'), format('{1} {0}', 'a', 'b'), format('{{}}', 'a'), format('{{x}}{}', 'a'), format('x{}y', 2.5);
SELECT format('{}', NULL), format('{}', toDate('2020-01-01')), format('{} {}', 'a', toNullable(1)), toTypeName(format('{} {}', 'a', toNullable(1))), format('{0}{0}', 'a'), format('{00}', 'a');
SELECT format('{}-{}', number, [number, 1]) FROM numbers(3);
SELECT format('{0} {}', 'a', 'b'); -- { serverError BAD_ARGUMENTS }
SELECT format('{', 'a'); -- { serverError BAD_ARGUMENTS }
SELECT format('{} {}', 'a'); -- { serverError BAD_ARGUMENTS }
SELECT format('}', 'a'); -- { serverError BAD_ARGUMENTS }
SELECT format('{2}', 'a'); -- { serverError BAD_ARGUMENTS }
SELECT format('{a}', 'a'); -- { serverError BAD_ARGUMENTS }
SELECT concatWithSeparator('-', 1, toNullable('x')), toTypeName(concatWithSeparator('-', 1, toNullable('x'))), concatWithSeparator('-'), concatWithSeparator('-', 'a', toNullable(NULL)), concatWithSeparator('-', [1, 2], (1, 'a'));
SELECT concatWithSeparator(', ', number, toString(number), number / 2, toDate('2020-01-01') + number) FROM numbers(3);
SELECT concatWithSeparator(1, 2); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
