-- The Values format takes rows without commas between them, as ClickHouse.
DROP TABLE IF EXISTS 03312_v;
CREATE TABLE 03312_v (a UInt8, s String, t Tuple(UInt8, String)) ENGINE = Memory;
INSERT INTO 03312_v VALUES (1, 'a)(', (1, 'x')) (2, 'b', (2, ')')) (3,'c',(3,'y'))(4, 'it''s', (4, '\''));
INSERT INTO 03312_v VALUES
(5, 'e', (5, 'e'))
(6, 'f', (6, 'f')), (7, 'g', (7, 'g'));
SELECT * FROM 03312_v ORDER BY a;
DROP TABLE 03312_v;
