#!/usr/bin/env bash
# tests/cluster/programs/topic_retry.hum on JetStream: a failed delivery
# comes back after --retry-delay-ms and not before, once to each of two
# groups; nothing goes to r.dead.
source "$(dirname "$0")/lib.sh"
start_node n "$programs/topic_retry.hum" --threads 1 --retry-delay-ms 400 --max-deliveries 3
wait_line n '#done' 2
kill -TERM "${node_pid[n]}"
wait_end n 1  # status 1: the first deliveries failed (runtime errors)
[ "$(sort "$WORK/n.out")" = "$(sort "$programs/topic_retry.out")" ] || fail "not the output of topic_retry.out"
[ "$(stat n redelivered)" = 2 ] || fail "$(stat n redelivered) redelivered, not 2"
[ "$(stat n 'dead letters')" = 0 ] || fail "dead letters: $(stat n 'dead letters')"
echo "retry: ok"
