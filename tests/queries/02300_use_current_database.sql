SELECT currentDatabase();
CREATE DATABASE d02300;
USE d02300;
SELECT currentDatabase();
CREATE TABLE t (a UInt8) ENGINE = Memory;
INSERT INTO t VALUES (1), (2);
SELECT database, name FROM system.tables WHERE database = 'd02300';
SELECT sum(a) FROM t;
USE default;
SELECT currentDatabase();
SELECT sum(a) FROM d02300.t;
SELECT count() FROM t; -- { serverError UNKNOWN_TABLE }
USE nonexistent_db_02300; -- { serverError UNKNOWN_DATABASE }
SELECT currentDatabase();
DROP DATABASE d02300;
