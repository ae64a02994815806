-- Primary key and partition pruning: queries that would read too many rows without it
-- stay under max_rows_to_read.
CREATE TABLE pk (a UInt32, b String, c UInt64) ENGINE = MergeTree ORDER BY (a, b) SETTINGS index_granularity = 1000;
INSERT INTO pk SELECT number % 100, toString(number), number FROM numbers(100000);
SELECT count(), sum(c) FROM pk WHERE a = 42 SETTINGS max_rows_to_read = 3000;
SELECT count(), sum(c) FROM pk WHERE a IN (1, 2) SETTINGS max_rows_to_read = 4000;
SELECT count() FROM pk WHERE a < 3 SETTINGS max_rows_to_read = 5000;
SELECT count() FROM pk WHERE a >= 98 SETTINGS max_rows_to_read = 4000;
SELECT count() FROM pk WHERE a = 42 AND b = '4242' SETTINGS max_rows_to_read = 3000;
SELECT count() FROM pk WHERE c = 5 SETTINGS max_rows_to_read = 5000; -- { serverError TOO_MANY_ROWS }
CREATE TABLE pp (d Date, x UInt32) ENGINE = MergeTree PARTITION BY toYYYYMM(d) ORDER BY x;
INSERT INTO pp SELECT toDate('2024-01-01') + number % 90, number FROM numbers(90000);
SELECT count() FROM pp WHERE d >= '2024-03-01' SETTINGS max_rows_to_read = 31000;
SELECT count() FROM pp WHERE d = '2024-02-10' SETTINGS max_rows_to_read = 30000;
SELECT count() FROM pp WHERE x < 10 SETTINGS max_rows_to_read = 30000;
