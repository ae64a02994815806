-- AggregateFunction columns in the formats: raw state bytes (escaped in text formats),
-- states back to back in RowBinary and Native, read back into states.
INSERT INTO FUNCTION file('data/as_tsv.tsv', TSV) SELECT sumState(number) s, minState(toString(number)) m, groupArrayState(number % 3) g FROM numbers(300) SETTINGS engine_file_truncate_on_insert = 1;
SELECT hex(raw_blob) FROM file('data/as_tsv.tsv', RawBLOB);
INSERT INTO FUNCTION file('data/as_csv.csv', CSV) SELECT sumState(number) s, minState(toString(number)) m FROM numbers(300) SETTINGS engine_file_truncate_on_insert = 1;
SELECT hex(raw_blob) FROM file('data/as_csv.csv', RawBLOB);
INSERT INTO FUNCTION file('data/as_json.jsonl', JSONEachRow) SELECT sumState(number) s, minState(toString(number)) m FROM numbers(300) SETTINGS engine_file_truncate_on_insert = 1;
SELECT hex(raw_blob) FROM file('data/as_json.jsonl', RawBLOB);
INSERT INTO FUNCTION file('data/as_rb.bin', RowBinary) SELECT number % 3 k, sumState(number) s, avgState(number) a, groupArrayState(toString(number)) g, argMaxState(toString(number), number) x FROM numbers(20) GROUP BY k ORDER BY k SETTINGS engine_file_truncate_on_insert = 1;
SELECT hex(raw_blob) FROM file('data/as_rb.bin', RawBLOB);
SELECT k, finalizeAggregation(s), finalizeAggregation(a), finalizeAggregation(g), finalizeAggregation(x) FROM file('data/as_rb.bin', RowBinary, 'k UInt8, s AggregateFunction(sum, UInt64), a AggregateFunction(avg, UInt64), g AggregateFunction(groupArray, String), x AggregateFunction(argMax, String, UInt64)');
SELECT sumMerge(s), avgMerge(a), arraySort(groupArrayMerge(g)), argMaxMerge(x) FROM file('data/as_rb.bin', RowBinary, 'k UInt8, s AggregateFunction(sum, UInt64), a AggregateFunction(avg, UInt64), g AggregateFunction(groupArray, String), x AggregateFunction(argMax, String, UInt64)');
INSERT INTO FUNCTION file('data/as_native.native', Native) SELECT number % 3 k, sumState(number) s, avgState(number) a, groupArrayState(toString(number)) g FROM numbers(20) GROUP BY k ORDER BY k SETTINGS engine_file_truncate_on_insert = 1;
SELECT hex(raw_blob) FROM file('data/as_native.native', RawBLOB);
SELECT k, finalizeAggregation(s), finalizeAggregation(a), finalizeAggregation(g) FROM file('data/as_native.native', Native);
DESCRIBE file('data/as_native.native', Native);
SELECT k, finalizeAggregation(s) FROM file('data/as_tsv_in.tsv', TSV, 'k UInt8, s AggregateFunction(sum, UInt64)'); -- { serverError FILE_DOESNT_EXIST }
-- a state cut short in RowBinary
INSERT INTO FUNCTION file('data/as_short.bin', RawBLOB) SELECT unhex('2D000000') SETTINGS engine_file_truncate_on_insert = 1;
SELECT * FROM file('data/as_short.bin', RowBinary, 's AggregateFunction(sum, UInt64)'); -- { serverError CANNOT_READ_ALL_DATA }
-- text formats read back into states
SELECT finalizeAggregation(s), finalizeAggregation(m), length(finalizeAggregation(g)), arraySum(finalizeAggregation(g)) FROM file('data/as_tsv.tsv', TSV, 's AggregateFunction(sum, UInt64), m AggregateFunction(min, String), g AggregateFunction(groupArray, UInt8)');
SELECT finalizeAggregation(s), finalizeAggregation(m) FROM file('data/as_csv.csv', CSV, 's AggregateFunction(sum, UInt64), m AggregateFunction(min, String)');
SELECT finalizeAggregation(s), finalizeAggregation(m) FROM file('data/as_json.jsonl', JSONEachRow, 's AggregateFunction(sum, UInt64), m AggregateFunction(min, String)');
