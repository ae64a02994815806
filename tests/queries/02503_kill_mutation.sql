-- a mutation that fails on a part stays unfinished (with its error) until KILL MUTATION
DROP TABLE IF EXISTS km;
CREATE TABLE km (a UInt32, b String) ENGINE = MergeTree ORDER BY a;
INSERT INTO km VALUES (1, 'x'), (2, 'y');
ALTER TABLE km UPDATE b = toString(throwIf(a = 2)) WHERE 1 SETTINGS mutations_sync = 2; -- { serverError UNFINISHED }
SELECT mutation_id, command, is_done, parts_to_do, latest_failed_part, latest_fail_error_code_name FROM system.mutations WHERE table = 'km';
KILL MUTATION WHERE table = 'km' AND mutation_id = 'mutation_2.txt' TEST;
KILL MUTATION WHERE table = 'km' AND mutation_id = 'mutation_2.txt';
SELECT count() FROM system.mutations WHERE table = 'km';
SELECT * FROM km ORDER BY a;
KILL MUTATION WHERE table = 'km';
-- the table mutates and merges again
ALTER TABLE km UPDATE b = 'z' WHERE a = 2 SETTINGS mutations_sync = 2;
SELECT * FROM km ORDER BY a;
SELECT mutation_id, command, is_done FROM system.mutations WHERE table = 'km';
DROP TABLE km;
