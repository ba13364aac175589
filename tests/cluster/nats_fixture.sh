#!/usr/bin/env bash
# The cluster tests' NATS server (a ctest fixture): `start DIR` runs
# nats-server with JetStream on a free loopback port (the server picks it:
# -p -1) with a fresh store in DIR/store, and writes its URL to DIR/url;
# `stop DIR` ends it.
set -euo pipefail
cmd="$1" dir="$2"
case "$cmd" in
start)
  if [ -f "$dir/pid" ] && kill -0 "$(cat "$dir/pid")" 2>/dev/null; then kill "$(cat "$dir/pid")" || true; fi
  rm -rf "$dir" && mkdir -p "$dir/store"
  command -v nats-server >/dev/null || { echo "nats-server is not installed (scripts/setup.sh installs it)"; exit 1; }
  # Every descriptor to a file: ctest must not wait for the server's output.
  setsid nats-server -js -a 127.0.0.1 -p -1 -sd "$dir/store" >"$dir/server.log" 2>&1 </dev/null &
  echo $! >"$dir/pid"
  for _ in $(seq 1 600); do
    port="$(grep -o 'client connections on 127.0.0.1:[0-9]*' "$dir/server.log" | head -1 | sed 's/.*://')" || true
    if [ -n "$port" ] && grep -q 'Server is ready' "$dir/server.log"; then
      echo "nats://127.0.0.1:$port" >"$dir/url"
      echo "nats-server $(cat "$dir/pid") on port $port"
      exit 0
    fi
    kill -0 "$(cat "$dir/pid")" 2>/dev/null || break
    sleep 0.1
  done
  echo "nats-server did not start:"; cat "$dir/server.log"; exit 1
  ;;
stop)
  [ -f "$dir/pid" ] || exit 0
  pid="$(cat "$dir/pid")"
  kill "$pid" 2>/dev/null || true
  for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || exit 0; sleep 0.1; done
  kill -9 "$pid" 2>/dev/null || true
  ;;
esac
