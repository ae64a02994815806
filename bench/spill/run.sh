#!/usr/bin/env bash
# Work larger than memory: a GROUP BY of 30 M distinct keys, an ORDER BY (Id, Body) of the 6 M-row
# posts set by Body, a JOIN of 10 M rows with 10 M rows (join_algorithm = 'grace_hash') and a
# sliding window over 50 M rows, each in memory and spilling under max_memory_usage = 200000000
# (max_bytes_before_external_group_by / _sort = 100000000), 2 threads. Each run is one
# `shale local` process under /usr/bin/time: wall seconds, user + system CPU seconds and
# peak RSS. Prints a Markdown table.
#
#   bench/spill/run.sh [--shale path/to/shale] [--data dir-of-posts-parquet] [--runs N]
#
# The posts set comes from bench/lib/gen-posts.js (bench/data/posts-6000000/by_month).
set -eu
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
SHALE="$ROOT/build/shale"
DATA="$ROOT/bench/data/posts-6000000/by_month"
RUNS=1
while [ $# -gt 0 ]; do
  case $1 in
    --shale) SHALE=$2; shift 2 ;;
    --data) DATA=$2; shift 2 ;;
    --runs) RUNS=$2; shift 2 ;;
    *) echo "unknown argument $1"; exit 2 ;;
  esac
done
[ -x "$SHALE" ] || { echo "no shale binary at $SHALE (make build)"; exit 1; }
ls "$DATA"/*.parquet >/dev/null 2>&1 || { echo "no posts set in $DATA (node bench/lib/gen-posts.js)"; exit 1; }

GROUP="SELECT number % 30000000 AS k, count() AS c, sum(number) AS s FROM numbers(60000000) GROUP BY k FORMAT Null"
SORT="SELECT Id, Body FROM file('$DATA/*.parquet') ORDER BY Body FORMAT Null"
MEM="max_threads = 2"
SPILL_G="max_threads = 2, max_memory_usage = 200000000, max_bytes_before_external_group_by = 100000000"
SPILL_S="max_threads = 2, max_memory_usage = 200000000, max_bytes_before_external_sort = 100000000"
JOIN="SELECT count(), sum(a.number), sum(b.number) FROM numbers(10000000) a JOIN numbers(10000000) b ON a.number = b.number * 2 FORMAT Null"
SPILL_J="max_threads = 2, max_memory_usage = 200000000, join_algorithm = 'grace_hash'"
WINDOW="SELECT number, sum(number) OVER (ORDER BY number ROWS BETWEEN 10 PRECEDING AND CURRENT ROW) FROM numbers(50000000) FORMAT Null"

measure() { # name query settings
  for _ in $(seq 1 "$RUNS"); do
    all=$( { /usr/bin/time -f '%e %U %S %M' "$SHALE" local -q "$2 SETTINGS $3" >/dev/null; } 2>&1)
    read -r wall user sys rss <<<"$(tail -1 <<<"$all")"
    status=ok
    grep -q '^Code: ' <<<"$all" && status="failed: $(grep -o '([A-Z_]*)' <<<"$all" | head -1)"
    printf '| %s | %s | %s | %.1f | %.0f |\n' "$1" "$status" "$wall" "$(echo "$user + $sys" | bc)" "$((rss / 1024))"
  done
}

echo "Machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg) at the start ($(date -u +%FT%TZ))"
echo
echo "| run | result | wall s | CPU s (user + sys) | peak RSS MiB |"
echo "|---|---|---|---|---|"
measure "GROUP BY 30 M keys, in memory" "$GROUP" "$MEM"
measure "GROUP BY 30 M keys, spilling (200 MB limit)" "$GROUP" "$SPILL_G"
measure "ORDER BY Body, 6 M posts, in memory" "$SORT" "$MEM"
measure "ORDER BY Body, 6 M posts, spilling (200 MB limit)" "$SORT" "$SPILL_S"
measure "JOIN 10 M x 10 M rows, in memory" "$JOIN" "$MEM"
measure "JOIN 10 M x 10 M rows, grace hash (200 MB limit)" "$JOIN" "$SPILL_J"
measure "window ROWS 10 PRECEDING, 50 M rows, in memory" "$WINDOW" "$MEM"
measure "window ROWS 10 PRECEDING, 50 M rows, bounded (200 MB limit)" "$WINDOW" "$SPILL_S"
echo
echo "Load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
