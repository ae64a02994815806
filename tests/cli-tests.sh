#!/usr/bin/env bash
# Command-line behaviour of `shale local`: options, stdin data, parameters, exit codes,
# the summary lines. Each check prints nothing on success; failures are listed.
set -u
SHALE=$(realpath "${1:?usage: cli-tests.sh path/to/shale}")
pass=0; fail=0
check() { # name, expected, actual
  if [ "$2" == "$3" ]; then pass=$((pass+1)); else fail=$((fail+1)); printf 'FAIL %s\n  want: %q\n  got:  %q\n' "$1" "$2" "$3"; fi
}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

check "query" "2" "$("$SHALE" local -q 'SELECT 1 + 1')"
check "several statements" $'1\n2' "$("$SHALE" local -q 'SELECT 1; SELECT 2;')"
check "multiple --query" $'1\n2' "$("$SHALE" local -q 'SELECT 1' -q 'SELECT 2')"
check "stdin queries" $'3\n4' "$(printf 'SELECT 3;\nSELECT 4;\n' | "$SHALE" local)"
printf 'SELECT 5;\n-- comment\nSELECT 6\n' > "$tmp/q.sql"
check "queries file" $'5\n6' "$("$SHALE" local --queries-file "$tmp/q.sql")"
check "format flag" '{"x":1}' "$("$SHALE" local --format JSONEachRow -q 'SELECT 1 AS x')"
check "output-format flag" '"x"
1' "$("$SHALE" local --output-format CSVWithNames -q 'SELECT 1 AS x')"
check "setting flag" "3" "$("$SHALE" local --max_threads=3 -q "SELECT getSetting('max_threads')")"
check "setting flag, separate value" "7" "$("$SHALE" local --max_threads 7 -q "SELECT getSetting('max_threads')")"
check "param" $'42\tab' "$("$SHALE" local --param_x=42 --param_s=ab -q 'SELECT {x:UInt32}, {s:String}')"
check "param array" "6" "$("$SHALE" local --param_a='[1,2,3]' -q 'SELECT arraySum({a:Array(UInt8)})')"
check "param value as the next argument" $'7\tcd' "$("$SHALE" local --param_x 7 --param_s cd -q 'SELECT {x:UInt32}, {s:String}')"
check "stdin table with structure" $'b\t4' "$(printf '1\ta\n2\tb\n' | "$SHALE" local --structure 'x UInt8, s String' -q 'SELECT s, x * 2 FROM table ORDER BY x DESC LIMIT 1')"
check "stdin table inferred" "3" "$(printf 'x,s\n1,a\n2,b\n' | "$SHALE" local --input-format CSVWithNames -q 'SELECT sum(x) FROM table')"
check "input()" "3" "$(printf '1\n2\n' | "$SHALE" local -q "SELECT sum(x) FROM input('x UInt32')")"
"$SHALE" local -q 'SELECT nope' 2>"$tmp/err" >/dev/null; rc=$?
check "error exit code" "47" "$rc"
check "error text" "Code: 47. DB::Exception: Unknown expression identifier \`nope\` in scope SELECT nope. (UNKNOWN_IDENTIFIER)" "$(cat "$tmp/err")"
"$SHALE" local -q 'SELECT 1 +' 2>/dev/null >/dev/null; check "syntax error exit code" "62" "$?"
"$SHALE" local -q 'SELECT 1; SELECT nope; SELECT 2' 2>/dev/null >"$tmp/out"; rc=$?
check "stops at first error" "1" "$(cat "$tmp/out")"
check "stops at first error: code" "47" "$rc"
"$SHALE" local --no-such-option 2>/dev/null; check "unknown option" "36" "$?"
"$SHALE" local --nosuchsetting=1 -q 'SELECT 1' 2>"$tmp/err" >/dev/null; check "unknown setting" "115" "$?"
check "help" "Usage: shale local [options] [--query 'SQL']" "$("$SHALE" local --help | head -1)"
"$SHALE" local --time -q 'SELECT number FROM numbers(5)' 2>"$tmp/err" >/dev/null
check "summary line" "1" "$(grep -cE '^5 rows in set\. Elapsed: [0-9]+\.[0-9]{3} sec\. Processed 5\.00 rows, 40\.00 B \([0-9.]+ (thousand |million |billion )?rows/s\., [0-9.]+ [KMGT]?B/s\.\)$' "$tmp/err")"
check "peak memory line" "1" "$(grep -cE '^Peak memory usage: [0-9]+\.[0-9]{2} (B|KiB|MiB|GiB)\.$' "$tmp/err")"
"$SHALE" local --time -q 'SELECT 1' 2>"$tmp/err" >/dev/null
check "one row" "1" "$(grep -cE '^1 row in set\. Elapsed: [0-9.]+ sec\.$' "$tmp/err")"
mkdir -p "$tmp/data"
"$SHALE" local --path "$tmp/data" -q 'SELECT 1' >/dev/null
check "query log persists" "1" "$("$SHALE" local --path "$tmp/data" -q "SELECT count() FROM system.query_log WHERE query = 'SELECT 1'")"
"$SHALE" local --path "$tmp/data" -q "CREATE TABLE log_t (x UInt8, s String) ENGINE = Log; INSERT INTO log_t VALUES (2, 'b'); INSERT INTO log_t VALUES (1, 'a')" >/dev/null
printf 'garbage' >>"$tmp/data/data/default/log_t/data.native" # bytes of an INSERT that never committed
check "Log table persists (committed blocks only)" $'2\tb\n1\ta' "$("$SHALE" local --path "$tmp/data" -q "SELECT * FROM log_t")"
"$SHALE" local --path "$tmp/data" -q "INSERT INTO log_t VALUES (3, 'c')" >/dev/null
check "Log table appends after a torn write" $'2\tb\n1\ta\n3\tc' "$("$SHALE" local --path "$tmp/data" -q "SELECT * FROM log_t")"
"$SHALE" local --path "$tmp/data" -q "TRUNCATE TABLE log_t" >/dev/null
check "Log table truncated" "0" "$("$SHALE" local --path "$tmp/data" -q "SELECT count() FROM log_t")"
# views and materialized views survive a restart (metadata ATTACH VIEW / ATTACH
# MATERIALIZED VIEW, as ClickHouse writes it) and a rename
"$SHALE" local --path "$tmp/data" -q "CREATE TABLE mv_src (x UInt32) ENGINE = MergeTree ORDER BY x; CREATE VIEW v_src AS SELECT x * 2 AS y FROM mv_src; CREATE MATERIALIZED VIEW mv_in ENGINE = MergeTree ORDER BY x AS SELECT x + 100 AS x FROM mv_src; CREATE TABLE mv_dst (x UInt32) ENGINE = MergeTree ORDER BY x; CREATE MATERIALIZED VIEW mv_to TO mv_dst AS SELECT x FROM mv_src" >/dev/null
check "view metadata" "ATTACH VIEW _" "$(head -1 "$tmp/data/metadata/default/v_src.sql")"
check "materialized view metadata" "ATTACH MATERIALIZED VIEW _" "$(head -1 "$tmp/data/metadata/default/mv_in.sql")"
"$SHALE" local --path "$tmp/data" -q "INSERT INTO mv_src VALUES (1), (2); RENAME TABLE mv_in TO mv_in2" >/dev/null
"$SHALE" local --path "$tmp/data" -q "CREATE FUNCTION udf_p AS (a, b) -> a * b + 1; CREATE FUNCTION udf_q AS x -> x" >/dev/null
check "SQL user-defined functions persist" $'7\tCREATE FUNCTION udf_p AS (a, b) -> ((a * b) + 1)' "$("$SHALE" local --path "$tmp/data" -q "DROP FUNCTION udf_q; SELECT udf_p(2, 3), create_query FROM system.functions WHERE name = 'udf_p'")"
check "a dropped SQL user-defined function stays dropped" "0" "$("$SHALE" local --path "$tmp/data" -q "SELECT count() FROM system.functions WHERE name = 'udf_q'")"
check "views after a restart" $'2\n4\n101\n102\n1\n2' "$("$SHALE" local --path "$tmp/data" -q "SELECT y FROM v_src ORDER BY y; SELECT x FROM mv_in2 ORDER BY x; SELECT x FROM mv_dst ORDER BY x")"
"$SHALE" local --path "$tmp/data" -q "INSERT INTO mv_src VALUES (3)" >/dev/null
check "materialized views fire after a restart" $'3\t3' "$("$SHALE" local --path "$tmp/data" -q "SELECT (SELECT count() FROM mv_in2), (SELECT count() FROM mv_to)")"
"$SHALE" local --path "$tmp/data" -q "DROP TABLE mv_in2" >/dev/null
# what shale does not implement is refused, never accepted and ignored (ClickHouse runs these)
for q in "CREATE TABLE ttl_c (d Date TTL d + INTERVAL 1 DAY) ENGINE = MergeTree ORDER BY d" \
         "CREATE TABLE ttl_t (d Date) ENGINE = MergeTree ORDER BY d TTL d + INTERVAL 1 DAY DELETE" \
         "CREATE MATERIALIZED VIEW mv_r REFRESH EVERY 1 HOUR ENGINE = Memory AS SELECT 1"; do
  check "refused: $q" "1" "$("$SHALE" local --path "$tmp/data" -q "$q" 2>&1 | grep -c '(NOT_IMPLEMENTED)')"
