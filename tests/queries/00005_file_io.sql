INSERT INTO FUNCTION file('data/io_a.csv', CSVWithNames) SELECT number AS id, concat('name_', toString(number % 7)) AS name, number * 1.5 AS x FROM numbers(1000) SETTINGS engine_file_truncate_on_insert = 1;
INSERT INTO FUNCTION file('data/io_b.tsv', TSVWithNames) SELECT number AS id, toString(number) AS s FROM numbers(500) SETTINGS engine_file_truncate_on_insert = 1;
INSERT INTO FUNCTION file('data/io_c.jsonl', JSONEachRow) SELECT number AS id, number % 3 = 0 AS flag, [number, number + 1] AS arr FROM numbers(300) SETTINGS engine_file_truncate_on_insert = 1;
INSERT INTO FUNCTION file('data/io_d.csv.gz', CSVWithNames) SELECT number AS id FROM numbers(100) SETTINGS engine_file_truncate_on_insert = 1;
INSERT INTO FUNCTION file('data/io_e.tsv.zst', TSV) SELECT number AS id, 'z' AS s FROM numbers(50) SETTINGS engine_file_truncate_on_insert = 1;
DESCRIBE file('data/io_a.csv', CSVWithNames);
DESCRIBE file('data/io_c.jsonl');
SELECT count(), sum(id), uniqExact(name), sum(x) FROM file('data/io_a.csv', CSVWithNames);
SELECT count(), sum(id), uniqExact(name), sum(x) FROM file('data/io_a.csv', CSVWithNames) SETTINGS min_chunk_bytes_for_parallel_parsing = 100;
SELECT name, count(), min(id), max(id) FROM file('data/io_a.csv', CSVWithNames) GROUP BY name ORDER BY name SETTINGS min_chunk_bytes_for_parallel_parsing = 1000, max_threads = 2;
SELECT count(), sum(toUInt64(s)) FROM file('data/io_b.tsv', TSVWithNames) SETTINGS min_chunk_bytes_for_parallel_parsing = 64;
SELECT count(), countIf(flag = 1), sum(length(arr)), sum(arr[2]) FROM file('data/io_c.jsonl') SETTINGS min_chunk_bytes_for_parallel_parsing = 128;
SELECT count(), sum(id) FROM file('data/io_d.csv.gz', CSVWithNames);
SELECT count(), sum(c1) FROM file('data/io_e.tsv.zst', TSV);
SELECT _file, count() FROM file('data/io_{a,d}.csv*', CSVWithNames) GROUP BY _file ORDER BY _file;
SELECT count() FROM file('data/io_?.csv', CSVWithNames);
SELECT id FROM file('data/io_a.csv', CSVWithNames) WHERE id % 250 = 1 ORDER BY id;
SELECT * FROM file('data/io_b.tsv', TSVWithNames) ORDER BY id LIMIT 3;
SELECT * FROM file('data/does_not_exist_*.csv'); -- { serverError CANNOT_EXTRACT_TABLE_STRUCTURE }
