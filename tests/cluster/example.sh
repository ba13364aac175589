#!/usr/bin/env bash
# The walkthrough of docs/distribution.md, live: examples/cluster/master.hum
# on one node, worker.hum on two more. The master's node prints the epic's
# total and leaves; the workers' nodes see it go (#down) and leave too, and
# both workers' nodes did part of the work.
source "$(dirname "$0")/lib.sh"
examples="$here/../../examples/cluster"
start_node master "$examples/master.hum" --threads 1
wait_line master '#ready'
start_node w1 "$examples/worker.hum" --threads 1
start_node w2 "$examples/worker.hum" --threads 1
wait_end master
same master "#ready
#squares, 100, #results, 100, #total, 338350"
wait_end w1
wait_end w2
sent1="$(stat w1 sent)" sent2="$(stat w2 sent)"
[ "${sent1:-0}" -gt 0 ] && [ "${sent2:-0}" -gt 0 ] || fail "a workers' node sent nothing (w1 $sent1, w2 $sent2)"
echo "example: ok (w1 sent $sent1 messages, w2 $sent2)"
