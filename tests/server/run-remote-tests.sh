#!/usr/bin/env bash
# remote() and `shale client` over the native protocol: three `shale server`s on 127.0.0.1
# hold a third of one data set each (the first also holds all of it); every query runs
#   - in shale over remote('127.0.0.1:{A,B,C}', …) and over remote() of the first alone,
#     against shale local over the same rows generated in place;
#   - in chdb (ClickHouse 26.7) over remote() of the three, against chdb locally;
# results must be byte-identical. Then failover, skip_unavailable_shards and errors, and
# `shale client`: queries, formats, parameters, settings, INSERT from stdin, errors and
# exit codes. Every wait is bounded; the servers are stopped at the end.
set -u
SHALE=$(realpath "${1:?usage: run-remote-tests.sh path/to/shale}")
HERE=$(cd "$(dirname "$0")" && pwd)
WORK=$(mktemp -d)
CHDB="$HERE/../queries/node_modules/chdb"
[ -d "$CHDB" ] || { echo "chdb is not installed (tests/queries/node_modules/chdb)"; exit 1; }
. "$HERE/lib.sh" # free_port, stop_pids, check, has, chdb, nodes_*
PIDS=()
cleanup() {
  chdb_stop
  stop_pids "${PIDS[@]}"
  rm -rf "$WORK"
}
trap cleanup EXIT
chdb_start || { echo "cannot start chdb"; exit 1; }
fail=0; passed=0
nodes_ports 3
nodes_start "$WORK" 3
DEAD=$(free_port)

COLS="k UInt64, s String, n Nullable(Int32), d Decimal(18,4), f Float64, dt Date, tm DateTime('UTC'), lc LowCardinality(String), a Array(Int32), e Enum8('x'=1,'y'=2)"
SEL="SELECT number AS k, concat('s', toString(number)) AS s, CAST(if(number % 4 = 0, NULL, toInt32(number) - 10) AS Nullable(Int32)) AS n, toDecimal64(number / 8, 4) AS d, number / 4 AS f, toDate('2024-01-01') + number AS dt, toDateTime('2024-01-01 00:00:00', 'UTC') + number * 3600 AS tm, CAST(toString(number % 3) AS LowCardinality(String)) AS lc, CAST(range(number % 4) AS Array(Int32)) AS a, CAST(if(number % 2, 'x', 'y') AS Enum8('x' = 1, 'y' = 2)) AS e FROM numbers(30)"
sql() { # HTTP_PORT SQL
  local out; out=$(curl -sS --max-time 60 "http://127.0.0.1:$1/" --data-binary "$2")
  [ -z "$out" ] || { echo "setup failed: $2: $out"; exit 1; }
}
for n in 0 1 2; do
  sql "${HTTP[$n]}" "CREATE TABLE t ($COLS) ENGINE = MergeTree ORDER BY k"
  sql "${HTTP[$n]}" "INSERT INTO t SELECT * FROM ($SEL) WHERE k % 3 = $n"
done
sql "${HTTP[0]}" "CREATE TABLE full ($COLS) ENGINE = MergeTree ORDER BY k"
sql "${HTTP[0]}" "INSERT INTO full $SEL"
THREE="remote('127.0.0.1:{${TCP[0]},${TCP[1]},${TCP[2]}}', default.t)"
ONE="remote('127.0.0.1:${TCP[0]}', default, full)"
LOCAL="($SEL)"


