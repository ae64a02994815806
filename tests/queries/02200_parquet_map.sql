-- Map(K, V): read from Parquet MAP groups (arrow-rs, Impala/parquet-mr legacy MAP_KEY_VALUE,
-- nested maps, a key_value without value, an optional key), the map functions, CAST, and
-- Map written to Parquet and Native and read back.
DESCRIBE file('../data/parquet/ar_map.parquet');
SELECT * FROM file('../data/parquet/ar_map.parquet') ORDER BY id LIMIT 12;
SELECT count(), countIf(empty(mp)), sum(length(mp)), countIf(mapContains(mp, 'm1')), sum(mp['m2']), countIf(mp['m1'] IS NULL) FROM file('../data/parquet/ar_map.parquet');
SELECT id, mapKeys(mp), mapValues(mp), mp['m0'], mp['nope'] FROM file('../data/parquet/ar_map.parquet') WHERE notEmpty(mp) ORDER BY id LIMIT 5;
DESCRIBE file('../data/parquet/apache/nested_maps.snappy.parquet');
SELECT * FROM file('../data/parquet/apache/nested_maps.snappy.parquet');
SELECT a['a'], a['a'][1], mapKeys(a), length(a['e']) FROM file('../data/parquet/apache/nested_maps.snappy.parquet');
DESCRIBE file('../data/parquet/apache/nonnullable.impala.parquet');
SELECT * FROM file('../data/parquet/apache/nonnullable.impala.parquet');
DESCRIBE file('../data/parquet/apache/nullable.impala.parquet');
SELECT * FROM file('../data/parquet/apache/nullable.impala.parquet');
SELECT id, int_map['k1'], int_map['k2'], length(int_map), int_Map_Array FROM file('../data/parquet/apache/nullable.impala.parquet') ORDER BY id;
DESCRIBE file('../data/parquet/apache/map_no_value.parquet');
SELECT * FROM file('../data/parquet/apache/map_no_value.parquet');
DESCRIBE file('../data/parquet/apache/incorrect_map_schema.parquet');
SELECT * FROM file('../data/parquet/apache/incorrect_map_schema.parquet');
-- the functions
SELECT map('a', 1, 'b', 2) AS m, m['a'], m['z'], toTypeName(m['z']), mapKeys(m), mapValues(m), mapContains(m, 'b'), mapContains(m, 'q'), length(m), empty(m), notEmpty(map()), toTypeName(map()), map(1, 'x', 2.5, NULL);
SELECT toTypeName(mapContains(map('a', 1), 'a')), toTypeName(length(map('a', 1))), map('a', 1, 'a', 2), map('a', 1, 'a', 2)['a'], map(toUInt8(1), 'x')[1000], map('a', 1)[NULL];
SELECT map('x', [1, 2], 'y', []), map('k', map(1, (2, 'x'))), [map('a', 1)], (map('x', 1), 1);
SELECT map(number % 3, toString(number), 10, 'ten') AS m, m[number % 3], m[10], m[number] FROM numbers(5);
SELECT map(1, 2, 3); -- { serverError NUMBER_OF_ARGUMENTS_DOESNT_MATCH }
SELECT map('a', 1)[1]; -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT mapContains(map('a', 1), 1); -- { serverError NO_COMMON_TYPE }
SELECT CAST(map('a', 1), 'Map(String, Int64)') AS c, toTypeName(c), CAST(map(1, 1), 'Map(String, String)'), CAST([('a', 1)], 'Map(String, UInt8)'), CAST(map(1, 2), 'String');
SELECT toTypeName(CAST(map(), 'Map(Nullable(String), Int32)')); -- { serverError BAD_ARGUMENTS }
SELECT map('a', 1) FORMAT CSV;
SELECT map('a', 1, 'b', NULL) AS m, map(1, 'x') AS n FORMAT JSONEachRow;
-- written to Parquet by this engine and read back (ClickHouse reads its own the same way)
INSERT INTO FUNCTION file('data/w_map.parquet') SELECT number id, map('k' || toString(number % 3), number, 'z', if(number % 2 = 0, NULL, number * 10)) m, [map(number, toString(number)), map()] am, (number, map('q', [number]))::Tuple(a UInt64, b Map(String, Array(UInt64))) t FROM numbers(6) SETTINGS engine_file_truncate_on_insert = 1;
DESCRIBE file('data/w_map.parquet');
SELECT * FROM file('data/w_map.parquet') ORDER BY id;
INSERT INTO FUNCTION file('data/w_map2.parquet') SELECT * FROM file('../data/parquet/apache/nonnullable.impala.parquet') SETTINGS engine_file_truncate_on_insert = 1;
SELECT * FROM file('data/w_map2.parquet');
-- Native
INSERT INTO FUNCTION file('data/w_map.native', Native) SELECT * FROM file('data/w_map.parquet') SETTINGS engine_file_truncate_on_insert = 1;
DESCRIBE file('data/w_map.native', Native);
SELECT * FROM file('data/w_map.native', Native) ORDER BY id;
-- an explicit structure: NULL values become the default (input_format_null_as_default)
SELECT * FROM file('../data/parquet/ar_map.parquet', Parquet, 'id Int64, mp Map(String, Int64)') ORDER BY id LIMIT 6;
-- maps as GROUP BY keys, DISTINCT, ORDER BY
SELECT m, count() FROM (SELECT map('a', number % 2) m FROM numbers(10)) GROUP BY m ORDER BY m;
SELECT DISTINCT map(1, number % 2) AS m FROM numbers(5) ORDER BY m;
SELECT mp, count() FROM file('../data/parquet/ar_map.parquet') GROUP BY mp ORDER BY count() DESC, mp LIMIT 5;
-- maps in text: in text formats and nested in a CAST from text (a top-level CAST from String is refused, as in ClickHouse)
SELECT CAST('{\'a\':1,\'b\':2}' AS Map(String, UInt8)); -- { serverError TYPE_MISMATCH }
SELECT CAST(1 AS Map(String, UInt8)); -- { serverError TYPE_MISMATCH }
SELECT CAST('[{1:2},{}, { 3 : 4 , 5:6 }]' AS Array(Map(UInt8, UInt8))), CAST('({\'a\':1},2)' AS Tuple(Map(String, UInt8), UInt8)), CAST('[{\'a\':{1:[2]}}]' AS Array(Map(String, Map(UInt8, Array(UInt8)))));
SELECT CAST('[{1:\'x\',2:NULL}]' AS Array(Map(UInt8, Nullable(String))));
SELECT * FROM format(TSV, 'id UInt8, m Map(String, UInt64)', '1\t{\'a\':1,\'b\':20}\n2\t{}\n');
SELECT * FROM format(CSV, 'id UInt8, m Map(String, UInt64)', '1,"{\'a\':1}"\n');
SELECT * FROM format(TSV, 'm Map(String, UInt64)', '{\'a\':1'); -- { serverError CANNOT_PARSE_INPUT_ASSERTION_FAILED }
