-- Materialized views: what ClickHouse refuses, and the settings that change INSERT.
DROP TABLE IF EXISTS mve_src;
DROP TABLE IF EXISTS mve_dst;
DROP TABLE IF EXISTS mve;
CREATE TABLE mve_src (x UInt32) ENGINE = MergeTree ORDER BY x;
CREATE TABLE mve_dst (x UInt32) ENGINE = MergeTree ORDER BY x;
CREATE MATERIALIZED VIEW mve TO mve_dst ENGINE = MergeTree ORDER BY x AS SELECT x FROM mve_src; -- { serverError SYNTAX_ERROR }
CREATE MATERIALIZED VIEW mve TO mve_dst POPULATE AS SELECT x FROM mve_src; -- { serverError SYNTAX_ERROR }
CREATE MATERIALIZED VIEW mve TO mve_missing AS SELECT x FROM mve_src; -- { serverError UNKNOWN_TABLE }
CREATE MATERIALIZED VIEW mve TO mve_dst AS SELECT x, 1 AS y FROM mve_src; -- { serverError THERE_IS_NO_COLUMN }
CREATE MATERIALIZED VIEW mve TO mve_dst AS SELECT number AS x FROM numbers(3); -- { serverError QUERY_IS_NOT_SUPPORTED_IN_MATERIALIZED_VIEW }
CREATE MATERIALIZED VIEW mve TO mve_dst AS SELECT 1 AS x INTERSECT SELECT 2 AS x; -- { serverError QUERY_IS_NOT_SUPPORTED_IN_MATERIALIZED_VIEW }
-- without TO or ENGINE the inner table is a MergeTree ordered by tuple()
CREATE MATERIALIZED VIEW mve AS SELECT x FROM mve_src;
SHOW CREATE TABLE mve;
DROP TABLE mve;
CREATE MATERIALIZED VIEW mve TO mve_dst AS SELECT nope FROM mve_src; -- { serverError UNKNOWN_IDENTIFIER }
CREATE MATERIALIZED VIEW mve TO mve_dst AS SELECT x FROM mve_missing; -- { serverError UNKNOWN_TABLE }
CREATE MATERIALIZED VIEW mve TO mve_dst AS SELECT x FROM mve_src;
CREATE MATERIALIZED VIEW mve TO mve_dst AS SELECT x FROM mve_src; -- { serverError TABLE_ALREADY_EXISTS }
CREATE MATERIALIZED VIEW IF NOT EXISTS mve TO mve_dst AS SELECT x + 1000 AS x FROM mve_src;
INSERT INTO mve_src VALUES (1), (2);
SELECT * FROM mve ORDER BY x;
-- the view's state types must match the target's
DROP TABLE IF EXISTS mve_agg;
CREATE TABLE mve_agg (k UInt8, s AggregateFunction(sum, Int32)) ENGINE = AggregatingMergeTree ORDER BY k;
CREATE MATERIALIZED VIEW mve_bad TO mve_agg AS SELECT 1 AS k, sumState(x) AS s FROM mve_src GROUP BY k; -- { serverError CANNOT_CONVERT_TYPE }
-- a view with TO: OPTIMIZE and mutations must name the target; TRUNCATE leaves it
OPTIMIZE TABLE mve; -- { serverError INCORRECT_QUERY }
ALTER TABLE mve DELETE WHERE x = 1; -- { serverError INCORRECT_QUERY }
TRUNCATE TABLE mve;
SELECT count() FROM mve_dst;
CREATE TABLE mve_copy AS mve; -- { serverError INCORRECT_QUERY }
-- a view into its own source fails every INSERT
CREATE MATERIALIZED VIEW mve_loop TO mve_src AS SELECT x FROM mve_src;
INSERT INTO mve_src VALUES (99); -- { serverError TOO_DEEP_RECURSION }
DROP TABLE mve_loop;
-- a dropped target fails the INSERT, unless the setting skips such views
DROP TABLE mve_dst;
INSERT INTO mve_src VALUES (3); -- { serverError UNKNOWN_TABLE }
SELECT count() FROM mve_src;
INSERT INTO mve_src SETTINGS ignore_materialized_views_with_dropped_target_table = 1 VALUES (4);
SELECT count() FROM mve_src;
SELECT * FROM mve; -- { serverError UNKNOWN_TABLE }
DROP VIEW mve;
-- DROP VIEW of a table is refused
DROP VIEW mve_src; -- { serverError INCORRECT_QUERY }
-- errors inside a view: fail the INSERT, or are dropped with materialized_views_ignore_errors
CREATE TABLE mve_dst (x UInt32) ENGINE = MergeTree ORDER BY x;
CREATE MATERIALIZED VIEW mve TO mve_dst AS SELECT throwIf(x = 13, 'thirteen') + x AS x FROM mve_src;
INSERT INTO mve_src VALUES (13); -- { serverError FUNCTION_THROW_IF_VALUE_IS_NON_ZERO }
INSERT INTO mve_src SETTINGS materialized_views_ignore_errors = 1 VALUES (13);
INSERT INTO mve_src VALUES (14);
SELECT * FROM mve_dst ORDER BY x;
SELECT count() FROM mve_src WHERE x = 13;
DROP TABLE mve;
DROP TABLE mve_dst;
DROP TABLE mve_agg;
DROP TABLE mve_src;
