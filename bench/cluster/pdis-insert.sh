#!/usr/bin/env bash
# INSERT of the posts set from S3 into the guide's MergeTree table: one node against three
# (`shale server`s on 127.0.0.1, one shared <remote_servers>), with a throwaway Ceph radosgw
# (tests/s3/start-ceph.sh) as the S3:
#   single    INSERT INTO posts SELECT * FROM s3(glob)                  (one node does all)
#   pdis=2    INSERT INTO posts_dist SELECT * FROM s3Cluster('three', glob)
#             SETTINGS parallel_distributed_insert_select = 2            (each node inserts what it reads)
#   pdis=1    … = 1 (each node routes what it reads by the sharding key through posts_dist)
#   pdis=0    … = 0 (the initiator reads every row and routes it)
# Each variant runs RUNS times after the tables are truncated; the median elapsed (curl's wall
# time of the INSERT) and the rows and objects each node took are reported. All processes
# share this machine's cores (2 on the project's machine): the figure is the coordination
# overhead and the balance, not a speed-up.
# Usage: bench/cluster/pdis-insert.sh [path/to/shale] [rows (1000000)] [runs (3)]
# The posts set is generated once into bench/data/posts-<rows>/ (git-ignored) by
# bench/lib/gen-posts.js. Prints a table and writes bench/results/<date>-cluster_pdis_insert.md
# (BENCH_NOTE="…" adds a line).
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
SHALE=$(realpath "${1:-$REPO/build/shale}")
ROWS=${2:-1000000}
RUNS=${3:-3}
CHDB="$REPO/tests/queries/node_modules/chdb"
[ -d "$CHDB" ] || CHDB="$REPO/bench/node_modules/chdb"
DATA="$REPO/bench/data/posts-$ROWS"
[ -d "$DATA/by_month" ] || node "$REPO/bench/lib/gen-posts.js" --rows "$ROWS" --out "$DATA" --chdb "$CHDB" >/dev/null
. "$REPO/tests/server/lib.sh" # free_port, stop_pids, nodes_*
WORK=$(mktemp -d)
PIDS=()
RGW="$WORK/rgw"
cleanup() {
  stop_pids "${PIDS[@]}"
  "$REPO/tests/s3/stop-ceph.sh" "$RGW" >/dev/null 2>&1 || true
  rm -rf "$WORK"
}
trap cleanup EXIT

RPORT=$(free_port)
EP="http://127.0.0.1:$RPORT"
timeout 120 "$REPO/tests/s3/start-ceph.sh" "$RGW" "$RPORT" "$(free_port)" >"$WORK/rgw.log" 2>&1 ||
  { echo "radosgw could not start:"; tail -5 "$WORK/rgw.log"; exit 1; }
