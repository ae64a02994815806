#!/usr/bin/env bash
# Backups under a read load, side by side: shale backup (tuned: O_DIRECT, stripe-sized reads,
# lz4, cpu.shares 256), shale --buffered, shale --max-latency-ms, and pgBackRest (Debian's
# pgbackrest, when installed) on the same pgbench data directory. For each: backup time, CPU
# seconds, a pre-read 'hot' table's page-cache residency just before and just after (fincore),
# pgbench -S p99 during the backup against the baseline, then the restore (fetch) time and a
# delta after ~1 % of the pages changed. The methodology follows ../../docs/backup.md and the
# measurement notes: open-loop pgbench (-R), residency compared just before/after.
#
# Usage (as root): bench/backup/run.sh [SCALE] [HOT_MB] [RATE]   defaults 20 200 500 (small);
# COLD_MB (800) and MEM_MB (800) from the environment.
# shale runs as root (its cgroup), PostgreSQL, its archive_command and pgBackRest as postgres.
# The issue's figures use SCALE=200 HOT_MB=1450 plus a 4 GiB cold table and RATE=10000.
set -u
SCALE=${1:-20}; HOT_MB=${2:-200}; RATE=${3:-500}
COLD_MB=${COLD_MB:-800} # a table nobody reads: the data outgrows the memory cgroup
MEM_MB=${MEM_MB:-800}   # PostgreSQL and the backup share a memory cgroup: above the pre-read
                        # working set (accounts, its index, hot, shared_buffers), below the data
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
SHALE_IN=${SHALE:-$ROOT/build/shale}
PGBIN=/usr/lib/postgresql/15/bin
W=${WORK:-/tmp/shale-backup-bench}
[ "$(id -u)" = 0 ] || { echo "run as root (drop_caches, cgroups, runuser)"; exit 1; }
for t in fincore pgbench "$PGBIN/initdb" /usr/bin/time; do command -v "$t" >/dev/null || { echo "missing $t"; exit 1; }; done
rm -rf "$W"; mkdir -p "$W/bin" "$W/sock" "$W/out" "$W/repo/wal"; cp "$SHALE_IN" "$W/bin/shale"; chown -R postgres "$W"; chmod 755 "$W"
SHALE=$W/bin/shale; PORT=26432; export PGHOST=$W/sock PGPORT=$PORT PGUSER=postgres
run() { runuser -u postgres -- "$@"; }
sq() { run psql -X -qAt -h "$PGHOST" -p $PORT -U postgres -d postgres -c "$1"; }
REPO=file://$W/repo
run "$PGBIN/initdb" -D "$W/data" -U postgres --auth=trust >/dev/null
cat >> "$W/data/postgresql.conf" <<CONF
listen_addresses = ''
unix_socket_directories = '$W/sock'
port = $PORT
wal_level = replica
archive_mode = on
archive_command = '$SHALE backup wal push --repo $REPO %p'
shared_buffers = 128MB
max_wal_size = 4GB
autovacuum = off
CONF
# cgroup v1 memory controller (these machines); without it the page cache is not under pressure
MCG=/sys/fs/cgroup/memory/shale_backup_bench
INMEM=()
if [ -d /sys/fs/cgroup/memory ] && mkdir -p "$MCG" 2>/dev/null; then
  echo $((MEM_MB << 20)) > "$MCG/memory.limit_in_bytes"
  INMEM=(sh -c 'echo $$ > '"$MCG"'/cgroup.procs; exec "$@"' sh)
else
  echo "no cgroup v1 memory controller: the page cache is not under pressure in this run"
fi
"${INMEM[@]}" runuser -u postgres -- "$PGBIN/pg_ctl" -D "$W/data" -l "$W/pg.log" -w start >/dev/null
run pgbench -i -q -s "$SCALE" -h "$PGHOST" -p $PORT postgres >/dev/null 2>&1
sq "CREATE EXTENSION IF NOT EXISTS pg_prewarm" >/dev/null
sq "CREATE TABLE hot AS SELECT g AS id, repeat(md5(g::text), 6) AS v FROM generate_series(1, $HOT_MB * 2800) g" >/dev/null
sq "CREATE TABLE cold AS SELECT g AS id, repeat(md5(g::text), 6) AS v FROM generate_series(1, $COLD_MB * 2800) g" >/dev/null
sq "VACUUM ANALYZE" >/dev/null
HOTF=$(ls "$W/data/$(sq "SELECT pg_relation_filepath('hot')")" "$W/data/$(sq "SELECT pg_relation_filepath('hot')")".* 2>/dev/null)
[ -n "$HOTF" ] || { echo "no hot table"; exit 1; }
SIZE=$(du -sb "$W/data" | cut -f1)
res() { fincore -b -n -r -o RES,SIZE $HOTF | awk '{ r += $1; s += $2 } END { printf "%.1f", 100 * r / s }'; }
PGBR=""
if command -v pgbackrest >/dev/null; then
  PGBR=$W/pgbackrest.conf
  mkdir -p "$W/pgbr" && chown postgres "$W/pgbr"
  printf '[global]\nrepo1-path=%s/pgbr\ncompress-type=lz4\nprocess-max=2\nstart-fast=y\narchive-check=n\nlog-path=%s\n[b]\npg1-path=%s/data\npg1-socket-path=%s/sock\npg1-port=%s\n' \
    "$W" "$W" "$W" "$W" "$PORT" > "$PGBR"; chmod 644 "$PGBR"
  run pgbackrest --config="$PGBR" --stanza=b stanza-create >"$W/out/pgbr-stanza.log" 2>&1 || { echo "pgbackrest stanza-create failed:"; cat "$W/out/pgbr-stanza.log"; PGBR=""; }
