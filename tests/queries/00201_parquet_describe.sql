-- Types as ClickHouse maps them (the header of TSVWithNamesAndTypes prints them on one line).
SELECT * FROM file('../data/parquet/ch_zstd.parquet') LIMIT 0 FORMAT TSVWithNamesAndTypes;
SELECT * FROM file('../data/parquet/dk_v2.parquet') LIMIT 0 FORMAT TSVWithNamesAndTypes;
DESCRIBE file('../data/parquet/ch_zstd.parquet', Parquet, 'u8 UInt8, str String');
