-- A function over a LowCardinality constant (and other constants) returns LowCardinality,
-- as over one LowCardinality column: ClickHouse's default for LowCardinality arguments.
SELECT toTypeName(toString(toLowCardinality('a'))), toTypeName(toInt32(toLowCardinality(1))),
    toTypeName(toUInt8(toLowCardinality(toNullable(1))));
SELECT toTypeName(concat(toLowCardinality(toNullable('a')), 'b')), concat(toLowCardinality(toNullable('a')), 'b');
SELECT toTypeName(substring(toLowCardinality('abc'), 1, 2)), substring(toLowCardinality('abc'), 1, 2);
SELECT toTypeName(lower(toLowCardinality('A'))), toTypeName(length(toLowCardinality('a')));
SELECT toTypeName(toLowCardinality(1) + 1), toTypeName(toLowCardinality(1) + toLowCardinality(2)), toTypeName(toLowCardinality('a') = 'a');
SELECT toTypeName(toInt32(x)), toTypeName(toString(x)), toTypeName(concat(y, 'b')), toTypeName(concat(y, y)), toTypeName(concat(x, y))
FROM (SELECT toLowCardinality(number) AS x, toLowCardinality(toNullable(toString(number))) AS y FROM numbers(1));
-- if, and, or keep the plain type
SELECT toTypeName(if(toLowCardinality(1), 1, 2)), toTypeName(toLowCardinality(1) AND 1);