fi

one() { # name -- command...
  local name=$1; shift 2
  sync; echo 3 > /proc/sys/vm/drop_caches
  sq "SELECT pg_prewarm('pgbench_accounts', 'read'), pg_prewarm('pgbench_accounts_pkey', 'read'), pg_prewarm('hot', 'read')" >/dev/null
  [ ${#INMEM[@]} -gt 0 ] && echo 0 > "$MCG/memory.max_usage_in_bytes" 2>/dev/null
  rm -f "$W/out/$name".pgb*
  (cd "$W/out" && run pgbench -n -S -c 2 -j 2 -R "$RATE" -T 600 -l --log-prefix="$name.pgb" -h "$PGHOST" -p $PORT postgres >/dev/null 2>&1) &
  local pgb=$!
  sleep 5; local tb; tb=$(date +%s.%N); sleep 15
  local before; before=$(res); local ts; ts=$(date +%s.%N)
  "${INMEM[@]}" /usr/bin/time -f "%e %U %S" -o "$W/out/$name.time" "$@" >"$W/out/$name.log" 2>&1
  local te; te=$(date +%s.%N); local after; after=$(res)
  [ ${#INMEM[@]} -gt 0 ] && echo "    $name: memory cgroup peak $(( $(cat "$MCG/memory.max_usage_in_bytes") >> 20 )) MiB of $MEM_MB" >> "$W/out/notes"
  sleep 3
  local kid; kid=$(pgrep -P $pgb); [ -n "$kid" ] && kill $(pgrep -P "$kid") $kid 2>/dev/null; wait $pgb 2>/dev/null
  python3 - "$name" "$tb" "$ts" "$te" "$before" "$after" "$W/out" "$SIZE" <<'PY'
import glob, sys
name, tb, ts, te, before, after, out, size = sys.argv[1], *map(float, sys.argv[2:5]), sys.argv[5], sys.argv[6], sys.argv[7], int(sys.argv[8])
base, during = [], []
for f in glob.glob(f"{out}/{name}.pgb*"):
    for line in open(f):
        p = line.split()
        if len(p) < 6: continue
        t = int(p[4]) + int(p[5]) / 1e6; l = int(p[2]) / 1000
        (base if tb <= t < ts else during if ts <= t < te else []).append(l)
def p99(v): v = sorted(v); return v[int(len(v) * 0.99)] if v else float('nan')
e, u, s = open(f"{out}/{name}.time").read().split()[-3:]
print(f"| {name} | {float(e):.1f} s | {size / 1e6 / float(e):.0f} | {float(u) + float(s):.1f} | {before} → {after} % | {p99(base):.2f} ms | ×{p99(during) / p99(base):.1f} |")
PY
}

echo "data directory: $((SIZE >> 20)) MiB, memory cgroup ${MEM_MB} MiB, hot table $(du -cb $HOTF | tail -1 | cut -f1 | awk '{ printf "%d", $1 / 1048576 }') MiB, pgbench -S -R $RATE; $(nproc) vCPUs"
echo "| run | time | MB/s | CPU s | hot cached before → after | p99 baseline | p99 during |"
echo "|---|---|---|---|---|---|---|"
one shale -- "$SHALE" backup pg push --pgdata "$W/data" --repo "$REPO"
one shale_buffered -- "$SHALE" backup pg push --pgdata "$W/data" --repo "$REPO" --buffered --cpu-weight 0
one shale_paced -- "$SHALE" backup pg push --pgdata "$W/data" --repo "$REPO" --max-latency-ms 5
[ -n "$PGBR" ] && one pgbackrest -- runuser -u postgres -- pgbackrest --config="$PGBR" --stanza=b --type=full backup
grep -h -E "cpu weight|reads:|pacing" "$W"/out/shale*.log | sed 's/^/    /'
cat "$W/out/notes" 2>/dev/null

# restore time
/usr/bin/time -f "%e" -o "$W/out/fetch.time" "$SHALE" backup pg fetch --repo "$REPO" --backup LATEST --target "$W/restore" >/dev/null
echo "restore (shale fetch): $(cat "$W/out/fetch.time") s"
if [ -n "$PGBR" ]; then
  /usr/bin/time -f "%e" -o "$W/out/pgbr-restore.time" runuser -u postgres -- pgbackrest --config="$PGBR" --stanza=b --pg1-path="$W/restore-pgbr" restore >/dev/null 2>&1
  echo "restore (pgBackRest): $(cat "$W/out/pgbr-restore.time") s"
fi
# incremental after ~1 % of the accounts' pages changed
sq "UPDATE pgbench_accounts SET abalance = abalance + 1 WHERE aid <= $((SCALE * 1000))" >/dev/null
"$SHALE" backup pg push --pgdata "$W/data" --repo "$REPO" >/dev/null
full=$("$SHALE" backup pg list --repo "$REPO" | tail -1 | cut -f10)
sq "UPDATE pgbench_accounts SET abalance = abalance + 1 WHERE aid <= $((SCALE * 1000))" >/dev/null
"$SHALE" backup pg push --pgdata "$W/data" --repo "$REPO" --delta-from LATEST | grep delta:
delta=$("$SHALE" backup pg list --repo "$REPO" | tail -1 | cut -f10)
echo "incremental after ~1 % of accounts rows (contiguous) changed: $delta of $full bytes stored ($(awk -v d="$delta" -v f="$full" 'BEGIN { printf "%.2f", 100 * d / f }') %)"
run "$PGBIN/pg_ctl" -D "$W/data" -m fast -w stop >/dev/null
[ ${#INMEM[@]} -gt 0 ] && rmdir "$MCG" 2>/dev/null
