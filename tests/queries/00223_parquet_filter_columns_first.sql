-- The WHERE's columns are decoded first and the others only for blocks (and runs of rows)
-- that keep some: every answer must stay the same — few rows kept (decoded run by run),
-- many kept (whole blocks), none kept, dictionary-coded and Nullable other columns,
-- structs, fixed strings, decimals, timestamps, PLAIN fallbacks, several threads.
SELECT id, s, n, colour FROM file('../data/parquet/ch_pages.parquet') WHERE id % 997 = 3 ORDER BY id;
SELECT count(), sum(length(s)), sum(n) FROM file('../data/parquet/ch_pages.parquet') WHERE n = 7;
SELECT colour, count(), sum(id) FROM file('../data/parquet/ch_pages.parquet') WHERE id % 3 = 0 GROUP BY colour ORDER BY colour;
SELECT colour, count(), min(s) FROM file('../data/parquet/ch_pages.parquet') WHERE id % 5000 = 1 GROUP BY colour ORDER BY colour;
SELECT count() FROM file('../data/parquet/ch_pages.parquet') WHERE s = 'nope';
SELECT id, ts FROM file('../data/parquet/ch_pages.parquet') WHERE s IN ('k000010', 'k010010', 'k019999') ORDER BY id SETTINGS max_threads = 1;
SELECT name, ntag, score FROM file('../data/parquet/ch_dict.parquet') WHERE id % 1000 = 999 ORDER BY id;
SELECT tag, count(), sum(score) FROM file('../data/parquet/ch_dict.parquet') WHERE id % 97 = 0 GROUP BY tag ORDER BY tag;
SELECT s, i FROM file('../data/parquet/ar_dict_fallback.parquet') WHERE i = 5 ORDER BY s, i;
SELECT id, st, st2 FROM file('../data/parquet/ar_nested.parquet') WHERE id % 50 = 7 ORDER BY id;
SELECT id, s_req, fsb, dec9, dec38, ts_us FROM file('../data/parquet/ar_types.parquet') WHERE id % 41 = 0 ORDER BY id;
SELECT id, s_req, u32 FROM file('../data/parquet/ar_types.parquet') WHERE u8 = 7 AND id > 10 ORDER BY id;
SELECT _file, count() FROM file('../data/parquet/ch_pages.parquet') WHERE id < 3 GROUP BY _file;
SELECT count(), sum(id) FROM file('../data/parquet/ch_pages.parquet') WHERE _file = 'ch_pages.parquet' AND n IS NULL;
