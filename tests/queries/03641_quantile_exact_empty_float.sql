-- quantileExact of no values is nan for a float argument (the type's zero otherwise, and
-- zeros in quantilesExact's array), as in ClickHouse (found by difftest: pow(3. / …, 3)).
SELECT quantileExact(0.5)(toFloat64(number)), quantileExact(0.5)(toFloat32(number)), medianExact(toFloat64(number)) FROM numbers(0);
SELECT quantileExact(0.5)(number), quantileExact(0.5)(toDecimal32(number, 2)), quantilesExact(0.5, 0.9)(toFloat64(number)) FROM numbers(0);
SELECT pow(3. / quantileExact(0.5)(toFloat64(number)), 3) FROM numbers(0);
SELECT number % 2 AS k, quantileExact(0.5)(toFloat64(number)) FROM numbers(4) WHERE number > 1 GROUP BY k ORDER BY k;
SELECT quantileExact(0.5)(nan), quantileExact(0.5)(x) FROM (SELECT arrayJoin([nan, 1., 2.]) AS x);
SELECT quantileExact(0.5)(toNullable(toFloat64(number))) FROM numbers(0);
