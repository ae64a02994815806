#!/usr/bin/env bash
# The guide's workload end to end on a generated data set (issue 3): shale writes a
# posts-like set, a local S3 server is started (Ceph radosgw, or s3rver from npm when
# radosgw cannot start here — the script says which), shale uploads the files itself with
# INSERT INTO FUNCTION s3, then answers the top-users query over s3() with default settings
# and with max_threads, loads the objects into a MergeTree table (default and tuned insert
# settings), shows its parts and queries it, printing each statement and shale's summary
# lines (rows, elapsed, processed, peak memory, S3 requests). Then it starts three `shale
# server`s on 127.0.0.1 (scripts/cluster.sh start 3; cluster 'three'), runs the top-users
# query over s3Cluster (the nodes aggregate their objects, the first node merges) and one
# distributed insert (INSERT INTO a Distributed table SELECT … FROM s3Cluster, each node
# inserting into its own shard), and checks both against the single-node answers.
# Statements shale cannot run yet are printed with
# "not supported yet" — never with made-up output. Exits non-zero if a step fails.
set -euo pipefail
cd "$(dirname "$0")/.."
SHALE=./build/shale
ROWS=${DEMO_ROWS:-300000}
FILES=${DEMO_FILES:-4}
DIR=${DEMO_DIR:-demo-data}
PORT=${DEMO_S3_PORT:-17490}
MON_PORT=${DEMO_MON_PORT:-13390}
EP="http://127.0.0.1:$PORT"
mkdir -p "$DIR"
WORK=$(mktemp -d)
SERVER=""
SERVER_PID=""
CLUSTER_DIR=""
cleanup() {
  [ -z "$CLUSTER_DIR" ] || scripts/cluster.sh stop --dir "$CLUSTER_DIR" >/dev/null 2>&1 || true
  case "$SERVER" in
    radosgw) tests/s3/stop-ceph.sh "$WORK/rgw" >/dev/null 2>&1 || true ;;
    s3rver) [ -n "$SERVER_PID" ] && kill "$SERVER_PID" 2>/dev/null || true ;;
  esac
  rm -rf "$WORK"
}
trap cleanup EXIT

run() { # statement, then shale's arguments
  echo
  echo "shale :) $1"
  echo
  shift
  "$SHALE" local --time "$@"
}
unsupported() {
  echo
  echo "shale :) $1"
  echo
  echo "-- not supported yet: $2"
}

# ---- 1. the local S3 server ----
echo "== starting a local S3 server on $EP"
if command -v radosgw >/dev/null && command -v ceph-mon >/dev/null &&
   timeout 120 tests/s3/start-ceph.sh "$WORK/rgw" "$PORT" "$MON_PORT" >"$WORK/start.log" 2>&1; then
  SERVER=radosgw
  KEY=TESTKEY; SECRET=TESTSECRET
  echo "server: Ceph radosgw (single node, memstore OSD), keys $KEY/$SECRET"
else
  echo "radosgw could not start here (see below); falling back to s3rver from npm"
  tail -3 "$WORK/start.log" 2>/dev/null || true
  mkdir -p "$WORK/s3rver"
  if [ ! -d "$WORK/s3rver/node_modules/s3rver" ]; then
    npm install --prefix "$WORK/s3rver" --no-audit --no-fund s3rver@3.7.1 >/dev/null 2>&1 ||
      { echo "demo: FAILED: cannot install s3rver"; exit 1; }
  fi
  mkdir -p "$WORK/s3data"
  cat >"$WORK/s3rver/start.js" <<JS
const S3rver = require('s3rver');
new S3rver({ port: $PORT, address: '127.0.0.1', silent: true, directory: '$WORK/s3data' }).run().then(() => console.log('up'));
JS
  node --openssl-legacy-provider "$WORK/s3rver/start.js" >"$WORK/s3rver.log" 2>&1 &
  SERVER_PID=$!; SERVER=s3rver
  KEY=S3RVER; SECRET=S3RVER
  for _ in $(seq 50); do curl -s -o /dev/null "$EP/" && break; sleep 0.2; done
  echo "server: s3rver 3.7.1 (a mock: it does not verify signatures), keys $KEY/$SECRET"
fi
curl -sf --aws-sigv4 "aws:amz:us-east-1:s3" --user "$KEY:$SECRET" -H 'x-amz-content-sha256: UNSIGNED-PAYLOAD' \
  -X PUT "$EP/posts" >/dev/null || { echo "demo: FAILED: cannot create bucket 'posts'"; exit 1; }
K="'$KEY', '$SECRET'"

# ---- 2. the data set, written by shale straight into S3 ----
if "$SHALE" local -q "SELECT 1 FORMAT Parquet" >/dev/null 2>&1; then FMT=Parquet; EXT=parquet; else FMT=CSVWithNames; EXT=csv; fi
echo
echo "== generating $ROWS posts in $FILES files ($FMT: shale $( [ $FMT = Parquet ] && echo writes || echo 'cannot write yet:' ) Parquet) and uploading them with INSERT INTO FUNCTION s3"
PER=$(( ROWS / FILES ))
for i in $(seq 0 $((FILES - 1))); do
  GEN="INSERT INTO FUNCTION s3('$EP/posts/by_part/$i.$EXT', $K, '$FMT')
