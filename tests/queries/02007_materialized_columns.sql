-- MATERIALIZED columns are stored and selectable by name, but SELECT * leaves them out.
CREATE TABLE mat (a UInt32, m UInt64 MATERIALIZED a * 10, s String, d Date MATERIALIZED toDate('2024-01-01') + a) ENGINE = MergeTree ORDER BY (m, a);
INSERT INTO mat (a, s) VALUES (3, 'c'), (1, 'a'), (2, 'b');
SELECT * FROM mat ORDER BY a;
SELECT a, m, d FROM mat ORDER BY a;
SELECT s FROM mat WHERE m = 20;
SELECT count() FROM mat WHERE d >= '2024-01-03';
CREATE TABLE matm (a UInt32, m UInt64 MATERIALIZED a + 1) ENGINE = Memory;
INSERT INTO matm VALUES (5);
SELECT *, m FROM matm;
