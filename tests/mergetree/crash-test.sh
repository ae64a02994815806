#!/usr/bin/env bash
# Crash safety of MergeTree: kill -9 `shale local` at random moments while it inserts or
# merges, again and again, and check after every restart that
#   - every acknowledged INSERT (exit code 0) is fully present,
#   - an INSERT that was killed is either fully present or absent (one part per INSERT),
#   - no row is duplicated, leftover tmp_ directories are gone,
#   - CHECK TABLE verifies every part's checksums;
# then kill a resumable bulk load (resumable_insert) repeatedly until a re-run completes it,
# and check every source row is in the table exactly once.
# Usage: crash-test.sh path/to/shale [iterations (default 50)] [rows per insert (default 1000000)]
set -u
SHALE=$(realpath "${1:?usage: crash-test.sh path/to/shale [iterations] [rows]}")
iters=${2:-50}
rows=${3:-1000000}
dir=$(mktemp -d); trap 'rm -rf "$dir"' EXIT
data="$dir/data"
fail=0
die() { echo "FAIL: $*"; fail=1; }

"$SHALE" local --path "$data" -q "CREATE TABLE t (batch UInt32, n UInt64, s String) ENGINE = MergeTree PARTITION BY batch % 4 ORDER BY (n, batch) SETTINGS index_granularity = 4096" || exit 1
declare -A acked=()
kills=0
for ((i = 1; i <= iters; i++)); do
  if ((i % 5 == 0)); then
    sql="OPTIMIZE TABLE t FINAL"
  else
    sql="INSERT INTO t SELECT $i, number, repeat('x', number % 17) FROM numbers($rows)"
  fi
  "$SHALE" local --path "$data" -q "$sql" >/dev/null 2>"$dir/err" &
  pid=$!
  # Kill somewhere between 0 and 1.5 s (an INSERT of 1M rows takes about a second here):
  # before, during or after the commit.
  ms=$((RANDOM % 1500))
  sleep "$((ms / 1000)).$(printf "%03d" $((ms % 1000)))"
  if kill -9 "$pid" 2>/dev/null; then
    kills=$((kills+1))
    wait "$pid" 2>/dev/null
  else
    wait "$pid"; rc=$?
    if [ "$rc" = 0 ] && [[ $sql == INSERT* ]]; then acked[$i]=1; fi
    if [ "$rc" != 0 ]; then die "iteration $i: '$sql' failed: $(cat "$dir/err")"; fi
  fi
  # Restart: loading cleans up; then verify.
  out=$("$SHALE" local --path "$data" -q "SELECT batch, count(), uniqExact(n) FROM t GROUP BY batch ORDER BY batch FORMAT TSV" 2>"$dir/err") || { die "iteration $i: restart failed: $(cat "$dir/err")"; break; }
  declare -A seen=()
  while IFS=$'\t' read -r b c u; do
    [ -z "$b" ] && continue
    seen[$b]=1
    [ "$c" = "$rows" ] || die "iteration $i: batch $b has $c rows (partial or duplicated), want $rows"
    [ "$u" = "$rows" ] || die "iteration $i: batch $b has $u distinct rows, want $rows"
  done <<<"$out"
  for b in "${!acked[@]}"; do
    [ -n "${seen[$b]:-}" ] || die "iteration $i: acknowledged batch $b is missing"
  done
  left=$(find "$data" -maxdepth 4 -name 'tmp_*' | wc -l)
  [ "$left" = 0 ] || die "iteration $i: $left tmp_ directories left after restart"
  bad=$("$SHALE" local --path "$data" -q "CHECK TABLE t FORMAT TSV" 2>&1 | awk -F'\t' '$2 != 1' | head -3)
  [ -z "$bad" ] || die "iteration $i: CHECK TABLE: $bad"
  ((fail)) && break
done
# Resumable bulk load (resumable_insert): kill the INSERT … SELECT FROM file(glob) at random
# moments and re-run it until it completes; every source row must then be there once.
mkdir -p "$dir/src"
nfiles=8; per=$((rows / 4))
for ((f = 0; f < nfiles; f++)); do
  seq $((f * per)) $((f * per + per - 1)) | sed 's/$/,payload/' >"$dir/src/f$f.csv"
done
"$SHALE" local --path "$data" -q "CREATE TABLE r (n UInt64, s String) ENGINE = MergeTree ORDER BY n" || exit 1
load="INSERT INTO r SELECT * FROM file('$dir/src/f*.csv', CSV, 'n UInt64, s String') SETTINGS resumable_insert = 1"
rkills=0
for ((i = 0; i < 40; i++)); do
  "$SHALE" local --path "$data" -q "$load" >/dev/null 2>"$dir/err" &
  pid=$!
  sleep "0.$(printf "%03d" $((RANDOM % 300)))"
  # The last attempt runs to the end (slow builds may need it).
  if ((i < 39)) && kill -9 "$pid" 2>/dev/null; then
    rkills=$((rkills+1)); wait "$pid" 2>/dev/null
  else
    wait "$pid" && break
    die "resumable load failed: $(cat "$dir/err")"; break
  fi
done
got=$("$SHALE" local --path "$data" -q "SELECT count(), uniqExact(n), min(n), max(n) FROM r")
[ "$got" = "$((nfiles * per))	$((nfiles * per))	0	$((nfiles * per - 1))" ] || die "resumable load after $rkills kills: got '$got', want every one of $((nfiles * per)) rows once"
echo "resumable load: $rkills kills before it completed"
parts=$("$SHALE" local --path "$data" -q "SELECT count() FROM system.parts WHERE table = 't' AND active")
echo "crash test: $iters runs, $kills killed, ${#acked[@]} acknowledged inserts, $parts active parts: $([ $fail = 0 ] && echo ok || echo FAILED)"
exit $fail
