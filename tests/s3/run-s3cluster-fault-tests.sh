#!/usr/bin/env bash
# s3Cluster with a lost node (issue 15 part 3), against a throwaway radosgw (start-ceph.sh)
# and three `shale server`s started by scripts/cluster.sh on 127.0.0.1. Node 0 initiates;
# node 1 is the victim, restarted with SHALE_TEST_S3CLUSTER_PAUSE=<point> (s3cluster.c's
# test hook: its worker query stops exactly there until cancelled) so that every kill
# lands at a known point:
#   - kill -9 before its first task, in the middle of an object (rows already sent), after
#     the initiator ended its round with "" (its objects read, its query not ended)
#     → the result is byte-identical to s3() on one node; the initiator's log names the
#     lost node, the objects handed again and the rows dropped;
#   - aggregate states (a query that aggregates runs to WithMergeableState on the nodes):
#     kill -9 in the middle of an object of node 1's second round → its first round's
#     states stay merged, the second round's objects are read again by the others; and the
#     initiator's own test hook (SHALE_TEST_S3CLUSTER_DROP=after_states) loses a node right
#     after its states arrived, before its EndOfStream → those states are dropped, not
#     merged; both byte-identical to s3(), every object counted by exactly one node;
#   - SIGSTOP (a hung worker) → the same result after cluster_table_function_worker_timeout_ms;
#     woken again, the worker drops its orphaned query and serves the next one;
#   - the only worker of a cluster killed → ALL_CONNECTION_TRIES_FAILED naming what is left;
#   - a node down at the start: ALL_CONNECTION_TRIES_FAILED as in ClickHouse, the result
#     with skip_unavailable_shards = 1;
#   - kill -9 of the initiator mid-query → the workers cancel their queries (logged), end
#     the threads they started for it and serve the next query.
# Skips (exit 0) when radosgw is not installed or cannot start. Every wait is bounded.
set -u
SHALE=$(realpath "${1:?usage: run-s3cluster-fault-tests.sh path/to/shale}")
HERE=$(cd "$(dirname "$0")" && pwd)
CLUSTER="$HERE/../../scripts/cluster.sh"
. "$HERE/cluster-lib.sh"
cleanup_more() {
  for p in $(jobs -p); do kill "$p" 2>/dev/null; done
  # stopped nodes must be woken to stop
  [ -n "${C:-}" ] && [ -f "$C/nodes.tsv" ] && awk '$4 != "-" { print $4 }' "$C/nodes.tsv" | xargs -r kill -CONT 2>/dev/null
  [ -z "${C:-}" ] || "$CLUSTER" stop --dir "$C" >/dev/null 2>&1
}
rgw_start
C="$tmp/cluster"
ok() { # name, condition result (0 = pass)
  if [ "$2" -eq 0 ]; then pass=$((pass+1)); else fail=$((fail+1)); echo "FAIL $1"; fi
}

# 15 Parquet objects of 8000 rows in row groups of 1000 (a worker sends several blocks per object)
s3c -X PUT "$EP/bkt" >/dev/null || { echo "FAIL: cannot create bucket"; exit 1; }
L="$tmp/local"; mkdir -p "$L"
for i in $(seq 0 14); do
  "$SHALE" local -q "INSERT INTO FUNCTION file('$L/p$i.parquet') SELECT number + $i * 8000 AS id, toString((number * 7) % 1000) AS s, (number + $i) % 13 AS g, toFloat64(number) / 3 AS f, if(number % 5 = 0, NULL, number % 11) AS n FROM numbers(8000) SETTINGS output_format_parquet_row_group_size = 1000" || exit 1
  s3c -T "$L/p$i.parquet" "$EP/bkt/pq/p$i.parquet" >/dev/null || echo "upload p$i failed"
done

"$CLUSTER" start 3 --dir "$C" --name three --also solo:1 --shale "$SHALE" >/dev/null || { echo "FAIL: the cluster did not start"; exit 1; }
tcp() { awk -v i="$1" '$1 == i { print $2 }' "$C/nodes.tsv"; }
http() { awk -v i="$1" '$1 == i { print $3 }' "$C/nodes.tsv"; }
pid() { awk -v i="$1" '$1 == i { print $4 }' "$C/nodes.tsv"; }
log() { cat "$C/n$1/server.log"; }
qn() { curl -sS --max-time 120 "http://127.0.0.1:$(http "$1")/" --data-binary "$2"; }
qi() { curl -sS --max-time 120 "http://127.0.0.1:$(http "$1")/?query_id=$2" --data-binary "$3"; } # I QUERY_ID SQL

