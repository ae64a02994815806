-- Pages: CRC checksums verified when present (a damaged page fails, naming file, column and
-- page; input_format_parquet_verify_checksums = 0 reads it anyway), GZIP pages made of
-- several gzip members, null pages, Float16, BYTE_STREAM_SPLIT, DELTA_LENGTH_BYTE_ARRAY.
SELECT count(), sum(a), sum(b) FROM file('../data/parquet/apache/datapage_v1-snappy-compressed-checksum.parquet');
SELECT count(), sum(long_field), uniqExact(binary_field), any(binary_field) FROM file('../data/parquet/apache/rle-dict-snappy-checksum.parquet');
-- one byte of the first page's (snappy) body changed: the CRC no longer matches
INSERT INTO FUNCTION file('data/crc_damaged.parquet', RawBLOB) SELECT concat(substring(raw_blob, 1, 99), if(substring(raw_blob, 100, 1) = 'A', 'B', 'A'), substring(raw_blob, 101)) FROM file('../data/parquet/apache/datapage_v1-snappy-compressed-checksum.parquet', RawBLOB) SETTINGS engine_file_truncate_on_insert = 1;
SELECT sum(a), sum(b) FROM file('data/crc_damaged.parquet', Parquet); -- { serverError INCORRECT_DATA }
SELECT * FROM file('data/crc_damaged.parquet', Parquet) LIMIT 1; -- { serverError INCORRECT_DATA }
SELECT sum(b) FROM file('data/crc_damaged.parquet', Parquet) SETTINGS input_format_parquet_verify_checksums = 0;
-- a damaged dictionary page
INSERT INTO FUNCTION file('data/crc_damaged_dict.parquet', RawBLOB) SELECT concat(substring(raw_blob, 1, 28), if(substring(raw_blob, 29, 1) = 'A', 'B', 'A'), substring(raw_blob, 30)) FROM file('../data/parquet/apache/rle-dict-snappy-checksum.parquet', RawBLOB) SETTINGS engine_file_truncate_on_insert = 1;
SELECT * FROM file('data/crc_damaged_dict.parquet', Parquet); -- { serverError INCORRECT_DATA }
SELECT * FROM file('../data/parquet/apache/concatenated_gzip_members.parquet') ORDER BY 1 LIMIT 5;
SELECT count(), sum(long_col) FROM file('../data/parquet/apache/concatenated_gzip_members.parquet');
SELECT count(), count(int32_field), sum(int32_field), min(int32_field), max(int32_field) FROM file('../data/parquet/apache/int32_with_null_pages.parquet');
SELECT * FROM file('../data/parquet/apache/float16_nonzeros_and_nans.parquet');
SELECT count(), round(sum(f32), 3), round(sum(f64), 6), countIf(f32 IS NULL) FROM file('../data/parquet/apache/byte_stream_split.zstd.parquet');
SELECT * FROM file('../data/parquet/apache/byte_stream_split.zstd.parquet') LIMIT 5;
SELECT * FROM file('../data/parquet/apache/delta_length_byte_array.parquet') LIMIT 5;
SELECT count(), uniqExact(FRUIT), max(FRUIT) FROM file('../data/parquet/apache/delta_length_byte_array.parquet');
