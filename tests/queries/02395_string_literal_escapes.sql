-- String literal escapes as ClickHouse reads them: unknown escapes keep their backslash (LIKE's \_ and \%)
SELECT length('\\'), length('\''), length('\"'), length('\`'), length('\N'), length('\Z'), length('\/'), length('\u0041'), hex('\x41'), length('\_'), length('\%'), hex('\0'), hex('\a\b\f\v\e');
SELECT '123' NOT LIKE '%\_%', '1_3' LIKE '%\_%', 'a%' LIKE 'a\%', 'ab%' LIKE 'ab\%', 'ab' LIKE 'a\b', '  padded  ' LIKE '%\_%';
SELECT 'a_b' ILIKE 'A\_B', 'axb' ILIKE 'A\_B', '100%' LIKE '%0\%';
SELECT 'a' LIKE 'pattern\\'; -- { serverError CANNOT_PARSE_ESCAPE_SEQUENCE }
SELECT 'a\\' LIKE 'a\\\\', 'a' NOT LIKE 'a\\\\\\'; -- { serverError CANNOT_PARSE_ESCAPE_SEQUENCE }
CREATE TABLE tab (h String, p String) ENGINE = Memory;
INSERT INTO tab VALUES ('haystack', 'pattern\\'), ('x', 'y');
SELECT h LIKE p FROM tab; -- { serverError CANNOT_PARSE_ESCAPE_SEQUENCE }
SELECT h ILIKE concat(p, '%') FROM tab ORDER BY h;
