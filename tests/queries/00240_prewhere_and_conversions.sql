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
SELECT count() FROM file('../data/parquet/ch_tiny.parquet') PREWHERE 'x'; -- { serverError 59 }
SELECT count() FROM file('../data/parquet/ch_tiny.parquet') PREWHERE nosuch = 1; -- { serverError UNKNOWN_IDENTIFIER }
SELECT a, count() AS c FROM file('../data/parquet/ch_tiny.parquet') PREWHERE c > 0 GROUP BY a; -- { serverError ILLEGAL_AGGREGATION }
SELECT * FROM (SELECT 1 AS x) PREWHERE x = 1; -- { serverError 182 }
SELECT count() FROM (SELECT * FROM file('../data/parquet/ch_tiny.parquet')) PREWHERE a = 5; -- { serverError 182 }
WITH c AS (SELECT 1 AS x) SELECT * FROM c PREWHERE x = 1; -- { serverError 182 }
SELECT * FROM numbers(10) PREWHERE number = 1; -- { serverError 182 }
SELECT 1 PREWHERE 1; -- { serverError 182 }
SELECT * FROM format(CSV, 'x UInt8', '1\n2') PREWHERE x = 1; -- { serverError 182 }
SELECT * FROM file('../data/parquet/ch_tiny.parquet', TSV, 'x String') PREWHERE 1; -- { serverError 182 }
CREATE TABLE pw_mem (a Int32) ENGINE = Memory;
SELECT * FROM pw_mem PREWHERE a = 1; -- { serverError 182 }
-- WHERE rejects the same filter types
SELECT count() FROM numbers(3) WHERE 'x'; -- { serverError 59 }
SELECT count() FROM numbers(3) WHERE toDate(number); -- { serverError 59 }
SELECT count() FROM numbers(3) WHERE toInt128(number); -- { serverError 59 }
SELECT count() FROM numbers(3) WHERE toLowCardinality(number);
