#!/usr/bin/env bash
# A node that stalls (SIGSTOP) past --down-after-ms is found down by the
# others; when it wakes it learns so and stops, never carrying on as if
# nothing had happened: nothing it sends after the stall is delivered, and
# it ends with status 3 and "humus: stopped: this node was declared down by
# the cluster" (issue 33). Two ways it learns:
#   1. by itself: its own heartbeat thread did not run for longer than its
#      --down-after-ms, so it sent no heartbeat either;
#   2. told by a node that found it down (wire::Kind::Down), when its own
#      --down-after-ms is longer than the stall (so 1 does not see it).
source "$(dirname "$0")/lib.sh"
ticks() { grep -c '^#tick, ' "$WORK/$1.out" 2>/dev/null || true; }

# stall WATCHER TICKER TICKER_DOWN_AFTER_MS: the ticker stalls until the
# watcher finds it down, and 0.5 s more; then it must stop, and the watcher
# takes no tick after the down.
stall() {
  local w="$1" s="$2" s_after="$3"
  start_node "$w" "$programs/stall_watch.hum" --threads 1 --heartbeat-ms 100 --down-after-ms 1000
  wait_line "$w" '#ready'
  start_node "$s" "$programs/stall_ticker.hum" --threads 1 --heartbeat-ms 100 --down-after-ms "$s_after"
  wait_line "$w" '^#tick, ' 5
  kill -STOP "${node_pid[$s]}"
  wait_line "$w" '#ticker_down'
  local before
  before="$(ticks "$w")"
  sleep 0.5
  kill -CONT "${node_pid[$s]}"
  wait_end "$s" 3
  has_err "$s" '^humus: stopped: this node was declared down by the cluster$'
  has_err "$s" 'this node stops: its actors are dead to the others, and it takes nothing more from them'
  sleep 0.5  # anything it sent on waking would have come by now
  [ "$(ticks "$w")" = "$before" ] || fail "$w took $(($(ticks "$w") - before)) ticks from $s after it was found down"
  kill -TERM "${node_pid[$w]}"
  wait_end "$w" 0
}

stall w s 1000
has_err s 'cluster: this node was stalled for [0-9]* ms, longer than --down-after-ms 1000: the other nodes have found it down'

CLUSTER="${CLUSTER}_told"
stall w2 s2 60000
has_err s2 'cluster: node w2 has declared this node down (it heard nothing from it for longer than its --down-after-ms)'
has_err w2 'was found down here and is heard from again: told so'
echo "stall: ok"
