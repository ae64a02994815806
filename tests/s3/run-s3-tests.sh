#!/usr/bin/env bash
# Integration tests of s3() against a real S3 implementation: a throwaway Ceph radosgw on
# 127.0.0.1 (start-ceph.sh), which verifies SigV4 signatures and canonical query strings as
# AWS does. Every query over S3 is compared with the same query over the local copies via
# file(). Skips (exit 0) with a message when radosgw is not installed or cannot start.
set -u
SHALE=$(realpath "${1:?usage: run-s3-tests.sh path/to/shale}")
HERE=$(cd "$(dirname "$0")" && pwd)
PORT=${S3_TEST_PORT:-17480}
MON_PORT=${S3_TEST_MON_PORT:-13300}
EP="http://127.0.0.1:$PORT"
if ! command -v radosgw >/dev/null || ! command -v ceph-mon >/dev/null; then
  echo "SKIP: radosgw/ceph-mon not installed (scripts/install-deps.sh installs them)"; exit 0
fi
tmp=$(mktemp -d); D="$tmp/rgw"
# shale local keeps its Parquet metadata cache under here when it has no --path
export XDG_CACHE_HOME="$tmp/xdg-cache"
cleanup() { "$HERE/stop-ceph.sh" "$D" >/dev/null 2>&1; rm -rf "$tmp"; }
trap cleanup EXIT
if ! timeout 120 "$HERE/start-ceph.sh" "$D" "$PORT" "$MON_PORT" >"$tmp/start.log" 2>&1; then
  echo "SKIP: radosgw could not be started here:"; tail -5 "$tmp/start.log"; exit 0
fi

pass=0; fail=0
check() { # name, expected, actual
  if [ "$2" == "$3" ]; then pass=$((pass+1)); else fail=$((fail+1)); printf 'FAIL %s\n  want: %q\n  got:  %q\n' "$1" "$2" "$3"; fi
}
check_has() { # name, needle, haystack
  if [[ "$3" == *"$2"* ]]; then pass=$((pass+1)); else fail=$((fail+1)); printf 'FAIL %s\n  want substring: %q\n  got:  %q\n' "$1" "$2" "$3"; fi
}
# curl 7.88's --aws-sigv4 adds no x-amz-content-sha256, which radosgw requires.
s3c() { curl -sf --aws-sigv4 "aws:amz:us-east-1:s3" --user "TESTKEY:TESTSECRET" -H 'x-amz-content-sha256: UNSIGNED-PAYLOAD' "$@"; }
q() { "$SHALE" local -q "$1" 2>&1; }
K="'TESTKEY', 'TESTSECRET'"

s3c -X PUT "$EP/bkt" >/dev/null || { echo "FAIL: cannot create bucket"; exit 1; }
L="$tmp/local"; mkdir -p "$L/data" "$L/many"
q "INSERT INTO FUNCTION file('$L/data/a.csv', 'CSVWithNames') SELECT number AS id, toString(number * 7) AS s, number % 3 AS g FROM numbers(1000)" >/dev/null
q "INSERT INTO FUNCTION file('$L/data/b.csv', 'CSVWithNames') SELECT number + 1000 AS id, 'b' || toString(number) AS s, number % 5 AS g FROM numbers(500)" >/dev/null
q "INSERT INTO FUNCTION file('$L/data/c.tsv', 'TSVWithNames') SELECT number AS id, toString(number) AS s FROM numbers(300)" >/dev/null
q "INSERT INTO FUNCTION file('$L/data/d.jsonl', 'JSONEachRow') SELECT number AS id, [number, number * 2] AS arr, 'x\"y' AS s FROM numbers(200)" >/dev/null
# Larger than several 8 MiB pieces: exercises ranged reads and the prefetch thread.
q "INSERT INTO FUNCTION file('$L/big.csv', 'CSV') SELECT number, toString(number * 13), number % 97 FROM numbers(1500000)" >/dev/null
for f in a.csv b.csv c.tsv d.jsonl; do s3c -T "$L/data/$f" "$EP/bkt/data/$f" >/dev/null || echo "upload $f failed"; done
s3c -T "$L/big.csv" "$EP/bkt/big/big.csv" >/dev/null || echo "upload big failed"
# 1100 small objects: more than one ListObjectsV2 page (1000 keys).
for i in $(seq 1100); do echo "$i" > "$L/many/k$i.csv"; done
seq 1100 | xargs -P 16 -I{} curl -sf --aws-sigv4 "aws:amz:us-east-1:s3" --user "TESTKEY:TESTSECRET" \
  -H 'x-amz-content-sha256: UNSIGNED-PAYLOAD' -T "$L/many/k{}.csv" "$EP/bkt/many/k{}.csv" -o /dev/null

