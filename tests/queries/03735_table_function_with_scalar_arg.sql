-- A table function's bare identifier argument that names a WITH scalar subquery is the
-- subquery's value (otherwise it is the identifier's text, e.g. a format name).
WITH (SELECT sum(number)::String AS s FROM numbers(4)) AS s SELECT *, s FROM format(TSVRaw, s);
WITH (SELECT $$a,1$$) AS d SELECT * FROM format(CSV, d);
SELECT * FROM format(TSVRaw, s);
WITH (SELECT no_such_column_03735 FROM numbers(3)) AS s SELECT count() FROM format(TSVRaw, s); -- { serverError UNKNOWN_IDENTIFIER }
