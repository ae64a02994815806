-- ALTER TABLE … ADD / DROP / RENAME / MODIFY / COMMENT COLUMN and MODIFY COMMENT on MergeTree
DROP TABLE IF EXISTS alt;
CREATE TABLE alt (a UInt32, b String) ENGINE = MergeTree ORDER BY a;
INSERT INTO alt VALUES (1, 'x'), (2, 'y');
-- parts written before ADD COLUMN read the new column's default expression
ALTER TABLE alt ADD COLUMN c UInt8 DEFAULT a + 10 AFTER a;
SELECT * FROM alt ORDER BY a;
ALTER TABLE alt ADD COLUMN IF NOT EXISTS c String;
ALTER TABLE alt ADD COLUMN f Float64 FIRST;
ALTER TABLE alt ADD COLUMN s String MATERIALIZED concat(toString(a), '!');
SELECT *, s FROM alt ORDER BY a;
INSERT INTO alt (a, b, c) VALUES (3, 'z', 7);
SELECT *, s FROM alt ORDER BY a;
SELECT name, type, default_kind, default_expression FROM system.columns WHERE table = 'alt' ORDER BY position;
ALTER TABLE alt DROP COLUMN f SETTINGS mutations_sync = 2;
ALTER TABLE alt DROP COLUMN IF EXISTS nope;
SELECT * FROM alt ORDER BY a;
ALTER TABLE alt RENAME COLUMN c TO cc SETTINGS mutations_sync = 2;
SELECT cc, b FROM alt ORDER BY a;
ALTER TABLE alt MODIFY COLUMN cc String SETTINGS mutations_sync = 2;
SELECT cc, toTypeName(cc) FROM alt ORDER BY a;
INSERT INTO alt (a, b, cc) VALUES (4, 'w', 'given');
SELECT a, cc FROM alt ORDER BY a;
ALTER TABLE alt COMMENT COLUMN b 'the b column';
ALTER TABLE alt MODIFY COMMENT 'table comment';
SHOW CREATE TABLE alt;
SELECT name, comment FROM system.columns WHERE table = 'alt' ORDER BY position;
ALTER TABLE alt RENAME COLUMN b TO b2, ADD COLUMN d Int8 SETTINGS mutations_sync = 2;
SELECT * FROM alt ORDER BY a;
SELECT count() FROM system.parts WHERE table = 'alt' AND active;
OPTIMIZE TABLE alt FINAL;
SELECT * FROM alt ORDER BY a;
-- errors
ALTER TABLE alt ADD COLUMN b2 UInt8; -- { serverError DUPLICATE_COLUMN }
ALTER TABLE alt ADD COLUMN x UInt8 AFTER nope; -- { serverError NO_SUCH_COLUMN_IN_TABLE }
ALTER TABLE alt DROP COLUMN nope; -- { serverError NOT_FOUND_COLUMN_IN_BLOCK }
ALTER TABLE alt RENAME COLUMN a TO q; -- { serverError ALTER_OF_COLUMN_IS_FORBIDDEN }
ALTER TABLE alt RENAME COLUMN cc TO b2; -- { serverError DUPLICATE_COLUMN }
ALTER TABLE alt RENAME COLUMN nope TO q; -- { serverError NOT_FOUND_COLUMN_IN_BLOCK }
ALTER TABLE alt MODIFY COLUMN a String; -- { serverError ALTER_OF_COLUMN_IS_FORBIDDEN }
ALTER TABLE alt MODIFY COLUMN nope String; -- { serverError NOT_FOUND_COLUMN_IN_BLOCK }
ALTER TABLE alt COMMENT COLUMN nope 'x'; -- { serverError NOT_FOUND_COLUMN_IN_BLOCK }
SELECT * FROM alt ORDER BY a;
-- a definition the engine refuses leaves the table as it was
ALTER TABLE alt MODIFY COLUMN b2 CODEC(Delta); -- { serverError BAD_ARGUMENTS }
SELECT * FROM alt ORDER BY a;
ALTER TABLE alt MODIFY COLUMN b2 CODEC(ZSTD(3));
ALTER TABLE alt MODIFY COLUMN b2 COMMENT 'b2 now';
SHOW CREATE TABLE alt;
SELECT * FROM alt ORDER BY a;
DROP TABLE alt;
-- a partitioned table with several parts
CREATE TABLE altp (d Date, k UInt64, v String) ENGINE = MergeTree PARTITION BY toYYYYMM(d) ORDER BY k;
INSERT INTO altp SELECT toDate('2024-01-01') + number * 20, number, toString(number) FROM numbers(10);
INSERT INTO altp SELECT toDate('2024-01-01') + number * 20, number + 100, toString(number) FROM numbers(5);
ALTER TABLE altp ADD COLUMN n Nullable(Int64) DEFAULT if(k % 2 = 0, NULL, toInt64(k) * 2);
SELECT * FROM altp ORDER BY k;
ALTER TABLE altp MODIFY COLUMN v UInt64 SETTINGS mutations_sync = 2;
SELECT sum(v), sum(n), count() FROM altp;
SELECT partition, count() FROM system.parts WHERE table = 'altp' AND active GROUP BY partition ORDER BY partition;
DROP TABLE altp;
