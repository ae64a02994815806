#!/bin/bash
# Stops the daemons started by start-ceph.sh DIR (by their pid files) and removes DIR.
D=${1:-${TMPDIR:-/tmp}/rgw}
[ -d "$D/run" ] || exit 0
for f in "$D"/run/*.pid; do [ -f "$f" ] && kill "$(cat "$f")" 2>/dev/null; done
for _ in $(seq 40); do
  alive=0
  for f in "$D"/run/*.pid; do [ -f "$f" ] && kill -0 "$(cat "$f")" 2>/dev/null && alive=1; done
  [ $alive = 0 ] && break; sleep 0.25
done
for f in "$D"/run/*.pid; do [ -f "$f" ] && kill -9 "$(cat "$f")" 2>/dev/null; done
rm -rf "$D"
