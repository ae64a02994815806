-- UNION ALL of selects with different numbers of columns: ClickHouse's code and message.
SELECT 1 AS a, 2 UNION ALL SELECT 1 AS x; -- { serverError UNION_ALL_RESULT_STRUCTURES_MISMATCH }
SELECT number + 1, 'x' FROM numbers(1) UNION ALL SELECT 1; -- { serverError UNION_ALL_RESULT_STRUCTURES_MISMATCH }
SELECT 1 UNION ALL SELECT 2;
