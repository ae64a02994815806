-- Int256 / UInt256 / Decimal256 in comparisons, supertypes, aggregates, GROUP BY,
-- ORDER BY, DISTINCT, JOIN and IN, and hashing.
SELECT toInt256(1) < toUInt256(-1), toInt256(-1) = toUInt256(-1), toInt256(-1) = -1, toUInt256(5) > 4.5, toDecimal256(1.5, 2) > 1, toInt256(3) = toDecimal32(3, 2);
SELECT toInt256(-1) != toInt8(-1), toUInt256(3) <= toUInt8(3), toInt256(-2) >= toInt128(-1), toDecimal256('1.50', 2) = toDecimal256('1.5', 5), toDecimal256('-0.1', 3) < 0;
SELECT toTypeName([toInt256(1), 2]), toTypeName([toInt256(1), toUInt64(1)]), toTypeName([toUInt256(1), toUInt64(1)]), toTypeName([toInt256(1), toUInt128(1)]), toTypeName([toInt128(1), toUInt128(1)]);
SELECT [toInt256(1), -2], [toUInt256(5), 1], if(number = 0, toInt256(-1), toUInt8(3)) FROM numbers(2);
SELECT toTypeName(sum(toInt256(1))), toTypeName(avg(toInt256(1))), toTypeName(sum(toUInt256(1))), toTypeName(sum(toDecimal256(1, 3))), toTypeName(avg(toDecimal256(1, 3)));
SELECT sum(toInt256(number) * toInt256('1000000000000000000000000000000')), avg(toInt256(number)), sum(toUInt256(number)), sum(toDecimal256(number, 3)), avg(toDecimal256(number, 3)) FROM numbers(10);
SELECT sum(x) FROM (SELECT toUInt256('115792089237316195423570985008687907853269984665640564039457584007913129639935') AS x FROM numbers(3));
SELECT min(x), max(x), any(x), argMin(number, x), argMax(number, x), uniq(x), uniqExact(x), count(DISTINCT x), groupArray(x) FROM (SELECT number, toInt256(number) - 5 AS x FROM numbers(10));
SELECT max(x), min(x), argMax(x, number) FROM (SELECT number, toDecimal256(number, 5) - 3 AS x FROM numbers(7));
SELECT x, count() FROM (SELECT toInt256(number % 3) * toInt256('-100000000000000000000000000000000000000000') AS x FROM numbers(10)) GROUP BY x ORDER BY x;
SELECT u, sum(number) FROM (SELECT number, toUInt256(number % 2) * toUInt256('100000000000000000000000000000000000000000000000000000000000000000000000000') AS u FROM numbers(10)) GROUP BY u ORDER BY u DESC;
SELECT DISTINCT toUInt256(number % 4) AS x FROM numbers(10) ORDER BY x DESC;
SELECT number, toInt256(number) * -1 AS x FROM numbers(4) ORDER BY x;
SELECT a.x, b.y FROM (SELECT toInt256(number) AS x FROM numbers(5)) a JOIN (SELECT toInt256(number * 2) AS x, number AS y FROM numbers(5)) b ON a.x = b.x ORDER BY a.x;
SELECT number, toInt256(number) AS x FROM numbers(3) WHERE x IN (1, 2);
SELECT toInt256(2) IN (SELECT toInt256(number) FROM numbers(5)), greatest(toInt256(1), 2), least(toUInt256(3), 1);
SELECT toInt256(5) BETWEEN 1 AND 10, if(toInt256(5) > 0, 'y', 'n'), multiIf(toInt256(1) = 1, toInt256(2), toInt256(3)), coalesce(NULL, toInt256(7)), isNull(toInt256(3));
SELECT cityHash64(toInt256(1)), sipHash64(toInt256(1)), cityHash64(toUInt256(-1)), xxHash64(toInt256(5)), murmurHash3_64(toInt256(5)), cityHash64(toDecimal256(1, 2));
SELECT cityHash64(toInt256(-1), toUInt256(2)), sipHash64(toInt256(7)) = sipHash64(toUInt256(7));
