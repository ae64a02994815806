#!/usr/bin/env bash
# Tests of url(), of the schema inference cache (file(), s3(), url()) and of the pruning
# of objects by _path/_file predicates, against a local HTTP server (tests/url/serve.py:
# byte ranges, ETags, a minimal S3 listing for s3(url, NOSIGN)). Expected results were
# produced by ClickHouse 26.7 (chdb) against the same server. Every request the server
# receives is logged, which is how the tests count GETs.
set -u
SHALE=$(realpath "${1:?usage: run-url-tests.sh path/to/shale}")
HERE=$(cd "$(dirname "$0")" && pwd)
command -v python3 >/dev/null || { echo "SKIP: python3 not installed"; exit 0; }
tmp=$(mktemp -d)
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done; rm -rf "$tmp"; }
trap cleanup EXIT

W="$tmp/www"; mkdir -p "$W/data" "$W/bkt/many" "$W/files"
printf 'id,name\n1,a\n2,b\n' > "$W/data/x.csv"
printf 'id,name,z\n1,a,3.5\n' > "$W/data/x_v2.csv"
for i in 1 2 3; do printf 'a,b\n%d,x%d\n' $i $i > "$W/data/f$i.csv"; done
printf 'a,b\n9,gz\n' | gzip > "$W/data/z.csv.gz"
printf '{"k":1,"v":"p"}\n{"k":2,"v":"q"}\n' > "$W/data/j.jsonl"
# Objects whose names a WHERE on _file excludes hold text that does not parse with the
# given structure: a query succeeds only if they are never opened.
for i in $(seq 1 30); do
  if [ "$i" = 7 ]; then printf 'n,s\n7,v7\n' > "$W/bkt/many/k$i.csv"; else printf 'n,s\nnot a number,x\n' > "$W/bkt/many/k$i.csv"; fi
  cp "$W/bkt/many/k$i.csv" "$W/files/k$i.csv"
done
"$SHALE" local -q "INSERT INTO FUNCTION file('$W/big.csv', 'CSV') SELECT number, toString(number * 7) FROM numbers(300000)" || exit 1

start() { # logfile, extra args; sets $port
  python3 "$HERE/serve.py" "$W" "$1" "${@:2}" > "$tmp/port.$$" 2>"$tmp/server.err" &
  pids+=($!)
  for _ in $(seq 50); do [ -s "$tmp/port.$$" ] && break; sleep 0.1; done
  port=$(cat "$tmp/port.$$"); rm -f "$tmp/port.$$"
  [ -n "$port" ] || { echo "FAIL: the test server did not start"; cat "$tmp/server.err"; exit 1; }
}
start "$tmp/req.log"; P=$port; U="http://127.0.0.1:$P"
start "$tmp/req-noranges.log" --no-ranges; PN=$port

pass=0; fail=0
check() { # name, expected, actual
  if [ "$2" == "$3" ]; then pass=$((pass+1)); else fail=$((fail+1)); printf 'FAIL %s\n  want: %q\n  got:  %q\n' "$1" "$2" "$3"; fi
}
check_has() { # name, needle, haystack
  if [[ "$3" == *"$2"* ]]; then pass=$((pass+1)); else fail=$((fail+1)); printf 'FAIL %s\n  want substring: %q\n  got:  %q\n' "$1" "$2" "$3"; fi
}
q() { "$SHALE" local -q "$1" 2>&1; }
log=$tmp/req.log
reset() { : > "$log"; : > "$tmp/req-noranges.log"; }
count() { grep -c -- "$1" "${2:-$log}"; } # requests matching a pattern

# ---- url(): results as ClickHouse gives them ----
check "url basic" $'1\ta\t/data/x.csv\tx.csv\t16\n2\tb\t/data/x.csv\tx.csv\t16' \
  "$(q "SELECT *, _path, _file, _size FROM url('$U/data/x.csv')")"
check "url describe" $'id\tNullable(Int64)\t\t\t\t\t\nname\tNullable(String)\t\t\t\t\t' \
  "$(q "DESCRIBE url('$U/data/x.csv')")"
check "url explicit structure" $'id\tUInt32\t\t\t\t\t\nname\tString\t\t\t\t\t' \
  "$(q "DESCRIBE url('$U/data/x.csv', CSV, 'id UInt32, name String')")"
check "url range glob" $'1\tx1\t/data/f1.csv\tf1.csv\n2\tx2\t/data/f2.csv\tf2.csv\n3\tx3\t/data/f3.csv\tf3.csv' \
  "$(q "SELECT *, _path, _file FROM url('$U/data/f{1..3}.csv') ORDER BY a")"
check "url list glob skips 404" $'1\tx1\tf1.csv\n3\tx3\tf3.csv' \
  "$(q "SELECT *, _file FROM url('$U/data/{f1,f7,f3}.csv') ORDER BY a")"
check_has "url glob 404 not skipped" "HTTP status code: 404" \
  "$(q "SELECT * FROM url('$U/data/{f1,f7}.csv') SETTINGS http_skip_not_found_url_for_globs = 0")"
