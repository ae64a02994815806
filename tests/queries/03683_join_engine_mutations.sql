-- Join tables: ALTER … DELETE, OPTIMIZE, TRUNCATE, INSERT … SELECT from the table itself.
CREATE TABLE jm (id Int32, name String) ENGINE = Join(ANY, LEFT, id);
INSERT INTO jm SELECT number, toString(number) FROM numbers(20);
INSERT INTO jm VALUES (5, 'dup');
SELECT count(), sum(id) FROM jm;
ALTER TABLE jm DELETE WHERE id = 10;
SELECT count(), joinGet('jm', 'name', toInt32(10)), joinGet('jm', 'name', toInt32(5)) FROM jm;
INSERT INTO jm VALUES (10, 'm10');
SELECT joinGet('jm', 'name', toInt32(10));
ALTER TABLE jm DELETE WHERE id % 2 = 0, DELETE WHERE name IN ('1', '3');
SELECT * FROM jm ORDER BY id;
ALTER TABLE jm UPDATE name = 'x' WHERE 1; -- { serverError NOT_IMPLEMENTED }
ALTER TABLE jm DELETE WHERE nope = 1; -- { serverError UNKNOWN_IDENTIFIER }
ALTER TABLE jm DELETE WHERE 1;
SELECT count() FROM jm;

SELECT 'all strictness';
CREATE TABLE jm_all (k UInt8, v UInt8) ENGINE = Join(ALL, INNER, k);
INSERT INTO jm_all VALUES (1, 1), (1, 2), (2, 3);
ALTER TABLE jm_all DELETE WHERE v = 1;
SELECT * FROM jm_all ORDER BY ALL;

SELECT 'optimize';
OPTIMIZE TABLE jm_all;
OPTIMIZE TABLE jm_all FINAL; -- { serverError NOT_IMPLEMENTED }
OPTIMIZE TABLE jm_all DEDUPLICATE; -- { serverError NOT_IMPLEMENTED }
SELECT * FROM jm_all ORDER BY ALL;

SELECT 'insert select from itself';
INSERT INTO jm_all SELECT * FROM jm_all; -- { serverError DEADLOCK_AVOIDED }
INSERT INTO jm_all SELECT k, v FROM (SELECT toUInt8(2) AS k) AS t ALL INNER JOIN jm_all USING (k); -- { serverError DEADLOCK_AVOIDED }
INSERT INTO jm_all SELECT k + 10, v FROM (SELECT * FROM jm_all); -- { serverError DEADLOCK_AVOIDED }
CREATE TABLE jm_copy (k UInt8, v UInt8) ENGINE = Join(ALL, INNER, k);
INSERT INTO jm_copy SELECT * FROM jm_all;
SELECT * FROM jm_copy ORDER BY ALL;

SELECT 'truncate and drop';
TRUNCATE TABLE jm_copy;
SELECT count() FROM jm_copy;
INSERT INTO jm_copy VALUES (4, 4);
SELECT * FROM jm_copy;
DROP TABLE jm_copy;
SELECT * FROM jm_copy; -- { serverError UNKNOWN_TABLE }
