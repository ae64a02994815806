-- ENGINE = File(format): the table's rows are one file, data.<format>, in its directory.
DROP TABLE IF EXISTS fe_tsv;
CREATE TABLE fe_tsv (a UInt32, s String) ENGINE = File(TSV);
SELECT * FROM fe_tsv; -- { serverError FILE_DOESNT_EXIST }
SELECT count() FROM fe_tsv SETTINGS engine_file_empty_if_not_exists = 1;
INSERT INTO fe_tsv VALUES (1, 'a'), (2, 'b');
INSERT INTO fe_tsv VALUES (3, 'c');
SELECT * FROM fe_tsv ORDER BY a;
SELECT _file, count() FROM fe_tsv GROUP BY _file;
SELECT sum(a) FROM fe_tsv WHERE s != 'b';
SHOW CREATE TABLE fe_tsv;
TRUNCATE TABLE fe_tsv;
SELECT count() FROM fe_tsv;
INSERT INTO fe_tsv SELECT number, toString(number * 2) FROM numbers(5);
SELECT * FROM fe_tsv ORDER BY a;
DROP TABLE fe_tsv;

-- The header of a *WithNames format is written once: later inserts append rows only.
CREATE TABLE fe_csv (s String, n UInt32) ENGINE = File(CSVWithNames);
INSERT INTO fe_csv VALUES ('x', 1);
INSERT INTO fe_csv VALUES ('y', 2), ('z', 3);
SELECT * FROM fe_csv ORDER BY n;
DROP TABLE fe_csv;
CREATE TABLE fe_tsvn (x UInt64, d Date) ENGINE = File('TabSeparatedWithNamesAndTypes');
INSERT INTO fe_tsvn VALUES (1, '2024-01-02');
INSERT INTO fe_tsvn VALUES (2, '2024-03-04');
SELECT * FROM fe_tsvn ORDER BY x;
SHOW CREATE TABLE fe_tsvn;
DROP TABLE fe_tsvn;

-- Formats that cannot grow: the second insert fails unless the file is truncated.
CREATE TABLE fe_pq (number UInt64) ENGINE = File(Parquet);
INSERT INTO fe_pq SELECT * FROM numbers(3);
INSERT INTO fe_pq SELECT * FROM numbers(3, 3); -- { serverError CANNOT_APPEND_TO_FILE }
SELECT * FROM fe_pq ORDER BY number;
INSERT INTO fe_pq SELECT * FROM numbers(10, 2) SETTINGS engine_file_truncate_on_insert = 1;
SELECT * FROM fe_pq ORDER BY number;
DROP TABLE fe_pq;
CREATE TABLE fe_json (x UInt64) ENGINE = File(JSONEachRow);
INSERT INTO fe_json VALUES (7);
INSERT INTO fe_json VALUES (8);
SELECT * FROM fe_json ORDER BY x;
DROP TABLE fe_json;

-- Errors at CREATE.
CREATE TABLE fe_bad (x UInt32) ENGINE = File(NoSuchFormat); -- { serverError UNKNOWN_FORMAT }
CREATE TABLE fe_bad (x UInt32) ENGINE = File; -- { serverError NUMBER_OF_ARGUMENTS_DOESNT_MATCH }
CREATE TABLE fe_bad (x UInt32) ENGINE = File(TSV, 'a', 'none', 1); -- { serverError NUMBER_OF_ARGUMENTS_DOESNT_MATCH }
CREATE TABLE fe_bad (x UInt32) ENGINE = File(TSV) ORDER BY x; -- { serverError BAD_ARGUMENTS }
