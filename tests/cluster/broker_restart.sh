#!/usr/bin/env bash
# Plain messages across a broker restart: 20000 numbered messages, 50
# every 5 ms, from one node to another; the server is killed (kill -9)
# mid-stream and started again on the same port a second later, and the
# receiver reconnects after the sender (it is stopped meanwhile). Every
# message arrives, once and in order (or, were one lost, it would be
# counted and logged: the sender's `lost` must account for every gap).
# Core NATS alone lost thousands silently: what was written to the dead
# connection, and what the client buffered and flushed to the new server
# before the receiver had subscribed again (send_queue.hpp). Then the
# receiver, SIGTERMed once it has printed its count, ends with status 0
# (it used to crash at exit: repro R12). A server of its own.
source "$(dirname "$0")/lib.sh"
LIMIT=30  # it takes seconds; a lost #report would mean waiting for ever
server_dir="$WORK/nats"
mkdir -p "$server_dir/store"
server_pid=""
start_server() {  # PORT (-1: any free port)
  : >"$server_dir/server.log"
  setsid nats-server -a 127.0.0.1 -p "$1" -sd "$server_dir/store" >"$server_dir/server.log" 2>&1 </dev/null &
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

# Down only after 60 s: the receiver is stopped for a few seconds below (a
# node stalled past --down-after-ms stops when it wakes: stall.sh).
opts=(--threads 1 --down-after-ms 60000)
start_node sink "$programs/counting_sink.hum" "${opts[@]}"
wait_line sink '#ready'
start_node sender "$programs/paced_sender.hum" "${opts[@]}"
sleep 0.8  # about 8000 messages on their way
# The receiver comes back after the sender (as it does by chance half the
# time: each waits 250 ms and a random jitter of up to 1 s to reconnect).
kill -STOP "${node_pid[sink]}"
stop_server
sleep 1
start_server "$port"
wait_err sender 'reconnected to NATS'
sleep 0.5
kill -CONT "${node_pid[sink]}"
wait_line sink '#received'
kill -TERM "${node_pid[sink]}" 2>/dev/null || true  # unless it has ended already
wait_end sink 0
kill -TERM "${node_pid[sender]}"
wait_end sender 0
grep -q 'reconnected to NATS' "$WORK/sink.err" || fail "the sink did not lose its connection: the server was not restarted in time"
received="$(grep -o '#received, [0-9]*' "$WORK/sink.out" | cut -d' ' -f2)"
lost="$(stat sender lost)"
[ "$((received + lost))" = 20000 ] || fail "received $received, sender counted $lost lost: $((20000 - received - lost)) unaccounted for"
[ "$lost" = 0 ] || has_err sender "messages to node .* are counted lost"
same sink "#ready
#received, 20000, #in_order, TRUE, #last, 20000"
same sender "#sent, 20000"
echo "broker_restart: ok ($(grep -c 'again: ' "$WORK/sender.err" || true) resends by the sender)"
