#!/usr/bin/env bash
# The Distributed engine over three `shale server`s on 127.0.0.1 that share one
# <remote_servers> (shards of weights 1, 2, 1):
#   - INSERT routes rows by the sharding key (key modulo the sum of the weights, ClickHouse's
#     slots): each shard's table holds exactly the rows chdb computes for it, every row once;
#   - SELECTs of several kinds through the Distributed table (from a node that is a shard,
#     so one shard is read locally, and with prefer_localhost_replica = 0) equal chdb's over
#     the whole data set; chdb reads a shale Distributed table through remote();
#   - errors: unknown cluster, a non-integer key, no key with several shards, a dead shard
#     (distributed_foreground_insert = 1; the background INSERT, ClickHouse's and shale's
#     default, has its own tests: run-distributed-async-tests.sh, and is flushed here with
#     SYSTEM FLUSH DISTRIBUTED before the shards are read);
#   - with radosgw (tests/s3/start-ceph.sh; that part is skipped when it cannot start):
#     INSERT INTO dist SELECT … FROM s3Cluster(…) of a small posts-like Parquet set
#     (bench/lib/gen-posts.js) with parallel_distributed_insert_select = 1 and 2 puts every
#     row on exactly one shard (counts per shard printed), as chdb routes them.
# Every wait is bounded; the servers are stopped at the end.
set -u
SHALE=$(realpath "${1:?usage: run-distributed-tests.sh path/to/shale}")
HERE=$(cd "$(dirname "$0")" && pwd)
WORK=$(mktemp -d)
CHDB="$HERE/../queries/node_modules/chdb"
[ -d "$CHDB" ] || { echo "chdb is not installed (tests/queries/node_modules/chdb)"; exit 1; }
. "$HERE/lib.sh" # free_port, stop_pids, check, has, chdb, nodes_*
PIDS=()
RGW=
cleanup() {
  chdb_stop
  stop_pids "${PIDS[@]}"
  [ -z "$RGW" ] || "$HERE/../s3/stop-ceph.sh" "$RGW" >/dev/null 2>&1
  rm -rf "$WORK"
}
trap cleanup EXIT
chdb_start || { echo "cannot start chdb"; exit 1; }
fail=0; passed=0
nodes_ports 3
DEAD=$(free_port)
conf() {
  cat <<XML
    <remote_servers>
        <three>
            <shard><replica><host>127.0.0.1</host><port>${TCP[0]}</port></replica></shard>
            <shard><weight>2</weight><replica><host>127.0.0.1</host><port>${TCP[1]}</port></replica></shard>
            <shard><replica><host>127.0.0.1</host><port>${TCP[2]}</port></replica></shard>
        </three>
        <one>
            <shard><replica><host>127.0.0.1</host><port>${TCP[1]}</port></replica></shard>
        </one>
        <down>
            <shard><replica><host>127.0.0.1</host><port>${TCP[0]}</port></replica></shard>
            <shard><replica><host>127.0.0.1</host><port>$DEAD</port></replica></shard>
        </down>
    </remote_servers>
XML
}
nodes_start "$WORK" 3 conf

q() { curl -sS --max-time 120 "http://127.0.0.1:$1/" --data-binary "$2"; }
sql() { # HTTP_PORT SQL: must print nothing
  local out; out=$(q "$1" "$2")
  [ -z "$out" ] || { echo "setup failed: $2: $out"; exit 1; }
}

COLS="k Int64, s String, n Nullable(Int32), f Float64, lc LowCardinality(String)"
SEL="SELECT toInt64(number) - 100 AS k, concat('s', toString(number)) AS s, CAST(if(number % 4 = 0, NULL, toInt32(number) - 10) AS Nullable(Int32)) AS n, number / 4 AS f, CAST(toString(number % 3) AS LowCardinality(String)) AS lc FROM numbers(1000)"
for n in 0 1 2; do
  sql "${HTTP[$n]}" "CREATE TABLE t ($COLS) ENGINE = MergeTree ORDER BY k"
  sql "${HTTP[$n]}" "CREATE TABLE dist AS t ENGINE = Distributed(three, default, t, k)"
done
# explicit columns, a string cluster name, an expression as the key
sql "${HTTP[1]}" "CREATE TABLE dist2 ($COLS) ENGINE = Distributed('three', 'default', 't', intHash64(k))"

