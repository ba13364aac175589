#!/usr/bin/env bash
# The NATS server dies (kill -9) and comes back on the same port with the
# same JetStream store, while a node consumes a durable topic: the node
# reconnects by itself, the values appended before the crash and not yet
# taken are still delivered, and so are values appended after it
# (tests/cluster/programs/restart_*.hum). This test has a server of its own:
# the shared fixture's serves the other tests.
source "$(dirname "$0")/lib.sh"
server_dir="$WORK/nats"
mkdir -p "$server_dir/store"
server_pid=""
# start_server PORT: nats-server with JetStream on PORT (-1: any free port).
start_server() {
  : >"$server_dir/server.log"
  setsid nats-server -js -a 127.0.0.1 -p "$1" -sd "$server_dir/store" >"$server_dir/server.log" 2>&1 </dev/null &
  server_pid=$!
  for _ in $(seq 1 600); do
    grep -q 'Server is ready' "$server_dir/server.log" && return 0
    kill -0 "$server_pid" 2>/dev/null || break
    sleep 0.1
  done
  cat "$server_dir/server.log"
  fail "nats-server did not start on port $1"
}
stop_server() { kill -9 "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; }
trap 'stop_server; cleanup' EXIT
start_server -1
port="$(grep -o 'client connections on 127.0.0.1:[0-9]*' "$server_dir/server.log" | head -1 | sed 's/.*://')"
URL="nats://127.0.0.1:$port"

# distinct_got NAME: how many different values NAME has taken.
distinct_got() { grep '^#got, ' "$WORK/$1.out" 2>/dev/null | sort -u | wc -l; }

start_node c "$programs/restart_consumer.hum" --threads 1
start_node first "$programs/restart_first.hum"
wait_end first
wait_line c '^#got, ' 3
stop_server
before="$(distinct_got c)"
[ "$before" -lt 40 ] || fail "c took all 40 values before the server went down: make it slower"
start_server "$port"
start_node second "$programs/restart_second.hum"
wait_end second
waited=0
while [ "$(distinct_got c)" -lt 80 ]; do
  kill -0 "${node_pid[c]}" 2>/dev/null || fail "c ended having taken $(distinct_got c) of 80 values"
  sleep 0.1
  waited=$((waited + 1))
  [ $waited -lt $((LIMIT * 10)) ] || fail "c took $(distinct_got c) of 80 values in ${LIMIT}s"
done
kill -TERM "${node_pid[c]}"
wait_end c
grep -q 'reconnected to NATS' "$WORK/c.err" || fail "c did not say it reconnected"
for i in $(seq 1 80); do grep -qx "#got, $i, 0" "$WORK/c.out" || fail "value $i was not taken"; done
echo "restart: ok ($before values taken before the server went down, all 80 after; $(grep -c '^#got, ' "$WORK/c.out") deliveries)"
