#!/usr/bin/env bash
# The background INSERT of a Distributed table (distributed_foreground_insert = 0, storage/
# dist_queue.h) over three `shale server`s on 127.0.0.1 (ports 19400-19499, else free
# ones): node 0 holds the Distributed table over cluster 'three' (shard 1 is node 0 itself,
# written directly; shards 2 and 3 go through the queue) and 'pair' (one shard of two
# replicas, internal_replication false: one queue directory per replica). Checked:
#   - the queue directories are ClickHouse's (shard<N>_replica<M>, shard<N>_all_replicas)
#     and hold one file per INSERT and destination; system.distribution_queue shows them;
#   - SYSTEM STOP / START DISTRIBUTED SENDS, SYSTEM FLUSH DISTRIBUTED (even when stopped);
#   - a shard down during the INSERT: the INSERT succeeds (the rows are on disk), FLUSH fails
#     naming the shard, the queue counts the errors; the shard comes back, FLUSH → exact counts;
#   - the initiator killed (-9) with files queued resends them when it starts again;
#   - a file sent twice (its shard committed it, the sender died before removing it: here a
#     copy put back) is deduplicated by the shard's MergeTree (its block id);
#   - the background sender alone (no FLUSH) delivers within a bounded wait.
# Every row is checked exactly once per shard (counts and sums against the sharding rule).
set -u
SHALE=$(realpath "${1:?usage: run-distributed-async-tests.sh path/to/shale}")
HERE=$(cd "$(dirname "$0")" && pwd)
WORK=$(mktemp -d)
. "$HERE/lib.sh" # free_port, stop_pids, check, has, nodes_*
PIDS=()
cleanup() {
  stop_pids "${PIDS[@]}"
  rm -rf "$WORK"
}
trap cleanup EXIT
fail=0; passed=0
port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
HTTP=(); TCP=()
for n in 0 1 2; do
  t=$((19440 + 2 * n)); h=$((t + 1))
  if port_free "$t" && port_free "$h"; then TCP[$n]=$t; HTTP[$n]=$h; else TCP[$n]=$(free_port); HTTP[$n]=$(free_port); fi
done
conf() {
  cat <<XML
    <remote_servers>
        <three>
            <shard><replica><host>127.0.0.1</host><port>${TCP[0]}</port></replica></shard>
            <shard><replica><host>127.0.0.1</host><port>${TCP[1]}</port></replica></shard>
            <shard><replica><host>127.0.0.1</host><port>${TCP[2]}</port></replica></shard>
        </three>
        <pair>
            <shard><internal_replication>false</internal_replication>
                <replica><host>127.0.0.1</host><port>${TCP[1]}</port></replica>
                <replica><host>127.0.0.1</host><port>${TCP[2]}</port></replica>
            </shard>
        </pair>
        <pair_ir>
            <shard><internal_replication>true</internal_replication>
                <replica><host>127.0.0.1</host><port>${TCP[1]}</port></replica>
                <replica><host>127.0.0.1</host><port>${TCP[2]}</port></replica>
            </shard>
        </pair_ir>
    </remote_servers>
XML
}
nodes_start "$WORK" 3 conf
q() { curl -sS --max-time 60 "http://127.0.0.1:$1/" --data-binary "$2"; }
sql() { local out; out=$(q "$1" "$2"); [ -z "$out" ] || { echo "setup failed: $2: $out"; exit 1; }; }
for n in 0 1 2; do
  sql "${HTTP[$n]}" "CREATE TABLE t (k UInt64, s String) ENGINE = MergeTree ORDER BY k SETTINGS non_replicated_deduplication_window = 1000"
  sql "${HTTP[$n]}" "CREATE TABLE p (k UInt64) ENGINE = MergeTree ORDER BY k SETTINGS non_replicated_deduplication_window = 1000"
