-- isNullable, isZeroOrNull, bin, reinterpretAsString, randConstant, randomPrintableASCII, current_database
SELECT isNullable(1), isNullable(toNullable(1)), isNullable(NULL), isNullable(toLowCardinality(toNullable('a')));
SELECT isZeroOrNull(0), isZeroOrNull(NULL), isZeroOrNull(toNullable(2)), toTypeName(isZeroOrNull(toNullable(0))), isZeroOrNull(0.0);
SELECT x, isZeroOrNull(x) FROM (SELECT arrayJoin([0, 1, NULL, 3]) AS x);
SELECT current_database() = currentDatabase();
SELECT bin(5), bin('ab'), bin(toInt8(-1)), bin(1.5), bin(toUInt16(258)), bin(toUInt64(5)), BIN(true), bin(toFixedString('a', 2));
SELECT reinterpretAsString(toNullable(65)), reinterpretAsString('ab'), reinterpretAsString(toFixedString('a', 3)), hex(reinterpretAsString(toDate('2020-01-01'))), reinterpretAsString(toUInt64(0x4142));
SELECT length(reinterpretAsString(0)), hex(reinterpretAsString(1.5)), hex(reinterpretAsString(toInt64(-1)));
SELECT toTypeName(randConstant()), toTypeName(randConstant(1)), (SELECT count(DISTINCT r) FROM (SELECT randConstant() AS r FROM numbers(10)));
SELECT length(randomPrintableASCII(10)), randomPrintableASCII(0), min(c) >= 32 AND max(c) <= 126 FROM (SELECT arrayJoin(arrayMap(x -> ascii(x), splitByString('', randomPrintableASCII(100)))) AS c);
SELECT isZeroOrNull('a'); -- { serverError BAD_ARGUMENTS }
SELECT randomPrintableASCII(-1); -- { serverError TOO_LARGE_STRING_SIZE }
SELECT ascii('a'), ascii(''), ascii('é'), toTypeName(ascii('a')), ascii(toFixedString('b', 2));
SELECT ascii(1); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
