-- Nullable arguments of a function whose result cannot be Nullable (an Array) reach it as
-- their values; NULL rows as the type's default.
SELECT range(toNullable(3)), range(toNullable(1), 5), range(NULL), toTypeName(range(toNullable(3)));
SELECT range(toNullable(number)) FROM numbers(3);
SELECT splitByChar(',', toNullable('a,b')), splitByChar(',', CAST(NULL AS Nullable(String))), toTypeName(splitByChar(',', toNullable('a,b')));
SELECT splitByChar(',', if(number = 1, NULL, 'a,b')) FROM numbers(2);
-- An Enum's default is its first value.
SELECT assumeNotNull(CAST(NULL AS Nullable(Enum8('a' = 1, 'b' = 2)))), assumeNotNull(CAST(NULL AS Nullable(Enum8('b' = 2, 'a' = -1))));
SELECT assumeNotNull(x) FROM (SELECT CAST(if(number = 1, NULL, 'b'), 'Nullable(Enum16(\'a\' = 100, \'b\' = 200))') AS x FROM numbers(2));
CREATE TABLE e02105 (k UInt8, e Enum8('x' = 5, 'y' = 6)) ENGINE = Memory;
INSERT INTO e02105 VALUES (1, 'y');
SELECT n.number, e02105.e FROM numbers(3) AS n LEFT JOIN e02105 ON n.number = e02105.k ORDER BY n.number;
-- A LowCardinality condition does not make if() / multiIf() / and() LowCardinality.
SELECT toTypeName(if(toLowCardinality(number = 1), 1, 2)), if(toLowCardinality(number = 1), 1, 2) FROM numbers(2);
SELECT toTypeName(multiIf(toLowCardinality(number = 1), 'a', 'b')), multiIf(toLowCardinality(number = 1), 'a', 'b') FROM numbers(2);
SELECT toTypeName(and(toLowCardinality(number = 1), 1)), toTypeName(if(number = 1, toLowCardinality('a'), 'b')) FROM numbers(1);
-- transform_null_in: NULL is a value of the set like any other.
SELECT toTypeName(toNullable(1) IN (1, NULL)), NULL IN (1), NULL NOT IN (1), NULL NOT IN (NULL), NULL IN (NULL), NULL IN (1, NULL) SETTINGS transform_null_in = 1;
SELECT x, x IN (NULL, 2), x NOT IN (NULL, 2), x IN (SELECT toNullable(2)), x IN (SELECT if(number = 0, NULL, number) FROM numbers(2)) FROM (SELECT if(number = 1, NULL, number) AS x FROM numbers(3)) SETTINGS transform_null_in = 1;
SELECT x, x IN (NULL, 2), x NOT IN (NULL, 2), x IN (SELECT toNullable(2)), x IN (SELECT if(number = 0, NULL, number) FROM numbers(2)) FROM (SELECT if(number = 1, NULL, number) AS x FROM numbers(3));
SELECT number FROM numbers(3) WHERE if(number = 1, NULL, number) IN (NULL, 2) SETTINGS transform_null_in = 1;