done
check "inner table dropped with its view" "0" "$("$SHALE" local --path "$tmp/data" -q "SELECT count() FROM system.tables WHERE name LIKE '.inner%'")"
# Parquet filter push-down: row groups whose statistics exclude the WHERE are not read
# (read_rows in the query log counts only the row groups read; 8 groups of 1000 rows).
pq="$(dirname "$SHALE")/../tests/data/parquet/ch_row_groups.parquet"
[ -f "$pq" ] || pq="$(cd "$(dirname "$0")" && pwd)/data/parquet/ch_row_groups.parquet"
mkdir -p "$tmp/pqlog"
"$SHALE" local --path "$tmp/pqlog" -q "SELECT count() FROM file('$pq') WHERE id = 4321 /*on*/; SELECT count() FROM file('$pq') WHERE id = 4321 /*off*/ SETTINGS input_format_parquet_filter_push_down = 0; SELECT count() FROM file('$pq') WHERE ni = 3 /*nulls*/; SELECT count() FROM file('$pq') WHERE s IN ('k000001', 'k007000') /*in*/" >"$tmp/out"
check "parquet push-down results" $'1\n1\n5\n2' "$(cat "$tmp/out")"
pqlog() { "$SHALE" local --path "$tmp/pqlog" -q "SELECT read_rows FROM system.query_log WHERE type = 'QueryFinish' AND query LIKE '%/*$1*/%'"; }
check "parquet push-down skips row groups" "1000" "$(pqlog on)"
check "parquet push-down off reads all" "8000" "$(pqlog off)"
check "parquet push-down skips all-NULL row groups" "5000" "$(pqlog nulls)"
check "parquet push-down with IN" "2000" "$(pqlog in)"
mkdir -p "$tmp/tmpdir"
TMPDIR="$tmp/tmpdir" "$SHALE" local -q 'SELECT 1' >/dev/null
check "temporary path removed" "0" "$(ls "$tmp/tmpdir" | wc -l)"
"$SHALE" local --path "$tmp/data" -q "SELECT 1 FROM s3('http://127.0.0.1:9/bkt/k.csv', 'AKIDEXAMPLE', 'wJalrXUtnFEMIsecret', 'CSV', 'a Int32')" >/dev/null 2>&1
check "s3 secret masked in the query log" "1" "$("$SHALE" local --path "$tmp/data" -q "SELECT count() FROM system.query_log WHERE query LIKE '%AKIDEXAMPLE%[HIDDEN]%' AND query NOT LIKE '%wJalrXUtnFEMIsecret%'")"
# Tables persist across runs with --path (Memory keeps its definition, not its data).
mkdir -p "$tmp/cat"
"$SHALE" local --path "$tmp/cat" -q "CREATE DATABASE d1; CREATE TABLE d1.t (a UInt32, b String DEFAULT 'x') ENGINE = Memory; CREATE TABLE n (a UInt8) ENGINE = Null; INSERT INTO d1.t (a) VALUES (1)"
check "tables persist" $'d1\tt\tMemory\ndefault\tn\tNull' "$("$SHALE" local --path "$tmp/cat" -q "SELECT database, name, engine FROM system.tables ORDER BY database, name")"
check "persisted definition" "CREATE TABLE d1.t\\n(\\n    \`a\` UInt32,\\n    \`b\` String DEFAULT \\'x\\'\\n)\\nENGINE = Memory" "$("$SHALE" local --path "$tmp/cat" -q "SHOW CREATE TABLE d1.t")"
check "insert and select after restart" $'5\tx' "$("$SHALE" local --path "$tmp/cat" -q "INSERT INTO d1.t (a) VALUES (5); SELECT * FROM d1.t")"
"$SHALE" local --path "$tmp/cat" -q "RENAME TABLE d1.t TO d1.u; DROP TABLE n"
check "rename and drop persist" "d1.u" "$("$SHALE" local --path "$tmp/cat" -q "SELECT database || '.' || name FROM system.tables")"
check "metadata files" "u.sql" "$(ls "$tmp/cat/metadata/d1")"
printf 'ATTACH TABLE _ (a Foo) ENGINE = Memory\n' >"$tmp/cat/metadata/d1/bad.sql"
check "a broken table is skipped with a warning" "1" "$("$SHALE" local --path "$tmp/cat" -q "SELECT count() FROM system.tables" 2>"$tmp/err")"
check "warning names the table" "1" "$(grep -c 'cannot load table d1.bad' "$tmp/err")"
"$SHALE" local --path "$tmp/cat" -q "DROP DATABASE d1"
check "drop database persists" "0" "$("$SHALE" local --path "$tmp/cat" -q "SELECT count() FROM system.tables")"
# inline data of a non-Values format in a script ends at an empty line (ClickHouse's
# clients split scripts so); the statements after it run
check "inline CSV data ends at an empty line" "3	2" "$(printf 'CREATE TABLE ic (a UInt8) ENGINE = Memory;\nINSERT INTO ic FORMAT CSV\n1\n2\n\nSELECT sum(a), count() FROM ic;\n' | "$SHALE" local)"
check "insert format from stdin streams" "100000" "$(seq 1 100000 | "$SHALE" local -q "CREATE TABLE s (a UInt64) ENGINE = Memory" -q "INSERT INTO s FORMAT CSV" -q "SELECT count() FROM s")"
# MergeTree across runs: parts persist, a broken part is detached, tmp_ leftovers removed,
# background merges reduce the part count while the process lives.
mkdir -p "$tmp/mt"
"$SHALE" local --path "$tmp/mt" -q "CREATE TABLE t (k UInt32, s String) ENGINE = MergeTree ORDER BY k; INSERT INTO t VALUES (2, 'b'), (1, 'a')"
check "mergetree persists" $'1\ta\n2\tb' "$("$SHALE" local --path "$tmp/mt" -q "SELECT * FROM t")"
mkdir -p "$tmp/mt/data/default/t/tmp_insert_all_9_9_0"
"$SHALE" local --path "$tmp/mt" -q "SELECT 1" >/dev/null
check "tmp_ directory removed at start" "0" "$(ls "$tmp/mt/data/default/t" | grep -c '^tmp_')"
"$SHALE" local --path "$tmp/mt" -q "INSERT INTO t VALUES (3, 'c')"
part=$(ls "$tmp/mt/data/default/t" | grep '_2_2_0$')
printf 'garbage' >"$tmp/mt/data/default/t/$part/count.txt"
check "broken part detached, table opens" "2" "$("$SHALE" local --path "$tmp/mt" -q "SELECT count() FROM t" 2>"$tmp/err")"
check "broken part warning" "1" "$(grep -c "part $part is broken" "$tmp/err")"
check "broken part moved" "broken_$part" "$(ls "$tmp/mt/data/default/t/detached")"
check "background merges" $'1\t12' "$("$SHALE" local --path "$tmp/mt" -q "CREATE TABLE m (x UInt32) ENGINE = MergeTree ORDER BY x; $(for i in $(seq 1 12); do printf 'INSERT INTO m VALUES (%d); ' $i; done) SELECT sleep(3); SELECT sleep(3); SELECT sleep(3); SELECT count() < 12, sum(rows) FROM system.parts WHERE table = 'm' AND active" | tail -1)"
check "part_log events" $'NewPart\tall_1_1_0\t[]\nNewPart\tall_2_2_0\t[]\nMergeParts\tall_1_2_1\t[\'all_1_1_0\',\'all_2_2_0\']' "$("$SHALE" local --path "$tmp/pl" -q "CREATE TABLE t (x UInt32) ENGINE = MergeTree ORDER BY x; INSERT INTO t VALUES (1); INSERT INTO t VALUES (2); OPTIMIZE TABLE t FINAL; SELECT event_type, part_name, merged_from FROM system.part_log WHERE event_type != 'RemovePart' ORDER BY event_time, event_type, part_name; SELECT count() FROM system.merges WHERE table = 'zz'" | head -3)"
# Primary-key pruning through toDate(ts): rows read (query log) for a key-prefix range.
"$SHALE" local --path "$tmp/mk" -q "CREATE TABLE mk (k UInt8, ts DateTime('UTC'), v UInt32) ENGINE = MergeTree ORDER BY (k, toDate(ts), ts) SETTINGS index_granularity = 1000; INSERT INTO mk SELECT number % 2, toDateTime('2024-01-01 00:00:00', 'UTC') + number * 60, number FROM numbers(200000); SELECT count() FROM mk WHERE k = 1 AND ts >= '2024-05-01 00:00:00' FORMAT Null; SELECT count() FROM mk WHERE k = 1 AND ts = '2024-02-01 00:01:00' FORMAT Null"
check "monotonic key pruning: rows read (exact ranges counted from the index)" $'1000\n1000' "$("$SHALE" local --path "$tmp/mk" -q "SELECT read_rows FROM system.query_log WHERE query LIKE 'SELECT count() FROM mk%' AND type = 'QueryFinish' ORDER BY read_rows DESC")"
# A write error (here the file-size limit) fails the INSERT clearly and leaves the table as
# it was: no partial part, no tmp_ directory, checksums intact.
"$SHALE" local --path "$tmp/fs" -q "CREATE TABLE f (n UInt64, s String) ENGINE = MergeTree ORDER BY n; INSERT INTO f VALUES (1, 'a')"
out=$( (ulimit -f 2048; "$SHALE" local --path "$tmp/fs" -q "INSERT INTO f SELECT number, repeat('x', 100) FROM numbers(1000000) SETTINGS min_insert_block_size_rows = 100000000" 2>&1); echo "rc=$?")
check "write error: clear message" "1" "$(grep -c 'Cannot write to file .*bin at offset [0-9]*: File too large' <<<"$out")"
check "write error: non-zero exit" "0" "$(grep -c '^rc=0$' <<<"$out")"
check "write error: table unchanged" $'1\t1' "$("$SHALE" local --path "$tmp/fs" -q "SELECT count(), sum(n) FROM f")"
check "write error: no tmp_ left" "0" "$(ls "$tmp/fs/data/default/f" | grep -c '^tmp_')"
check "write error: parts verify" "1" "$("$SHALE" local --path "$tmp/fs" -q "CHECK TABLE f" | cut -f2)"
# Vertical merges: a wide table (11+ columns besides the key) with 131072+ rows merges column
# by column (part_log's merge_algorithm); a narrow one, or with the setting off, does not.
"$SHALE" local --path "$tmp/vert" -q "CREATE TABLE w (k UInt32, c1 String, c2 UInt8, c3 UInt16, c4 UInt32, c5 UInt64, c6 Int8, c7 Int16, c8 Int32, c9 Int64, c10 Float32, c11 Float64) ENGINE = MergeTree ORDER BY k; CREATE TABLE n (k UInt32, v String) ENGINE = MergeTree ORDER BY k; CREATE TABLE off AS w ENGINE = MergeTree ORDER BY k SETTINGS enable_vertical_merge_algorithm = 0"
for t in w n off; do
  for i in 1 2; do "$SHALE" local --path "$tmp/vert" -q "INSERT INTO $t SELECT number, toString(number)$( [ $t = n ] || echo ", 1, 2, 3, 4, 5, 6, 7, 8, 9, 10" ) FROM numbers(70000)"; done
  "$SHALE" local --path "$tmp/vert" -q "OPTIMIZE TABLE $t FINAL"
