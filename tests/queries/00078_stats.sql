SELECT varPop(x), varSamp(x), stddevPop(x), stddevSamp(x) FROM (SELECT number * 0.37 AS x FROM numbers(10000));
SELECT varPop(number), varSamp(number * 1.1), stddevPop(number), stddevSamp(number / 3) FROM numbers(10000);
SELECT covarPop(x, y), covarSamp(x, y), corr(x, y) FROM (SELECT number AS x, number % 7 AS y FROM numbers(100));
SELECT varPop(x), varSamp(x), stddevSamp(x), corr(x, x), covarSamp(x, x) FROM (SELECT 1 AS x);
SELECT varPop(x), varSamp(x), covarPop(x, x), corr(x, x), toTypeName(varPop(x)) FROM (SELECT 1 AS x) WHERE x > 5;
SELECT toTypeName(varPop(toFloat32(1))), toTypeName(varPop(toDecimal32(1, 2))), varPop(toDecimal32(1.5, 2)), toTypeName(varPop(toNullable(1))), toTypeName(corr(toFloat32(1), 1)), toTypeName(covarPop(toFloat32(1), toFloat32(2)));
SELECT number % 3 AS k, varPop(number * 0.37), varSamp(number * 1.1), stddevPop(number) FROM numbers(1000) GROUP BY k ORDER BY k;
SELECT varPopIf(number * 0.37, number % 3 = 0), varSamp(if(number % 5 = 0, NULL, number * 1.1)) FROM numbers(10000);
SELECT VAR_POP(number), VAR_SAMP(number), STDDEV_POP(number), STDDEV_SAMP(number), COVAR_POP(number, number), COVAR_SAMP(number, number) FROM numbers(10);
SELECT varPop(x), stddevPop(x), covarPop(x, y), corr(x, y) FROM (SELECT 1e9 + number * 0.1 AS x, number * number AS y FROM numbers(7));
SELECT varPop('a'); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
