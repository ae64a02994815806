#!/usr/bin/env bash
# Fault-injection tests of shale's S3 client: a throwaway Ceph radosgw (start-ceph.sh) behind
# faultproxy.js. For every fault rule, queries over the proxy must return exactly what the
# same queries return directly; persistent faults must fail with a clear error within the
# retry time budget; SlowDown must engage the shared endpoint limiter; an object overwritten
# during a read must fail the query instead of mixing versions. Skips (exit 0) when radosgw
# or node is missing or radosgw cannot start. Usage: run-fault-tests.sh path/to/shale
set -u
SHALE=$(realpath "${1:?usage: run-fault-tests.sh path/to/shale}")
HERE=$(cd "$(dirname "$0")" && pwd)
PORT=${S3_FAULT_TEST_PORT:-17680}
MON_PORT=${S3_FAULT_TEST_MON_PORT:-13500}
PPORT=$((PORT + 1))
EP="http://127.0.0.1:$PORT"
PX="http://127.0.0.1:$PPORT"
T0=$(date +%s%N)
if ! command -v radosgw >/dev/null || ! command -v ceph-mon >/dev/null; then
  echo "SKIP: radosgw/ceph-mon not installed (scripts/install-deps.sh installs them)"; exit 0
fi
command -v node >/dev/null || { echo "SKIP: node not installed"; exit 0; }
tmp=$(mktemp -d); D="$tmp/rgw"; proxy_pid=
export XDG_CACHE_HOME="$tmp/xdg-cache" # shale local's Parquet metadata cache stays in $tmp
cleanup() {
  [ -n "$proxy_pid" ] && kill "$proxy_pid" 2>/dev/null
  "$HERE/stop-ceph.sh" "$D" >/dev/null 2>&1; rm -rf "$tmp"
}
trap cleanup EXIT
if ! timeout 120 "$HERE/start-ceph.sh" "$D" "$PORT" "$MON_PORT" >"$tmp/start.log" 2>&1; then
  echo "SKIP: radosgw could not be started here:"; tail -5 "$tmp/start.log"; exit 0
fi
node "$HERE/faultproxy.js" "$PPORT" "$PORT" >"$tmp/proxy.log" 2>&1 &
proxy_pid=$!

pass=0; fail=0
check() { # name, expected, actual
  if [ "$2" == "$3" ]; then pass=$((pass+1)); else fail=$((fail+1)); printf 'FAIL %s\n  want: %q\n  got:  %q\n' "$1" "$2" "$3"; fi
}
check_has() { # name, needle, haystack
  if [[ "$3" == *"$2"* ]]; then pass=$((pass+1)); else fail=$((fail+1)); printf 'FAIL %s\n  want substring: %q\n  got:  %q\n' "$1" "$2" "$3"; fi
}
check_le() { # name, value, bound
  if [ "$2" -le "$3" ] 2>/dev/null; then pass=$((pass+1)); else fail=$((fail+1)); printf 'FAIL %s: %s > %s\n' "$1" "$2" "$3"; fi
}
s3c() { curl -sf --aws-sigv4 "aws:amz:us-east-1:s3" --user "TESTKEY:TESTSECRET" -H 'x-amz-content-sha256: UNSIGNED-PAYLOAD' "$@"; }
rules() { curl -sf -X POST --data-binary "$1" "$PX/__faults" >/dev/null || echo "cannot set rules $1"; }
stats() { curl -sf "$PX/__stats"; }
ms_since() { echo $(( ($(date +%s%N) - $1) / 1000000 )); }
K="'TESTKEY', 'TESTSECRET'"
for _ in $(seq 50); do curl -s -o /dev/null "$PX/__stats" && break; sleep 0.1; done