done
sql "${HTTP[0]}" "CREATE TABLE dist AS t ENGINE = Distributed(three, default, t, k)"
sql "${HTTP[0]}" "CREATE TABLE dpair AS p ENGINE = Distributed(pair, default, p)"
sql "${HTTP[0]}" "CREATE TABLE dpair_ir AS p ENGINE = Distributed(pair_ir, default, p)"
BG="SETTINGS distributed_foreground_insert = 0"
ins() { sql "${HTTP[0]}" "INSERT INTO dist SELECT number, toString(number) FROM numbers($1, $2) $BG"; }
counts() { echo "$(q "${HTTP[0]}" "SELECT count(), sum(k) FROM t") $(q "${HTTP[1]}" "SELECT count(), sum(k) FROM t") $(q "${HTTP[2]}" "SELECT count(), sum(k) FROM t")"; }
# what each shard must hold after inserting numbers(0, N): k % 3 = shard - 1
expect() { python3 -c "import sys; n=int(sys.argv[1]); print(' '.join('%d\t%d' % (len([k for k in range(n) if k % 3 == s]), sum(k for k in range(n) if k % 3 == s)) for s in range(3)))" "$1"; }
DIR="$WORK/s0/data/data/default/dist"
QUEUE="SELECT replaceRegexpOne(data_path, '.*/', '') || replaceRegexpOne(data_path, '.*/(shard[^/]*)/\$', '\\\\1'), is_blocked, data_files, data_compressed_bytes > 0, broken_data_files FROM system.distribution_queue WHERE table = 'dist' ORDER BY data_path"

# 1. sends stopped: the local shard has its rows at once, the others' are queued on disk
sql "${HTTP[0]}" "SYSTEM STOP DISTRIBUTED SENDS dist"
ins 0 300
check "stopped: local shard written, others queued" "100	14850 0	0 0	0" "$(counts)"
check "queue directories" "1.bin
2.bin" "$(ls "$DIR/shard2_replica1" "$DIR/shard3_replica1" 2>&1 | grep bin)"
check "system.distribution_queue" "shard2_replica1	1	1	1	0
shard3_replica1	1	1	1	0" "$(q "${HTTP[0]}" "$QUEUE")"
check "stopped: still queued" "0 0" "$(sleep 0.5; echo "$(q "${HTTP[1]}" "SELECT count() FROM t") $(q "${HTTP[2]}" "SELECT count() FROM t")")"
# 2. FLUSH sends even when sends are stopped
sql "${HTTP[0]}" "SYSTEM FLUSH DISTRIBUTED dist"
check "flush" "$(expect 300)" "$(counts)"
check "flush: queue empty" "shard2_replica1	1	0	0	0
shard3_replica1	1	0	0	0" "$(q "${HTTP[0]}" "$QUEUE")"
# 3. START: the background sender delivers by itself
ins 300 300
sql "${HTTP[0]}" "SYSTEM START DISTRIBUTED SENDS"
for _ in $(seq 1 100); do [ "$(counts)" == "$(expect 600)" ] && break; sleep 0.1; done
check "background sender" "$(expect 600)" "$(counts)"
check "sent files removed" "" "$(ls "$DIR/shard2_replica1" "$DIR/shard3_replica1" | grep bin)"

# 4. a shard down during the INSERT: acknowledged (on disk), FLUSH fails, the shard comes back
node_stop 2
ins 600 300
OUT=$(q "${HTTP[0]}" "SYSTEM FLUSH DISTRIBUTED dist")
has "shard down: FLUSH fails" "ALL_CONNECTION_TRIES_FAILED" "$OUT"
has "shard down: FLUSH names the shard" "shard3_replica1 (127.0.0.1:${TCP[2]})" "$OUT"
check "shard down: the other shards have theirs" "300	$(python3 -c "print(sum(k for k in range(900) if k % 3 == 1))")" "$(q "${HTTP[1]}" "SELECT count(), sum(k) FROM t")"
check "shard down: queued, errors counted" "1	1" "$(q "${HTTP[0]}" "SELECT data_files, error_count > 0 AND last_exception LIKE '%All connection tries failed%' FROM system.distribution_queue WHERE table = 'dist' AND data_path LIKE '%shard3_replica1/'")"
ins 900 300 # a second INSERT while the shard is down
node_start 2
sql "${HTTP[0]}" "SYSTEM FLUSH DISTRIBUTED dist"
check "shard back: exact counts" "$(expect 1200)" "$(counts)"

