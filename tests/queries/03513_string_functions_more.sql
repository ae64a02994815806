-- splitByWhitespace, splitByNonAlpha, alphaTokens, substringIndex(UTF8), translate(UTF8), initcap,
-- reverseUTF8, isValidUTF8, toValidUTF8, firstLine, appendTrailingCharIfAbsent, isValidASCII, space,
-- editDistance(UTF8), damerauLevenshteinDistance.
SELECT splitByWhitespace('  a  bc\td\n e '), splitByWhitespace('a b c', 2), splitByNonAlpha('  1.  2-3 a,b '), alphaTokens('abc1de2'), toTypeName(alphaTokens('a')), splitByWhitespace(''), splitByNonAlpha('é1a');
SELECT splitByWhitespace('a b c', 0), splitByWhitespace('a b c', -1), splitByWhitespace('a b c', 1), alphaTokens('a b', 1), splitByAlpha('abc1d'), splitByNonAlpha('a!b@c#d$e%f', 3);
SELECT splitByWhitespace(toNullable('a b')), toTypeName(splitByWhitespace(toNullable('a b'))), splitByNonAlpha(materialize('x;y z')) FROM numbers(2);
SELECT substringIndex('www.clickhouse.com', '.', 1), substringIndex('www.clickhouse.com', '.', -1), substringIndex('www.clickhouse.com', '.', 0), substringIndex('www.clickhouse.com', '.', 5), substringIndex('www.clickhouse.com', '.', -5), toTypeName(substringIndex('a', '.', 1));
SELECT substringIndexUTF8('www.клик.com', '.', -2), substringIndex('a.b.c', '.', materialize(2)), substringIndexUTF8('a→b→c', '→', 2), substringIndex('a.b', '.', toUInt64(18446744073709551615)), SUBSTRING_INDEX('a..b', '.', -2);
SELECT number, substringIndex('1.2.3.4', '.', number - 2), substringIndex(materialize('x.y.z'), '.', -number) FROM numbers(5);
SELECT translate('Hello, World!', 'delor', 'DELOR'), translate('abc', 'abc', 'x'), translateUTF8('Привет', 'Пр', 'пР'), translate('aaa', 'aa', 'xy'), hex(translate('a\xffb', 'a', 'c')), translateUTF8('añb', 'ñb', 'n'), translate(toFixedString('abc', 3), 'a', 'b'), toTypeName(translate(toFixedString('abc', 3), 'a', 'b'));
SELECT initcap('hello wORLD foo-bar 1ab a1b'), initcap('ÿa b'), initcap('a_b a.b a''b'), INITCAP(toFixedString('ab', 2)), toTypeName(initcap(toFixedString('ab', 2)));
SELECT reverseUTF8('привет'), hex(reverseUTF8('a\xffb')), hex(reverseUTF8('a\xffbcd')), hex(reverseUTF8('a\xf8b')), hex(reverseUTF8('\xe0b')), hex(reverseUTF8('x\xfcbcdefg')), isValidUTF8('a\xff'), isValidUTF8('привет'), isValidUTF8('\xed\xa0\x80'), isValidUTF8(toFixedString('ab', 3)), isValidUTF8('\xf4\x90\x80\x80'), isValidUTF8('\xc0\x80');
SELECT toValidUTF8('a\xffb\xf0\x9f'), toValidUTF8('\xed\xa0\x80x'), toValidUTF8('\xff\xffa'), toValidUTF8('\xc3'), toValidUTF8('\xc3a'), toValidUTF8('\xe2\x82a'), toValidUTF8('\xc0\x80'), toValidUTF8('\xf4\x90\x80\x80'), toValidUTF8('\x80\x80x'), toValidUTF8('ok ✓');
SELECT firstLine('a\nb'), firstLine('abc'), firstLine('a\r\nb'), firstLine('\rab'), firstLine(''), appendTrailingCharIfAbsent('a', '/'), appendTrailingCharIfAbsent('a/', '/'), appendTrailingCharIfAbsent('', '/');
SELECT isASCII('abc'), isASCII('é'), isValidASCII(''), isASCII(toFixedString('ab', 3));
SELECT space(3), length(space(0)), space(-1), toTypeName(space(3)), space(toUInt8(2)) || 'x', space(toUInt64(2)), space(materialize(toInt8(-3))), concat('[', space(number), ']') FROM numbers(3);
SELECT editDistance('kitten', 'sitting'), levenshteinDistance('', 'abc'), editDistanceUTF8('привет', 'превед'), damerauLevenshteinDistance('ab', 'ba'), toTypeName(editDistance('a', 'b')), damerauLevenshteinDistance('ca', 'abc'), editDistance('abc', ''), editDistanceUTF8('a\xffb', 'ab'), levenshteinDistanceUTF8('ё', 'е'), editDistance('ё', 'е');
SELECT editDistance(toNullable('ab'), 'abc'), editDistance(NULL, 'a'), damerauLevenshteinDistance(materialize('abcdef'), 'badcfe') FROM numbers(2);
SELECT splitByWhitespace(toFixedString('a b', 3)); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT splitByWhitespace('a b', materialize(1)); -- { serverError ILLEGAL_COLUMN }
SELECT splitByNonAlpha('a b', materialize(1)); -- { serverError ILLEGAL_COLUMN }
SELECT substringIndex('a.b', 'xy', 1); -- { serverError BAD_ARGUMENTS }
SELECT substringIndex('abc', '', 1); -- { serverError BAD_ARGUMENTS }
SELECT substringIndex('a→b→c', '→', 2); -- { serverError BAD_ARGUMENTS }
SELECT substringIndex(toFixedString('a.b', 3), '.', 1); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT substringIndex('a.b', '.', 1.5); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT substringIndex('a.b', materialize('.'), 1); -- { serverError ILLEGAL_COLUMN }
SELECT translate('abc', 'a', 'xyz'); -- { serverError BAD_ARGUMENTS }
SELECT translateUTF8('abc', 'a', 'xyz'); -- { serverError BAD_ARGUMENTS }
SELECT translate('abc', 'é', 'x'); -- { serverError BAD_ARGUMENTS }
SELECT translate(materialize('abc'), materialize('ab'), 'x'); -- { serverError ILLEGAL_COLUMN }
SELECT translate(toFixedString('abc', 3), 'ab', 'x'); -- { serverError BAD_ARGUMENTS }
SELECT appendTrailingCharIfAbsent('a', 'ab'); -- { serverError BAD_ARGUMENTS }
SELECT appendTrailingCharIfAbsent(materialize('a'), materialize('/')); -- { serverError ILLEGAL_COLUMN }
SELECT appendTrailingCharIfAbsent(toFixedString('a', 2), '/'); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT reverseUTF8(toFixedString('ab', 3)); -- { serverError ILLEGAL_COLUMN }
SELECT firstLine(toFixedString('a', 2)); -- { serverError ILLEGAL_COLUMN }
SELECT firstLine(1); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT space(1000000000); -- { serverError TOO_LARGE_STRING_SIZE }
SELECT space(1.5); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT space('a'); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT editDistance(repeat('a', 70000), 'b'); -- { serverError TOO_LARGE_STRING_SIZE }
SELECT editDistance(toFixedString('ab', 3), 'ab'); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
