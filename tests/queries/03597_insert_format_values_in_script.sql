-- INSERT … FORMAT Values with inline data in a script: the data ends at its ';' and the
-- statements after it run.
DROP TABLE IF EXISTS fv;
CREATE TABLE fv (x UInt8, s String) ENGINE = Memory;
INSERT INTO fv FORMAT Values (1, 'a');
INSERT INTO fv FORMAT Values (2, 'b'),
    (3, 'c');
SELECT * FROM fv ORDER BY x;
DROP TABLE fv;
