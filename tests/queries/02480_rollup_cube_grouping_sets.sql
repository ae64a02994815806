-- GROUP BY ROLLUP / CUBE / GROUPING SETS and grouping(), with HAVING, ORDER BY, LIMIT, TOTALS
DROP TABLE IF EXISTS t02480;
CREATE TABLE t02480 (k Int32, s String, n Nullable(Int64), d Date) ENGINE = Memory;
INSERT INTO t02480 VALUES (1, 'a', 10, '2020-01-01'), (1, 'b', NULL, '2020-01-02'), (2, 'a', 5, '2020-01-01'), (2, 'a', 7, '2020-01-03'), (3, 'c', -1, '2020-01-02');
SELECT k, s, sum(n), count(), grouping(k), grouping(s), grouping(k, s) FROM t02480 GROUP BY ROLLUP(k, s) ORDER BY ALL;
SELECT k, s, sum(n), count() FROM t02480 GROUP BY k, s WITH ROLLUP ORDER BY ALL;
SELECT k, s, sum(n), grouping(s, k) FROM t02480 GROUP BY CUBE(k, s) ORDER BY ALL;
SELECT k, s, count() FROM t02480 GROUP BY k, s WITH CUBE ORDER BY ALL;
SELECT k, s, d, count(), grouping(k, s, d) FROM t02480 GROUP BY GROUPING SETS ((k, s), (d), ()) ORDER BY ALL;
SELECT k, s, count() FROM t02480 GROUP BY GROUPING SETS (k, s) ORDER BY ALL;
SELECT k AS x, count() FROM t02480 GROUP BY ROLLUP(k, x) ORDER BY ALL;
SELECT k % 2 AS p, count() FROM t02480 GROUP BY GROUPING SETS ((p), (k % 2)) ORDER BY ALL;
SELECT k, count() AS c FROM t02480 GROUP BY ROLLUP(k) HAVING c > 1 ORDER BY ALL;
SELECT k, count() AS c FROM t02480 GROUP BY ROLLUP(k) HAVING grouping(k) = 1;
SELECT k, s, count() FROM t02480 GROUP BY ROLLUP(k, s) ORDER BY grouping(k, s), k, s LIMIT 4;
SELECT k, sum(n) FROM t02480 GROUP BY ROLLUP(k) WITH TOTALS ORDER BY ALL;
SELECT k, s, grouping(k, s), count() FROM t02480 GROUP BY CUBE(k, s) WITH TOTALS ORDER BY ALL;
SELECT k, count() FROM t02480 GROUP BY k WITH TOTALS ORDER BY k FORMAT JSONCompact SETTINGS output_format_write_statistics = 0;
SELECT k, grouping(k), count() FROM t02480 GROUP BY k ORDER BY k;
SELECT count() FROM t02480 GROUP BY GROUPING SETS (());
SELECT count() FROM t02480 WHERE k > 10 GROUP BY GROUPING SETS (());
SELECT count() FROM t02480 WHERE k > 10 GROUP BY ROLLUP(k);
SELECT k, count() FROM t02480 WHERE k > 10 GROUP BY GROUPING SETS ((k), ());
SELECT k, s, count() FROM t02480 GROUP BY ALL WITH ROLLUP ORDER BY ALL;
-- group_by_use_nulls: keys Nullable, NULL outside the row's set; totals keep defaults
SELECT k, s, sum(n), toTypeName(k), toTypeName(s) FROM t02480 GROUP BY ROLLUP(k, s) ORDER BY ALL SETTINGS group_by_use_nulls = 1;
SELECT k, s, count() FROM t02480 GROUP BY GROUPING SETS ((k), (s)) ORDER BY ALL SETTINGS group_by_use_nulls = 1;
SELECT toLowCardinality(s) AS l, count(), toTypeName(l) FROM t02480 GROUP BY CUBE(l) ORDER BY ALL SETTINGS group_by_use_nulls = 1;
SELECT [k] AS a, count(), toTypeName(a) FROM t02480 GROUP BY ROLLUP(a) ORDER BY ALL SETTINGS group_by_use_nulls = 1;
SELECT k, k + 1, count() FROM t02480 GROUP BY ROLLUP(k) ORDER BY ALL SETTINGS group_by_use_nulls = 1;
SELECT k, count() FROM t02480 GROUP BY ROLLUP(k) WITH TOTALS ORDER BY ALL SETTINGS group_by_use_nulls = 1;
SELECT k, s, count() FROM t02480 GROUP BY k, s WITH ROLLUP ORDER BY ALL SETTINGS group_by_use_nulls = 0;
-- errors
SELECT k, count() FROM t02480 GROUP BY GROUPING SETS ((k), ()) WITH TOTALS; -- { serverError NOT_IMPLEMENTED }
SELECT k, count() AS c FROM t02480 GROUP BY ROLLUP(k) WITH TOTALS HAVING c > 1; -- { serverError NOT_IMPLEMENTED }
SELECT grouping(k) FROM t02480; -- { serverError ILLEGAL_AGGREGATION }
SELECT count() FROM t02480 WHERE grouping(k) = 0 GROUP BY k; -- { serverError ILLEGAL_AGGREGATION }
SELECT grouping(s) FROM t02480 GROUP BY k; -- { serverError BAD_ARGUMENTS }
DROP TABLE t02480;
-- constant keys: in every set, their value in the totals row; grouping() of one is an error
SELECT [7] AS c0, number % 2 AS c1, sum(number) AS c2 FROM numbers(5) GROUP BY [7], c1 WITH TOTALS ORDER BY ALL;
SELECT toDecimal128('0.001', 5) AS c0, count() FROM numbers(2) GROUP BY ROLLUP(c0) WITH TOTALS;
SELECT 'k' AS c0, number % 2 AS c1, count() FROM numbers(3) GROUP BY CUBE(c0, c1) WITH TOTALS ORDER BY ALL;
SELECT 'k' AS c0, number % 2 AS c1, count() FROM numbers(3) GROUP BY CUBE(c0, c1) ORDER BY ALL SETTINGS group_by_use_nulls = 1;
SELECT toDateTime('1970-01-01 00:00:00', 'America/New_York') AS c0, count() FROM numbers(3) GROUP BY GROUPING SETS ((c0), ()) ORDER BY ALL;
SELECT sum(1) FROM numbers(5) GROUP BY ROLLUP(['x']);
SELECT grouping('a') FROM numbers(3) GROUP BY ROLLUP('a'); -- { serverError BAD_ARGUMENTS }
-- aggregates whose merge moves their state (strings, arrays) in every set
SELECT min('a') AS m, number % 2 AS k FROM numbers(5) GROUP BY k WITH ROLLUP ORDER BY ALL;
SELECT number % 2 AS k, max(toString(number)) AS m, arraySort(groupArray(number)) AS g, uniqExact(number) AS u FROM numbers(7) GROUP BY CUBE(k) WITH TOTALS ORDER BY ALL;
SELECT number % 2 AS a, number % 3 AS b, min(toString(number)) FROM numbers(12) GROUP BY GROUPING SETS ((a), (b), (a, b), ()) ORDER BY ALL;
SELECT toNullable(number % 3) AS k, count() FROM numbers(5) GROUP BY ROLLUP(k) ORDER BY ALL;
SELECT toNullable(number % 3) AS k, count() FROM numbers(5) GROUP BY ROLLUP(k) WITH TOTALS ORDER BY ALL;
SELECT toNullable(number % 3) AS k, number % 2 AS j, count() FROM numbers(5) GROUP BY CUBE(k, j) ORDER BY ALL;