# INSERT through node 0 (a shard itself: its rows go to its own table directly)
sql "${HTTP[0]}" "INSERT INTO dist $SEL"
sql "${HTTP[0]}" "SYSTEM FLUSH DISTRIBUTED dist"
# slots: weights 1, 2, 1 -> slot 0 shard 1, slots 1-2 shard 2, slot 3 shard 3; negative keys as UInt64
SLOT="multiIf(toUInt64(k) % 4 = 0, 1, toUInt64(k) % 4 < 3, 2, 3)"
for n in 0 1 2; do
  EXP=$(chdb "SELECT count(), sum(k), sum(cityHash64(s)) FROM ($SEL) WHERE $SLOT = $((n + 1))")
  GOT=$(q "${HTTP[$n]}" "SELECT count(), sum(k), sum(cityHash64(s)) FROM t")
  check "rows of shard $((n + 1))" "$EXP" "$GOT"
  echo "shard $((n + 1)): $(echo "$GOT" | cut -f1) rows"
done
check "every row once" "1000	1000" "$(q "${HTTP[2]}" "SELECT count(), uniqExact(k) FROM dist")"

QUERIES=(
  "SELECT count(), sum(k), avg(f), min(s), max(s), countIf(n IS NULL), sum(n) FROM \$T"
  "SELECT lc, count(), sum(n), uniqExact(s), round(avg(f), 4) FROM \$T GROUP BY lc ORDER BY lc"
  "SELECT k % 7 AS m, count() AS c, sum(f) FROM \$T WHERE k > 10 GROUP BY m HAVING c > 5 ORDER BY m"
  "SELECT * FROM \$T ORDER BY k LIMIT 5"
  "SELECT k, s, n FROM \$T WHERE k IN (3, 17, 250) OR s = 's4' ORDER BY k"
  "SELECT DISTINCT lc FROM \$T ORDER BY lc"
  "SELECT s FROM \$T ORDER BY f DESC, s LIMIT 3 OFFSET 2"
  "SELECT count() FROM \$T WHERE s LIKE 's1%' AND n IS NOT NULL"
  "SELECT quantileExact(k), medianExact(f), argMax(s, k), arraySort(groupUniqArray(lc)) FROM \$T"
)
for Q in "${QUERIES[@]}"; do
  EXPECTED=$(chdb "${Q//\$T/($SEL)}")
  check "$Q (node 1)" "$EXPECTED" "$(q "${HTTP[1]}" "${Q//\$T/dist}")"
  check "$Q (node 0, no local)" "$EXPECTED" "$(q "${HTTP[0]}" "${Q//\$T/dist} SETTINGS prefer_localhost_replica = 0")"
  check "$Q (explicit columns)" "$EXPECTED" "$(q "${HTTP[1]}" "${Q//\$T/dist2}")"
done
check "a Distributed table in a join" "$(chdb "SELECT count(), sum(b.f) FROM ($SEL) a JOIN ($SEL) b USING k WHERE a.n > 5")" \
  "$(q "${HTTP[1]}" "SELECT count(), sum(b.f) FROM dist a JOIN dist2 b USING k WHERE a.n > 5")"

# chdb (ClickHouse 26.7) as a client of the Distributed table through remote()
R="remote('127.0.0.1:${TCP[2]}', default.dist)"
for Q in "SELECT count(), sum(k), min(s) FROM \$T" "SELECT lc, count() FROM \$T GROUP BY lc ORDER BY lc" "SELECT * FROM \$T ORDER BY k DESC LIMIT 3"; do
  EXPECTED=$(chdb "${Q//\$T/($SEL)}")
  check "chdb over remote(): $Q" "$EXPECTED" "$(chdb "${Q//\$T/$R}")"
done

# one shard: no key needed; the shard is read and written remotely from node 0
sql "${HTTP[0]}" "CREATE TABLE d1 AS t ENGINE = Distributed(one, default, t)"
BEFORE=$(q "${HTTP[1]}" "SELECT count() FROM t")
sql "${HTTP[0]}" "INSERT INTO d1 SELECT * FROM ($SEL) WHERE k < -95"
sql "${HTTP[0]}" "SYSTEM FLUSH DISTRIBUTED d1"
check "one shard" "$((BEFORE + 5))" "$(q "${HTTP[1]}" "SELECT count() FROM t")"
check "one shard: read" "$((BEFORE + 5))" "$(q "${HTTP[0]}" "SELECT count() FROM d1")"

# errors
has "unknown cluster" "CLUSTER_DOESNT_EXIST" "$(q "${HTTP[0]}" "CREATE TABLE bad AS t ENGINE = Distributed(nope, default, t, k)")"
has "string key" "TYPE_MISMATCH" "$(q "${HTTP[0]}" "CREATE TABLE bad AS t ENGINE = Distributed(three, default, t, s)")"
has "arguments" "NUMBER_OF_ARGUMENTS_DOESNT_MATCH" "$(q "${HTTP[0]}" "CREATE TABLE bad AS t ENGINE = Distributed(three, default)")"
has "policy" "UNKNOWN_POLICY" "$(q "${HTTP[0]}" "CREATE TABLE bad AS t ENGINE = Distributed(three, default, t, k, 'fast')")"
sql "${HTTP[0]}" "CREATE TABLE nokey AS t ENGINE = Distributed(three, default, t)"
has "no sharding key" "STORAGE_REQUIRES_PARAMETER" "$(q "${HTTP[0]}" "INSERT INTO nokey SELECT * FROM t")"
check "no sharding key: SELECT works" "$(q "${HTTP[0]}" "SELECT count() FROM dist")" "$(q "${HTTP[0]}" "SELECT count() FROM nokey")"
sql "${HTTP[0]}" "CREATE TABLE ddown AS t ENGINE = Distributed(down, default, t, k)"
has "dead shard: SELECT" "ALL_CONNECTION_TRIES_FAILED" "$(q "${HTTP[0]}" "SELECT count() FROM ddown")"
has "dead shard: SELECT names it" "127.0.0.1:$DEAD" "$(q "${HTTP[0]}" "SELECT count() FROM ddown")"
has "dead shard: aggregate" "ALL_CONNECTION_TRIES_FAILED" "$(q "${HTTP[0]}" "SELECT k % 3, count() FROM ddown GROUP BY 1")"
has "dead shard: INSERT" "ALL_CONNECTION_TRIES_FAILED" "$(q "${HTTP[0]}" "INSERT INTO ddown SELECT * FROM t SETTINGS distributed_foreground_insert = 1")"
has "dead shard: INSERT (old name)" "ALL_CONNECTION_TRIES_FAILED" "$(q "${HTTP[0]}" "INSERT INTO ddown SELECT * FROM t SETTINGS insert_distributed_sync = 1")"
check "dead shard: background INSERT queued" "" "$(q "${HTTP[0]}" "INSERT INTO ddown SELECT * FROM dist")"
has "dead shard: FLUSH" "ALL_CONNECTION_TRIES_FAILED" "$(q "${HTTP[0]}" "SYSTEM FLUSH DISTRIBUTED ddown")"
check "dead shard: skip_unavailable_shards" "$(q "${HTTP[0]}" "SELECT count() FROM t")" "$(q "${HTTP[0]}" "SELECT count() FROM ddown SETTINGS skip_unavailable_shards = 1")"
sql "${HTTP[2]}" "CREATE TABLE self AS t ENGINE = Distributed(three, default, self, k)"
has "a Distributed table over itself" "BAD_ARGUMENTS" "$(q "${HTTP[2]}" "SELECT count() FROM self")"
has "FINAL" "ILLEGAL_FINAL" "$(q "${HTTP[2]}" "SELECT count() FROM dist FINAL")"
check "SHOW CREATE" "CREATE TABLE default.dist2\n(\n    \`k\` Int64,\n    \`s\` String,\n    \`n\` Nullable(Int32),\n    \`f\` Float64,\n    \`lc\` LowCardinality(String)\n)\nENGINE = Distributed(\\'three\\', \\'default\\', \\'t\\', intHash64(k))" "$(q "${HTTP[1]}" "SHOW CREATE TABLE dist2")"
# names given as identifiers are kept as strings, as ClickHouse keeps them
has "SHOW CREATE (identifiers)" "ENGINE = Distributed(\\'three\\', \\'default\\', \\'t\\', k)" "$(q "${HTTP[0]}" "SHOW CREATE TABLE dist")"


# the definition is loaded again at start (the cluster is checked at use, not at load)
node_stop 2
node_start 2
SUM=0; for n in 0 1 2; do SUM=$((SUM + $(q "${HTTP[$n]}" "SELECT count() FROM t"))); done
check "after a restart" "$SUM" "$(q "${HTTP[2]}" "SELECT count() FROM dist")"

# ---- INSERT … SELECT … FROM s3Cluster with parallel_distributed_insert_select (radosgw) ----
s3part() {
  command -v radosgw >/dev/null && command -v ceph-mon >/dev/null || { echo "SKIP s3Cluster inserts: radosgw/ceph-mon not installed"; return 0; }
  local rport mport ep posts f mode n
  rport=$(free_port); mport=$(free_port); RGW="$WORK/rgw"; ep="http://127.0.0.1:$rport"
  if ! timeout 120 "$HERE/../s3/start-ceph.sh" "$RGW" "$rport" "$mport" >"$WORK/rgw.log" 2>&1; then
    echo "SKIP s3Cluster inserts: radosgw could not start:"; tail -3 "$WORK/rgw.log"; return 0
  fi
  posts="$WORK/posts"
  timeout 120 node "$HERE/../../bench/lib/gen-posts.js" --rows 20000 --out "$posts" --chdb "$CHDB" >/dev/null || { echo "FAIL: gen-posts"; fail=1; return; }
  s3c() { curl -sf --aws-sigv4 "aws:amz:us-east-1:s3" --user "TESTKEY:TESTSECRET" -H 'x-amz-content-sha256: UNSIGNED-PAYLOAD' "$@"; }
  s3c -X PUT "$ep/posts" >/dev/null || { echo "FAIL: cannot create bucket"; fail=1; return; }
  for f in "$posts"/by_month/*.parquet; do s3c -T "$f" "$ep/posts/by_month/$(basename "$f")" >/dev/null || echo "upload $f failed"; done
  local S3="s3Cluster('three', '$ep/posts/by_month/*.parquet', 'TESTKEY', 'TESTSECRET')"
  for n in 0 1 2; do
    sql "${HTTP[$n]}" "CREATE TABLE posts ENGINE = MergeTree ORDER BY Id EMPTY AS SELECT * FROM s3('$ep/posts/by_month/2010-0*.parquet', 'TESTKEY', 'TESTSECRET')"
    sql "${HTTP[$n]}" "CREATE TABLE posts_dist AS posts ENGINE = Distributed(three, default, posts, Id)"
  done
  local WANT; WANT=$(chdb "SELECT count(), sum(Id), sum(cityHash64(Body)), sum(Score) FROM file('$posts/by_month/*.parquet')")
  for mode in 1 2; do
    for n in 0 1 2; do sql "${HTTP[$n]}" "TRUNCATE TABLE posts"; done
    sql "${HTTP[0]}" "INSERT INTO posts_dist SELECT * FROM $S3 SETTINGS parallel_distributed_insert_select = $mode"
    for n in 0 1 2; do sql "${HTTP[$n]}" "SYSTEM FLUSH DISTRIBUTED posts_dist"; done
    check "pdis=$mode: every row exactly once" "$WANT" "$(q "${HTTP[1]}" "SELECT count(), sum(Id), sum(cityHash64(Body)), sum(Score) FROM posts_dist")"
    check "pdis=$mode: no row twice" "20000" "$(q "${HTTP[2]}" "SELECT uniqExact(Id) FROM posts_dist")"
    local counts=""
    for n in 0 1 2; do
      local c; c=$(q "${HTTP[$n]}" "SELECT count() FROM posts")
      counts="$counts shard $((n + 1)): $c;"
      if [ "$mode" = 1 ]; then # routed by Id from whichever node read the rows
        check "pdis=1: shard $((n + 1)) has its keys" "$(chdb "SELECT count(), sum(Id) FROM file('$posts/by_month/*.parquet') WHERE multiIf(toUInt64(Id) % 4 = 0, 1, toUInt64(Id) % 4 < 3, 2, 3) = $((n + 1))")" "$(q "${HTTP[$n]}" "SELECT count(), sum(Id) FROM posts")"
      else # each node keeps what it read: some objects each
        [ "$c" -gt 0 ] && passed=$((passed+1)) || { echo "FAIL: pdis=2: node $n inserted nothing"; fail=1; }
      fi
    done
    echo "parallel_distributed_insert_select = $mode:$counts"
  done
  # 0: the initiator reads every row and routes it
  for n in 0 1 2; do sql "${HTTP[$n]}" "TRUNCATE TABLE posts"; done
  sql "${HTTP[1]}" "INSERT INTO posts_dist SELECT * FROM $S3 SETTINGS parallel_distributed_insert_select = 0"
  sql "${HTTP[1]}" "SYSTEM FLUSH DISTRIBUTED posts_dist"
  check "pdis=0: every row exactly once" "$WANT" "$(q "${HTTP[0]}" "SELECT count(), sum(Id), sum(cityHash64(Body)), sum(Score) FROM posts_dist")"
  has "pdis=3" "BAD_ARGUMENTS" "$(q "${HTTP[0]}" "INSERT INTO posts_dist SELECT * FROM $S3 SETTINGS parallel_distributed_insert_select = 3")"
  # a node's failure fails the INSERT with its message (its table is missing)
  sql "${HTTP[2]}" "DROP TABLE posts"
  has "pdis=2: a node without the table" "UNKNOWN_TABLE" "$(q "${HTTP[0]}" "INSERT INTO posts_dist SELECT * FROM $S3 SETTINGS parallel_distributed_insert_select = 2")"
}
s3part

nodes_stop
nodes_sanitizer_ok || fail=1
echo "distributed tests: $passed passed"
exit $fail
