#!/usr/bin/env bash
# Integration tests of `shale backup` against a real PostgreSQL 15 (initdb/pg_ctl in a
# temporary directory, run as the postgres user when this script runs as root, because
# postgres refuses root) and, when radosgw starts, an S3 repository on 127.0.0.1.
# Small data (pgbench scale 5, ~100 MB) so the whole set runs in a few minutes; every
# wait is bounded. Skips (exit 0) when PostgreSQL 15 is not installed.
set -u
SHALE_IN=$(realpath "${1:?usage: run-backup-tests.sh path/to/shale}")
HERE=$(cd "$(dirname "$0")" && pwd)
PGBIN=${PGBIN:-/usr/lib/postgresql/15/bin}
if [ ! -x "$PGBIN/initdb" ] || ! command -v pgbench >/dev/null; then
  echo "SKIP: PostgreSQL 15 not installed (scripts/install-deps.sh installs postgresql-15)"; exit 0
fi
tmp=$(mktemp -d /tmp/shale-backup-test.XXXXXX); chmod 755 "$tmp"
AS=()
if [ "$(id -u)" = 0 ]; then AS=(runuser -u postgres --); chown postgres "$tmp"; fi
run() { "${AS[@]}" "$@"; }
# The postgres user's commands inherit the working directory: a checkout under a private
# directory (mktemp -d is 0700) would make psql and pg_ctl fail to start there.
cd "$tmp" || exit 1
# a copy the postgres user can execute whatever the build directory's permissions
mkdir -p "$tmp/bin"; cp "$SHALE_IN" "$tmp/bin/shale"; chmod 755 "$tmp/bin" "$tmp/bin/shale"
SHALE="$tmp/bin/shale"
[ "$(id -u)" = 0 ] && chown -R postgres "$tmp/bin"
PORT=${BACKUP_TEST_PG_PORT:-25432}
RPORT=$((PORT + 1))
SOCK="$tmp/sock"; run mkdir -p "$SOCK"
REPO="file://$tmp/repo"
RGW_PORT=${BACKUP_TEST_RGW_PORT:-17490}; MON_PORT=${BACKUP_TEST_MON_PORT:-13310}
rgw_started=0

cleanup() {
  for d in "$tmp/src" "$tmp/r1" "$tmp/r2" "$tmp/r3" "$tmp/r4"; do
    [ -f "$d/postmaster.pid" ] && run "$PGBIN/pg_ctl" -D "$d" -m immediate stop >/dev/null 2>&1
  done
  [ $rgw_started = 1 ] && "$HERE/../s3/stop-ceph.sh" "$tmp/rgw" >/dev/null 2>&1
  rm -rf "$tmp"
}
trap cleanup EXIT

. "$HERE/checks.sh"
check_true() { # name, condition result (0/1), detail
  if [ "$2" = 1 ]; then pass=$((pass+1)); else fail=$((fail+1)); printf 'FAIL %s (%s)\n' "$1" "$3"; fi
}
psql_at() { run psql -X -q -At -h "$SOCK" -p "$1" -U postgres -d postgres -c "$2" 2>&1; }
sq() { psql_at "$PORT" "$1"; }

