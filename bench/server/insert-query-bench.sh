#!/usr/bin/env bash
# shale server against `shale local` (and ClickHouse through chdb) on the posts set:
#  1. INSERT of the posts set into the guide's MergeTree table over HTTP, the body streamed by
#     curl (-T -: chunked, read from the file as it is sent) in Parquet, Native and JSONEachRow, against
#     `shale local --path D` inserting the same bytes from the same file on its standard input;
#     rows/s and server/local ratio (the issue's goal: >= 90 %);
#  2. the guide's top-5 query (bench/benchmarks.js Q1), warm (one untimed run, then the median of
#     RUNS): through the server (curl, keep-alive not needed: one request per run), `shale local`
#     (a process per run, as a script runs it) and chdb (one Session), over the MergeTree table
#     and over the Parquet files with file().
# Usage: bench/server/insert-query-bench.sh [path/to/shale] [rows (6000000)] [runs (3)]
# The posts set is generated once into bench/data/posts-<rows>/ (git-ignored) by bench/lib/gen-posts.js.
# Prints a table and writes bench/results/<date>-server_insert_query.md (BENCH_NOTE="…" adds a line).
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
SHALE=$(realpath "${1:-$REPO/build/shale}")
ROWS=${2:-6000000}
RUNS=${3:-3}
CHDB="$REPO/tests/queries/node_modules/chdb"
[ -d "$CHDB" ] || CHDB="$REPO/bench/node_modules/chdb"
DATA="$REPO/bench/data/posts-$ROWS"
if [ ! -d "$DATA/by_month" ]; then
  node "$REPO/bench/lib/gen-posts.js" --rows "$ROWS" --out "$DATA" --chdb "$CHDB" >/dev/null
fi
WORK=$(mktemp -d)
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
URL="http://127.0.0.1:$PORT"
SHALE_PID=
cleanup() {
  [ -n "$SHALE_PID" ] && kill -TERM "$SHALE_PID" 2>/dev/null && wait "$SHALE_PID" 2>/dev/null
  rm -rf "$WORK"
}
trap cleanup EXIT

# The guide's DDL and Q1, as the other posts benchmarks use them (no second copy here).
node -e "const s=require('fs').readFileSync('$REPO/bench/lib/insert-bench.js','utf8'); process.stdout.write(s.match(/const DDL = \"(.*)\";/)[1])" > "$WORK/ddl.sql"
node -e "const s=require('fs').readFileSync('$REPO/bench/benchmarks.js','utf8'); const m=s.match(/const Q1 = \(src\) => \`(.*)\` \+\s*'(.*)';/); process.stdout.write(m[1].replace('\${src}','posts') + m[2])" > "$WORK/q1.sql"
grep -q '^CREATE TABLE posts' "$WORK/ddl.sql" && grep -q '^SELECT OwnerDisplayName' "$WORK/q1.sql" || { echo "cannot find the DDL or Q1"; exit 1; }

now() { date +%s.%N; }
secs() { python3 -c "import sys; print(round(float(sys.argv[2]) - float(sys.argv[1]), 3))" "$1" "$2"; }

# The bodies: the whole set as one file per format, written by shale from the table itself
# (so that Native's column types are the table's). Kept in $DATA/bodies (git-ignored with the
# data) for the next run; PREP_ONLY=1 writes them and stops.
BODIES="$DATA/bodies"
if [ ! -f "$BODIES/posts.JSONEachRow" ]; then
  mkdir -p "$BODIES"
  "$SHALE" local --path "$WORK/prep" --queries-file "$WORK/ddl.sql"
  "$SHALE" local --path "$WORK/prep" -q "INSERT INTO posts SELECT * FROM file('$DATA/by_month/*.parquet', Parquet)"
  for f in Parquet Native JSONEachRow; do
    "$SHALE" local --path "$WORK/prep" -q "SELECT * FROM posts FORMAT $f" > "$BODIES/posts.$f.tmp" && mv "$BODIES/posts.$f.tmp" "$BODIES/posts.$f"
  done
  rm -rf "$WORK/prep"
fi
for f in Parquet Native JSONEachRow; do ln -s "$BODIES/posts.$f" "$WORK/posts.$f"; done
[ "${PREP_ONLY:-0}" = 1 ] && exit 0

TCP_PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
"$SHALE" server -- --http_port="$PORT" --tcp_port="$TCP_PORT" --listen_host=127.0.0.1 --path="$WORK/server/" >"$WORK/server.log" 2>&1 &
SHALE_PID=$!
for _ in $(seq 1 100); do curl -s "$URL/ping" >/dev/null 2>&1 && break; sleep 0.1; done

