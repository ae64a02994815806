-- substring with a constant zero offset: '' over a constant string, an error over a column
-- (LowCardinality too) when the bounds are constants.
SELECT substring('abc', 0, 2), substring('abc', 0), substring(toLowCardinality('abc'), 0, 2);
SELECT substring(materialize('abc'), 0, materialize(2)), substring(materialize('abc'), materialize(0));
SELECT substring(materialize('abc'), 0, 2); -- { serverError ZERO_ARRAY_OR_TUPLE_INDEX }
SELECT substring(materialize('abc'), 0); -- { serverError ZERO_ARRAY_OR_TUPLE_INDEX }
SELECT substring(materialize(toLowCardinality('abc')), 0); -- { serverError ZERO_ARRAY_OR_TUPLE_INDEX }
SELECT substringUTF8(materialize('abc'), 0, 1); -- { serverError ZERO_ARRAY_OR_TUPLE_INDEX }
SELECT substring(materialize(toFixedString('abc', 3)), 0, 1); -- { serverError ZERO_ARRAY_OR_TUPLE_INDEX }
-- the UTF-8 variants take String, not FixedString
SELECT lengthUTF8(toFixedString('ab', 2)), lower(toFixedString('AB', 2)), left(toFixedString('ab', 2), 1);
SELECT lowerUTF8(toFixedString('ab', 2)); -- { serverError BAD_ARGUMENTS }
SELECT upperUTF8(toFixedString('ab', 2)); -- { serverError BAD_ARGUMENTS }
SELECT substringUTF8(toFixedString('ab', 2), 1, 1); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT leftUTF8(toFixedString('ab', 2), 1); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT rightUTF8(toFixedString('ab', 2), 1); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
