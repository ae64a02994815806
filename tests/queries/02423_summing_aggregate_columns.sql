-- SummingMergeTree merges AggregateFunction columns and applies the function of
-- SimpleAggregateFunction columns, as ClickHouse does.
CREATE TABLE smt (k UInt64, v UInt64, s AggregateFunction(sum, UInt64), m SimpleAggregateFunction(max, UInt64)) ENGINE = SummingMergeTree ORDER BY k;
INSERT INTO smt SELECT number % 2, number, sumState(number), max(number) FROM numbers(6) GROUP BY number % 2, number;
INSERT INTO smt SELECT number % 2, number, sumState(number), max(number) FROM numbers(6) GROUP BY number % 2, number;
SELECT k, v, finalizeAggregation(s), m FROM smt FINAL ORDER BY k;
OPTIMIZE TABLE smt FINAL;
SELECT k, v, finalizeAggregation(s), hex(s), m FROM smt ORDER BY k;
DROP TABLE smt;
