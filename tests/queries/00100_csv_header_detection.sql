-- CSV/TSV header detection (input_format_csv_detect_header / input_format_tsv_detect_header)
-- and CSV quoted-value inference, on small files written by the test itself.

-- header over numbers: names from the header, which the reader skips
INSERT INTO FUNCTION file('data/hdr1.csv', CSVWithNames) SELECT number AS id, number * 2 AS twice FROM numbers(3) SETTINGS engine_file_truncate_on_insert = 1;
DESCRIBE file('data/hdr1.csv');
SELECT * FROM file('data/hdr1.csv') ORDER BY id;

-- a String column holding digits is written quoted: "0" stays String
INSERT INTO FUNCTION file('data/hdr2.csv', CSVWithNames) SELECT number AS n, toString(number) AS s, 'x' || toString(number) AS t FROM numbers(3) SETTINGS engine_file_truncate_on_insert = 1;
DESCRIBE file('data/hdr2.csv');
SELECT * FROM file('data/hdr2.csv') ORDER BY n;

-- all-String columns: the header cannot be told from the data
INSERT INTO FUNCTION file('data/hdr3.csv', CSVWithNames) SELECT 'a' || toString(number) AS x, 'b' AS y FROM numbers(2) SETTINGS engine_file_truncate_on_insert = 1;
DESCRIBE file('data/hdr3.csv');
SELECT * FROM file('data/hdr3.csv');

-- names and types
INSERT INTO FUNCTION file('data/hdr4.csv', CSVWithNamesAndTypes) SELECT toUInt8(number) AS u, toString(number) AS s, toDate('2024-01-01') + number AS d FROM numbers(2) SETTINGS engine_file_truncate_on_insert = 1;
DESCRIBE file('data/hdr4.csv');
SELECT * FROM file('data/hdr4.csv');
-- names and types over all-String data: no header
INSERT INTO FUNCTION file('data/hdr5.csv', CSVWithNamesAndTypes) SELECT 'v' AS a, 'w' AS b SETTINGS engine_file_truncate_on_insert = 1;
DESCRIBE file('data/hdr5.csv');
SELECT * FROM file('data/hdr5.csv');

-- only a header: one row is never a header
INSERT INTO FUNCTION file('data/hdr6.csv', CSVWithNames) SELECT number AS k FROM numbers(0) SETTINGS engine_file_truncate_on_insert = 1;
SELECT * FROM file('data/hdr6.csv', CSV, 'k String');

-- NULLs and dates under a header
INSERT INTO FUNCTION file('data/hdr7.csv', CSVWithNames) SELECT if(number = 0, NULL, number) AS n, toDate('2024-05-01') AS d, [number, 1] AS arr FROM numbers(2) SETTINGS engine_file_truncate_on_insert = 1;
DESCRIBE file('data/hdr7.csv');
SELECT * FROM file('data/hdr7.csv');

-- explicit structure: the header is recognised by its names, in any order or subset
SELECT * FROM file('data/hdr1.csv', CSV, 'twice UInt64, id UInt64');
SELECT * FROM file('data/hdr1.csv', CSV, 'id UInt64');
SELECT * FROM file('data/hdr3.csv', CSV, 'x String, y String');


-- TSV
INSERT INTO FUNCTION file('data/hdr8.tsv', TSVWithNames) SELECT number AS id, 'v' || toString(number) AS v FROM numbers(2) SETTINGS engine_file_truncate_on_insert = 1;
DESCRIBE file('data/hdr8.tsv');
SELECT * FROM file('data/hdr8.tsv');
INSERT INTO FUNCTION file('data/hdr9.tsv', TSVWithNamesAndTypes) SELECT toInt16(number) AS i, toFloat64(number) / 2 AS f FROM numbers(2) SETTINGS engine_file_truncate_on_insert = 1;
DESCRIBE file('data/hdr9.tsv');
SELECT * FROM file('data/hdr9.tsv');

-- duplicate header names
INSERT INTO FUNCTION file('data/hdr10.tsv', TSV) SELECT if(number = 0, 'a', '1') AS x, if(number = 0, 'a', '2') AS y FROM numbers(2) SETTINGS engine_file_truncate_on_insert = 1;
DESCRIBE file('data/hdr10.tsv'); -- { serverError CANNOT_EXTRACT_TABLE_STRUCTURE }