same() { # name, SELECT list + rest with FROM placeholder: compare s3() and file()
  local name=$1 s3src=$2 filesrc=$3 rest=$4
  local want got
  want=$(q "${rest//__SRC__/$filesrc}")
  got=$(q "${rest//__SRC__/$s3src}")
  check "$name" "$want" "$got"
  [ -n "$want" ] || { fail=$((fail+1)); echo "FAIL $name: empty reference output"; }
}

same "csv single object" "s3('$EP/bkt/data/a.csv', $K)" "file('$L/data/a.csv')" \
  "SELECT count(), sum(id), max(s), sum(g) FROM __SRC__"
same "csv schema" "s3('$EP/bkt/data/a.csv', $K)" "file('$L/data/a.csv')" "DESCRIBE __SRC__"
same "tsv" "s3('$EP/bkt/data/c.tsv', $K)" "file('$L/data/c.tsv')" "SELECT * FROM __SRC__ ORDER BY id LIMIT 5"
same "jsoneachrow" "s3('$EP/bkt/data/d.jsonl', $K)" "file('$L/data/d.jsonl')" \
  "SELECT sum(id), sum(arraySum(arr)), any(s) FROM __SRC__"
same "glob *" "s3('$EP/bkt/data/*.csv', $K)" "file('$L/data/*.csv')" \
  "SELECT count(), sum(id), uniqExact(g) FROM __SRC__"
same "glob {a,b}" "s3('$EP/bkt/data/{a,b}.csv', $K, 'CSVWithNames')" "file('$L/data/{a,b}.csv', 'CSVWithNames')" \
  "SELECT _file, count() FROM __SRC__ GROUP BY _file ORDER BY _file"
same "large object, ranged reads" "s3('$EP/bkt/big/big.csv', $K)" "file('$L/big.csv')" \
  "SELECT count(), sum(c1), sum(length(c2)), sum(c3) FROM __SRC__"
check "virtual columns" "bkt/data/a.csv	a.csv	$(stat -c %s "$L/data/a.csv")" \
  "$(q "SELECT DISTINCT _path, _file, _size FROM s3('$EP/bkt/data/a.csv', $K)")"
check "listing > 1000 keys" "1100	605550" "$(q "SELECT count(), sum(c1) FROM s3('$EP/bkt/many/*.csv', $K)")"
check "glob with ? and ranges" "100" "$(q "SELECT count() FROM s3('$EP/bkt/many/k1{0..9}?.csv', $K)" | head -1)"
check "explicit format and structure" "1000" \
  "$(q "SELECT count() FROM s3('$EP/bkt/data/a.csv', $K, 'CSVWithNames', 'id UInt64, s String, g UInt8')")"
check "credentials from the environment" "1000" \
  "$(AWS_ACCESS_KEY_ID=TESTKEY AWS_SECRET_ACCESS_KEY=TESTSECRET q "SELECT count() FROM s3('$EP/bkt/data/a.csv')")"

out=$(q "SELECT * FROM s3('$EP/bkt/data/a.csv', 'TESTKEY', 'WRONGSECRET')")
check_has "wrong secret" "SignatureDoesNotMatch" "$out"
[[ "$out" == *WRONGSECRET* ]] && { fail=$((fail+1)); echo "FAIL: the secret appears in the error"; }
check_has "wrong key id" "InvalidAccessKeyId" "$(q "SELECT * FROM s3('$EP/bkt/data/*.csv', 'NOPE', 'WRONGSECRET')")"
check_has "anonymous is refused" "AccessDenied" "$(q "SELECT * FROM s3('$EP/bkt/data/*.csv', NOSIGN)")"
check_has "missing key" "NoSuchKey" "$(q "SELECT * FROM s3('$EP/bkt/data/none.csv', $K)")"
check_has "missing bucket" "NoSuchBucket" "$(q "SELECT * FROM s3('$EP/nobkt/x.csv', $K)")"
check_has "glob without match names the pattern" "data/*.parquet" "$(q "SELECT * FROM s3('$EP/bkt/data/*.parquet', $K)")"
check "glob without match, structure given" "0" \
  "$(q "SELECT count() FROM s3('$EP/bkt/data/*.nothing', $K, 'CSV', 'a Int32')")"

