#!/usr/bin/env bash
# Crash safety of mutations: kill -9 `shale local` at random moments while it runs
# ALTER TABLE … UPDATE / DROP / ADD COLUMN mutations over a table of several parts, again
# and again, and check after every restart that
#   - the table opens and reads (every part in one layout or the other, never half),
#   - no row is lost or duplicated, tmp_ directories are gone, CHECK TABLE passes,
#   - once the pending mutations are finished (a waiting ALTER), every recorded
#     `UPDATE n = n + 1` mutation was applied exactly once to every row.
# Usage: mutation-crash-test.sh path/to/shale [iterations (default 30)] [rows (default 400000)]
set -u
SHALE=$(realpath "${1:?usage: mutation-crash-test.sh path/to/shale [iterations] [rows]}")
iters=${2:-30}
rows=${3:-400000}
dir=$(mktemp -d); trap 'rm -rf "$dir"' EXIT
data="$dir/data"
fail=0
die() { echo "FAIL: $*"; fail=1; }
q() { "$SHALE" local --path "$data" -q "$1"; }

q "CREATE TABLE t (k UInt64, n UInt64, s String) ENGINE = MergeTree PARTITION BY k % 4 ORDER BY k" || exit 1
q "INSERT INTO t SELECT number, 0, repeat('x', number % 13) FROM numbers($rows)" || exit 1
q "INSERT INTO t SELECT number + $rows, 0, 'second' FROM numbers($rows)" || exit 1
total=$((rows * 2))
kills=0
for ((i = 1; i <= iters; i++)); do
  case $((i % 4)) in
    0) sql="ALTER TABLE t ADD COLUMN IF NOT EXISTS extra UInt8 DEFAULT 7" ;;
    1) sql="ALTER TABLE t DROP COLUMN IF EXISTS extra SETTINGS mutations_sync = 2" ;;
    *) sql="ALTER TABLE t UPDATE n = n + 1 WHERE 1 SETTINGS mutations_sync = 2" ;;
  esac
  "$SHALE" local --path "$data" -q "$sql" >/dev/null 2>"$dir/err" &
  pid=$!
  ms=$((RANDOM % 800))
  sleep "0.$(printf "%03d" "$ms")"
  if kill -9 "$pid" 2>/dev/null; then
    kills=$((kills+1))
    wait "$pid" 2>/dev/null
  else
    wait "$pid" || die "iteration $i: '$sql' failed: $(cat "$dir/err")"
  fi
  # Restart: the table must open and read consistently, mutations possibly pending.
  got=$(q "SELECT count(), uniqExact(k) FROM t" 2>"$dir/err") || { die "iteration $i: restart failed: $(cat "$dir/err")"; break; }
  [ "$got" = "$total	$total" ] || die "iteration $i: count, distinct keys = '$got', want $total"
  left=$(find "$data" -maxdepth 4 -name 'tmp_*' | wc -l)
  [ "$left" = 0 ] || die "iteration $i: $left tmp_ directories left after restart"
  bad=$(q "CHECK TABLE t FORMAT TSV" 2>&1 | awk -F'\t' '$2 != 1' | head -3)
  [ -z "$bad" ] || die "iteration $i: CHECK TABLE: $bad"
  ((fail)) && break
done
# Finish what is pending, then every recorded increment is in every row exactly once.
q "ALTER TABLE t UPDATE n = n WHERE 0 SETTINGS mutations_sync = 2" || die "final mutation failed"
ups=$(q "SELECT count() FROM system.mutations WHERE table = 't' AND command = '(UPDATE n = n + 1 WHERE 1)'")
got=$(q "SELECT min(n), max(n), count() FROM t")
[ "$got" = "$ups	$ups	$total" ] || die "after $ups recorded increments: min, max, count = '$got'"
todo=$(q "SELECT sum(parts_to_do) FROM system.mutations WHERE table = 't'")
[ "$todo" = 0 ] || die "$todo parts still to mutate"
echo "mutation crash test: $iters runs, $kills killed, $ups increments: $([ $fail = 0 ] && echo ok || echo FAILED)"
exit $fail
