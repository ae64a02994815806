-- ENGINE = Set: the right side of IN / NOT IN; reading it is not allowed.
CREATE TABLE st (x UInt64) ENGINE = Set;
INSERT INTO st VALUES (1), (3), (3);
INSERT INTO st SELECT 10 + number FROM numbers(2);
SELECT number, number IN st, number NOT IN st FROM numbers(5);
SELECT count() FROM numbers(20) WHERE number IN st;
SELECT count() FROM numbers(20) WHERE number IN default.st;
SELECT toUInt8(number) IN st, toInt64(number) + 1 IN st FROM numbers(3);
SELECT * FROM st; -- { serverError NOT_IMPLEMENTED }
SELECT count() FROM st; -- { serverError NOT_IMPLEMENTED }
SELECT number IN (SELECT x FROM st) FROM numbers(2); -- { serverError NOT_IMPLEMENTED }


SELECT 'tuples';
CREATE TABLE st2 (a UInt8, b String) ENGINE = Set SETTINGS persistent = 0;
INSERT INTO st2 VALUES (1, 'a'), (2, 'b');
SELECT number, (number, char(97 + number)) IN st2 FROM numbers(3);
SELECT number IN st2 FROM numbers(3); -- { serverError NUMBER_OF_COLUMNS_DOESNT_MATCH }

SELECT 'nulls';
CREATE TABLE st3 (x Nullable(UInt64)) ENGINE = Set;
INSERT INTO st3 VALUES (NULL), (1);
SELECT arrayJoin([NULL, 1, 2]) AS v, v IN st3, v NOT IN st3;
SELECT arrayJoin([NULL, 1, 2]) AS v, v IN st3, v NOT IN st3 SETTINGS transform_null_in = 1;

SELECT 'truncate';
TRUNCATE TABLE st;
SELECT count() FROM numbers(20) WHERE number IN st;
INSERT INTO st VALUES (0);
SELECT number IN st FROM numbers(2);

SELECT 'other tables on the right of IN';
CREATE TABLE mem (x UInt64) ENGINE = Memory;
INSERT INTO mem VALUES (2);
SELECT number IN mem FROM numbers(3);

SELECT 'errors';
CREATE TABLE bad (x UInt64) ENGINE = Set(1); -- { serverError NUMBER_OF_ARGUMENTS_DOESNT_MATCH }
CREATE TABLE bad (x UInt64) ENGINE = Set SETTINGS foo = 1; -- { serverError UNKNOWN_SETTING }
OPTIMIZE TABLE st; -- { serverError NOT_IMPLEMENTED }
ALTER TABLE st DELETE WHERE x = 1; -- { serverError NOT_IMPLEMENTED }
SHOW CREATE TABLE st2;
DROP TABLE st;
SELECT 1 IN st; -- { serverError UNKNOWN_IDENTIFIER }
