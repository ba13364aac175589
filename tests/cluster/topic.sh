#!/usr/bin/env bash
# A durable topic (a JetStream stream) consumed by one group on two nodes;
# one of them is killed (kill -9) mid-run. Its unacknowledged inputs are
# delivered again to the other node after the ack wait, and outputs it had
# already stored are not stored twice (de-duplication ids from the input's
# sequence): the audit finds every good input's output exactly once. Input
# 7 always fails: after --max-deliveries it is in in.dead
# (tests/cluster/programs/topic_*.hum; topic_local.hum: the same in memory).
source "$(dirname "$0")/lib.sh"
opts=(--threads 1 --ack-wait-ms 3000 --retry-delay-ms 100 --max-deliveries 3)
start_node audit "$programs/topic_audit.hum" "${opts[@]}"
start_node c1 "$programs/topic_consumer.hum" "${opts[@]}"
start_node c2 "$programs/topic_consumer.hum" "${opts[@]}"
start_node producer "$programs/topic_producer.hum" "${opts[@]}"
wait_end producer
wait_line c2 '#did' 10
kill_node c2
wait_line audit '#complete, 199'
# c1 leaves on SIGTERM once its outputs are stored; it exits with status 1
# if input 7 failed there (reported as runtime errors), 0 if every delivery
# of input 7 went to c2 before it was killed.
kill -TERM "${node_pid[c1]}"
wait_end c1 '0|1'

start_node end "$programs/topic_end.hum" "${opts[@]}"
wait_end end
wait_line audit '#outputs'
kill -TERM "${node_pid[audit]}" 2>/dev/null || true  # it may have ended by itself: it left already, and the dead-letter watcher keeps nothing going
wait_end audit
grep -q '#outputs, 199, #distinct, 199, #sum, 2686651' "$WORK/audit.out" || fail "outputs not exactly once"
grep -q '#dead, 7' "$WORK/audit.out" || fail "input 7 is not in in.dead"
did1="$(grep -c '#did' "$WORK/c1.out")" did2="$(grep -c '#did' "$WORK/c2.out")"
echo "topic: ok (c1 did $did1 inputs, c2 $did2 before it was killed; $(stat c1 redelivered) redelivered by c1)"
