#!/usr/bin/env bash
# The official Node client (@clickhouse/client) and a load test against `shale server`.
# Installs the client from npm into tests/server/node_modules on first use (git-ignored).
set -u
SHALE=$(realpath "${1:?usage: run-client-tests.sh path/to/shale [load-seconds]}")
SECONDS_LOAD=${2:-30}
HERE=$(cd "$(dirname "$0")" && pwd)
WORK=$(mktemp -d)
. "$HERE/lib.sh"
PORT=$(free_port)
cleanup() {
  server_stop
  rm -rf "$WORK"
}
trap cleanup EXIT

( flock 9
  if [ ! -d "$HERE/node_modules/@clickhouse/client" ]; then
    (cd "$HERE" && npm install --no-save --silent @clickhouse/client@1.23.1) || exit 1
  fi
) 9>"$HERE/.npm-install.lock" || { echo "cannot install @clickhouse/client"; exit 1; }

server_start "$WORK/server.log" -- --http_port="$PORT" --tcp_port=0 --listen_host=127.0.0.1 --path="$WORK/data/"

status=0
timeout 300 node "$HERE/client-test.js" "http://127.0.0.1:$PORT" 2>"$WORK/client.err" || { status=1; tail -20 "$WORK/client.err"; }
timeout 300 node "$HERE/load-test.js" "$PORT" "$SERVER_PID" 64 "$SECONDS_LOAD" || status=1

server_stop
if grep -q "Sanitizer\|runtime error" "$WORK/server.log"; then
  echo "FAIL: sanitizer report in the server log"; grep -A30 "Sanitizer\|runtime error" "$WORK/server.log" | head -60; status=1
fi
exit $status
