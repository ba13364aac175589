#!/usr/bin/env bash
# Churn: nodes join, die and leave while a work-pulling master hands out
# 3000 items (issue 33). Two workers' nodes start the epic; a third joins
# mid-run; the first is killed (kill -9) holding work; the second leaves
# (SIGTERM) holding work; a new node with the first one's name joins. The
# master's customer gets every item's result exactly once and the right
# total (items held by a node that died or left are given to others: their
# jobs may run twice, their results count once), every worker's node ends
# with status 0 once the master's node leaves, and the newcomers did work.
source "$(dirname "$0")/lib.sh"
opts=(--threads 1)
dids() { grep -c '^#did' "$WORK/$1.out" 2>/dev/null || true; }
start_node master "$programs/churn_master.hum" "${opts[@]}"
start_node w1 "$programs/wp_worker.hum" "${opts[@]}"
start_node w2 "$programs/wp_worker.hum" "${opts[@]}"
wait_line w1 '^#did' 10
start_node w3 "$programs/wp_worker.hum" "${opts[@]}"  # joins mid-run
wait_line w3 '^#did' 5
kill_node w1  # dies holding work
mv "$WORK/w1.out" "$WORK/w1_first.out"
mv "$WORK/w1.err" "$WORK/w1_first.err"
kill -TERM "${node_pid[w2]}"  # leaves holding work
wait_end w2 0
start_node w1 "$programs/wp_worker.hum" "${opts[@]}"  # the same name, a new node
wait_line w1 '^#did' 5
wait_end master
same master "#items, 3000, #results, 3000, #sum, 9004500500"
wait_end w1 0  # they leave when the master's node does
wait_end w3 0
first="$(grep -c '^#did' "$WORK/w1_first.out")"
total=$((first + $(dids w2) + $(dids w3) + $(dids w1)))
[ "$total" -ge 3000 ] || fail "only $total jobs ran for 3000 items"
[ "$(grep -c 'cluster: node w1 .* is up' "$WORK/master.err")" -ge 2 ] || fail "the master's node did not see w1 come twice"
grep -q 'cluster: node [0-9a-f]* is down' "$WORK/master.err" || fail "the master's node saw no node go down"
echo "churn: ok (jobs run: first w1 $first, w2 $(dids w2), w3 $(dids w3), second w1 $(dids w1); $((total - 3000)) run twice)"
