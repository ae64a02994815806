-- Keys through monotonic functions: (k, toDate(ts), ts) prunes on conditions on ts.
CREATE TABLE mk (k UInt8, ts DateTime('UTC'), v UInt32) ENGINE = MergeTree ORDER BY (k, toDate(ts), ts) SETTINGS index_granularity = 1000;
INSERT INTO mk SELECT number % 2, toDateTime('2024-01-01 00:00:00', 'UTC') + number * 60, number FROM numbers(200000);
SELECT count(), min(ts) FROM mk WHERE k = 1 AND ts >= '2024-05-01 00:00:00' SETTINGS max_rows_to_read = 13500;
SELECT count() FROM mk WHERE k = 0 AND ts < '2024-01-03 00:00:00' SETTINGS max_rows_to_read = 3000;
SELECT count() FROM mk WHERE k = 1 AND ts = '2024-02-01 00:01:00' SETTINGS max_rows_to_read = 2000;
SELECT count() FROM mk WHERE k = 1 AND ts IN ('2024-02-01 00:01:00', '2024-03-01 00:03:00');
SELECT count() FROM mk WHERE ts >= '2024-05-01 00:00:00' SETTINGS max_rows_to_read = 3000; -- { serverError TOO_MANY_ROWS }
