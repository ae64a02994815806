-- t.* in a JOIN expands to the columns of table t only; a USING key belongs to both tables.
CREATE TABLE t1 (a UInt8, b String) ENGINE = Memory;
CREATE TABLE t2 (a UInt8, c String) ENGINE = Memory;
CREATE TABLE t3 (a UInt8, d Float64) ENGINE = Memory;
INSERT INTO t1 VALUES (1, 'x'), (2, 'y');
INSERT INTO t2 VALUES (1, 'p'), (3, 'q');
INSERT INTO t3 VALUES (1, 0.5), (2, 1.5);
SELECT t1.* FROM t1 JOIN t2 ON t1.a = t2.a;
SELECT t2.* FROM t1 JOIN t2 ON t1.a = t2.a;
SELECT t2.*, t1.* FROM t1 LEFT JOIN t2 ON t1.a = t2.a ORDER BY t1.a;
SELECT x.*, y.c FROM t1 AS x JOIN t2 AS y ON x.a = y.a;
SELECT y.* FROM t1 AS x JOIN t2 AS y USING (a);
SELECT x.* FROM t1 AS x JOIN t2 AS y USING (a);
SELECT y.a, x.a, a FROM t1 AS x JOIN t2 AS y USING (a);
SELECT * FROM t1 AS x JOIN t2 AS y USING (a);
SELECT * FROM t1 AS x JOIN t2 AS y ON x.a = y.a;
SELECT t3.*, t1.b FROM t1 JOIN t2 ON t1.a = t2.a JOIN t3 ON t3.a = t1.a;
SELECT t2.* FROM t1 JOIN t2 ON t1.a = t2.a JOIN t3 ON t3.a = t1.a;
SELECT t1.* FROM t1;
SELECT t1.* FROM t1 AS x;
SELECT z.* FROM t1 AS x JOIN t2 AS y USING (a); -- { serverError UNKNOWN_IDENTIFIER }
