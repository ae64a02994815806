-- SQL-standard aliases of aggregate functions: matched in any letter case, listed in
-- system.functions with alias_to; STD, STDDEV, max_by, min_by.
SELECT name, is_aggregate, case_insensitive, alias_to FROM system.functions WHERE name IN ('BIT_AND', 'BIT_OR', 'BIT_XOR', 'COVAR_POP', 'COVAR_SAMP', 'STD', 'STDDEV', 'STDDEV_POP', 'STDDEV_SAMP', 'VAR_POP', 'VAR_SAMP', 'any_value', 'array_agg', 'first_value', 'last_value', 'max_by', 'min_by') ORDER BY name;
SELECT bit_and(number + 1), Bit_Or(number), BIT_XOR(number), var_pop(number), Var_Samp(number), stddev_pop(number), STDDEV_SAMP(number), std(number), StdDev(number) FROM numbers(5);
SELECT covar_pop(number, number * 2), COVAR_SAMP(number, number * 2), ANY_VALUE(number), First_Value(number), LAST_VALUE(number), Array_Agg(number), max_by(number, -number), MIN_BY(number, -number) FROM numbers(4);
SELECT number % 2 AS k, max_by(number, number), min_by(toString(number), number), STD(number) FROM numbers(6) GROUP BY k ORDER BY k;
SELECT max_by(1); -- { serverError NUMBER_OF_ARGUMENTS_DOESNT_MATCH }
SELECT bit_and('a'); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
