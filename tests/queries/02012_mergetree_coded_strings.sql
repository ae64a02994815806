-- A String column that a query filters on and groups by is read from MergeTree parts
-- dictionary-coded while its values repeat (and as plain values once they stop
-- repeating); the results must equal ClickHouse's whatever the form of each block.
CREATE TABLE cs (k UInt32, name String, body String, v Int32) ENGINE = MergeTree ORDER BY k SETTINGS index_granularity = 1000, min_compress_block_size = 300, max_compress_block_size = 700;
-- mostly '' and a few hundred names; some long values (2- and 3-byte lengths) that cross
-- the small compressed blocks; body: every value distinct
INSERT INTO cs SELECT number, multiIf(number % 7 < 4, '', number % 7 = 4, concat('user', toString(number % 300)), number % 7 = 5, 'anon', repeat(char(97 + number % 26), 100 + number % 50)), concat('b', toString(number)), toInt32(number % 1000) - 500 FROM numbers(200000);
INSERT INTO cs SELECT 200000 + number, if(number % 3 = 0, '', concat('late', toString(number % 11))), concat('c', toString(number)), 1 FROM numbers(30000);
SELECT name, count() AS c FROM cs WHERE name NOT IN ('', 'anon') GROUP BY name ORDER BY c DESC, name LIMIT 5;
SELECT count(), sum(v) FROM cs WHERE name NOT IN ('', 'anon');
SELECT name, count(), sum(v), min(k) FROM cs WHERE name LIKE 'user1%' GROUP BY name ORDER BY name;
SELECT left(name, 3), count() FROM cs WHERE length(name) > 100 GROUP BY left(name, 3) ORDER BY 1 LIMIT 3;
SELECT name, count() FROM cs WHERE k >= 199990 AND name != '' GROUP BY name ORDER BY name;
SELECT count() FROM cs WHERE name = '';
-- a column of distinct values: coded while its dictionary stays small, then plain
SELECT count(), min(body), max(body) FROM cs WHERE body NOT IN ('b1', 'c2');
SELECT body, count() FROM cs WHERE body LIKE '%99999' GROUP BY body ORDER BY body;
SELECT count() FROM (SELECT body FROM cs GROUP BY body);
-- the coded column also read elsewhere: not coded
SELECT name, count() FROM cs WHERE name != '' GROUP BY name ORDER BY length(name) DESC, name LIMIT 3;
SELECT name, count() FROM cs WHERE name IN ('user7', 'late3') GROUP BY name WITH ROLLUP ORDER BY name;
-- a part written before its column was added: no part to code it from
CREATE TABLE cs2 (k UInt32) ENGINE = MergeTree ORDER BY k;
INSERT INTO cs2 SELECT number FROM numbers(10);
ALTER TABLE cs2 ADD COLUMN s String DEFAULT toString(k % 3);
INSERT INTO cs2 SELECT number, 'x' FROM numbers(5);
SELECT s, count() FROM cs2 WHERE s != '1' GROUP BY s ORDER BY s;
-- the same over a Parquet dictionary (coded the same way)
SELECT tag, count() FROM file('../data/parquet/ch_dict.parquet') WHERE tag != (SELECT min(tag) FROM file('../data/parquet/ch_dict.parquet')) GROUP BY tag WITH ROLLUP ORDER BY tag, count();
SELECT tag, count() FROM file('../data/parquet/ch_dict.parquet') WHERE tag != (SELECT min(tag) FROM file('../data/parquet/ch_dict.parquet')) GROUP BY tag WITH CUBE ORDER BY tag, count();
