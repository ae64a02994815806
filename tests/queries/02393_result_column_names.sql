-- Result column names: a qualifier is dropped where the bare name reads the same column; tuple(x) is named (x)
CREATE TABLE t (a UInt8, b UInt8) ENGINE = Memory;
CREATE TABLE u (a UInt8, c UInt8) ENGINE = Memory;
INSERT INTO t VALUES (1, 2);
INSERT INTO u VALUES (1, 3);
SELECT t.a FROM t FORMAT TSVWithNames;
SELECT x.a, x.b + 1 FROM t AS x FORMAT TSVWithNames;
SELECT x.a FROM (SELECT a FROM t) AS x FORMAT TSVWithNames;
SELECT x.number FROM numbers(1) AS x FORMAT TSVWithNames;
SELECT t.a, t2.a FROM t, t AS t2 FORMAT TSVWithNames;
SELECT t.a + 1, u.a, u.c FROM t, u FORMAT TSVWithNames;
SELECT u.c, t.b FROM t JOIN u ON t.a = u.a FORMAT TSVWithNames;
SELECT y.a, x.a FROM t AS x, t AS y FORMAT TSVWithNames;
SELECT t.a, count() FROM t GROUP BY t.a FORMAT TSVWithNames;
SELECT t.a, 1 AS a FROM t FORMAT TSVWithNames;
SELECT tuple(1), tuple(1, 2), tuple(tuple(1)), [tuple(1)], toTypeName(tuple(1)) FORMAT TSVWithNames;
CREATE TABLE copy ENGINE = Memory AS SELECT t.a, u.c FROM t JOIN u ON t.a = u.a;
DESCRIBE copy;