# 5. the initiator killed (-9) with files queued resends them when it starts again
sql "${HTTP[0]}" "SYSTEM STOP DISTRIBUTED SENDS dist"
ins 1200 300
kill -9 "${PIDS[0]}"
for _ in $(seq 1 100); do kill -0 "${PIDS[0]}" 2>/dev/null || break; sleep 0.1; done
node_start 0
for _ in $(seq 1 100); do [ "$(counts)" == "$(expect 1500)" ] && break; sleep 0.1; done
check "restart: resent" "$(expect 1500)" "$(counts)"

# 6. a file sent twice is deduplicated on the shard (its block id is the shard INSERT's
#    insert_deduplication_token)
sql "${HTTP[0]}" "SYSTEM STOP DISTRIBUTED SENDS dist"
ins 1500 300
F=$(ls "$DIR/shard2_replica1"/*.bin)
cp "$F" "$WORK/copy.bin"
sql "${HTTP[0]}" "SYSTEM FLUSH DISTRIBUTED dist"
cp "$WORK/copy.bin" "$F"
sql "${HTTP[0]}" "SYSTEM FLUSH DISTRIBUTED dist"
check "resent file deduplicated" "$(expect 1800)" "$(counts)"
check "resent file removed" "" "$(ls "$DIR/shard2_replica1" | grep bin)"
# a file that cannot be read goes to broken/ and is not sent
echo "garbage" >"$DIR/shard2_replica1/999.bin"
sql "${HTTP[0]}" "SYSTEM FLUSH DISTRIBUTED dist"
check "broken file" "0	1	0" "$(q "${HTTP[0]}" "SELECT data_files, broken_data_files, error_count = 0 FROM system.distribution_queue WHERE table = 'dist' AND data_path LIKE '%shard2_replica1/'")"
check "broken file: nothing sent" "$(expect 1800)" "$(counts)"
sql "${HTTP[0]}" "SYSTEM START DISTRIBUTED SENDS dist"

# 7. replicas: internal_replication false → one directory per replica, each gets every row;
#    true → one directory for the shard, one replica takes the rows
sql "${HTTP[0]}" "SYSTEM STOP DISTRIBUTED SENDS"
sql "${HTTP[0]}" "INSERT INTO dpair SELECT number FROM numbers(50) $BG"
sql "${HTTP[0]}" "INSERT INTO dpair_ir SELECT number + 1000 FROM numbers(50) $BG"
check "replica directories" "shard1_all_replicas shard1_replica1 shard1_replica2" "$(echo $(ls "$WORK/s0/data/data/default/dpair" "$WORK/s0/data/data/default/dpair_ir" | grep shard | sort))"
sql "${HTTP[0]}" "SYSTEM FLUSH DISTRIBUTED dpair"
sql "${HTTP[0]}" "SYSTEM FLUSH DISTRIBUTED default.dpair_ir"
check "replicas: dpair's rows on both replicas, dpair_ir's on one" "150" "$(( $(q "${HTTP[1]}" "SELECT count() FROM p") + $(q "${HTTP[2]}" "SELECT count() FROM p") ))"
check "replicas: both got dpair's rows" "50 50" "$(q "${HTTP[1]}" "SELECT count() FROM p WHERE k < 1000") $(q "${HTTP[2]}" "SELECT count() FROM p WHERE k < 1000")"
sql "${HTTP[0]}" "SYSTEM START DISTRIBUTED SENDS"

# 8. errors
has "flush: not Distributed" "BAD_ARGUMENTS" "$(q "${HTTP[0]}" "SYSTEM FLUSH DISTRIBUTED t")"
has "flush: unknown table" "UNKNOWN_TABLE" "$(q "${HTTP[0]}" "SYSTEM FLUSH DISTRIBUTED nope")"
has "flush: no table" "SYNTAX_ERROR" "$(q "${HTTP[0]}" "SYSTEM FLUSH DISTRIBUTED")"

echo "distributed async insert tests: $passed passed"
exit $fail
