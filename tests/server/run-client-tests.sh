#!/usr/bin/env bash
# The official Node client (@clickhouse/client) and a load test against `shale server`.
# Installs the client from npm into tests/server/node_modules on first use (git-ignored).
set -u
SHALE=$(realpath "${1:?usage: run-client-tests.sh path/to/shale [load-seconds]}")
SECONDS_LOAD=${2:-30}
HERE=$(cd "$(dirname "$0")" && pwd)
WORK=$(mktemp -d)
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
SERVER_PID=
cleanup() {
  if [ -n "$SERVER_PID" ]; then
    kill -TERM "$SERVER_PID" 2>/dev/null
    for _ in $(seq 1 100); do kill -0 "$SERVER_PID" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$SERVER_PID" 2>/dev/null
  fi
  rm -rf "$WORK"
}
trap cleanup EXIT

( flock 9
  if [ ! -d "$HERE/node_modules/@clickhouse/client" ]; then
    (cd "$HERE" && npm install --no-save --silent @clickhouse/client@1.23.1) || exit 1
  fi
) 9>"$HERE/.npm-install.lock" || { echo "cannot install @clickhouse/client"; exit 1; }

"$SHALE" server -- --http_port="$PORT" --listen_host=127.0.0.1 --path="$WORK/data/" >"$WORK/server.log" 2>&1 &
SERVER_PID=$!
disown "$SERVER_PID"
for _ in $(seq 1 100); do curl -s "http://127.0.0.1:$PORT/ping" >/dev/null 2>&1 && break; sleep 0.1; done

status=0
timeout 300 node "$HERE/client-test.js" "http://127.0.0.1:$PORT" 2>"$WORK/client.err" || { status=1; tail -20 "$WORK/client.err"; }
timeout 300 node "$HERE/load-test.js" "$PORT" "$SERVER_PID" 64 "$SECONDS_LOAD" || status=1

kill -TERM "$SERVER_PID"
for _ in $(seq 1 100); do kill -0 "$SERVER_PID" 2>/dev/null || break; sleep 0.1; done
SERVER_PID=
if grep -q "Sanitizer\|runtime error" "$WORK/server.log"; then
  echo "FAIL: sanitizer report in the server log"; grep -A30 "Sanitizer\|runtime error" "$WORK/server.log" | head -60; status=1
fi
exit $status