check "url query string" $'1\ta\tx.csv\t/data/x.csv\n2\tb\tx.csv\t/data/x.csv' \
  "$(q "SELECT *, _file, _path FROM url('$U/data/x.csv?foo=bar')")"
check "url gzip by extension" $'9\tgz' "$(q "SELECT * FROM url('$U/data/z.csv.gz')")"
check "url jsonl" $'1\tp\n2\tq' "$(q "SELECT * FROM url('$U/data/j.jsonl')")"
check "url format and structure" $'3' "$(q "SELECT sum(id) FROM url('$U/data/x.csv', 'CSVWithNames', 'id UInt8, name String')")"
out=$(q "SELECT * FROM url('$U/data/nope.csv')")
check_has "url 404" "Received error from remote server $U/data/nope.csv. HTTP status code: 404" "$out"
check_has "url 404 code" "Code: 86." "$out"
check_has "url wildcard refused" "(SUPPORT_IS_DISABLED)" "$(q "SELECT * FROM url('$U/data/f*.csv')")"
check_has "url bad scheme" "Unknown protocol in the URL: ftp" "$(q "SELECT * FROM url('ftp://127.0.0.1/x.csv')")"

# ---- ranged GETs when the server honours Range; one GET when it does not ----
reset
check "url ranged" $'300000\t44999850000\t999999' \
  "$(q "SELECT count(), sum(c1), max(c2) FROM url('$U/big.csv') SETTINGS max_download_buffer_size = 1000000")"
check "url ranged: pieces" 5 "$(grep -- '^GET /big.csv bytes=' "$log" | sort -u | wc -l)"
check "url ranged: no whole-object GET" 0 "$(count '^GET /big.csv -$')"
check "url no ranges" $'300000\t44999850000\t999999' \
  "$(q "SELECT count(), sum(c1), max(c2) FROM url('http://127.0.0.1:$PN/big.csv') SETTINGS max_download_buffer_size = 1000000")"
# inference: one ranged probe answered 200, then one GET; reading: one GET (remembered)
check "url no ranges: one ranged attempt" 1 "$(count '^GET /big.csv bytes=' "$tmp/req-noranges.log")"
check "url no ranges: whole GETs" 2 "$(count '^GET /big.csv -$' "$tmp/req-noranges.log")"

