-- Parquet files with many row groups: one read task per row group (order kept without
-- ORDER BY), blocks decoded page by page, row groups skipped by min/max statistics.
SELECT count(), sum(id), sum(i32), sum(u32), countIf(ni IS NULL), sum(ni), min(s), max(s), min(d), max(d), sum(f64) FROM file('../data/parquet/ch_row_groups.parquet');
SELECT count(), sum(id), sum(u32) FROM file('../data/parquet/ch_row_groups.parquet') SETTINGS max_threads = 1;
SELECT id, s FROM file('../data/parquet/ch_row_groups.parquet') WHERE id % 997 = 0 SETTINGS max_threads = 4;
SELECT id FROM file('../data/parquet/ch_row_groups.parquet') LIMIT 3 OFFSET 2998;
SELECT arraySort(groupArray(id)) FROM (SELECT id FROM file('../data/parquet/ch_row_groups.parquet') WHERE id BETWEEN 995 AND 1004);
-- filters that skip row groups (the answers must not change)
SELECT count(), sum(id) FROM file('../data/parquet/ch_row_groups.parquet') WHERE id = 4321;
SELECT count(), sum(id) FROM file('../data/parquet/ch_row_groups.parquet') WHERE id < 1500;
SELECT count(), sum(id) FROM file('../data/parquet/ch_row_groups.parquet') WHERE id <= 1000;
SELECT count(), sum(id) FROM file('../data/parquet/ch_row_groups.parquet') WHERE id > 6999;
SELECT count(), sum(id) FROM file('../data/parquet/ch_row_groups.parquet') WHERE 7000 <= id;
SELECT count(), sum(id) FROM file('../data/parquet/ch_row_groups.parquet') WHERE id != 5;
SELECT count(), sum(id) FROM file('../data/parquet/ch_row_groups.parquet') WHERE id IN (5, 2500, 7999, 100000);
SELECT count(), sum(id) FROM file('../data/parquet/ch_row_groups.parquet') WHERE id NOT IN (5, 2500);
SELECT count(), sum(id) FROM file('../data/parquet/ch_row_groups.parquet') WHERE id > 1000.5 AND id < 2000.5;
SELECT count(), sum(id) FROM file('../data/parquet/ch_row_groups.parquet') WHERE id > -1 AND id < 18446744073709551615;
SELECT count(), sum(i32) FROM file('../data/parquet/ch_row_groups.parquet') WHERE i32 >= -3000 AND i32 < -2990;
SELECT count(), min(u32), max(u32) FROM file('../data/parquet/ch_row_groups.parquet') WHERE u32 > 3000000000;
SELECT count(), min(u32) FROM file('../data/parquet/ch_row_groups.parquet') WHERE u32 = 3500000000;
SELECT count(), min(s), max(s) FROM file('../data/parquet/ch_row_groups.parquet') WHERE s >= 'k005990' AND s < 'k006010';
SELECT count(), min(s) FROM file('../data/parquet/ch_row_groups.parquet') WHERE s = 'k003333';
SELECT count(), min(s) FROM file('../data/parquet/ch_row_groups.parquet') WHERE s > 'k007998';
SELECT count(), min(s) FROM file('../data/parquet/ch_row_groups.parquet') WHERE s IN ('k000001', 'k007000', 'zz');
SELECT count(), min(s) FROM file('../data/parquet/ch_row_groups.parquet') WHERE s > 'k00799';
SELECT count(), sum(ni) FROM file('../data/parquet/ch_row_groups.parquet') WHERE ni = 5;
SELECT count(), sum(ni) FROM file('../data/parquet/ch_row_groups.parquet') WHERE ni != 5;
SELECT count(), sum(ni) FROM file('../data/parquet/ch_row_groups.parquet') WHERE ni NOT IN (1, 2);
SELECT count(), sum(ni) FROM file('../data/parquet/ch_row_groups.parquet') WHERE ni IS NULL AND id < 2500;
SELECT count(), min(d), max(d) FROM file('../data/parquet/ch_row_groups.parquet') WHERE d = '2020-02-01';
SELECT count(), min(d), max(d) FROM file('../data/parquet/ch_row_groups.parquet') WHERE d >= toDate('2020-03-10');
SELECT count(), sum(f64) FROM file('../data/parquet/ch_row_groups.parquet') WHERE f64 BETWEEN 100 AND 101;
SELECT count() FROM file('../data/parquet/ch_row_groups.parquet') WHERE f64 < 0;
SELECT count(), sum(id) FROM file('../data/parquet/ch_row_groups.parquet') WHERE id = 4321 SETTINGS input_format_parquet_filter_push_down = 0;
SELECT count(), sum(id) FROM file('../data/parquet/ch_row_groups.parquet') WHERE id = 4321 OR id = 10;
SELECT count() FROM file('../data/parquet/ch_row_groups.parquet', Parquet, 'id Int32, s String') WHERE id < 10;
SELECT id, s FROM file('../data/parquet/ch_row_groups.parquet') WHERE id > 7990 AND s != 'k007995' ORDER BY id DESC LIMIT 3;
-- chunk reads: coalesced or not, the same data
SELECT count(), sum(id), sum(ni), max(s) FROM file('../data/parquet/ch_row_groups.parquet') SETTINGS input_format_parquet_local_file_min_bytes_for_seek = 0;
SELECT count(), sum(id), sum(ni), max(s) FROM file('../data/parquet/ch_row_groups.parquet') SETTINGS input_format_parquet_local_file_min_bytes_for_seek = 100000000;
-- a glob over files with several row groups each, in order
SELECT count(), sum(u64) FROM file('../data/parquet/ch_{zstd,snappy}.parquet');
SELECT u64 FROM file('../data/parquet/ch_zstd.parquet') WHERE u64 % 450 = 0;
