-- A FixedString converted to String for a common type loses its zero padding (ClickHouse's
-- CAST) in array literals, arrayConcat, arrayPushBack, arrayResize, map(), greatest and
-- CASE x WHEN; if/multiIf/coalesce keep it.
SELECT [toFixedString('a', 2), toFixedString('bcd', 3)], [materialize(toFixedString('a', 2)), 'xyz'];
SELECT arrayConcat([toFixedString('a', 2)], ['xyz']), arrayPushBack([toFixedString('a', 2)], 'xyz'), arrayResize([toFixedString('a', 2)], 2, 'xyz');
SELECT map(1, toFixedString('a', 2), 2, 'xyz'), greatest(toFixedString('a', 2), 'a'), [toFixedString('a', 2), toFixedString('b', 2)];
SELECT number, if(number = 0, toFixedString('a', 2), 'xyz'), multiIf(number = 0, toFixedString('a', 2), 'xyz'), CASE number WHEN 0 THEN toFixedString('a', 2) ELSE 'xyz' END FROM numbers(2);
SELECT coalesce(if(number = 1, NULL, toFixedString('a', 2)), 'xyz'), [if(number = 1, NULL, toFixedString('a', 2)), 'q'] FROM numbers(2);
CREATE TABLE fs (s FixedString(4), n Nullable(FixedString(3))) ENGINE = Memory;
INSERT INTO fs VALUES ('ab', 'x'), ('abcd', NULL);
SELECT [s, 'zz'], [n, 'zz'], arrayConcat([s], ['q']), toTypeName([s, 'zz']) FROM fs ORDER BY s;
-- coalesce/ifNull: arguments after the first that cannot be NULL take no part in the type.
SELECT coalesce(1, 300), toTypeName(coalesce(1, 300)), coalesce(NULL, 1, 300), toTypeName(coalesce(NULL, 1, 300));
SELECT coalesce(toNullable(1), 2, 300), toTypeName(coalesce(toNullable(1), 2, 300)), ifNull(1, 'x'), toTypeName(ifNull(1, 'x'));
SELECT coalesce(number, -1), ifNull(number, -1), toTypeName(ifNull(number, -1)) FROM numbers(2);
SELECT coalesce(toFixedString('a', 2), 'xyz'), toTypeName(coalesce(toFixedString('a', 2), 'xyz'));
SELECT coalesce(if(number = 0, NULL, number), toUInt8(7), 'never'), toTypeName(coalesce(if(number = 0, NULL, number), toUInt16(7), [1])) FROM numbers(2);
SELECT coalesce(NULL, NULL), toTypeName(coalesce(NULL, NULL)), coalesce(n, 'dflt') FROM fs ORDER BY s;
-- isZeroOrNull has no case for 128/256-bit integers (ClickHouse fails on the column, even without rows).
SELECT isZeroOrNull(toUInt128(0)); -- { serverError ILLEGAL_COLUMN }
SELECT isZeroOrNull(toInt128(number)) FROM numbers(0); -- { serverError ILLEGAL_COLUMN }
SELECT isZeroOrNull(toDecimal32(0, 2)); -- { serverError ILLEGAL_COLUMN }
SELECT isZeroOrNull('a'); -- { serverError BAD_ARGUMENTS }
SELECT isZeroOrNull(0.), isZeroOrNull(NULL), isZeroOrNull(toNullable(toInt64(0))), isZeroOrNull(true);
