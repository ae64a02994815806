-- toStringCutToZero: a String or FixedString up to its first zero byte.
SELECT toStringCutToZero('ab\0c'), toStringCutToZero(toFixedString('ab', 5)), toTypeName(toStringCutToZero(toFixedString('a', 3))), toStringCutToZero('');
SELECT toStringCutToZero(toNullable('a\0b')), toTypeName(toStringCutToZero(toNullable('a'))), toStringCutToZero(NULL), toStringCutToZero(toNullable(toFixedString('a', 3)));
SELECT toStringCutToZero(toLowCardinality('a\0b')), toTypeName(toStringCutToZero(toLowCardinality('a'))), toTypeName(toStringCutToZero(toLowCardinality(toNullable('a'))));
SELECT toStringCutToZero(materialize(toFixedString('a\0b', 4))), length(toStringCutToZero(materialize('xy\0z'))) FROM numbers(2);
SELECT toStringCutToZero(1); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT toStringCutToZero('a', 'b'); -- { serverError NUMBER_OF_ARGUMENTS_DOESNT_MATCH }
