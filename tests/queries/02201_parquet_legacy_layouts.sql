-- Layouts and types of other writers (files of the Apache corpus, tests/data/parquet/apache):
-- parquet-avro's two-level list of lists, repeated fields without a LIST annotation, logical
-- types and nullability of fields inside groups (Variant shredding: TIMESTAMP and TIME inside
-- an optional group), INT96 timestamps (Impala, Spark; DateTime64(9, 'UTC'), an error out
-- of range), and a parquet-mr 1.2.x file whose chunk sizes leave out the dictionary header.
DESCRIBE file('../data/parquet/apache/old_list_structure.parquet');
SELECT * FROM file('../data/parquet/apache/old_list_structure.parquet');
SELECT a[2][1], length(a), toTypeName(a) FROM file('../data/parquet/apache/old_list_structure.parquet');
DESCRIBE file('../data/parquet/apache/repeated_no_annotation.parquet');
SELECT * FROM file('../data/parquet/apache/repeated_no_annotation.parquet');
DESCRIBE file('../data/parquet/apache/shredded_variant_case-020.parquet');
SELECT * FROM file('../data/parquet/apache/shredded_variant_case-020.parquet');
DESCRIBE file('../data/parquet/apache/shredded_variant_case-032.parquet');
SELECT * FROM file('../data/parquet/apache/shredded_variant_case-032.parquet');
DESCRIBE file('../data/parquet/apache/alltypes_plain.parquet');
SELECT * FROM file('../data/parquet/apache/alltypes_plain.parquet');
SELECT toTypeName(min(timestamp_col)), min(timestamp_col), max(timestamp_col) FROM file('../data/parquet/apache/alltypes_plain.parquet');
DESCRIBE file('../data/parquet/apache/int96_from_spark.parquet');
SELECT * FROM file('../data/parquet/apache/int96_from_spark.parquet'); -- { serverError VALUE_IS_OUT_OF_RANGE_OF_DATA_TYPE }
DESCRIBE file('../data/parquet/apache/nation.dict-malformed.parquet');
SELECT * FROM file('../data/parquet/apache/nation.dict-malformed.parquet');
