-- position/locate take no FixedString needle, and search a FixedString haystack only when
-- it is a constant; repeat takes no FixedString (as ClickHouse; found by difftest).
DROP TABLE IF EXISTS t03643;
CREATE TABLE t03643 (s FixedString(3), lc LowCardinality(Nullable(FixedString(1)))) ENGINE = Memory;
INSERT INTO t03643 VALUES ('abc', 'a'), ('xbz', NULL);
SELECT position(toFixedString('abc', 3), 'b'), positionCaseInsensitive(toFixedString('aBc', 3), 'b');
SELECT position(toString(s), 'b') FROM t03643 ORDER BY s;
SELECT position(s, 'b') FROM t03643; -- { serverError ILLEGAL_COLUMN }
SELECT position(lc, '') FROM t03643; -- { serverError ILLEGAL_COLUMN }
SELECT position('abc', toFixedString('b', 1)); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT locate(toFixedString('abc', 3), 'b'); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT locate('b', 'abc'), position('abc', 'b');
SELECT repeat(toFixedString('ab', 2), 2); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT repeat(s, 2) FROM t03643; -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT repeat(toString(s), 2) FROM t03643 ORDER BY s;
DROP TABLE t03643;
