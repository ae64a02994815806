#!/usr/bin/env bash
# Tests of shale's native TCP protocol (tcp_port): two `shale server`s on 127.0.0.1 with
# chdb (ClickHouse 26.7 embedded) as the client through remote(), then raw-socket checks
# of what a ClickHouse client never sends (tests/server/native_raw.py). Every wait is
# bounded; the servers are stopped at the end.
set -u
SHALE=$(realpath "${1:?usage: run-native-tests.sh path/to/shale}")
HERE=$(cd "$(dirname "$0")" && pwd)
WORK=$(mktemp -d)
. "$HERE/lib.sh"
CHDB="$HERE/../queries/node_modules/chdb"
[ -d "$CHDB" ] || { echo "chdb is not installed (tests/queries/node_modules/chdb)"; exit 1; }
PORT=$(free_port); TCP_A=$(free_port); HTTP_B=$(free_port); TCP_B=$(free_port)
PID_B=
cleanup() {
  server_stop
  [ -n "$PID_B" ] && { kill -TERM "$PID_B" 2>/dev/null; for _ in $(seq 1 100); do kill -0 "$PID_B" 2>/dev/null || break; sleep 0.1; done; kill -9 "$PID_B" 2>/dev/null; }
  rm -rf "$WORK"
}
trap cleanup EXIT
fail=0

cat > "$WORK/users.xml" <<XML
<clickhouse>
    <profiles><default></default><ro><readonly>1</readonly></ro></profiles>
    <users>
        <default><no_password/><networks><ip>127.0.0.1</ip></networks><profile>default</profile></default>
        <alice><password>secret1</password><networks><ip>127.0.0.1</ip></networks><profile>default</profile></alice>
        <reader><no_password/><networks><ip>127.0.0.1</ip></networks><profile>ro</profile></reader>
    </users>
</clickhouse>
XML
config() { # NAME HTTP TCP
  mkdir -p "$WORK/$1"
  cp "$WORK/users.xml" "$WORK/$1/users.xml"
  cat > "$WORK/$1/config.xml" <<XML
<clickhouse>
    <listen_host>127.0.0.1</listen_host>
    <http_port>$2</http_port>
    <tcp_port>$3</tcp_port>
    <path>$WORK/$1/data/</path>
    <http_receive_timeout>3</http_receive_timeout>
    <max_concurrent_queries>4</max_concurrent_queries>
    <user_directories><users_xml><path>users.xml</path></users_xml></user_directories>
    <remote_servers>
        <sec><secret>s3cr3t</secret><shard><replica><host>127.0.0.1</host><port>$3</port></replica></shard></sec>
        <plain><shard><replica><host>127.0.0.1</host><port>$3</port></replica></shard></plain>
    </remote_servers>
</clickhouse>
XML
}
config a "$PORT" "$TCP_A"
config b "$HTTP_B" "$TCP_B"
server_start "$WORK/a.log" --config-file "$WORK/a/config.xml"
"$SHALE" server --config-file "$WORK/b/config.xml" >"$WORK/b.log" 2>&1 &
PID_B=$!
for _ in $(seq 1 100); do curl -s "http://127.0.0.1:$HTTP_B/ping" >/dev/null 2>&1 && break; sleep 0.1; done

# chdb must be able to use remote() at all: a real ClickHouse client of the protocol.
got=$(cd "$WORK" && timeout 60 node -e "const {query}=require(process.argv[1]); process.stdout.write(query(process.argv[2], 'TSV'))" \
  "$CHDB" "SELECT * FROM remote('127.0.0.1:$TCP_A', system.one)" 2>&1)
if [ "$got" != "0" ]; then echo "FAIL: chdb cannot query shale over remote(): $got"; cat "$WORK/a.log"; exit 1; fi

