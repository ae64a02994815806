#!/usr/bin/env bash
# A local cluster of shale servers on 127.0.0.1, for tests, benchmarks and trying clusters out.
#
#   scripts/cluster.sh start N [--base-port P] [--dir D] [--name C] [--also NAME:I,J,…]…
#                              [--shale BIN] [--extra FILE]
#   scripts/cluster.sh stop [--dir D]
#   scripts/cluster.sh status [--dir D]
#   scripts/cluster.sh start-node I [--dir D]     (re)starts node I with the caller's environment
#   scripts/cluster.sh stop-node I [--dir D]
#
# start writes one config, D/config.xml, shared by every node: listen_host 127.0.0.1 and a
# <remote_servers> cluster C (default "cluster") of N shards with one replica each, node 0
# first; each --also adds a cluster NAME of the nodes I, J, … (one shard each, in that
# order); FILE's contents (XML elements: <logger>, <profiles>, …) are put inside
# <clickhouse> as they are. Node I runs
#   shale server --config-file D/config.xml -- --tcp_port=… --http_port=… --path=D/nI/
# with its log in D/nI/server.log. Ports: with --base-port P, node I has tcp_port P + 2I and
# http_port P + 2I + 1; without, free ports are picked. D/nodes.tsv has a line per node:
# index, tcp_port, http_port, pid. D defaults to ./shale-cluster; BIN to build/shale of this
# checkout. start waits (bounded) for every node's /ping and fails if one does not answer;
# stop sends SIGTERM, waits up to 10 s, then SIGKILL. Everything listens on 127.0.0.1 only.
set -eu
REPO=$(cd "$(dirname "$0")/.." && pwd)
usage() { sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
[ $# -ge 1 ] || usage
CMD=$1; shift
N=; I=
case "$CMD" in
  start) [ $# -ge 1 ] || usage; N=$1; shift ;;
  start-node|stop-node) [ $# -ge 1 ] || usage; I=$1; shift ;;
  stop|status) ;;
  *) usage ;;
esac
DIR=./shale-cluster; BASE=; NAME=cluster; SHALE=$REPO/build/shale; EXTRA=; ALSO=()
while [ $# -gt 0 ]; do
  case "$1" in
    --dir) DIR=$2; shift 2 ;;
    --base-port) BASE=$2; shift 2 ;;
    --name) NAME=$2; shift 2 ;;
    --shale) SHALE=$2; shift 2 ;;
    --extra) EXTRA=$2; shift 2 ;;
    --also) ALSO+=("$2"); shift 2 ;;
    *) echo "cluster.sh: unknown option $1" >&2; usage ;;
  esac
done
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
alive() { [ -n "$1" ] && kill -0 "$1" 2>/dev/null; }
stop_pid() { # PID: TERM, up to 10 s, KILL
  alive "$1" || return 0
  kill -TERM "$1" 2>/dev/null || true
  for _ in $(seq 1 100); do alive "$1" || return 0; sleep 0.1; done
  kill -9 "$1" 2>/dev/null || true
}
field() { awk -v i="$1" -v f="$2" '$1 == i { print $f }' "$DIR/nodes.tsv"; }

start_node() { # I: starts node I of nodes.tsv, records its pid, waits for /ping
  local i=$1 tcp http pid
  tcp=$(field "$i" 2); http=$(field "$i" 3)
  [ -n "$tcp" ] || { echo "cluster.sh: no node $i in $DIR/nodes.tsv" >&2; exit 1; }
  mkdir -p "$DIR/n$i"
  "$SHALE" server --config-file "$DIR/config.xml" -- --tcp_port="$tcp" --http_port="$http" \
    --path="$DIR/n$i/" >>"$DIR/n$i/server.log" 2>&1 &
  pid=$!
  disown "$pid" 2>/dev/null || true
  awk -v i="$i" -v p="$pid" 'BEGIN { OFS = "\t" } $1 == i { $4 = p } { print }' "$DIR/nodes.tsv" >"$DIR/nodes.tsv.new"
  mv "$DIR/nodes.tsv.new" "$DIR/nodes.tsv"
  for _ in $(seq 1 150); do
    curl -s "http://127.0.0.1:$http/ping" >/dev/null 2>&1 && return 0
    alive "$pid" || break
    sleep 0.1
  done
  echo "cluster.sh: node $i (tcp $tcp, http $http) did not start; its log:" >&2
  tail -20 "$DIR/n$i/server.log" >&2
  return 1
}

