-- LowCardinality of anything but String/FixedString and FixedString over 256 bytes are
-- refused unless the allow_suspicious_* settings say otherwise.
SELECT [42]::Array(LowCardinality(UInt64)); -- { serverError SUSPICIOUS_TYPE_FOR_LOW_CARDINALITY }
SELECT 42::LowCardinality(UInt64); -- { serverError SUSPICIOUS_TYPE_FOR_LOW_CARDINALITY }
SELECT CAST(1, 'LowCardinality(Nullable(UInt8))'); -- { serverError SUSPICIOUS_TYPE_FOR_LOW_CARDINALITY }
SELECT tuple('a', [map('b', 42)])::Tuple(String, Array(Map(String, LowCardinality(UInt64)))); -- { serverError SUSPICIOUS_TYPE_FOR_LOW_CARDINALITY }
SELECT ['42']::Array(FixedString(1000000)); -- { serverError ILLEGAL_COLUMN }
SELECT map('a', '42')::Map(String, FixedString(257)); -- { serverError ILLEGAL_COLUMN }
CREATE TABLE sus (x Array(LowCardinality(UInt64))) ENGINE = Memory; -- { serverError SUSPICIOUS_TYPE_FOR_LOW_CARDINALITY }
CREATE TABLE sus (x Tuple(String, FixedString(1000))) ENGINE = Memory; -- { serverError ILLEGAL_COLUMN }
SELECT '1'::LowCardinality(FixedString(4)), 'a'::LowCardinality(Nullable(String)), toTypeName(toLowCardinality(42));
SELECT 'abc'::FixedString(256) = 'abc';
SET allow_suspicious_low_cardinality_types = 1;
SELECT [42]::Array(LowCardinality(UInt64));
CREATE TABLE sus (x LowCardinality(UInt64)) ENGINE = Memory;
INSERT INTO sus VALUES (5);
SELECT x, toTypeName(x) FROM sus;
DROP TABLE sus;
SET allow_suspicious_fixed_string_types = 1;
SELECT length(['42']::Array(FixedString(1000))[1]);
