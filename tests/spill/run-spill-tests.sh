#!/usr/bin/env bash
# Spill files of external GROUP BY / ORDER BY, of the grace hash JOIN and of the sorts before
# window functions are released on success, on an error, on a
# timeout and on KILL QUERY: a `shale server` with its own tmp_path is watched through
# /proc/<pid>/fd (spill files are anonymous, so an open descriptor is the only trace one
# leaves) while queries that spill run, fail and are cancelled; `shale local` leaves its
# <path>/tmp empty. Results of spilled queries equal the in-memory ones.
set -u
SHALE=$(realpath "${1:?usage: run-spill-tests.sh path/to/shale}")
HERE=$(cd "$(dirname "$0")" && pwd)
WORK=$(mktemp -d)
. "$HERE/../server/lib.sh"
PORT=$(free_port)
cleanup() {
  server_stop
  rm -rf "$WORK"
}
trap cleanup EXIT
pass=0; fail=0
check() { if [ "$2" == "$3" ]; then pass=$((pass+1)); else fail=$((fail+1)); echo "FAIL: $1 (expected $2, got $3)"; fi; }

TMP="$WORK/spill-tmp"
server_start "$WORK/server.log" -- --http_port="$PORT" --tcp_port=0 --listen_host=127.0.0.1 --path="$WORK/data/" --tmp_path="$TMP/"
q() { curl -s "http://127.0.0.1:$PORT/" --data-binary "$1"; }
# spill files the server holds open now
open_spills() { ls -l "/proc/$SERVER_PID/fd" 2>/dev/null | grep -c -- "$TMP"; }
entries() { find "$TMP" -mindepth 1 2>/dev/null | wc -l; }
# waits until the server holds a spill file open (the query really spilled); prints 1 or 0
wait_spill() {
  for _ in $(seq 1 300); do [ "$(open_spills)" -gt 0 ] && { echo 1; return; }; sleep 0.05; done; echo 0
}

GB="SETTINGS max_bytes_before_external_group_by = 4000000, group_by_two_level_threshold = 1000, max_threads = 2"
SORT="SETTINGS max_bytes_before_external_sort = 2000000, max_threads = 2"
AGG="SELECT sum(cityHash64(k, c, s)) FROM (SELECT toString(number % 400000) AS k, count() AS c, sum(number) AS s FROM numbers(2000000) GROUP BY k)"
ORD="SELECT x FROM (SELECT toString(cityHash64(number)) AS x FROM numbers(600000) ORDER BY x) LIMIT 3 OFFSET 300000"

# success: the same answer as in memory, nothing left open
check "external GROUP BY result" "$(q "$AGG")" "$(q "$AGG $GB")"
check "no spill file open after GROUP BY" 0 "$(open_spills)"
check "external ORDER BY result" "$(q "$ORD")" "$(q "$ORD $SORT")"
check "no spill file open after ORDER BY" 0 "$(open_spills)"
check "tmp_path holds no names" 0 "$(entries)"

# The in-memory ORDER BY (no threshold) holds its input plus a row number per row: each block
# sorted on its own and merged, not concatenated and then copied in sorted order (which
# peaked above 300 MiB here, for 69 MB of strings). Same rows as the external sort.
BIG="SELECT concat(toString(cityHash64(number)), repeat('x', 200)) AS x FROM numbers(300000) ORDER BY x"
check "in-memory ORDER BY result" "$(q "$BIG FORMAT TSV $SORT" | md5sum)" "$(q "$BIG FORMAT TSV SETTINGS max_threads = 2" | md5sum)"
PEAK=$("$SHALE" local --time --query "$BIG FORMAT Null SETTINGS max_threads = 2" 2>&1 | sed -n 's/^Peak memory usage: \([0-9.]*\) MiB.*/\1/p')
check "in-memory ORDER BY tracked peak under 250 MiB (got ${PEAK:-none})" 1 "$(awk -v p="${PEAK:-1e9}" 'BEGIN { print (p < 250) }')"
# max_memory_usage holds while the in-memory sort keeps its blocks (the old sort step passed it)
ERR=$("$SHALE" local --query "$BIG FORMAT Null SETTINGS max_threads = 2, max_memory_usage = 40000000" 2>&1)
check "in-memory ORDER BY past max_memory_usage: MEMORY_LIMIT_EXCEEDED" 1 "$(grep -c MEMORY_LIMIT_EXCEEDED <<<"$ERR")"

