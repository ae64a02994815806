-- hasToken and its case-insensitive / OrNull forms
SELECT hasToken('a b,c', 'b'), hasToken('abc', 'b'), hasToken('ab', 'ab'), hasToken('a_b', 'a'), hasToken('abc', '');
SELECT hasToken('xé y', 'é'), hasToken('xé y', 'xé'), hasToken('ab\0c', 'c');
SELECT hasTokenCaseInsensitive('A b', 'a'), hasTokenCaseInsensitive('Hello World', 'WORLD'), hasToken('Hello World', 'WORLD');
SELECT hasTokenOrNull('a.b', 'a.b'), hasTokenCaseInsensitiveOrNull('x', 'a.b'), toTypeName(hasTokenOrNull('a', 'b')), hasTokenOrNull('a b', 'b');
SELECT s, hasToken(s, 'err') FROM (SELECT arrayJoin(['err', 'error', ' err.', 'x-err-y', 'ERR', 'e rr']) AS s);
SELECT hasToken(toNullable('a b'), 'b'), hasToken(NULL, 'b');
SELECT hasToken('a.b', 'a.b'); -- { serverError BAD_ARGUMENTS }
SELECT hasToken(1, 'a'); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT hasToken(toFixedString('ab c', 5), 'c'); -- { serverError ILLEGAL_COLUMN }
