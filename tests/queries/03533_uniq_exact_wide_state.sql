-- uniqExact over Decimal, DateTime64 (SipHash-128 of the value's bytes) and Int128, UInt128,
-- UUID (a HashCRC32 set of the 16-byte values): states byte-identical to ClickHouse's, read back.
SELECT hex(uniqExactState(toDecimal32(number, 2))), hex(uniqExactState(toDateTime64(number, 2))), hex(uniqExactState(toInt128(number))), hex(uniqExactState(toUInt128(number))) FROM numbers(3);
SELECT hex(uniqExactState(toUUID('61f0c404-5cb3-11e7-907b-a6006ad3dba0'))), hex(uniqExactState(toDecimal128(1.5, 3), toInt8(1))), hex(uniqExactState(toDecimal64(2, 1))), hex(uniqExactState(toInt128(-1)));
SELECT hex(uniqExactState(toInt128(number))), hex(uniqExactState(toDecimal32(number, 1))) FROM numbers(0);
SELECT cityHash64(hex(uniqExactState(toInt128(number) * 1000))), cityHash64(hex(uniqExactState(toUInt128(number)))), cityHash64(hex(uniqExactState(toDecimal64(number, 3)))), uniqExact(toDecimal64(number, 3)), cityHash64(hex(uniqExactState(toDateTime64(number, 6)))) FROM numbers(5000);
SELECT cityHash64(hex(uniqExactState(toUUID(concat('00000000-0000-0000-', leftPad(toString(number), 4, '0'), '-', leftPad(toString(number), 12, '0')))))) FROM numbers(3000);
SELECT uniqExact(toDecimal32(number % 100, 2)), uniqExact(toInt128(number % 77)), uniqExact(if(number % 3 = 0, NULL, toDecimal64(number, 1))), hex(uniqExactState(toNullable(toInt128(5)))) FROM numbers(10000);
SELECT number % 3 AS k, uniqExactMerge(s), uniqExactMerge(t) FROM (SELECT number, uniqExactState(toDecimal64(number, 2)) s, uniqExactState(toUInt128(number % 50)) t FROM numbers(3000) GROUP BY number) GROUP BY k ORDER BY k;
SELECT finalizeAggregation(CAST(unhex('036863666865D2A504BE8D583ED71DE9433CB6AC6836AE9AD6A42087DA67F06FAD27CE54FF1D18F720AE20AE8E61FDAE5F'), 'AggregateFunction(uniqExact, Decimal(9, 2))'));
SELECT finalizeAggregation(CAST(unhex('03000000000000000000000000000000000200000000000000000000000000000001000000000000000000000000000000'), 'AggregateFunction(uniqExact, Int128)'));
DROP TABLE IF EXISTS t_agg_uxw;
CREATE TABLE t_agg_uxw (k UInt8, d AggregateFunction(uniqExact, Decimal(18, 3)), u AggregateFunction(uniqExact, UUID)) ENGINE = AggregatingMergeTree ORDER BY k;
INSERT INTO t_agg_uxw SELECT number % 2, uniqExactState(toDecimal64(number, 3)), uniqExactState(toUUID(concat('00000000-0000-0000-0000-', leftPad(toString(number % 40), 12, '0')))) FROM numbers(100) GROUP BY number % 2;
INSERT INTO t_agg_uxw SELECT number % 2, uniqExactState(toDecimal64(number, 3)), uniqExactState(toUUID(concat('00000000-0000-0000-0000-', leftPad(toString(number % 40), 12, '0')))) FROM numbers(50, 100) GROUP BY number % 2;
OPTIMIZE TABLE t_agg_uxw FINAL;
SELECT k, finalizeAggregation(d), finalizeAggregation(u), cityHash64(hex(u)) FROM t_agg_uxw ORDER BY k;
DROP TABLE t_agg_uxw;