SELECT number + 1 AS Id,
       toDateTime('2008-07-31 00:00:00') + intDiv(number * 500000000, $ROWS) AS CreationDate,
       multiIf(number % 10 < 6, '', number % 10 = 6, 'anon',
               concat('user_', toString(intDiv(1000, cityHash64(number) % 1000 + 1)))) AS OwnerDisplayName,
       toInt32(cityHash64(number, 1) % 200) - 20 AS Score,
       concat('Title of post ', toString(number)) AS Title
FROM numbers($(( i * PER )), $PER)
SETTINGS s3_truncate_on_insert = 1"
  run "${GEN//$K/'***', '***'}" -q "$GEN"
done
SRC="s3('$EP/posts/by_part/*.$EXT', $K)"
SHOWN="s3('$EP/posts/by_part/*.$EXT', '***', '***')"

# ---- 3. the guide's queries ----
Q1="SELECT OwnerDisplayName, count() AS num_posts
FROM $SRC
WHERE OwnerDisplayName NOT IN ('', 'anon')
GROUP BY OwnerDisplayName ORDER BY num_posts DESC LIMIT 5"
run "${Q1//$SRC/$SHOWN}" -q "$Q1" --format PrettyCompact
run "${Q1//$SRC/$SHOWN} SETTINGS max_threads = 1" -q "$Q1 SETTINGS max_threads = 1" --format PrettyCompact
run "${Q1//$SRC/$SHOWN} SETTINGS max_threads = 2" -q "$Q1 SETTINGS max_threads = 2" --format PrettyCompact

Q2="SELECT count(), sum(Score), max(CreationDate) FROM $SRC"
run "${Q2//$SRC/$SHOWN}" -q "$Q2" --format PrettyCompact

# ---- 4. loading into a MergeTree table (a persistent data directory for this demo) ----
DB="$WORK/db"
DDL="CREATE TABLE posts (Id UInt64 CODEC(Delta(8), ZSTD(1)), CreationDate DateTime, OwnerDisplayName String,
  Score Int32, Title String)
ENGINE = MergeTree PARTITION BY toYear(CreationDate) ORDER BY (toDate(CreationDate), CreationDate)"
run "$DDL" --path "$DB" -q "$DDL"
INS="INSERT INTO posts SELECT * FROM $SRC"
run "${INS//$SRC/$SHOWN}" --path "$DB" -q "$INS"
run "SELECT partition, count() AS parts, sum(rows) AS total_rows, formatReadableSize(sum(data_compressed_bytes)) AS compressed FROM system.parts WHERE table = 'posts' AND active GROUP BY partition ORDER BY partition" \
  --path "$DB" --format PrettyCompact -q "SELECT partition, count() AS parts, sum(rows) AS total_rows, formatReadableSize(sum(data_compressed_bytes)) AS compressed FROM system.parts WHERE table = 'posts' AND active GROUP BY partition ORDER BY partition"
# The guide's tuned load, into a fresh table: threads = cores / 2, block bytes =
# memory budget / (3 × threads), the rows threshold off. shale applies the rule itself with
# max_insert_threads = 0 and min_insert_block_size_bytes = 0 and the budget setting.
CORES=$(nproc)
THREADS=$(( CORES / 2 > 0 ? CORES / 2 : 1 ))
BUDGET=1073741824
echo "-- the guide's rule on this machine: $CORES cores, a 1 GiB budget -> max_insert_threads = $THREADS," \
  "min_insert_block_size_bytes = $(( BUDGET / (3 * THREADS) )), min_insert_block_size_rows = 0"
run "CREATE TABLE posts_tuned AS posts" --path "$DB" -q "CREATE TABLE posts_tuned AS posts"
TUNED="INSERT INTO posts_tuned SELECT * FROM $SRC SETTINGS max_insert_threads = 0, min_insert_block_size_bytes = 0, max_insert_memory_usage = $BUDGET"
run "${TUNED//$SRC/$SHOWN}" --path "$DB" -q "$TUNED"
run "SELECT table, count() AS parts, sum(rows) FROM system.parts WHERE table LIKE 'posts%' AND active GROUP BY table ORDER BY table" \
  --path "$DB" --format PrettyCompact -q "SELECT table, count() AS parts, sum(rows) FROM system.parts WHERE table LIKE 'posts%' AND active GROUP BY table ORDER BY table"
Q1T="SELECT OwnerDisplayName, count() AS num_posts FROM posts WHERE OwnerDisplayName NOT IN ('', 'anon')
GROUP BY OwnerDisplayName ORDER BY num_posts DESC LIMIT 5"
run "$Q1T" --path "$DB" --format PrettyCompact -q "$Q1T"
RANGE="SELECT count() FROM posts WHERE CreationDate >= '2020-01-01 00:00:00' AND CreationDate < '2020-02-01 00:00:00'"
run "$RANGE" --path "$DB" -q "$RANGE"
run "OPTIMIZE TABLE posts FINAL" --path "$DB" -q "OPTIMIZE TABLE posts FINAL"
run "SELECT count() AS active_parts, sum(rows) FROM system.parts WHERE table = 'posts' AND active" --path "$DB" \
  --format PrettyCompact -q "SELECT count() AS active_parts, sum(rows) FROM system.parts WHERE table = 'posts' AND active"

