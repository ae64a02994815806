-- Pages skipped by the column index (input_format_parquet_page_filter_push_down) must not
-- change any answer: ranges, equality, IN, strings, timestamps, NULL-only pages, several
-- filters at once, filters matching nothing, and the same with the setting off.
SELECT count(), sum(id), min(s), max(s) FROM file('../data/parquet/ch_pages.parquet') WHERE id >= 12345 AND id < 12400;
SELECT count(), sum(id) FROM file('../data/parquet/ch_pages.parquet') WHERE id BETWEEN 9990 AND 10010;
SELECT count(), sum(id) FROM file('../data/parquet/ch_pages.parquet') WHERE id = 777 OR id = 15000;
SELECT count(), sum(id) FROM file('../data/parquet/ch_pages.parquet') WHERE id IN (3, 9999, 10000, 19999, 25000);
SELECT count(), min(ts), max(ts) FROM file('../data/parquet/ch_pages.parquet') WHERE ts >= '2020-01-05 00:00:00' AND ts < '2020-01-05 01:00:00';
SELECT count(), min(id) FROM file('../data/parquet/ch_pages.parquet') WHERE s > 'k019990';
SELECT count(), sum(id) FROM file('../data/parquet/ch_pages.parquet') WHERE s = 'k004321';
SELECT count(), sum(id), sum(n) FROM file('../data/parquet/ch_pages.parquet') WHERE n = 5;
SELECT count(), sum(n) FROM file('../data/parquet/ch_pages.parquet') WHERE n < 3 AND id > 15000;
SELECT count() FROM file('../data/parquet/ch_pages.parquet') WHERE n IS NULL;
SELECT count(), sum(id) FROM file('../data/parquet/ch_pages.parquet') WHERE colour = 'blue' AND id < 7000;
SELECT count() FROM file('../data/parquet/ch_pages.parquet') WHERE id > 30000;
SELECT id, s, n FROM file('../data/parquet/ch_pages.parquet') WHERE id >= 19995 ORDER BY id;
SELECT id, s, n FROM file('../data/parquet/ch_pages.parquet') WHERE id > 4990 AND id <= 5003 ORDER BY id SETTINGS max_threads = 1;
SELECT count(), sum(id) FROM file('../data/parquet/ch_pages.parquet') WHERE id >= 12345 AND id < 12400 SETTINGS input_format_parquet_page_filter_push_down = 0;
SELECT count(), sum(id), sum(n) FROM file('../data/parquet/ch_pages.parquet') WHERE n = 5 SETTINGS input_format_parquet_filter_push_down = 0;
