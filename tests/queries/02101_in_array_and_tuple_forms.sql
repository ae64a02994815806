-- The right side of IN is one element when it is as deep (Array/Tuple nesting) as the
-- left side, a collection of elements when one deeper: arrays are collections too.
SELECT 1 IN [1, 2], 3 IN [1, 2], 1 NOT IN [1, 2], 1 IN [], 1 NOT IN [];
SELECT (1, 2) IN (1, 2), (1, 3) IN (1, 2), (1, 2) NOT IN ((1, 2));
SELECT (1, 2) IN [(1, 2), (3, 4)], (1, 2) IN ((1, 2), (3, 4)), (1, 2) IN tuple(1, 2), (1, 2) IN tuple((1, 2));
SELECT [1, 2] IN ([1, 2], [3]), [1, 2] IN [[1, 2], [3]], [1, 2] IN ([1, 2]), [1] IN [[1, 2], []];
SELECT 1 IN ([1, 2]), 1 IN tuple(1, 2), 1 IN 1, 1 IN (), 1 NOT IN ();
SELECT number IN [1, 2], number NOT IN [1, 2] FROM numbers(4);
SELECT number FROM numbers(10) WHERE number IN [1, 5];
SELECT number FROM numbers(10) WHERE number NOT IN [1, 5, 7];
SELECT 'a' IN ['a', 'b'], toLowCardinality('b') IN ['a', 'b'], toFixedString('c', 1) IN ['a', 'b'];
SELECT NULL IN [1, NULL], 1 IN [1, NULL], 2 IN [1, NULL], toNullable(1) IN [1, 2];
SELECT (number, number + 1) IN [(1, 2), (5, 6)], (number, 'a') IN (1, 'a') FROM numbers(7);
SELECT 1 IN [300, 1], toUInt8(1) IN [256 + 1, 1], 2.5 IN [1, 2.5], toDecimal32(2.5, 1) IN [2.55, 2.5];
SELECT toDate('2020-01-01') IN ['2020-01-01'], toDateTime('2020-01-01 00:00:00', 'UTC') IN ['2020-01-01 00:00:00'];
SELECT 1 IN [[1]]; -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT [1] IN 1; -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT (1, 2) IN [[1, 2]]; -- { serverError INCORRECT_ELEMENT_OF_SET }
SELECT (1, 2) IN (1, 2, 3); -- { serverError INCORRECT_ELEMENT_OF_SET }
CREATE TABLE t02101 (k UInt32, s String) ENGINE = MergeTree ORDER BY k SETTINGS index_granularity = 8;
INSERT INTO t02101 SELECT number, toString(number) FROM numbers(100);
SELECT k FROM t02101 WHERE k IN [3, 50, 99, 1000] ORDER BY k;
SELECT count() FROM t02101 WHERE k IN [3, 50];
SELECT count() FROM t02101 WHERE k NOT IN [3, 50];
SELECT s FROM t02101 WHERE s IN ['7', '77'] ORDER BY s;
SELECT k FROM t02101 WHERE (k, s) IN [(1, '1'), (2, '3')];