s3c -X PUT "$EP/bkt" >/dev/null || { echo "FAIL: cannot create bucket"; exit 1; }
L="$tmp/local"; mkdir -p "$L"
"$SHALE" local -q "
INSERT INTO FUNCTION file('$L/big.csv', 'CSV') SELECT number, toString(number * 13), number % 97 FROM numbers(700000);
INSERT INTO FUNCTION file('$L/big2.csv', 'CSV') SELECT number, toString(number * 17), number % 89 FROM numbers(700000);
INSERT INTO FUNCTION file('$L/p1.parquet') SELECT number AS id, toString(number) AS s FROM numbers(30000);
INSERT INTO FUNCTION file('$L/p2.parquet') SELECT number + 1e6 AS id, 'x' || toString(number) AS s FROM numbers(40000);
INSERT INTO FUNCTION file('$L/p3.parquet') SELECT number * 3 AS id, '' AS s FROM numbers(20000);
INSERT INTO FUNCTION file('$L/a.csv', 'CSVWithNames') SELECT number AS id, number % 7 AS g FROM numbers(3000);
INSERT INTO FUNCTION file('$L/b.csv', 'CSVWithNames') SELECT number + 5000 AS id, number % 5 AS g FROM numbers(2000);
INSERT INTO FUNCTION file('$L/c.csv', 'CSVWithNames') SELECT number * 2 AS id, 1 AS g FROM numbers(1000)" || exit 1
s3c -T "$L/big.csv" "$EP/bkt/big.csv" >/dev/null
for f in p1 p2 p3; do s3c -T "$L/$f.parquet" "$EP/bkt/pq/$f.parquet" >/dev/null; done
for f in a b c; do s3c -T "$L/$f.csv" "$EP/bkt/csv/$f.csv" >/dev/null; done
BIGSIZE=$(stat -c %s "$L/big.csv")

