-- system.functions lists higher-order functions, the functions the analyzer resolves itself
-- (arrayJoin, the map higher-order functions, window functions) and aliases with alias_to.
SELECT name, is_aggregate FROM system.functions WHERE name IN ('arrayMap', 'arrayFilter', 'arrayCount', 'arrayExists', 'arrayAll', 'arrayFirst', 'arrayLast', 'arrayFirstOrNull', 'arrayLastOrNull', 'arrayFirstIndex', 'arrayLastIndex', 'arraySort', 'arrayReverseSort', 'arrayCumSum', 'arrayCumSumNonNegative', 'arrayDifference', 'arrayFill', 'arrayReverseFill', 'arraySplit', 'arrayReverseSplit', 'arraySum', 'arrayAvg', 'arrayMin', 'arrayMax', 'arrayProduct', 'arrayFold') ORDER BY name;
SELECT name, is_aggregate FROM system.functions WHERE name IN ('arrayJoin', 'mapFilter', 'mapApply', 'mapExists', 'mapAll', 'mapSort', 'mapReverseSort', 'row_number', 'rank', 'dense_rank', 'percent_rank', 'cume_dist', 'ntile', 'lag', 'lead', 'lagInFrame', 'leadInFrame', 'nth_value') ORDER BY name;
SELECT name, alias_to FROM system.functions WHERE name IN ('distanceL2', 'normL2', 'scalarProduct', 'distanceCosine', 'L2Distance', 'toJSONString') ORDER BY name;
SELECT count() > 500, count() = uniqExact(name) FROM system.functions;
-- Each analyzer-level name listed runs.
SELECT arrayJoin([1, 2]), arrayMap(x -> x + 1, [1]), arrayFold((acc, x) -> acc + x, [1, 2], toUInt64(0)), arrayFirstOrNull(x -> x > 5, [1]);
SELECT mapFilter((k, v) -> v > 1, map(1, 2)), mapApply((k, v) -> (k, v + 1), map(1, 2)), mapExists((k, v) -> v > 1, map(1, 2)), mapAll((k, v) -> v > 1, map(1, 2)), mapSort(map(2, 1, 1, 2)), mapReverseSort(map(1, 2, 2, 1));
SELECT number, row_number() OVER w, rank() OVER w, dense_rank() OVER w, percent_rank() OVER w, cume_dist() OVER w, ntile(2) OVER w, lagInFrame(number) OVER w, leadInFrame(number) OVER (ORDER BY number ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING), nth_value(number, 2) OVER w FROM numbers(3) WINDOW w AS (ORDER BY number) ORDER BY number;
SELECT number, lag(number) OVER (ORDER BY number), lead(number, 1, 9) OVER (ORDER BY number) FROM numbers(3) ORDER BY number;
