-- The Parquet metadata cache (use_parquet_metadata_cache) over local files: a file rewritten
-- with the same size, often within one mtime tick, and read again in the same process must
-- give its new rows, with the cache on and off.
INSERT INTO FUNCTION file('data/pqcache_a.parquet') SELECT number AS x, toString(number) AS s FROM numbers(1000) SETTINGS engine_file_truncate_on_insert = 1;
SELECT count(), sum(x), min(x), max(x), max(s) FROM file('data/pqcache_a.parquet');
SELECT count(), sum(x), min(x), max(x) FROM file('data/pqcache_a.parquet') WHERE x > 990;
INSERT INTO FUNCTION file('data/pqcache_a.parquet') SELECT number + 1 AS x, toString(number + 1) AS s FROM numbers(1000) SETTINGS engine_file_truncate_on_insert = 1;
SELECT count(), sum(x), min(x), max(x), max(s) FROM file('data/pqcache_a.parquet');
SELECT count(), sum(x), min(x), max(x) FROM file('data/pqcache_a.parquet') WHERE x > 990;
SELECT count(), sum(x), min(x), max(x), max(s) FROM file('data/pqcache_a.parquet') SETTINGS use_parquet_metadata_cache = 0;
INSERT INTO FUNCTION file('data/pqcache_a.parquet') SELECT number * 2 AS x, 'v' || toString(number) AS s FROM numbers(3000) SETTINGS engine_file_truncate_on_insert = 1, output_format_parquet_row_group_size = 1000;
SELECT count(), sum(x), min(x), max(x), max(s) FROM file('data/pqcache_a.parquet');
SELECT count(), sum(x) FROM file('data/pqcache_a.parquet') WHERE x < 100;
SELECT count(), sum(x), min(x), max(x), max(s) FROM file('data/pqcache_a.parquet') SETTINGS use_parquet_metadata_cache = 0;
SYSTEM DROP PARQUET METADATA CACHE;
SELECT count(), sum(x) FROM file('data/pqcache_a.parquet');
-- the same files through a glob, twice in one process, cache on and off
INSERT INTO FUNCTION file('data/pqcache_b.parquet') SELECT number AS x, 'b' AS s FROM numbers(10) SETTINGS engine_file_truncate_on_insert = 1;
SELECT _file, count(), sum(x) FROM file('data/pqcache_{a,b}.parquet') GROUP BY _file ORDER BY _file;
SELECT _file, count(), sum(x) FROM file('data/pqcache_{a,b}.parquet') GROUP BY _file ORDER BY _file;
SELECT _file, count(), sum(x) FROM file('data/pqcache_{a,b}.parquet') GROUP BY _file ORDER BY _file SETTINGS use_parquet_metadata_cache = 0;
