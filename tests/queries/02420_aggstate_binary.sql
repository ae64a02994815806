-- Aggregate function states in ClickHouse's binary format: the bytes of -State for each
-- aggregate and argument type, the AggregateFunction type names, -Merge / -MergeState,
-- finalizeAggregation / initializeAggregation, states written by ClickHouse read back.
SELECT hex(sumState(number)), hex(countState()), hex(countState(number)), hex(avgState(number)), hex(minState(number)), hex(maxState(toInt32(number))), hex(anyState(number)), hex(anyLastState(number)) FROM numbers(10);
SELECT toTypeName(sumState(number)), toTypeName(avgState(toNullable(number))), toTypeName(sumIfState(number, number > 1)), toTypeName(sumOrNullState(number)), toTypeName(groupArrayState(3)(number)), toTypeName(argMaxState(toString(number), number)) FROM numbers(3);
SELECT hex(minState(toString(number))), hex(maxState(toString(number))), hex(argMinState(toString(number), number)), hex(argMaxState(number, toString(number))), hex(anyState(toString(number))), hex(anyLastState(toString(number))) FROM numbers(3);
SELECT hex(sumState(toNullable(number))), hex(countState(toNullable(number))), hex(avgState(toFloat64(number))), hex(sumState(toDecimal32(number, 2))), hex(avgState(toDecimal32(number, 2))), hex(minState(toDecimal64(number, 3))) FROM numbers(3);
SELECT hex(avgState(toUInt8(1))), hex(sumState(toInt8(-1))), hex(avgState(toFloat32(1))), hex(avgState(toInt16(-1))), hex(minState(toFloat32(1))), hex(anyState(toDate('2020-01-01'))), hex(anyState([1, 2])), hex(anyState(toFixedString('ab', 3))), hex(groupArrayState(toString(number))), hex(sumState(toNullable(1))) FROM numbers(2);
SELECT hex(sumState(toNullable(number))), hex(anyState(toNullable(number))), hex(groupArrayState(toNullable(number))), hex(sumIfState(number, number > 100)), hex(sumOrNullState(number)), hex(minState(number)), hex(anyState(toString(number))), hex(argMaxState(toString(number), number)), hex(countState()) FROM numbers(0);
SELECT hex(groupArrayState(number)), hex(groupArrayState(2)(number)), hex(groupArrayState([number, 1])), hex(groupArrayState((number, toString(number)))), hex(sumIfState(toNullable(number), number > 1)), hex(avgOrNullState(number)) FROM numbers(3);
-- per group
SELECT number % 3 AS k, hex(sumState(number)), hex(groupArrayState(number)), hex(argMinState(number, -number)) FROM numbers(10) GROUP BY k ORDER BY k;
-- -Merge and -MergeState
SELECT sumMerge(s), avgMerge(a), minMerge(m), arraySort(groupArrayMerge(g)), countMerge(c), argMaxMerge(x) FROM (SELECT sumState(number) s, avgState(number) a, minState(toString(number)) m, groupArrayState(number) g, countState() c, argMaxState(toString(number), number) x FROM numbers(10) GROUP BY number % 4);
SELECT hex(sumMergeState(s)), toTypeName(sumMergeState(s)), hex(avgMergeState(a)) FROM (SELECT sumState(number) s, avgState(number) a FROM numbers(10) GROUP BY number % 4);
SELECT k, sumMerge(s), avgMerge(a) FROM (SELECT number % 5 AS k, sumState(number) s, avgState(number) a FROM numbers(100) GROUP BY number % 10, k) GROUP BY k ORDER BY k;
SELECT sumIfMerge(s), sumOrNullMerge(o) FROM (SELECT sumIfState(number, number > 4) s, sumOrNullState(number) o FROM numbers(10));
SELECT sumMerge(s) FROM (SELECT avgState(number) s FROM numbers(3)); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT sumMerge(number) FROM numbers(3); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
-- finalizeAggregation and initializeAggregation
SELECT finalizeAggregation(s), finalizeAggregation(g) FROM (SELECT sumState(number) s, groupArrayState(number) g FROM numbers(5) GROUP BY number % 2) ORDER BY 1;
SELECT finalizeAggregation(initializeAggregation('sumState', number)), initializeAggregation('sum', number), toTypeName(initializeAggregation('sumState', number)), hex(initializeAggregation('groupArrayState', number)) FROM numbers(3);
SELECT toTypeName(finalizeAggregation(sumState(toNullable(1)))), finalizeAggregation(sumState(toNullable(1)));
SELECT hex(arrayReduce('sumState', [1, 2, 3])), hex(arrayReduce('groupArrayState', ['a', 'bc']));
-- states written by ClickHouse (hex literals) read back
SELECT finalizeAggregation(CAST(unhex('2D00000000000000'), 'AggregateFunction(sum, UInt64)')), sumMerge(CAST(unhex('2D00000000000000'), 'AggregateFunction(sum, UInt64)'));
SELECT finalizeAggregation(CAST(unhex('2D000000000000000A'), 'AggregateFunction(avg, UInt64)')), finalizeAggregation(CAST(unhex('0A'), 'AggregateFunction(count)'));
SELECT finalizeAggregation(CAST(unhex('020000003000010000000000000000'), 'AggregateFunction(argMin, String, UInt64)')), finalizeAggregation(CAST(unhex('0201300131'), 'AggregateFunction(groupArray, String)'));
SELECT finalizeAggregation(CAST(unhex('010300000000000000'), 'AggregateFunction(sum, Nullable(UInt64))')), finalizeAggregation(CAST(unhex('00'), 'AggregateFunction(sum, Nullable(UInt64))'));
SELECT finalizeAggregation(CAST(unhex('2C01000000000000000000000000000003'), 'AggregateFunction(avg, Decimal(9, 2))'));
SELECT finalizeAggregation(CAST(unhex('FFFFFFFF'), 'AggregateFunction(any, String)')), finalizeAggregation(CAST(unhex('00'), 'AggregateFunction(max, Int32)'));
-- malformed states
SELECT CAST(unhex('2D000000000000'), 'AggregateFunction(sum, UInt64)'); -- { serverError CANNOT_READ_ALL_DATA }
SELECT CAST(unhex('2D0000000000000000'), 'AggregateFunction(sum, UInt64)'); -- { serverError BAD_ARGUMENTS }
SELECT CAST(unhex('0500'), 'AggregateFunction(groupArray, UInt64)'); -- { serverError CANNOT_READ_ALL_DATA }
-- type names
SELECT CAST(unhex('00'), 'AggregateFunction(nosuchfunction, UInt64)'); -- { serverError UNKNOWN_AGGREGATE_FUNCTION }
-- groupArray keeps non-numeric values as arena blobs
SELECT hex(groupArrayState(toFixedString('ab', 2))), hex(groupArrayState(toDecimal32(1, 2))), hex(groupArrayState(toDate('2020-01-01'))), hex(groupArrayState(CAST('a', 'Enum8(\'a\' = 1)'))), hex(groupArrayState([toNullable(1), NULL])), hex(groupArrayState(toLowCardinality('x'))), hex(groupArrayState(toDateTime64(1, 3, 'UTC'))), hex(groupArrayState(true)), hex(groupArrayState(toDate32('2020-01-01'))), hex(groupArrayState(toInt128(1)));
SELECT finalizeAggregation(CAST(unhex('03180200000000000000000000000000000001000000000000001802000000000000000100000000000000010000000000000018020000000000000002000000000000000100000000000000'), 'AggregateFunction(groupArray, Array(UInt64))'));
SELECT finalizeAggregation(CAST(unhex('03120000000000000000020000000000000030001201000000000000000200000000000000310012020000000000000002000000000000003200'), 'AggregateFunction(groupArray, Tuple(UInt64, String))'));
SELECT CAST(unhex('FFFFFFFF0F'), 'AggregateFunction(groupArray, UInt64)'); -- { serverError TOO_LARGE_ARRAY_SIZE }
SELECT CAST(unhex('0119020000000000000000000000000000000100000000000000'), 'AggregateFunction(groupArray, Array(UInt64))'); -- { serverError CANNOT_READ_ALL_DATA }
-- LowCardinality arguments: the state type names the plain type
SELECT toTypeName(anyState(toLowCardinality('x'))), hex(anyState(toLowCardinality('x'))), finalizeAggregation(anyState(toLowCardinality('x')));
SELECT hex(sumIfState(number, number > 5)), hex(countIfState(number > 5)), toTypeName(countIfState(number > 5)) FROM numbers(10);
SELECT hex(maxOrDefaultState(number)), hex(anyOrNullState(toString(number))) FROM numbers(2);
