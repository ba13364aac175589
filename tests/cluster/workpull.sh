#!/usr/bin/env bash
# Work pulling across three nodes: the master's, and two workers' nodes with
# two workers each. One workers' node is killed (kill -9) while it holds
# work: its node is found down, its items go to the other workers, and the
# master finishes with every item done once and the right total
# (tests/cluster/programs/wp_*.hum; wp_local.hum is the same in one process).
source "$(dirname "$0")/lib.sh"
opts=(--threads 1)
start_node master "$programs/wp_master.hum" "${opts[@]}"
start_node w1 "$programs/wp_worker.hum" "${opts[@]}"
start_node w2 "$programs/wp_worker.hum" "${opts[@]}"
wait_line w2 '#did' 3
kill_node w2
wait_end master
same master "#items, 100, #results, 100, #sum, 338350"
wait_end w1  # it leaves when the master's node does
did1="$(grep -c '#did' "$WORK/w1.out")" did2="$(grep -c '#did' "$WORK/w2.out")"
# w1 did what w2 did not finish; items w2 held when it died were done again.
[ "$did1" -ge $((100 - did2)) ] || fail "w1 did $did1 items, w2 $did2"
grep -q "is down" "$WORK/master.err" || fail "the master's node did not see w2 go down"
echo "workpull: ok (w1 did $did1 items, w2 $did2 before it was killed)"
