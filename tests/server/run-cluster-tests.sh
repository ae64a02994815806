#!/usr/bin/env bash
# Clusters of the server configuration: three `shale server`s on 127.0.0.1 share one
# <remote_servers> (each its own ports and data), each holds a third of one data set.
#   - system.clusters lists every replica with ClickHouse's columns;
#   - cluster('three', …) gives what chdb (ClickHouse 26.7) gives over the whole data set
#     locally; clusterAllReplicas reads every replica; a dead first replica fails over;
#   - macros in the cluster's name; errors: an unknown cluster, a sharding key;
#   - a cluster with an inter-server <secret>: shale as initiator and as shard, the query
#     runs as the initiator's user; a shard with another secret refuses it; aggregates are
#     split with the secret; a Distributed table over such a cluster reads, splits and
#     inserts (both modes) with it;
#   - load_balancing (which replica answers shows in the data: the replicas of 'pair' hold
#     different thirds), failover past a dead replica of `a|b` and of a cluster,
#     connections_with_failover_max_tries, skip_unavailable_shards.
# Every wait is bounded; the servers are stopped at the end.
set -u
SHALE=$(realpath "${1:?usage: run-cluster-tests.sh path/to/shale}")
HERE=$(cd "$(dirname "$0")" && pwd)
WORK=$(mktemp -d)
CHDB="$HERE/../queries/node_modules/chdb"
[ -d "$CHDB" ] || { echo "chdb is not installed (tests/queries/node_modules/chdb)"; exit 1; }
. "$HERE/lib.sh" # free_port, stop_pids, check, has, chdb, nodes_*
PIDS=()
cleanup() {
  chdb_stop
  stop_pids "${PIDS[@]}"
  rm -rf "$WORK"
}
trap cleanup EXIT
chdb_start || { echo "cannot start chdb"; exit 1; }
fail=0; passed=0
nodes_ports 3
DEAD=$(free_port)
REMOTE_SERVERS="
    <remote_servers>
        <three>
            <shard><replica><host>127.0.0.1</host><port>${TCP[0]}</port></replica></shard>
            <shard><weight>2</weight><replica><host>127.0.0.1</host><port>${TCP[1]}</port></replica></shard>
            <shard><internal_replication>true</internal_replication>
                <replica><host>127.0.0.1</host><port>$DEAD</port></replica>
                <replica><host>localhost</host><port>${TCP[2]}</port><user>default</user></replica>
            </shard>
        </three>
        <nodes>
            <node><host>127.0.0.1</host><port>${TCP[0]}</port></node>
            <node><host>127.0.0.1</host><port>${TCP[1]}</port></node>
        </nodes>
        <pair>
            <shard><replica><host>127.0.0.1</host><port>${TCP[0]}</port></replica>
                   <replica><host>127.0.0.1</host><port>${TCP[1]}</port></replica></shard>
        </pair>
        <secretive>
            <secret>s3cr3t</secret>
            <shard><replica><host>127.0.0.1</host><port>${TCP[0]}</port></replica></shard>
            <shard><replica><host>127.0.0.1</host><port>$DEAD</port></replica>
                   <replica><host>127.0.0.1</host><port>${TCP[1]}</port></replica></shard>
        </secretive>
        <secret_pair>
            <secret>s3cr3t</secret>
            <shard><replica><host>127.0.0.1</host><port>${TCP[0]}</port></replica></shard>
            <shard><replica><host>127.0.0.1</host><port>${TCP[1]}</port></replica></shard>
        </secret_pair>
        <deadpair>
            <shard><replica><host>127.0.0.1</host><port>$DEAD</port></replica>
                   <replica><host>127.0.0.1</host><port>${TCP[0]}</port></replica></shard>
        </deadpair>"
conf() { # n: the shared clusters, 'mismatch' with node n's own secret, node n's macros
  cat <<XML
    $REMOTE_SERVERS
        <mismatch>
            <secret>secret-of-$(($1 == 0 ? 0 : 1))</secret>
            <shard><replica><host>127.0.0.1</host><port>${TCP[0]}</port></replica></shard>
        </mismatch>
    </remote_servers>
    <macros><cl>three</cl><shard>0$1</shard></macros>
XML
}
nodes_start "$WORK" 3 conf

