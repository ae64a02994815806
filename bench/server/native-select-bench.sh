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
#   - bytes/s is the Native output's size (the same bytes both ways: checked) over the time,
#     elapsed and per CPU second (user + system of shale local, or of the server's share
#     plus shale client): on a shared machine the CPU seconds are the steadier figure.
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
CMD_local=("$SHALE" local --path "$WORK/local" -q "$Q")
CMD_server=("$SHALE" client --port "$TCP_PORT" -q "$Q")
CMD_server_lz4=("$SHALE" client --port "$TCP_PORT" --compression -q "$Q")
run_local() { "${CMD_local[@]}"; }
run_server() { "${CMD_server[@]}"; }
run_server_lz4() { "${CMD_server_lz4[@]}"; }
# Untimed: the page cache warm, and the bytes the same every way.
B_LOCAL=$(run_local | wc -c)
B_SERVER=$(run_server | wc -c)
B_LZ4=$(run_server_lz4 | wc -c)
[ "$B_LOCAL" = "$B_SERVER" ] && [ "$B_LOCAL" = "$B_LZ4" ] ||
  { echo "the outputs differ in size: local $B_LOCAL, server $B_SERVER, server LZ4 $B_LZ4"; exit 1; }
[ "$(run_local | md5sum)" = "$(run_server | md5sum)" ] || { echo "the server's output differs from shale local's"; exit 1; }

# Per run: elapsed seconds and CPU seconds (user + system) of every process on the way —
# shale local; or shale client plus the server's share (its /proc counters before and after).
TCK=$(getconf CLK_TCK)
server_cpu() { awk -v t="$TCK" '{print ($14 + $15) / t}' "/proc/$SHALE_PID/stat"; }
for kind in local server server_lz4; do : > "$WORK/t.$kind"; done
for _ in $(seq 1 "$RUNS"); do
  for kind in local server server_lz4; do
    s0=0; [ "$kind" = local ] || s0=$(server_cpu)
    declare -n cmd="CMD_$kind"
    /usr/bin/time -f "%e %U %S" -o "$WORK/time" "${cmd[@]}" > /dev/null
    unset -n cmd
    s1=0; [ "$kind" = local ] || s1=$(server_cpu)
    read -r e u sy < "$WORK/time"
    python3 -c "import sys; e,u,s,a,b = map(float, sys.argv[1:]); print(e, u + s + b - a)" "$e" "$u" "$sy" "$s0" "$s1" >> "$WORK/t.$kind"
  done
done

OUT="$REPO/bench/results/$(date +%F)-native_select.md"
mkdir -p "$REPO/bench/results"
python3 - "$OUT" "$ROWS" "$RUNS" "$(nproc)" "${BENCH_NOTE:-}" "$B_LOCAL" "$WORK" "$(cut -d' ' -f1-3 /proc/loadavg)" <<'PY'
import statistics, sys
out, rows, runs, cores, note, size, work, load = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5], int(sys.argv[6]), sys.argv[7], sys.argv[8]
t = {}
for kind in ("local", "server", "server_lz4"):
    pairs = [tuple(map(float, l.split())) for l in open(f"{work}/t.{kind}") if l.strip()]
    t[kind] = (statistics.median(p[0] for p in pairs), statistics.median(p[1] for p in pairs))
mib = size / 2**20
el, cl = t["local"]
lines = ["# Native SELECT of the posts set: shale server to shale client, against shale local\n",
         f"`bench/server/native-select-bench.sh`: `SELECT * FROM posts FORMAT Native`, the posts set ({rows} rows, "
         f"every column, {mib:.0f} MiB of Native) from the guide's MergeTree table; {cores} cores; median of {runs} "
         "warm runs, interleaved. The server's side is the whole way to the client's standard output: the server "
         "reads the table and sends Data packets over 127.0.0.1, shale client writes them out as Native. "
         "CPU is user + system seconds of every process on the way (shale local; or the server's share plus "
         f"shale client). Load average at the end: {load}.\n",
         "| path | elapsed s | MiB/s | / shale local | CPU s | MiB per CPU s | / shale local |",
         "|---|---:|---:|---:|---:|---:|---:|"]
for name, kind in [("shale local … > /dev/null", "local"), ("server → shale client (uncompressed)", "server"),
                   ("server → shale client --compression (LZ4)", "server_lz4")]:
    e, c = t[kind]
    lines.append(f"| {name} | {e:.2f} | {mib / e:,.0f} | **{el / e * 100:.0f} %** | {c:.2f} | {mib / c:,.0f} | "
                 f"**{cl / c * 100:.0f} %** |")
if note:
    lines += ["", "Note: " + note]
open(out, "w").write("\n".join(lines) + "\n")
print("\n".join(lines))
PY
