-- joinGet and joinGetOrNull over ENGINE = Join(ANY, LEFT, …) tables.
CREATE TABLE jg (k UInt64, s String, n UInt32, arr Array(UInt8)) ENGINE = Join(ANY, LEFT, k);
INSERT INTO jg VALUES (1, 'a', 10, [1]), (2, 'b', 20, [2, 2]), (1, 'dup', 99, []);
SELECT joinGet('jg', 's', toUInt64(1)), joinGet('jg', 'n', toUInt64(2)), joinGet('jg', 'arr', toUInt64(2));
SELECT number, joinGet('jg', 's', number), joinGet(jg, 'n', number), joinGetOrNull('jg', 's', number) FROM numbers(4);
SELECT joinGet('default.jg', 's', toUInt64(2)), joinGet(currentDatabase() || '.jg', 'n', toUInt64(1));
SELECT toTypeName(joinGet('jg', 's', toUInt64(1))), toTypeName(joinGetOrNull('jg', 'n', toUInt64(1))),
       toTypeName(joinGetOrNull('jg', 'arr', toUInt64(1)));
SELECT joinGetOrNull('jg', 'arr', toUInt64(5)), joinGet('jg', 'n', toUInt64(5));
SELECT joinGet('jg', 's', toNullable(toUInt64(2))), joinGet('jg', 's', CAST(NULL AS Nullable(UInt64)));
SELECT count() FROM numbers(10) WHERE joinGet('jg', 'n', number) > 0;

SELECT 'two keys';
CREATE TABLE jg2 (a String, b LowCardinality(String), c Float64) ENGINE = Join(any, left, a, b);
INSERT INTO jg2 VALUES ('ab', '1', 0.1), ('ab', '2', 0.2), ('cd', '3', 0.3);
SELECT joinGet(jg2, 'c', 'ab', '1'), joinGet(jg2, 'c', 'ab', toLowCardinality('2')), joinGet(jg2, 'c', 'cd', '9');
SELECT x, joinGetOrNull('jg2', 'c', 'ab', x) FROM (SELECT toString(number) AS x FROM numbers(4)) ORDER BY x;

SELECT 'join_use_nulls and take last row';
CREATE TABLE jg_nulls (k UInt8, v UInt8) ENGINE = Join(ANY, LEFT, k) SETTINGS join_use_nulls = 1;
INSERT INTO jg_nulls VALUES (1, 1);
SELECT joinGet('jg_nulls', 'v', toUInt8(1)), joinGet('jg_nulls', 'v', toUInt8(2)), toTypeName(joinGet('jg_nulls', 'v', toUInt8(1)));
CREATE TABLE jg_last (k UInt8, v UInt8) ENGINE = Join(ANY, LEFT, k) SETTINGS join_any_take_last_row = 1;
INSERT INTO jg_last VALUES (1, 1), (1, 2);
INSERT INTO jg_last VALUES (1, 3);
SELECT joinGet('jg_last', 'v', toUInt8(1));
TRUNCATE TABLE jg_last;
SELECT joinGet('jg_last', 'v', toUInt8(1));

SELECT 'errors';
CREATE TABLE jg_inner (k UInt64, s String) ENGINE = Join(ANY, INNER, k);
CREATE TABLE jg_all (k UInt64, s String) ENGINE = Join(ALL, LEFT, k);
CREATE TABLE not_join (k UInt64, s String) ENGINE = Memory;
SELECT joinGet('jg_inner', 's', toUInt64(1)); -- { serverError INCOMPATIBLE_TYPE_OF_JOIN }
SELECT joinGet('jg_all', 's', toUInt64(1)); -- { serverError INCOMPATIBLE_TYPE_OF_JOIN }
SELECT joinGet('jg', 'k', toUInt64(1)); -- { serverError NO_SUCH_COLUMN_IN_TABLE }
SELECT joinGet('jg', 'nope', toUInt64(1)); -- { serverError NO_SUCH_COLUMN_IN_TABLE }
SELECT joinGet('jg', 's', 1); -- { serverError TYPE_MISMATCH }
SELECT joinGet('jg', 's', toUInt64(1), 2); -- { serverError NUMBER_OF_ARGUMENTS_DOESNT_MATCH }
SELECT joinGet('jg', 's'); -- { serverError NUMBER_OF_ARGUMENTS_DOESNT_MATCH }
SELECT joinGet('nope', 's', toUInt64(1)); -- { serverError UNKNOWN_TABLE }
SELECT joinGet('jg', materialize('s'), toUInt64(1)); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
