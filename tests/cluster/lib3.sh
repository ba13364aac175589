# Helpers for the tests on the three-server fixture (nats_cluster_fixture.sh),
# sourced after lib.sh: stream names and the servers' monitoring reports.
fixture="$here/nats_cluster_fixture.sh"
bash "$fixture" heal "$NATS_DIR" || fail "the three-server fixture could not be made whole"

# Stream names as jetstream_topics.cpp makes them: CLUSTER_TOPIC, with any
# character but [A-Za-z0-9-] as _XX (hex).
escape() {
  local s="$1" out="" c i
  for ((i = 0; i < ${#s}; i++)); do
    c="${s:i:1}"
    if [[ "$c" =~ [A-Za-z0-9-] ]]; then out+="$c"; else out+="$(printf '_%02X' "'$c")"; fi
  done
  echo "$out"
}
# jsz K: server nK's JetStream report, with every stream's detail.
jsz() { curl -s --max-time 2 "http://127.0.0.1:$(cat "$NATS_DIR/n$1/monitor")/jsz?accounts=true&streams=true&config=true"; }
# stream_field K STREAM JQ: a field of STREAM's detail as server nK reports it.
stream_field() { jsz "$1" | jq -r --arg s "$2" "[.account_details[]?.stream_detail[]? | select(.name == \$s)][0] | $3 // empty"; }
