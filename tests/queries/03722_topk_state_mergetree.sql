-- topK states of strings and arrays in tables: AggregatingMergeTree merges (OPTIMIZE,
-- FINAL), topKMerge over stored states, RowBinary and Native files of states read back.
DROP TABLE IF EXISTS t_tk_str;
CREATE TABLE t_tk_str (k UInt8, s AggregateFunction(topK(2), String), a AggregateFunction(topK(1), Array(UInt16))) ENGINE = AggregatingMergeTree ORDER BY k;
INSERT INTO t_tk_str SELECT number % 2, topKState(2)(toString(number % 7 * (number % 3))), topKState(1)([toUInt16(number % 5), toUInt16(number % 2)]) FROM numbers(100) GROUP BY number % 2 SETTINGS max_threads = 1;
INSERT INTO t_tk_str SELECT number % 2, topKState(2)(toString(intHash32(number) % 40)), topKState(1)([toUInt16(intHash32(number) % 50)]) FROM numbers(3000) GROUP BY number % 2 SETTINGS max_threads = 1;
INSERT INTO t_tk_str SELECT 2, topKState(2)(toString(number % 9 * number % 4)), topKState(1)([toUInt16(number)]) FROM numbers(40) SETTINGS max_threads = 1;
SELECT k, topKMerge(2)(s), topKMerge(1)(a) FROM t_tk_str GROUP BY k ORDER BY k SETTINGS max_threads = 1;
SELECT k, finalizeAggregation(s), finalizeAggregation(a) FROM t_tk_str FINAL ORDER BY k;
SELECT k, hex(topKMergeState(2)(s)) FROM t_tk_str GROUP BY k ORDER BY k SETTINGS max_threads = 1;
OPTIMIZE TABLE t_tk_str FINAL;
SELECT k, finalizeAggregation(s), finalizeAggregation(a) FROM t_tk_str ORDER BY k;
SELECT topKMerge(2)(s), topKMerge(1)(a) FROM t_tk_str SETTINGS max_threads = 1;
DROP TABLE t_tk_str;
-- RowBinary and Native files of states, read back
INSERT INTO FUNCTION file('data/tk_rb.bin', RowBinary) SELECT number % 3 k, topKState(2)(toString(intHash32(number) % 30)) s, topKWeightedState(1)((number % 4, toString(number % 5)), number % 7) w FROM numbers(2000) GROUP BY k ORDER BY k SETTINGS engine_file_truncate_on_insert = 1, max_threads = 1;
SELECT hex(raw_blob) FROM file('data/tk_rb.bin', RawBLOB);
SELECT k, finalizeAggregation(s), finalizeAggregation(w) FROM file('data/tk_rb.bin', RowBinary, 'k UInt8, s AggregateFunction(topK(2), String), w AggregateFunction(topKWeighted(1), Tuple(UInt8, String), UInt8)');
SELECT topKMerge(2)(s), topKWeightedMerge(1)(w) FROM file('data/tk_rb.bin', RowBinary, 'k UInt8, s AggregateFunction(topK(2), String), w AggregateFunction(topKWeighted(1), Tuple(UInt8, String), UInt8)') SETTINGS max_threads = 1;
INSERT INTO FUNCTION file('data/tk_native.native', Native) SELECT number % 3 k, topKState(2)(toString(intHash32(number) % 30)) s FROM numbers(2000) GROUP BY k ORDER BY k SETTINGS engine_file_truncate_on_insert = 1, max_threads = 1;
SELECT hex(raw_blob) FROM file('data/tk_native.native', RawBLOB);
SELECT k, finalizeAggregation(s) FROM file('data/tk_native.native', Native) ORDER BY k;
DESCRIBE file('data/tk_native.native', Native);