# grace hash JOIN: the same answer as in memory; its two files go with the query
JOIN="SELECT count(), sum(cityHash64(a.number, b.number)) FROM numbers(600000) a JOIN numbers(600000) b ON a.number = b.number * 3"
GJ="SETTINGS join_algorithm = 'grace_hash', grace_hash_join_initial_buckets = 8, max_threads = 2"
check "grace hash JOIN result" "$(q "$JOIN")" "$(q "$JOIN $GJ")"
check "grace hash JOIN result, buckets grown past max_bytes_in_join" "$(q "$JOIN")" \
  "$(q "$JOIN SETTINGS join_algorithm = 'grace_hash', max_bytes_in_join = 1000000, max_threads = 2")"
check "no spill file open after the JOIN" 0 "$(open_spills)"
# errors while the buckets are joined (the WHERE) and while the left side is partitioned (a key)
ERR=$(q "SELECT count() FROM numbers(600000) a JOIN numbers(600000) b ON a.number = b.number WHERE throwIf(a.number = 599999) = 0 FORMAT Null $GJ")
check "JOIN: error reported while joining" 1 "$(grep -c FUNCTION_THROW_IF_VALUE_IS_NON_ZERO <<<"$ERR")"
ERR=$(q "SELECT count() FROM numbers(600000) a JOIN numbers(600000) b ON a.number + throwIf(a.number = 599999) = b.number FORMAT Null $GJ")
check "JOIN: error reported while partitioning" 1 "$(grep -c FUNCTION_THROW_IF_VALUE_IS_NON_ZERO <<<"$ERR")"
check "no spill file open after the JOIN errors" 0 "$(open_spills)"
# 'partial_merge' alone: NOT_IMPLEMENTED
ERR=$(q "$JOIN SETTINGS join_algorithm = 'partial_merge'")
check "partial_merge refused" 1 "$(grep -c NOT_IMPLEMENTED <<<"$ERR")"

# window functions: the sort before the window spills, rows no frame reaches are released;
# the same answer as in memory, under a limit that an unspilled sort passes
WIN="SELECT count(), sum(cityHash64(number, s, r)) FROM (SELECT number, sum(number) OVER (ORDER BY number ROWS BETWEEN 10 PRECEDING AND CURRENT ROW) AS s, row_number() OVER (PARTITION BY number % 1000 ORDER BY number) AS r FROM numbers(3000000))"
WS="SETTINGS max_bytes_before_external_sort = 10000000, max_memory_usage = 40000000, max_threads = 2"
check "window result, sort spilled, rows released" "$(q "$WIN")" "$(q "$WIN $WS")"
ERR=$(q "$WIN SETTINGS max_memory_usage = 40000000, max_threads = 2")
check "window: the same limit without the sort spilling is exceeded" 1 "$(grep -c MEMORY_LIMIT_EXCEEDED <<<"$ERR")"
check "no spill file open after the window" 0 "$(open_spills)"
# a function that needs its whole partition, larger than the limit: MEMORY_LIMIT_EXCEEDED as in ClickHouse
ERR=$(q "SELECT sum(s) FROM (SELECT ntile(4) OVER (ORDER BY number) AS s FROM numbers(3000000)) $WS")
check "window over a whole partition past the limit" 1 "$(grep -c MEMORY_LIMIT_EXCEEDED <<<"$ERR")"
# an error in the window's arguments, read after the sort spilled
ERR=$(q "SELECT sum(s) FROM (SELECT sum(number + throwIf(number = 2999999)) OVER (ORDER BY number ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) AS s FROM numbers(3000000)) $WS")
check "window: error reported after spilling" 1 "$(grep -c FUNCTION_THROW_IF_VALUE_IS_NON_ZERO <<<"$ERR")"
check "no spill file open after the window errors" 0 "$(open_spills)"

