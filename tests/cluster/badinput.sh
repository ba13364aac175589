#!/usr/bin/env bash
# Bad input from the wire: truncated, malformed and oversized values, wrong
# types, messages to actors that do not exist, forged headers - published
# straight into a node's inbox and onto the cluster's broadcast subject. The
# node counts and logs each rejection and goes on: afterwards a good
# message still arrives, and the node ends normally.
source "$(dirname "$0")/lib.sh"
start_node a "$programs/sink.hum"
wait_line a '#published, #sink'
id="$(grep -o 'node a ([0-9a-f]*)' "$WORK/a.err" | head -1 | sed 's/.*(\(.*\))/\1/')"
[ -n "$id" ] || fail "no node id in a's log"
bad="$WORK/bad" && mkdir -p "$bad"
# [2, "m", FROM, 1]: each forged chunk from a sender of its own, so that each is the one expected.
header() {
  printf '\x94\x02\xa1m\xcf\x00\x00\x00\x00\x00\x00\x00'
  printf "\\x$(printf %02x "$1")"
  printf '\xcf\x00\x00\x00\x00\x00\x00\x00\x01'
}
token() { printf '\xc4\x10'; head -c 16 /dev/urandom; }
printf '' >"$bad/empty"
printf '\x93\x01' >"$bad/truncated_header"
printf '\x94\x09\xa1m\x07\x01' >"$bad/wrong_version"
printf '\x93\x01\xa3zzz\x07' >"$bad/unknown_kind"
head -c 3000 /dev/urandom >"$bad/random"
{ header 7; token; printf '\x01'; } >"$bad/unknown_actor"
{ header 8; printf '\xc4\x03abc\x01'; } >"$bad/short_token"
{ header 9; token; printf '\xdd\xff\xff\xff\xff\x01'; } >"$bad/huge_count"
{ header 10; token; printf '\xca\x00\x00\x00\x00'; } >"$bad/float"
{ header 11; token; printf '\x91\x01'; } >"$bad/short_array"
{ header 12; token; printf '\xc7\x18\x03'; head -c 24 /dev/urandom; } >"$bad/forged_actor"
{ printf '\x95\x02\xa3pub\x07\xa1x\x01'; printf '\x2a'; } >"$bad/publish_non_actor"
inbox="$CLUSTER.node.$id"
"$NATS_POKE" "$URL" "$inbox" "$bad"/* || fail "could not publish"
"$NATS_POKE" "$URL" "$CLUSTER.ctl" "$bad"/* || fail "could not publish"
start_node b "$programs/poke.hum"
wait_end b
wait_end a
same a "#published, #sink
#got, 1, (116, 119, 111, NIL), #three"
rejected="$(stat a rejected)"
# 12 bad messages, each to the inbox and to the broadcast subject: a rejection each (random bytes may by chance be a header).
[ "$rejected" -ge 20 ] || fail "a rejected $rejected messages"
grep -q 'rejected input from the wire: an unknown actor\|rejected input from the wire: a message to an unknown actor' "$WORK/a.err" ||
  fail "no log line for the unknown actor"
echo "badinput: ok ($rejected rejected)"
