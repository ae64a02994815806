-- uniqExact and the other uniq functions of a constant tuple (a crash: the tuple's fields
-- were read at every row); xor of Nullable(Bool) arguments is Nullable(Bool), as ClickHouse's
-- (and/or of them stay Nullable(UInt8)). Found by difftest.
SELECT uniqExact(tuple(0, 'x,y,z')), uniq(tuple(1, 'a')), uniqCombined(tuple(1, 'a')), uniqHLL12(tuple(2, 'b')), uniqExact(tuple(number, 'x')) FROM numbers(3);
SELECT number % 2 AS k, uniqExact(tuple(0, 'x')), uniqExact((1, 'a'), number) FROM numbers(4) GROUP BY k ORDER BY k;
DROP TABLE IF EXISTS t03653;
CREATE TABLE t03653 (b Nullable(Bool), c Bool) ENGINE = Memory;
INSERT INTO t03653 VALUES (true, false), (NULL, true), (false, false);
SELECT xor(b, b), toTypeName(xor(b, b)), xor(c, c), toTypeName(xor(c, c)), xor(b, c), tuple(xor(c, true)) FROM t03653 ORDER BY b;
SELECT xor(b, c) AS x FROM t03653 GROUP BY x ORDER BY x;
SELECT toTypeName(or(toNullable(true), toNullable(false))), toTypeName(xor(toNullable(true), toNullable(false), 1)), toTypeName(and(toNullable(true), true)), toTypeName(xor(1, 0));
DROP TABLE t03653;
