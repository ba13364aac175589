#!/usr/bin/env bash
# A bank over topics keeps its money while nodes and servers die (issue 33;
# the invariant checked at the end, in the style of Jepsen's bank test). On
# the three-server fixture, topics with 3 replicas: a teller appends 1000
# transfers between 10 accounts to #transfers; branches (a consumer group)
# turn each into a debit and a credit in #ledger, both in one event; an
# auditor (another group) sums the ledger. Mid-run, a branch is killed
# (kill -9) and a new one started; a server picked at random is killed and,
# later, started again; the other branch is killed and a new one started.
# At the end:
# - the auditor counted 2000 entries, each (transfer, side) once, with a
#   total of 0 (no money made or lost), and every account's balance is
#   what the 1000 transfers make (the test draws them as the teller does);
# - #ledger holds exactly 2000 messages and #transfers 1000 (stored once);
# - the teller counted 0 lost.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/lib3.sh"
LIMIT=90
killed=""
trap 'cleanup; [ -z "$killed" ] || bash "$fixture" restart "$NATS_DIR" "$killed"' EXIT

applied() { cat "$WORK"/b*.out 2>/dev/null | grep -o '^#applied, [0-9]*' | sort -u | wc -l; }
wait_applied() {  # N: until N distinct transfers have been applied
  local waited=0
  while [ "$(applied)" -lt "$1" ]; do
    sleep 0.05
    waited=$((waited + 1))
    [ $waited -lt $((LIMIT * 20)) ] || fail "$(applied) transfers applied, not $1, in ${LIMIT}s"
  done
}
expected() {  # the balances the teller's transfers make (bank_teller.hum's draws)
  awk 'BEGIN { x = 1
    for (i = 1; i <= 1000; i++) {
      a = (x * 1309 + 13849) % 65536; b = (a * 1309 + 13849) % 65536; c = (b * 1309 + 13849) % 65536; x = c
      bal[a % 10] -= c % 100 + 1; bal[b % 10] += c % 100 + 1
    }
    for (k = 0; k < 10; k++) printf "#balance, %d, %d\n", k, bal[k] }'
}

opts=(--threads 1 --topic-replicas 3 --ack-wait-ms 2000 --down-after-ms 10000)
start_node audit "$programs/bank_audit.hum" "${opts[@]}"
wait_line audit '#ready'
start_node b1 "$programs/bank_branch.hum" "${opts[@]}"
start_node b2 "$programs/bank_branch.hum" "${opts[@]}"
wait_line b1 '#ready'
wait_line b2 '#ready'
start_node teller "$programs/bank_teller.hum" "${opts[@]}"

wait_applied 150
kill_node b1
start_node b3 "$programs/bank_branch.hum" "${opts[@]}"
# Subscribed before a server dies: the bank's invariant is the point here;
# making a topic while servers elect a leader is cluster3.quorum's.
wait_line b3 '#ready'
wait_applied 350
server=$((RANDOM % 3 + 1))
kill -9 "$(cat "$NATS_DIR/n$server/pid")"
killed="$server"
wait_applied 550
bash "$fixture" restart "$NATS_DIR" "$server"
killed=""
kill_node b2
start_node b4 "$programs/bank_branch.hum" "${opts[@]}"
wait_line b4 '#ready'

wait_end teller 0
wait_end audit 0
same teller "#appended, 1000"
[ "$(stat teller lost)" = 0 ] || fail "the teller counted $(stat teller lost) lost"
got="$(grep -v '^#again' "$WORK/audit.out")"
want="#ready
#entries, 2000, #total, 0
$(expected)"
[ "$got" = "$want" ] || fail "the auditor printed:
$got
---- instead of:
$want"
alive=$((server % 3 + 1))
for s in "$(escape "$CLUSTER")_transfers 1000" "$(escape "$CLUSTER")_ledger 2000"; do
  read -r name count <<<"$s"
  n=""
  for _ in $(seq 1 100); do
    n="$(stream_field "$alive" "$name" '.state.messages')"
    [ "${n:-0}" -ge "$count" ] && break
    sleep 0.1
  done
  [ "$n" = "$count" ] || fail "stream $name holds '$n' messages on n$alive, not $count"
done
for b in b3 b4; do
  kill -TERM "${node_pid[$b]}"
  wait_end "$b" 0
done
echo "bank: ok (server n$server killed and restarted; $(cat "$WORK"/b*.out | grep -c '^#applied') applications of 1000 transfers;" \
  "$(grep -c '^#again' "$WORK/audit.out" || true) ledger entries delivered again to the auditor)"
