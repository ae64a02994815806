-- topK / topKWeighted states of every kind of key in ClickHouse 26.x's Space-Saving layout
-- (one thread): counters best first (key, VarUInt count, VarUInt error), then the alpha
-- map. Numbers are written raw, String / FixedString / Decimal / UUID / IPv6 / DateTime64
-- and arrays of fixed-width values as their bytes, other arrays, tuples and maps as their
-- arena serialization; evictions fill the alpha map by ClickHouse's hashes.
SELECT hex(topKState(2)(toString(number % 11))), topK(2)(toString(number % 11)) FROM numbers(100) SETTINGS max_threads = 1;
SELECT hex(topKState(1)(toString(number % 100))), topK(1)(toString(number % 100)) FROM numbers(1000) SETTINGS max_threads = 1;
SELECT hex(topKState(3)(toString(number % 4))), hex(topKState(2)('')), hex(topKState(2)(toString(number))) FROM numbers(30) SETTINGS max_threads = 1;
SELECT hex(topKState(1)(toUInt64(number % 100))), hex(topKState(1)(number % 100)) FROM numbers(70) SETTINGS max_threads = 1;
SELECT hex(topKState(2, 2)(toUInt64(number % 150))), topK(2, 2)(toUInt64(number % 150)) FROM numbers(1000) SETTINGS max_threads = 1;
SELECT length(hex(topKState(50)(toString(number % 1000)))), cityHash64(hex(topKState(50)(toString(number % 1000)))), topK(5)(toString(number % 1000)) FROM numbers(5000) SETTINGS max_threads = 1;
SELECT cityHash64(hex(topKState(300)(toString(intHash32(number) % 3000)))), topK(20)(toString(intHash32(number) % 3000)) FROM numbers(50000) SETTINGS max_threads = 1;
SELECT cityHash64(hex(topKState(200)(toUInt64(number % 2000)))), topK(7)(toUInt64(number % 2000)) FROM numbers(20000) SETTINGS max_threads = 1;
SELECT hex(topKState(1)(toIPv4(number))), hex(topKState(1)(toDecimal32(number, 2))), hex(topKState(2)(toFixedString(toString(number % 3), 2))) FROM numbers(10) SETTINGS max_threads = 1;
SELECT hex(topKState(2)([number % 3])), hex(topKState(2)((number % 3, 'a'))), hex(topKState(1)(map('a', number))) FROM numbers(10) SETTINGS max_threads = 1;
SELECT hex(topKState(1)([toFixedString('ab', 2)])), hex(topKState(1)([toUUID('00000000-0000-0000-0000-000000000001')])), hex(topKState(1)([toDecimal32(1, 2)])) FROM numbers(2);
SELECT hex(topKState(1)([[1]])), hex(topKState(1)([toDate('2020-01-01')])), hex(topKState(1)([toIPv4('1.2.3.4')])), hex(topKState(1)([true])) FROM numbers(2);
SELECT hex(topKState(1)(['a'])), hex(topKState(1)([toNullable(1)])), hex(topKState(1)(CAST([1], 'Array(Enum8(\'a\' = 1))'))), hex(topKState(1)([toDateTime64(1, 3)])) FROM numbers(2);
SELECT hex(topKState(1)([1.5::Float32])), hex(topKState(1)([toIPv6('::1')])), hex(topKState(1)([toInt128(-1)])) FROM numbers(2);
SELECT hex(topKState(3)(toInt128(number % 100))), hex(topKState(3)(toFloat64(number % 100) / 3)) FROM numbers(1000) SETTINGS max_threads = 1;
SELECT hex(topKState(3)([number % 100])), hex(topKState(3)(toUUID(concat('00000000-0000-0000-0000-0000000000', leftPad(toString(number % 100), 2, '0'))))) FROM numbers(1000) SETTINGS max_threads = 1;
SELECT hex(topKState(1)(toDateTime64(number % 70, 3))), hex(topKState(1)(toIPv6(concat('::', toString(number % 70))))) FROM numbers(300) SETTINGS max_threads = 1;
SELECT topK(3)([number % 5, number % 3]), topK(3)(['x', toString(number % 4)]), topK(2)(toIPv6(toString(number % 3) || '::1')), topK(3)((number % 100, toString(number % 7))) FROM numbers(1000) SETTINGS max_threads = 1;
-- Nullable arguments: NULLs are skipped, the state has no flag byte
SELECT hex(topKState(2)(if(number % 5 = 0, NULL, toString(number % 4)))), hex(topKState(2)(if(number % 5 = 0, NULL, number % 4))), toTypeName(topKState(2)(toNullable('a'))), topK(2)(if(number % 5 = 0, NULL, toString(number % 4))) FROM numbers(100) SETTINGS max_threads = 1;
SELECT hex(topKState(2)(toLowCardinality(toString(number % 3)))), toTypeName(topKState(2)(toLowCardinality(toString(number % 3)))) FROM numbers(10) SETTINGS max_threads = 1;
-- topKWeighted: each row counts its weight (the integer's low 64 bits)
SELECT hex(topKWeightedState(2)(toString(number % 7), number)), topKWeighted(2)(toString(number % 7), number) FROM numbers(1000) SETTINGS max_threads = 1;
SELECT hex(topKWeightedState(2)(number % 3, toInt8(-1))), toTypeName(topKWeightedState(2)(toString(number), number)) FROM numbers(3);
SELECT hex(topKWeightedState(1)(toString(number % 97), number % 13)), topKWeighted(1)(toString(number % 97), number % 13) FROM numbers(2000) SETTINGS max_threads = 1;
SELECT topKWeighted(2)(number % 3, toUInt128(1)), topKWeighted(2)(number % 3, true) FROM numbers(10);
SELECT topKWeighted(2)(number % 3, toFloat64(number)) FROM numbers(10); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT topKWeighted(2)(number % 3) FROM numbers(10); -- { serverError NUMBER_OF_ARGUMENTS_DOESNT_MATCH }
-- results over many threads: counts without ties come out the same
SELECT topK(3)(toString(intHash32(number) % 7)), topK(3)(intHash32(number) % 5) FROM numbers(1000000) SETTINGS max_threads = 4;