# One data set: all of it on A (full), halves on A and B (t).
COLS="k UInt64, i8 Int8, i16 Int16, i32 Int32, i64 Int64, u8 UInt8, u16 UInt16, u32 UInt32, i128 Int128, f32 Float32, f64 Float64, d Decimal(18,4), d2 Decimal128(10), s String, fs FixedString(3), dt Date, dt32 Date32, dtm DateTime('UTC'), dtm64 DateTime64(3, 'UTC'), u UUID, e Enum8('a'=1,'b'=2), n Nullable(Int32), lc LowCardinality(String), lcn LowCardinality(Nullable(String)), a Array(Int32), aa Array(Array(String)), tup Tuple(Int32, String), b Bool"
SEL="SELECT number, number-5, number*100, number*100000, number*1000000000000, number, number*7, number*1000, number*1000000000000000000, number/3, number/7, number/3, number/11, concat('s', toString(number)), toFixedString(toString(number%1000),3), toDate('2020-01-01')+number, toDate32('1950-01-01')+number, toDateTime('2020-01-01 00:00:00', 'UTC')+number*3600, toDateTime64('2020-01-01 00:00:00.123',3,'UTC')+number, CAST('00000000-0000-0000-0000-00000000000a' AS UUID), if(number%2,'a','b'), if(number%3=0,NULL,number), toString(number%5), if(number%4=0,NULL,toString(number%3)), range(number%4), [[toString(number)],[]], (number, 'x'), number%2=0 FROM numbers(20)"
sql() { # HTTP_PORT SQL
  local out; out=$(curl -sS --max-time 60 "http://127.0.0.1:$1/" --data-binary "$2")
  [ -z "$out" ] || { echo "setup failed: $2: $out"; exit 1; }
}
sql "$PORT" "CREATE TABLE full ($COLS) ENGINE = MergeTree ORDER BY k"
sql "$PORT" "INSERT INTO full $SEL"
sql "$PORT" "CREATE TABLE t ($COLS) ENGINE = MergeTree ORDER BY k"
sql "$PORT" "INSERT INTO t SELECT * FROM ($SEL) WHERE number < 10"
sql "$HTTP_B" "CREATE TABLE t ($COLS) ENGINE = MergeTree ORDER BY k"
sql "$HTTP_B" "INSERT INTO t SELECT * FROM ($SEL) WHERE number >= 10"
sql "$PORT" "CREATE TABLE ins (x UInt64, y String) ENGINE = MergeTree ORDER BY x"
sql "$PORT" "CREATE TABLE copy ($COLS) ENGINE = MergeTree ORDER BY k"
sql "$PORT" "CREATE TABLE defaults (x UInt64, y String DEFAULT concat('d', toString(x))) ENGINE = MergeTree ORDER BY x"

mkdir -p "$WORK/chdb"
(cd "$WORK/chdb" && timeout 300 node "$HERE/native-test.js" "$TCP_A" "$TCP_B" "$COLS" "$SEL") || fail=1
timeout 300 python3 "$HERE/native_raw.py" "$TCP_A" "$PORT" || fail=1

# Both servers are still up and answer over HTTP.
[ "$(curl -s "http://127.0.0.1:$PORT/ping")" = "Ok." ] || { echo "FAIL: server A is gone"; fail=1; }
[ "$(curl -s "http://127.0.0.1:$HTTP_B/ping")" = "Ok." ] || { echo "FAIL: server B is gone"; fail=1; }
# Stopped here so that a sanitizer's report at exit (leaks) is in the logs.
server_stop
kill -TERM "$PID_B" 2>/dev/null
for _ in $(seq 1 100); do kill -0 "$PID_B" 2>/dev/null || break; sleep 0.1; done
if grep -q "ERROR: AddressSanitizer\|ERROR: LeakSanitizer\|runtime error" "$WORK/a.log" "$WORK/b.log"; then
  echo "FAIL: sanitizer report"; cat "$WORK/a.log" "$WORK/b.log"; fail=1
fi
[ $fail = 0 ] && echo "native protocol tests passed"
exit $fail
