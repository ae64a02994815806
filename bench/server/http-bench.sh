#!/usr/bin/env bash
# shale server's HTTP interface against the ceiling of an HTTP server on this machine:
#  1. `SELECT 1` over keep-alive HTTP with 16 clients (wrk, 2 threads) against nginx (Debian's
#     nginx-light) serving a 2-byte static file: requests/s, p50/p99 latency;
#  2. resident memory per idle keep-alive connection and per idle session.
# Writes bench/results/<date>-server_http.md. Usage: bench/server/http-bench.sh [path/to/shale] [seconds]
# (BENCH_NOTE="…" adds a line to the report, e.g. what else ran on the machine.)
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
SHALE=$(realpath "${1:-$REPO/build/shale}")
SECS=${2:-15}
command -v wrk >/dev/null && command -v nginx >/dev/null || apt-get install -y -qq --no-install-recommends wrk nginx-light >/dev/null
WORK=$(mktemp -d)
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
NPORT=$(free_port); SPORT=$(free_port)
NGINX_PID=; SHALE_PID=
cleanup() {
  [ -n "$SHALE_PID" ] && kill -TERM "$SHALE_PID" 2>/dev/null
  [ -f "$WORK/nginx.pid" ] && kill "$(cat "$WORK/nginx.pid")" 2>/dev/null
  rm -rf "$WORK"
}
trap cleanup EXIT

mkdir -p "$WORK/www" "$WORK/nginx"
printf '1\n' > "$WORK/www/one"
cat > "$WORK/nginx.conf" <<CONF
worker_processes 2;
pid $WORK/nginx.pid;
error_log $WORK/nginx/error.log;
events { worker_connections 1024; }
http {
  access_log off;
  keepalive_requests 1000000;
  client_body_temp_path $WORK/nginx; proxy_temp_path $WORK/nginx; fastcgi_temp_path $WORK/nginx;
  uwsgi_temp_path $WORK/nginx; scgi_temp_path $WORK/nginx;
  server { listen 127.0.0.1:$NPORT; root $WORK/www; }
}
CONF
nginx -c "$WORK/nginx.conf" -e "$WORK/nginx/error.log" || { echo "nginx did not start"; cat "$WORK/nginx/error.log"; exit 1; }
"$SHALE" server -- --http_port="$SPORT" --listen_host=127.0.0.1 --path="$WORK/data/" --max_concurrent_queries=0 \
  >"$WORK/shale.log" 2>&1 &
SHALE_PID=$!
for _ in $(seq 1 100); do curl -s "http://127.0.0.1:$SPORT/ping" >/dev/null 2>&1 && break; sleep 0.1; done

run_wrk() { # url → "req/s p50_ms p99_ms"
  wrk -t2 -c16 -d"${SECS}s" --latency "$1" > "$WORK/wrk.out" 2>&1
  local rps p50 p99
  rps=$(awk '/Requests\/sec/ {print $2}' "$WORK/wrk.out")
  p50=$(awk '$1=="50%" {print $2}' "$WORK/wrk.out")
  p99=$(awk '$1=="99%" {print $2}' "$WORK/wrk.out")
  ms() { python3 -c "import re,sys; m=re.match(r'([0-9.]+)([a-z]+)', sys.argv[1]); print(round(float(m.group(1))*{'us':0.001,'ms':1,'s':1000}[m.group(2)],3))" "$1"; }
  echo "$rps $(ms "$p50") $(ms "$p99")"
}
wrk -t2 -c16 -d2s "http://127.0.0.1:$NPORT/one" >/dev/null 2>&1          # warm-up
wrk -t2 -c16 -d2s "http://127.0.0.1:$SPORT/?query=SELECT%201" >/dev/null 2>&1
# interleaved: nginx, shale, nginx, shale
read -r N1 NP50a NP99a < <(run_wrk "http://127.0.0.1:$NPORT/one")
read -r S1 SP50a SP99a < <(run_wrk "http://127.0.0.1:$SPORT/?query=SELECT%201")
read -r N2 NP50b NP99b < <(run_wrk "http://127.0.0.1:$NPORT/one")
read -r S2 SP50b SP99b < <(run_wrk "http://127.0.0.1:$SPORT/?query=SELECT%201")
check=$(curl -s "http://127.0.0.1:$SPORT/?query=SELECT%201")