# Parquet over S3 is read by ranges: the footer and the chunks of the columns the query
# needs, not the whole object (here the query needs `id`, a small fraction of the file).
q "INSERT INTO FUNCTION file('$L/wide.parquet') SELECT number AS id, concat(hex(cityHash64(number)), hex(cityHash64(number, 1)), hex(cityHash64(number, 2)), hex(cityHash64(number, 3))) AS pad, hex(cityHash64(number, 7)) AS pad2 FROM numbers(40000)" >/dev/null
s3c -T "$L/wide.parquet" "$EP/bkt/pq/wide.parquet" >/dev/null || echo "upload wide.parquet failed"
same "parquet by ranges: result" "s3('$EP/bkt/pq/wide.parquet', $K)" "file('$L/wide.parquet')" "SELECT count(), sum(id), max(pad2) FROM __SRC__"
io=$("$SHALE" local --time -q "SELECT sum(id) FROM s3('$EP/bkt/pq/wide.parquet', $K) FORMAT Null" 2>&1 | grep -o 'requests, [0-9.]* [kKMG]*B received')
size=$(stat -c %s "$L/wide.parquet")
got=$(awk -v s="$io" 'BEGIN { split(s, a, " "); v = a[2]; u = a[3]; m = (u == "KB" || u == "kB") ? 1e3 : (u == "MB") ? 1e6 : (u == "GB") ? 1e9 : 1; printf "%d", v * m }')
check "parquet by ranges: fetches a small part of the object ($io of $size bytes)" "1" "$(( got > 0 && got * 5 < size ? 1 : 0 ))"
# row groups skipped by their statistics are never fetched (8 row groups of 1000 ids)
RG="$(cd "$(dirname "$0")/../data/parquet" && pwd)/ch_row_groups.parquet"
s3c -T "$RG" "$EP/bkt/pq/rg.parquet" >/dev/null || echo "upload rg.parquet failed"
same "parquet row groups skipped by statistics: result" "s3('$EP/bkt/pq/rg.parquet', $K)" "file('$RG')" "SELECT count(), sum(id), max(s) FROM __SRC__ WHERE id >= 7000"
same "parquet filter columns first: result" "s3('$EP/bkt/pq/rg.parquet', $K)" "file('$RG')" "SELECT id, s, ni FROM __SRC__ WHERE id % 997 = 3 ORDER BY id"
# Map columns read by ranges, and a Map written to s3() and read back
MP="$(cd "$(dirname "$0")/../data/parquet" && pwd)/ar_map.parquet"
s3c -T "$MP" "$EP/bkt/pq/map.parquet" >/dev/null || echo "upload map.parquet failed"
same "parquet Map columns" "s3('$EP/bkt/pq/map.parquet', $K)" "file('$MP')" "SELECT id, mp, mp['m1'], mapKeys(mp) FROM __SRC__ ORDER BY id"
q "INSERT INTO FUNCTION s3('$EP/bkt/out/map.parquet', $K) SELECT id, mp FROM file('$MP') SETTINGS s3_truncate_on_insert = 1" >/dev/null
same "Map written to s3() in Parquet" "s3('$EP/bkt/out/map.parquet', $K)" "file('$MP')" "SELECT id, mp FROM __SRC__ ORDER BY id"
q "INSERT INTO FUNCTION s3('$EP/bkt/out/map.native', $K, 'Native') SELECT id, mp FROM file('$MP') SETTINGS s3_truncate_on_insert = 1" >/dev/null
same "Map written to s3() in Native" "s3('$EP/bkt/out/map.native', $K, 'Native')" "file('$MP')" "SELECT id, mp FROM __SRC__ ORDER BY id"
q "INSERT INTO FUNCTION file('$L/rgbig.parquet') SELECT number AS id, hex(cityHash64(number)) AS pad FROM numbers(400000) SETTINGS output_format_parquet_row_group_size = 50000" >/dev/null
s3c -T "$L/rgbig.parquet" "$EP/bkt/pq/rgbig.parquet" >/dev/null || echo "upload rgbig.parquet failed"
same "parquet row groups skipped by statistics: larger object" "s3('$EP/bkt/pq/rgbig.parquet', $K)" "file('$L/rgbig.parquet')" "SELECT count(), sum(id), max(pad) FROM __SRC__ WHERE id >= 350000"
# Many Parquet objects with many requests in flight: the pool that opens objects ahead keeps
# 16 × max_download_threads per worker in flight up to its bound (a wider setting must not
# overrun it); 80 objects, so the object count does not bound it first.
mkdir -p "$L/pqmany"
for i in $(seq 0 79); do cp "$RG" "$L/pqmany/p$i.parquet"; done
for i in $(seq 0 79); do s3c -T "$L/pqmany/p$i.parquet" "$EP/bkt/pqmany/p$i.parquet" -o /dev/null &  [ $((i % 8)) = 7 ] && wait; done; wait
same "parquet glob, 80 objects, max_download_threads = 32, max_threads = 4" "s3('$EP/bkt/pqmany/*.parquet', $K)" "file('$L/pqmany/*.parquet')" "SELECT count(), sum(id), max(s) FROM __SRC__ SETTINGS max_download_threads = 32, max_threads = 4"
bytes_of() { "$SHALE" local --time -q "$1" 2>&1 | grep -o 'requests, [0-9.]* [kKMG]*B received' | awk '{ v = $2; u = $3; m = (u == "KB" || u == "kB") ? 1e3 : (u == "MB") ? 1e6 : (u == "GB") ? 1e9 : 1; printf "%d", v * m }'; }
all=$(bytes_of "SELECT max(pad) FROM s3('$EP/bkt/pq/rgbig.parquet', $K) FORMAT Null")
one=$(bytes_of "SELECT max(pad) FROM s3('$EP/bkt/pq/rgbig.parquet', $K) WHERE id >= 350000 FORMAT Null")
check "parquet row groups skipped by statistics are not fetched ($one of $all bytes)" "1" "$(( one > 0 && one * 3 < all ? 1 : 0 ))"
same "parquet streamed whole with remote_filesystem_read_method = 'read'" "s3('$EP/bkt/pq/wide.parquet', $K) SETTINGS remote_filesystem_read_method = 'read'" "file('$L/wide.parquet')" "SELECT count(), sum(id), max(pad) FROM __SRC__"