# an error after spilling (the WHERE throws at the last block): the files go with the query
ERR=$(q "SELECT k, count() FROM (SELECT number % 500000 AS k FROM numbers(3000000) WHERE throwIf(number = 2999999) = 0) GROUP BY k FORMAT Null $GB")
check "error reported" 1 "$(grep -c FUNCTION_THROW_IF_VALUE_IS_NON_ZERO <<<"$ERR")"
check "no spill file open after the error" 0 "$(open_spills)"
# a state that cannot be spilled: NOT_IMPLEMENTED, never a wrong answer
ERR=$(q "SELECT number % 400000 AS k, uniq(number) FROM numbers(2000000) GROUP BY k FORMAT Null $GB")
check "unsupported state refused" 1 "$(grep -c NOT_IMPLEMENTED <<<"$ERR")"
check "no spill file open after NOT_IMPLEMENTED" 0 "$(open_spills)"

# a timeout in the middle of a spilling GROUP BY
ERR=$(q "SELECT number % 5000000 AS k, count() FROM numbers(1000000000) GROUP BY k FORMAT Null $GB, max_execution_time = 1.5")
check "timeout reported" 1 "$(grep -c TIMEOUT_EXCEEDED <<<"$ERR")"
check "no spill file open after the timeout" 0 "$(open_spills)"

# KILL QUERY while GROUP BY, then ORDER BY, hold spill files
for kind in group sort join window; do
  if [ $kind = window ]; then # cancelled while the sort before the window spills
    SQL="SELECT sum(s) FROM (SELECT sum(number) OVER (ORDER BY number ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) AS s FROM numbers(1000000000)) FORMAT Null $SORT"
  elif [ $kind = group ]; then
    SQL="SELECT number % 5000000 AS k, count() FROM numbers(1000000000) GROUP BY k FORMAT Null $GB"
  elif [ $kind = join ]; then # cancelled while the left side is partitioned
    SQL="SELECT count() FROM numbers(1000000000) a JOIN numbers(1000) b ON a.number = b.number FORMAT Null $GJ, max_execution_time = 60"
  else
    SQL="SELECT toString(number) AS x FROM numbers(1000000000) ORDER BY x FORMAT Null $SORT"
  fi
  curl -s "http://127.0.0.1:$PORT/?query_id=spill-$kind" --data-binary "$SQL" >"$WORK/$kind.out" &
  CURL=$!
  check "$kind: a spill file is open while the query runs" 1 "$(wait_spill)"
  q "KILL QUERY WHERE query_id = 'spill-$kind' SYNC" >/dev/null
  wait "$CURL"
  check "$kind: cancelled" 1 "$(grep -c QUERY_WAS_CANCELLED "$WORK/$kind.out")"
  for _ in $(seq 1 50); do [ "$(open_spills)" = 0 ] && break; sleep 0.1; done
  check "$kind: no spill file open after KILL QUERY" 0 "$(open_spills)"
done
check "tmp_path still holds no names" 0 "$(entries)"

# shale local: spill files under <path>/tmp, none left
mkdir -p "$WORK/local"
check "local external GROUP BY" "$("$SHALE" local -q "$AGG")" "$("$SHALE" local --path "$WORK/local" -q "$AGG $GB")"
check "local <path>/tmp empty" 0 "$(find "$WORK/local/tmp" -mindepth 1 2>/dev/null | wc -l)"
check "local bounded window" "$("$SHALE" local -q "$WIN")" "$("$SHALE" local --path "$WORK/local" -q "$WIN $WS")"
check "local <path>/tmp empty after the window" 0 "$(find "$WORK/local/tmp" -mindepth 1 2>/dev/null | wc -l)"

echo "spill: $pass passed, $fail failed"
[ "$fail" = 0 ]
