#!/usr/bin/env bash
# s3Cluster's overhead and balance (issue 15): the guide's top-5 query (bench/benchmarks.js
# Q1) over the 189 Parquet objects of the posts set in a local radosgw (tests/s3/start-ceph.sh),
# with four `shale server`s from scripts/cluster.sh on 127.0.0.1:
#   - Q1 via s3() on node 0 against Q1 via s3Cluster('three') (nodes 0, 1, 2; node 0
#     initiates and works): the elapsed ratio and the coordination overhead per object
#     handed out, (T_cluster - T_s3) / objects;
#   - objects and their bytes (the files' sizes) per node; how many of its objects each node got again on the
#     next run (rendezvous affinity), from the initiator's Debug log of the objects each
#     node read;
#   - the initiator's own CPU per object: s3Cluster('workers') (nodes 1, 2, 3) initiated by
#     node 0, which reads nothing itself: `SELECT count()` (handout only: no column travels)
#     and Q1 (handout + receiving and aggregating every row), CPU of node 0's process from
#     /proc/PID/stat around the query;
#   - Q1 via s3Cluster('three') with the rows path forced (the column read in a subquery:
#     the nodes send rows, node 0 aggregates), against the split query above;
#   - CPU seconds of every shale server (all four processes, from /proc/PID/stat) around
#     each timed Q1, since on a shared machine elapsed time says little on its own (radosgw's
#     CPU is not counted: the same objects are fetched either way).
# A query that aggregates runs to WithMergeableState on the nodes (docs/cluster.md): the
# rows column of the table counts rows of keys and aggregate states sent, not rows read.
# Warm: one untimed run of each, then RUNS interleaved runs, the median. The results of s3()
# and s3Cluster must be identical. The machine may be shared: the report says so.
# Usage: bench/cluster/s3cluster-bench.sh [path/to/shale] [posts set dir (bench/data/posts-6000000)] [runs (3)]
# A missing posts set is generated with bench/lib/gen-posts.js (6 M rows).
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
SHALE=$(realpath "${1:-$REPO/build/shale}")
DATA=${2:-$REPO/bench/data/posts-6000000}
RUNS=${3:-3}
if [ ! -d "$DATA/by_month" ]; then
  CHDB="$REPO/tests/queries/node_modules/chdb"; [ -d "$CHDB" ] || CHDB="$REPO/bench/node_modules/chdb"
  node "$REPO/bench/lib/gen-posts.js" --rows 6000000 --out "$DATA" --chdb "$CHDB" >/dev/null
