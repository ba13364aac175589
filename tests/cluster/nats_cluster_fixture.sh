#!/usr/bin/env bash
# The fault tests' NATS cluster (a ctest fixture): `start DIR` runs three
# nats-servers n1..n3 with JetStream, routed to each other, on free
# loopback ports with fresh stores in DIR/nK/store; it waits until
# JetStream has a meta leader (a stream can be made) and writes the client
# URLs, comma-separated, to DIR/urls (and DIR/url, for lib.sh). Per
# server: DIR/nK/{pid,client,cluster,monitor,cmd,server.log}, so a test
# can find, kill and restart one (`restart DIR K`). `heal DIR` starts any
# server that is not running and waits for the meta leader again: each test
# begins with it, so one that died before its clean-up (a ctest timeout
# kills without traps) leaves no server down for the next. `stop DIR` ends them.
set -euo pipefail
cmd="$1" dir="$2"
n=3

# A port in 20000-29999 (below Linux's ephemeral range, where other tests'
# servers pick theirs with -p -1) that nothing listens on now. Not
# reserved: a server that cannot bind makes `start` try new ports.
free_port() {
  local p
  for _ in $(seq 1 100); do
    p=$((20000 + RANDOM % 10000))
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null && ! grep -qx "$p" "$dir/taken" 2>/dev/null; then
      echo "$p" >>"$dir/taken"
      echo "$p"
      return 0
    fi
  done
  echo "no free port found" >&2
  return 1
}

launch() {  # K: starts server nK from its saved command line, store kept
  local d="$dir/n$1"
  # Every descriptor to a file: ctest must not wait for the servers' output.
  # shellcheck disable=SC2046
  setsid $(cat "$d/cmd") >>"$d/server.log" 2>&1 </dev/null &
  echo $! >"$d/pid"
}

stop_all() {
  local pid
  for k in $(seq 1 $n); do
    [ -f "$dir/n$k/pid" ] || continue
    pid="$(cat "$dir/n$k/pid")"
    kill "$pid" 2>/dev/null || true
  done
  for k in $(seq 1 $n); do
    [ -f "$dir/n$k/pid" ] || continue
    pid="$(cat "$dir/n$k/pid")"
    for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null || true
  done
}

# Until every server is up and the meta group has a leader (then streams
# with 3 replicas can be made); fails at once if a server died (a port
# taken meanwhile).
wait_ready() {
  local leader
  for _ in $(seq 1 300); do
    for k in $(seq 1 $n); do kill -0 "$(cat "$dir/n$k/pid")" 2>/dev/null || return 1; done
    leader="$(curl -s --max-time 1 "http://127.0.0.1:$(cat "$dir/n1/monitor")/jsz" | jq -r '.meta_cluster.leader // empty' 2>/dev/null)" || true
    if [ -n "$leader" ] &&
      [ "$(curl -s --max-time 1 "http://127.0.0.1:$(cat "$dir/n1/monitor")/jsz" | jq -r '.meta_cluster.cluster_size // 0')" = $n ]; then
      echo "$leader" >"$dir/meta_leader"
      return 0
    fi
    sleep 0.1
  done
  return 1
}

case "$cmd" in
start)
  command -v nats-server >/dev/null || { echo "nats-server is not installed (scripts/setup.sh installs it)"; exit 1; }
  command -v curl >/dev/null && command -v jq >/dev/null || { echo "the cluster fixture needs curl and jq"; exit 1; }
  for attempt in 1 2 3 4 5; do
    stop_all
    rm -rf "$dir" && mkdir -p "$dir"
    for k in $(seq 1 $n); do
      mkdir -p "$dir/n$k/store"
      free_port >"$dir/n$k/client"
      free_port >"$dir/n$k/cluster"
      free_port >"$dir/n$k/monitor"
    done
    urls=""
    for k in $(seq 1 $n); do
      routes=""
      for j in $(seq 1 $n); do
        [ "$j" = "$k" ] && continue
        routes="${routes:+$routes,}nats://127.0.0.1:$(cat "$dir/n$j/cluster")"
      done
      echo "nats-server -js -n n$k -a 127.0.0.1 -p $(cat "$dir/n$k/client") -m $(cat "$dir/n$k/monitor")" \
        "-sd $dir/n$k/store --cluster_name fixture --cluster nats://127.0.0.1:$(cat "$dir/n$k/cluster")" \
        "--routes $routes" >"$dir/n$k/cmd"
      urls="${urls:+$urls,}nats://127.0.0.1:$(cat "$dir/n$k/client")"
      launch "$k"
    done
    if wait_ready; then
      echo "$urls" >"$dir/urls"
      echo "$urls" >"$dir/url"
      echo "nats cluster of $n on $urls (meta leader $(cat "$dir/meta_leader"), attempt $attempt)"
      exit 0
    fi
    echo "attempt $attempt: the cluster did not form"
    for k in $(seq 1 $n); do echo "---- n$k"; tail -n 5 "$dir/n$k/server.log"; done
  done
  stop_all
  exit 1
  ;;
restart)  # K: server nK again, same ports and store (after a test killed it)
  launch "$3"
  ;;
heal)
  for k in $(seq 1 $n); do
    kill -0 "$(cat "$dir/n$k/pid")" 2>/dev/null && continue
    echo "server n$k was not running: started again" >&2
    launch "$k"
  done
  wait_ready || { echo "the cluster did not form again"; exit 1; }
  ;;
stop)
  [ -d "$dir" ] || exit 0
  stop_all
  ;;
esac