start_pg() { # datadir port
  # a restored copy must not archive into the source's repository: its new timeline's
  # history file would steer the next restore (recovery_target_timeline = latest) away
  [ "$1" != "$tmp/src" ] && echo "archive_mode = off" | run tee -a "$1/postgresql.auto.conf" >/dev/null
  run "$PGBIN/pg_ctl" -D "$1" -o "-p $2 -k $SOCK -c listen_addresses=''" -l "$1.log" -w -t 120 start >/dev/null 2>&1 ||
    { echo "cannot start PostgreSQL in $1:"; tail -20 "$1.log"; return 1; }
}
stop_pg() { run "$PGBIN/pg_ctl" -D "$1" -m fast -w -t 60 stop >/dev/null 2>&1; }
# every user table's md5 over its rows in key order, one line per table
checksums() { # port
  psql_at "$1" "SELECT string_agg(t || ':' || s, ' ' ORDER BY t) FROM (
    SELECT 'accounts' t, md5(string_agg(a::text, ',' ORDER BY aid)) s FROM pgbench_accounts a UNION ALL
    SELECT 'branches', md5(string_agg(b::text, ',' ORDER BY bid)) FROM pgbench_branches b UNION ALL
    SELECT 'tellers', md5(string_agg(t::text, ',' ORDER BY tid)) FROM pgbench_tellers t UNION ALL
    SELECT 'history', md5(string_agg(h::text, ',' ORDER BY tid, bid, aid, delta, mtime)) FROM pgbench_history h UNION ALL
    SELECT 'cold', md5(string_agg(c::text, ',' ORDER BY id)) FROM cold c UNION ALL
    SELECT 'tsp', md5(string_agg(x::text, ',' ORDER BY id)) FROM tsp x UNION ALL
    SELECT 'extra', coalesce((SELECT md5(string_agg(e::text, ',' ORDER BY id)) FROM extra e), 'none')) q"
}
# pgbench's invariant: the balances of branches, tellers and accounts and the history agree
invariant() { # port
  psql_at "$1" "SELECT (SELECT sum(abalance) FROM pgbench_accounts) = (SELECT sum(bbalance) FROM pgbench_branches)
     AND (SELECT sum(bbalance) FROM pgbench_branches) = (SELECT sum(tbalance) FROM pgbench_tellers)
     AND (SELECT sum(tbalance) FROM pgbench_tellers) = (SELECT coalesce(sum(delta), 0) FROM pgbench_history)"
}
field() { # backup name, column of pg list
  run "$SHALE" backup pg list --repo "$2" | awk -F'\t' -v n="$1" -v c="$3" 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i } $1 == n { print $col[c] }'
}
last_name() { run "$SHALE" backup pg list --repo "$1" | awk -F'\t' 'NR > 1 { n = $1 } END { print n }'; }
wait_recovered() { # port: promoted after recovery (bounded)
  for _ in $(seq 120); do
    [ "$(psql_at "$1" "SELECT pg_is_in_recovery()")" = f ] && return 0
    sleep 0.5
  done
  return 1
}

# ---- the source cluster ----
run "$PGBIN/initdb" -D "$tmp/src" -U postgres --auth=trust -k >/dev/null 2>&1 || { echo "FAIL: initdb"; exit 1; }
run mkdir -p "$tmp/ts_src"
cat >> "$tmp/src/postgresql.conf" <<CONF
wal_level = replica
archive_mode = on
archive_command = '$SHALE backup wal push --repo $REPO %p'
shared_buffers = 32MB
max_wal_size = 256MB
checkpoint_timeout = 300
autovacuum = off
CONF
start_pg "$tmp/src" "$PORT" || exit 1
run pgbench -i -s 5 -q -h "$SOCK" -p "$PORT" -U postgres postgres >/dev/null 2>&1 || { echo "FAIL: pgbench -i"; exit 1; }
sq "CREATE TABLESPACE tsx LOCATION '$tmp/ts_src'" >/dev/null
sq "CREATE TABLE tsp (id int PRIMARY KEY, v text) TABLESPACE tsx; INSERT INTO tsp SELECT g, md5(g::text) FROM generate_series(1, 20000) g" >/dev/null
# a 'cold' table nobody reads during the backups: its page-cache residency is measured
sq "CREATE TABLE cold (id int, v text); INSERT INTO cold SELECT g, repeat(md5(g::text), 8) FROM generate_series(1, 120000) g" >/dev/null
sq "CHECKPOINT" >/dev/null

out=$(run "$SHALE" backup pg push --pgdata "$tmp/src" --repo "$REPO" --bogus 2>&1)
check_has "an unknown option is refused" "unknown option --bogus" "$out"
out=$(run "$SHALE" backup pg push --pgdata "$tmp/src" --repo "$REPO" --env /nonexistent.env 2>&1)
check_has "a missing env file is an error" "Cannot open env file /nonexistent.env" "$out"

# ---- 1. a full backup under a pgbench write load ----
run pgbench -n -c 2 -j 1 -T 25 -h "$SOCK" -p "$PORT" -U postgres postgres >"$tmp/pgbench1.log" 2>&1 &
PGB=$!
sleep 3
out=$(run env PGHOST=$SOCK PGPORT=$PORT PGUSER=postgres "$SHALE" backup pg push --pgdata "$tmp/src" --repo "$REPO" 2>&1)
echo "$out" | sed 's/^/  push: /'
check_has "full push completes" "complete at" "$out"
check_has "full push reads with O_DIRECT" "with O_DIRECT" "$out"
# every file read to its end with several O_DIRECT reads in flight (native AIO), where the
# kernel offers io_setup (the counts match: "N files with O_DIRECT (N with up to 4 …")
aio=$(echo "$out" | sed -n 's/^reads: \([0-9]*\) files with O_DIRECT (\([0-9]*\) with up to.*/\1 \2/p')
check_true "full push reads with several reads in flight (O_DIRECT files, with AIO: $aio)" \
  "$(awk -v a="$aio" 'BEGIN { split(a, v, " "); print (v[1] > 0 && v[1] == v[2]) ? 1 : 0 }')" "$aio"