done
check "vertical merge chosen for wide tables" $'n\tHorizontal\noff\tHorizontal\nw\tVertical' "$("$SHALE" local --path "$tmp/vert" -q "SELECT table, merge_algorithm FROM system.part_log WHERE event_type = 'MergeParts' ORDER BY table")"
check "vertical merge: rows and checksums" $'140000\t4901470000\t1' "$("$SHALE" local --path "$tmp/vert" -q "SELECT count(), sum(k + c2 + c11), (SELECT count() FROM system.parts WHERE table = 'w' AND active) FROM w; CHECK TABLE w" | head -1)"
# A part log written with another layout is set aside (part_log.tsv.0), as ClickHouse renames
# a system log table whose structure changed.
printf '1\t2024-01-01\t0\t0\tdefault\tt\tall_1_1_0\tall\t1\t1\t[]\t0\t0\t\n' >"$tmp/vert/system/part_log.tsv"
"$SHALE" local --path "$tmp/vert" -q "INSERT INTO n VALUES (1, 'x')"
check "old part_log layout set aside" $'1\t1\n1' "$("$SHALE" local --path "$tmp/vert" -q "SELECT count(), countIf(event_type = 'NewPart') FROM system.part_log"; ls "$tmp/vert/system" | grep -c 'part_log.tsv.0')"
# INSERT INTO FUNCTION file(…) PARTITION BY: one file per partition value, named by
# {_partition_id}; without the wildcard it is an error, not one mixed file.
mkdir -p "$tmp/pby"
"$SHALE" local -q "INSERT INTO FUNCTION file('$tmp/pby/p_{_partition_id}.tsv', 'TSV') PARTITION BY if(number % 3 = 0, 'a', toString(number % 2)) SELECT number, toString(number) AS s FROM numbers(1000)"
check "partitioned write: files" $'p_0.tsv\np_1.tsv\np_a.tsv' "$(ls "$tmp/pby")"
check "partitioned write: rows" $'p_0.tsv\t333\t166334\np_1.tsv\t333\t166333\np_a.tsv\t334\t166833' \
  "$("$SHALE" local -q "SELECT _file, count(), sum(c1) FROM file('$tmp/pby/*.tsv') GROUP BY _file ORDER BY _file")"
