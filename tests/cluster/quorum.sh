#!/usr/bin/env bash
# Making a topic waits out a JetStream without a quorum (issue 33). On the
# three-server fixture, two servers are killed (kill -9): JetStream has no
# meta leader and answers no API request. A node then asks for topic #jobs
# (3 replicas); 6 s later (past the 5 s a single request waits) both
# servers start again. The node must wait for them, trying again, not fail
# the event: it makes the stream, its group takes all 50 values it appends,
# and its log says once that JetStream did not answer and that it tries
# again.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/lib3.sh"
LIMIT=60
killed=""
trap 'cleanup; for k in $killed; do bash "$fixture" restart "$NATS_DIR" "$k"; done' EXIT

kill -9 "$(cat "$NATS_DIR/n2/pid")" "$(cat "$NATS_DIR/n3/pid")"
killed="2 3"
sleep 0.5
start_node q "$programs/quorum_topic.hum" --threads 1 --topic-replicas 3 --down-after-ms 60000
sleep 6
kill -0 "${node_pid[q]}" 2>/dev/null || fail "the node ended while the servers were down"
for k in 2 3; do bash "$fixture" restart "$NATS_DIR" "$k"; done
killed=""
wait_end q 0
[ "$(grep -c '^#got, ' "$WORK/q.out")" = 50 ] || fail "the group took $(grep -c '^#got, ' "$WORK/q.out") values, not 50"
grep -qx "#sum, 1275" "$WORK/q.out" || fail "no \"#sum, 1275\" line"
grep -q 'JetStream did not answer making the stream of topic jobs (.*); trying again for up to 30 s' "$WORK/q.err" ||
  fail "the node did not say it waits for JetStream; its log:
$(cat "$WORK/q.err")"
! grep -q 'cannot make' "$WORK/q.err" || fail "the node failed to make the topic: $(grep 'cannot make' "$WORK/q.err")"
echo "quorum: ok"
