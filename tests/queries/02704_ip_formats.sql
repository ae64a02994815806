-- IPv4/IPv6 in text formats: output of every row format, input through format()
SELECT toIPv4('1.2.3.4') AS a, toIPv6('::1') AS b, [a] AS c, (b, 1) AS d, toNullable(a) AS e FORMAT TSV;
SELECT toIPv4('1.2.3.4') AS a, toIPv6('::1') AS b, [a] AS c, (b, 1) AS d, toNullable(a) AS e FORMAT CSV;
SELECT toIPv4('1.2.3.4') AS a, toIPv6('::1') AS b, [a] AS c, (b, 1) AS d, toNullable(a) AS e FORMAT JSONEachRow;
SELECT toIPv4('1.2.3.4') AS a, toIPv6('::1') AS b, [a] AS c, (b, 1) AS d, toNullable(a) AS e FORMAT Values;
SELECT toIPv4('1.2.3.4') AS a, toIPv6('::1') AS b FORMAT JSONCompactEachRow;
SELECT toIPv4('1.2.3.4') AS a, toIPv6('::1') AS b FORMAT Vertical;
SELECT toIPv4('1.2.3.4') AS a, toIPv6('::1') AS b FORMAT TSVWithNamesAndTypes;
SELECT * FROM format(TSV, 'x IPv4, y IPv6', '1.2.3.4\t::1\n0.0.0.0\t::ffff:1.2.3.4\n');
SELECT * FROM format(CSV, 'x IPv4, y IPv6', '"1.2.3.4","::1"\n5.6.7.8,2001:db8::\n');
SELECT * FROM format(JSONEachRow, 'x IPv4, y IPv6, z Array(IPv4), n Nullable(IPv6)', '{"x":"1.2.3.4","y":"::1","z":["1.1.1.1"],"n":null}');
SELECT * FROM format(TSV, 'x IPv4', 'abc'); -- { serverError CANNOT_PARSE_IPV4 }
SELECT * FROM format(TSV, 'x IPv6', 'abc'); -- { serverError CANNOT_PARSE_IPV6 }
SELECT * FROM format(TSV, 'x IPv4', '16909060'); -- { serverError CANNOT_PARSE_IPV4 }