# Parallel download: 1 MiB pieces, 3 threads (the big object is > 2 pieces); synchronous reads.
same "parallel ranged GETs, small pieces" "s3('$EP/bkt/big/big.csv', $K) SETTINGS max_download_buffer_size = 1048576, max_download_threads = 3" \
  "file('$L/big.csv')" "SELECT count(), sum(c1), sum(length(c2)), sum(c3) FROM __SRC__"
same "synchronous reads" "s3('$EP/bkt/big/big.csv', $K) SETTINGS remote_filesystem_read_method = 'read', max_download_buffer_size = 3000000" \
  "file('$L/big.csv')" "SELECT count(), sum(c1), sum(length(c2)), sum(c3) FROM __SRC__"
same "byte-exact parallel download" "s3('$EP/bkt/big/big.csv', $K, 'RawBLOB') SETTINGS max_download_buffer_size = 1000000, max_download_threads = 4" \
  "file('$L/big.csv', 'RawBLOB')" "SELECT sipHash64(raw_blob), length(raw_blob) FROM __SRC__"
# I/O counters: the --time line and system.query_log's ProfileEvents.
P="$tmp/path"; mkdir -p "$P"
out=$("$SHALE" local --path "$P" --time -q "SELECT count() FROM s3('$EP/bkt/big/big.csv', $K, 'CSV', 'a UInt64, b String, c UInt8') SETTINGS max_download_buffer_size = 1048576" 2>&1 >/dev/null)
nget=$(( ($(stat -c %s "$L/big.csv") + 1048575) / 1048576 ))
check_has "--time S3 line" "S3: $nget GET, 0 LIST, 1 HEAD requests" "$out"
# SHALE_HTTP_TRACE=1: one line per request attempt (times since the process started) and
# the query's phases
out=$(SHALE_HTTP_TRACE=1 "$SHALE" local -q "SELECT count() FROM s3('$EP/bkt/big/big.csv', $K, 'CSV', 'a UInt64, b String, c UInt8') SETTINGS max_download_buffer_size = 1048576" 2>&1 >/dev/null)
check "SHALE_HTTP_TRACE: a line per ranged GET" "$nget" "$(grep -cE '^http: [0-9.]+ [0-9.]+ (\+conn|reuse) GET 206 http://[^ ]*/bkt/big/big.csv bytes=[0-9]+-[0-9]+ [0-9]+ B$' <<<"$out")"
check "SHALE_HTTP_TRACE: the HEAD" "1" "$(grep -cE '^http: [0-9.]+ [0-9.]+ (\+conn|reuse) HEAD 200 ' <<<"$out")"
check "SHALE_HTTP_TRACE: query start and end marks" "2" "$(grep -cE '^http: [0-9.]+ query (start|end)$' <<<"$out")"
check "query_log ProfileEvents" "$nget	1	$(stat -c %s "$L/big.csv")" "$("$SHALE" local --path "$P" -q "SELECT ProfileEvents.Values[indexOf(ProfileEvents.Names, 'S3GetObject')], ProfileEvents.Values[indexOf(ProfileEvents.Names, 'S3HeadObject')], ProfileEvents.Values[indexOf(ProfileEvents.Names, 'ReadBufferFromS3Bytes')] FROM system.query_log WHERE query LIKE '%big.csv%' AND type = 'QueryFinish'" 2>&1)"
# 1100 objects + 1 GET to infer the schema from the first
out=$("$SHALE" local --time -q "SELECT count() FROM s3('$EP/bkt/many/*.csv', $K)" 2>&1 >/dev/null)
check_has "--time LIST count" "S3: 1101 GET, 2 LIST, 0 HEAD requests" "$out"
# _path / _file LIKE prunes the listing before any GET: k1000..k1099 only (100 objects),
# schema inferred from the first of them.
out=$("$SHALE" local --time -q "SELECT count(), sum(c1) FROM s3('$EP/bkt/many/*.csv', $K) WHERE _file LIKE 'k10__.csv' AND _path NOT LIKE '%k1099%' AND _file NOT ILIKE 'K1098.CSV'" 2>&1)
check_has "LIKE prunes: result" $'98\t102753' "$out"
check_has "LIKE prunes: GET count" "S3: 99 GET, 2 LIST, 0 HEAD requests" "$out"

