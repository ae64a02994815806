-- materialize() and rand() are full columns, never folded into a constant.
SELECT count(DISTINCT rand()) > 50 FROM numbers(100);
SELECT count(DISTINCT rand64()) > 50 FROM numbers(100);
SELECT materialize(1) AS x, x + 1 FROM numbers(2);
SELECT toTypeName(materialize(toLowCardinality('a'))), toTypeName(lower(materialize(toLowCardinality('a'))));
SELECT transform(1, materialize([1]), [2]); -- { serverError ILLEGAL_COLUMN }
SELECT transform(1, [1], [2]);
