-- ANY INNER and ANY RIGHT JOIN join each key once: the first left row of a key takes its
-- first right row (INNER) or all of them (RIGHT); later left rows of that key are dropped.
DROP TABLE IF EXISTS 03308_a;
DROP TABLE IF EXISTS 03308_b;
CREATE TABLE 03308_a (id UInt16, v String) ENGINE = Memory;
CREATE TABLE 03308_b (id UInt16, w String) ENGINE = Memory;
INSERT INTO 03308_a VALUES (0, 'a0'), (1, 'a1'), (2, 'a2'), (0, 'a0b'), (1, 'a1b');
INSERT INTO 03308_b VALUES (0, 'b0'), (1, 'b1'), (3, 'b3'), (0, 'b0b');
SELECT * FROM 03308_a ANY INNER JOIN 03308_b USING (id) ORDER BY id, v;
SELECT * FROM 03308_a ANY LEFT JOIN 03308_b USING (id) ORDER BY id, v;
SELECT * FROM 03308_a ANY RIGHT JOIN 03308_b USING (id) ORDER BY id, v, w;
SELECT v, w FROM 03308_a AS a ANY INNER JOIN 03308_b AS b ON a.id = b.id ORDER BY v, w;
SELECT v, w FROM 03308_a AS a ANY RIGHT JOIN 03308_b AS b ON a.id = b.id ORDER BY v, w;
SELECT count() FROM 03308_a AS a ANY INNER JOIN 03308_b AS b ON a.id = b.id AND a.v = 'a0b';
SET join_algorithm = 'parallel_hash';
SELECT * FROM 03308_a ANY INNER JOIN 03308_b USING (id) ORDER BY id, v;
DROP TABLE 03308_a;
DROP TABLE 03308_b;
