#!/usr/bin/env bash
# A Native SELECT of the whole posts set (every column) to a client of the native protocol,
# against `shale local … FORMAT Native > /dev/null` for the same query (the issue's goal:
# the server's bytes/s >= 90 % of shale local's).
#   - the posts set goes into the guide's MergeTree table twice, untimed: a `shale local
#     --path` directory and a `shale server` (tcp_port), from the same Native body;
#   - timed, warm (one untimed run each, then RUNS runs, interleaved, median):
#       local:   shale local --path D -q "SELECT * FROM posts FORMAT Native" > /dev/null
#       server:  shale client --port P -q "SELECT * FROM posts FORMAT Native" > /dev/null
#                (uncompressed Data packets, shale client's default), and with --compression (LZ4)
#   - bytes/s is the Native output's size (the same bytes both ways: checked) over the time.
# Usage: bench/server/native-select-bench.sh [path/to/shale] [rows (6000000)] [runs (3)]
# The posts set and its bodies come from bench/data/posts-<rows>/ (git-ignored), made as
# bench/server/insert-query-bench.sh makes them (PREP_ONLY=1 there when they are missing).
# Prints a table and writes bench/results/<date>-native_select.md (BENCH_NOTE="…" adds a line).
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
SHALE=$(realpath "${1:-$REPO/build/shale}")
ROWS=${2:-6000000}
RUNS=${3:-3}
DATA="$REPO/bench/data/posts-$ROWS"
if [ ! -f "$DATA/bodies/posts.Native" ]; then
  PREP_ONLY=1 "$HERE/insert-query-bench.sh" "$SHALE" "$ROWS"
fi
BODY="$DATA/bodies/posts.Native"
WORK=$(mktemp -d)
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
PORT=$(free_port)
TCP_PORT=$(free_port)
URL="http://127.0.0.1:$PORT"
SHALE_PID=
cleanup() {
  [ -n "$SHALE_PID" ] && kill -TERM "$SHALE_PID" 2>/dev/null && wait "$SHALE_PID" 2>/dev/null
  rm -rf "$WORK"
}
trap cleanup EXIT

# The guide's DDL, as the other posts benchmarks use it (no second copy here).
node -e "const s=require('fs').readFileSync('$REPO/bench/lib/insert-bench.js','utf8'); process.stdout.write(s.match(/const DDL = \"(.*)\";/)[1])" > "$WORK/ddl.sql"
grep -q '^CREATE TABLE posts' "$WORK/ddl.sql" || { echo "cannot find the DDL"; exit 1; }

"$SHALE" local --path "$WORK/local" --queries-file "$WORK/ddl.sql"
"$SHALE" local --path "$WORK/local" -q "INSERT INTO posts FORMAT Native" < "$BODY"
"$SHALE" server -- --http_port="$PORT" --tcp_port="$TCP_PORT" --listen_host=127.0.0.1 --path="$WORK/server/" >"$WORK/server.log" 2>&1 &
SHALE_PID=$!
for _ in $(seq 1 100); do curl -s "$URL/ping" >/dev/null 2>&1 && break; sleep 0.1; done
curl -sS "$URL/" --data-binary @"$WORK/ddl.sql"
out=$(curl -sS -X POST -T - "$URL/?query=INSERT%20INTO%20posts%20FORMAT%20Native" < "$BODY")
[ -z "$out" ] || { echo "server INSERT: $out"; exit 1; }
for n in "$("$SHALE" local --path "$WORK/local" -q "SELECT count() FROM posts")" \
         "$(curl -sS "$URL/" --data-binary 'SELECT count() FROM posts')"; do
  [ "$n" = "$ROWS" ] || { echo "the table holds $n rows of $ROWS"; exit 1; }
done

Q="SELECT * FROM posts FORMAT Native"
run_local() { "$SHALE" local --path "$WORK/local" -q "$Q"; }
run_server() { "$SHALE" client --port "$TCP_PORT" -q "$Q"; }
run_server_lz4() { "$SHALE" client --port "$TCP_PORT" --compression -q "$Q"; }
now() { date +%s.%N; }
# Untimed: the page cache warm, and the bytes the same every way.
B_LOCAL=$(run_local | wc -c)
B_SERVER=$(run_server | wc -c)
B_LZ4=$(run_server_lz4 | wc -c)
[ "$B_LOCAL" = "$B_SERVER" ] && [ "$B_LOCAL" = "$B_LZ4" ] ||
  { echo "the outputs differ in size: local $B_LOCAL, server $B_SERVER, server LZ4 $B_LZ4"; exit 1; }
[ "$(run_local | md5sum)" = "$(run_server | md5sum)" ] || { echo "the server's output differs from shale local's"; exit 1; }

declare -A T
for kind in local server server_lz4; do : > "$WORK/t.$kind"; done
for _ in $(seq 1 "$RUNS"); do
  for kind in local server server_lz4; do
    t0=$(now); "run_$kind" > /dev/null; t1=$(now)
    python3 -c "import sys; print(float(sys.argv[2]) - float(sys.argv[1]))" "$t0" "$t1" >> "$WORK/t.$kind"
  done
done
median() { sort -n "$1" | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
for kind in local server server_lz4; do T[$kind]=$(median "$WORK/t.$kind"); done

OUT="$REPO/bench/results/$(date +%F)-native_select.md"
mkdir -p "$REPO/bench/results"
python3 - "$OUT" "$ROWS" "$RUNS" "$(nproc)" "${BENCH_NOTE:-}" "$B_LOCAL" "${T[local]}" "${T[server]}" "${T[server_lz4]}" <<'PY'
import sys
out, rows, runs, cores, note = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5]
size = int(sys.argv[6])
t_local, t_server, t_lz4 = (float(x) for x in sys.argv[7:10])
mib = size / 2**20
lines = ["# Native SELECT of the posts set: shale server to shale client, against shale local\n",
         f"`bench/server/native-select-bench.sh`: `SELECT * FROM posts FORMAT Native`, the posts set ({rows} rows, "
         f"every column, {mib:.0f} MiB of Native) from the guide's MergeTree table; {cores} cores; median of {runs} "
         "warm runs, interleaved. The server's side is the whole way to the client's standard output: the server "
         "reads the table and sends Data packets over 127.0.0.1, shale client reads them and writes Native.\n",
         "| path | s | MiB/s | rows/s | / shale local |", "|---|---:|---:|---:|---:|"]
for name, t in [("shale local … > /dev/null", t_local), ("server → shale client (uncompressed)", t_server),
                ("server → shale client --compression (LZ4)", t_lz4)]:
    lines.append(f"| {name} | {t:.2f} | {mib / t:,.0f} | {rows / t:,.0f} | **{t_local / t * 100:.0f} %** |")
if note:
    lines += ["", "Note: " + note]
open(out, "w").write("\n".join(lines) + "\n")
print("\n".join(lines))
PY
