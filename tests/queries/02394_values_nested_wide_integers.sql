-- INSERT … VALUES: integers beyond 64 bits inside tuples and arrays keep every digit
CREATE TABLE x (t Tuple(Nullable(Date), UInt128), a Array(UInt128), i Array(Int128), n Tuple(Nullable(Date), Array(Nullable(String))), d Array(Decimal(38, 2))) ENGINE = Memory;
INSERT INTO x VALUES (('2000-02-29', 340282366920938463463374607431768211455), [340282366920938463463374607431768211455, 18446744073709551616], [-170141183460469231731687303715884105728, 170141183460469231731687303715884105727], ('2000-02-29', ['it\'s', NULL]), [1.5, -2.25]);
INSERT INTO x VALUES ((NULL, 2 + 3), [1 + 1], [], (NULL, []), []), ((NULL, 300), [], [-1], ('1970-01-01', ['x']), [0.01]);
SELECT * FROM x ORDER BY tupleElement(t, 2);