PQ="'$EP/bkt/pq/p*.parquet', $K"
Q="SELECT count(), sum(id), uniqExact(s), round(avg(f), 6), countIf(n IS NULL), sum(n) FROM __T__"
Q2="SELECT g, count(), sum(id), min(s), max(s) FROM __T__ GROUP BY g ORDER BY g"
# the same over the nodes' rows (the subquery does not aggregate: the nodes send rows)
Q2R="SELECT g, count(), sum(id), min(s), max(s) FROM (SELECT g, id, s FROM __T__) GROUP BY g ORDER BY g"
WANT=$(qn 0 "${Q//__T__/s3($PQ)}")
WANT2=$(qn 0 "${Q2//__T__/s3($PQ)}")
check "s3() reference" "120000" "$(echo "$WANT" | cut -f1)"
check "all nodes up" "$WANT" "$(qn 0 "${Q//__T__/s3Cluster('three', $PQ)}")"
check "all nodes up, GROUP BY" "$WANT2" "$(qn 0 "${Q2//__T__/s3Cluster('three', $PQ)}")"

# waits (bounded) until node I's log has more than N lines containing TEXT
wait_log() { # I TEXT N SECONDS
  for _ in $(seq 1 $(($4 * 10))); do
    [ "$(grep -c -- "$2" "$C/n$1/server.log")" -gt "$3" ] && return 0
    sleep 0.1
  done
  return 1
}
restart1() { # [POINT]: node 1 again, with the pause hook at POINT
  "$CLUSTER" stop-node 1 --dir "$C"
  if [ -n "${1:-}" ]; then
    SHALE_TEST_S3CLUSTER_PAUSE=$1 "$CLUSTER" start-node 1 --dir "$C" --shale "$SHALE" >/dev/null
  else
    "$CLUSTER" start-node 1 --dir "$C" --shale "$SHALE" >/dev/null
  fi
}
LOST="node 127.0.0.1:$(tcp 1) lost"

# kill -9 of node 1 at three points of its query
for point in before_first_task mid_object after_last_task; do
  restart1 "$point"
  before=$(grep -c "test pause at $point" "$C/n1/server.log")
  lost_before=$(grep -c "$LOST" "$C/n0/server.log")
  SQL=${Q//__T__/s3Cluster('three', $PQ)}
  [ "$point" = mid_object ] && SQL=${Q2R//__T__/s3Cluster('three', $PQ)}
  qn 0 "$SQL" >"$tmp/out" 2>&1 &
  QPID=$!
  if wait_log 1 "test pause at $point" "$before" 60; then
    # after_last_task: its other tasks finish their objects; mid_object: the block that went
    # out of the source reaches the initiator (it is sent by another thread of the worker)
    [ "$point" != before_first_task ] && sleep 1
    kill -9 "$(pid 1)"
  else
    echo "FAIL $point: node 1 never reached the point"; fail=$((fail+1)); kill -9 "$(pid 1)"
  fi
  wait "$QPID"
  if [ "$point" = mid_object ]; then check "kill -9 $point" "$WANT2" "$(cat "$tmp/out")"; else check "kill -9 $point" "$WANT" "$(cat "$tmp/out")"; fi
  wait_log 0 "$LOST" "$lost_before" 10
  line=$(grep "$LOST" "$C/n0/server.log" | tail -1)
  check_has "$point: the initiator logs the lost node" "$LOST" "$line"
  again=$(echo "$line" | sed -n 's/.*; \([0-9]*\) objects of its unfinished round.*/\1/p')
  dropped=$(echo "$line" | sed -n 's/.*, \([0-9]*\) rows of it dropped.*/\1/p')
  echo "$point: ${again:-?} objects handed again, ${dropped:-?} rows dropped"
  case $point in
    before_first_task) check "$point: nothing to hand again" "0 0" "${again:-?} ${dropped:-?}" ;;
    mid_object) ok "$point: objects handed again and rows dropped" $([ "${again:-0}" -ge 1 ] && [ "${dropped:-0}" -ge 1 ]; echo $?) ;;
    after_last_task) ok "$point: its objects handed again" $([ "${again:-0}" -ge 1 ]; echo $?) ;;
  esac
done

# the objects each node read in query ID (the initiator's log), as "N N N", and their sum
objects_read() { # ID
  grep "query $1: node .* read " "$C/n0/server.log" | sed -n 's/.* read \([0-9]*\) of .*/\1/p' | tr '\n' ' '
}
sum_words() { local t=0; for w in $1; do t=$((t + w)); done; echo $t; }

# aggregate states: node 1 killed in its second round; its first round's states stay merged
restart1 "mid_object:2"
before=$(grep -c "test pause at mid_object" "$C/n1/server.log")
lost_before=$(grep -c "$LOST" "$C/n0/server.log")
qi 0 states_kill "${Q2//__T__/s3Cluster('three', $PQ)}" >"$tmp/out" 2>&1 &
QPID=$!
if wait_log 1 "test pause at mid_object" "$before" 60; then kill -9 "$(pid 1)"; else echo "FAIL states: node 1 never reached its second round"; fail=$((fail+1)); kill -9 "$(pid 1)"; fi
wait "$QPID"
check "states, kill -9 in round 2" "$WANT2" "$(cat "$tmp/out")"
wait_log 0 "$LOST" "$lost_before" 10
line=$(grep "$LOST" "$C/n0/server.log" | tail -1)
again=$(echo "$line" | sed -n 's/.*; \([0-9]*\) objects of its unfinished round.*/\1/p')
n1=$(grep "query states_kill: node 127.0.0.1:$(tcp 1) read " "$C/n0/server.log" | sed -n 's/.* read \([0-9]*\) of .*/\1/p')
echo "states, kill -9 in round 2: objects per node $(objects_read states_kill)(node 1: ${n1:-?} committed), ${again:-?} handed again"
ok "states, kill -9 in round 2: node 1's first round stays committed, its open round is read again" $([ "${n1:-0}" -ge 1 ] && [ "${again:-0}" -ge 1 ]; echo $?)
check "states, kill -9 in round 2: every object read by exactly one node" "15" "$(sum_words "$(objects_read states_kill)")"

# aggregate states: a node lost after its states arrived, before its EndOfStream (initiator's hook)
restart1
"$CLUSTER" stop-node 0 --dir "$C"
SHALE_TEST_S3CLUSTER_DROP=after_states "$CLUSTER" start-node 0 --dir "$C" --shale "$SHALE" >/dev/null
check "states, dropped after they arrived" "$WANT2" "$(qi 0 states_drop "${Q2//__T__/s3Cluster('three', $PQ)}")"
line=$(grep "query states_drop: node .* lost (test hook" "$C/n0/server.log" | tail -1)
again=$(echo "$line" | sed -n 's/.*; \([0-9]*\) objects of its unfinished round.*/\1/p')
dropped=$(echo "$line" | sed -n 's/.*, \([0-9]*\) rows of it dropped.*/\1/p')
echo "states, dropped after they arrived: objects per node $(objects_read states_drop), ${again:-?} handed again, ${dropped:-?} rows of states dropped"
ok "states, dropped after they arrived: the round's objects handed again, its states dropped" $([ "${again:-0}" -ge 1 ] && [ "${dropped:-0}" -ge 1 ]; echo $?)
check "states, dropped after they arrived: every object read by exactly one node" "15" "$(sum_words "$(objects_read states_drop)")"
"$CLUSTER" stop-node 0 --dir "$C"
"$CLUSTER" start-node 0 --dir "$C" --shale "$SHALE" >/dev/null

# a hung worker (SIGSTOP in the middle of an object): the query goes on after the timeout
restart1 mid_object
before=$(grep -c "test pause at mid_object" "$C/n1/server.log")
lost_before=$(grep -c "$LOST" "$C/n0/server.log")
T0=$(date +%s%N)
qn 0 "${Q//__T__/s3Cluster('three', $PQ)} SETTINGS cluster_table_function_worker_timeout_ms = 1500" >"$tmp/out" 2>&1 &
QPID=$!
if wait_log 1 "test pause at mid_object" "$before" 60; then kill -STOP "$(pid 1)"; else echo "FAIL: SIGSTOP: no pause"; fail=$((fail+1)); fi
wait "$QPID"
T1=$(date +%s%N)
check "SIGSTOP: same result after the timeout" "$WANT" "$(cat "$tmp/out")"
ok "SIGSTOP: the query waited for the timeout (took $(( (T1 - T0) / 1000000 )) ms)" $([ $(( (T1 - T0) / 1000000 )) -ge 1500 ]; echo $?)
wait_log 0 "$LOST" "$lost_before" 10
check_has "SIGSTOP: lost by the timeout" "Timeout" "$(grep "$LOST" "$C/n0/server.log" | tail -1)"
kill -CONT "$(pid 1)"
# woken, the worker finds its initiator's connection closed, cancels the orphaned query, serves the next
check_has "SIGSTOP: the woken worker logs the orphaned query" "the initiator's connection closed" "$(wait_log 1 "initiator's connection closed" 0 10; log 1)"
check "SIGSTOP: the woken worker initiates" "$WANT" "$(qn 1 "${Q//__T__/s3Cluster('three', $PQ)}")"
check "SIGSTOP: the woken worker works for node 0" "$WANT" "$(qn 0 "${Q//__T__/s3Cluster('three', $PQ)}")"

# the only worker lost: the query fails, naming what is left
restart1 mid_object
before=$(grep -c "test pause at mid_object" "$C/n1/server.log")
qn 0 "${Q//__T__/s3Cluster('solo', $PQ)}" >"$tmp/out" 2>&1 &
QPID=$!
if wait_log 1 "test pause at mid_object" "$before" 60; then kill -9 "$(pid 1)"; else echo "FAIL: solo: no pause"; fail=$((fail+1)); fi
wait "$QPID"
check_has "every node lost: the error" "every node of cluster 'solo' was lost with 15 of 15 objects unread" "$(cat "$tmp/out")"
check_has "every node lost: the code" "ALL_CONNECTION_TRIES_FAILED" "$(cat "$tmp/out")"
restart1

# a node down at the start: ClickHouse's error, or the others with skip_unavailable_shards
"$CLUSTER" stop-node 1 --dir "$C"
check_has "node down: ALL_CONNECTION_TRIES_FAILED" "ALL_CONNECTION_TRIES_FAILED" "$(qn 0 "${Q//__T__/s3Cluster('three', $PQ)}")"
check "node down: skip_unavailable_shards" "$WANT" "$(qn 0 "${Q//__T__/s3Cluster('three', $PQ)} SETTINGS skip_unavailable_shards = 1")"

# kill -9 of the initiator (node 0) while node 1 is in the middle of an object: the workers cancel
restart1 mid_object
check "warm-up on node 1" "$WANT" "$(qn 1 "${Q//__T__/s3($PQ)}")"
threads() { ls "/proc/$1/task" 2>/dev/null | wc -l; }
T1_BEFORE=$(threads "$(pid 1)"); T2_BEFORE=$(threads "$(pid 2)")
before=$(grep -c "test pause at mid_object" "$C/n1/server.log")
c1=$(grep -c "initiator's connection closed" "$C/n1/server.log"); c2=$(grep -c "initiator's connection closed" "$C/n2/server.log")
qn 0 "${Q//__T__/s3Cluster('three', $PQ)}" >"$tmp/out" 2>&1 &
QPID=$!
if wait_log 1 "test pause at mid_object" "$before" 60; then kill -9 "$(pid 0)"; else echo "FAIL: initiator kill: no pause"; fail=$((fail+1)); fi
wait "$QPID"
ok "initiator killed: node 1 logs it" $(wait_log 1 "initiator's connection closed" "$c1" 10; echo $?)
# node 2 may have ended its query before the kill (nothing pending): it logs only when it was still in it
settled=1
for _ in $(seq 1 100); do
  if [ "$(threads "$(pid 1)")" -le "$T1_BEFORE" ] && [ "$(threads "$(pid 2)")" -le "$T2_BEFORE" ]; then settled=0; break; fi
  sleep 0.1
done
ok "initiator killed: the workers' threads back to $T1_BEFORE / $T2_BEFORE (now $(threads "$(pid 1)") / $(threads "$(pid 2)"))" $settled
check "initiator killed: node 1 initiates the next query" "$WANT" "$(qn 1 "${Q//__T__/s3Cluster('three', $PQ)} SETTINGS skip_unavailable_shards = 1")"
check "initiator killed: node 2 initiates the next query" "$WANT2" "$(qn 2 "${Q2//__T__/s3Cluster('three', $PQ)} SETTINGS skip_unavailable_shards = 1")"
"$CLUSTER" start-node 0 --dir "$C" --shale "$SHALE" >/dev/null
check "initiator back: the whole cluster" "$WANT" "$(qn 0 "${Q//__T__/s3Cluster('three', $PQ)}")"

# the servers stop cleanly; a sanitizer build's reports land in their logs
"$CLUSTER" stop --dir "$C"
grep -h -A3 "LeakSanitizer" "$C"/n?/server.log 2>/dev/null | head -8 | sed "s/^/warning: /"
if grep -l "ERROR: AddressSanitizer\|runtime error\|ThreadSanitizer" "$C"/n?/server.log >/dev/null 2>&1; then
  echo "FAIL: sanitizer reports:"; grep -h -A5 "ERROR: AddressSanitizer\|runtime error" "$C"/n?/server.log | head -40; fail=$((fail+1))
fi
echo "s3Cluster fault tests: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
