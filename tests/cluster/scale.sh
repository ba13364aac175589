#!/usr/bin/env bash
# Sixteen worker nodes and a master's node, one worker thread each, in one
# cluster (issue 33): membership converges (every node sees all 17) within
# 30 s even on a loaded machine under the sanitizer (about 1-3 s on a quiet
# one: scripts/bench/cluster/scale), and a work-pulling run of 4000 items
# uses every node, with the right total.
source "$(dirname "$0")/lib.sh"
nodes=16
opts=(--threads 1)
for f in scale_master scale_worker; do
  sed "s/^DEF NODES AS .*/DEF NODES AS $nodes/" "$programs/$f.hum" >"$WORK/$f.hum"
done
start_node master "$WORK/scale_master.hum" "${opts[@]}"
for i in $(seq 1 $nodes); do start_node "w$i" "$WORK/scale_worker.hum" "${opts[@]}"; done
wait_line master '^#converged_ms'
converged="$(grep -o '^#converged_ms, [0-9]*' "$WORK/master.out" | cut -d' ' -f2)"
[ "$converged" -lt 30000 ] || fail "membership took $converged ms to converge"
wait_end master
grep -q '^#items, 4000, #sum, 21341334000, #ms, ' "$WORK/master.out" || fail "master: $(cat "$WORK/master.out")"
for i in $(seq 1 $nodes); do
  wait_end "w$i" 0
  grep -q '^#did' "$WORK/w$i.out" || fail "node w$i did no item"
done
echo "scale: ok ($((nodes + 1)) nodes converged in $converged ms; $(grep -o '#ms, [0-9]*' "$WORK/master.out") for 4000 items)"
