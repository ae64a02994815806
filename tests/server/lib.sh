# Shared by the server test scripts: a free port, starting `shale server` in the
# background and stopping it (SIGTERM, then SIGKILL after 10 s). Sourced, not run.
#   free_port                      prints a free TCP port on 127.0.0.1
#   server_start LOG ARGS…         starts "$SHALE server ARGS…" with output in LOG, waits for
#                                  /ping on $PORT (exits the script if it never answers)
#   server_stop                    stops it and waits
#   stop_pids PID…                 stops several servers the same way (all signalled first)
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

SERVER_PID=
server_start() {
  local log=$1; shift
  "$SHALE" server "$@" >"$log" 2>&1 &
  SERVER_PID=$!
  disown "$SERVER_PID"
  for _ in $(seq 1 100); do
    curl -s "http://127.0.0.1:$PORT/ping" >/dev/null 2>&1 && return 0
    sleep 0.1
  done
  echo "server did not start"; cat "$log"; exit 1
}

server_stop() {
  [ -n "$SERVER_PID" ] || return 0
  kill -TERM "$SERVER_PID" 2>/dev/null
  for _ in $(seq 1 100); do kill -0 "$SERVER_PID" 2>/dev/null || break; sleep 0.1; done
  kill -9 "$SERVER_PID" 2>/dev/null
  SERVER_PID=
}

stop_pids() {
  for p in "$@"; do kill -TERM "$p" 2>/dev/null; done
  for p in "$@"; do
    for _ in $(seq 1 100); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$p" 2>/dev/null
  done
}
