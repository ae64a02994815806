#!/usr/bin/env bash
# make install's layout (cmake --install into a DESTDIR): the binary, the man page, the
# default configuration and the systemd unit; the installed binary serves with the
# installed configuration (paths moved into the DESTDIR by `--` overrides).
set -u
BUILD=$(realpath "${1:?usage: run-install-test.sh path/to/build-dir}")
DEST=$(mktemp -d)
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
PID=
cleanup() { [ -n "$PID" ] && kill -TERM "$PID" 2>/dev/null; rm -rf "$DEST"; }
trap cleanup EXIT
pass=0; fail=0
need() { if [ -e "$DEST/$1" ]; then pass=$((pass+1)); else fail=$((fail+1)); echo "FAIL: missing $1"; fi; }

DESTDIR="$DEST" cmake --install "$BUILD" --prefix /usr >/dev/null || { echo "FAIL: cmake --install"; echo "install: 0 passed, 1 failed"; exit 1; }
need usr/bin/shale
need usr/share/man/man1/shale.1
need etc/shale/config.xml
need etc/shale/users.xml
need usr/lib/systemd/system/shale-server.service
if grep -q "ExecStart=/.*bin/shale server --config-file /etc/shale/config.xml" "$DEST/usr/lib/systemd/system/shale-server.service"; then
  pass=$((pass+1)); else fail=$((fail+1)); echo "FAIL: unit's ExecStart"; fi
if man -l "$DEST/usr/share/man/man1/shale.1" 2>/dev/null | grep -q "shale server" || grep -q '^\.B server' "$DEST/usr/share/man/man1/shale.1"; then
  pass=$((pass+1)); else fail=$((fail+1)); echo "FAIL: man page"; fi
"$DEST/usr/bin/shale" server --config-file "$DEST/etc/shale/config.xml" -- --http_port="$PORT" --tcp_port=0 \
    --path="$DEST/var/lib/shale/" --logger.log="$DEST/var/log/shale/shale-server.log" >"$DEST/out.log" 2>&1 &
PID=$!
disown "$PID"
for _ in $(seq 1 100); do curl -s "http://127.0.0.1:$PORT/ping" >/dev/null 2>&1 && break; sleep 0.1; done
if [ "$(curl -s "http://127.0.0.1:$PORT/?query=SELECT%2042")" == "42" ]; then pass=$((pass+1)); else fail=$((fail+1)); echo "FAIL: installed server answers"; cat "$DEST/out.log"; fi
if grep -q "Ready for connections\|Listening" "$DEST/var/log/shale/shale-server.log" 2>/dev/null; then pass=$((pass+1)); else fail=$((fail+1)); echo "FAIL: log file written"; fi
echo "install: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
