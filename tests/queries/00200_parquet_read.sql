-- Parquet files written by ClickHouse (every codec, both encoders) and DuckDB (v1/v2 pages).
SELECT * FROM file('../data/parquet/ch_zstd.parquet') ORDER BY u64 LIMIT 20;
SELECT * FROM file('../data/parquet/dk_v2.parquet') ORDER BY i LIMIT 20;
SELECT count() FROM file('../data/parquet/ch_none.parquet');
SELECT count() FROM file('../data/parquet/dk_zstd.parquet');
SELECT count(), sum(u32), sum(i64), min(str), max(ns), countIf(ni IS NULL), sum(length(arr)) FROM file('../data/parquet/ch_snappy.parquet');
SELECT count(), sum(u32), sum(i64), min(str), max(ns), countIf(ni IS NULL), sum(length(arr)) FROM file('../data/parquet/ch_gzip.parquet');
SELECT count(), sum(u32), sum(i64), min(str), max(ns), countIf(ni IS NULL), sum(length(arr)) FROM file('../data/parquet/ch_lz4.parquet');
SELECT count(), sum(u32), sum(i64), min(str), max(ns), countIf(ni IS NULL), sum(length(arr)) FROM file('../data/parquet/ch_brotli.parquet');
SELECT count(), sum(u32), sum(i64), min(str), max(ns), countIf(ni IS NULL), sum(length(arr)) FROM file('../data/parquet/ch_arrow_encoder.parquet');
SELECT count(), sum(u32), sum(i64), min(str), max(ns), countIf(ni IS NULL), sum(length(arr)) FROM file('../data/parquet/ch_v1_pages.parquet');
SELECT str, count(), round(sum(f64), 6) FROM file('../data/parquet/ch_zstd.parquet') GROUP BY str ORDER BY str LIMIT 10;
SELECT count(), sum(big), round(sum(d), 6), countIf(s IS NULL), max(ts), sum(dc), max(bigdec), sum(length(lst)) FROM file('../data/parquet/dk_zstd.parquet');
SELECT count(), sum(big), round(sum(d), 6), countIf(s IS NULL), max(ts), sum(dc), max(bigdec), sum(length(lst)) FROM file('../data/parquet/dk_v2.parquet');
SELECT count(), sum(big), round(sum(d), 6), countIf(s IS NULL), max(ts), sum(dc), max(bigdec), sum(length(lst)) FROM file('../data/parquet/dk_gzip.parquet');
SELECT count(), sum(big), round(sum(d), 6), countIf(s IS NULL), max(ts), sum(dc), max(bigdec), sum(length(lst)) FROM file('../data/parquet/dk_brotli.parquet');
SELECT count(), sum(big), round(sum(d), 6), countIf(s IS NULL), max(ts), sum(dc), max(bigdec), sum(length(lst)) FROM file('../data/parquet/dk_lz4.parquet');
SELECT count(), sum(big), round(sum(d), 6), countIf(s IS NULL), max(ts), sum(dc), max(bigdec), sum(length(lst)) FROM file('../data/parquet/dk_uncompressed.parquet');
SELECT st, nested, lst FROM file('../data/parquet/dk_lz4.parquet') WHERE i IN (0, 1, 5, 1499) ORDER BY i;
-- explicit structure: a subset, converted types, a column the file lacks
SELECT u8, str, f64 FROM file('../data/parquet/ch_zstd.parquet', Parquet, 'str String, u8 UInt64, f64 Float32, missing Int32') ORDER BY u8, str LIMIT 5;
