-- greatest/least skip NULL arguments (NULL only when all are), as ClickHouse 26.7; pow, atan2
-- and hypot reject 128-bit integers. Found by the differential generator.
SELECT least(6, NULL), greatest(toNullable(1), NULL), least(6, CAST(NULL, 'Nullable(Int32)')), toTypeName(least(6, CAST(NULL, 'Nullable(Int32)')));
SELECT least(NULL, NULL), toTypeName(least(NULL, NULL)), greatest(toNullable(1), toNullable(2), NULL), least(1, 2, NULL, 0), toTypeName(greatest(1, NULL));
SELECT least(number, if(number = 1, NULL, 5)), greatest(if(number = 0, NULL, number), if(number = 1, NULL, 5), NULL), toTypeName(greatest(toLowCardinality(toNullable('a')), 'b')), greatest(toLowCardinality(toNullable('a')), 'b'), least(toNullable('x'), NULL, 'b') FROM numbers(3);
CREATE TABLE lg (a Nullable(Int32), b Nullable(Float64)) ENGINE = Memory;
INSERT INTO lg VALUES (1, NULL), (NULL, 2.5), (NULL, NULL), (3, -1);
SELECT a, b, least(a, b), greatest(a, b), greatest(a, b, 0), toTypeName(least(a, b)) FROM lg ORDER BY a, b;
SELECT least(1, 'a'); -- { serverError NO_COMMON_TYPE }
SELECT pow(toUInt128(3), 2); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT atan2(toUInt128(1), 1); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT hypot(toInt128(1), 1); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