QUERIES=(
  "SELECT count(), sum(k), avg(f), min(s), max(dt), sum(d), countIf(n IS NULL) FROM \$T"
  "SELECT * FROM \$T ORDER BY k LIMIT 5"
  "SELECT k, s, n FROM \$T WHERE k IN (3, 17, 25) OR s = 's4' ORDER BY k"
  "SELECT lc, count(), sum(n), arraySort(groupArray(k)), uniqExact(e) FROM \$T GROUP BY lc ORDER BY lc"
  "SELECT a, count(), max(tm) FROM \$T WHERE k > 5 AND k <= 27 GROUP BY a ORDER BY a"
  "SELECT quantileExact(k), median(f), any(e) FROM \$T WHERE e = 'x' AND lc != '1'"
  "SELECT DISTINCT lc FROM \$T ORDER BY lc"
  "SELECT t1.k, t2.s FROM \$T AS t1 JOIN \$T AS t2 ON t1.k = t2.k + 1 WHERE t1.k < 6 ORDER BY t1.k"
  "SELECT k FROM \$T WHERE s LIKE 's2%' AND k NOT IN (20, 21) ORDER BY k DESC LIMIT 3"
  "SELECT count() FROM \$T"
  "SELECT e, sum(k) FROM \$T GROUP BY e WITH TOTALS ORDER BY e"
)
# ClickHouse as the initiator asks the shards for aggregate states (stage WithMergeableState):
# the queries whose aggregates shale has states for run in chdb over the three shale
# servers too; the others (quantileExact, uniqExact, …) get a clear error naming the
# aggregate (checked below).
for q in "${QUERIES[@]}"; do
  ref=$("$SHALE" local -q "${q//\$T/$LOCAL}" 2>&1)
  check "shale remote(3 shards): $q" "$ref" "$("$SHALE" local -q "${q//\$T/$THREE}" 2>&1)"
  check "shale remote(1 server): $q" "$ref" "$("$SHALE" local -q "${q//\$T/$ONE}" 2>&1)"
  echo "$q" | grep -qE 'quantile|median|uniqExact|groupUniqArray|DISTINCT' && continue
  cref=$(chdb "${q//\$T/$LOCAL}")
  check "chdb remote(3 shale shards): $q" "$cref" "$(chdb "${q//\$T/$THREE}")"
done

# Aggregating queries split between shards and initiator (WithMergeableState), with ClickHouse
# (chdb) and shale as the initiator: byte-identical to the same query over all the rows.
# uniq joins in when shale has its state (func/agg/uniq.c); until then its error is checked.
UNIQ="uniq(s), "
"$SHALE" local -q "SELECT uniqState(toString(number)) FROM numbers(2)" >/dev/null 2>&1 || UNIQ=""
AGGQ=(
  "SELECT lc, count(), sum(k), avg(f), ${UNIQ}min(s), max(tm), any(lc), argMax(s, k), groupArray(k) FROM \$T GROUP BY lc ORDER BY lc"
  "SELECT count(), sum(n), avg(d), min(dt), max(s), sum(f), anyLast(toString(k > 100)) FROM \$T"
  "SELECT k % 4 AS m, count() AS c, sum(k) FROM \$T WHERE s != 's7' GROUP BY m HAVING c > 5 ORDER BY m"
  "SELECT e, lc, sum(k) AS total, count() FROM \$T GROUP BY e, lc ORDER BY total DESC, e LIMIT 3"
  "SELECT dt, avg(f) FROM \$T WHERE k >= 10 AND k < 20 GROUP BY dt ORDER BY avg(f) DESC LIMIT 4"
  "SELECT n, count() FROM \$T GROUP BY n ORDER BY n LIMIT 6"
  "SELECT sum(k) / count() + 1 AS r, max(k) - min(k) FROM \$T WHERE e = 'y'"
  "SELECT count() FROM \$T WHERE k > 100"
  "SELECT lc, count() FROM \$T WHERE k > 100 GROUP BY lc"
  "SELECT e, argMin(k, s), min(a), max(a) FROM \$T GROUP BY e ORDER BY e"
  "SELECT lc, sum(k) FROM \$T GROUP BY lc WITH TOTALS ORDER BY lc"
  "SELECT lc, e, count() FROM \$T GROUP BY lc, e WITH ROLLUP ORDER BY lc, e, count()"
  "SELECT lc, countIf(k > 10), sumIf(k, e = 'x') FROM \$T GROUP BY lc ORDER BY lc"
  "SELECT lc, count() FROM \$T GROUP BY lc ORDER BY lc LIMIT 1, 1"
  "SELECT lc, uniqCombined(k), uniqCombined64(s), uniqCombined(12)(f), uniqHLL12(s), uniqHLL12(k) FROM \$T GROUP BY lc ORDER BY lc"
  "SELECT uniqCombined(k, s), uniqHLL12(dt), quantileTDigest(k), quantilesTDigest(0.1, 0.9)(f) FROM \$T"
  "SELECT lc, sumMap(a, a), minMap([e], [k]), maxMap([k % 5], [f]), sumMap(map(e, k)), sumMapWithOverflow([k % 3], [toUInt8(k * 20)]) FROM \$T GROUP BY lc ORDER BY lc"
  "SELECT sumMap(map(s, k)), minMap(map(s, d)), maxMap([dt], [n]) FROM \$T"
)
for q in "${AGGQ[@]}"; do
  cref=$(chdb "${q//\$T/$LOCAL}")
  check "chdb remote(3 shale shards), split: $q" "$cref" "$(chdb "${q//\$T/$THREE}")"
  check "shale remote(3 shards), split: $q" "$cref" "$("$SHALE" local -q "${q//\$T/$THREE}" 2>&1)"
  check "shale remote(1 server), split: $q" "$cref" "$("$SHALE" local -q "${q//\$T/$ONE}" 2>&1)"
done
# The shards did aggregate (the initiator sent them GROUP BY at WithMergeableState).
sql "${HTTP[1]}" "SYSTEM FLUSH LOGS"
check "shale's initiator sent the aggregation to the shards" "1" "$(curl -sS "http://127.0.0.1:${HTTP[1]}/" --data-binary "SELECT count() > 0 FROM system.query_log WHERE query LIKE 'SELECT \`e\` AS \`e\`, \`lc\` AS \`lc\`, sum(\`k\`)%GROUP BY%'")"
# An aggregate without a state in shale: chdb gets a clear error naming it; shale as the
# initiator runs it over the shards' rows (uniq of arrays has no state yet).
out=$(chdb "SELECT uniq([toString(k)]) FROM $THREE")
check "chdb: an aggregate whose state shale lacks" "yes" "$(echo "$out" | grep -q 'NOT_IMPLEMENTED' && echo "$out" | grep -q 'uniq' && echo yes)"
q="SELECT lc, count(DISTINCT e), uniqExact(k) FROM \$T GROUP BY lc ORDER BY lc"
check "shale remote(3 shards), DISTINCT aggregate by rows: $q" "$(chdb "${q//\$T/$LOCAL}")" "$("$SHALE" local -q "${q//\$T/$THREE}" 2>&1)"
q="SELECT k, count() FROM \$T GROUP BY k ORDER BY count() DESC, k LIMIT 2"
out=$("$SHALE" local -q "${q//\$T/$THREE}" 2>&1)
check "shale remote(3 shards), a column outside GROUP BY" "$("$SHALE" local -q "${q//\$T/$LOCAL}" 2>&1)" "$out"
q="SELECT s, count() FROM \$T GROUP BY k"
check "shale remote(3 shards), NOT_AN_AGGREGATE" "215" "$("$SHALE" local -q "${q//\$T/$THREE}" >/dev/null 2>&1; echo $?)"

# The query's changed settings reach the shards (a view there reads one).
sql "${HTTP[2]}" "CREATE VIEW vs AS SELECT getSetting('max_block_size') AS x"
check "changed settings go to the shards" "1234" "$("$SHALE" local -q "SELECT * FROM remote('127.0.0.1:${TCP[2]}', default.vs) SETTINGS max_block_size = 1234" 2>&1)"

# Table functions as the target, addresses with replicas, failover and unavailable shards.
check "remote numbers()" "$(printf '0\n1\n2')" "$("$SHALE" local -q "SELECT * FROM remote('127.0.0.1:${TCP[1]}', numbers(3))" 2>&1)"
check "failover to the next replica" "30" "$("$SHALE" local -q "SELECT count() FROM remote('127.0.0.1:{$DEAD|${TCP[0]}}', default.full)" 2>&1)"
check "replicas with |" "30" "$("$SHALE" local -q "SELECT count() FROM remote('127.0.0.1:$DEAD|127.0.0.1:${TCP[0]}', 'default.full')" 2>&1)"
check "skip_unavailable_shards" "20" "$("$SHALE" local -q "SELECT count() FROM remote('127.0.0.1:{${TCP[1]},$DEAD,${TCP[2]}}', default.t) SETTINGS skip_unavailable_shards = 1" 2>&1)"
out=$("$SHALE" local -q "SELECT count() FROM remote('127.0.0.1:{${TCP[1]},$DEAD}', default.t)" 2>&1); rc=$?
check "an unavailable shard fails the query" "23 Code: 279" "$rc ${out:0:9}"
out=$("$SHALE" local -q "SELECT * FROM remote('127.0.0.1:${TCP[0]}', default.nope)" 2>&1); rc=$?
check "the shard's error reaches the initiator" "60 yes" "$rc $(echo "$out" | grep -q "Received from 127.0.0.1:${TCP[0]}. DB::Exception: Table default.nope does not exist" && echo yes)"
out=$("$SHALE" local -q "SELECT * FROM remoteSecure('127.0.0.1:${TCP[0]}', system.one)" 2>&1); rc=$?
check "remoteSecure" "48" "$rc"
# INSERT INTO FUNCTION remote(): by position, cast to the shard's types, one shard.
sql "${HTTP[1]}" "CREATE TABLE dst ($COLS) ENGINE = MergeTree ORDER BY k"
"$SHALE" local -q "INSERT INTO FUNCTION remote('127.0.0.1:$DEAD|127.0.0.1:${TCP[1]}', default.dst) SELECT * FROM ($SEL)" 2>&1
"$SHALE" local -q "INSERT INTO FUNCTION remote('127.0.0.1:${TCP[1]}', default, dst) (s, k) SELECT 'extra', 1000 + number FROM numbers(100000)" 2>&1
q="SELECT count(), sum(k), max(s), sum(n), max(tm), arraySort(groupUniqArray(e)) FROM \$T"
EXP_T="(SELECT * FROM ($SEL) UNION ALL SELECT 1000 + number, 'extra', CAST(NULL AS Nullable(Int32)), toDecimal64(0, 4), toFloat64(0), toDate('1970-01-01'), toDateTime(0, 'UTC'), CAST('' AS LowCardinality(String)), CAST([] AS Array(Int32)), CAST('x' AS Enum8('x' = 1, 'y' = 2)) FROM numbers(100000))"
DST_T="remote('127.0.0.1:${TCP[1]}', default.dst)"
check "INSERT INTO FUNCTION remote" "$(chdb "${q//\$T/$EXP_T}")" "$("$SHALE" local -q "${q//\$T/$DST_T}" 2>&1)"
out=$("$SHALE" local -q "INSERT INTO FUNCTION remote('127.0.0.1:{${TCP[0]},${TCP[1]}}', default.dst) SELECT * FROM ($SEL)" 2>&1); rc=$?
check "INSERT INTO FUNCTION remote over two shards" "48" "$rc"
out=$("$SHALE" local -q "INSERT INTO FUNCTION remote('127.0.0.1:${TCP[1]}', default.dst) SELECT 1" 2>&1); rc=$?
check "INSERT INTO FUNCTION remote, wrong column count" "20" "$rc"
out=$("$SHALE" local -q "SELECT * FROM remote('127.0.0.1:{1..', system.one)" 2>&1); rc=$?
check "bad addresses" "36" "$rc"

# shale client
C=("$SHALE" client --port "${TCP[0]}")
check "client TSV" "$(printf '0\ts0\n1\ts1')" "$("${C[@]}" -q "SELECT k, s FROM full ORDER BY k LIMIT 2" 2>&1)"
check "client --format" "$(printf '"k","s"\n0,"s0"')" "$("${C[@]}" --format CSVWithNames -q "SELECT k, s FROM full ORDER BY k LIMIT 1" 2>&1)"
check "client FORMAT clause" '{"k":0,"d":0}' "$("${C[@]}" -q "SELECT k, d FROM full ORDER BY k LIMIT 1 FORMAT JSONEachRow" 2>&1)"
out=$("${C[@]}" -q "SELECT 1 FORMAT JSON SETTINGS output_format_json_quote_64bit_integers = 1" 2>&1); rc=$?
check "client refuses format settings it would not apply" "48" "$rc"
check "client params" "$(printf "5\tit\\\\'s")" "$("${C[@]}" -q "SELECT {x:UInt8} + 1, {s:String}" --param_x=4 "--param_s=it's" 2>&1)"
check "client settings" "1" "$("${C[@]}" --max_threads=1 -q "SELECT getSetting('max_threads') = 1" 2>&1)"
check "client multiquery from stdin" "$(printf '1\n2')" "$(printf 'SELECT 1;\nSELECT 2;\n' | "${C[@]}" -n 2>&1)"
printf 'SELECT 3;\n' > "$WORK/q.sql"
check "client --queries-file" "3" "$("${C[@]}" --queries-file "$WORK/q.sql" 2>&1)"
"${C[@]}" -q "CREATE TABLE ci (x UInt32, y String) ENGINE = MergeTree ORDER BY x"
printf '1\ta\n2\tb\n' | "${C[@]}" -q "INSERT INTO ci FORMAT TSV"
printf '{"x":3,"y":"c"}\n' | "${C[@]}" --compression -q "INSERT INTO ci FORMAT JSONEachRow"
python3 -c "import sys; [sys.stdout.write(f'{i},v{i}\n') for i in range(10, 200010)]" | "${C[@]}" -q "INSERT INTO ci FORMAT CSV"
check "client INSERT from stdin" "$(printf '200003\t20001900006\n1\ta\n2\tb\n3\tc')" "$("${C[@]}" --compression -q "SELECT count(), sum(x) FROM ci; SELECT * FROM ci WHERE x < 10 ORDER BY x" 2>&1)"
out=$(printf '1\tx\nbad\ty\n' | "${C[@]}" -q "INSERT INTO ci FORMAT TSV" 2>&1); rc=$?
check "client bad stdin data" "6 Code: 6. DB::Exception: Cannot parse" "$rc ${out:0:36}"
out=$("${C[@]}" -q "SELECT * FROM nope" 2>&1); rc=$?
check "client server error" "60 $(printf 'Received exception from server (version 26.7.1):\nCode: 60. DB::Exception: Table default.nope does not exist. (UNKNOWN_TABLE)')" "$rc $out"
out=$("${C[@]}" -q "SELECT 1; SELECT 1 FROM; SELECT 2" 2>&1); rc=$?
check "client stops at the first error" "62 1 no2" "$rc $(echo "$out" | head -1) $(echo "$out" | grep -qx 2 && echo has2 || echo no2)"
out=$("${C[@]}" -q "SELECT 1" --no_such_setting=1 2>&1); rc=$?
check "client unknown setting" "115" "$rc"
out=$("$SHALE" client --port "$DEAD" -q "SELECT 1" 2>&1); rc=$?
check "client connection refused" "210 Code: 210. DB::Exception: Cannot connect" "$rc ${out:0:40}"
out=$("${C[@]}" --user nobody -q "SELECT 1" 2>&1); rc=$?
check "client unknown user" "4" "$rc" # AUTHENTICATION_FAILED 516 % 256
check "client -t" "1 yes" "$("${C[@]}" -t -q "SELECT 1" 2>"$WORK/t.err") $(grep -qE '^[0-9]+\.[0-9]{3}$' "$WORK/t.err" && echo yes)"
check "client --database" "30" "$("$SHALE" client --port "${TCP[0]}" -d default -q "SELECT count() FROM full" 2>&1)"

# shale client's FORMAT Native passes the server's blocks on (decoding only LowCardinality,
# AggregateFunction and Nothing): the bytes must be shale local's for the same table and
# query — every type, several blocks, strings longer than the read buffers, both with and
# without compression. The rows are made once and inserted into the server and a local table.
EVERY_DDL="CREATE TABLE every (k UInt32, i8 Int8, i16 Int16, i32 Int32, i64 Int64, i128 Int128, u8 UInt8, u16 UInt16, u64 UInt64, u128 UInt128, f32 Float32, f64 Float64, b Bool, s String, fs FixedString(3), d Date, d32 Date32, dt DateTime('UTC'), dt64 DateTime64(3, 'UTC'), e8 Enum8('a' = 1, 'b' = 2), e16 Enum16('x' = 1000, 'y' = 2000), dec32 Decimal(9, 2), dec64 Decimal(18, 4), dec128 Decimal(38, 10), u UUID, ip4 IPv4, ip6 IPv6, ns Nullable(String), ni Nullable(Int64), lc LowCardinality(String), lcn LowCardinality(Nullable(String)), a Array(Int32), as Array(String), aa Array(Array(Nullable(String))), alc Array(LowCardinality(String)), t Tuple(String, Int32, Nullable(Float64)), tlc Tuple(LowCardinality(String), UInt8), st AggregateFunction(sum, UInt64)) ENGINE = MergeTree ORDER BY k"
EVERY_ROWS="SELECT number, toInt8(number), toInt16(number * 7), toInt32(number * 1000003), toInt64(number) * -99991, toInt128(number) * 170141183460469231, number % 256, number % 65536, number * 1000000007, toUInt128(number) * 18446744073709551, number / 3, number / 7, number % 2 = 0, if(number % 97 = 0, repeat('long', 5000 + number), repeat(char(97 + number % 26), number % 300)), substring(toString(number * 31), 1, 3), toDate('2020-01-01') + number, toDate32('1960-01-01') + number, toDateTime('2024-01-01 00:00:00', 'UTC') + number * 37, toDateTime64('2024-01-01 00:00:00.000', 3, 'UTC') + toIntervalMillisecond(number * 1500), if(number % 3 = 0, 'a', 'b'), if(number % 5 = 0, 'x', 'y'), toDecimal32(number / 9, 2), toDecimal64(number / 11, 4), toDecimal128(number / 13, 10), toUUID(concat('00000000-0000-4000-8000-', leftPad(hex(number), 12, '0'))), toIPv4(number * 16777259), toIPv6(concat('2001:db8::', hex(number % 65536))), if(number % 4 = 0, NULL, toString(number)), if(number % 5 = 0, NULL, toInt64(number) - 50), toString(number % 7), if(number % 6 = 0, NULL, toString(number % 5)), range(number % 5), arrayMap(x -> repeat('q', x), range(number % 4)), [[toString(number), NULL], []], arrayMap(x -> toString(x % 3), range(number % 3)), (toString(number), toInt32(number) - 5, if(number % 2 = 0, NULL, number / 2)), (toString(number % 4), number % 200), sumState(number) FROM numbers(5000) GROUP BY number"
"$SHALE" local --path "$WORK/gen" -q "$EVERY_DDL; INSERT INTO every $EVERY_ROWS"
"$SHALE" local --path "$WORK/gen" -q "SELECT * FROM every FORMAT Native" > "$WORK/every.native"
"$SHALE" local --path "$WORK/local" -q "$EVERY_DDL"
"$SHALE" local --path "$WORK/local" -q "INSERT INTO every FORMAT Native" < "$WORK/every.native"
"${C[@]}" -q "$EVERY_DDL"
"${C[@]}" -q "INSERT INTO every FORMAT Native" < "$WORK/every.native"
# One part each side, so that reading in the table's order gives the same blocks.
"$SHALE" local --path "$WORK/local" -q "OPTIMIZE TABLE every FINAL"
"${C[@]}" -q "OPTIMIZE TABLE every FINAL"
native_same() { # NAME QUERY [client options]
  local name=$1 q=$2; shift 2
  local lq=$q; [ "${1:-}" = --format ] && lq="$q FORMAT $2" # the client's --format, for shale local
  "$SHALE" local --path "$WORK/local" -q "$lq" > "$WORK/want.native"
  "${C[@]}" "$@" -q "$q" > "$WORK/got.native"
  check "$name" "$(md5sum < "$WORK/want.native") $(wc -c < "$WORK/want.native")" \
    "$(md5sum < "$WORK/got.native") $(wc -c < "$WORK/got.native")"
}
native_same "client Native = local, every type, ordered" "SELECT * FROM every ORDER BY k SETTINGS max_block_size = 777 FORMAT Native"
native_same "client Native = local, every type, compressed" "SELECT * FROM every ORDER BY k SETTINGS max_block_size = 1500 FORMAT Native" --compression
native_same "client --format Native = local, table order" "SELECT * FROM every SETTINGS max_threads = 1" --format Native
native_same "client Native = local, Map, Nothing, empty block" "SELECT number AS k, map(toString(number % 10), [toInt32(number), NULL]) AS m, [] AS e, NULL AS n, CAST([(toString(number), [toString(number % 3)])] AS Array(Tuple(String, Array(LowCardinality(String))))) AS x FROM numbers(3000) WHERE number != 1500 SETTINGS max_block_size = 1000 FORMAT Native"
native_same "client Native = local, no rows" "SELECT * FROM every WHERE k > 1000000 FORMAT Native"
# Blocks of about 3 MiB: several 1 MiB frames and pieces, sent by the connection's sending
# thread (compressed there too), read back in frames decompressed straight into the buffer.
BIG="SELECT number AS k, repeat(toString(number % 10), number % 300) AS s FROM numbers(60000) SETTINGS max_block_size = 20000 FORMAT Native"
native_same "client Native = local, large blocks" "$BIG"
native_same "client Native = local, large blocks, compressed" "$BIG" --compression
BIG_REMOTE="SELECT number AS k, repeat(toString(number % 10), number % 300) AS s FROM remote('127.0.0.1:${TCP[1]}', numbers(60000)) SETTINGS max_block_size = 20000 FORMAT Native"
check "remote(), large blocks = local" "$("$SHALE" local -q "$BIG" | md5sum)" \
  "$("$SHALE" local -q "$BIG_REMOTE" 2>&1 | md5sum)"
check "client Native, every type: the rows are there" "5000" \
  "$("${C[@]}" -q "SELECT * FROM every FORMAT Native" | "$SHALE" local --input-format Native -q "SELECT count() FROM table" 2>&1)"

for n in 0 1 2; do curl -s "http://127.0.0.1:${HTTP[$n]}/ping" | grep -q Ok || { echo "FAIL: server $n is gone"; fail=1; }; done
nodes_stop
if grep -q "ERROR: AddressSanitizer\|ERROR: LeakSanitizer\|runtime error" "$WORK"/s*.log; then
  echo "FAIL: sanitizer report"; cat "$WORK"/s*.log; fail=1
fi
echo "$passed passed, $fail failed"
[ $fail = 0 ] && echo "remote() and client tests passed"
exit $fail
