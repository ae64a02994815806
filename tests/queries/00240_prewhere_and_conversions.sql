-- PREWHERE: rows satisfy PREWHERE and WHERE
SELECT count() FROM file('../data/parquet/ch_row_groups.parquet') PREWHERE id = 5;
SELECT count(), sum(a) FROM file('../data/parquet/ch_tiny.parquet') PREWHERE a > 5 WHERE a < 10;
SELECT a FROM file('../data/parquet/ch_tiny.parquet') PREWHERE a < 3 WHERE a > 0 ORDER BY a;
SELECT a + 1 AS x FROM file('../data/parquet/ch_tiny.parquet') PREWHERE x < 3 ORDER BY x;
SELECT count() FROM file('../data/parquet/ch_tiny.parquet') PREWHERE 0;
SELECT count() FROM file('../data/parquet/ch_tiny.parquet') PREWHERE a;
SELECT count() FROM file('../data/parquet/ch_tiny.parquet') PREWHERE NULL;
SELECT count() FROM file('../data/parquet/ch_tiny.parquet') PREWHERE toFloat64(a) WHERE a < 5;
SELECT count() FROM file('../data/parquet/ch_tiny.parquet') PREWHERE toNullable(a > 3);
SELECT count() FROM file('../data/parquet/ch_tiny.parquet') AS t PREWHERE t.a = 5;
SELECT a > 7, count() FROM file('../data/parquet/ch_tiny.parquet') PREWHERE a > 5 GROUP BY a > 7 ORDER BY 1;
SELECT count() FROM file('../data/parquet/ch_tiny.parquet') AS t1 JOIN file('../data/parquet/ch_tiny.parquet') AS t2 USING a PREWHERE a < 3;
CREATE TABLE pw (a Int32, b String) ENGINE = MergeTree ORDER BY a;
INSERT INTO pw VALUES (1, 'x'), (2, 'y'), (3, 'z');
SELECT * FROM pw PREWHERE a >= 2 ORDER BY a;
SELECT b FROM pw PREWHERE b = 'y' WHERE a = 2;
SELECT count() FROM pw PREWHERE a IN (SELECT 2);
SELECT * FROM (SELECT * FROM pw PREWHERE a = 3);
-- PREWHERE errors
SELECT count() FROM file('../data/parquet/ch_tiny.parquet') PREWHERE count() > 3; -- { serverError ILLEGAL_AGGREGATION }
SELECT count() FROM file('../data/parquet/ch_tiny.parquet') PREWHERE 'x'; -- { serverError ILLEGAL_TYPE_OF_COLUMN_FOR_FILTER }
SELECT count() FROM file('../data/parquet/ch_tiny.parquet') PREWHERE nosuch = 1; -- { serverError UNKNOWN_IDENTIFIER }
SELECT a, count() AS c FROM file('../data/parquet/ch_tiny.parquet') PREWHERE c > 0 GROUP BY a; -- { serverError ILLEGAL_AGGREGATION }
SELECT * FROM (SELECT 1 AS x) PREWHERE x = 1; -- { serverError ILLEGAL_PREWHERE }
SELECT count() FROM (SELECT * FROM file('../data/parquet/ch_tiny.parquet')) PREWHERE a = 5; -- { serverError ILLEGAL_PREWHERE }
WITH c AS (SELECT 1 AS x) SELECT * FROM c PREWHERE x = 1; -- { serverError ILLEGAL_PREWHERE }
SELECT * FROM numbers(10) PREWHERE number = 1; -- { serverError ILLEGAL_PREWHERE }
SELECT 1 PREWHERE 1; -- { serverError ILLEGAL_PREWHERE }
SELECT * FROM format(CSV, 'x UInt8', '1\n2') PREWHERE x = 1; -- { serverError ILLEGAL_PREWHERE }
SELECT * FROM file('../data/parquet/ch_tiny.parquet', TSV, 'x String') PREWHERE 1; -- { serverError ILLEGAL_PREWHERE }
CREATE TABLE pw_mem (a Int32) ENGINE = Memory;
SELECT * FROM pw_mem PREWHERE a = 1; -- { serverError ILLEGAL_PREWHERE }
-- WHERE rejects the same filter types
SELECT count() FROM numbers(3) WHERE 'x'; -- { serverError ILLEGAL_TYPE_OF_COLUMN_FOR_FILTER }
SELECT count() FROM numbers(3) WHERE toDate(number); -- { serverError ILLEGAL_TYPE_OF_COLUMN_FOR_FILTER }
SELECT count() FROM numbers(3) WHERE toInt128(number); -- { serverError ILLEGAL_TYPE_OF_COLUMN_FOR_FILTER }
SELECT count() FROM numbers(3) WHERE toLowCardinality(number);
-- input_format_null_as_default: NULLs read into a non-Nullable structure become defaults
SELECT a, s FROM file('../data/parquet/ch_tiny.parquet', Parquet, 'a Int32, s String') LIMIT 3;
SELECT count(), countIf(s = '') FROM file('../data/parquet/ch_tiny.parquet', Parquet, 's String');
SELECT a, s FROM file('../data/parquet/ch_tiny.parquet', Parquet, 'a Int32, s LowCardinality(String)') LIMIT 3;
SELECT a, s FROM file('../data/parquet/ch_tiny.parquet', Parquet, 'a Int32, s Nullable(Int32)') LIMIT 3;
SELECT count(), sum(i) FROM file('../data/parquet/ar_dict_fallback_v2.parquet', Parquet, 's LowCardinality(String), i Int64') WHERE s = 'late_0';
SELECT id, i16, u64, f32, b, dec18 FROM file('../data/parquet/ar_types.parquet', Parquet, 'id Int32, i16 Int16, u64 UInt64, f32 Float32, b Bool, dec18 Decimal(18, 4)') ORDER BY id LIMIT 4;
SELECT id, ts_ms, d32 FROM file('../data/parquet/ar_types.parquet', Parquet, 'id Int32, ts_ms DateTime64(3, \'UTC\'), d32 Date32') ORDER BY id LIMIT 4;
SELECT id, s, bin, i16, ls FROM file('../data/parquet/ar_types.parquet', Parquet, 'id Int32, s String, bin String, i16 String, ls String') WHERE id % 7 = 0 ORDER BY id LIMIT 5;
SELECT id, li FROM file('../data/parquet/ar_nested.parquet', Parquet, 'id Int32, li Array(Int32)') ORDER BY id LIMIT 6;
SELECT id, st FROM file('../data/parquet/ar_nested.parquet', Parquet, 'id Int32, st Tuple(a Int32, b String)') ORDER BY id LIMIT 6;
SELECT id, lst FROM file('../data/parquet/ar_nested.parquet', Parquet, 'id Int32, lst Array(Tuple(k String, v Int32))') ORDER BY id LIMIT 6;
SELECT id, s FROM file('../data/parquet/ar_types.parquet', Parquet, 'id Int32, s Int64') ORDER BY id LIMIT 4 SETTINGS max_threads = 1; -- { serverError ATTEMPT_TO_READ_AFTER_EOF } (one thread: the first failing row decides the error)
SELECT a, s FROM file('../data/parquet/ch_tiny.parquet', Parquet, 'a Int32, s String') LIMIT 3 SETTINGS input_format_null_as_default = 0; -- { serverError CANNOT_INSERT_NULL_IN_ORDINARY_COLUMN }
SELECT id, li FROM file('../data/parquet/ar_nested.parquet', Parquet, 'id Int32, li Array(Int32)') ORDER BY id SETTINGS input_format_null_as_default = 0; -- { serverError CANNOT_INSERT_NULL_IN_ORDINARY_COLUMN }
SELECT id, st FROM file('../data/parquet/ar_nested.parquet', Parquet, 'id Int32, st Tuple(a Int32, b String)') ORDER BY id SETTINGS input_format_null_as_default = 0; -- { serverError CANNOT_INSERT_NULL_IN_ORDINARY_COLUMN }
SELECT a, s FROM file('../data/parquet/ch_tiny.parquet', Parquet, 'a Int32, s Nullable(String)') LIMIT 3 SETTINGS input_format_null_as_default = 0;
-- Decimal compared with integers, floats and other Decimals
SELECT count(), sum(dec18) FROM file('../data/parquet/ar_types.parquet') WHERE dec18 > 1000;
SELECT count(), sum(dec38) FROM file('../data/parquet/ar_types.parquet') WHERE dec38 >= -100 AND dec38 != 0 AND dec9 <= 1e3;
SELECT count() FROM file('../data/parquet/ar_types.parquet') WHERE dec9 >= 100 AND dec38 < 0;
SELECT count() FROM file('../data/parquet/ar_types.parquet') WHERE dec9 = dec18;
SELECT count() FROM file('../data/parquet/ar_types.parquet') WHERE dec18 NOT IN (0, 1);
SELECT id, dec9 FROM file('../data/parquet/ar_types.parquet') WHERE dec9 IN (-29876.55, 0, 12.5, -29506.2) ORDER BY id LIMIT 5;
SELECT toDecimal64(1.5, 4) > 1, toDecimal64(1.5, 4) = 1.5, toDecimal64(1.5, 4) < 2::UInt16, toDecimal32(1.5, 2) = toDecimal64(1.5, 4), toDecimal32(1.5, 2) != toDecimal128(1.50001, 5);
SELECT 1 < toDecimal32(2, 1), -1 >= toDecimal32(-1, 1), toInt64(-5) <= toDecimal64(-5, 3), toUInt64(18446744073709551615) > toDecimal128(1, 2);
SELECT toDecimal32(0.1, 1) = 0.1::Float32, toDecimal32(0.1, 1) = 0.1, toFloat32(0.5) < toDecimal32(0.6, 1), toDecimal32(1, 2) = toBool(1);
SELECT toDecimal64(3, 2) = toInt128(3), toDecimal128(-1, 30) < toUInt64(18446744073709551615), toDecimal128(1, 20) < toInt64(-9223372036854775808);
SELECT greatest(toDecimal32(1, 2), 2), least(toDecimal32(1, 2), 0.5);
-- IN keeps only the values that convert exactly to the left side's type
SELECT toDecimal64(1.5, 4) IN (1, 2), toDecimal64(2, 4) IN (1, 2), toDecimal64(1.5, 4) IN (1.5, 2.5);
SELECT 1 IN (1.5), 2 IN (1.5, 2.0), toUInt8(1) IN (257), toUInt8(1) IN (-255), toInt8(-1) IN (255);
SELECT toDecimal32(2.5, 1) IN (2.55, 3), toDecimal32(2.5, 1) IN (toDecimal64(2.50, 3)), toDecimal32(2.5, 1) IN (toDecimal64(2.51, 3));
SELECT toDecimal32(2, 1) IN (2, 3), toDecimal32(2, 1) IN (toInt64(2)), 1 NOT IN (1.5), toUInt8(44) NOT IN (300);
SELECT toUInt8(1) IN (1, NULL), 1 IN (0.5, NULL), 1.0 IN (1, 2), -1 IN (toUInt64(18446744073709551615));
SELECT toFloat32(0.1) IN (0.1), toFloat32(0.1) IN (SELECT 0.1), 1 IN (SELECT 1.5), toUInt8(44) IN (SELECT 300);
SELECT toDecimal32(2.5, 1) IN (SELECT 2.55), toDecimal32(2.5, 1) IN (SELECT 2.5), toInt64(3) IN (SELECT toDecimal32(3, 2));
SELECT 3 IN (toDecimal32(3, 2)); -- { serverError TYPE_MISMATCH }
SELECT toFloat64(0.5) IN (toDecimal32(0.5, 2)); -- { serverError TYPE_MISMATCH }
-- print_pretty_type_names: named tuples over several lines in DESCRIBE and toTypeName
DESCRIBE (SELECT (1, 'a')::Tuple(a Int32, b String) AS t);
DESCRIBE (SELECT (1, 'a')::Tuple(Int32, String) AS t);
DESCRIBE (SELECT (1, (2, 'a'))::Tuple(a Int32, b Tuple(c UInt8, d String)) AS t);
DESCRIBE (SELECT [(1, 'a')]::Array(Tuple(a Int32, b Nullable(String))) AS t);
DESCRIBE (SELECT CAST(((1, 2), 3), 'Tuple(Tuple(a UInt8, b UInt8), UInt8)') AS t);
DESCRIBE (SELECT CAST([[(1, 2)]], 'Array(Array(Tuple(a UInt8, b UInt8)))') AS t);
DESCRIBE (SELECT (1, 'a')::Tuple(a Int32, b String) AS t) SETTINGS print_pretty_type_names = 0;
DESCRIBE file('../data/parquet/ar_nested.parquet');
SELECT toTypeName((1, 'a')::Tuple(a Int32, b String));
SELECT toTypeName((1, 'a')::Tuple(a Int32, b String)) SETTINGS print_pretty_type_names = 0;
SELECT toTypeName(st), toTypeName(lst), toTypeName(li) FROM file('../data/parquet/ar_nested.parquet') LIMIT 1;
SELECT getSetting('print_pretty_type_names');
SELECT (1, 'a')::Tuple(a Int32, b String) AS t FORMAT TSVWithNamesAndTypes;
CREATE TABLE pw_tup (t Tuple(a Int32, b String), u Array(Tuple(x UInt8))) ENGINE = Memory;
DESCRIBE pw_tup;
DESCRIBE pw_tup SETTINGS print_pretty_type_names = 0;
SELECT type FROM system.columns WHERE table = 'pw_tup' ORDER BY name;
SHOW CREATE TABLE pw_tup;
SHOW CREATE TABLE pw_tup SETTINGS print_pretty_type_names = 0;
CREATE TABLE pw_tup2 (t Tuple(x UInt8), v Tuple(a Tuple(x UInt8), b Tuple(y UInt8, z UInt8)), w LowCardinality(Nullable(String)), k Array(Tuple(a UInt8, b Array(Tuple(c UInt8, d UInt8))))) ENGINE = MergeTree ORDER BY tuple();
SHOW CREATE TABLE pw_tup2;
DESCRIBE pw_tup2;
