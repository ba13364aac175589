#!/usr/bin/env bash
# Short names of every kind: the default cluster name and `hz`, topics #a
# and #b, groups #g, #h and #d (tests/cluster/programs/short_names.hum).
# Every value arrives, the failing one goes to a.dead, nothing is lost,
# and SIGTERM ends the node at once. De-duplication ids of 15 characters
# or fewer once lost their Nats-Msg-Id (a pointer into a moved std::string):
# the acknowledgement never matched, the group stalled after 4 values, and
# the node never ended. A server of its own: the cluster names are fixed.
source "$(dirname "$0")/lib.sh"
LIMIT=30  # a stall is a failure, not a long wait
own_server -js -sd "$WORK/store"
expected="$(for i in $(seq 1 20); do [ "$i" = 7 ] || echo "#b, $i"; done; echo "#dead, 7")"
for CLUSTER in humus hz; do
  n="n_$CLUSTER"
  start_node "$n" "$programs/short_names.hum" --threads 1 --retry-delay-ms 100 --max-deliveries 2
  wait_line "$n" '^#b, ' 19
  wait_line "$n" '^#dead, 7$'
  kill -TERM "${node_pid[$n]}"
  start=$SECONDS
  wait_end "$n" 1  # 1: input 7's events failed (runtime errors)
  [ $((SECONDS - start)) -le 10 ] || fail "$n took $((SECONDS - start)) s to end after SIGTERM"
  [ "$(sort "$WORK/$n.out")" = "$(echo "$expected" | sort)" ] || fail "$n printed:
$(cat "$WORK/$n.out")"
  [ "$(stat "$n" lost)" = 0 ] || fail "$n lost $(stat "$n" lost) values"
  [ "$(stat "$n" 'dead letters')" = 1 ] || fail "$n: $(stat "$n" 'dead letters') dead letters, not 1"
  # Each output once, stored with the id that makes a redelivered input's output a duplicate.
  printf '{}' >"$WORK/empty.json"
  "$NATS_POKE" -r "$URL" "\$JS.API.STREAM.INFO.${CLUSTER}_b" "$WORK/empty.json" >"$WORK/info.json" || fail "no stream info"
  grep -q '"messages":19,' "$WORK/info.json" || fail "stream ${CLUSTER}_b: $(cat "$WORK/info.json")"
  printf '{"seq":1}' >"$WORK/seq1.json"
  "$NATS_POKE" -r "$URL" "\$JS.API.STREAM.MSG.GET.${CLUSTER}_b" "$WORK/seq1.json" >"$WORK/msg.json" || fail "no message"
  hdrs="$(grep -o '"hdrs":"[^"]*"' "$WORK/msg.json" | cut -d'"' -f4 | base64 -d)"
  [[ "$hdrs" == *"Nats-Msg-Id: ${CLUSTER}_a/g/"* ]] || fail "output 1 of ${CLUSTER}_b has no de-duplication id: $(cat "$WORK/msg.json")"
done
echo "short_names: ok"
