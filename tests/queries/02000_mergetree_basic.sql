-- MergeTree: inserts become sorted parts; reads, OPTIMIZE FINAL, system.parts.
CREATE TABLE mt (id UInt32, name String, d Date, v Float64, n Nullable(Int16), a Array(String)) ENGINE = MergeTree ORDER BY id;
INSERT INTO mt VALUES (3, 'c', '2024-01-03', 3.5, NULL, ['x']), (1, 'a', '2024-01-01', 1.5, 7, []), (2, 'b', '2024-01-02', 2.5, -2, ['y', 'z']);
SELECT * FROM mt SETTINGS max_threads = 1;
INSERT INTO mt SELECT number + 10, toString(number), toDate('2024-02-01') + number, number / 4, if(number % 3 = 0, NULL, number % 100), if(number % 2 = 0, ['p'], ['q', 'r']) FROM numbers(20000) SETTINGS max_block_size = 1000;
SELECT count(), sum(id), min(d), max(d), sum(v), count(n), sum(n), sum(length(a)) FROM mt;
SELECT * FROM mt WHERE id BETWEEN 500 AND 503 ORDER BY id;
SELECT name, rows, level, partition_id, partition, active FROM system.parts WHERE table = 'mt' ORDER BY name;
OPTIMIZE TABLE mt FINAL;
SELECT name, rows, level, active FROM system.parts WHERE table = 'mt' AND active ORDER BY name;
SELECT count(), sum(id), sum(v), count(n) FROM mt;
SELECT id, name FROM mt ORDER BY id LIMIT 5;
SELECT id FROM mt WHERE id IN (5, 15, 19999, 20009) ORDER BY id;
SELECT count() FROM mt WHERE id >= 20000;
TRUNCATE TABLE mt;
SELECT count() FROM mt;
INSERT INTO mt (id, name) VALUES (42, 'answer');
SELECT * FROM mt;
DROP TABLE mt;
