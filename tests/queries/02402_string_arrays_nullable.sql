-- Nullable(String) arguments and elements of splitByChar, splitByString, extractAll and
-- arrayStringConcat (they crashed: tests/difftest/DIVERGENCES.md C1).
SELECT splitByChar(',', toNullable('a,b')), splitByString(',', toNullable('a,b')), extractAll(toNullable('abc'), '[a-z]+');
SELECT splitByChar(',', materialize(toNullable('a,b'))), splitByChar(',', CAST(NULL AS Nullable(String)));
SELECT arrayStringConcat([toNullable('a'), 'b'], ','), arrayStringConcat([NULL, 'b', NULL, 'c'], ','), arrayStringConcat([toLowCardinality(toNullable('a'))], ',');
SELECT arrayStringConcat(arrayMap(x -> if(x = 2, NULL, toString(x)), range(number)), '|') FROM numbers(5) ORDER BY number;
SELECT arrayStringConcat([toNullable(toFixedString('ab', 2)), NULL, 'cd']);
