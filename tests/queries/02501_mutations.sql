-- ALTER TABLE … DELETE / UPDATE mutations, lightweight DELETE, system.mutations
DROP TABLE IF EXISTS mut;
CREATE TABLE mut (k UInt64, v String, n Int32) ENGINE = MergeTree ORDER BY k;
INSERT INTO mut SELECT number, toString(number), number * 10 FROM numbers(20);
INSERT INTO mut SELECT number + 100, 'second', -1 FROM numbers(5);
ALTER TABLE mut DELETE WHERE k IN (0, 3, 6, 9, 12, 15, 18) SETTINGS mutations_sync = 2;
SELECT count(), sum(k) FROM mut;
ALTER TABLE mut UPDATE v = concat(v, '_u'), n = n + 1 WHERE k > 10 SETTINGS mutations_sync = 2;
SELECT * FROM mut ORDER BY k;
SELECT name, rows FROM system.parts WHERE table = 'mut' AND active ORDER BY name;
ALTER TABLE mut DELETE WHERE k = 1, UPDATE n = 0 WHERE k = 2 SETTINGS mutations_sync = 2;
SELECT * FROM mut WHERE k < 5 ORDER BY k;
DELETE FROM mut WHERE v = 'second_u';
SELECT count() FROM mut;
SELECT mutation_id, command, is_done, parts_to_do, parts_to_do_names, block_numbers.number, latest_fail_reason FROM system.mutations WHERE table = 'mut' ORDER BY mutation_id, command;
-- parts inserted after a mutation keep their rows
INSERT INTO mut VALUES (3, 'new', 3);
SELECT * FROM mut WHERE k = 3;
ALTER TABLE mut UPDATE n = 99 WHERE 0 SETTINGS mutations_sync = 2;
SELECT sum(n) FROM mut;
ALTER TABLE mut DELETE WHERE 1 SETTINGS mutations_sync = 2;
SELECT count() FROM mut;
ALTER TABLE mut UPDATE k = 1 WHERE 1; -- { serverError CANNOT_UPDATE_COLUMN }
ALTER TABLE mut UPDATE nope = 1 WHERE 1; -- { serverError NO_SUCH_COLUMN_IN_TABLE }
DROP TABLE mut;
-- a Nullable UPDATE and a delete condition with NULLs
CREATE TABLE mutn (k UInt8, x Nullable(Int32)) ENGINE = MergeTree ORDER BY k;
INSERT INTO mutn VALUES (1, NULL), (2, 5), (3, NULL), (4, 7);
ALTER TABLE mutn DELETE WHERE x > 6 SETTINGS mutations_sync = 2;
SELECT * FROM mutn ORDER BY k;
ALTER TABLE mutn UPDATE x = 0 WHERE x IS NULL SETTINGS mutations_sync = 2;
SELECT * FROM mutn ORDER BY k;
DROP TABLE mutn;
