#!/usr/bin/env bash
# A broker that takes at most 4096 bytes a message (max_payload): what a
# turn sends to a node, and what the send queue joins, is cut into NATS
# messages it takes, so the ping-pong test's burst and streams all arrive
# (with 256 KB chunks they were refused and lost); a single message too big
# for it fails its event with a clear error (programs/payload_big.hum).
# This test has a server of its own: the shared fixture's takes 1 MB.
source "$(dirname "$0")/lib.sh"
mkdir -p "$WORK/store"
printf 'max_payload: 4096\njetstream { store_dir: "%s" }\n' "$WORK/store" >"$WORK/server.conf"
own_server -c "$WORK/server.conf"

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
