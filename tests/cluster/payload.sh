#!/usr/bin/env bash
# A broker that takes at most 4096 bytes a message (max_payload): what a
# turn sends to a node, and what the send queue joins, is cut into NATS
# messages it takes, so the ping-pong test's burst and streams all arrive
# (with 256 KB chunks they were refused and lost); a single message too big
# for it fails its event with a clear error (programs/payload_big.hum).
# This test has a server of its own: the shared fixture's takes 1 MB.
source "$(dirname "$0")/lib.sh"
server_dir="$WORK/nats"
mkdir -p "$server_dir/store"
printf 'listen: 127.0.0.1:-1\nmax_payload: 4096\njetstream { store_dir: "%s" }\n' "$server_dir/store" >"$server_dir/server.conf"
setsid nats-server -c "$server_dir/server.conf" >"$server_dir/server.log" 2>&1 </dev/null &
server_pid=$!
trap 'kill -9 "$server_pid" 2>/dev/null || true; cleanup' EXIT
for _ in $(seq 1 600); do
  grep -q 'Server is ready' "$server_dir/server.log" && break
  kill -0 "$server_pid" 2>/dev/null || break
  sleep 0.1
done
port="$(grep -o 'client connections on 127.0.0.1:[0-9]*' "$server_dir/server.log" | head -1 | sed 's/.*://')"
[ -n "$port" ] || { cat "$server_dir/server.log"; fail "nats-server did not start"; }
URL="nats://127.0.0.1:$port"

start_node a "$programs/pong.hum"
wait_line a '#published, #watcher'
start_node c "$programs/payload_big.hum"
wait_end c 1  # 1: the event with the big message failed, and said so
same c "#echoed, 300"
has_err c "payload_big.hum:8:.*cannot send: a message of [0-9]* bytes is more than the broker takes (4096)"
start_node b "$programs/ping.hum"
wait_end b 1
wait_end a
same b "#round_trips, 200
#echo_equal, TRUE
#received_in_order, 1000
#streams_in_order, 40
#nodes, #a, #b, NIL"
[ "$(stat b lost)" = 0 ] || fail "b lost $(stat b lost) NATS messages"
[ "$(stat b 'NATS messages')" -gt 5 ] || fail "b sent everything in $(stat b 'NATS messages') NATS messages"
echo "payload: ok ($(stat b sent) messages in $(stat b 'NATS messages') NATS messages of at most 4096 bytes)"