check_has "full push reports the buffer bound" "of the" "$out"
check_has "full push says what it did about the CPU weight" "cpu weight:" "$out"
B1=$(last_name "$REPO")
kill -0 $PGB 2>/dev/null; check "pgbench still running during the push" "0" "$?"
wait $PGB
check_has "pgbench load ran" "number of transactions actually processed" "$(cat "$tmp/pgbench1.log")"
STOP1=$(field "$B1" "$REPO" stop_lsn)
C1=$(checksums "$PORT")
sq "SELECT pg_switch_wal()" >/dev/null
sleep 1

# fetch and recover to the backup's stop point: a consistent cluster (pgbench's invariant)
out=$(run "$SHALE" backup pg fetch --repo "$REPO" --backup "$B1" --target "$tmp/r1" --tablespace "$(sq "SELECT oid FROM pg_tablespace WHERE spcname = 'tsx'")=$tmp/ts_r1" --target-lsn "$STOP1" 2>&1)
check_has "fetch of the full backup" "fetched $B1" "$out"
check "restored tablespace link" "$tmp/ts_r1" "$(readlink "$tmp/r1/pg_tblspc/"*)"
if start_pg "$tmp/r1" "$RPORT" && wait_recovered "$RPORT"; then
  check "restored at the stop point: pgbench invariant holds" "t" "$(invariant "$RPORT")"
  check "restored at the stop point: tablespace table" "20000" "$(psql_at "$RPORT" "SELECT count(*) FROM tsp")"
  check "replayed exactly to the stop point" "t" "$(psql_at "$RPORT" "SELECT pg_last_wal_replay_lsn() >= '$STOP1'::pg_lsn")"
  stop_pg "$tmp/r1"
else
  fail=$((fail+1)); echo "FAIL: the cluster restored to the stop point did not start"; tail -20 "$tmp/r1.log"
fi

# fetch and replay all archived WAL: every table equals the source after the load ended
out=$(run "$SHALE" backup pg fetch --repo "$REPO" --backup LATEST --target "$tmp/r2" --tablespace "$(sq "SELECT oid FROM pg_tablespace WHERE spcname = 'tsx'")=$tmp/ts_r2" 2>&1)
check_has "fetch LATEST" "fetched $B1" "$out"
if start_pg "$tmp/r2" "$RPORT" && wait_recovered "$RPORT"; then
  check "WAL replay to a later point: every table's checksum matches the source" "$C1" "$(checksums "$RPORT")"
  check_true "restore_command prefetched segments" "$(ls "$tmp/r2/pg_wal/.shale-prefetch" >/dev/null 2>&1 && echo 1 || echo 0)" "no .shale-prefetch directory"
  stop_pg "$tmp/r2"
else
  fail=$((fail+1)); echo "FAIL: the cluster restored with full WAL replay did not start"; tail -20 "$tmp/r2.log"
fi
run rm -rf "$tmp/r1" "$tmp/r2" "$tmp/ts_r1" "$tmp/ts_r2"

# ---- 2. an incremental chain of three ----
# a full backup of the quiet cluster, then ~1 % of the accounts' pages changed
out=$(run env PGHOST=$SOCK PGPORT=$PORT PGUSER=postgres "$SHALE" backup pg push --pgdata "$tmp/src" --repo "$REPO" 2>&1)
check_has "full push of the quiet cluster" "complete at" "$out"
B2=$(last_name "$REPO")
sq "UPDATE pgbench_accounts SET abalance = abalance + 1 WHERE aid <= 5000" >/dev/null
out=$(run env PGHOST=$SOCK PGPORT=$PORT PGUSER=postgres "$SHALE" backup pg push --pgdata "$tmp/src" --repo "$REPO" --delta-from LATEST 2>&1)
check_has "delta 1 completes" "complete at" "$out"
check_has "delta 1 ships pages" "pages shipped" "$out"
echo "$out" | grep -E "delta:|stored" | sed 's/^/  delta1: /'
D1=$(last_name "$REPO")
check "delta 1's parent" "$B2" "$(field "$D1" "$REPO" parent)"
s_full=$(field "$B2" "$REPO" stored); s_d1=$(field "$D1" "$REPO" stored)
check_true "delta after ~1 % of pages changed ships < 10 % of the full backup ($s_d1 of $s_full bytes)" \
  "$(( s_d1 * 10 < s_full ? 1 : 0 ))" "$s_d1 vs $s_full"