case "$CMD" in
start)
  case "$N" in ''|*[!0-9]*) echo "cluster.sh: N must be a number" >&2; exit 2 ;; esac
  [ "$N" -ge 1 ] || { echo "cluster.sh: N must be at least 1" >&2; exit 2; }
  [ -x "$SHALE" ] || { echo "cluster.sh: no shale binary at $SHALE (make build, or --shale)" >&2; exit 1; }
  SHALE=$(realpath "$SHALE")
  if [ -f "$DIR/nodes.tsv" ]; then
    while read -r _ _ _ pid; do
      if alive "$pid"; then echo "cluster.sh: a cluster runs in $DIR (stop it first)" >&2; exit 1; fi
    done <"$DIR/nodes.tsv"
  fi
  mkdir -p "$DIR"
  DIR=$(realpath "$DIR")
  : >"$DIR/nodes.tsv"
  shards=
  for i in $(seq 0 $((N - 1))); do
    if [ -n "$BASE" ]; then tcp=$((BASE + 2 * i)); http=$((BASE + 2 * i + 1)); else tcp=$(free_port); http=$(free_port); fi
    printf '%s\t%s\t%s\t-\n' "$i" "$tcp" "$http" >>"$DIR/nodes.tsv"
    shards="$shards
            <shard><replica><host>127.0.0.1</host><port>$tcp</port></replica></shard>"
  done
  {
    echo "<clickhouse>"
    echo "    <listen_host>127.0.0.1</listen_host>"
    echo "    <remote_servers>"
    echo "        <$NAME>$shards"
    echo "        </$NAME>"
    for a in "${ALSO[@]}"; do
      echo "        <${a%%:*}>"
      for i in $(echo "${a#*:}" | tr ',' ' '); do
        tcp=$(field "$i" 2)
        [ -n "$tcp" ] || { echo "cluster.sh: --also $a names node $i of $N" >&2; exit 2; }
        echo "            <shard><replica><host>127.0.0.1</host><port>$tcp</port></replica></shard>"
      done
      echo "        </${a%%:*}>"
    done
    echo "    </remote_servers>"
    [ -z "$EXTRA" ] || cat "$EXTRA"
    echo "</clickhouse>"
  } >"$DIR/config.xml"
  for i in $(seq 0 $((N - 1))); do
    if ! start_node "$i"; then
      while read -r _ _ _ pid; do [ "$pid" = - ] || stop_pid "$pid"; done <"$DIR/nodes.tsv"
      exit 1
    fi
  done
  cat "$DIR/nodes.tsv"
  ;;
start-node)
  [ -f "$DIR/nodes.tsv" ] || { echo "cluster.sh: no cluster in $DIR" >&2; exit 1; }
  DIR=$(realpath "$DIR")
  SHALE=$(realpath "$SHALE")
  pid=$(field "$I" 4)
  if alive "$pid"; then echo "cluster.sh: node $I runs (pid $pid)" >&2; exit 1; fi
  start_node "$I"
  ;;
stop-node)
  [ -f "$DIR/nodes.tsv" ] || exit 0
  stop_pid "$(field "$I" 4)"
  ;;
stop)
  [ -f "$DIR/nodes.tsv" ] || exit 0
  pids=$(awk '$4 != "-" { print $4 }' "$DIR/nodes.tsv")
  for p in $pids; do alive "$p" && kill -TERM "$p" 2>/dev/null; done
  for p in $pids; do stop_pid "$p"; done
  ;;
status)
  [ -f "$DIR/nodes.tsv" ] || { echo "no cluster in $DIR"; exit 0; }
  while read -r i tcp http pid; do
    state=down; alive "$pid" && state=up
    printf 'node %s: tcp %s, http %s, pid %s, %s\n' "$i" "$tcp" "$http" "$pid" "$state"
  done <"$DIR/nodes.tsv"
  ;;
esac
