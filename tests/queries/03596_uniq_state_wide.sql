-- uniq states over UUID, UInt128 and Int128: ClickHouse's key (intHash64 of the halves' xor), byte-identical states
SELECT hex(uniqState(u)), uniq(u) FROM (SELECT toUUID('61f0c404-5cb3-11e7-907b-a6006ad3dba0') AS u);
SELECT hex(uniqState(x)), uniq(x) FROM (SELECT toUInt128(number * 1000000007) * toUInt128('18446744073709551616') + number AS x FROM numbers(20));
SELECT hex(uniqState(x)), uniq(x) FROM (SELECT toInt128(number) - 10 AS x FROM numbers(20));
SELECT uniqMerge(s) FROM (SELECT uniqState(toUUID(concat('00000000-0000-0000-0000-', leftPad(toString(number), 12, '0')))) AS s FROM numbers(300));
SELECT uniq(toUInt128(number)) FROM numbers(100000);
SELECT hex(uniqState(toUInt128(number))) FROM numbers(1000);
SELECT finalizeAggregation(unhex('0001E0FB6055')::AggregateFunction(uniq, UUID));
