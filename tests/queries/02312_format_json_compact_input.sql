-- JSONCompactEachRow, JSONCompactEachRowWithNames and JSONCompactEachRowWithNamesAndTypes
-- input with an explicit structure: header names map to columns, the types row is checked.
INSERT INTO FUNCTION file('data/jci_1.json', JSONCompactEachRowWithNamesAndTypes) SELECT number AS a, toString(number) AS b, [number, 7] c, if(number = 1, NULL, number) d, toDate('2024-01-01') + number AS e FROM numbers(4) SETTINGS engine_file_truncate_on_insert = 1;
SELECT * FROM file('data/jci_1.json', JSONCompactEachRowWithNamesAndTypes, 'a UInt64, b String, c Array(UInt64), d Nullable(UInt64), e Date');
SELECT e, b, a FROM file('data/jci_1.json', JSONCompactEachRowWithNamesAndTypes, 'e Date, a UInt64, b String');
SELECT * FROM file('data/jci_1.json', JSONCompactEachRowWithNamesAndTypes, 'a UInt32, b String'); -- { serverError INCORRECT_DATA }
INSERT INTO FUNCTION file('data/jci_2.json', JSONCompactEachRowWithNames) SELECT number AS a, toString(number) AS b, [number, 7] c, if(number = 1, NULL, number) d FROM numbers(4) SETTINGS engine_file_truncate_on_insert = 1;
SELECT * FROM file('data/jci_2.json', JSONCompactEachRowWithNames, 'd Nullable(UInt64), c Array(UInt64), a UInt64, b String');
SELECT * FROM file('data/jci_2.json', JSONCompactEachRowWithNames, 'a UInt64, b String, z UInt8');
INSERT INTO FUNCTION file('data/jci_3.json', JSONCompactEachRow) SELECT number AS a, concat('x"', toString(number)) AS b, [number] c FROM numbers(3) SETTINGS engine_file_truncate_on_insert = 1;
SELECT * FROM file('data/jci_3.json', JSONCompactEachRow, 'a UInt64, b String, c Array(UInt64)');
SELECT name, is_input, is_output FROM system.formats WHERE name IN ('JSONCompactEachRow', 'JSONCompactEachRowWithNames', 'JSONCompactEachRowWithNamesAndTypes') ORDER BY name;
