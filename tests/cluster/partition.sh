#!/usr/bin/env bash
# A partition that heals leaves both sides up and dead to each other
# (issue 33; docs/distribution.md, "A node that stalls"). On the
# three-server fixture, node w (stall_watch.hum) talks only to server n1
# and node s (stall_ticker.hum) only to n2; n2 is stopped (SIGSTOP) for
# 3 s, so each node hears nothing from the other past --down-after-ms and
# finds it down. When n2 goes on, what was held back arrives: each side
# hears again from a node it found down and tells it so (wire kind
# `down`). Each must ignore that word from a node it has found down itself
# (else both would stop, and with them the whole cluster): both keep
# running, neither takes anything more from the other, and both leave on
# SIGTERM (w ends with status 0; s ticks for ever, so a second signal ends
# it, with 128 + 15).
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/lib3.sh"
LIMIT=60
stopped=""
trap 'cleanup; [ -z "$stopped" ] || kill -CONT "$stopped" 2>/dev/null || true' EXIT
ticks() { grep -c '^#tick, ' "$WORK/w.out" 2>/dev/null || true; }
url_of() { echo "nats://127.0.0.1:$(cat "$NATS_DIR/n$1/client")"; }

opts=(--threads 1 --heartbeat-ms 100 --down-after-ms 1000)
URL="$(url_of 1)" start_node w "$programs/stall_watch.hum" "${opts[@]}"
wait_line w '#ready'
URL="$(url_of 2)" start_node s "$programs/stall_ticker.hum" "${opts[@]}"
wait_line w '^#tick, ' 5

stopped="$(cat "$NATS_DIR/n2/pid")"
kill -STOP "$stopped"
wait_line w '#ticker_down'
wait_err s 'cluster: node [0-9a-f]* is down'
sleep 1
before="$(ticks)"
kill -CONT "$stopped"
stopped=""

# Healed: each side hears from the other again and tells it it is down.
wait_err w 'was found down here and is heard from again: told so'
wait_err s 'was found down here and is heard from again: told so'
sleep 1
for n in w s; do
  kill -0 "${node_pid[$n]}" 2>/dev/null || fail "$n ended after the partition healed"
  ! grep -q 'declared this node down' "$WORK/$n.err" || fail "$n stopped for the other side's word"
done
[ "$(ticks)" = "$before" ] || fail "w took $(($(ticks) - before)) ticks from s after the partition"
kill -TERM "${node_pid[w]}" "${node_pid[s]}"
wait_end w 0
wait_err s 'a second signal ends it now'
kill -TERM "${node_pid[s]}"
wait_end s 143
echo "partition: ok (w took $before ticks before it found s down, none after)"
