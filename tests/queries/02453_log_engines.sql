-- Log, TinyLog and StripeLog: rows in insertion order, INSERT appends, TRUNCATE empties.
DROP TABLE IF EXISTS log_02453;
DROP TABLE IF EXISTS tinylog_02453;
DROP TABLE IF EXISTS stripelog_02453;
CREATE TABLE log_02453 (x UInt32, s String, n Nullable(Int8), a Array(String), d DateTime('UTC'), lc LowCardinality(String)) ENGINE = Log;
INSERT INTO log_02453 VALUES (3, 'c', NULL, ['x', 'y'], '2020-01-01 00:00:00', 'p'), (1, 'a', 5, [], '2021-06-01 12:00:00', 'q');
INSERT INTO log_02453 SELECT number, toString(number), number, [toString(number)], toDateTime('2022-01-01 00:00:00', 'UTC') + number, 'r' FROM numbers(3);
SELECT * FROM log_02453 SETTINGS max_threads = 1;
SELECT count(), sum(x), groupArray(s) FROM log_02453 SETTINGS max_threads = 1;
SELECT lc, count() FROM log_02453 GROUP BY lc ORDER BY lc;
TRUNCATE TABLE log_02453;
SELECT count() FROM log_02453;
INSERT INTO log_02453 VALUES (7, 'g', 1, ['z'], '2020-01-01 00:00:00', 'p');
SELECT * FROM log_02453;

CREATE TABLE tinylog_02453 (x UInt8, t Tuple(a UInt8, b String)) ENGINE = TinyLog;
INSERT INTO tinylog_02453 VALUES (2, (1, 'one'));
INSERT INTO tinylog_02453 VALUES (1, (2, 'two'));
SELECT * FROM tinylog_02453;
SELECT * FROM tinylog_02453 FINAL; -- { serverError ILLEGAL_FINAL }

CREATE TABLE stripelog_02453 (x Decimal(10, 2), e Enum8('a' = 1, 'b' = 2)) ENGINE = StripeLog;
INSERT INTO stripelog_02453 VALUES (1.25, 'b'), (2.5, 'a');
SELECT * FROM stripelog_02453 ORDER BY x DESC;
SELECT * FROM stripelog_02453 AS s JOIN tinylog_02453 AS t ON toUInt8(s.e) = t.x ORDER BY s.x;
CREATE TABLE bad_02453 (x UInt8) ENGINE = StripeLog(1); -- { serverError NUMBER_OF_ARGUMENTS_DOESNT_MATCH }

DROP TABLE log_02453;
DROP TABLE tinylog_02453;
DROP TABLE stripelog_02453;
