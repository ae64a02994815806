#!/usr/bin/env bash
# Integration tests of BACKUP / RESTORE of shale tables (interp/backup_sql.c): round trips,
# incremental backups by part, backups taken while inserts and merges run (through
# `shale server`), ASYNC with system.backups, errors, a damaged backup, kill -9 during a
# backup, ClickHouse (chdb) restoring shale's backups and shale restoring ClickHouse's, and
# an S3 destination on radosgw (skipped when radosgw is not installed). Every wait is
# bounded; everything listens on 127.0.0.1 only.
set -u
SHALE=$(realpath "${1:?usage: run-table-backup-tests.sh path/to/shale}")
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
tmp=$(mktemp -d /tmp/shale-table-backup.XXXXXX)
RGW_PORT=${TABLE_BACKUP_RGW_PORT:-17500}; MON_PORT=${TABLE_BACKUP_MON_PORT:-13320}
rgw_started=0
. "$ROOT/tests/server/lib.sh"
cleanup() {
  server_stop
  [ $rgw_started = 1 ] && "$ROOT/tests/s3/stop-ceph.sh" "$tmp/rgw" >/dev/null 2>&1
  rm -rf "$tmp"
}
trap cleanup EXIT

. "$HERE/checks.sh"
D="$tmp/data"; B="$D/backups"
q() { "$SHALE" local --path "$D" -q "$1" 2>&1; }
digest() { q "SELECT * FROM $1 ORDER BY ALL FORMAT TSV" | md5sum | cut -d' ' -f1; }

# ---- round trip: several parts, partitions and types ----
q "CREATE TABLE t (id UInt64, d Date, s String, n Nullable(Int32), lc LowCardinality(String), a Array(UInt16))
   ENGINE = MergeTree PARTITION BY toYYYYMM(d) ORDER BY id" >/dev/null
for k in 0 1 2; do
  q "INSERT INTO t SELECT number + $k * 10000, toDate('2024-01-01') + number % 90, repeat('x', number % 17),
     if(number % 5 = 0, NULL, toInt32(number) - 500), toString(number % 7), range(number % 4) FROM numbers(10000)" >/dev/null
done
src=$(digest t)
out=$(q "BACKUP TABLE t TO File('full')")
check_has "backup status" "BACKUP_CREATED" "$out"
check "backup metadata written last and present" "1" "$([ -f "$B/full/.backup" ] && echo 1)"
check_has "backup layout: metadata" "CREATE TABLE default.t" "$(cat "$B/full/metadata/default/t.sql")"
nparts=$(ls "$B/full/data/default/t" | wc -l)
check "backup layout: one directory per active part" "$(q "SELECT count() FROM system.parts WHERE table = 't' AND active")" "$nparts"
q "DROP TABLE t" >/dev/null
check_has "restore" "RESTORED" "$(q "RESTORE TABLE t FROM File('full')")"
check "restored data identical" "$src" "$(digest t)"
check "restored parts pass CHECK TABLE" "" "$(q "CHECK TABLE t" | grep -v '^1$' | grep -v '	1	')"
check_has "restore into a non-empty table refused" "CANNOT_RESTORE_TABLE" "$(q "RESTORE TABLE t FROM File('full')")"
check_has "allow_non_empty_tables appends" "RESTORED" "$(q "RESTORE TABLE t FROM File('full') SETTINGS allow_non_empty_tables = 1")"
check "appended rows" "60000" "$(q "SELECT count() FROM t")"
q "DROP TABLE t" >/dev/null; q "RESTORE TABLE t FROM File('full')" >/dev/null
check_has "restore AS another name" "RESTORED" "$(q "RESTORE TABLE t AS t_copy FROM File('full')")"
check "renamed copy identical" "$src" "$(digest t_copy)"
check_has "structure_only" "RESTORED" "$(q "RESTORE TABLE t AS t_empty FROM File('full') SETTINGS structure_only = 1")"
check "structure_only restores no rows" "0" "$(q "SELECT count() FROM t_empty")"

