SELECT trimBoth(NULL), trimBoth(toNullable(' a '), ' '), trimLeft(toNullable('xxa'), 'x');
SELECT murmurHash3_32(NULL), murmurHash3_32(toNullable('a')), xxHash32(toNullable(1)), intHash32(toNullable(7));
SELECT format('{}|{}', toNullable('a'), number) FROM numbers(2);
SELECT concatWithSeparator(toNullable('-'), 'a', 'b'), concatWithSeparator('', 'a', 1, 'b');
SELECT CASE NULL WHEN 1 THEN 'a' ELSE 'b' END, CASE 1 WHEN NULL THEN 'a' ELSE 'b' END;
SELECT number, CASE number WHEN 0 THEN 'zero' WHEN 1 THEN 'one' WHEN 2 THEN 'two' END FROM numbers(4);
