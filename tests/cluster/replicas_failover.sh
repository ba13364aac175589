#!/usr/bin/env bash
# A replicated topic outlives the server that leads it. On the three-server
# fixture (nats_cluster_fixture.sh), with --topic-replicas 3: a producer
# node appends 1..2000 to topic orders, 5 every 10 ms; a consumer node's
# group takes each value, prints it and stores it in topic shipped. Mid-run
# the server that leads the orders stream (asked of the servers' monitoring
# endpoints) is killed with kill -9. The nodes reconnect to other URLs of
# the list and retry their appends across the leader election. Then:
# - every value arrives (the consumer printed each of 1..2000; a delivery
#   may come twice: processing is at least once, docs/distribution.md);
# - every value is stored exactly once: orders and shipped hold 2000
#   messages each (retried appends carry the same de-duplication id);
# - the producer's --stats count 0 lost;
# - the killed server, started again, catches up: its replicas hold all
#   2000 values of both streams.
# It prints how long after the kill deliveries went on, and how long the
# restarted server took to catch up.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/lib3.sh"
LIMIT=60
killed=""
# The killed server comes back (same ports and store) whatever happens, for
# whatever runs on the fixture next.
trap 'cleanup; [ -z "$killed" ] || bash "$fixture" restart "$NATS_DIR" "$killed"' EXIT

orders="$(escape "$CLUSTER")_orders"
shipped="$(escape "$CLUSTER")_shipped"

distinct() { grep -o '^#got, [0-9]*' "$WORK/consumer.out" | sort -u | wc -l; }

opts=(--threads 1 --topic-replicas 3 --ack-wait-ms 2000 --down-after-ms 10000)
start_node consumer "$programs/replica_consumer.hum" "${opts[@]}"
wait_line consumer '#ready'
start_node producer "$programs/replica_producer.hum" "${opts[@]}"
wait_line consumer '#got' 400

replicas="$(stream_field 1 "$orders" '.config.num_replicas')"
[ "$replicas" = 3 ] || fail "the stream $orders has '$replicas' replicas, not 3"
leader="$(stream_field 1 "$orders" '.cluster.leader')"
[[ "$leader" =~ ^n[123]$ ]] || fail "no leader of $orders in the monitoring report: '$leader'"
killed="${leader#n}"
at_kill="$(distinct)"
kill -9 "$(cat "$NATS_DIR/n$killed/pid")"
t0="$(date +%s%N)"

# Deliveries go on: 100 new values past those taken before the kill.
waited=0
while [ "$(distinct)" -lt $((at_kill + 100)) ]; do
  sleep 0.05
  waited=$((waited + 1))
  [ $waited -lt $((LIMIT * 20)) ] || fail "deliveries did not go on within ${LIMIT}s of killing $leader"
done
resumed_ms=$((($(date +%s%N) - t0) / 1000000))

wait_end producer 0
waited=0
while [ "$(distinct)" -lt 2000 ]; do
  kill -0 "${node_pid[consumer]}" 2>/dev/null || fail "the consumer ended"
  sleep 0.05
  waited=$((waited + 1))
  [ $waited -lt $((LIMIT * 20)) ] || fail "the consumer took $(distinct) distinct values of 2000 in ${LIMIT}s"
done
all_ms=$((($(date +%s%N) - t0) / 1000000))
kill -TERM "${node_pid[consumer]}"
# A node that does not end: its threads' stacks go with the failure.
for _ in $(seq 1 400); do kill -0 "${node_pid[consumer]}" 2>/dev/null || break; sleep 0.05; done
if kill -0 "${node_pid[consumer]}" 2>/dev/null; then
  stacks consumer
  fail "the consumer did not end within 20 s of SIGTERM"
fi
wait_end consumer 0

same producer "#appended, 2000"
[ "$(stat producer lost)" = 0 ] || fail "the producer counted $(stat producer lost) lost"
got="$(grep -c '^#got, ' "$WORK/consumer.out")"
sum="$(grep -o '^#got, [0-9]*' "$WORK/consumer.out" | sort -u | awk '{s += $2} END {print s}')"
[ "$sum" = 2001000 ] || fail "the distinct values taken sum to $sum, not 2001000"
# What a server that lived through it holds: each value stored once.
alive=$((killed % 3 + 1))
for s in "$orders" "$shipped"; do
  n=""
  for _ in $(seq 1 100); do
    n="$(stream_field "$alive" "$s" '.state.messages')"
    [ "${n:-0}" -ge 2000 ] && break
    sleep 0.1
  done
  [ "$n" = 2000 ] || fail "stream $s holds '$n' messages on n$alive, not 2000"
done
# The killed server comes back (same ports and store) and catches up: its
# replicas of both streams hold the 2000 values, appended while it was
# down. It was seen to hold 1999 of shipped's 2000 still 60 s after it
# came back (1 run in 4; likely the run that ran past ctest's timeout on
# CI): a follower probably learns that the last entries are committed only
# from the leader's next append, and none came after the run. So one marker
# is appended to each stream once it is back, and the replica must hold
# every sequence up to the last it has (no gap), and at least all 2000.
bash "$fixture" restart "$NATS_DIR" "$killed"
back="$killed"
killed=""
t1="$(date +%s%N)"
printf marker >"$WORK/marker"
for s in orders shipped; do
  stored=""
  for _ in $(seq 1 50); do
    stored="$("$NATS_POKE" -r "$URL" "$CLUSTER.topic.$s" "$WORK/marker" 2>/dev/null | grep -o '"seq":[0-9]*')" && break
    sleep 0.2
  done
  [ "$stored" = '"seq":2001' ] || fail "the marker appended to $s was answered '$stored', not seq 2001"
done
for s in "$orders" "$shipped"; do
  n="" last=""
  for _ in $(seq 1 $((LIMIT * 10))); do
    read -r n last <<<"$(stream_field "$back" "$s" '"\(.state.messages) \(.state.last_seq)"')" || true
    [ "${n:-0}" -ge 2000 ] && [ "$n" = "$last" ] && break
    sleep 0.1
  done
  [ "${n:-0}" -ge 2000 ] && [ "$n" = "$last" ] || fail "the restarted n$back holds '$n' messages of $s, up to sequence '$last' (all 2000 values, no gap)"
done
caught_ms=$((($(date +%s%N) - t1) / 1000000))
echo "replicas_failover: ok (leader $leader killed after $at_kill values; 100 more taken ${resumed_ms} ms later;" \
  "all 2000 ${all_ms} ms after the kill; $((got - 2000)) taken twice; $(grep -c 'reconnected to NATS' "$WORK/producer.err" || true) producer reconnects;" \
  "n$back restarted and caught up in ${caught_ms} ms)"
