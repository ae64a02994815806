-- Aggregating views: one result per inserted block, folded by the target's engine on
-- merge (SummingMergeTree, AggregatingMergeTree with -State / -Merge).
DROP TABLE IF EXISTS mva_src;
DROP TABLE IF EXISTS mva_sum;
DROP TABLE IF EXISTS mva_agg;
DROP TABLE IF EXISTS mva_sum_mv;
DROP TABLE IF EXISTS mva_agg_mv;
CREATE TABLE mva_src (user String, amount UInt32, ts DateTime) ENGINE = MergeTree ORDER BY ts;
CREATE TABLE mva_sum (user String, total UInt64, n UInt64) ENGINE = SummingMergeTree ORDER BY user;
CREATE MATERIALIZED VIEW mva_sum_mv TO mva_sum AS SELECT user, sum(amount) AS total, count() AS n FROM mva_src GROUP BY user;
CREATE MATERIALIZED VIEW mva_agg_mv ENGINE = AggregatingMergeTree ORDER BY user AS
    SELECT user, sumState(amount) AS s, uniqState(amount) AS u, maxState(ts) AS last FROM mva_src GROUP BY user;
INSERT INTO mva_src VALUES ('a', 10, '2024-01-01 00:00:00'), ('b', 5, '2024-01-01 00:00:01'), ('a', 1, '2024-01-01 00:00:02');
INSERT INTO mva_src VALUES ('a', 10, '2024-01-02 00:00:00'), ('c', 7, '2024-01-02 00:00:01');
INSERT INTO mva_src VALUES ('b', 5, '2024-01-03 00:00:00');
-- before a merge: one row per block and key
SELECT user, total, n FROM mva_sum ORDER BY user, total;
SELECT user, sum(total), sum(n) FROM mva_sum GROUP BY user ORDER BY user;
SELECT user, sumMerge(s), uniqMerge(u), maxMerge(last) FROM mva_agg_mv GROUP BY user ORDER BY user;
OPTIMIZE TABLE mva_sum FINAL;
OPTIMIZE TABLE mva_agg_mv FINAL;
SELECT user, total, n FROM mva_sum ORDER BY user;
SELECT count() FROM mva_agg_mv;
SELECT user, finalizeAggregation(s), finalizeAggregation(u) FROM mva_agg_mv ORDER BY user;
-- a chain: a view over the target of another view
DROP TABLE IF EXISTS mva_chain;
DROP TABLE IF EXISTS mva_chain_mv;
CREATE TABLE mva_chain (user String, big UInt8) ENGINE = MergeTree ORDER BY user;
CREATE MATERIALIZED VIEW mva_chain_mv TO mva_chain AS SELECT user, total > 10 AS big FROM mva_sum;
INSERT INTO mva_src VALUES ('d', 50, '2024-01-04 00:00:00'), ('e', 1, '2024-01-04 00:00:00');
SELECT * FROM mva_chain ORDER BY user;
DROP TABLE mva_chain_mv;
DROP TABLE mva_chain;
-- the blocks of one INSERT are squashed before the views (min_insert_block_size_rows)
DROP TABLE IF EXISTS mva_big;
DROP TABLE IF EXISTS mva_big_mv;
CREATE TABLE mva_big (k UInt8, x UInt64) ENGINE = Null;
CREATE MATERIALIZED VIEW mva_big_mv ENGINE = MergeTree ORDER BY k AS SELECT k, count() AS c, sum(x) AS s FROM mva_big GROUP BY k;
INSERT INTO mva_big SELECT number % 3, number FROM numbers(300000);
SELECT k, c, s FROM mva_big_mv ORDER BY k;
INSERT INTO mva_big SELECT number % 3, number FROM numbers(30) SETTINGS min_insert_block_size_rows_for_materialized_views = 10, max_block_size = 10;
SELECT count(), sum(c), sum(s) FROM mva_big_mv;
-- … a trivial INSERT … SELECT under optimize_trivial_insert_select reads blocks of at most
-- max_insert_block_size rows
INSERT INTO mva_big SELECT number % 3, number FROM numbers(2000) SETTINGS min_insert_block_size_rows = 1500, max_insert_block_size = 1500;
SELECT count(), sum(c), sum(s) FROM mva_big_mv;
INSERT INTO mva_big SELECT number % 3, number FROM numbers(2000) SETTINGS min_insert_block_size_rows = 1500, max_insert_block_size = 1500, optimize_trivial_insert_select = 1;
SELECT count(), sum(c), sum(s) FROM mva_big_mv;
DROP TABLE mva_big_mv;
DROP TABLE mva_big;
DROP TABLE mva_sum_mv;
DROP TABLE mva_agg_mv;
DROP TABLE mva_sum;
DROP TABLE mva_src;
