-- numbers_mt() and system.numbers_mt give the rows of numbers() (read by several threads).
SELECT count(), sum(number), min(number), max(number) FROM numbers_mt(100000);
SELECT number FROM numbers_mt(2, 3) ORDER BY number;
SELECT count() FROM (SELECT number FROM system.numbers_mt LIMIT 1000);
SELECT number % 3 AS k, count() FROM numbers_mt(10) GROUP BY k ORDER BY k;