COLS="k UInt64, s String, n Nullable(Int32), f Float64, lc LowCardinality(String)"
SEL="SELECT number AS k, concat('s', toString(number)) AS s, CAST(if(number % 4 = 0, NULL, toInt32(number) - 10) AS Nullable(Int32)) AS n, number / 4 AS f, CAST(toString(number % 3) AS LowCardinality(String)) AS lc FROM numbers(30)"
sql() { # HTTP_PORT SQL
  local out; out=$(curl -sS --max-time 60 "http://127.0.0.1:$1/" --data-binary "$2")
  [ -z "$out" ] || { echo "setup failed: $2: $out"; exit 1; }
}
q() { curl -sS --max-time 60 "http://127.0.0.1:$1/" --data-binary "$2"; }
for n in 0 1 2; do
  sql "${HTTP[$n]}" "CREATE TABLE t ($COLS) ENGINE = MergeTree ORDER BY k"
  sql "${HTTP[$n]}" "INSERT INTO t SELECT * FROM ($SEL) WHERE k % 3 = $n"
done

# system.clusters: every replica, ClickHouse's 22 columns; is_local where the port is the server's own
EXP=$(printf '%s\n' \
  "nodes	1		1	0	1	127.0.0.1	127.0.0.1	${TCP[0]}	1	default		0	0	0			0	\\N	\\N	\\N	\\N" \
  "nodes	2		1	0	1	127.0.0.1	127.0.0.1	${TCP[1]}	0	default		0	0	0			0	\\N	\\N	\\N	\\N" \
  "pair	1		1	0	1	127.0.0.1	127.0.0.1	${TCP[0]}	1	default		0	0	0			0	\\N	\\N	\\N	\\N" \
  "pair	1		1	0	2	127.0.0.1	127.0.0.1	${TCP[1]}	0	default		0	0	0			0	\\N	\\N	\\N	\\N" \
  "secretive	1		1	0	1	127.0.0.1	127.0.0.1	${TCP[0]}	1	default		0	0	0			0	\\N	\\N	\\N	\\N" \
  "secretive	2		1	0	1	127.0.0.1	127.0.0.1	$DEAD	0	default		0	0	0			0	\\N	\\N	\\N	\\N" \
  "secretive	2		1	0	2	127.0.0.1	127.0.0.1	${TCP[1]}	0	default		0	0	0			0	\\N	\\N	\\N	\\N" \
  "three	1		1	0	1	127.0.0.1	127.0.0.1	${TCP[0]}	1	default		0	0	0			0	\\N	\\N	\\N	\\N" \
  "three	2		2	0	1	127.0.0.1	127.0.0.1	${TCP[1]}	0	default		0	0	0			0	\\N	\\N	\\N	\\N" \
  "three	3		1	1	1	127.0.0.1	127.0.0.1	$DEAD	0	default		0	0	0			0	\\N	\\N	\\N	\\N" \
  "three	3		1	1	2	localhost	127.0.0.1	${TCP[2]}	0	default		0	0	0			0	\\N	\\N	\\N	\\N")
check "system.clusters" "$EXP" "$(q "${HTTP[0]}" "SELECT * FROM system.clusters WHERE cluster IN ('nodes', 'pair', 'secretive', 'three') ORDER BY cluster, shard_num, replica_num" | sed 's/::1/127.0.0.1/')"
check "system.clusters names" "cluster	String
shard_num	UInt32
shard_name	String
shard_weight	UInt32
internal_replication	UInt8
replica_num	UInt32
host_name	String
host_address	String
port	UInt16
is_local	UInt8
user	String
default_database	String
errors_count	UInt32
slowdowns_count	UInt32
estimated_recovery_time	UInt32
database_shard_name	String
database_replica_name	String
is_shared_catalog_cluster	UInt8
is_active	Nullable(UInt8)
unsynced_after_recovery	Nullable(UInt8)
replication_lag	Nullable(UInt32)
recovery_time	Nullable(UInt64)" "$(q "${HTTP[1]}" "DESCRIBE system.clusters" | cut -f1,2)"

