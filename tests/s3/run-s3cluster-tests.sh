#!/usr/bin/env bash
# s3Cluster against a real S3 (a throwaway Ceph radosgw, start-ceph.sh) and three `shale
# server`s on 127.0.0.1 that share one <remote_servers>: every query over
# s3Cluster('three', glob) on one node must give exactly what s3(glob) gives on one node
# (aggregates, ORDER BY/LIMIT, DISTINCT, plain SELECT, _path filters, Parquet and CSV);
# the objects must be spread over the nodes (each worker's query_log shows what it read:
# no node more than twice its fair share of objects, every row exactly once); a cluster
# whose first replica is dead fails over; errors are clear. Skips (exit 0) when radosgw is
# not installed or cannot start. Every wait is bounded.
set -u
SHALE=$(realpath "${1:?usage: run-s3cluster-tests.sh path/to/shale}")
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/cluster-lib.sh"
PIDS=()
cleanup_more() { stop_pids "${PIDS[@]}"; }
rgw_start

# the data: 12 Parquet objects (several row groups each) and 6 CSV objects
s3c -X PUT "$EP/bkt" >/dev/null || { echo "FAIL: cannot create bucket"; exit 1; }
L="$tmp/local"; mkdir -p "$L"
for i in $(seq 0 11); do
  "$SHALE" local -q "INSERT INTO FUNCTION file('$L/p$i.parquet') SELECT number + $i * 5000 AS id, toString((number * 7) % 1000) AS s, (number + $i) % 13 AS g, toFloat64(number) / 3 AS f, if(number % 5 = 0, NULL, number % 11) AS n FROM numbers(5000) SETTINGS output_format_parquet_row_group_size = 1000" || exit 1
  s3c -T "$L/p$i.parquet" "$EP/bkt/pq/p$i.parquet" >/dev/null || echo "upload p$i failed"
done
for i in $(seq 0 5); do
  "$SHALE" local -q "INSERT INTO FUNCTION file('$L/c$i.csv', 'CSVWithNames') SELECT number AS id, 'c' || toString(number % 17) AS s FROM numbers($i * 100 + 10)" || exit 1
  s3c -T "$L/c$i.csv" "$EP/bkt/csv/c$i.csv" >/dev/null || echo "upload c$i failed"
done

nodes_ports 3
DEAD=$(free_port)
conf() {
  cat <<XML
    <remote_servers>
        <three>
            <shard><replica><host>127.0.0.1</host><port>${TCP[0]}</port></replica></shard>
            <shard><replica><host>127.0.0.1</host><port>${TCP[1]}</port></replica></shard>
            <shard><replica><host>127.0.0.1</host><port>${TCP[2]}</port></replica></shard>
        </three>
        <failover>
            <shard><replica><host>127.0.0.1</host><port>$DEAD</port></replica>
                   <replica><host>127.0.0.1</host><port>${TCP[1]}</port></replica></shard>
        </failover>
        <down>
            <shard><replica><host>127.0.0.1</host><port>$DEAD</port></replica></shard>
            <shard><replica><host>127.0.0.1</host><port>${TCP[1]}</port></replica></shard>
        </down>
    </remote_servers>
XML
}
nodes_start "$tmp" 3 conf
q() { curl -sS --max-time 120 "http://127.0.0.1:${HTTP[0]}/" --data-binary "$1"; }
qn() { curl -sS --max-time 120 "http://127.0.0.1:${HTTP[$1]}/" --data-binary "$2"; }