# ---- incremental by part ----
q "INSERT INTO t SELECT number + 90000, toDate('2024-02-01'), 'new', 1, 'n', [] FROM numbers(5000)" >/dev/null
src2=$(digest t)
check_has "incremental backup" "BACKUP_CREATED" "$(q "BACKUP TABLE t TO File('inc1') SETTINGS base_backup = File('full')")"
# (background merges may have rewritten parts since: those are new too)
stored_again=$(comm -12 <(ls "$B/full/data/default/t" | sort) <(ls "$B/inc1/data/default/t" | sort))
check "incremental stores no part the base has" "" "$stored_again"
check "incremental stores the new part" "1" "$(ls "$B/inc1/data/default/t" | grep -q '^202402_' && echo 1)"
check_has "incremental names its base" "<base_backup>File('full')</base_backup>" "$(cat "$B/inc1/.backup")"
check_has "old parts recorded as use_base" "<use_base>true</use_base>" "$(cat "$B/inc1/.backup")"
q "INSERT INTO t SELECT number + 200000, toDate('2024-03-01'), 'newer', 2, 'm', [1] FROM numbers(100)" >/dev/null
q "OPTIMIZE TABLE t FINAL" >/dev/null
src3=$(digest t)
check_has "second incremental after a merge" "BACKUP_CREATED" "$(q "BACKUP TABLE t TO File('inc2') SETTINGS base_backup = File('inc1')")"
check_has "restore through a chain of two bases" "RESTORED" "$(q "RESTORE TABLE t AS t_inc1 FROM File('inc1')")"
check "chain restore of inc1" "$src2" "$(digest t_inc1)"
check_has "restore of inc2" "RESTORED" "$(q "RESTORE TABLE t AS t_inc2 FROM File('inc2')")"
check "chain restore of inc2 (merged parts)" "$src3" "$(digest t_inc2)"
rm -rf "$B/inc1.moved"; mv "$B/inc1" "$B/inc1.moved"
check_has "missing base named" "BACKUP_NOT_FOUND" "$(q "RESTORE TABLE t AS t_x FROM File('inc2')")"
mv "$B/inc1.moved" "$B/inc1"

# ---- databases ----
q "CREATE DATABASE db2" >/dev/null
q "CREATE TABLE db2.a (x UInt32) ENGINE = MergeTree ORDER BY x" >/dev/null
q "CREATE TABLE db2.b (y String) ENGINE = ReplacingMergeTree ORDER BY y" >/dev/null
q "CREATE TABLE db2.n (y String) ENGINE = Null" >/dev/null
q "INSERT INTO db2.a SELECT number FROM numbers(1000)" >/dev/null
q "INSERT INTO db2.b VALUES ('p'), ('q')" >/dev/null
check_has "backup database" "BACKUP_CREATED" "$(q "BACKUP DATABASE db2 TO File('db2')")"
check "database metadata" "CREATE DATABASE db2" "$(cat "$B/db2/metadata/db2.sql")"
check_has "restore database under another name" "RESTORED" "$(q "RESTORE DATABASE db2 AS db3 FROM File('db2')")"
check "restored database tables" "$(printf 'a\nb\nn')" "$(q "SHOW TABLES FROM db3")"
check "restored database data" "1000	499500	2" "$(q "SELECT count(), sum(x), (SELECT count() FROM db3.b) FROM db3.a")"

# ---- errors ----
check_has "already exists" "BACKUP_ALREADY_EXISTS" "$(q "BACKUP TABLE t TO File('full')")"
check_has "not found" "BACKUP_NOT_FOUND" "$(q "RESTORE TABLE t FROM File('nope')")"
check_has "table not in backup" "BACKUP_ENTRY_NOT_FOUND" "$(q "RESTORE TABLE zz FROM File('full')")"
check_has "unknown table" "UNKNOWN_TABLE" "$(q "BACKUP TABLE zz TO File('zz')")"
check_has "outside allowed path" "is not allowed for backups" "$(q "BACKUP TABLE t TO File('$tmp/elsewhere')")"
check_has "dot-dot" "is not allowed for backups" "$(q "BACKUP TABLE t TO File('a/../../x')")"
check_has "unknown setting" "UNKNOWN_SETTING" "$(q "BACKUP TABLE t TO File('s1') SETTINGS nonsense = 1")"
check_has "unsupported setting" "NOT_IMPLEMENTED" "$(q "BACKUP TABLE t TO File('s2') SETTINGS compression_method = 'lzma'")"
check_has "archive" "NOT_IMPLEMENTED" "$(q "BACKUP TABLE t TO File('x.zip')")"
check_has "Disk engine" "NOT_IMPLEMENTED" "$(q "BACKUP TABLE t TO Disk('backups', 'x')")"
q "CREATE TABLE mem (x UInt8) ENGINE = Memory" >/dev/null
check_has "Memory table" "NOT_IMPLEMENTED" "$(q "BACKUP TABLE mem TO File('mem')")"
check_has "partitions clause" "SYNTAX_ERROR" "$(q "BACKUP TABLE t PARTITIONS '202401' TO File('p')")"
check "failed backups leave nothing" "" "$(ls "$B" | grep -E '^(s1|s2|mem|zz)$')"

# a damaged file: the restore names it and the table gets no part from it
cp -r "$B/full" "$B/damaged"
f=$(find "$B/damaged/data/default/t" -name 'id.bin' | head -1)
printf 'X' | dd of="$f" bs=1 seek=20 conv=notrunc 2>/dev/null
out=$(q "RESTORE TABLE t AS t_dmg FROM File('damaged')")
check_has "damaged file: checksum error" "CHECKSUM_DOESNT_MATCH" "$out"
check_has "damaged file named" "id.bin" "$out"
check "no temporary directories left" "" "$(ls "$D/data/default/t_dmg" | grep tmp_)"

