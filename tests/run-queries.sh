#!/usr/bin/env bash
# Runs tests/queries/*.sql through `shale local --testmode` and compares stdout with the
# .reference files (produced by ClickHouse through chdb; see update-references).
set -u
SHALE=$(realpath "${1:?usage: run-queries.sh path/to/shale [pattern]}")
PATTERN=${2:-}
cd "$(dirname "$0")/queries" || exit 1
pass=0; fail=0; failed=()
for sql in *.sql; do
  [ -e "$sql" ] || continue
  case "$sql" in *"$PATTERN"*) ;; *) continue ;; esac
  name=${sql%.sql}
  out=$(timeout 120 "$SHALE" local --testmode --queries-file "$sql" 2>"/tmp/shale-test-$name.err")
  rc=$?
  if [ $rc -eq 0 ] && [ "$out" == "$(cat "$name.reference")" ]; then
    pass=$((pass+1))
  else
    fail=$((fail+1)); failed+=("$name")
    echo "FAIL $name (exit $rc)"
    diff <(echo "$out") "$name.reference" | head -20
    head -5 "/tmp/shale-test-$name.err"
  fi
  rm -f "/tmp/shale-test-$name.err"
done
echo "sql: $pass passed, $fail failed"
[ $fail -eq 0 ]