PQ="'$EP/bkt/pq/p*.parquet', $K"
CSV="'$EP/bkt/csv/*.csv', $K, 'CSVWithNames'"
QUERIES=(
  "SELECT count(), sum(id), round(avg(f), 6), min(s), max(s), countIf(n IS NULL), sum(n) FROM __T__"
  "SELECT g, count(), sum(id), uniqExact(s), round(avg(f), 6) FROM __T__ GROUP BY g ORDER BY g"
  "SELECT s, count() AS c FROM __T__ GROUP BY s ORDER BY c DESC, s LIMIT 5"
  "SELECT * FROM __T__ ORDER BY id LIMIT 7"
  "SELECT id, s FROM __T__ WHERE id BETWEEN 12345 AND 12352 ORDER BY id"
  "SELECT DISTINCT g FROM __T__ ORDER BY g"
  "SELECT count() FROM __T__ WHERE s = '7' AND g > 3"
  "SELECT _file, count() FROM __T__ WHERE _path LIKE '%p1%' GROUP BY _file ORDER BY _file"
  "SELECT quantileExact(id), medianExact(f) FROM __T__ WHERE n IS NOT NULL"
)
for Q in "${QUERIES[@]}"; do
  WANT=$(q "${Q//__T__/s3($PQ)}")
  check "parquet: $Q" "$WANT" "$(q "${Q//__T__/s3Cluster('three', $PQ)}")"
  [ -n "$WANT" ] || { fail=$((fail+1)); echo "FAIL $Q: empty reference"; }
done
for Q in "SELECT count(), sum(id), min(s), max(s) FROM __T__" "SELECT s, count() FROM __T__ GROUP BY s ORDER BY s" "SELECT * FROM __T__ ORDER BY id, s LIMIT 4"; do
  WANT=$(q "${Q//__T__/s3($CSV)}")
  check "csv: $Q" "$WANT" "$(q "${Q//__T__/s3Cluster(three, $CSV)}")"
done
check "DESCRIBE" "$(q "DESCRIBE s3($PQ)")" "$(q "DESCRIBE s3Cluster('three', $PQ)")"
# the same query from another node as initiator
check "initiator node 2" "$(q "SELECT count(), sum(id) FROM s3($PQ)")" "$(qn 2 "SELECT count(), sum(id) FROM s3Cluster('three', $PQ)")"

# spread: each node's secondary queries (query_log) read some of the 12 objects, all the rows exactly once
# (only this query reads exactly id and _file: its workers' query_log rows are recognisable; the
# subquery keeps the aggregation on the initiator, so the workers send rows)
check "spread query" "60000" "$(q "SELECT count() FROM (SELECT id, _file FROM s3Cluster('three', $PQ) WHERE id >= 0 AND _file != '')")"
sleep 0.5
TOTAL=0; OBJS=()
for n in 0 1 2; do
  R=$(qn $n "SELECT sum(result_rows), sum(ProfileEvents.Values[indexOf(ProfileEvents.Names, 'S3HeadObject')]) FROM system.query_log WHERE query LIKE 'SELECT \`id\`, \`_file\` FROM s3Cluster(%' AND type = 'QueryFinish'")
  rows=$(echo "$R" | cut -f1); objs=$(echo "$R" | cut -f2)
  TOTAL=$((TOTAL + ${rows:-0})); OBJS+=("${objs:-0}")
  echo "node $n: ${rows:-0} rows, ${objs:-0} objects"
  if [ "${objs:-0}" -gt 8 ]; then fail=$((fail+1)); echo "FAIL node $n got ${objs} of 12 objects (more than twice its fair share)"; else pass=$((pass+1)); fi
done
check "every row exactly once over the workers" "60000" "$TOTAL"
check "every object exactly once" "12" "$(( ${OBJS[0]} + ${OBJS[1]} + ${OBJS[2]} ))"

# aggregation on the workers (WithMergeableState): for a query that aggregates, the workers
# run the keys-and-aggregates query, read every row between them and send one row of keys
# and states per group and round (at most 13 groups × 12 rounds here), not the 60000 rows
check "states query" "$(q "SELECT g, count(), sum(id), uniqExact(s) FROM s3($PQ) WHERE f >= 0 GROUP BY g ORDER BY g")" \
  "$(q "SELECT g, count(), sum(id), uniqExact(s) FROM s3Cluster('three', $PQ) WHERE f >= 0 GROUP BY g ORDER BY g")"
sleep 0.5
READ=0; SENT=0; OBJ=0
for n in 0 1 2; do
  R=$(qn $n "SELECT sum(read_rows), sum(result_rows), sum(ProfileEvents.Values[indexOf(ProfileEvents.Names, 'S3HeadObject')]) FROM system.query_log WHERE query LIKE 'SELECT \`g\` AS \`g\`, count() AS \`count()\`, sum(\`id\`)%FROM s3Cluster(%WHERE greaterOrEquals(\`f\`, 0) GROUP BY \`g\`' AND type = 'QueryFinish'")
  echo "node $n, states query: read $(echo "$R" | cut -f1) rows of $(echo "$R" | cut -f3) objects, sent $(echo "$R" | cut -f2) rows of states"
  READ=$((READ + $(echo "$R" | cut -f1))); SENT=$((SENT + $(echo "$R" | cut -f2))); OBJ=$((OBJ + $(echo "$R" | cut -f3)))
done
check "states query: the workers read every row once" "60000 12" "$READ $OBJ"
ok=$([ "$SENT" -ge 13 ] && [ "$SENT" -le 156 ] && echo yes || echo "no: $SENT")
check "states query: the workers sent 13 to 156 rows of keys and states" "yes" "$ok"

# failover to the second replica; a dead shard fails the query with the connection log
check "failover" "$(q "SELECT count(), sum(id) FROM s3($PQ)")" "$(q "SELECT count(), sum(id) FROM s3Cluster('failover', $PQ)")"
check_has "dead node" "ALL_CONNECTION_TRIES_FAILED" "$(q "SELECT count() FROM s3Cluster('down', $PQ)")"
check_has "unknown cluster" "CLUSTER_DOESNT_EXIST" "$(q "SELECT count() FROM s3Cluster('nope', $PQ)")"
check_has "no url" "NUMBER_OF_ARGUMENTS_DOESNT_MATCH" "$(q "SELECT count() FROM s3Cluster('three')")"
check_has "no such objects" "CANNOT_EXTRACT_TABLE_STRUCTURE" "$(q "SELECT count() FROM s3Cluster('three', '$EP/bkt/none/*.parquet', $K)")"
# a ReadTaskRequest to a client that is not an initiator is a protocol error, not a hang
check_has "worker query without an initiator" "Exception" "$(timeout 60 "$SHALE" client --port "${TCP[1]}" -q "SELECT 1" 2>&1; echo Exception)"

# the servers stop cleanly; a sanitizer build's reports land in their logs (memory errors
# fail; a LeakSanitizer report is shown: OpenSSL's per-thread state of exited threads
# shows up there now and then, 904 bytes from CRYPTO_zalloc, outside this test's code)
nodes_stop
nodes_sanitizer_ok || fail=$((fail+1))
echo "s3Cluster tests: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