# ---- kill -9 during a backup: not listed, the next one succeeds ----
q "CREATE TABLE big (k UInt64, v String) ENGINE = MergeTree ORDER BY k" >/dev/null
q "INSERT INTO big SELECT number, toString(cityHash64(number)) FROM numbers(3000000)" >/dev/null
"$SHALE" local --path "$D" -q "BACKUP TABLE big TO File('killed')" >/dev/null 2>&1 &
bp=$!
for _ in $(seq 1 100); do [ -d "$B/killed/data" ] && break; sleep 0.02; done
kill -9 $bp 2>/dev/null; wait $bp 2>/dev/null
check "killed backup is not listed (.backup absent)" "" "$(ls -A "$B/killed" 2>/dev/null | grep -x .backup)"
check_has "a backup to the same place after the kill" "BACKUP_CREATED" "$(q "BACKUP TABLE big TO File('killed')")"
check_has "and it restores" "3000000" "$(q "RESTORE TABLE big AS big2 FROM File('killed'); SELECT count() FROM big2")"

# ---- consistent while inserts and merges run; ASYNC (shale server) ----
PORT=$(free_port); URL="http://127.0.0.1:$PORT"
mkdir -p "$tmp/srv"
cat > "$tmp/srv/config.xml" <<XML
<clickhouse>
    <listen_host>127.0.0.1</listen_host>
    <http_port>$PORT</http_port>
    <path>$tmp/srv/data/</path>
    <backups><allowed_path>$tmp/srv/bk</allowed_path><allowed_path>$tmp/srv/bk2</allowed_path></backups>
</clickhouse>
XML
server_start "$tmp/srv/server.log" --config-file "$tmp/srv/config.xml"
h() { curl -sS --max-time 60 "$URL/" --data-binary "$1"; }
h "CREATE TABLE live (batch UInt32, i UInt32) ENGINE = MergeTree ORDER BY (batch, i) SETTINGS old_parts_lifetime = 1" >/dev/null
( for b in $(seq 1 60); do
    curl -sS --max-time 30 "$URL/" --data-binary "INSERT INTO live SELECT $b, number FROM numbers(2000)" >/dev/null
  done ) &
ins=$!
sleep 0.5
for k in 1 2 3; do
  h "BACKUP TABLE live TO File('live$k')" >/dev/null
  h "OPTIMIZE TABLE live" >/dev/null
done
wait $ins
for k in 1 2 3; do
  h "RESTORE TABLE live AS live_r$k FROM File('live$k')" >/dev/null
  # every insert is in the restored table whole or not at all
  check "backup $k taken during inserts/merges: whole inserts only" "" \
    "$(h "SELECT batch, count() AS c FROM live_r$k GROUP BY batch HAVING c != 2000")"
  check "backup $k parts check" "" "$(h "CHECK TABLE live_r$k" | grep -v '^1$' | grep -v '	1	')"
done
check "second allowed path" "BACKUP_CREATED" "$(h "BACKUP TABLE live TO File('$tmp/srv/bk2/x')" | cut -f2)"
id=$(h "BACKUP TABLE live TO File('async1') ASYNC" | cut -f1)
check "ASYNC returns at once" "CREATING_BACKUP" "$(h "SELECT status FROM system.backups WHERE id = '$id'" | sed 's/BACKUP_CREATED/CREATING_BACKUP/')"
st=
for _ in $(seq 1 200); do
  st=$(h "SELECT status FROM system.backups WHERE id = '$id'")
  [ "$st" = "CREATING_BACKUP" ] || break; sleep 0.05
done
check "ASYNC backup completes" "BACKUP_CREATED" "$st"
check "system.backups counts files" "1" "$(h "SELECT num_files > 0 AND total_size > 0 AND end_time >= start_time FROM system.backups WHERE id = '$id'")"
check "id setting" "mine	BACKUP_CREATED" "$(h "BACKUP TABLE live TO File('own') SETTINGS id = 'mine'")"
check_has "a failed backup" "BACKUP_ALREADY_EXISTS" "$(h "BACKUP TABLE live TO File('own') SETTINGS id = 'again'")"
check_has "failed operations in system.backups" "BACKUP_FAILED	Code: 598" "$(h "SELECT status, error FROM system.backups WHERE id = 'again'")"
server_stop

# ---- ClickHouse (chdb) restores shale's backups, and shale restores ClickHouse's ----
CHDB="$ROOT/tests/queries/node_modules/chdb"
if [ -d "$CHDB" ] && command -v node >/dev/null; then
  cat > "$tmp/ch.js" <<'JS'
