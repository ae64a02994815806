SELECT true, false, toTypeName(true), CAST(1 AS Bool), CAST(0 AS Bool), CAST('true' AS Bool), CAST('false' AS Bool);
SELECT true AND false, true OR false, NOT true, toTypeName(true AND false);
SELECT toBool(5), toBool(0), toBool('true'), true + 1, toTypeName(true + 1);
SELECT 'abc', toTypeName('abc'), '', length(''), 'a\nb', 'tab\tx', 'back\\slash', 'quote\'s';
SELECT toFixedString('ab', 5), toTypeName(toFixedString('ab', 5)), length(toFixedString('ab', 5));
SELECT CAST('hello' AS FixedString(5)), CAST('hi' AS FixedString(3)) = 'hi';
SELECT toFixedString('toolong', 3); -- { serverError TOO_LARGE_STRING_SIZE }
SELECT 'üñíçødé', length('üñíçødé'), lengthUTF8('üñíçødé'), upper('abc'), lowerUTF8('ÄÖ');
SELECT toString(1), toString(1.5), toString(true), toString(toDate('2020-01-02')), toString(NULL);
SELECT toString(-0.), toString(1e21), toString(toFloat32(0.1)), toString(toDecimal32(1.5, 2));
SELECT concat('a', 'b', 'c'), concat('x', 1, 2.5), 'a' || 'b';
SELECT toLowCardinality('abc'), toTypeName(toLowCardinality('abc')), toTypeName(toLowCardinality(toNullable('x')));
SELECT CAST('x' AS LowCardinality(String)), CAST(NULL AS LowCardinality(Nullable(String)));
