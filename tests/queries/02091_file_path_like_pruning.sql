-- _path / _file LIKE, NOT LIKE, ILIKE prune the file list before any file is opened: the
-- plike_bad_* files do not parse as 'n UInt32', so a query that opened one would fail.
INSERT INTO FUNCTION file('data/plike_ok_1.csv', CSVWithNames) SELECT 1 AS n, 'a' AS s SETTINGS engine_file_truncate_on_insert = 1;
INSERT INTO FUNCTION file('data/plike_ok_2.csv', CSVWithNames) SELECT 2 AS n, 'b' AS s SETTINGS engine_file_truncate_on_insert = 1;
INSERT INTO FUNCTION file('data/plike_ok_10.csv', CSVWithNames) SELECT 10 AS n, 'c' AS s SETTINGS engine_file_truncate_on_insert = 1;
INSERT INTO FUNCTION file('data/plike_bad_1.csv', CSVWithNames) SELECT 'not a number' AS n, 'x' AS s SETTINGS engine_file_truncate_on_insert = 1;
INSERT INTO FUNCTION file('data/plike_bad_2.csv', CSVWithNames) SELECT 'not a number' AS n, 'y' AS s SETTINGS engine_file_truncate_on_insert = 1;
SELECT n, s, _file FROM file('data/plike_*.csv', CSVWithNames, 'n UInt32, s String') WHERE _file LIKE 'plike\_ok\_%' ORDER BY n;
SELECT n, _file FROM file('data/plike_*.csv', CSVWithNames, 'n UInt32, s String') WHERE _file LIKE 'plike_ok__.csv' ORDER BY n;
SELECT sum(n), count() FROM file('data/plike_*.csv', CSVWithNames, 'n UInt32, s String') WHERE _path LIKE '%data/plike\_ok\_%.csv';
SELECT sum(n) FROM file('data/plike_*.csv', CSVWithNames, 'n UInt32, s String') WHERE _file NOT LIKE '%bad%';
SELECT sum(n) FROM file('data/plike_*.csv', CSVWithNames, 'n UInt32, s String') WHERE _file NOT LIKE '%bad%' AND _file NOT LIKE '%\_1%';
SELECT n FROM file('data/plike_*.csv', CSVWithNames, 'n UInt32, s String') WHERE _file ILIKE 'PLIKE_OK_2.CSV';
SELECT sum(n) FROM file('data/plike_*.csv', CSVWithNames, 'n UInt32, s String') WHERE _file NOT ILIKE '%BAD%' AND n > 1;
SELECT count() FROM file('data/plike_*.csv', CSVWithNames, 'n UInt32, s String') WHERE _file LIKE 'nothing%';
SELECT _file, count() FROM file('data/plike_ok_*.csv', CSVWithNames) WHERE _path NOT LIKE '%\_10.csv' GROUP BY _file ORDER BY _file;
-- _path is the absolute, normalised path whatever the path given
SELECT startsWith(_path, '/'), endsWith(_path, '/tests/queries/data/plike_ok_1.csv'), position(_path, '/../') = 0, _file FROM file('../queries/data/plike_ok_1.csv', CSVWithNames) LIMIT 1;
SELECT count() FROM file('../queries/data/plike_ok_*.csv', CSVWithNames) WHERE _path LIKE '/%/tests/queries/data/plike\_ok\_2.csv';