# new, dropped and truncated files: TRUNCATE gives cold a new file, extra is new
sq "TRUNCATE cold; INSERT INTO cold SELECT g, 'x' FROM generate_series(1, 1000) g;
    CREATE TABLE extra (id int, v text); INSERT INTO extra SELECT g, g::text FROM generate_series(1, 5000) g;
    DELETE FROM tsp WHERE id > 15000; VACUUM tsp; UPDATE pgbench_branches SET bbalance = bbalance + 7" >/dev/null
out=$(run env PGHOST=$SOCK PGPORT=$PORT PGUSER=postgres "$SHALE" backup pg push --pgdata "$tmp/src" --repo "$REPO" --delta-from LATEST 2>&1)
check_has "delta 2 completes" "complete at" "$out"
D2=$(last_name "$REPO")
check "delta 2's parent" "$D1" "$(field "$D2" "$REPO" parent)"
C3=$(checksums "$PORT")
sq "SELECT pg_switch_wal()" >/dev/null
sleep 1
out=$(run "$SHALE" backup pg fetch --repo "$REPO" --backup "$D2" --target "$tmp/r3" --tablespace "$(sq "SELECT oid FROM pg_tablespace WHERE spcname = 'tsx'")=$tmp/ts_r3" 2>&1)
check_has "fetch applies the chain of three" "(3 backups in the chain)" "$out"
if start_pg "$tmp/r3" "$RPORT" && wait_recovered "$RPORT"; then
  check "chain of three: every table's checksum matches the source" "$C3" "$(checksums "$RPORT")"
  stop_pg "$tmp/r3"
else
  fail=$((fail+1)); echo "FAIL: the cluster restored from the chain did not start"; tail -20 "$tmp/r3.log"
fi
run rm -rf "$tmp/r3" "$tmp/ts_r3"
out=$(run "$SHALE" backup pg verify --repo "$REPO" --backup "$D2" 2>&1)
check_has "verify of an intact delta" "verified; chain of 3 complete" "$out"

# pacing against the database's latency: probes run, the backup completes
out=$(run env PGHOST=$SOCK PGPORT=$PORT PGUSER=postgres "$SHALE" backup pg push --pgdata "$tmp/src" --repo "$REPO" --delta-from LATEST --max-latency-ms 1 2>&1)
check_has "push with --max-latency-ms completes" "complete at" "$out"
check_has "push with --max-latency-ms reports its pacing" "pacing: bound 1 ms" "$out"

