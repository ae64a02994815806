-- URL part extraction (domain, protocol, path, query string, fragment, netloc, port) over
-- ordinary and awkward URLs; references from ClickHouse.
DROP TABLE IF EXISTS urls;
CREATE TABLE urls (u String) ENGINE = Memory;
INSERT INTO urls VALUES ('http://www.example.com/a/b/c?x=1&y=2#frag'), ('https://user:pw@www.Example.co.uk:8080/p?q#f'), ('//cdn.example.org/x.js'), ('example.com/path'), ('www.example.com'), ('ftp://ftp.example.com:21/pub/file.txt'), (''), ('http://'), ('http://localhost/'), ('http://localhost:8080/x'), ('http://192.168.0.1:80/index.html'), ('http://[2001:db8::1]:8080/p'), ('mailto:someone@example.com'), ('http://a.b.c.d.e.f.example.com/'), ('http://example.com.'), ('http://example.com./path'), ('http://.example.com/'), ('http://example..com/'), ('http://exa mple.com/'), ('http://example.com/pa th?q=a b'), ('https://example.com?x=1'), ('https://example.com#top'), ('https://example.com/?#'), ('http://user@host@example.com/'), ('svn+ssh://svn.example.com/repo'), ('HTTP://EXAMPLE.COM/UP'), ('a.b'), ('http://a.b:/x'), ('http://a.b:65535/'), ('http://a.b:65536/'), ('http://a.b:12x/'), ('http://a.b:80?q'), ('http://a.b:80#f'), ('http://news.bbc.co.uk/a'), ('http://www.sub.example.com.au/x'), ('http://example.ck/'), ('http://www.ck/'), ('http://a.github.io/'), ('http://1.2.3.4/'), ('http://www./'), ('http://www.com/'), ('http://www.a/'), ('//'), ('/just/a/path'), ('?only=query'), ('#only-frag'), ('http://a.com/%20x'), ('http://a.com/x;y'), ('http://a.com:80@b.com/'), ('https://veryveryverylongscheme://x.com/'), ('x1+.-y://host.com/p'), ('1http://host.com/p'), ('http://host.com\\path'), ('http://host.com/a?b=c?d=e#f#g');
SELECT u, protocol(u), domain(u), domainWithoutWWW(u), topLevelDomain(u) FROM urls;
SELECT u, firstSignificantSubdomain(u), cutToFirstSignificantSubdomain(u), cutToFirstSignificantSubdomainWithWWW(u) FROM urls;
SELECT u, path(u), pathFull(u), queryString(u), fragment(u), queryStringAndFragment(u) FROM urls;
SELECT u, netloc(u), port(u), port(u, toUInt16(443)) FROM urls;
SELECT u, cutWWW(u), cutQueryString(u), cutFragment(u), cutQueryStringAndFragment(u) FROM urls;
SELECT u, URLHierarchy(u), URLPathHierarchy(u) FROM urls;
SELECT domain(toNullable('http://a.com/')), domain(NULL), domain(materialize('http://b.c/'));
SELECT domain(x), toTypeName(domain(x)), toTypeName(domain(toNullable(x))) FROM (SELECT toLowCardinality('http://lc.com/') AS x);
SELECT port('http://a.com:1/', 2); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT domain(1); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT domain('a', 'b'); -- { serverError NUMBER_OF_ARGUMENTS_DOESNT_MATCH }
DROP TABLE urls;
