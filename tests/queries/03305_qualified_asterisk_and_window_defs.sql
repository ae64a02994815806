-- db.table.* names the table read; other qualifiers are errors, never every column.
SELECT t.t.t.* FROM system.one; -- { serverError INVALID_IDENTIFIER }
SELECT t.t.* FROM system.one; -- { serverError UNKNOWN_IDENTIFIER }
SELECT system.one.* FROM system.one;
SELECT one.*, * FROM system.one;
-- ORDER BY an aggregate function state is refused.
SELECT sumState(1) AS s ORDER BY s; -- { serverError ILLEGAL_COLUMN }
-- Every WINDOW definition is checked, used or not.
SELECT 1 WINDOW w0 AS (ORDER BY min(1) OVER (w0)); -- { serverError UNSUPPORTED_METHOD }
SELECT 1 WINDOW w0 AS (ORDER BY min(1) OVER ()); -- { serverError ILLEGAL_AGGREGATION }
SELECT 1 WINDOW w0 AS (ORDER BY min(1));
