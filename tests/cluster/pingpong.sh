#!/usr/bin/env bash
# Two nodes: round trips, every kind of value there and back, a burst that
# must arrive in order, 40 streams at once that must each arrive in order,
# a function that cannot cross, #nodes, and #down when a node leaves
# (tests/cluster/programs/pong.hum, ping.hum).
source "$(dirname "$0")/lib.sh"
start_node a "$programs/pong.hum"
wait_line a '#published, #watcher'
start_node b "$programs/ping.hum"
wait_end b 1  # 1: the function's event failed, and said so
wait_end a
same b "#round_trips, 200
#echo_equal, TRUE
#received_in_order, 1000
#streams_in_order, 40
#nodes, #a, #b, NIL"
same a "#published, #pong
#published, #echo
#published, #order
#published, #orders
#published, #watcher
#peer_down"
has_err b "ping.hum:.*runtime error in actor @[0-9]*: cannot send: a function cannot cross to another node"
[ "$(stat b sent)" -ge 2243 ] || fail "b sent $(stat b sent) messages"
# Turns' messages to one node share NATS messages (send_queue.hpp): the
# streams' thousand turns need far fewer than a thousand.
[ "$(stat b 'NATS messages')" -lt $(($(stat b sent) / 3)) ] || fail "b sent $(stat b sent) messages in $(stat b 'NATS messages') NATS messages"
[ "$(stat a rejected)" = 0 ] || fail "a rejected input"
echo "pingpong: ok"
