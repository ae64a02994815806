#!/usr/bin/env bash
# The guide's top-5 query (bench/benchmarks.js Q1) over remote() of three `shale server`s
# holding a third of the posts set each (Id % 3), initiated by shale (`shale local`, a process
# per run) and by ClickHouse (chdb, one process), against the same query on one node holding
# all the rows: directly (shale client, native protocol) and through remote() of that node.
# Aggregating queries are split as ClickHouse splits them: every shard sends the keys and
# count() states (WithMergeableState), the initiator merges, sorts and limits.
# Warm: one untimed run, then the median of RUNS. The four results must be identical.
# Usage: bench/server/remote-bench.sh [path/to/shale] [rows (600000)] [runs (5)]
# The posts set is generated once into bench/data/posts-<rows>/ (git-ignored) by bench/lib/gen-posts.js.
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
SHALE=$(realpath "${1:-$REPO/build/shale}")
ROWS=${2:-600000}
RUNS=${3:-5}
CHDB="$REPO/tests/queries/node_modules/chdb"
[ -d "$CHDB" ] || CHDB="$REPO/bench/node_modules/chdb"
DATA="$REPO/bench/data/posts-$ROWS"
if [ ! -d "$DATA/by_month" ]; then
  node "$REPO/bench/lib/gen-posts.js" --rows "$ROWS" --out "$DATA" --chdb "$CHDB" >/dev/null
fi
WORK=$(mktemp -d)
PIDS=()
cleanup() {
  for p in "${PIDS[@]}"; do kill -TERM "$p" 2>/dev/null; done
  for p in "${PIDS[@]}"; do wait "$p" 2>/dev/null; done
  rm -rf "$WORK"
}
trap cleanup EXIT
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

# The guide's DDL and Q1, as the other posts benchmarks use them (no second copy here).
node -e "const s=require('fs').readFileSync('$REPO/bench/lib/insert-bench.js','utf8'); process.stdout.write(s.match(/const DDL = \"(.*)\";/)[1])" > "$WORK/ddl.sql"
node -e "const s=require('fs').readFileSync('$REPO/bench/benchmarks.js','utf8'); const m=s.match(/const Q1 = \(src\) => \`(.*)\` \+\s*'(.*)';/); process.stdout.write(m[1].replace('\${src}','posts') + m[2])" > "$WORK/q1.sql"
grep -q '^CREATE TABLE posts' "$WORK/ddl.sql" && grep -q '^SELECT OwnerDisplayName' "$WORK/q1.sql" || { echo "cannot find the DDL or Q1"; exit 1; }
Q1=$(cat "$WORK/q1.sql")

HTTP=(); TCP=()
for n in 0 1 2; do
  HTTP[$n]=$(free_port); TCP[$n]=$(free_port)
  "$SHALE" server -- --http_port="${HTTP[$n]}" --tcp_port="${TCP[$n]}" --listen_host=127.0.0.1 \
    --path="$WORK/s$n/" --user_files_path="$DATA/" >"$WORK/s$n.log" 2>&1 &
  PIDS+=($!)
done
for n in 0 1 2; do
  for _ in $(seq 1 100); do curl -s "http://127.0.0.1:${HTTP[$n]}/ping" >/dev/null 2>&1 && break; sleep 0.1; done
done
sql() { local out; out=$(curl -sS "http://127.0.0.1:$1/" --data-binary "$2"); [ -z "$out" ] || { echo "setup: $out"; exit 1; }; }
for n in 0 1 2; do
  sql "${HTTP[$n]}" "$(cat "$WORK/ddl.sql")"
  sql "${HTTP[$n]}" "INSERT INTO posts SELECT * FROM file('by_month/*.parquet', Parquet) WHERE Id % 3 = $n"
done
# One node with every row, in its own database.
sql "${HTTP[0]}" "CREATE DATABASE whole"
sql "${HTTP[0]}" "$(sed 's/CREATE TABLE posts/CREATE TABLE whole.posts/' "$WORK/ddl.sql")"
sql "${HTTP[0]}" "INSERT INTO whole.posts SELECT * FROM file('by_month/*.parquet', Parquet)"

THREE="remote('127.0.0.1:{${TCP[0]},${TCP[1]},${TCP[2]}}', default.posts)"
ONE="remote('127.0.0.1:${TCP[0]}', whole.posts)"
Q_THREE=${Q1/FROM posts/FROM $THREE}
Q_ONE=${Q1/FROM posts/FROM $ONE}
Q_NODE=${Q1/FROM posts/FROM whole.posts}

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
# ms of one run of a command, its output kept in $WORK/out.<tag>
timed() { # TAG CMD…
  local tag=$1; shift
  "$@" > "$WORK/out.$tag" 2>&1 # warm-up
  for _ in $(seq 1 "$RUNS"); do
    local t0 t1; t0=$(date +%s%N); "$@" > "$WORK/out.$tag" 2>&1; t1=$(date +%s%N)
    echo $(( (t1 - t0) / 1000 ))
  done | median | awk '{printf "%.1f", $1 / 1000}'
}
T_START=$(timed start "$SHALE" local -q "SELECT 1")
T_NODE=$(timed node "$SHALE" client --port "${TCP[0]}" -q "$Q_NODE")
T_ONE=$(timed one "$SHALE" local -q "$Q_ONE")
T_THREE=$(timed three "$SHALE" local -q "$Q_THREE")
# chdb: one process, warm, the median of RUNS for each query (ms).
cat > "$WORK/chdb.js" <<'JS'
const path = require('path');
const [chdbDir, runs, ...qs] = process.argv.slice(2);
const { query } = require(path.resolve(chdbDir));
const median = (a) => a.sort((x, y) => x - y)[Math.floor(a.length / 2)];
const out = [];
for (const q of qs) {
  const r = query(q, 'TSV');
  const t = [];
  for (let i = 0; i < Number(runs); i++) {
    const t0 = process.hrtime.bigint();
    query(q, 'TSV');
    t.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  out.push(median(t).toFixed(1));
  require('fs').writeFileSync(process.env.WORK + '/out.chdb' + out.length, r);
}
console.log(out.join(' '));
JS
read -r C_ONE C_THREE < <(cd "$WORK" && WORK="$WORK" node "$WORK/chdb.js" "$CHDB" "$RUNS" "$Q_ONE" "$Q_THREE")

for f in one three chdb1 chdb2; do
  cmp -s "$WORK/out.node" "$WORK/out.$f" || { echo "the result of $f differs:"; cat "$WORK/out.$f"; exit 1; }
done
printf 'Q1 over %s rows (ms, warm, median of %s; the four results identical):\n' "$ROWS" "$RUNS"
printf '  start-up: shale local -q "SELECT 1"       %8s\n' "$T_START"
printf '  one node, shale client (native)           %8s\n' "$T_NODE"
printf '  shale initiator, remote() of that node    %8s\n' "$T_ONE"
printf '  shale initiator, remote() of 3 shards     %8s\n' "$T_THREE"
printf '  chdb initiator, remote() of that node     %8s\n' "$C_ONE"
printf '  chdb initiator, remote() of 3 shards      %8s\n' "$C_THREE"
