#!/usr/bin/env bash
# A topic whose stream refuses values (someone made it with room for one,
# discarding new values): the node retries with back-off, then logs each
# value not stored, with the broker's reason, and counts it lost. A value
# appended by a plain event is lost; one that is a consumer's output fails
# that event's commit instead, so its input comes back (and, at the last
# delivery, goes to src.dead). The value that fit is in the stream, once.
source "$(dirname "$0")/lib.sh"
stream="${CLUSTER//_/_5F}_full"  # JetStreamTopics::stream: '_' escaped
printf '{"name":"%s","subjects":["%s.topic.full"],"retention":"limits","max_msgs":1,"discard":"new","storage":"file","num_replicas":1}' \
  "$stream" "$CLUSTER" >"$WORK/config.json"
"$NATS_POKE" -r "$URL" "\$JS.API.STREAM.CREATE.$stream" "$WORK/config.json" >"$WORK/created.json" ||
  fail "could not make the stream"
grep -q '"max_msgs":1' "$WORK/created.json" || fail "the stream was not made: $(cat "$WORK/created.json")"
start_node n "$programs/topic_full.hum" --max-deliveries 1 --retry-delay-ms 100
# Each value that does not fit has 10 attempts, about 20 s with the back-off.
wait_err n "a value for topic full was not stored after 10 attempts (the last: maximum messages exceeded)" 2
wait_err n "topic src, group g: value 1 goes to src.dead (delivered 1 times)"
kill -TERM "${node_pid[n]}"
wait_end n
same n "#did, 3"
[ "$(stat n lost)" = 2 ] || fail "n lost $(stat n lost) values, not 2"
[ "$(stat n appended)" = 4 ] || fail "n appended $(stat n appended), not 4 (1, 2, 3 to src, 3 to full)"
[ "$(stat n redelivered)" = 1 ] || fail "n redelivered $(stat n redelivered), not 1"
[ "$(stat n 'dead letters')" = 1 ] || fail "n: $(stat n 'dead letters') dead letters, not 1"
printf '{}' >"$WORK/empty.json"
"$NATS_POKE" -r "$URL" "\$JS.API.STREAM.INFO.$stream" "$WORK/empty.json" >"$WORK/info.json" || fail "no stream info"
grep -q '"messages":1,' "$WORK/info.json" || fail "the stream does not hold one value: $(cat "$WORK/info.json")"
echo "full: ok"
