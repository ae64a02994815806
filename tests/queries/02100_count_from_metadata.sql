-- count() answered without reading (from the source's row count) still runs the rest of
-- the query: expressions around it, several output columns, HAVING, ORDER BY, LIMIT.
SELECT count() + 1 FROM numbers(3);
SELECT count() * 2, count() FROM numbers(3);
SELECT count(), count(*) + 1, toString(count()) AS s FROM numbers(0);
SELECT count() AS c FROM numbers(10) HAVING c > 5;
SELECT count() AS c FROM numbers(10) HAVING c > 50;
SELECT count() FROM numbers(10) LIMIT 0;
SELECT count() - 1 FROM system.one;
CREATE TABLE t02100 (k UInt32, s String) ENGINE = MergeTree ORDER BY k;
INSERT INTO t02100 SELECT number, toString(number) FROM numbers(1000);
INSERT INTO t02100 SELECT number, 'x' FROM numbers(24);
SELECT count() FROM t02100;
SELECT count() + 1 FROM t02100;
SELECT count() * 2, count(), count() > 1000 FROM t02100;
SELECT count() / 2 AS half FROM t02100 ORDER BY half;
SELECT count() + 1 FROM t02100 WHERE k < 10;
SELECT count() * 3, count() FROM t02100 WHERE k >= 500;
CREATE TABLE e02100 (k UInt32) ENGINE = MergeTree ORDER BY k;
SELECT count() + 7, count() FROM e02100;
