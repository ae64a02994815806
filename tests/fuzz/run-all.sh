#!/usr/bin/env bash
# Runs every libFuzzer target briefly (seconds each, default 20) from a fresh corpus seeded
# with tests/fuzz/corpus/<target>/ when present. Fails if any target finds a crash or leak.
set -u
dir=${1:?usage: run-all.sh build-fuzz/fuzz [seconds]}
secs=${2:-20}
root=$(cd "$(dirname "$0")" && pwd)
status=0; ran=0; failed=0
for f in "$dir"/fuzz_*; do
  [ -x "$f" ] || continue
  name=$(basename "$f")
  work=$(mktemp -d)
  [ -d "$root/corpus/$name" ] && cp -r "$root/corpus/$name/." "$work/"
  if "$f" -max_total_time="$secs" -rss_limit_mb=2048 -timeout=10 -print_final_stats=0 \
       -artifact_prefix="$work/" "$work" >"$work.log" 2>&1; then
    echo "fuzz $name: ok ($secs s)"
    ran=$((ran+1))
  else
    echo "fuzz $name: FAILED"; tail -40 "$work.log"; status=1; failed=$((failed+1))
  fi
  rm -rf "$work" "$work.log"
done
echo "fuzz: $ran passed, $failed failed"
exit $status
