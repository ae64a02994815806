-- RowBinary family: the bytes of every type (hex of the file written), read back with a
-- structure, header inference for RowBinaryWithNamesAndTypes, and errors for bad data.
INSERT INTO FUNCTION file('data/rb_all.bin', RowBinary) SELECT toInt8(-1) a, toUInt8(200) a2, toInt16(-300) a3, toUInt16(2) b, toInt32(-3) c, toUInt32(70000) c2, toInt64(-9) d0, toUInt64(4) d, toInt128(-5) e, toUInt128(6) f, toFloat32(1.5) g, toFloat64(-2.25) h, toDecimal32(1.23,2) i, toDecimal64(-4.5,3) j, toDecimal128(7.7,5) k, 'héllo' l, toFixedString('ab',3) m, CAST(NULL AS Nullable(Int32)) n, CAST(5 AS Nullable(Int32)) o, toLowCardinality('lc') p, [1,2,3] q, ('x', 2) r, toDate('2024-01-02') s, toDate32('1900-01-02') t, toDateTime('2024-01-02 03:04:05','UTC') u, toDateTime64('2024-01-02 03:04:05.123',3,'UTC') v, CAST('61f0c404-5cb3-11e7-907b-a6006ad3dba0' AS UUID) w, CAST('b' AS Enum8('a'=1,'b'=2)) x, CAST('b' AS Enum16('a'=1,'b'=1000)) y, true z, [NULL, 'a'] aa, [[1],[]] ab, CAST(['a','b'] AS Array(LowCardinality(Nullable(String)))) ac, [] ad, NULL ae, repeat('x', 200) af SETTINGS engine_file_truncate_on_insert = 1;
SELECT hex(raw_blob) FROM file('data/rb_all.bin', RawBLOB);
INSERT INTO FUNCTION file('data/rb_names.bin', RowBinaryWithNames) SELECT number AS id, toString(number) AS s, if(number % 2, NULL, number) AS n FROM numbers(3) SETTINGS engine_file_truncate_on_insert = 1;
SELECT hex(raw_blob) FROM file('data/rb_names.bin', RawBLOB);
INSERT INTO FUNCTION file('data/rb_types.bin', RowBinaryWithNamesAndTypes) SELECT number AS id, toString(number) AS s, [number, number * 2] AS arr, (number, 't') AS tup, toLowCardinality(toString(number % 2)) AS lc FROM numbers(5) SETTINGS engine_file_truncate_on_insert = 1;
SELECT hex(raw_blob) FROM file('data/rb_types.bin', RawBLOB);
-- read back
SELECT * FROM file('data/rb_all.bin', RowBinary, 'a Int8, a2 UInt8, a3 Int16, b UInt16, c Int32, c2 UInt32, d0 Int64, d UInt64, e Int128, f UInt128, g Float32, h Float64, i Decimal(9,2), j Decimal(18,3), k Decimal(38,5), l String, m FixedString(3), n Nullable(Int32), o Nullable(Int32), p LowCardinality(String), q Array(UInt8), r Tuple(String, UInt8), s Date, t Date32, u DateTime(\'UTC\'), v DateTime64(3, \'UTC\'), w UUID, x Enum8(\'a\'=1,\'b\'=2), y Enum16(\'a\'=1,\'b\'=1000), z Bool, aa Array(Nullable(String)), ab Array(Array(UInt8)), ac Array(LowCardinality(Nullable(String))), ad Array(Nothing), ae Nullable(Nothing), af String');
SELECT * FROM file('data/rb_names.bin', RowBinaryWithNames, 'id UInt64, s String, n Nullable(UInt64)');
SELECT n, id FROM file('data/rb_names.bin', RowBinaryWithNames, 'n Nullable(UInt64), id UInt64, s String');
DESCRIBE file('data/rb_types.bin', RowBinaryWithNamesAndTypes);
SELECT * FROM file('data/rb_types.bin', RowBinaryWithNamesAndTypes);
SELECT id, lc FROM file('data/rb_types.bin', RowBinaryWithNamesAndTypes, 'lc LowCardinality(String), id UInt64');
SELECT id, lc FROM file('data/rb_types.bin', RowBinaryWithNamesAndTypes, 'lc String, id UInt64'); -- { serverError INCORRECT_DATA }
-- a round trip of many rows (more than one block)
INSERT INTO FUNCTION file('data/rb_many.bin', RowBinary) SELECT number AS id, repeat('y', number % 50) AS s FROM numbers(100000) SETTINGS engine_file_truncate_on_insert = 1;
SELECT count(), sum(id), sum(length(s)) FROM file('data/rb_many.bin', RowBinary, 'id UInt64, s String');
-- errors
SELECT * FROM file('data/rb_all.bin', RowBinary); -- { serverError BAD_ARGUMENTS }
SELECT * FROM file('data/rb_names.bin', RowBinary, 'id UInt64, s String, n Nullable(UInt64), extra UInt64'); -- { serverError CANNOT_READ_ALL_DATA }
SELECT * FROM file('data/rb_types.bin', RowBinaryWithNamesAndTypes, 'id String, s String, arr Array(UInt64), tup Tuple(UInt64, String), lc String'); -- { serverError INCORRECT_DATA }
SELECT name, is_input, is_output FROM system.formats WHERE name IN ('RowBinary', 'RowBinaryWithNames', 'RowBinaryWithNamesAndTypes') ORDER BY name;
INSERT INTO FUNCTION file('data/rb_enum.bin', RowBinary) SELECT toUInt8(5) SETTINGS engine_file_truncate_on_insert = 1;
SELECT * FROM file('data/rb_enum.bin', RowBinary, 'e Enum8(\'a\' = 1)'); -- { serverError UNKNOWN_ELEMENT_OF_ENUM }
INSERT INTO FUNCTION file('data/rb_map.bin', RowBinaryWithNamesAndTypes) SELECT map('a', 1, 'b', 2) AS m, map(toUInt8(1), [1, 2], 2, []) AS m2 SETTINGS engine_file_truncate_on_insert = 1;
SELECT hex(raw_blob) FROM file('data/rb_map.bin', RawBLOB);
SELECT * FROM file('data/rb_map.bin', RowBinaryWithNamesAndTypes);