# ---- 3. kill -9 during a push: not listed, the next push succeeds ----
n_before=$(run "$SHALE" backup pg list --repo "$REPO" | tail -n +2 | wc -l)
printf 'SHALE_BACKUP_COMPRESSION=zstd\nSHALE_BACKUP_COMPRESSION_LEVEL=19\nSHALE_BACKUP_CONCURRENCY=1\n' > "$tmp/slow.env"
chmod 644 "$tmp/slow.env"
run env PGHOST=$SOCK PGPORT=$PORT PGUSER=postgres "$SHALE" backup pg push --pgdata "$tmp/src" --repo "$REPO" --env "$tmp/slow.env" >"$tmp/killed.log" 2>&1 &
KP=$!
killed=0
for _ in $(seq 300); do # until its first data object exists (at most 30 s)
  if ls "$tmp"/repo/backups/*/data/* 2>/dev/null | grep -qv -e "$B1" -e "$D1" -e "$D2"; then
    # the push itself: as root it runs under runuser, a grandchild of $KP
    kill -9 $(pgrep -f -- "--env $tmp/slow.env") 2>/dev/null; kill -9 $KP 2>/dev/null; killed=1; break
  fi
  sleep 0.1
done
wait $KP 2>/dev/null
check "the push was killed while writing data" "1" "$killed"
check "no push left running after kill -9" "" "$(pgrep -f -- "--env $tmp/slow.env")"
check "a killed push is not listed" "$n_before" "$(run "$SHALE" backup pg list --repo "$REPO" | tail -n +2 | wc -l)"
out=$(run env PGHOST=$SOCK PGPORT=$PORT PGUSER=postgres "$SHALE" backup pg push --pgdata "$tmp/src" --repo "$REPO" --delta-from LATEST 2>&1)
check_has "the next push succeeds" "complete at" "$out"
check "and is listed" "$((n_before + 1))" "$(run "$SHALE" backup pg list --repo "$REPO" | tail -n +2 | wc -l)"

# ---- 4. a corrupted object: verify and fetch name the file and block ----
run cp -a "$tmp/repo" "$tmp/repo_bad"
read -r obj off zlen fpath bidx < <(python3 - "$tmp/repo_bad/backups/$B1/manifest.json" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
# a block with stored bytes (a block of zeros may be stored as nothing): the middle one
# of the largest file that has such blocks
stored = lambda f: [b for b in f["blocks"] if b[3] > 16]
f = max((f for f in m["files"] if f["type"] == "file" and stored(f)), key=lambda f: f["size"])
bs = stored(f)
b = bs[len(bs) // 2]
print(m["objects"][b[1]], b[2], b[3], f["path"], b[0])
PY
)
python3 - "$tmp/repo_bad/backups/$B1/$obj" "$((off + zlen / 2))" <<'PY' || echo "FAIL: could not damage the object"
import os, sys
path, at = sys.argv[1], int(sys.argv[2])
if not os.path.exists(path) or os.path.getsize(path) <= at:
    sys.exit(f"the object {path} has no byte {at}")
with open(path, "r+b") as f:
    f.seek(at); c = f.read(1); f.seek(at); f.write(bytes([c[0] ^ 0x5A]))
PY
out=$(run "$SHALE" backup pg verify --repo "file://$tmp/repo_bad" --backup "$B1" 2>&1); rc=$?
check "verify fails on a corrupt object" "1" "$rc"
check_has "verify names the file and block" "file $fpath, block $bidx" "$out"
out=$(run "$SHALE" backup pg fetch --repo "file://$tmp/repo_bad" --backup "$B1" --target "$tmp/r4" --tablespace "$(sq "SELECT oid FROM pg_tablespace WHERE spcname = 'tsx'")=$tmp/ts_r4" 2>&1); rc=$?
check "fetch fails on a corrupt object" "1" "$rc"
check_has "fetch names the file and block" "file $fpath, block $bidx" "$out"
run rm -rf "$tmp/r4" "$tmp/ts_r4" "$tmp/repo_bad"

# ---- 5. O_DIRECT leaves the page cache alone (fincore) ----
if command -v fincore >/dev/null && command -v dd >/dev/null; then
  sq "INSERT INTO cold SELECT g, repeat(md5(g::text), 8) FROM generate_series(1, 120000) g; CHECKPOINT" >/dev/null
  cold_files=$(ls "$tmp/src/$(sq "SELECT pg_relation_filepath('cold')")"* | grep -v -e _fsm -e _vm)
  drop_cache() { sync; for f in $cold_files; do dd if="$f" iflag=nocache count=0 status=none; done; }
  cached() { fincore -b -n -r -o RES $cold_files | awk '{ s += $1 } END { print s + 0 }'; }
  size=$(cat $cold_files | wc -c)
  drop_cache
  before=$(cached)
  out=$(run env PGHOST=$SOCK PGPORT=$PORT PGUSER=postgres "$SHALE" backup pg push --pgdata "$tmp/src" --repo "$REPO" 2>&1)
  after=$(cached)
  check_has "push for the page-cache test" "complete at" "$out"
  check_true "O_DIRECT: the cold table stays out of the page cache ($before -> $after of $size bytes)" \
    "$(( after - before < size / 20 ? 1 : 0 ))" "$before -> $after"
  drop_cache
  before=$(cached)
  out=$(run env PGHOST=$SOCK PGPORT=$PORT PGUSER=postgres "$SHALE" backup pg push --pgdata "$tmp/src" --repo "$REPO" --buffered 2>&1)
  after=$(cached)
  check_has "buffered push reports its reads" "0 files with O_DIRECT" "$out"
  check_true "--buffered does fill the page cache (the check can tell: $before -> $after of $size bytes)" \
    "$(( after - before > size / 2 ? 1 : 0 ))" "$before -> $after"
else
  echo "SKIP: fincore/dd not installed: page-cache test"
fi

# ---- 6. WAL fetch: missing file, prefetch of the next segments ----
run mkdir -p "$tmp/walt/pg_wal"
for s in 01 02 03; do head -c 16777216 /dev/urandom > "$tmp/walt/0000000500000000000000$s"; done
chown -R postgres "$tmp/walt" 2>/dev/null
for s in 01 02 03; do run "$SHALE" backup wal push --repo "$REPO" "$tmp/walt/0000000500000000000000$s"; done
out=$(run "$SHALE" backup wal push --repo "$REPO" "$tmp/walt/000000050000000000000001" 2>&1)
check "wal push of an identical file again succeeds" "0" "$?"
head -c 100 /dev/zero >> "$tmp/walt/000000050000000000000001"
out=$(run "$SHALE" backup wal push --repo "$REPO" "$tmp/walt/000000050000000000000001" 2>&1)
check_has "wal push never overwrites other content" "different content" "$out"
run "$SHALE" backup wal fetch --repo "$REPO" 000000050000000000000002 "$tmp/walt/pg_wal/RECOVERYXLOG"
check "wal fetch restores the segment" "$(md5sum < "$tmp/walt/000000050000000000000002")" "$(md5sum < "$tmp/walt/pg_wal/RECOVERYXLOG")"
for _ in $(seq 100); do [ -f "$tmp/walt/pg_wal/.shale-prefetch/000000050000000000000003" ] && break; sleep 0.1; done
check "the next segment is prefetched" "$(md5sum < "$tmp/walt/000000050000000000000003")" "$(md5sum < "$tmp/walt/pg_wal/.shale-prefetch/000000050000000000000003" 2>&1)"
run "$SHALE" backup wal fetch --repo "$REPO" 000000050000000000000009 "$tmp/walt/pg_wal/RECOVERYXLOG" 2>/dev/null
check "wal fetch of a file not archived returns 1" "1" "$?"

# ---- 7. S3 repository (radosgw), the 5 % buffer bound, the CPU weight ----
if command -v radosgw >/dev/null && timeout 120 "$HERE/../s3/start-ceph.sh" "$tmp/rgw" "$RGW_PORT" "$MON_PORT" >"$tmp/rgw.log" 2>&1; then
  rgw_started=1
  EP="http://127.0.0.1:$RGW_PORT"
  curl -sf --aws-sigv4 "aws:amz:us-east-1:s3" --user "TESTKEY:TESTSECRET" -H 'x-amz-content-sha256: UNSIGNED-PAYLOAD' -X PUT "$EP/bkp" >/dev/null
  S3REPO="$EP/bkp/pg/main"
  export AWS_ACCESS_KEY_ID=TESTKEY AWS_SECRET_ACCESS_KEY=TESTSECRET
  # the bound is hard: a bound too small for one reader is refused, one above 5 % of RAM too
  out=$(env PGHOST=$SOCK PGPORT=$PORT PGUSER=postgres "$SHALE" backup pg push --pgdata "$tmp/src" --repo "$S3REPO" --buffer-bytes 4MiB 2>&1)
  check_has "a buffer bound too small is refused" "is too small" "$out"
  out=$(env PGHOST=$SOCK PGPORT=$PORT PGUSER=postgres "$SHALE" backup pg push --pgdata "$tmp/src" --repo "$S3REPO" --buffer-bytes 1000GiB 2>&1)
  check_has "a buffer bound above 5 % of RAM is refused" "exceeds 5 % of RAM" "$out"
  # as root here (when run as root): the cgroup with cpu.shares 256 on cgroup v1
  out=$(env PGHOST=$SOCK PGPORT=$PORT PGUSER=postgres "$SHALE" backup pg push --pgdata "$tmp/src" --repo "$S3REPO" --buffer-bytes 64MiB 2>&1)
  echo "$out" | sed 's/^/  s3 push: /'
  check_has "push to S3 completes" "complete at" "$out"
  check_has "the buffer plan was lowered to the bound" "lowered to fit the buffer bound" "$out"
  peak=$(echo "$out" | sed -n 's/.*peak RSS \([0-9.]*\) MiB.*/\1/p')
  if grep -q __asan_init "$SHALE"; then
    echo "SKIP: peak RSS under AddressSanitizer (shadow memory and quarantine); the release run checks it"
  else
    check_true "peak RSS within the 64 MiB bound plus the binary ($peak MiB)" \
      "$(awk -v p="$peak" 'BEGIN { print (p != "" && p <= 64 + 40) ? 1 : 0 }')" "peak ${peak} MiB"
  fi
  if [ "$(id -u)" = 0 ] && [ -w /sys/fs/cgroup/cpu/cgroup.procs ]; then
    check_has "cgroup v1 cpu.shares 256" "cpu.shares 256" "$out"
  fi
  S3B=$(env "$SHALE" backup pg list --repo "$S3REPO" | awk -F'\t' 'NR > 1 { n = $1 } END { print n }')
  out=$("$SHALE" backup pg verify --repo "$S3REPO" --backup "$S3B" 2>&1)
  check_has "verify over S3" "verified" "$out"
  out=$(run env AWS_ACCESS_KEY_ID=TESTKEY AWS_SECRET_ACCESS_KEY=TESTSECRET "$SHALE" backup pg fetch --repo "$S3REPO" --backup "$S3B" --target "$tmp/r4" --tablespace "$(sq "SELECT oid FROM pg_tablespace WHERE spcname = 'tsx'")=$tmp/ts_r4" 2>&1)
  check_has "fetch from S3" "fetched $S3B" "$out"
  # the files restored equal the file repository's restore of the same state (WAL from the file repo)
  echo "restore_command = '$SHALE backup wal fetch --repo $REPO %f %p'" | run tee -a "$tmp/r4/postgresql.auto.conf" >/dev/null
  C5=$(checksums "$PORT")
  sq "SELECT pg_switch_wal()" >/dev/null; sleep 1
  if start_pg "$tmp/r4" "$RPORT" && wait_recovered "$RPORT"; then
    check "S3 round trip: every table's checksum matches the source" "$C5" "$(checksums "$RPORT")"
    stop_pg "$tmp/r4"
  else
    fail=$((fail+1)); echo "FAIL: the cluster restored from S3 did not start"; tail -20 "$tmp/r4.log"
  fi
  # WAL through S3: push, an identical push again, fetch, a missing file
  "$SHALE" backup wal push --repo "$S3REPO" "$tmp/walt/000000050000000000000002"
  check "wal push to S3" "0" "$?"
  "$SHALE" backup wal push --repo "$S3REPO" "$tmp/walt/000000050000000000000002"
  check "wal push to S3 of an identical file again" "0" "$?"
  mkdir -p "$tmp/walt/s3"
  "$SHALE" backup wal fetch --repo "$S3REPO" --prefetch 0 000000050000000000000002 "$tmp/walt/s3/X"
  check "wal fetch from S3" "$(md5sum < "$tmp/walt/000000050000000000000002")" "$(md5sum < "$tmp/walt/s3/X")"
  "$SHALE" backup wal fetch --repo "$S3REPO" 000000050000000000000007 "$tmp/walt/s3/Y" 2>/dev/null
  check "wal fetch of a file not in S3 returns 1" "1" "$?"
  unset AWS_ACCESS_KEY_ID AWS_SECRET_ACCESS_KEY
else
  echo "SKIP: radosgw could not be started: S3 repository tests"; tail -3 "$tmp/rgw.log" 2>/dev/null
fi

# ---- 8. delete --retain: whole chains kept, the rest and old WAL removed ----
names_before=$(run "$SHALE" backup pg list --repo "$REPO" | tail -n +2 | cut -f1 | tr '\n' ' ')
out=$(run "$SHALE" backup pg delete --repo "$REPO" --retain 1 2>&1)
check_has "delete --retain 1" "deleted backup $B1" "$out"
left=$(run "$SHALE" backup pg list --repo "$REPO" | tail -n +2 | wc -l)
check "one backup left (the last full one has no parent)" "1" "$left"
check "the older backups' and the killed push's objects are gone" "1" "$(ls "$tmp/repo/backups" | wc -l)"
echo "  backups before delete: $names_before"

stop_pg "$tmp/src"
echo "backup tests: $pass passed, $fail failed"
[ $fail -eq 0 ]
