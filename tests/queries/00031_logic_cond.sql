SELECT 1 AND NULL, 0 AND NULL, 1 OR NULL, 0 OR NULL, NOT NULL, NULL AND NULL;
SELECT xor(1, 0), xor(1, 1), xor(0, NULL), 2 AND 3, 0 OR 0.5;
SELECT number, number % 2 = 0 AND number > 2, number < 2 OR number > 3 FROM numbers(5);
SELECT if(1, 'a', 'b'), if(0, 'a', 'b'), if(NULL, 'a', 'b'), if(1 > 2, 1, 2.5), toTypeName(if(1, 1, 2.5));
SELECT if(number % 2, 'odd', 'even') FROM numbers(4);
SELECT if(number > 1, number, NULL), toTypeName(if(number > 1, number, NULL)) FROM numbers(3);
SELECT multiIf(number = 0, 'zero', number = 1, 'one', 'many') FROM numbers(3);
SELECT CASE WHEN number = 0 THEN 'z' WHEN number = 1 THEN 'o' ELSE 'm' END FROM numbers(3);
SELECT coalesce(NULL, NULL, 3), coalesce(NULL, 'x'), coalesce(1, 2), ifNull(NULL, 5), ifNull(3, 5), nullIf(1, 1), nullIf(1, 2);
SELECT isNull(NULL), isNull(1), isNotNull(NULL), isNotNull('a'), toTypeName(isNull(NULL));
SELECT number > 2 ? 'big' : 'small' FROM numbers(5);
SELECT coalesce(if(number = 1, NULL, number), 100) FROM numbers(3);
SELECT assumeNotNull(toNullable(5)), toTypeName(assumeNotNull(toNullable(5)));
SELECT if(number = 0, toNullable('x'), 'y'), toTypeName(if(number = 0, toNullable('x'), 'y')) FROM numbers(2);
SELECT multiIf(1, 1, 2); 
SELECT if('a', 1, 2); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