QUERIES=(
  "SELECT count(), sum(k), avg(f), min(s), countIf(n IS NULL) FROM \$T"
  "SELECT * FROM \$T ORDER BY k LIMIT 5"
  "SELECT lc, count(), sum(n), arraySort(groupArray(k)) FROM \$T GROUP BY lc ORDER BY lc"
  "SELECT k, s FROM \$T WHERE k IN (3, 17, 25) OR s = 's4' ORDER BY k"
  "SELECT DISTINCT lc FROM \$T ORDER BY lc"
)
for Q in "${QUERIES[@]}"; do
  EXPECTED=$(chdb "${Q//\$T/($SEL)}")
  for T in "cluster('three', default.t)" "cluster(three, default, t)" "cluster('{cl}', 'default.t')"; do
    check "$Q over $T" "$EXPECTED" "$(q "${HTTP[1]}" "${Q//\$T/$T}")"
  done
done
# a table function as the target: every shard runs it
check "cluster over a table function" "9" "$(q "${HTTP[0]}" "SELECT count() FROM cluster('three', numbers(3))")"
# two shards of one replica each (<node>), one shard of two replicas: the first that answers
check "nodes" "20" "$(q "${HTTP[2]}" "SELECT count() FROM cluster('nodes', default.t)")"
check "pair" "10" "$(q "${HTTP[2]}" "SELECT count() FROM cluster('pair', default.t)")"
check "clusterAllReplicas pair" "20" "$(q "${HTTP[2]}" "SELECT count() FROM clusterAllReplicas('pair', default.t)")"
# clusterAllReplicas of 'three' tries the dead replica as a shard of its own
has "clusterAllReplicas with a dead replica" "ALL_CONNECTION_TRIES_FAILED" "$(q "${HTTP[2]}" "SELECT count() FROM clusterAllReplicas('three', default.t)")"
check "clusterAllReplicas skip_unavailable_shards" "30" "$(q "${HTTP[2]}" "SELECT count() FROM clusterAllReplicas('three', default.t) SETTINGS skip_unavailable_shards = 1")"
has "unknown cluster" "Code: 701" "$(q "${HTTP[0]}" "SELECT * FROM cluster('nope', default.t)")"
has "unknown cluster name" "CLUSTER_DOESNT_EXIST" "$(q "${HTTP[0]}" "SELECT * FROM cluster('nope', default.t)")"
has "unknown macro" "NO_ELEMENTS_IN_CONFIG" "$(q "${HTTP[0]}" "SELECT * FROM cluster('{nope}', default.t)")"
has "sharding key" "NOT_IMPLEMENTED" "$(q "${HTTP[0]}" "SELECT * FROM cluster('three', default, t, rand())")"
# the inter-server secret: shard 1 from server 0 itself, shard 2 past a dead replica
check "secret" "20	0	1" "$(q "${HTTP[2]}" "SELECT count(), min(k) % 3, max(k) % 3 FROM cluster('secretive', default.t)")"
check "secret: the initial user" "default" "$(q "${HTTP[2]}" "SELECT DISTINCT currentUser() FROM cluster('secretive', system.one)")"
check "secret: same secret" "10" "$(q "${HTTP[0]}" "SELECT count() FROM cluster('mismatch', default.t)")"
OUT=$(q "${HTTP[1]}" "SELECT count() FROM cluster('mismatch', default.t)")
has "secret: another secret" "Code: 516" "$OUT"
has "secret: another secret's message" "Interserver authentication failed" "$OUT"
# a query that aggregates is split over a cluster with a secret too (the shards send states,
# both of the split's connections authenticate with the secret): the shard query is in node
# 0's query_log (one row of states per group), and another secret refuses it
check "secret: split" "$(chdb "SELECT k % 2 AS g, count(), sum(k), uniqExact(lc) FROM ($SEL) WHERE k % 3 IN (0, 1) GROUP BY g ORDER BY g")" \
  "$(q "${HTTP[2]}" "SELECT k % 2 AS g, count(), sum(k), uniqExact(lc) FROM cluster('secretive', default.t) GROUP BY g ORDER BY g")"
q "${HTTP[0]}" "SYSTEM FLUSH LOGS" >/dev/null
check "secret: split shard query" "1	2" "$(q "${HTTP[0]}" "SELECT count(), any(result_rows) FROM system.query_log WHERE type = 'QueryFinish' AND query LIKE 'SELECT %uniqExact(%GROUP BY%' AND query NOT LIKE '%query_log%'")"
check "secret: split, same secret" "10	35" "$(q "${HTTP[0]}" "SELECT count(), sum(k) % 100 FROM cluster('mismatch', default.t) GROUP BY k % 1")"
OUT=$(q "${HTTP[1]}" "SELECT k % 2 AS g, count() FROM cluster('mismatch', default.t) GROUP BY g")
has "secret: split, another secret" "Interserver authentication failed" "$OUT"
# a Distributed table over a cluster with a secret: reads, the split, and both INSERT modes
# authenticate with it (node 2 is not in 'secretive' nor 'secret_pair': every shard is remote)
for n in 0 1; do sql "${HTTP[$n]}" "CREATE TABLE ts (k UInt64) ENGINE = MergeTree ORDER BY k"; done
sql "${HTTP[2]}" "CREATE TABLE ds AS t ENGINE = Distributed(secretive, default, t, k)"
check "secret: Distributed read" "20	0	1" "$(q "${HTTP[2]}" "SELECT count(), min(k) % 3, max(k) % 3 FROM ds")"
check "secret: Distributed split" "$(chdb "SELECT k % 2 AS g, count(), sum(k) FROM ($SEL) WHERE k % 3 IN (0, 1) GROUP BY g ORDER BY g")" \
  "$(q "${HTTP[2]}" "SELECT k % 2 AS g, count(), sum(k) FROM ds GROUP BY g ORDER BY g")"
sql "${HTTP[2]}" "CREATE TABLE dts (k UInt64) ENGINE = Distributed(secret_pair, default, ts, k)"
sql "${HTTP[2]}" "INSERT INTO dts SELECT number FROM numbers(10) SETTINGS distributed_foreground_insert = 1"
sql "${HTTP[2]}" "INSERT INTO dts SELECT number + 10 FROM numbers(10) SETTINGS distributed_foreground_insert = 0"
sql "${HTTP[2]}" "SYSTEM FLUSH DISTRIBUTED dts"
check "secret: Distributed INSERT, both modes" "10	90 10	100" "$(q "${HTTP[0]}" "SELECT count(), sum(k) FROM ts") $(q "${HTTP[1]}" "SELECT count(), sum(k) FROM ts")"
sql "${HTTP[1]}" "CREATE TABLE dm (k UInt64) ENGINE = Distributed(mismatch, default, ts, k)"
has "secret: Distributed, another secret" "Interserver authentication failed" "$(q "${HTTP[1]}" "SELECT count() FROM dm")"
sql "${HTTP[1]}" "INSERT INTO dm SELECT number FROM numbers(3)"
has "secret: background INSERT, another secret" "Interserver authentication failed" "$(q "${HTTP[1]}" "SYSTEM FLUSH DISTRIBUTED dm")"

# load balancing: the replicas of 'pair' hold k % 3 = 0 (TCP0) and 1 (TCP1)
first() { q "${HTTP[2]}" "SELECT min(k) % 3 FROM $1 SETTINGS $2"; }
PAIR="remote('127.0.0.1:${TCP[0]}|127.0.0.1:${TCP[1]}', default.t)"
check "in_order" "0 0" "$(first "$PAIR" "load_balancing = 'in_order'") $(first "cluster('pair', default.t)" "load_balancing = 'in_order'")"
check "first_or_random" "0" "$(first "$PAIR" "load_balancing = 'first_or_random'")"
check "first_or_random offset" "1" "$(first "$PAIR" "load_balancing = 'first_or_random', load_balancing_first_offset = 1")"
# round_robin: remote() makes its pools per query (the second replica first, every time);
# a cluster's shard rotates from query to query
check "round_robin remote()" "1 1" "$(first "$PAIR" "load_balancing = 'round_robin'") $(first "$PAIR" "load_balancing = 'round_robin'")"
check "round_robin cluster" "1 0 1" "$(for _ in 1 2 3; do first "cluster('pair', default.t)" "load_balancing = 'round_robin'"; done | tr '\n' ' ' | sed 's/ $//')"
SEEN=$(for _ in $(seq 1 24); do first "$PAIR" "load_balancing = 'random'"; done | sort -u | tr '\n' ' ')
check "random reaches both replicas" "0 1 " "$SEEN"
# the hostname strategies: this host's own name beats 127.0.0.1 when it resolves
HOST=$(hostname)
if [ -n "$HOST" ] && getent hosts "$HOST" | grep -q '^127\.'; then
  NEAR="remote('127.0.0.1:${TCP[1]}|$HOST:${TCP[0]}', default.t)"
  for lb in nearest_hostname hostname_levenshtein_distance hostname_longest_common_prefix hostname_longest_common_suffix; do
    check "$lb" "0" "$(first "$NEAR" "load_balancing = '$lb'")"
  done
fi
has "load_balancing value" "UNKNOWN_LOAD_BALANCING" "$(first "$PAIR" "load_balancing = 'nearest'")"
# failover: a dead replica in a|b and in a cluster, whatever the order
DEADPAIR="remote('127.0.0.1:$DEAD|127.0.0.1:${TCP[0]}', default.t)"
for lb in in_order random round_robin first_or_random; do
  check "dead replica in a|b ($lb)" "10" "$(q "${HTTP[2]}" "SELECT count() FROM $DEADPAIR SETTINGS load_balancing = '$lb'")"
  check "dead replica in a cluster ($lb)" "10" "$(q "${HTTP[2]}" "SELECT count() FROM cluster('deadpair', default.t) SETTINGS load_balancing = '$lb'")"
done
OUT=$(q "${HTTP[2]}" "SELECT count() FROM remote('127.0.0.1:$DEAD', default.t)")
has "all tries failed" "ALL_CONNECTION_TRIES_FAILED" "$OUT"
check "three tries by default" "3" "$(printf '%s' "$OUT" | grep -o "Code: 210" | wc -l)"
OUT=$(q "${HTTP[2]}" "SELECT count() FROM remote('127.0.0.1:$DEAD|127.0.0.1:$DEAD', default.t) SETTINGS connections_with_failover_max_tries = 2")
check "connections_with_failover_max_tries" "4" "$(printf '%s' "$OUT" | grep -o "Code: 210" | wc -l)"
check "skip_unavailable_shards in remote()" "10" "$(q "${HTTP[2]}" "SELECT count() FROM remote('127.0.0.1:$DEAD,127.0.0.1:${TCP[0]}', default.t) SETTINGS skip_unavailable_shards = 1")"
has "unavailable shard" "ALL_CONNECTION_TRIES_FAILED" "$(q "${HTTP[2]}" "SELECT count() FROM remote('127.0.0.1:$DEAD,127.0.0.1:${TCP[0]}', default.t)")"
has "no arguments" "NUMBER_OF_ARGUMENTS_DOESNT_MATCH" "$(q "${HTTP[0]}" "SELECT * FROM cluster('three')")"

# a bad <remote_servers> stops the server with a clear error
BAD=$(free_port)
cat > "$WORK/bad.xml" <<XML
<clickhouse><listen_host>127.0.0.1</listen_host><http_port>$BAD</http_port><path>$WORK/bad/</path>
<remote_servers><c><shard><replica><port>1</port></replica></shard></c></remote_servers></clickhouse>
XML
OUT=$(timeout 20 "$SHALE" server --config-file "$WORK/bad.xml" 2>&1); RC=$?
check "bad config exit code" "1" "$RC"
has "bad config message" "remote_servers.c.shard.replica has no <host>" "$OUT"
cat > "$WORK/bad.xml" <<XML
<clickhouse><listen_host>127.0.0.1</listen_host><http_port>$BAD</http_port><path>$WORK/bad/</path>
<remote_servers><c><shard><replica><host>h</host><port>x</port></replica></shard></c></remote_servers></clickhouse>
XML
has "bad port" "INVALID_CONFIG_PARAMETER" "$(timeout 20 "$SHALE" server --config-file "$WORK/bad.xml" 2>&1)"

# the servers stop cleanly; a sanitizer build's reports land in their logs (memory errors
# fail; a LeakSanitizer report is shown: OpenSSL's per-thread state of exited threads
# shows up there now and then, 904 bytes from CRYPTO_zalloc, outside this test's code)
nodes_stop
nodes_sanitizer_ok || fail=1
echo "cluster tests: $passed passed"
exit $fail
