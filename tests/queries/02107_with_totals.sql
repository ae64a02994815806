-- WITH TOTALS: one more row aggregating the groups (those HAVING keeps, unless
-- totals_mode = 'before_having'), keys at their defaults; printed by the formats that
-- print totals (TSV/CSV: an empty line then the row; JSON "totals"; Pretty "Totals:";
-- Vertical a Totals section) and dropped by the others (JSONEachRow, Values, Markdown).
SELECT number % 2 AS k, count() AS c, toString(k) AS s FROM numbers(3) GROUP BY k WITH TOTALS ORDER BY k;
SELECT count() FROM numbers(10) WITH TOTALS;
SELECT number % 3 AS k, count() c FROM numbers(10) GROUP BY k WITH TOTALS HAVING c > 3 ORDER BY k;
SELECT number % 3 AS k, count() c FROM numbers(10) GROUP BY k WITH TOTALS HAVING c > 3 ORDER BY k SETTINGS totals_mode = 'before_having';
SELECT number % 3 AS k, count() c FROM numbers(10) GROUP BY k WITH TOTALS HAVING c > 3 ORDER BY k SETTINGS totals_mode = 'after_having_inclusive';
SELECT k + 1, toString(k), sum(number), avg(number), max(toString(number)) FROM (SELECT number, number % 2 AS k FROM numbers(10)) GROUP BY k WITH TOTALS ORDER BY k LIMIT 1;
SELECT number % 3 AS k, count() c FROM numbers(10) WHERE 0 GROUP BY k WITH TOTALS;
SELECT k, uniqExact(x) FROM (SELECT number % 100 AS k, number AS x FROM numbers(100000)) GROUP BY k WITH TOTALS ORDER BY k DESC LIMIT 2;
SELECT number % 2 AS k, max(number), min(toNullable(number)) FROM numbers(4) GROUP BY k WITH TOTALS ORDER BY k;
SELECT number % 2 AS k, count() AS c FROM numbers(3) GROUP BY k WITH TOTALS ORDER BY k FORMAT CSV;
SELECT number % 2 AS k, count() AS c FROM numbers(3) GROUP BY k WITH TOTALS ORDER BY k FORMAT TSVWithNames;
SELECT number % 2 AS k, count() AS c FROM numbers(3) GROUP BY k WITH TOTALS ORDER BY k FORMAT JSON SETTINGS output_format_write_statistics = 0;
SELECT number % 2 AS k, count() AS c FROM numbers(3) GROUP BY k WITH TOTALS ORDER BY k FORMAT JSONCompact SETTINGS output_format_write_statistics = 0;
SELECT number % 2 AS k, count() AS c FROM numbers(3) GROUP BY k WITH TOTALS ORDER BY k FORMAT JSONEachRow;
SELECT number % 2 AS k, count() AS c FROM numbers(3) GROUP BY k WITH TOTALS ORDER BY k FORMAT PrettyCompact;
SELECT number % 2 AS k, count() AS c FROM numbers(3) GROUP BY k WITH TOTALS ORDER BY k FORMAT Pretty;
SELECT number % 2 AS k, count() AS c FROM numbers(3) GROUP BY k WITH TOTALS ORDER BY k FORMAT PrettySpace;
SELECT number % 2 AS k, count() AS c FROM numbers(3) GROUP BY k WITH TOTALS ORDER BY k FORMAT Vertical;
SELECT number % 2 AS k, count() AS c FROM numbers(3) GROUP BY k WITH TOTALS ORDER BY k FORMAT Values;
SELECT 1 WITH TOTALS; -- { serverError NOT_IMPLEMENTED }
SELECT count() FROM numbers(3) GROUP BY number WITH TOTALS SETTINGS totals_mode = 'nonsense'; -- { serverError UNKNOWN_TOTALS_MODE }