s3c() { curl -sf --aws-sigv4 "aws:amz:us-east-1:s3" --user "TESTKEY:TESTSECRET" -H 'x-amz-content-sha256: UNSIGNED-PAYLOAD' "$@"; }
s3c -X PUT "$EP/posts" >/dev/null
for f in "$DATA"/by_month/*.parquet; do s3c -T "$f" "$EP/posts/by_month/$(basename "$f")" >/dev/null; done
GLOB="'$EP/posts/by_month/*.parquet', 'TESTKEY', 'TESTSECRET'"
NOBJ=$(ls "$DATA"/by_month/*.parquet | wc -l)

nodes_ports 3
conf() {
  cat <<XML
    <remote_servers><three>
        <shard><replica><host>127.0.0.1</host><port>${TCP[0]}</port></replica></shard>
        <shard><replica><host>127.0.0.1</host><port>${TCP[1]}</port></replica></shard>
        <shard><replica><host>127.0.0.1</host><port>${TCP[2]}</port></replica></shard>
    </three></remote_servers>
XML
}
nodes_start "$WORK" 3 conf
q() { curl -sS --max-time 3600 "http://127.0.0.1:${HTTP[$1]}/" --data-binary "$2"; }
DDL=$(node -e "const s=require('fs').readFileSync('$REPO/bench/lib/insert-bench.js','utf8'); process.stdout.write(s.match(/const DDL = \"(.*)\";/)[1])")
for n in 0 1 2; do
  [ -z "$(q $n "$DDL")" ] || { echo "cannot create posts on node $n"; exit 1; }
  [ -z "$(q $n "CREATE TABLE posts_dist AS posts ENGINE = Distributed(three, default, posts, Id)")" ] || exit 1
done

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
declare -A EL SPREAD
VARIANTS=(single pdis2 pdis1 pdis0)
for v in "${VARIANTS[@]}"; do
  times=()
  for r in $(seq 1 "$RUNS"); do
    for n in 0 1 2; do q $n "TRUNCATE TABLE posts" >/dev/null; done
    case $v in
      single) SQL="INSERT INTO posts SELECT * FROM s3($GLOB)" ;;
      pdis2) SQL="INSERT INTO posts_dist SELECT * FROM s3Cluster('three', $GLOB) SETTINGS parallel_distributed_insert_select = 2" ;;
      pdis1) SQL="INSERT INTO posts_dist SELECT * FROM s3Cluster('three', $GLOB) SETTINGS parallel_distributed_insert_select = 1" ;;
      pdis0) SQL="INSERT INTO posts_dist SELECT * FROM s3Cluster('three', $GLOB) SETTINGS parallel_distributed_insert_select = 0" ;;
    esac
    t=$(curl -sS -o "$WORK/out" -w '%{time_total}' --max-time 3600 "http://127.0.0.1:${HTTP[0]}/" --data-binary "$SQL")
    [ ! -s "$WORK/out" ] || { echo "$v failed: $(head -c 400 "$WORK/out")"; exit 1; }
    total=$(q 0 "SELECT count() FROM posts_dist")
    [ "$total" = "$ROWS" ] || { echo "$v: $total rows instead of $ROWS"; exit 1; }
    times+=("$t")
  done
  EL[$v]=$(printf '%s\n' "${times[@]}" | median)
  SPREAD[$v]="$(q 0 "SELECT count() FROM posts") / $(q 1 "SELECT count() FROM posts") / $(q 2 "SELECT count() FROM posts")"
  echo "$v: ${EL[$v]} s (runs: ${times[*]}), rows per node ${SPREAD[$v]}"
done

ratio() { python3 -c "import sys; print(round(float(sys.argv[1]) / float(sys.argv[2]), 2))" "$1" "$2"; }
OUT="$REPO/bench/results/$(date -u +%Y-%m-%d)-cluster_pdis_insert.md"
{
  echo "# INSERT of the posts set from S3: one node vs three (parallel_distributed_insert_select)"
  echo
  echo "$ROWS rows in $NOBJ Parquet objects on a local Ceph radosgw; three \`shale server\`s on 127.0.0.1;"
  echo "the guide's posts table; median of $RUNS runs (curl's wall time of the INSERT on node 1)."
  echo "$(nproc) cores shared by radosgw, the three servers and other work on the machine: every"
  echo "node competes for the same cores, so this measures overhead and balance, not speed-up."
  [ -z "${BENCH_NOTE:-}" ] || { echo; echo "$BENCH_NOTE"; }
  echo
  echo "| variant | elapsed (s) | vs single node | rows per node (1 / 2 / 3) |"
  echo "|---|---|---|---|"
  for v in "${VARIANTS[@]}"; do
    case $v in
      single) name="single node: s3() → posts" ;;
      pdis2) name="3 nodes, parallel_distributed_insert_select = 2" ;;
      pdis1) name="3 nodes, parallel_distributed_insert_select = 1" ;;
      pdis0) name="3 nodes, parallel_distributed_insert_select = 0 (initiator routes)" ;;
    esac
    echo "| $name | ${EL[$v]} | $(ratio "${EL[$v]}" "${EL[single]}") | ${SPREAD[$v]} |"
  done
} | tee "$OUT"