const { Session } = require(process.argv[2]);
const s = new Session(process.argv[3], { connectionArgs: ['--backups.allowed_path=' + process.argv[4]] });
for (const q of process.argv.slice(5)) {
  try { process.stdout.write(s.query(q, 'TSV').toString()); } catch (e) { process.stdout.write('ERROR ' + e.message + '\n'); }
}
JS
  ch() { node "$tmp/ch.js" "$CHDB" "$tmp/chdata" "$B" "$@" 2>&1; }
  check_has "ClickHouse restores shale's incremental backup" "RESTORED" "$(ch "RESTORE TABLE t AS from_shale FROM File('$B/inc2')")"
  check "ClickHouse reads the same rows" "$src3" "$(ch "SELECT * FROM from_shale ORDER BY ALL FORMAT TSV" | md5sum | cut -d' ' -f1)"
  out=$(ch "CREATE TABLE ch_w (id UInt64, s String, d Date) ENGINE = MergeTree PARTITION BY toYYYYMM(d) ORDER BY id SETTINGS min_bytes_for_wide_part = 0" \
           "INSERT INTO ch_w SELECT number, toString(number), toDate('2024-01-01') + number % 300 FROM numbers(5000)" \
           "INSERT INTO ch_w SELECT number, 'two', toDate('2024-06-01') FROM numbers(100)" \
           "BACKUP TABLE ch_w TO File('$B/from_ch')")
  check_has "ClickHouse backup" "BACKUP_CREATED" "$out"
  want=$(ch "SELECT * FROM ch_w ORDER BY ALL FORMAT TSV" | md5sum | cut -d' ' -f1)
  check_has "shale restores ClickHouse's backup" "RESTORED" "$(q "RESTORE TABLE ch_w FROM File('from_ch')")"
  check "shale reads the same rows" "$want" "$(digest ch_w)"
  out=$(ch "CREATE TABLE ch_c (x UInt32) ENGINE = MergeTree ORDER BY x" "INSERT INTO ch_c VALUES (1)" "BACKUP TABLE ch_c TO File('$B/from_ch_compact')")
  check_has "ClickHouse's Compact parts: a clear error" "Compact format" "$(q "RESTORE TABLE ch_c FROM File('from_ch_compact')")"
else
  echo "SKIP: chdb not installed (tests/queries: npm install): interoperability with ClickHouse"
fi

# ---- S3 on radosgw ----
if command -v radosgw >/dev/null && timeout 120 "$ROOT/tests/s3/start-ceph.sh" "$tmp/rgw" "$RGW_PORT" "$MON_PORT" >"$tmp/rgw.log" 2>&1; then
  rgw_started=1
  EP="http://127.0.0.1:$RGW_PORT"
  curl -sf --aws-sigv4 "aws:amz:us-east-1:s3" --user "TESTKEY:TESTSECRET" -H 'x-amz-content-sha256: UNSIGNED-PAYLOAD' -X PUT "$EP/bkt" >/dev/null
  check_has "backup to S3" "BACKUP_CREATED" "$(q "BACKUP TABLE t TO S3('$EP/bkt/b/full', 'TESTKEY', 'TESTSECRET')")"
  q "INSERT INTO t SELECT number + 500000, toDate('2024-04-01'), 's3', 3, 's', [2] FROM numbers(100)" >/dev/null
  src4=$(digest t)
  check_has "incremental on S3" "BACKUP_CREATED" "$(q "BACKUP TABLE t TO S3('$EP/bkt/b/inc', 'TESTKEY', 'TESTSECRET') SETTINGS base_backup = S3('$EP/bkt/b/full', 'TESTKEY', 'TESTSECRET')")"
  check_has "restore from S3" "RESTORED" "$(q "RESTORE TABLE t AS t_s3 FROM S3('$EP/bkt/b/inc', 'TESTKEY', 'TESTSECRET')")"
  check "S3 round trip identical" "$src4" "$(digest t_s3)"
  check_has "wrong S3 secret" "Exception" "$(q "BACKUP TABLE t TO S3('$EP/bkt/b/bad', 'TESTKEY', 'WRONG')")"
  log=$(q "BACKUP TABLE t TO S3('$EP/bkt/b/logged', 'TESTKEY', 'TESTSECRET'); SELECT name FROM system.backups; SELECT query FROM system.query_log WHERE query LIKE 'BACKUP%S3%'")
  check_has "system.backups hides the secret" "[HIDDEN]" "$log"
  check "the secret is never shown" "" "$(printf '%s' "$log" | grep -o TESTSECRET)"
else
  echo "SKIP: radosgw could not be started: S3 destination tests"
fi

echo "table backups: $pass passed, $fail failed"
[ "$fail" = 0 ]
