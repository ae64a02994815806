-- Window functions where ClickHouse rejects them, bad frames and arguments.
SELECT number FROM numbers(3) WHERE row_number() OVER () > 1; -- { serverError ILLEGAL_AGGREGATION }
SELECT number FROM numbers(3) GROUP BY number HAVING row_number() OVER () > 1; -- { serverError ILLEGAL_AGGREGATION }
SELECT number FROM numbers(3) GROUP BY row_number() OVER (); -- { serverError ILLEGAL_AGGREGATION }
SELECT sum(row_number() OVER ()) OVER () FROM numbers(3); -- { serverError ILLEGAL_AGGREGATION }
SELECT sum(row_number() OVER ()) FROM numbers(3); -- { serverError ILLEGAL_AGGREGATION }
SELECT row_number() FROM numbers(2); -- { serverError BAD_ARGUMENTS }
SELECT sum(number) OVER w FROM numbers(2); -- { serverError BAD_ARGUMENTS }
SELECT rank(number) OVER () FROM numbers(2); -- { serverError NUMBER_OF_ARGUMENTS_DOESNT_MATCH }
SELECT sum(number) OVER (ORDER BY number GROUPS 1 PRECEDING) FROM numbers(3); -- { serverError NOT_IMPLEMENTED }
SELECT sum(number) OVER (ORDER BY number, number RANGE 1 PRECEDING) FROM numbers(3); -- { serverError BAD_ARGUMENTS }
SELECT sum(number) OVER (ROWS BETWEEN UNBOUNDED FOLLOWING AND CURRENT ROW) FROM numbers(2); -- { serverError BAD_ARGUMENTS }
SELECT sum(number) OVER (ROWS BETWEEN 1 FOLLOWING AND 1 PRECEDING) FROM numbers(3); -- { serverError BAD_ARGUMENTS }
SELECT sum(number) OVER (ROWS BETWEEN -1 PRECEDING AND CURRENT ROW) FROM numbers(3); -- { serverError BAD_ARGUMENTS }
SELECT ntile(0) OVER (ORDER BY number) FROM numbers(4); -- { serverError BAD_ARGUMENTS }
SELECT ntile(2) OVER () FROM numbers(4); -- { serverError BAD_ARGUMENTS }
SELECT ntile(3) OVER (ORDER BY number ROWS BETWEEN CURRENT ROW AND 1 FOLLOWING) FROM numbers(4); -- { serverError BAD_ARGUMENTS }
SELECT ntile(2) OVER (ORDER BY number RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) FROM numbers(3); -- { serverError BAD_ARGUMENTS }
SELECT ntile(toUInt64(2) + number) OVER (ORDER BY number) FROM numbers(3); -- { serverError BAD_ARGUMENTS }
SELECT lag(number, -1) OVER (ORDER BY number) FROM numbers(4); -- { serverError BAD_ARGUMENTS }
SELECT lagInFrame(number, 1, 'a') OVER () FROM numbers(1); -- { serverError BAD_ARGUMENTS }
SELECT lagInFrame(number, 1, -1) OVER () FROM numbers(1); -- { serverError BAD_ARGUMENTS }
SELECT sum(number) OVER (ORDER BY number RANGE 1.5 PRECEDING) FROM numbers(3); -- { serverError BAD_ARGUMENTS }
-- RANGE offsets must be values of the ORDER BY key's type.
SELECT count() OVER (ORDER BY toInt8(number) RANGE BETWEEN 1 PRECEDING AND 300 FOLLOWING) FROM numbers(3); -- { serverError ARGUMENT_OUT_OF_BOUND }
SELECT count() OVER (ORDER BY toUInt8(number) RANGE BETWEEN 256 PRECEDING AND 3 FOLLOWING) FROM numbers(3); -- { serverError ARGUMENT_OUT_OF_BOUND }
SELECT count() OVER (ORDER BY toDate(number) RANGE BETWEEN 65536 PRECEDING AND 3 FOLLOWING) FROM numbers(3); -- { serverError ARGUMENT_OUT_OF_BOUND }
SELECT count() OVER (ORDER BY toInt8(number) RANGE BETWEEN 128 PRECEDING AND 3 FOLLOWING) FROM numbers(3); -- { serverError ARGUMENT_OUT_OF_BOUND }
SELECT min(number) OVER (ORDER BY number RANGE BETWEEN 0 FOLLOWING AND CURRENT ROW) FROM numbers(3); -- { serverError BAD_ARGUMENTS }
SELECT min(number) OVER (ORDER BY number ROWS BETWEEN CURRENT ROW AND 0 PRECEDING) FROM numbers(3); -- { serverError BAD_ARGUMENTS }