# The Parquet metadata cache: footers by URL and ETag (the LIST gives the ETags), in memory
# and, for shale local, on disk under --path. Two objects of one row group each: a cold
# query GETs the first footer (schema inference), the second footer and one range of
# column chunks per object; a warm one only the chunk ranges, in the same process or the
# next one; a rewritten object (new ETag) has its footer read again.
mkdir -p "$L/pq"
for n in 1 2; do
  q "INSERT INTO FUNCTION file('$L/pq/o$n.parquet') SELECT number * $n AS x, toString(number) AS s FROM numbers(20000)" >/dev/null
  s3c -T "$L/pq/o$n.parquet" "$EP/bkt/pqcache/o$n.parquet" >/dev/null || echo "upload o$n.parquet failed"
done
PQ="SELECT count(), sum(x), max(s), min(x) FROM __SRC__"
PF="file('$L/pq/*.parquet')"; PS="s3('$EP/bkt/pqcache/*.parquet', $K)"; PS1="s3('$EP/bkt/pqcache/o1.parquet', $K)"
gets() { sed -n 's/^S3: \([0-9]*\) GET.*/\1/p' <<<"$1" | tr '\n' ' '; }
PC="$tmp/pqcache"; mkdir -p "$PC"
pqrun() { "$SHALE" local --path "$PC" --time "$@" 2>&1; }
want=$(q "${PQ//__SRC__/$PF}")
out=$(pqrun -q "${PQ//__SRC__/$PS}")
check_has "metadata cache: cold result" "$want" "$out"
check "metadata cache: cold GETs (2 footers + 2 chunk ranges)" "4 " "$(gets "$out")"
out=$(pqrun -q "${PQ//__SRC__/$PS}; ${PQ//__SRC__/$PS}")
check "metadata cache: next process and repeated query, no footer GET" "2 2 " "$(gets "$out")"
check_has "metadata cache: warm result" "$want" "$out"
# misses, hits: cold (inference misses o1, its reader hits, o2 misses); next process (the
# inference and both readers hit the disk level); repeated (the schema cache spares the inference)
check "metadata cache: query_log counts hits and misses" $'2\t1\n0\t3\n0\t2' "$("$SHALE" local --path "$PC" -q "SELECT ProfileEvents.Values[indexOf(ProfileEvents.Names, 'ParquetMetadataCacheMisses')], ProfileEvents.Values[indexOf(ProfileEvents.Names, 'ParquetMetadataCacheHits')] FROM system.query_log WHERE query LIKE '%bkt/pqcache/%' AND type = 'QueryFinish' LIMIT 3" 2>&1)"
out=$(pqrun --use_parquet_metadata_cache=0 -q "${PQ//__SRC__/$PS}")
check_has "metadata cache off: same result" "$want" "$out"
check "metadata cache off: every footer read" "5 " "$(gets "$out")"
# o1 rewritten with other rows: a new ETag, so its footer is read again, and the new rows come back
q "INSERT INTO FUNCTION file('$L/pq/o1.parquet') SELECT number + 7 AS x, toString(number * 3) AS s FROM numbers(20000) SETTINGS engine_file_truncate_on_insert = 1" >/dev/null
s3c -T "$L/pq/o1.parquet" "$EP/bkt/pqcache/o1.parquet" >/dev/null || echo "upload o1.parquet failed"
want=$(q "${PQ//__SRC__/$PF}")
out=$(pqrun -q "${PQ//__SRC__/$PS}")
check_has "metadata cache: rewritten object, new result" "$want" "$out"
check "metadata cache: rewritten object's footer read again" "3 " "$(gets "$out")"
out=$(pqrun -q "${PQ//__SRC__/$PS1}")
check "metadata cache: single object (HEAD for its ETag), no footer GET" "1 " "$(gets "$out")"
# a corrupt entry on disk is ignored with a log line, and the result stays right
for f in "$PC"/cache/parquet_metadata/*.pqm; do printf 'XXXX' | dd of="$f" bs=1 seek=40 conv=notrunc 2>/dev/null; done
out=$(pqrun -q "${PQ//__SRC__/$PS}")
check_has "metadata cache: corrupt entry logged" "ignoring a corrupt Parquet metadata cache entry" "$out"
check_has "metadata cache: corrupt entry, right result" "$want" "$out"
check "metadata cache: corrupt entries, footers read again" "4 " "$(gets "$out")"
# without --path: the disk level lives under $XDG_CACHE_HOME (already holding the footers of
# the Parquet files and objects that queries above read without --path)
before=$(ls "$XDG_CACHE_HOME/shale/parquet_metadata" | wc -l)
q "SELECT count() FROM s3('$EP/bkt/pqcache/*.parquet', $K)" >/dev/null
check "metadata cache: disk level without --path" "$((before + 2))" "$(ls "$XDG_CACHE_HOME/shale/parquet_metadata" | wc -l)"

# INSERT INTO FUNCTION s3: write, read back, compare with the same rows written by file().
W="SELECT number AS id, toString(number * 13) AS s, number % 97 AS g FROM numbers"
q "INSERT INTO FUNCTION s3('$EP/bkt/out/small.csv', $K, 'CSVWithNames') $W(1000)" >/dev/null
q "INSERT INTO FUNCTION file('$L/small.csv', 'CSVWithNames') $W(1000)" >/dev/null
check "insert: single PUT, byte-exact" "$(cat "$L/small.csv")" "$(s3c "$EP/bkt/out/small.csv")"
same "insert: read back" "s3('$EP/bkt/out/small.csv', $K)" "file('$L/small.csv')" "SELECT count(), sum(id), sum(length(s)), sum(g) FROM __SRC__"
check_has "insert: existing object refused" "already exists" \
  "$(q "INSERT INTO FUNCTION s3('$EP/bkt/out/small.csv', $K, 'CSVWithNames') SELECT 1 AS id")"
q "INSERT INTO FUNCTION s3('$EP/bkt/out/small.csv', $K, 'CSVWithNames') SELECT 7 AS id SETTINGS s3_truncate_on_insert = 1" >/dev/null
check "insert: s3_truncate_on_insert replaces" "7" "$(q "SELECT * FROM s3('$EP/bkt/out/small.csv', $K)")"
# PARTITION BY: one object per partition value, {_partition_id} in the key.
q "INSERT INTO FUNCTION s3('$EP/bkt/parts/g{_partition_id}.csv', $K, 'CSVWithNames') PARTITION BY g % 4 $W(1000)" >/dev/null
check "insert PARTITION BY: one object per value" $'g0.csv\t258\t128997\ng1.csv\t248\t123920\ng2.csv\t247\t123168\ng3.csv\t247\t123415' \
  "$(q "SELECT _file, count(), sum(id) FROM s3('$EP/bkt/parts/*.csv', $K) GROUP BY _file ORDER BY _file")"
# Multipart: 5 MiB parts (radosgw's minimum), growing every 2 parts, 4 in flight.
MP="SETTINGS s3_min_upload_part_size = 5242880, s3_max_single_part_upload_size = 5242880, s3_upload_part_size_multiply_parts_count_threshold = 2, s3_max_inflight_parts_for_one_file = 4"
out=$("$SHALE" local --time -q "INSERT INTO FUNCTION s3('$EP/bkt/out/big.tsv', $K, 'TSV') $W(3000000) $MP" 2>&1)
check_has "insert: multipart requests" "S3: 0 GET, 1 LIST, 0 HEAD, 6 PUT, 2 POST" "$out"
q "INSERT INTO FUNCTION file('$L/big.tsv', 'TSV') $W(3000000)" >/dev/null
check "insert: multipart, byte-exact" "$(md5sum < "$L/big.tsv" | cut -c1-32)" "$(s3c "$EP/bkt/out/big.tsv" | md5sum | cut -c1-32)"
check_has "insert: multipart ETag" '-6"' "$(s3c -I "$EP/bkt/out/big.tsv" | grep -i etag)"
q "INSERT INTO FUNCTION s3('$EP/bkt/out/big.csv.gz', $K, 'CSV') $W(1000000) $MP" >/dev/null
q "INSERT INTO FUNCTION file('$L/big2.csv', 'CSV') $W(1000000)" >/dev/null
same "insert: compressed by extension" "s3('$EP/bkt/out/big.csv.gz', $K, 'CSV')" "file('$L/big2.csv', 'CSV')" \
  "SELECT count(), sum(c1), sum(length(c2)), sum(c3) FROM __SRC__"
out=$(q "INSERT INTO FUNCTION s3('$EP/bkt/out/fail.tsv', $K, 'TSV') SELECT number, toString(number * 13), throwIf(number = 2900000) FROM numbers(3000000) $MP, max_block_size = 65536")
check_has "insert: failure reported" "throwIf" "$out"
check "insert: failed multipart upload aborted, no object" "404" \
  "$(curl -s -o /dev/null -w '%{http_code}' --aws-sigv4 aws:amz:us-east-1:s3 --user TESTKEY:TESTSECRET -H 'x-amz-content-sha256: UNSIGNED-PAYLOAD' -I "$EP/bkt/out/fail.tsv")"
check_has "insert: no multipart upload left" "</ListMultipartUploadsResult>" "$(s3c "$EP/bkt?uploads=")"
[[ "$(s3c "$EP/bkt?uploads=")" == *"<Upload>"* ]] && { fail=$((fail+1)); echo "FAIL: an aborted upload is still listed"; }
check_has "insert: glob refused" "must name one object" "$(q "INSERT INTO FUNCTION s3('$EP/bkt/out/*.csv', $K, 'CSV') SELECT 1")"

# MergeTree loads from S3: INSERT … SELECT FROM s3(glob), resumable re-runs load nothing twice.
"$SHALE" local --path "$P" -q "CREATE TABLE mt_s3 (a UInt64) ENGINE = MergeTree ORDER BY a"
rload="INSERT INTO mt_s3 SELECT c1 FROM s3('$EP/bkt/many/k10?.csv', $K, 'CSV') SETTINGS resumable_insert = 1"
"$SHALE" local --path "$P" -q "$rload" 2>&1
want=$(q "SELECT count(), sum(c1) FROM s3('$EP/bkt/many/k10?.csv', $K, 'CSV')")
check "mergetree from s3: rows" "$want" "$("$SHALE" local --path "$P" -q "SELECT count(), sum(a) FROM mt_s3" 2>&1)"
"$SHALE" local --path "$P" -q "$rload" 2>&1
check "mergetree from s3: a resumable re-run loads nothing twice" "$want" "$("$SHALE" local --path "$P" -q "SELECT count(), sum(a) FROM mt_s3" 2>&1)"
check "mergetree from s3: objects recorded" "10" "$(grep -c '^done' "$P/data/default/mt_s3/resume.log")"

echo "s3 integration: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
