-- Window functions over the rows an ARRAY JOIN or arrayJoin() makes: their arguments,
-- PARTITION BY and ORDER BY read the array elements, and their results come after the
-- element columns (found by difftest: a crash, and wrong columns).
SELECT number, aj, row_number() OVER () FROM numbers(3) ARRAY JOIN [5, -3] AS aj ORDER BY number, aj;
SELECT number, aj, first_value(number) OVER (ORDER BY aj, number) FROM numbers(3) ARRAY JOIN [5, -3] AS aj ORDER BY number, aj;
SELECT number, aj, row_number() OVER (ORDER BY aj DESC, number) AS r FROM numbers(3) ARRAY JOIN [5, -3] AS aj ORDER BY r;
SELECT number, aj, sum(aj) OVER (PARTITION BY number ORDER BY aj ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) FROM numbers(3) ARRAY JOIN [5, -3, 7] AS aj ORDER BY number, aj;
SELECT number, aj, lagInFrame(aj, 1, 0) OVER (PARTITION BY number ORDER BY aj) FROM numbers(2) LEFT ARRAY JOIN if(number = 0, [1, 2], []) AS aj ORDER BY number, aj;
SELECT x, s, count() OVER (PARTITION BY s) AS c FROM (SELECT arrayJoin(['a', 'b', 'a']) AS s, 1 AS x) ORDER BY s, c;
SELECT number, arrayJoin([10, 20]) AS e, max(e) OVER (PARTITION BY number) - e FROM numbers(2) ORDER BY number, e;
-- two ARRAY JOIN clauses; the window reads only the second element
SELECT a, b, dense_rank() OVER (ORDER BY b) FROM numbers(1) ARRAY JOIN [1, 2] AS a ARRAY JOIN ['x', 'y'] AS b ORDER BY a, b;
-- a window in an array literal given to a higher-order function
SELECT number, arrayFirst(x -> 1, [leadInFrame(toString(aj)) OVER (PARTITION BY number ORDER BY aj), 'z']) FROM numbers(3) LEFT ARRAY JOIN [255] AS aj ORDER BY number;
-- with the bounded (sorting) window steps
SELECT number, aj, row_number() OVER (PARTITION BY aj ORDER BY number) FROM numbers(3) ARRAY JOIN [1, 2] AS aj ORDER BY number, aj SETTINGS max_bytes_before_external_sort = 1000000;
-- zipped arrays of different lengths fail before any window is computed
SELECT b, row_number() OVER (ORDER BY a) FROM numbers(2) ARRAY JOIN [1] AS a, [1, 2] AS b; -- { serverError SIZES_OF_ARRAYS_DONT_MATCH }
-- a window function inside a lambda that uses the lambda's parameter: no column of the block
SELECT arrayMap(x -> last_value(x) OVER (), [1, 2]) FROM numbers(2); -- { serverError NOT_FOUND_COLUMN_IN_BLOCK }
SELECT arrayMap(x -> count() OVER (ORDER BY x), [1, 2]) FROM numbers(2); -- { serverError NOT_FOUND_COLUMN_IN_BLOCK }
SELECT arrayMap(x -> sum(number) OVER (PARTITION BY x), [1, 2]) FROM numbers(2); -- { serverError NOT_FOUND_COLUMN_IN_BLOCK }
-- one that does not use it is computed outside the lambda
SELECT arrayMap(x -> x + sum(number) OVER (), [1, 2]) FROM numbers(2);
SELECT arrayMap(x -> row_number() OVER (ORDER BY number), [1, 2]) FROM numbers(3);
