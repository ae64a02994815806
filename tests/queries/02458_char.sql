-- char(): the bytes of its numeric arguments.
SELECT char(104.1, 101, 108.9, 108.9, 111), hex(char(-1, 256, 65)), char(toNullable(72), 105), toTypeName(char(72)), CHAR(65);
SELECT hex(char(true, 0)), char(number + 65, number + 97) FROM numbers(3);
SELECT char('a'); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT char(toInt128(65)); -- { serverError ILLEGAL_COLUMN }
