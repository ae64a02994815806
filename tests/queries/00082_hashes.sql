SELECT intHash32(1), intHash32(toUInt64(12345678901)), toTypeName(intHash32(1)), intHash32(toInt8(-1));
SELECT groupArray(intHash32(number)) FROM numbers(10);
SELECT murmurHash2_32('abc'), murmurHash2_64('abc'), murmurHash3_32('abc'), murmurHash3_64('abc'), xxHash32('abc'), toTypeName(murmurHash3_32('')), toTypeName(murmurHash3_64(''));
SELECT groupArray(murmurHash2_32(s)), groupArray(murmurHash2_64(s)) FROM (SELECT substring('The quick brown fox jumps over the lazy dog 0123456789abcdef', 1, number) AS s FROM numbers(40));
SELECT groupArray(murmurHash3_32(s)), groupArray(murmurHash3_64(s)), groupArray(xxHash32(s)) FROM (SELECT substring('The quick brown fox jumps over the lazy dog 0123456789abcdef', 1, number) AS s FROM numbers(40));
SELECT murmurHash2_32(1), murmurHash2_64(toInt8(-1)), murmurHash3_32(300), murmurHash3_64(1.5), xxHash32(toFloat32(1.5)), xxHash32(toDate('2020-01-01')), murmurHash3_64(toUInt64(12345678901)), murmurHash2_64(toInt128(5)), murmurHash3_32(toDecimal32(1.5, 2));
SELECT murmurHash2_32('a', 'b'), murmurHash2_64('a', 1), murmurHash3_32(1, 2, 'xyz'), murmurHash3_64('a', 'b'), xxHash32('a', 'b');
SELECT cityHash64([1, 2, 3]), cityHash64([]), cityHash64(['a', 'b']), cityHash64((1, 'a')), cityHash64([[1], [2, 3]]), cityHash64(([1], 2)), cityHash64('x', [1]), cityHash64([(1, 'a')]);
SELECT sipHash64([1, 2, 3]), xxHash64(['a', 'b']), murmurHash3_64((1, 'a')), murmurHash2_32([[1], [2, 3]]), xxHash32(([1], 2)), murmurHash3_32('x', [1]), murmurHash2_64([(1, 'a')]);
SELECT groupArray(cityHash64(range(number))), groupArray(xxHash32(range(number))) FROM numbers(5);
SELECT groupArray(cityHash64(s, [s], (number, s))), groupArray(murmurHash3_64(s, [s], (number, s))) FROM (SELECT toString(number) AS s, number FROM numbers(5));
SELECT intHash32(1.5); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
