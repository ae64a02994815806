-- UInt128 against other integer types: values above Int128's range stay the largest
select x, 1 >= x, 1 < x, x > 1, toInt8(1) >= x, toUInt8(1) >= x, toInt8(-1) < x, x = x, toInt128(-1) < x, toUInt64(5) < x
from (select toUInt128('340282366920938463463374607431768211455') x);
select toUInt128(3) > toInt8(-1), toUInt128(3) = 3, toUInt128(3) < toInt128(4), toInt16(-5) > toUInt128(0), toInt128(-1) = toUInt128(0);
drop table if exists t_u128;
create table t_u128 (k Int32, v Nullable(UInt128), w UInt16) engine = Memory;
insert into t_u128 values (1, 340282366920938463463374607431768211455, 1), (2, 1, 5), (3, 170141183460469231731687303715884105728, 2), (4, NULL, 1), (5, 0, 0);
select k from t_u128 where 1 between v and w order by k;
select k, v > toInt64(-1), v < 2, v != 1 from t_u128 order by k;
select k from t_u128 order by v desc, k;
drop table t_u128;
