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
# Several servers, for the multi-node tests (node n's files under DIR: config s$n/config.xml,
# data s$n/data/, log s$n.log; its ports HTTP[n] and TCP[n]; its pid PIDS[n], for the
# script's EXIT trap to pass to stop_pids):
#   nodes_ports N                  picks free ports for nodes 0 … N-1 into HTTP and TCP
#   nodes_start DIR N [CONF_FN]    writes each node's config (listen_host 127.0.0.1, its ports
#                                  and path, then what `CONF_FN n` prints: more elements of
#                                  <clickhouse>), starts all N, then waits for each /ping
#                                  (exits the script if one never answers)
#   node_start n                   starts node n again from its config (log appended), waits
#   node_stop n / nodes_stop       SIGTERM, then waits up to 10 s (all signalled first)
#   nodes_sanitizer_ok             after nodes_stop: shows LeakSanitizer reports of the logs as
#                                  warnings; fails, printing them, on AddressSanitizer or UBSan
#                                  reports
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

# chdb SQL: ClickHouse's answer in TSV (or "ERROR …"). After chdb_start (in the script's own
# shell, once WORK and CHDB are set) one long-lived chdb process answers every query; without
# it each query starts its own node process, seconds each on a loaded machine.
chdb_start() {
  mkfifo "$WORK/chdb.in" "$WORK/chdb.out" || return 1
  (cd "$WORK" && exec node "$HERE/chdb-serve.js" "$CHDB" <"$WORK/chdb.in" >"$WORK/chdb.out" 2>/dev/null) &
  CHDB_PID=$!
  # the same order as the server's opens (in, then out): neither side waits on the other
  exec {CHDB_IN}>"$WORK/chdb.in" {CHDB_OUT}<"$WORK/chdb.out"
}
chdb_stop() {
  [ -n "${CHDB_PID:-}" ] || return 0
  exec {CHDB_IN}>&- {CHDB_OUT}<&-
  kill "$CHDB_PID" 2>/dev/null; wait "$CHDB_PID" 2>/dev/null
  CHDB_PID=
}
chdb() {
  if [ -n "${CHDB_PID:-}" ]; then
    local out
    printf '%s\0' "$1" >&"$CHDB_IN"
    IFS= read -r -d '' -t 120 out <&"$CHDB_OUT" || out="ERROR chdb gave no answer within 120 s"
    printf '%s' "$out"
    return
  fi
  chdb_once "$1"
}
chdb_once() { (cd "$WORK" && timeout 120 node -e "const {query}=require(process.argv[1]); try { process.stdout.write(query(process.argv[2], 'TSV')) } catch (e) { process.stdout.write('ERROR ' + e.message.split('\n')[0]); }" "$CHDB" "$1" 2>&1); }

nodes_ports() {
  HTTP=(); TCP=()
  for n in $(seq 0 $(($1 - 1))); do HTTP[$n]=$(free_port); TCP[$n]=$(free_port); done
}

NODES_DIR=
node_spawn() { # n: starts node n in the background, its pid in PIDS[n]
  "$SHALE" server --config-file "$NODES_DIR/s$1/config.xml" >>"$NODES_DIR/s$1.log" 2>&1 &
  PIDS[$1]=$!
}

node_wait() { # n: waits (bounded) for node n's /ping
  for _ in $(seq 1 150); do
    curl -s "http://127.0.0.1:${HTTP[$1]}/ping" >/dev/null 2>&1 && return 0
    sleep 0.1
  done
  echo "server $1 (http ${HTTP[$1]}) did not start; its log:"; tail -20 "$NODES_DIR/s$1.log"; exit 1
}

nodes_start() {
  local dir=$1 count=$2 conf=${3:-} n
  NODES_DIR=$dir
  for n in $(seq 0 $((count - 1))); do
    mkdir -p "$dir/s$n"
    {
      echo "<clickhouse>"
      echo "    <listen_host>127.0.0.1</listen_host>"
      echo "    <http_port>${HTTP[$n]}</http_port>"
      echo "    <tcp_port>${TCP[$n]}</tcp_port>"
      echo "    <path>$dir/s$n/data/</path>"
      [ -z "$conf" ] || "$conf" "$n"
      echo "</clickhouse>"
    } >"$dir/s$n/config.xml"
    : >"$dir/s$n.log"
    node_spawn "$n"
  done
  for n in $(seq 0 $((count - 1))); do node_wait "$n"; done
}

node_start() { node_spawn "$1"; node_wait "$1"; }

node_stop() {
  kill -TERM "${PIDS[$1]}" 2>/dev/null
  for _ in $(seq 1 100); do kill -0 "${PIDS[$1]}" 2>/dev/null || break; sleep 0.1; done
}

nodes_stop() {
  local p
  for p in "${PIDS[@]}"; do kill -TERM "$p" 2>/dev/null; done
  for p in "${PIDS[@]}"; do for _ in $(seq 1 100); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done; done
}

nodes_sanitizer_ok() {
  grep -h -A3 "LeakSanitizer" "$NODES_DIR"/s?.log 2>/dev/null | head -8 | sed "s/^/warning: /"
  if grep -l "ERROR: AddressSanitizer\|runtime error" "$NODES_DIR"/s?.log >/dev/null 2>&1; then
    echo "FAIL: sanitizer reports:"; grep -h -A5 "ERROR: AddressSanitizer\|runtime error" "$NODES_DIR"/s?.log | head -40
    return 1
  fi
}