# Queries, __E__ = endpoint. The big object (~13 MB) is read in 1 MiB ranged GETs by 4
# threads; RawBLOB hashes every byte, so a duplicated or missing range shows.
QBIG="SELECT sipHash64(raw_blob), length(raw_blob) FROM s3('__E__/bkt/big.csv', $K, 'RawBLOB') SETTINGS max_download_buffer_size = 1048576, max_download_threads = 4"
QPQ="SELECT count(), sum(id), sum(length(s)), uniqExact(_file) FROM s3('__E__/bkt/pq/*.parquet', $K)"
QCSV="SELECT _file, count(), sum(id), sum(g) FROM s3('__E__/bkt/csv/*.csv', $K) GROUP BY _file ORDER BY _file"
# Short timeouts and backoff so that the faults cost little time.
FAST="s3_request_timeout_ms = 1000, http_retry_initial_backoff_ms = 20, http_retry_max_backoff_ms = 300"
run() { # query-with-__E__, endpoint, extra settings
  local sql=${1//__E__/$2}
  if [[ "$sql" == *SETTINGS* ]]; then sql="$sql, $3"; else sql="$sql SETTINGS $3"; fi
  # the Parquet metadata cache off: every query reads its footers through the faults
  "$SHALE" local --use_parquet_metadata_cache=0 -q "$sql" 2>&1
}
want_big=$(run "$QBIG" "$EP" "$FAST"); want_pq=$(run "$QPQ" "$EP" "$FAST"); want_csv=$(run "$QCSV" "$EP" "$FAST")
check "direct big object" "$want_big" "$(run "$QBIG" "$EP" "max_download_threads = 1")"
check "through the proxy, no faults" "$want_pq" "$(run "$QPQ" "$PX" "$FAST")"

# ---- transient faults: same results as without ----
t_direct=$(date +%s%N); run "$QBIG" "$EP" "$FAST" >/dev/null; run "$QPQ" "$EP" "$FAST" >/dev/null
run "$QCSV" "$EP" "$FAST" >/dev/null; direct_ms=$(ms_since "$t_direct")
declare -a FAULTS=(
  'slowdown-first-5|[{"method":"GET","action":"error","status":503,"code":"SlowDown","times":5}]'
  'internal-error-20pct|[{"method":"GET","action":"error","status":500,"code":"InternalError","message":"We encountered an internal error. Please try again.","prob":0.2}]'
  '429-first-4|[{"method":"GET","action":"error","status":429,"code":"TooManyRequests","times":4}]'
  'head-503|[{"method":"HEAD","action":"error","status":503,"code":"ServiceUnavailable","times":2}]'
  'list-500|[{"method":"GET","query":"list-type","action":"error","status":500,"code":"InternalError","times":2}]'
  'reset-before-headers|[{"method":"GET","action":"reset","prob":0.25}]'
  'close-before-headers|[{"method":"GET","action":"close","times":4}]'
  'truncate-fin|[{"method":"GET","path":"big","action":"truncate","afterBytes":250000,"times":6}]'
  'reset-mid-body|[{"method":"GET","path":"big","action":"truncate","afterBytes":400000,"mode":"reset","times":6}]'
  'delay-200ms|[{"method":"GET","action":"delay","ms":200,"prob":0.3}]'
  'hang-first-2|[{"method":"GET","path":"big","action":"hang","times":2}]'
)
printf '%-22s %8s %8s\n' fault ms injected > "$tmp/figures"
for f in "${FAULTS[@]}"; do
  name=${f%%|*}; r=${f#*|}
  rules "$r"; t=$(date +%s%N)
  check "$name: big object" "$want_big" "$(run "$QBIG" "$PX" "$FAST")"
  check "$name: parquet glob" "$want_pq" "$(run "$QPQ" "$PX" "$FAST")"
  check "$name: csv glob" "$want_csv" "$(run "$QCSV" "$PX" "$FAST")"
  printf '%-22s %8s %8s\n' "$name" "$(ms_since "$t")" "$(stats | sed 's/.*"injected":{\([^}]*\)}.*/\1/')" >> "$tmp/figures"
  [[ "$(stats)" == *'"injected":{}'* ]] && { fail=$((fail+1)); echo "FAIL $name: the rule injected nothing"; }
done

# A truncated body resumes from the last byte received: no byte is fetched twice.
P="$tmp/path"; mkdir -p "$P"
rules '[{"method":"GET","path":"big","action":"truncate","afterBytes":300000,"times":8}]'
"$SHALE" local --path "$P" -q "${QBIG//__E__/$PX}, $FAST" >/dev/null 2>&1
check "truncation: bytes received = object size, 8 resumptions" "$BIGSIZE	8" \
  "$("$SHALE" local --path "$P" -q "SELECT ProfileEvents.Values[indexOf(ProfileEvents.Names, 'ReadBufferFromS3Bytes')], ProfileEvents.Values[indexOf(ProfileEvents.Names, 'S3Retries')] FROM system.query_log WHERE type = 'QueryFinish' AND query LIKE '%RawBLOB%'" 2>&1)"

# ---- persistent faults: a clear error within the time budget ----
BUDGET="s3_retry_budget_ms = 1500, s3_request_timeout_ms = 500, http_retry_initial_backoff_ms = 50, http_retry_max_backoff_ms = 400"
persistent() { # name, rule, needle, max ms, [endpoint]
  rules "$2"; local t; t=$(date +%s%N)
  local out; out=$(run "$QBIG" "${5:-$PX}" "$BUDGET")
  local ms; ms=$(ms_since "$t")
  LAST=$out
  check_has "$1: message" "$3" "$out"
  check_has "$1: names the object" "/bkt/big.csv" "$out"
  check_le "$1: fails within ${4} ms (took $ms)" "$ms" "$4"
  printf '%-22s %8s  %s\n' "persistent $1" "$ms" "${out:0:150}" >> "$tmp/figures"
}
persistent "always 500" '[{"method":"GET","action":"error","status":500,"code":"InternalError","message":"We encountered an internal error."}]' \
  "We encountered an internal error. (InternalError): HTTP 500" 4000
persistent "always reset" '[{"action":"reset"}]' "retry time budget" 4000
persistent "HEAD always 503" '[{"method":"HEAD","action":"error","status":503,"code":"ServiceUnavailable"}]' "HTTP 503 for HEAD" 4000
persistent "always hang" '[{"action":"hang"}]' "Timeout was reached" 4000
persistent "always truncated" '[{"method":"GET","action":"truncate","afterBytes":100000}]' "gave up after 4 retries" 4000
persistent "refused" '[]' "Couldn't connect to server" 4000 "http://127.0.0.1:$((PORT + 7))"
# A 403 is not retried. Wall time cannot show it on a loaded machine (an ASan process alone
# may take the whole retry budget to start), so the proxy counts the 403s it gave: at most
# one per download thread (max_download_threads = 4), where retries would give several each.
persistent "403 at once" '[{"method":"GET","action":"error","status":403,"code":"AccessDenied","message":"Access Denied"}]' \
  "Access Denied (AccessDenied): HTTP 403" 4000
[[ "$LAST" == *retries* ]] && { fail=$((fail+1)); echo "FAIL 403 was retried: $LAST"; }
n403=$(stats | sed -n 's/.*"error":\([0-9]*\).*/\1/p')
check_le "403 at once: 403s given (one per download thread at most)" "${n403:-99}" 4

# ---- SlowDown under concurrency: the shared endpoint limiter ----
# The "server" answers SlowDown whenever more than 2 GETs are in flight; every GET takes
# 100 ms. 8 download threads: each thread retrying on its own keeps hitting the limit, the
# shared limiter halves the endpoint's budget and the retries stop after the first burst.
SLOW='[{"method":"GET","path":"big","action":"error","status":503,"code":"SlowDown","overInflight":2},{"method":"GET","path":"big","action":"delay","ms":100}]'
QSLOW="${QBIG//max_download_threads = 4/max_download_threads = 8}"
retries() { sed -n 's/.* \([0-9]*\) retries.*/\1/p' <<<"$1"; }
rules "$SLOW"; t=$(date +%s%N)
out=$("$SHALE" local --time -q "${QSLOW//__E__/$PX}, $FAST" 2>&1); lim_ms=$(ms_since "$t")
check "slowdown: result" "$want_big" "$(head -1 <<<"$out")"
lim=$(retries "$out")
rules "$SLOW"; t=$(date +%s%N)
out=$(SHALE_S3_NO_ENDPOINT_LIMITER=1 "$SHALE" local --time -q "${QSLOW//__E__/$PX}, $FAST" 2>&1); nolim_ms=$(ms_since "$t")
check "slowdown without limiter: result" "$want_big" "$(head -1 <<<"$out")"
nolim=$(retries "$out")
check_le "slowdown: retries with the limiter ($lim) <= 8 threads + 4" "${lim:-999}" 12
check_le "slowdown: retries with the limiter ($lim) < half of those without ($nolim)" "$(( ${lim:-999} * 2 ))" "${nolim:-0}"
printf '%-22s %8s  retries %s (without the limiter: %s ms, %s retries)\n' "slowdown-concurrency" "$lim_ms" "$lim" "$nolim_ms" "$nolim" >> "$tmp/figures"

# ---- many Parquet objects opened ahead: the pool's bounds, and one failing object ----
# 48 objects of ~4 MiB (an id column and an incompressible pad), 192 MiB in all; the query
# reads only id (~32 KB per object). With the footers in the Parquet metadata cache (a
# first query fills it) each object costs one GET of its id chunk; every GET takes 200 ms,
# so the pool's requests (16 × max_download_threads per worker, at most 128: one per
# object here) are all in flight at once: the pool's 128 MiB bound counts the chunks a prefetch holds, not
# the objects' sizes (which would stop it at ~32), and nothing else opens more (a worker
# opens an object itself only before the pool reaches it).
"$SHALE" local -q "INSERT INTO FUNCTION file('$L/pad.parquet') SELECT number AS id, randomString(1000) AS pad FROM numbers(4000)" || exit 1
seq 0 47 | xargs -P 8 -I{} curl -sf --aws-sigv4 "aws:amz:us-east-1:s3" --user "TESTKEY:TESTSECRET" \
  -H 'x-amz-content-sha256: UNSIGNED-PAYLOAD' -T "$L/pad.parquet" "$EP/bkt/many/o{}.parquet" -o /dev/null
QMANY="SELECT count(), sum(id) FROM s3('__E__/bkt/many/*.parquet', $K) SETTINGS max_download_threads = 6, max_threads = 2"
want_many=$("$SHALE" local -q "${QMANY//__E__/$EP}" 2>&1)
check "48 objects: result" "192000	383904000" "$want_many"
rules '[]' # the footers are cached by URL: fill the cache through the proxy
check "48 objects through the proxy: result" "$want_many" "$("$SHALE" local -q "${QMANY//__E__/$PX}" 2>&1)"
inflight_of() { sed -n 's/.* \([0-9]*\) in flight at most.*/\1/p' <<<"$1"; }
rules '[{"method":"GET","path":"^/bkt/many/","action":"delay","ms":200}]'
out=$("$SHALE" local --time -q "${QMANY//__E__/$PX}" 2>&1)
check "48 objects opened ahead: result" "$want_many" "$(head -1 <<<"$out")"
check_has "48 objects opened ahead: one GET per object (footers cached)" "S3: 48 GET, 1 LIST" "$out"
inflight=$(inflight_of "$out")
check_le "48 objects opened ahead: in flight ($inflight) reaches the pool's 48, more than the objects' sizes would allow (~32)" 44 "${inflight:-0}"
check_le "48 objects opened ahead: in flight ($inflight) <= 48 objects + 2 workers" "${inflight:-999}" 50
QONE=${QMANY//__E__/$PX}; QONE=${QONE/max_download_threads = 6, max_threads = 2/max_download_threads = 1, max_threads = 1}
out=$("$SHALE" local --time -q "$QONE" 2>&1)
check "max_threads 1, max_download_threads 1: result" "$want_many" "$(head -1 <<<"$out")"
inflight=$(inflight_of "$out")
check_le "max_threads 1, max_download_threads 1: in flight ($inflight) <= the pool's 16 + 1 worker" "${inflight:-999}" 17
check_le "max_threads 1, max_download_threads 1: in flight ($inflight) >= 12 (the pool runs ahead)" 12 "${inflight:-0}"
# one object answers 403 among ~48 requests in flight: a clear error naming it, no result
rules '[{"method":"GET","path":"^/bkt/many/o17\\.parquet","action":"error","status":403,"code":"AccessDenied","message":"Access Denied"},{"method":"GET","path":"^/bkt/many/","action":"delay","ms":200}]'
t=$(date +%s%N)
"$SHALE" local -q "${QMANY//__E__/$PX}" >"$tmp/many.out" 2>"$tmp/many.err"; rc=$?
err=$(cat "$tmp/many.err")
check_has "one object 403 among many in flight: message" "Access Denied (AccessDenied): HTTP 403" "$err"
check_has "one object 403 among many in flight: names the object" "bkt/many/o17.parquet" "$err"
check "one object 403 among many in flight: no result, exit status" "0 1" "$(stat -c %s "$tmp/many.out") $([ "$rc" -ne 0 ] && echo 1)"
check_le "one object 403 among many in flight: fails within 5 s ($(ms_since "$t") ms)" "$(ms_since "$t")" 5000
rules '[]'

# ---- 160 small objects: the pool's 128 requests in flight on one thread (http_multi) ----
# With the footers cached each object costs one GET; every GET takes 300 ms, so the pool
# (16 × max_download_threads 4 × max_threads 2 = 128) has 128 in flight at once (with a
# thread per request it kept 32). A GET whose body is cut on the multi is read again by
# the reader under the retry rules (s3_get_range), counted as one retry.
"$SHALE" local -q "INSERT INTO FUNCTION file('$L/small.parquet') SELECT number AS id FROM numbers(2000)" || exit 1
seq 0 159 | xargs -P 8 -I{} curl -sf --aws-sigv4 "aws:amz:us-east-1:s3" --user "TESTKEY:TESTSECRET" \
  -H 'x-amz-content-sha256: UNSIGNED-PAYLOAD' -T "$L/small.parquet" "$EP/bkt/wide/w{}.parquet" -o /dev/null
QWIDE="SELECT count(), sum(id) FROM s3('$PX/bkt/wide/*.parquet', $K) SETTINGS max_threads = 2, max_download_threads = 4"
check "160 objects: result (fills the footer cache)" "320000	319840000" "$("$SHALE" local -q "$QWIDE" 2>&1)"
rules '[{"method":"GET","path":"^/bkt/wide/","action":"delay","ms":300}]'
out=$("$SHALE" local --time -q "$QWIDE" 2>&1)
check "160 objects, 300 ms per GET: result" "320000	319840000" "$(head -1 <<<"$out")"
check_has "160 objects, 300 ms per GET: one GET per object" "S3: 160 GET, 1 LIST" "$out"
inflight=$(inflight_of "$out")
check_le "160 objects, 300 ms per GET: in flight ($inflight) >= 100" 100 "${inflight:-0}"
check_le "160 objects, 300 ms per GET: in flight ($inflight) <= 128 + 2 workers" "${inflight:-999}" 130
rules '[{"method":"GET","path":"^/bkt/wide/","action":"truncate","afterBytes":100,"times":6},{"method":"GET","path":"^/bkt/wide/","action":"delay","ms":50}]'
out=$("$SHALE" local --time -q "$QWIDE" 2>&1)
check "160 objects, 6 bodies cut on the multi: result" "320000	319840000" "$(head -1 <<<"$out")"
check_has "160 objects, 6 bodies cut on the multi: each read again once" "S3: 166 GET, 1 LIST" "$out"
check "160 objects, 6 bodies cut on the multi: 6 retries" "6" "$(retries "$out")"
rules '[]'

# ---- an object overwritten during a slow read fails, never mixes versions ----
for mode in if-match etag-compare; do
  s3c -T "$L/big.csv" "$EP/bkt/chg.csv" >/dev/null
  if [ $mode = if-match ]; then
    rules '[{"method":"GET","path":"chg","action":"delay","ms":300}]'; needle="failed If-Match"
  else # a server that ignores If-Match: the ETag of each response is compared
    rules '[{"method":"GET","path":"chg","action":"delay","ms":300,"dropHeaders":["if-match"]}]'; needle="came with ETag"
  fi
  ( sleep 0.6; s3c -T "$L/big2.csv" "$EP/bkt/chg.csv" >/dev/null ) & writer=$!
  out=$("$SHALE" local -q "SELECT count(), sum(c1) FROM s3('$PX/bkt/chg.csv', $K, 'CSV', 'c1 UInt64, c2 String, c3 UInt8') SETTINGS max_download_buffer_size = 1048576, max_download_threads = 2" 2>&1)
  wait "$writer"
  check_has "overwritten during the read ($mode): error" "Object $PX/bkt/chg.csv changed while it was being read" "$out"
  check_has "overwritten during the read ($mode): which check" "$needle" "$out"
  [[ "$out" == *$'\t'* ]] && { fail=$((fail+1)); echo "FAIL overwritten ($mode): a result was returned"; }
done
rules '[]'
check "after the overwrite: the new version reads whole" \
  "$("$SHALE" local -q "SELECT count(), sum(c1) FROM file('$L/big2.csv', 'CSV', 'c1 UInt64, c2 String, c3 UInt8')")" \
  "$(run "SELECT count(), sum(c1) FROM s3('__E__/bkt/chg.csv', $K, 'CSV', 'c1 UInt64, c2 String, c3 UInt8')" "$PX" "$FAST")"

echo "direct: 3 queries in $direct_ms ms; under faults (3 queries each):"
cat "$tmp/figures"
echo "s3 fault tests: $pass passed, $fail failed in $(ms_since "$T0") ms"
[ "$fail" -eq 0 ]