fi
DATA=$(realpath "$DATA")
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
WORK=$(mktemp -d)
C="$WORK/cluster"
cleanup() {
  "$REPO/scripts/cluster.sh" stop --dir "$C" >/dev/null 2>&1 || true
  "$REPO/tests/s3/stop-ceph.sh" "$WORK/rgw" >/dev/null 2>&1 || true
  rm -rf "$WORK"
}
trap cleanup EXIT
PORT=$(free_port); MON=$(free_port); EP="http://127.0.0.1:$PORT"
timeout 180 "$REPO/tests/s3/start-ceph.sh" "$WORK/rgw" "$PORT" "$MON" >"$WORK/rgw.log" 2>&1 || { echo "radosgw did not start"; tail -5 "$WORK/rgw.log"; exit 1; }
CURL=(-sf --aws-sigv4 "aws:amz:us-east-1:s3" --user "TESTKEY:TESTSECRET" -H 'x-amz-content-sha256: UNSIGNED-PAYLOAD')
curl "${CURL[@]}" -X PUT "$EP/posts" >/dev/null
(cd "$DATA/by_month" && ls *.parquet | xargs -P 4 -I{} curl "${CURL[@]}" -T {} "$EP/posts/by_month/{}" -o /dev/null)
NOBJ=$(ls "$DATA/by_month"/*.parquet | wc -l)
BYTES=$(cat "$DATA/by_month"/*.parquet | wc -c)

echo "<logger><level>debug</level></logger>" >"$WORK/extra.xml"
"$REPO/scripts/cluster.sh" start 4 --dir "$C" --name all --also three:0,1,2 --also workers:1,2,3 \
  --shale "$SHALE" --extra "$WORK/extra.xml" >/dev/null
tcp() { awk -v i="$1" '$1 == i { print $2 }' "$C/nodes.tsv"; }
http() { awk -v i="$1" '$1 == i { print $3 }' "$C/nodes.tsv"; }
pid() { awk -v i="$1" '$1 == i { print $4 }' "$C/nodes.tsv"; }

# Q1 of bench/benchmarks.js (no second copy of it here)
Q1=$(node -e "const s=require('fs').readFileSync('$REPO/bench/benchmarks.js','utf8'); const m=s.match(/const Q1 = \(src\) => \`(.*)\` \+\s*'(.*)';/); process.stdout.write(m[1] + m[2])")
case "$Q1" in 'SELECT OwnerDisplayName'*) ;; *) echo "cannot find Q1"; exit 1 ;; esac
S3="s3('$EP/posts/by_month/*.parquet', 'TESTKEY', 'TESTSECRET', 'Parquet')"
S3C() { echo "s3Cluster('$1', '$EP/posts/by_month/*.parquet', 'TESTKEY', 'TESTSECRET', 'Parquet')"; }
Q_S3=${Q1/\$\{src\}/$S3}
Q_C3=${Q1/\$\{src\}/$(S3C three)}
Q_W3=${Q1/\$\{src\}/$(S3C workers)}
Q_R3=${Q1/\$\{src\}/(SELECT OwnerDisplayName FROM $(S3C three))}
Q_CNT="SELECT count() FROM $(S3C workers)"

cpu_ms() { awk '{ print ($14 + $15) * 1000 / '"$(getconf CLK_TCK)"' }' "/proc/$1/stat"; }
all_cpu_ms() { local t=0 c; for n in 0 1 2 3; do c=$(cpu_ms "$(pid $n)"); t=$(awk -v a="$t" -v b="$c" 'BEGIN { print a + b }'); done; echo "$t"; }
run() { # OUTFILE SQL → prints ms
  local t0 t1; t0=$(date +%s%N)
  "$SHALE" client --port "$(tcp 0)" -q "$2" >"$1" 2>&1
  t1=$(date +%s%N); echo $(( (t1 - t0) / 1000000 ))
}
run_cpu() { # OUTFILE SQL TIMES_ARRAY CPU_ARRAY: appends elapsed ms and the servers' CPU ms
  local c0 c1 t; c0=$(all_cpu_ms); t=$(run "$1" "$2"); c1=$(all_cpu_ms)
  eval "$3+=(\"$t\")"; eval "$4+=(\"$(awk -v a="$c0" -v b="$c1" 'BEGIN { print b - a }')\")"
}
median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
# the objects (listing indices) node TCP read in the last s3Cluster query logged by node 0
objects_of() { grep "node 127.0.0.1:$1 objects:" "$C/n0/server.log" | tail -1 | sed 's/.*objects: //'; }

echo "warm-up..." >&2
run "$WORK/ref" "$Q_S3" >/dev/null
run "$WORK/c3" "$Q_C3" >/dev/null
cmp -s "$WORK/ref" "$WORK/c3" || { echo "s3Cluster's result differs from s3()'s:"; diff "$WORK/ref" "$WORK/c3" | head; exit 1; }
declare -A PREV
for n in 0 1 2; do PREV[$n]=$(objects_of "$(tcp $n)"); done
T_S3=(); T_C3=(); C_S3=(); C_C3=(); T_R3=(); C_R3=(); AFF=()
for r in $(seq 1 "$RUNS"); do
  run_cpu "$WORK/o" "$Q_S3" T_S3 C_S3; cmp -s "$WORK/ref" "$WORK/o" || { echo "s3() result changed"; exit 1; }
  run_cpu "$WORK/o" "$Q_R3" T_R3 C_R3; cmp -s "$WORK/ref" "$WORK/o" || { echo "s3Cluster (rows) result differs"; exit 1; }
  run_cpu "$WORK/o" "$Q_C3" T_C3 C_C3; cmp -s "$WORK/ref" "$WORK/o" || { echo "s3Cluster result differs"; exit 1; }
  line=""
  for n in 0 1 2; do
    cur=$(objects_of "$(tcp $n)")
    same=$(comm -12 <(echo "${PREV[$n]}" | tr ',' '\n' | sort) <(echo "$cur" | tr ',' '\n' | sort) | grep -c . || true)
    got=$(echo "$cur" | tr ',' '\n' | grep -c . || true)
    line="$line node $n: $same of $got again;"
    PREV[$n]=$cur
  done
  AFF+=("run $r:$line")
done
# per node over the last run: objects, their bytes, rounds, rows
OBJ_LINES=()
for n in 0 1 2; do
  cur=$(objects_of "$(tcp $n)")
  ob=0
  mapfile -t FILES < <(ls "$DATA/by_month"/*.parquet | sort)
  for i in $(echo "$cur" | tr ',' ' '); do ob=$((ob + $(stat -c %s "${FILES[$i]}"))); done
  summary=$(grep "node 127.0.0.1:$(tcp $n) read" "$C/n0/server.log" | tail -1 | sed 's/.*read \([0-9]*\) of \([0-9]*\) objects in \([0-9]*\) rounds, \([0-9]*\) rows.*/\1 objects, \3 rounds, \4 rows/')
  OBJ_LINES+=("| $n | $summary | $(awk -v b="$ob" 'BEGIN { printf "%.1f", b / 1048576 }') MiB |")
done

# the initiator alone (node 0 not among the workers): CPU per object
run "$WORK/o" "$Q_W3" >/dev/null; run "$WORK/o" "$Q_CNT" >/dev/null
CPU_CNT=(); CPU_W3=(); T_CNT=(); T_W3=()
for r in $(seq 1 "$RUNS"); do
  c0=$(cpu_ms "$(pid 0)"); T_CNT+=("$(run "$WORK/o" "$Q_CNT")"); c1=$(cpu_ms "$(pid 0)"); CPU_CNT+=("$(awk -v a="$c0" -v b="$c1" 'BEGIN { print b - a }')")
  [ "$(cat "$WORK/o")" -gt 0 ] || { echo "count() failed: $(cat "$WORK/o")"; exit 1; }
  c0=$(cpu_ms "$(pid 0)"); T_W3+=("$(run "$WORK/o" "$Q_W3")"); c1=$(cpu_ms "$(pid 0)"); CPU_W3+=("$(awk -v a="$c0" -v b="$c1" 'BEGIN { print b - a }')")
  cmp -s "$WORK/ref" "$WORK/o" || { echo "s3Cluster('workers') result differs"; exit 1; }
done
# the rows the last Q1 via 'workers' moved: its three nodes' lines (the last query logged)
ROWS=0
for n in 1 2 3; do
  r=$(grep "node 127.0.0.1:$(tcp $n) read" "$C/n0/server.log" | tail -1 | sed 's/.*, \([0-9]*\) rows.*/\1/')
  ROWS=$((ROWS + r))
done

ms() { printf '%s\n' "$@" | median; }
TS3=$(ms "${T_S3[@]}"); TC3=$(ms "${T_C3[@]}")
echo "## s3Cluster over 3 local nodes vs s3() on one ($(date -u +%F), $(nproc) cores shared with other work)"
echo
echo "Posts set: $NOBJ objects, $(awk -v b="$BYTES" 'BEGIN { printf "%.1f", b / 1048576 }') MiB, in radosgw on 127.0.0.1; $RUNS runs after a warm-up, medians."
echo
echo "| figure | value |"
echo "|---|---|"
echo "| Q1 via s3() on node 0 | $TS3 ms (runs: ${T_S3[*]}) |"
echo "| Q1 via s3Cluster('three') from node 0 | $TC3 ms (runs: ${T_C3[*]}) |"
echo "| CPU of all shale servers during Q1 via s3() | $(ms "${C_S3[@]}") ms (runs: ${C_S3[*]}) |"
echo "| CPU of all shale servers during Q1 via s3Cluster('three') | $(ms "${C_C3[@]}") ms (runs: ${C_C3[*]}) |"
echo "| Q1 via s3Cluster('three'), rows path (nodes send the column, node 0 aggregates) | $(ms "${T_R3[@]}") ms (runs: ${T_R3[*]}) |"
echo "| CPU of all shale servers during it | $(ms "${C_R3[@]}") ms (runs: ${C_R3[*]}) |"
echo "| elapsed ratio s3Cluster / s3() | $(awk -v a="$TC3" -v b="$TS3" 'BEGIN { printf "%.2f", a / b }') |"
echo "| coordination overhead per object handed out, (T_s3Cluster - T_s3) / $NOBJ | $(awk -v a="$TC3" -v b="$TS3" -v n="$NOBJ" 'BEGIN { printf "%.2f", (a - b) / n }') ms |"
echo "| count() via s3Cluster('workers') (node 0 only initiates): elapsed, node 0 CPU | $(ms "${T_CNT[@]}") ms, $(ms "${CPU_CNT[@]}") ms → $(awk -v c="$(ms "${CPU_CNT[@]}")" -v n="$NOBJ" 'BEGIN { printf "%.3f", c / n }') ms CPU per object |"
echo "| Q1 via s3Cluster('workers'): elapsed, node 0 CPU | $(ms "${T_W3[@]}") ms, $(ms "${CPU_W3[@]}") ms for $NOBJ objects and ${ROWS:-?} rows |"
echo
echo "| node | objects, rounds, rows of states sent (last run) | bytes of its objects |"
echo "|---|---|---|"
printf '%s\n' "${OBJ_LINES[@]}"
echo
echo "Affinity (objects a node got that it also got in the run before):"
printf -- '- %s\n' "${AFF[@]}"