rss() { awk '/VmRSS/ {print $2}' "/proc/$SHALE_PID/status"; }
# sessions first: memory freed by the connections below would otherwise be reused by them
base2=$(rss)
for i in $(seq 1 1000); do
  curl -s "http://127.0.0.1:$SPORT/?session_id=bench$i&session_timeout=600" --data-binary 'SET max_threads = 1' >/dev/null
done
sess_rss=$(rss)
before=$(rss)
python3 - "$SPORT" 1000 <<'PY' &
import socket, sys, time
port, n = int(sys.argv[1]), int(sys.argv[2])
socks = []
for _ in range(n):
    s = socket.create_connection(("127.0.0.1", port))
    s.sendall(b"GET /ping HTTP/1.1\r\nHost: x\r\n\r\n")
    s.recv(1024)
    socks.append(s)
time.sleep(8)
PY
HOLD=$!
sleep 5
conn_rss=$(rss)
wait $HOLD || true
per_conn=$(( (conn_rss - before) * 1024 / 1000 ))
per_sess=$(( (sess_rss - base2) * 1024 / 1000 ))

OUT="$REPO/bench/results/$(date +%F)-server_http.md"
python3 - "$OUT" "$N1" "$N2" "$S1" "$S2" "$NP50a" "$NP50b" "$NP99a" "$NP99b" "$SP50a" "$SP50b" "$SP99a" "$SP99b" \
  "$per_conn" "$per_sess" "$check" "$SECS" "$(nproc)" "${BENCH_NOTE:-}" <<'PY'
import sys, statistics as st
out = sys.argv[1]
v = [float(x) for x in sys.argv[2:14]]
nginx_rps, shale_rps = (v[0] + v[1]) / 2, (v[2] + v[3]) / 2
per_conn, per_sess, check, secs, cores = int(sys.argv[14]), int(sys.argv[15]), sys.argv[16], sys.argv[17], sys.argv[18]
note = sys.argv[19] if len(sys.argv) > 19 else ""
with open(out, "w") as f:
    f.write(f"""# shale server: HTTP requests per second and memory per idle client

`bench/server/http-bench.sh`: wrk (2 threads, 16 keep-alive connections, {secs} s per run, two runs each,
interleaved nginx, shale, nginx, shale, after a 2 s warm-up of each) on {cores} cores. nginx (Debian's
nginx-light, 2 workers) serves a 2-byte static file: the ceiling of an HTTP server on this machine.
shale answers `GET /?query=SELECT%201` (result checked: `{check}`).

| server | requests/s (runs) | mean | p50 ms | p99 ms |
|---|---:|---:|---:|---:|
| nginx, static 2 bytes | {v[0]:.0f}, {v[1]:.0f} | {nginx_rps:.0f} | {v[4]}, {v[5]} | {v[6]}, {v[7]} |
| shale server, SELECT 1 | {v[2]:.0f}, {v[3]:.0f} | {shale_rps:.0f} | {v[8]}, {v[9]} | {v[10]}, {v[11]} |

shale / nginx: **{shale_rps / nginx_rps * 100:.0f} %** of the ceiling (goal ≥ 50 %).
{("Note: " + note) if note else ""}

Resident memory of the shale server per idle client (1000 of each, RSS before and after):

| what | bytes each |
|---|---:|
| idle keep-alive connection (parked in the pool's epoll set: its buffers, no thread) | {per_conn} |
| idle session (session_id, after a SET) | {per_sess} |
""")
print(open(out).read())
PY
