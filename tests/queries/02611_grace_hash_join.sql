-- join_algorithm = 'grace_hash': both sides partitioned by key hash into buckets in
-- temporary files, joined bucket by bucket; results equal the in-memory hash join for
-- every kind and strictness. Each result is compared by count and order-independent sums.
SET max_threads = 2;

DROP TABLE IF EXISTS gl;
DROP TABLE IF EXISTS gr;
CREATE TABLE gl (k Nullable(UInt64), v String) ENGINE = Memory;
CREATE TABLE gr (k UInt64, w UInt64, s String) ENGINE = Memory;
INSERT INTO gl SELECT if(number % 97 = 0, NULL, number % 50000), toString(number) FROM numbers(200000);
INSERT INTO gr SELECT number % 70000, number, repeat('r', number % 7) FROM numbers(100000);

-- many buckets from the start, and buckets that grow past max_bytes_in_join
SELECT 'INNER', count(), sum(cityHash64(gl.k, v, gr.k, w, s)) FROM gl INNER JOIN gr ON gl.k = gr.k
SETTINGS join_algorithm = 'grace_hash', grace_hash_join_initial_buckets = 8;
SELECT 'INNER', count(), sum(cityHash64(gl.k, v, gr.k, w, s)) FROM gl INNER JOIN gr ON gl.k = gr.k
SETTINGS join_algorithm = 'hash';
SELECT 'LEFT', count(), sum(cityHash64(v, gr.k, w, s)) FROM gl LEFT JOIN gr ON gl.k = gr.k
SETTINGS join_algorithm = 'grace_hash', grace_hash_join_initial_buckets = 2, max_bytes_in_join = 200000;
SELECT 'LEFT', count(), sum(cityHash64(v, gr.k, w, s)) FROM gl LEFT JOIN gr ON gl.k = gr.k;
SELECT 'RIGHT', count(), sum(cityHash64(v, gr.k, w, s)) FROM gl RIGHT JOIN gr ON gl.k = gr.k
SETTINGS join_algorithm = 'grace_hash', grace_hash_join_initial_buckets = 4;
SELECT 'RIGHT', count(), sum(cityHash64(v, gr.k, w, s)) FROM gl RIGHT JOIN gr ON gl.k = gr.k;
SELECT 'FULL', count(), sum(cityHash64(v, gr.k, w, s)) FROM gl FULL JOIN gr ON gl.k = gr.k
SETTINGS join_algorithm = 'grace_hash', grace_hash_join_initial_buckets = 16;
SELECT 'FULL', count(), sum(cityHash64(v, gr.k, w, s)) FROM gl FULL JOIN gr ON gl.k = gr.k;
-- (which right row ANY picks is not defined: only the left columns are compared)
SELECT 'LEFT ANY', count(), sum(cityHash64(v)) FROM gl LEFT ANY JOIN gr ON gl.k = gr.k
SETTINGS join_algorithm = 'grace_hash', grace_hash_join_initial_buckets = 8;
SELECT 'LEFT ANY', count(), sum(cityHash64(v)) FROM gl LEFT ANY JOIN gr ON gl.k = gr.k;
SELECT 'LEFT SEMI', count(), sum(cityHash64(v)) FROM gl LEFT SEMI JOIN gr ON gl.k = gr.k
SETTINGS join_algorithm = 'grace_hash', grace_hash_join_initial_buckets = 8;
SELECT 'LEFT SEMI', count(), sum(cityHash64(v)) FROM gl LEFT SEMI JOIN gr ON gl.k = gr.k;
SELECT 'LEFT ANTI', count(), sum(cityHash64(v)) FROM gl LEFT ANTI JOIN gr ON gl.k = gr.k
SETTINGS join_algorithm = 'grace_hash', grace_hash_join_initial_buckets = 8;
SELECT 'LEFT ANTI', count(), sum(cityHash64(v)) FROM gl LEFT ANTI JOIN gr ON gl.k = gr.k;

-- USING, join_use_nulls, a residual ON term, a key expression
SELECT * FROM (SELECT number AS k, toString(number) AS v FROM numbers(6)) a
FULL JOIN (SELECT number + 3 AS k, number AS w FROM numbers(6)) b USING k ORDER BY k
SETTINGS join_algorithm = 'grace_hash', grace_hash_join_initial_buckets = 4, join_use_nulls = 1;
SELECT count(), sum(w) FROM gl JOIN gr ON gl.k = gr.k AND w > 50000
SETTINGS join_algorithm = 'grace_hash', grace_hash_join_initial_buckets = 4;
SELECT count(), sum(w) FROM gl JOIN gr ON gl.k = gr.k AND w > 50000;
SELECT count(), sum(a.number) FROM numbers(100000) a JOIN numbers(100000) b ON a.number = b.number * 3
SETTINGS join_algorithm = 'grace_hash', grace_hash_join_initial_buckets = 32;

-- a CROSS join has no keys to partition by: it runs in memory, as in ClickHouse
SELECT count() FROM numbers(300) a CROSS JOIN numbers(200) b SETTINGS join_algorithm = 'grace_hash';

-- the right side of an in-memory join turning into a grace hash join past
-- max_bytes_before_external_join
SELECT count(), sum(b.number) FROM numbers(300000) a JOIN numbers(300000) b ON a.number = b.number * 2
SETTINGS max_bytes_before_external_join = 2000000;

-- limits of the in-memory join
SELECT count() FROM gl JOIN gr ON gl.k = gr.k SETTINGS max_rows_in_join = 1000; -- { serverError SET_SIZE_LIMIT_EXCEEDED }
SELECT count() FROM gl JOIN gr ON gl.k = gr.k SETTINGS max_bytes_in_join = 1000; -- { serverError SET_SIZE_LIMIT_EXCEEDED }

DROP TABLE gl;
DROP TABLE gr;
