-- Keys through monotonic functions: (k, toDate(ts), ts) with conditions on ts (results; the
-- rows read are checked in tests/cli-tests.sh, ClickHouse's own pruning here varies by run).
CREATE TABLE mk (k UInt8, ts DateTime('UTC'), v UInt32) ENGINE = MergeTree ORDER BY (k, toDate(ts), ts) SETTINGS index_granularity = 1000;
INSERT INTO mk SELECT number % 2, toDateTime('2024-01-01 00:00:00', 'UTC') + number * 60, number FROM numbers(200000);
SELECT count(), min(ts) FROM mk WHERE k = 1 AND ts >= '2024-05-01 00:00:00';
SELECT count() FROM mk WHERE k = 0 AND ts < '2024-01-03 00:00:00';
SELECT count() FROM mk WHERE k = 1 AND ts = '2024-02-01 00:01:00';
SELECT count() FROM mk WHERE k = 1 AND ts IN ('2024-02-01 00:01:00', '2024-03-01 00:03:00');
SELECT toDateTime64('2021-01-01 00:00:00', 3, 'UTC') >= '2020-01-01', toDateTime64('2021-01-01 00:00:00.5', 3, 'UTC') > '2021-01-01 00:00:00', toDateTime('2021-01-01 03:00:00', 'Europe/Moscow') = '2021-01-01 03:00:00', toDateTime('2021-01-01 00:00:00', 'UTC') = '2021-01-01';
CREATE TABLE p64 (k UInt8, ts DateTime64(3, 'UTC')) ENGINE = MergeTree ORDER BY (k, toDate(ts), ts) SETTINGS index_granularity = 1000;
INSERT INTO p64 SELECT number % 3, toDateTime64('2020-01-01 00:00:00', 3, 'UTC') + number * 97 FROM numbers(100000);
SELECT count(), min(ts) FROM p64 WHERE k = 1 AND ts >= '2020-03-01 12:00:00.250';
