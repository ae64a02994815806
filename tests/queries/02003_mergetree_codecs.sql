-- Column codecs: every codec and chains store and return the same values.
CREATE TABLE c (
    i UInt32 CODEC(Delta(4), ZSTD(1)),
    t DateTime CODEC(DoubleDelta, LZ4),
    f Float64 CODEC(Gorilla),
    g Float32 CODEC(Gorilla, ZSTD),
    u UInt64 CODEC(T64, LZ4HC(9)),
    s String CODEC(ZSTD(3)),
    n Nullable(Int64) CODEC(Delta, LZ4),
    x Int16 CODEC(NONE),
    lc LowCardinality(String) CODEC(LZ4HC),
    d Decimal(18, 4) CODEC(T64)
) ENGINE = MergeTree ORDER BY i SETTINGS index_granularity = 1000;
INSERT INTO c SELECT number * 3, toDateTime('2024-01-01 00:00:00') + number * 60, number / 7, number / 3, number * number, repeat('s', number % 10), if(number % 5 = 0, NULL, -number), number % 1000 - 500, concat('lc', toString(number % 20)), number / 100 FROM numbers(50000);
SELECT count(), sum(i), min(t), max(t), round(sum(f), 3), round(sum(g), 3), sum(u), sum(length(s)), count(n), sum(n), sum(x), uniqExact(lc), sum(d) FROM c;
SELECT * FROM c WHERE i IN (0, 3, 149997) ORDER BY i;
OPTIMIZE TABLE c FINAL;
SELECT count(), sum(i), round(sum(f), 3), sum(u), sum(n), sum(d) FROM c;
CREATE TABLE bad (s String CODEC(Delta)) ENGINE = MergeTree ORDER BY tuple(); -- { serverError BAD_ARGUMENTS }
CREATE TABLE bad (s String CODEC(ZSTD(99))) ENGINE = MergeTree ORDER BY tuple(); -- { serverError ILLEGAL_CODEC_PARAMETER }
CREATE TABLE bad (s String CODEC(Snappy)) ENGINE = MergeTree ORDER BY tuple(); -- { serverError UNKNOWN_CODEC }