out=$("$SHALE" local -q "INSERT INTO FUNCTION file('$tmp/pby/one.tsv', 'TSV') PARTITION BY number % 2 SELECT number FROM numbers(4)" 2>&1; echo "rc=$?")
check "partitioned write without {_partition_id}: error" "1" "$(grep -c 'requires {_partition_id}.*rc=36' <<<"$(tr '\n' ' ' <<<"$out")")"
# INSERT … FORMAT Values / VALUES with the rows on stdin, as clickhouse-local takes them.
"$SHALE" local --path "$tmp/vals" -q "CREATE TABLE v (a UInt32, s String) ENGINE = MergeTree ORDER BY a"
printf "(3,'z'),(4,'w');\n" | "$SHALE" local --path "$tmp/vals" -q "INSERT INTO v FORMAT Values"
printf "(5,'q')" | "$SHALE" local --path "$tmp/vals" -q "INSERT INTO v VALUES"
out=$(printf "(6,'q'" | "$SHALE" local --path "$tmp/vals" -q "INSERT INTO v VALUES" 2>&1; echo "rc=$?")
check "Values on stdin: rows" $'3\tz\n4\tw\n5\tq' "$("$SHALE" local --path "$tmp/vals" -q "SELECT * FROM v ORDER BY a")"
check "Values on stdin: bad data is an error" "1" "$(grep -c "Cannot parse the data after VALUES: (6,'q'.*rc=62" <<<"$(tr '\n' ' ' <<<"$out")")"
# What shale refuses where ClickHouse would run it (no chdb reference possible): a clear error.
err_name() { "$SHALE" local -q "$1" 2>&1 | grep -o '([A-Z_]*)$'; }
check "materialized view over a UNION: not implemented" "(NOT_IMPLEMENTED)" "$(err_name "CREATE TABLE t (a UInt8) ENGINE = Memory; CREATE MATERIALIZED VIEW mv ENGINE = Memory AS SELECT a FROM t UNION ALL SELECT a + 1 FROM t")"
check "EXPLAIN AST of a window function: not implemented" "(NOT_IMPLEMENTED)" "$(err_name "EXPLAIN AST SELECT sum(x) OVER () FROM t")"
check "EXPLAIN AST of ARRAY JOIN: not implemented" "(NOT_IMPLEMENTED)" "$(err_name "EXPLAIN AST SELECT 1 FROM t ARRAY JOIN a")"
check "EXPLAIN AST of CREATE: not implemented" "(NOT_IMPLEMENTED)" "$(err_name "EXPLAIN AST CREATE TABLE t (a Int8) ENGINE = Memory")"
check "EXPLAIN SYNTAX of a window function: not implemented" "(NOT_IMPLEMENTED)" "$(err_name "EXPLAIN SYNTAX SELECT sum(x) OVER () FROM t")"
check "EXPLAIN QUERY TREE: not implemented" "(NOT_IMPLEMENTED)" "$(err_name "EXPLAIN QUERY TREE SELECT 1")"
check "EXPLAIN SYNTAX with the old analyzer: not implemented" "(NOT_IMPLEMENTED)" "$(err_name "EXPLAIN SYNTAX SELECT 1 SETTINGS enable_analyzer = 0")"
check "EXPLAIN PIPELINE: not implemented" "(NOT_IMPLEMENTED)" "$(err_name "EXPLAIN PIPELINE SELECT number FROM numbers(3)")"
check "view with another column list" "(NOT_IMPLEMENTED)" "$(err_name "CREATE VIEW v (x UInt64) AS SELECT 1")"
check "view with its own column list" "1" "$("$SHALE" local -q "CREATE VIEW v (x UInt8) AS SELECT 1 AS x; SELECT * FROM v")"
check "SHOW CREATE of a view with a subquery" "(NOT_IMPLEMENTED)" "$(err_name "CREATE VIEW v AS SELECT 1 IN (SELECT 1); SHOW CREATE VIEW v")"
check "SHOW CREATE of a view with CASE" "(NOT_IMPLEMENTED)" "$(err_name "CREATE VIEW v AS SELECT CASE WHEN 1 THEN 2 END; SHOW CREATE VIEW v")"
check "SHOW CREATE of a view with an upper-case function" "(NOT_IMPLEMENTED)" "$(err_name "CREATE VIEW v AS SELECT COUNT(); SHOW CREATE VIEW v")"
check "view: FINAL" "(ILLEGAL_FINAL)" "$(err_name "CREATE VIEW v AS SELECT 1; SELECT * FROM v FINAL")"
check "CREATE TABLE … UUID" "(NOT_IMPLEMENTED)" "$(err_name "CREATE TABLE t UUID '1bf65ebb-005b-4046-9d5c-0fbc2ce62d13' (a UInt8) ENGINE = Memory")"
# One process at a time on a data directory (<path>/status is flock'ed, as ClickHouse does):
# a second process fails at start; the file goes when the first exits, and a stale one
# (left by a killed process, no lock) is taken over.
mkdir -p "$tmp/lock"
"$SHALE" local --path "$tmp/lock" -q "SELECT sleep(2)" >/dev/null &
holder=$!
for _ in $(seq 50); do [ -s "$tmp/lock/status" ] && break; sleep 0.1; done
check "status file names its holder" "PID: $holder" "$(head -1 "$tmp/lock/status")"
"$SHALE" local --path "$tmp/lock" -q "SELECT 1" 2>"$tmp/err" >/dev/null; rc=$?
check "second process on a data directory: exit code" "76" "$rc"
check "second process on a data directory: error" "1" "$(grep -c "Cannot lock file .*lock/status. Another server instance in same directory is already running. (CANNOT_OPEN_FILE)" "$tmp/err")"
wait $holder
check "status file removed at exit" "no" "$([ -e "$tmp/lock/status" ] && echo yes || echo no)"
printf 'PID: 1\n' >"$tmp/lock/status"
check "stale status file taken over" "1" "$("$SHALE" local --path "$tmp/lock" -q "SELECT 1")"
# Views and detached tables across restarts of a data directory (metadata "ATTACH VIEW _ …";
# DETACH keeps a table until the next start, DETACH … PERMANENTLY until ATTACH).
D="$tmp/detach"
"$SHALE" local --path "$D" -q "CREATE VIEW v AS SELECT 1 AS one; CREATE TABLE a (k UInt8) ENGINE = MergeTree ORDER BY k;
  CREATE TABLE p (k UInt8) ENGINE = MergeTree ORDER BY k; INSERT INTO a VALUES (1); INSERT INTO p VALUES (2);
  DETACH TABLE a; DETACH TABLE p PERMANENTLY"
check "view after a restart" "1" "$("$SHALE" local --path "$D" -q "SELECT * FROM v")"
check "detached table back after a restart" "1" "$("$SHALE" local --path "$D" -q "SELECT * FROM a")"
"$SHALE" local --path "$D" -q "SELECT * FROM p" 2>/dev/null; check "permanently detached: still detached" "60" "$?"
"$SHALE" local --path "$D" -q "CREATE TABLE p (s String) ENGINE = Memory" 2>"$tmp/err"
check "permanently detached: its name is taken" "1" "$(grep -c 'already exists (detached permanently)' "$tmp/err")"
check "permanently detached: ATTACH brings it back" "2" "$("$SHALE" local --path "$D" -q "ATTACH TABLE p; SELECT * FROM p")"
check "and it stays" "2" "$("$SHALE" local --path "$D" -q "SELECT * FROM p")"
# Merge over a table whose column is an ALIAS: ClickHouse computes it per table; shale says
# NOT_IMPLEMENTED rather than give the column's default.
"$SHALE" local -q "CREATE TABLE a1 (a UInt32, b UInt32 ALIAS a * 2) ENGINE = Memory; INSERT INTO a1 VALUES (1);
  CREATE TABLE am (a UInt32, b UInt32) ENGINE = Merge(currentDatabase(), '^a1$'); SELECT b FROM am" 2>"$tmp/err" >/dev/null
check "Merge over an ALIAS column: NOT_IMPLEMENTED" "48" "$?"
check "Merge over an ALIAS column: it names the column" "1" "$(grep -c 'ALIAS column b of table default.a1' "$tmp/err")"
# CREATE TABLE with a CONSTRAINT: refused (it would change what INSERT accepts), not skipped.
"$SHALE" local -q "CREATE TABLE c (a UInt8, CONSTRAINT x CHECK a > 1) ENGINE = Memory" 2>"$tmp/err"
check "CONSTRAINT: NOT_IMPLEMENTED" "48" "$?"
echo "cli: $pass passed, $fail failed"
[ $fail -eq 0 ]
