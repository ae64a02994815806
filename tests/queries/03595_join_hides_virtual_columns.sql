-- SELECT * over a JOIN shows the stored columns of both sides, never their virtual ones
-- (_part, _part_offset, …), which stay reachable by name.
DROP TABLE IF EXISTS jl;
DROP TABLE IF EXISTS jr;
CREATE TABLE jl (k UInt8, a String) ENGINE = MergeTree ORDER BY k;
CREATE TABLE jr (k UInt8, b String, m UInt8 MATERIALIZED k * 2) ENGINE = MergeTree ORDER BY k;
INSERT INTO jl VALUES (1, 'x'), (2, 'y');
INSERT INTO jr VALUES (1, 'p'), (3, 'q');
SELECT * FROM jl JOIN jr ON jl.k = jr.k ORDER BY jl.k;
SELECT * FROM jl JOIN jr USING (k) ORDER BY k;
SELECT * FROM jl LEFT JOIN jr USING (k) ORDER BY k;
SELECT * FROM jl AS l FULL JOIN jr AS r ON l.k = r.k ORDER BY l.k, r.k;
SELECT l.*, r._part, l._part_offset, r.m FROM jl AS l JOIN jr AS r ON l.k = r.k;
SELECT * FROM jl, jr ORDER BY jl.k, jr.k;
SELECT count(*) FROM (SELECT * FROM jl JOIN jr USING (k));
DROP TABLE jl;
DROP TABLE jr;
