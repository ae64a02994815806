-- URL parameters (extract, list, names, cut) and percent encoding; references from ClickHouse.
DROP TABLE IF EXISTS urls;
CREATE TABLE urls (u String) ENGINE = Memory;
INSERT INTO urls VALUES ('http://a.com/?a=1&b=2&c=3'), ('http://a.com/?a=1&a=2'), ('http://a.com/?xa=1&a=2'), ('http://a.com/?a'), ('http://a.com/?a=&b'), ('http://a.com/?b&a=5'), ('http://a.com/#a=1&b=2'), ('http://a.com/?a=1#b=2&c=3'), ('http://a.com/?'), ('http://a.com/?&&a=1&'), ('http://a.com/?a=1?b=2'), ('http://a.com/p?=x&a=1'), ('a=1&b=2'), ('?a=1'), (''), ('http://a.com/?a=%20x&b=y+z'), ('http://a.com/?a==1&b'), ('http://a.com/?b=1&a'), ('http://a.com/?q=1&a=2#a=3');
SELECT u, extractURLParameter(u, 'a'), extractURLParameter(u, 'b'), extractURLParameter(u, ''), extractURLParameters(u), extractURLParameterNames(u) FROM urls;
SELECT u, cutURLParameter(u, 'a'), cutURLParameter(u, 'b'), cutURLParameter(u, 'zz') FROM urls;
SELECT extractURLParameter(u, n) FROM (SELECT 'http://x.com/?k=v&n=m' AS u, arrayJoin(['k', 'n', 'z']) AS n); -- { serverError ILLEGAL_COLUMN }
SELECT s, decodeURLComponent(s), decodeURLFormComponent(s), encodeURLComponent(s), encodeURLFormComponent(s) FROM (SELECT arrayJoin(['', 'abc', 'a%20b', 'a+b', 'a b', '%', '%4', '%41', '%4g', '%g4', '%%41', '%+a', '%E2%82%AC', '€', 'a/b?c=d&e#f', '-_.~!*\'()', '%zz%41', 'x%', '%2B+%2b', 'tab\there', 'nul\0byte']) AS s);
SELECT encodeURLComponent(decodeURLComponent('%D0%9F%D1%80%D0%B8%D0%B2%D0%B5%D1%82')), decodeURLComponent(encodeURLComponent('日本語 テキスト'));
SELECT cutURLParameter(u, ['a', 'c']), cutURLParameter(u, CAST([], 'Array(String)')), cutURLParameter(u, ['c', 'c', 'a']) FROM urls;
SELECT cutURLParameter(u, n) FROM (SELECT 'http://x.com/?k=v&n=m' AS u, arrayJoin(['k', 'n', 'z']) AS n); -- { serverError ILLEGAL_COLUMN }
SELECT cutURLParameter('http://a.com/', [1]); -- { serverError ILLEGAL_COLUMN }
SELECT extractURLParameter('http://a.com/?a=1', 1); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT decodeURLComponent(1); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
DROP TABLE urls;
