-- External GROUP BY: past max_bytes_before_external_group_by the two-level buckets spill to
-- temporary files and are merged back; results equal the in-memory run. Under the
-- max_memory_usage below the in-memory aggregation of the first query fails, so it
-- completes only by spilling (ClickHouse itself needs more for the String keys).
SET max_bytes_before_external_group_by = 2000000, max_bytes_ratio_before_external_group_by = 0;
SET max_memory_usage = 100000000, group_by_two_level_threshold = 1000;
SET max_threads = 2, max_block_size = 8192;

-- one UInt64 key, plain states
SELECT count(), sum(k), sum(c), sum(s), min(mn), max(mx) FROM (
    SELECT number % 300000 AS k, count() AS c, sum(number) AS s, min(number) AS mn, max(number) AS mx
    FROM numbers(1200000) GROUP BY k);

-- String keys, avg / -If / any over numbers, HAVING, ORDER BY and LIMIT after the merge
SELECT k, c, a, si, an FROM (
    SELECT concat('key-', toString(number % 250000)) AS k, count() AS c, avg(number) AS a,
           sumIf(number, number % 3 = 0) AS si, any(number % 250000) AS an
    FROM numbers(1000000) GROUP BY k HAVING c = 4)
ORDER BY k LIMIT 5 OFFSET 1000
SETTINGS max_memory_usage = 0;

-- two keys, one Nullable: NULL is a group of its own
SELECT count(), countIf(isNull(b)), sum(c), sum(m) FROM (
    SELECT number % 1000 AS a, if(number % 7 = 0, NULL, number % 311) AS b, count() AS c, max(number) AS m
    FROM numbers(1000000) GROUP BY a, b);

-- the same groups with and without spilling
SELECT sum(cityHash64(k, c, s)) FROM (
    SELECT toString(number % 200000) AS k, count() AS c, sum(number) AS s FROM numbers(800000) GROUP BY k);
SELECT sum(cityHash64(k, c, s)) FROM (
    SELECT toString(number % 200000) AS k, count() AS c, sum(number) AS s FROM numbers(800000) GROUP BY k)
SETTINGS max_bytes_before_external_group_by = 0, max_memory_usage = 0;

-- variance and Nullable aggregates (plain states with a flag)
SELECT round(sum(v), 3), sum(n), countIf(isNull(n)) FROM (
    SELECT number % 100000 AS k, varPop(number % 13) AS v, max(if(number % 5 = 0, NULL, number)) AS n
    FROM numbers(600000) GROUP BY k);

-- states that own memory, spilled by their families: groupArray, uniqExact, quantileExact,
-- argMax / min of strings, -If over Nullable, -OrNull
SELECT count(), sum(length(ga)), sum(ux), sum(q), sum(length(am)), sum(length(mn)), countIf(isNull(an)), sum(sa) FROM (
    SELECT number % 100000 AS k, groupArray(number) AS ga, uniqExact(number % 3) AS ux, quantileExact(0.5)(number) AS q,
           argMax(toString(number), number) AS am, min(toString(number)) AS mn,
           anyIf(toNullable(number), number % 2 = 0) AS an, sumOrNull(number) AS sa
    FROM numbers(400000) GROUP BY k);
SELECT k, arraySort(ga), am FROM (
    SELECT number % 50000 AS k, groupArray(number) AS ga, argMax(toString(number), number) AS am
    FROM numbers(200000) GROUP BY k) ORDER BY k LIMIT 3 OFFSET 777;

-- the ratio must be in [0, 1)
SELECT count() FROM numbers(10) GROUP BY number % 2 SETTINGS max_bytes_ratio_before_external_group_by = 1.5; -- { serverError BAD_ARGUMENTS }