# ---- schema inference cache ----
reset
out=$(q "DESCRIBE url('$U/data/x.csv'); DESCRIBE url('$U/data/x.csv');
SELECT storage, source, format, schema, number_of_rows, schema_inference_mode FROM system.schema_inference_cache;
SELECT * FROM url('$U/__replace?src=data/x_v2.csv&dst=data/x.csv', 'TSV', 'r String');
DESCRIBE url('$U/data/x.csv');
SELECT schema FROM system.schema_inference_cache WHERE storage = 'URL'")
check "url cache" "id	Nullable(Int64)					
name	Nullable(String)					
id	Nullable(Int64)					
name	Nullable(String)					
URL	$U/data/x.csv	CSV	id Nullable(Int64), name Nullable(String)	\N	DEFAULT
ok
id	Nullable(Int64)					
name	Nullable(String)					
z	Nullable(Float64)					
id Nullable(Int64), name Nullable(String), z Nullable(Float64)" "$out"
# first inference: one GET; second: HEAD only; after the change (new ETag): one GET more
check "url cache: GETs" 2 "$(count '^GET /data/x.csv -$')"
check "url cache: HEADs" 3 "$(count '^HEAD /data/x.csv -$')"
cp "$W/data/f1.csv" "$W/data/x.csv"
reset
q "DESCRIBE url('$U/data/x.csv'); DESCRIBE url('$U/data/x.csv') SETTINGS schema_inference_use_cache_for_url = 0;
SET schema_inference_use_cache_for_url = 0; DESCRIBE url('$U/data/x.csv')" >/dev/null
check "url cache off" 3 "$(count '^GET /data/x.csv -$')"

reset
out=$(q "DESCRIBE s3('$U/bkt/many/k7.csv', NOSIGN); DESCRIBE s3('$U/bkt/many/k7.csv', NOSIGN);
SELECT storage, source, schema FROM system.schema_inference_cache;
SELECT * FROM url('$U/__replace?src=data/x_v2.csv&dst=bkt/many/k7.csv', 'TSV', 'r String');
DESCRIBE s3('$U/bkt/many/k7.csv', NOSIGN)")
check "s3 cache" "n	Nullable(Int64)					
s	Nullable(String)					
n	Nullable(Int64)					
s	Nullable(String)					
S3	$U/bkt/many/k7.csv	n Nullable(Int64), s Nullable(String)
ok
id	Nullable(Int64)					
name	Nullable(String)					
z	Nullable(Float64)					" "$out"
check "s3 cache: GETs" 2 "$(count '^GET /bkt/many/k7.csv')"
printf 'n,s\n7,v7\n' > "$W/bkt/many/k7.csv"
reset
q "DESCRIBE s3('$U/bkt/many/k7.csv', NOSIGN); DESCRIBE s3('$U/bkt/many/k7.csv', NOSIGN) SETTINGS schema_inference_use_cache_for_s3 = 0" >/dev/null
check "s3 cache off" 2 "$(count '^GET /bkt/many/k7.csv')"

F="$tmp/fc.csv"
printf 'a,b\n1,x\n' > "$F"
out=$(q "DESCRIBE file('$F'); SELECT storage, source, format, schema FROM system.schema_inference_cache;
INSERT INTO FUNCTION file('$F', 'CSV') SELECT 'text', 'y';
DESCRIBE file('$F'); SELECT count() FROM system.schema_inference_cache")
check "file cache" "a	Nullable(Int64)					
b	Nullable(String)					
File	$F	CSV	a Nullable(Int64), b Nullable(String)
a	Nullable(String)					
b	Nullable(String)					
1" "$out"
check "file cache off" "0" "$(q "SET schema_inference_use_cache_for_file = 0; DESCRIBE file('$F') FORMAT Null; SELECT count() FROM system.schema_inference_cache")"

# ---- _path / _file predicates prune the objects before any is opened ----
reset
check "s3 prune eq" $'7\tv7\tbkt/many/k7.csv\tk7.csv' \
  "$(q "SELECT n, s, _path, _file FROM s3('$U/bkt/many/k*.csv', NOSIGN, 'CSVWithNames', 'n UInt32, s String') WHERE _file = 'k7.csv'")"
check "s3 prune eq: one object read" 1 "$(count '^GET /bkt/many/k[0-9]')"
reset
check "s3 prune in + path" $'7' \
  "$(q "SELECT sum(n) FROM s3('$U/bkt/many/*.csv', NOSIGN, 'CSVWithNames', 'n UInt32, s String') WHERE _file IN ('k7.csv', 'k99.csv') AND _path != 'bkt/many/k1.csv'")"
check "s3 prune in: one object read" 1 "$(count '^GET /bkt/many/k[0-9]')"
check_has "s3 unpruned reads the rest" "Cannot parse" \
  "$(q "SELECT sum(n) FROM s3('$U/bkt/many/*.csv', NOSIGN, 'CSVWithNames', 'n UInt32, s String')")"
reset
check "url prune" $'7\tv7\t/bkt/many/k7.csv' \
  "$(q "SELECT n, s, _path FROM url('$U/bkt/many/k{1..30}.csv', 'CSVWithNames', 'n UInt32, s String') WHERE _path = '/bkt/many/k7.csv'")"
check "url prune: one GET" 1 "$(count '^GET /bkt/many/k[0-9]')"
reset
check "s3 prune like" $'7\tk7.csv' \
  "$(q "SELECT n, _file FROM s3('$U/bkt/many/*.csv', NOSIGN, 'CSVWithNames', 'n UInt32, s String') WHERE _path LIKE 'bkt/many/k7.%'")"
check "s3 prune like: one object read" 1 "$(count '^GET /bkt/many/k[0-9]')"
reset
check "s3 prune ilike + not like" $'7' \
  "$(q "SELECT sum(n) FROM s3('$U/bkt/many/*.csv', NOSIGN, 'CSVWithNames', 'n UInt32, s String') WHERE _file ILIKE 'K_.CSV' AND _file > 'k6.csv' AND _file NOT LIKE 'k8%' AND _file NOT LIKE 'k9%'")"
check "s3 prune ilike: one object read" 1 "$(count '^GET /bkt/many/k[0-9]')"
reset
check "url prune like + not ilike" $'7\t/bkt/many/k7.csv' \
  "$(q "SELECT n, _path FROM url('$U/bkt/many/k{1..30}.csv', 'CSVWithNames', 'n UInt32, s String') WHERE _path LIKE '%/k_.csv' AND _file NOT ILIKE 'K8%' AND _file NOT ILIKE 'K9%' AND _file >= 'k7'")"
check "url prune like: one GET" 1 "$(count '^GET /bkt/many/k[0-9]')"
out=$("$SHALE" local --time -q "SELECT n, _file FROM file('$W/files/k*.csv', 'CSVWithNames', 'n UInt32, s String') WHERE _file = 'k7.csv'" 2>&1)
check_has "file prune" $'7\tk7.csv' "$out"
check_has "file prune: one row read" "Processed 1.00 rows" "$out"
out=$("$SHALE" local --time -q "SELECT n, _file FROM file('$W/files/k*.csv', 'CSVWithNames', 'n UInt32, s String') WHERE _file LIKE 'k_.csv' AND _file NOT LIKE '%1%' AND _file NOT LIKE '%2%' AND _file NOT LIKE '%3%' AND _file NOT LIKE '%4%' AND _file NOT LIKE '%5%' AND _file NOT LIKE '%6%' AND _file NOT LIKE '%8%' AND _file NOT LIKE '%9%'" 2>&1)
check_has "file prune like" $'7\tk7.csv' "$out"
check_has "file prune like: one row read" "Processed 1.00 rows" "$out"
check "file prune: no match" "0" "$(q "SELECT count() FROM file('$W/files/k*.csv', 'CSVWithNames', 'n UInt32, s String') WHERE _file = 'none.csv'")"

echo "url tests: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
