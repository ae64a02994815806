-- Merges of wide tables go column by column (vertical merge): the merged part must hold
-- exactly the rows of a horizontal merge, in every column type. Constants inserted into
-- LowCardinality / Nullable / Array columns are expanded to every row.
CREATE TABLE w (k UInt32, ts DateTime('UTC'), a String, b Nullable(Int64), c Array(UInt16), d LowCardinality(String), e Float64, f UInt8, g String, h Int32, i Date, j Nullable(String), l Array(String), m UInt64) ENGINE = MergeTree PARTITION BY toYYYYMM(ts) ORDER BY (k, ts) SETTINGS index_granularity = 1000;
CREATE TABLE hz AS w ENGINE = MergeTree PARTITION BY toYYYYMM(ts) ORDER BY (k, ts) SETTINGS enable_vertical_merge_algorithm = 0, index_granularity = 1000;
INSERT INTO w SELECT number % 1000, toDateTime('2024-01-01 00:00:00', 'UTC') + number * 7, repeat('x', number % 50), if(number % 3 = 0, NULL, number), range(number % 5), toString(number % 7), number / 4, number % 256, toString(cityHash64(number)), -number, toDate('2024-01-01') + number % 30, if(number % 2 = 0, NULL, toString(number)), [toString(number), 'a'], number * 1000 FROM numbers(70000);
INSERT INTO w SELECT number % 1000, toDateTime('2024-01-01 00:00:00', 'UTC') + number * 5, repeat('y', number % 30), number, range(number % 3), toString(number % 5), number / 8, number % 200, toString(number), number, toDate('2024-01-01') + number % 20, toString(number), [], number FROM numbers(80000);
INSERT INTO w SELECT number % 10, toDateTime('2024-01-15 00:00:00', 'UTC') + number, '', NULL, [], 'c', 0, 0, '', 0, toDate('2024-01-01'), NULL, ['z'], 0 FROM numbers(30000);
INSERT INTO hz SELECT * FROM w;
OPTIMIZE TABLE w FINAL;
OPTIMIZE TABLE hz FINAL;
SELECT count(), sum(k), sum(cityHash64(a)), sum(b), sum(length(c)), sum(cityHash64(d)), sum(e), sum(f), sum(cityHash64(g)), sum(h), sum(toUInt32(i)), count(j), sum(length(l)), sum(m) FROM w;
SELECT count() FROM system.parts WHERE database = currentDatabase() AND table = 'w' AND active;
SELECT (SELECT sum(cityHash64(k, ts, a, b, c, d, e, f, g, h, i, j, l, m)) FROM w) = (SELECT sum(cityHash64(k, ts, a, b, c, d, e, f, g, h, i, j, l, m)) FROM hz);
SELECT k, ts, a, m FROM w WHERE k IN (3, 999) ORDER BY k, ts, a, m LIMIT 3 BY k;
SELECT k, ts, a, b, c, d, j, l FROM w WHERE k = 7 ORDER BY ts, a LIMIT 5;
SELECT d, count() FROM w GROUP BY d ORDER BY d;