declare -A T_LOCAL T_SERVER
for f in Parquet Native JSONEachRow; do
  cat "$WORK/posts.$f" > /dev/null # page cache, for both
  # shale local: a fresh directory, the table created untimed, the INSERT timed as a process
  rm -rf "$WORK/local"; "$SHALE" local --path "$WORK/local" --queries-file "$WORK/ddl.sql"
  t0=$(now); "$SHALE" local --path "$WORK/local" -q "INSERT INTO posts FORMAT $f" < "$WORK/posts.$f"; t1=$(now)
  T_LOCAL[$f]=$(secs "$t0" "$t1")
  n=$("$SHALE" local --path "$WORK/local" -q "SELECT count() FROM posts")
  [ "$n" = "$ROWS" ] || { echo "shale local inserted $n rows of $ROWS ($f)"; exit 1; }
  # the server: the table dropped and created untimed, the request timed
  curl -sS "$URL/" --data-binary 'DROP TABLE IF EXISTS posts' >/dev/null
  curl -sS "$URL/" --data-binary @"$WORK/ddl.sql"
  t0=$(now)
  out=$(curl -sS -X POST -T - "$URL/?query=INSERT%20INTO%20posts%20FORMAT%20$f" < "$WORK/posts.$f")
  t1=$(now)
  [ -z "$out" ] || { echo "server INSERT ($f): $out"; exit 1; }
  T_SERVER[$f]=$(secs "$t0" "$t1")
  n=$(curl -sS "$URL/" --data-binary 'SELECT count() FROM posts')
  [ "$n" = "$ROWS" ] || { echo "the server inserted $n rows of $ROWS ($f)"; exit 1; }
done

# Q1, warm. The server's table and shale local's hold the same rows (the last INSERT).
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
time_runs() { # command… → median ms of RUNS runs after one untimed run
  "$@" > "$WORK/q1.out"
  for _ in $(seq 1 "$RUNS"); do
    t0=$(now); "$@" > /dev/null; t1=$(now)
    python3 -c "import sys; print((float(sys.argv[2]) - float(sys.argv[1])) * 1000)" "$t0" "$t1"
  done | median
}
SRC_FILE="file('$DATA/by_month/*.parquet', Parquet)"
sed "s|FROM posts|FROM $SRC_FILE|" "$WORK/q1.sql" > "$WORK/q1_file.sql"
Q_SERVER_MT=$(time_runs curl -sS "$URL/" --data-binary @"$WORK/q1.sql"); cp "$WORK/q1.out" "$WORK/q1.server"
Q_LOCAL_MT=$(time_runs "$SHALE" local --path "$WORK/local" --queries-file "$WORK/q1.sql"); cp "$WORK/q1.out" "$WORK/q1.local"
Q_SERVER_F=$(time_runs curl -sS "$URL/" --data-binary @"$WORK/q1_file.sql")
Q_LOCAL_F=$(time_runs "$SHALE" local --queries-file "$WORK/q1_file.sql")
cmp -s "$WORK/q1.server" "$WORK/q1.local" || { echo "Q1 differs between the server and shale local"; exit 1; }
read -r Q_CH_F Q_CH_MT < <(node "$HERE/chdb-q1.js" "$CHDB" "$DATA" "$WORK/ddl.sql" "$WORK/q1.sql" "$RUNS")

OUT="$REPO/bench/results/$(date +%F)-server_insert_query.md"
python3 - "$OUT" "$ROWS" "$RUNS" "$(nproc)" "${BENCH_NOTE:-}" \
  "${T_LOCAL[Parquet]}" "${T_SERVER[Parquet]}" "${T_LOCAL[Native]}" "${T_SERVER[Native]}" \
  "${T_LOCAL[JSONEachRow]}" "${T_SERVER[JSONEachRow]}" \
  "$(stat -L -c %s "$WORK/posts.Parquet")" "$(stat -L -c %s "$WORK/posts.Native")" "$(stat -L -c %s "$WORK/posts.JSONEachRow")" \
  "$Q_SERVER_MT" "$Q_LOCAL_MT" "$Q_CH_MT" "$Q_SERVER_F" "$Q_LOCAL_F" "$Q_CH_F" <<'PY'
import sys
out, rows, runs, cores, note = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5]
t = [float(x) for x in sys.argv[6:12]]
size = [int(x) for x in sys.argv[12:15]]
q = [float(x) for x in sys.argv[15:21]]
lines = [f"# shale server: INSERT over HTTP and the top-5 query, against shale local and ClickHouse\n",
         f"`bench/server/insert-query-bench.sh`: the posts set ({rows} rows, bench/lib/gen-posts.js) into the guide's "
         f"MergeTree table; {cores} cores; one run per INSERT; queries warm (median of {runs} after one untimed run).\n",
         "| INSERT body | MiB | shale local s | server s | local rows/s | server rows/s | server / local |",
         "|---|---:|---:|---:|---:|---:|---:|"]
for i, f in enumerate(["Parquet", "Native", "JSONEachRow"]):
    lo, sv = t[2 * i], t[2 * i + 1]
    lines.append(f"| {f} | {size[i] / 2**20:.1f} | {lo:.2f} | {sv:.2f} | {rows / lo:,.0f} | {rows / sv:,.0f} | "
                 f"**{lo / sv * 100:.0f} %** |")
lines += ["", "The top-5 query (ms, warm): the server through curl, shale local as a process per run (start-up "
          "included), ClickHouse in one chdb Session.", "",
          "| source | server | shale local | chdb | server / local | server / chdb |", "|---|---:|---:|---:|---:|---:|",
          f"| MergeTree posts | {q[0]:.1f} | {q[1]:.1f} | {q[2]:.1f} | {q[0] / q[1]:.2f} | {q[0] / q[2]:.2f} |",
          f"| Parquet file() | {q[3]:.1f} | {q[4]:.1f} | {q[5]:.1f} | {q[3] / q[4]:.2f} | {q[3] / q[5]:.2f} |"]
if note:
    lines += ["", "Note: " + note]
open(out, "w").write("\n".join(lines) + "\n")
print("\n".join(lines))
PY
