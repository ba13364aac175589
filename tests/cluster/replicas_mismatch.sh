#!/usr/bin/env bash
# A topic whose stream exists with another replica count: it is used as it
# is, and the node warns (programs/topic_replicas.hum, on the three-server
# fixture: made with 1 replica, then asked for with 3).
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/lib3.sh"
start_node one "$programs/topic_replicas.hum" --topic-replicas 1
wait_end one 0
! grep -q "warning" "$WORK/one.err" || fail "a warning for a topic made as asked"
start_node three "$programs/topic_replicas.hum" --topic-replicas 3
wait_end three 0
same three "$(grep '#topic_is' "$WORK/one.out")"
has_err three "warning: cluster: topic orders has 1 replicas, not the 3 asked for: its stream was made before with another --topic-replicas"
echo "replicas_mismatch: ok"
