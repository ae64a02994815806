-- ALIAS columns: computed when named, never stored, left out of SELECT * and INSERT.
CREATE TABLE al (a UInt32, b UInt64 ALIAS a * 2, c String ALIAS concat('x', toString(b)), d Int8 DEFAULT 3) ENGINE = MergeTree ORDER BY a;
INSERT INTO al (a) VALUES (1), (2), (5);
SELECT * FROM al ORDER BY a;
SELECT a, b, c, toTypeName(b), toTypeName(c) FROM al ORDER BY a;
SELECT b FROM al WHERE b > 2 ORDER BY b FORMAT JSONEachRow;
SELECT sum(b), max(c) FROM al;
SELECT c, count() FROM al GROUP BY c ORDER BY c;
SELECT b AS x, x + 1 FROM al ORDER BY x;
DESCRIBE al;
INSERT INTO al (a, b) VALUES (7, 1); -- { serverError NO_SUCH_COLUMN_IN_TABLE }
CREATE TABLE am (a UInt8, s String ALIAS 'const') ENGINE = Memory;
INSERT INTO am VALUES (1);
SELECT a, s FROM am;
