-- `_` between digits of a number; a number running on into letters is an identifier.
SELECT 1_000_000, 0x1_0, 1_000.5, 0b1_1, 1e1_0, 1.5e3;
SELECT toTypeName(1_000_000), toTypeName(-1_000);
SELECT number FROM numbers(1_0) WHERE number > 8;
DROP TABLE IF EXISTS 03307_table;
CREATE TABLE 03307_table (1col UInt8, id Int32) ENGINE = Memory;
INSERT INTO 03307_table VALUES (1, 2);
SELECT 1col, id, 1col + 1 AS 2x, 2x FROM 03307_table;
DROP TABLE 03307_table;
SELECT 12abc; -- { serverError UNKNOWN_IDENTIFIER }
SELECT 1_; -- { serverError UNKNOWN_IDENTIFIER }