# ---- 5. three nodes: s3Cluster and a distributed insert ----
echo
echo "== starting three shale servers on 127.0.0.1 (scripts/cluster.sh start 3): cluster 'three'"
CLUSTER_DIR="$WORK/cluster"
scripts/cluster.sh start 3 --dir "$CLUSTER_DIR" --name three --shale "$SHALE" >/dev/null ||
  { echo "demo: FAILED: the three servers did not start"; exit 1; }
tcp() { awk -v i="$1" '$1 == i { print $2 }' "$CLUSTER_DIR/nodes.tsv"; }
cat "$CLUSTER_DIR/nodes.tsv" | awk '{ printf "node %s: native port %s, http port %s, pid %s\n", $1, $2, $3, $4 }'
crun() { # statement shown, then shale client's arguments (node 0 unless --port is given first)
  echo
  echo "shale :) $1"
  echo
  shift
  "$SHALE" client --port "$(tcp 0)" --time "$@"
}
same() { # what, single-node answer, cluster answer
  if [ "$2" != "$3" ]; then
    echo "demo: FAILED: $1 differs from the single-node answer:"; diff <(echo "$2") <(echo "$3") | head -20; exit 1
  fi
  echo "-- $1: the same as on one node"
}
CSRC="s3Cluster('three', '$EP/posts/by_part/*.$EXT', $K)"
CSHOWN="s3Cluster('three', '$EP/posts/by_part/*.$EXT', '***', '***')"
Q1C=${Q1//$SRC/$CSRC}
crun "${Q1C//$CSRC/$CSHOWN}" -q "$Q1C" --format PrettyCompact
same "the top 5 via s3Cluster over three nodes" "$("$SHALE" local -q "$Q1")" "$("$SHALE" client --port "$(tcp 0)" -q "$Q1C")"
echo "-- the objects each node read and the rows of aggregate states it sent back (node 0's log):"
grep -h "s3Cluster('three') query .*: node .* read " "$CLUSTER_DIR/n0/server.log" | tail -3 | sed 's/.*: node /   node /'

LOCAL_DDL="CREATE TABLE posts_local (Id UInt64, CreationDate DateTime, OwnerDisplayName String, Score Int32, Title String)
ENGINE = MergeTree ORDER BY (toDate(CreationDate), CreationDate)"
DIST_DDL="CREATE TABLE posts_dist AS posts_local ENGINE = Distributed(three, default, posts_local, Id)"
for n in 0 1 2; do
  crun "$LOCAL_DDL  -- on node $n" --port "$(tcp $n)" -q "$LOCAL_DDL"
  crun "$DIST_DDL  -- on node $n" --port "$(tcp $n)" -q "$DIST_DDL"
done
DINS="INSERT INTO posts_dist SELECT * FROM $CSRC SETTINGS parallel_distributed_insert_select = 2"
crun "${DINS//$CSRC/$CSHOWN}" -q "$DINS"
echo "-- parallel_distributed_insert_select = 2: every node inserted the objects it read into its own shard:"
TOTAL=0
for n in 0 1 2; do
  c=$("$SHALE" client --port "$(tcp $n)" -q "SELECT count() FROM posts_local")
  echo "   node $n: $c rows"; TOTAL=$((TOTAL + c))
done
same "the rows over the three shards" "$ROWS" "$TOTAL"
Q1D="SELECT OwnerDisplayName, count() AS num_posts FROM posts_dist WHERE OwnerDisplayName NOT IN ('', 'anon')
GROUP BY OwnerDisplayName ORDER BY num_posts DESC LIMIT 5"
crun "$Q1D" -q "$Q1D" --format PrettyCompact
same "the top 5 over the Distributed table" "$("$SHALE" local -q "$Q1")" "$("$SHALE" client --port "$(tcp 0)" -q "$Q1D")"
Q2D="SELECT count(), sum(Score), max(CreationDate) FROM posts_dist"
crun "$Q2D" -q "$Q2D" --format PrettyCompact
# against the single-node MergeTree table of step 4 (a DateTime column: s3()'s Parquet gives DateTime64(3))
same "count, sum and max over the Distributed table" \
  "$("$SHALE" local --path "$DB" -q "${Q2D//posts_dist/posts}")" "$("$SHALE" client --port "$(tcp 0)" -q "$Q2D")"
scripts/cluster.sh stop --dir "$CLUSTER_DIR" >/dev/null
CLUSTER_DIR=""
echo "-- the three servers are stopped"

echo
echo "demo: ok ($ROWS rows in $FILES $FMT objects on $SERVER at $EP/posts/by_part/; the servers are stopped now)"
