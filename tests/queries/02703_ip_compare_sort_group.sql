-- IPv4/IPv6 comparisons, sorting, grouping, DISTINCT, IN, aggregates; Nullable, LowCardinality, Array
SELECT toIPv4('1.2.3.4') = toIPv4('1.2.3.4'), toIPv4('1.2.3.4') < toIPv4('1.2.3.5'), toIPv4('9.0.0.0') < toIPv4('10.0.0.0'), toIPv6('::1') < toIPv6('1::'), toIPv6('ffff::') > toIPv6('1::');
SELECT toIPv6('::ffff:1.2.3.4') = toIPv4('1.2.3.4'), toIPv4('1.2.3.4') < toIPv6('::ffff:1.2.3.5'), toIPv4('1.2.3.4') = '1.2.3.4', toIPv6('::1') = '::1', '::2' > toIPv6('::1');
SELECT toIPv4('0.0.0.5') = 5, toIPv4('0.0.0.5') = toUInt64(5), toIPv4('1.2.3.4') > 5, toIPv4('1.2.3.4') = toFixedString('1.2.3.4', 7), toIPv6('::1') = IPv6StringToNum('::1');
SELECT toIPv4(s) = s, toIPv6(s) = s, toIPv4(s) != s FROM (SELECT '1.2.3.4' AS s);
SELECT x FROM (SELECT arrayJoin(['10.0.0.1', '9.0.0.1', '255.0.0.0', '1.1.1.1', '10.0.0.0']) AS s, toIPv4(s) AS x) ORDER BY x;
SELECT x FROM (SELECT arrayJoin(['::1', '1::', 'ffff::1', '::ffff:1.2.3.4', '2001:db8::', '::', '8000::']) AS s, toIPv6(s) AS x) ORDER BY x DESC;
SELECT x, count() FROM (SELECT toIPv4(concat('10.0.0.', toString(number % 3))) AS x FROM numbers(10)) GROUP BY x ORDER BY x;
SELECT x, count() FROM (SELECT toIPv6(concat('2001:db8::', toString(number % 4))) AS x FROM numbers(10)) GROUP BY x ORDER BY x DESC;
SELECT min(x), max(x), any(x), uniq(x), uniqExact(x), count(DISTINCT x) FROM (SELECT toIPv4(concat('10.0.', toString(number % 7), '.1')) AS x FROM numbers(100));
SELECT min(x), max(x), any(x), uniq(x), uniqExact(x), argMax(x, number), argMin(number, (x, number)) FROM (SELECT number, toIPv6(concat('2001:db8::', toString(number % 7))) AS x FROM numbers(100));
SELECT groupArray(x), groupUniqArray(x) FROM (SELECT toIPv4('1.2.3.4') AS x);
SELECT DISTINCT toIPv6(toIPv4(concat('1.1.1.', toString(number % 2)))) FROM numbers(5) ORDER BY 1;
SELECT toIPv4('1.2.3.4') IN (toIPv4('1.2.3.4')), toIPv4('1.2.3.4') IN ('1.2.3.4', '5.5.5.5'), toIPv4('1.2.3.6') IN ('1.2.3.4', '5.5.5.5');
SELECT [toIPv4('1.2.3.4'), toIPv4('5.6.7.8')] AS a, toTypeName(a), toLowCardinality(toIPv6('::1')) AS l, toTypeName(l), toNullable(toIPv4('1.1.1.1')) AS n, toTypeName(n);
SELECT x, toTypeName(x) FROM (SELECT if(number % 2, NULL, toIPv4(toUInt32(number))) AS x FROM numbers(4)) ORDER BY x NULLS FIRST;
SELECT min(x), max(x), count(x) FROM (SELECT if(number % 2, NULL, toIPv6(toUInt128(number))) AS x FROM numbers(5));
SELECT l, count() FROM (SELECT toLowCardinality(toIPv4(toUInt32(number % 3))) AS l FROM numbers(9)) GROUP BY l ORDER BY l;
SELECT arraySort([toIPv6('1::'), toIPv6('::1'), toIPv6('::')]), has([toIPv4('1.1.1.1')], toIPv4('1.1.1.1')), arrayMax([toIPv4('1.1.1.1'), toIPv4('2.0.0.0')]);
SELECT x FROM (SELECT toIPv4(concat('10.0.0.', toString(number))) AS x FROM numbers(20)) WHERE x > '10.0.0.5' AND x <= toIPv4('10.0.0.9') ORDER BY x DESC;
SELECT toIPv4('1.2.3.4') = 'x'; -- { serverError CANNOT_PARSE_IPV4 }
SELECT toIPv4('0.0.0.5') = -1; -- { serverError NOT_IMPLEMENTED }
SELECT toIPv6('::5') = 5; -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT toIPv6('::5') = toUInt128(5); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT empty(toIPv6('::')), notEmpty(toIPv4('0.0.0.0')), empty(toIPv4('0.0.0.0')), notEmpty(toIPv6('::1'));
SELECT reinterpretAsString(toIPv4('1.2.3.4')) = unhex('04030201'), length(reinterpretAsString(toIPv6('1::'))), hex(reinterpretAsString(toIPv6('::1')));
SELECT if(number % 2, toIPv4('1.1.1.1'), toIPv4('2.2.2.2')), coalesce(NULL, toIPv6('::1')), ifNull(toNullable(toIPv4('1.1.1.1')), toIPv4('0.0.0.0')) FROM numbers(2);
SELECT greatest(toIPv4('1.1.1.1'), toIPv4('2.2.2.2')), least(toIPv6('::1'), toIPv6('::2')), cityHash64(toIPv4('1.2.3.4')), cityHash64(toIPv6('::1'));
SELECT toIPv6('::1') AS x, x IN (SELECT toIPv6('::1')), toIPv4('1.1.1.1') IN (SELECT toIPv4(toUInt32(number + 16843008)) FROM numbers(3));
