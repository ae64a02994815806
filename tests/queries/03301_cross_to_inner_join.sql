-- Comma and CROSS joins take the WHERE's equalities between the two sides as join keys
-- (ClickHouse's cross_to_inner_join_rewrite): 30 000³ rows would never finish otherwise.
DROP TABLE IF EXISTS c1;
DROP TABLE IF EXISTS c2;
DROP TABLE IF EXISTS c3;
CREATE TABLE c1 (id UInt64, code String) ENGINE = Memory;
CREATE TABLE c2 (id UInt64, code String, c1_id UInt64, c3_id UInt32) ENGINE = Memory;
CREATE TABLE c3 (id UInt64, code String) ENGINE = Memory;
INSERT INTO c1 SELECT number, toString(number) FROM numbers(30000);
INSERT INTO c3 SELECT number, toString(number) FROM numbers(30000);
INSERT INTO c2 SELECT number, toString(number), number, number FROM numbers(30000);
SELECT c2.id FROM c1, c2, c3 WHERE c1.code IN ('1', '2', '3') AND c2.c1_id = c1.id AND c2.c3_id = c3.id ORDER BY ALL;
SELECT c2.id FROM c1 CROSS JOIN c2 CROSS JOIN c3 WHERE c3.id = c2.c3_id AND c1.id = c2.c1_id AND c3.code = '7' ORDER BY ALL;
SELECT count() FROM c1, c2 WHERE c1.id = c2.c1_id AND c1.id < 10;
-- a string key and a key of two integer types
SELECT a.x, b.y FROM (SELECT toString(number) AS x FROM numbers(5)) a, (SELECT toString(number + 2) AS y FROM numbers(5)) b WHERE a.x = b.y ORDER BY ALL;
SELECT a.x, b.y FROM (SELECT toInt8(number) - 2 AS x FROM numbers(5)) a, (SELECT toUInt64(number) AS y FROM numbers(5)) b WHERE a.x = b.y ORDER BY ALL;
DROP TABLE c1;
DROP TABLE c2;
DROP TABLE c3;
