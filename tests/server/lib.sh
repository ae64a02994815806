# Shared by the server test scripts: a free port, starting `shale server` in the
# background and stopping it (SIGTERM, then SIGKILL after 10 s). Sourced, not run.
#   free_port                      prints a free TCP port on 127.0.0.1
#   server_start LOG ARGS…         starts "$SHALE server ARGS…" with output in LOG, waits for
#                                  /ping on $PORT (exits the script if it never answers)
#   server_stop                    stops it and waits
#   stop_pids PID…                 stops several servers the same way (all signalled first)
#   check NAME EXPECTED GOT        counts a pass in $passed, or prints both and sets fail=1
#   has NAME NEEDLE GOT            the same for GOT containing NEEDLE
#   chdb SQL                       ClickHouse's answer (TSV) through chdb ($CHDB), run in $WORK;
#                                  an error as 'ERROR <first line>'
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

check() {
  if [ "$2" == "$3" ]; then passed=$((passed+1)); else echo "FAIL: $1"; echo "  expected: $(printf '%s' "$2" | head -c 600)"; echo "  got:      $(printf '%s' "$3" | head -c 600)"; fail=1; fi
}

has() {
  case "$3" in *"$2"*) passed=$((passed+1)) ;; *) echo "FAIL: $1: expected '$2' in: $(printf '%s' "$3" | head -c 400)"; fail=1 ;; esac
}

chdb() { (cd "$WORK" && timeout 120 node -e "const {query}=require(process.argv[1]); try { process.stdout.write(query(process.argv[2], 'TSV')) } catch (e) { process.stdout.write('ERROR ' + e.message.split('\n')[0]); }" "$CHDB" "$1" 2>&1); }
