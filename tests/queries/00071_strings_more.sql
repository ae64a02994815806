SELECT leftPad('abc', 5, '*'), leftPad('abc', 2), rightPad('abc', 7, 'xy'), leftPad('abc', 6), leftPadUTF8('абв', 5, 'ж'), rightPadUTF8('абв', 2), lpad('7', 3, '0');
SELECT left('hello', 2), right('hello', 2), left('hello', -2), right('hello', -2), leftUTF8('привет', 2), rightUTF8('привет', 2), left('ab', 10), right('hello', -10), left('hello', -10);
SELECT concatWithSeparator('-', 'a', 'b', 'c'), concat_ws(', ', 'x', ''), countSubstrings('aaaa', 'aa'), countSubstrings('abcabc', 'b'), countSubstrings('abc', '');
SELECT hex('abc'), hex(255), hex(toUInt16(1)), hex(-1), hex(1.5), hex(toUInt64(258)), unhex('616263'), unhex('4A4b');
SELECT base64Encode('hello'), base64Encode('ab'), base64Encode('a'), base64Encode(''), base64Decode('aGVsbG8='), base64Decode('YQ=='), tryBase64Decode('!!'), tryBase64Decode('YWI=');
SELECT number, leftPad(toString(number), 3, '0'), right(repeat('ab', number), 3), hex(number * 1000), base64Encode(repeat('x', number)) FROM numbers(5);
SELECT base64Decode('!!'); -- { serverError INCORRECT_DATA }
