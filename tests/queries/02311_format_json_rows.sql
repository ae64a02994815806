-- JSONCompact[Strings]EachRowWithNames[AndTypes], JSON[Strings]EachRowWithProgress and
-- JSONObjectEachRow output (through file(), which gets no progress line, so the output is
-- deterministic), read back as raw text.
INSERT INTO FUNCTION file('data/jr_1.txt', JSONCompactEachRowWithNames) SELECT number AS a, toString(number) AS b, [1, 2] c, if(number = 1, NULL, number) d, (1, 'x') e, 'q"\\' f FROM numbers(3) SETTINGS engine_file_truncate_on_insert = 1;
SELECT raw_blob FROM file('data/jr_1.txt', RawBLOB) FORMAT TSVRaw;
INSERT INTO FUNCTION file('data/jr_2.txt', JSONCompactEachRowWithNamesAndTypes) SELECT number AS a, toString(number) AS b, [1, 2] c, if(number = 1, NULL, number) d, (1, 'x') e, toDateTime('2024-01-01 00:00:00', 'UTC') f FROM numbers(3) SETTINGS engine_file_truncate_on_insert = 1;
SELECT raw_blob FROM file('data/jr_2.txt', RawBLOB) FORMAT TSVRaw;
INSERT INTO FUNCTION file('data/jr_3.txt', JSONCompactStringsEachRowWithNames) SELECT number AS a, toString(number) AS b, [1, 2] c, if(number = 1, NULL, number) d FROM numbers(3) SETTINGS engine_file_truncate_on_insert = 1;
SELECT raw_blob FROM file('data/jr_3.txt', RawBLOB) FORMAT TSVRaw;
INSERT INTO FUNCTION file('data/jr_4.txt', JSONCompactStringsEachRowWithNamesAndTypes) SELECT number AS a, toString(number) AS b, [1, 2] c, if(number = 1, NULL, number) d FROM numbers(3) SETTINGS engine_file_truncate_on_insert = 1;
SELECT raw_blob FROM file('data/jr_4.txt', RawBLOB) FORMAT TSVRaw;
INSERT INTO FUNCTION file('data/jr_5.txt', JSONEachRowWithProgress) SELECT number AS a, toString(number) AS b, [1, 2] c, if(number = 1, NULL, number) d, (1, 'x') e FROM numbers(3) SETTINGS engine_file_truncate_on_insert = 1;
SELECT raw_blob FROM file('data/jr_5.txt', RawBLOB) FORMAT TSVRaw;
INSERT INTO FUNCTION file('data/jr_6.txt', JSONStringsEachRowWithProgress) SELECT number AS a, toString(number) AS b, [1, 2] c, if(number = 1, NULL, number) d FROM numbers(3) SETTINGS engine_file_truncate_on_insert = 1;
SELECT raw_blob FROM file('data/jr_6.txt', RawBLOB) FORMAT TSVRaw;
INSERT INTO FUNCTION file('data/jr_7.txt', JSONObjectEachRow) SELECT number AS a, toString(number) AS b, [1, 2] c, if(number = 1, NULL, number) d, (1, 'x') e FROM numbers(3) SETTINGS engine_file_truncate_on_insert = 1;
SELECT raw_blob FROM file('data/jr_7.txt', RawBLOB) FORMAT TSVRaw;
-- no rows
SELECT 1 AS a WHERE 0 FORMAT JSONCompactEachRowWithNamesAndTypes;
SELECT 1 AS a WHERE 0 FORMAT JSONObjectEachRow;
SELECT 1 AS a WHERE 0 FORMAT JSONEachRowWithProgress;
SELECT name, is_output FROM system.formats WHERE name IN ('JSONCompactEachRowWithNames', 'JSONCompactEachRowWithNamesAndTypes', 'JSONCompactStringsEachRowWithNames', 'JSONCompactStringsEachRowWithNamesAndTypes', 'JSONEachRowWithProgress', 'JSONStringsEachRowWithProgress', 'JSONObjectEachRow') ORDER BY name;
