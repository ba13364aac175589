#!/usr/bin/env bash
# Values in a topic's stream that are not values (someone else published
# raw bytes on its subject): truncated, random, a float, bytes after a
# value. The consumer's node counts and logs each, moves it to u.dead as it
# is, and goes on: the good values around them are delivered. A node reading
# u.dead finds the same bytes there (and moves them on to u.dead.dead).
source "$(dirname "$0")/lib.sh"
start_node n "$programs/topic_unreadable.hum" --max-deliveries 3
wait_line n '#got, 1'
bad="$WORK/bad" && mkdir -p "$bad"
printf '\x92\x01' >"$bad/1_truncated"
head -c 3000 /dev/urandom >"$bad/2_random"
printf '\xca\x00\x00\x00\x00' >"$bad/3_float"
printf '\x02\x03' >"$bad/4_trailing"
printf '\x02' >"$bad/5_good"
"$NATS_POKE" "$URL" "$CLUSTER.topic.u" "$bad"/* || fail "could not publish"
wait_line n '#got, 2'
wait_err n 'cannot be read' 4
start_node w "$programs/topic_unreadable_watch.hum"
wait_err w 'moved to u.dead.dead' 4
kill -TERM "${node_pid[w]}"
wait_end w
kill -TERM "${node_pid[n]}"
wait_end n
same n "#got, 1
#got, 2"
same w ""
for why in 'truncated input' 'a floating-point number (Humus has none)' 'bytes after the value'; do
  has_err n "a value of topic u cannot be read ($why): moved to u.dead"
done
# u.dead holds the bytes as they were: w cannot read them for the same reasons, in the same order.
reasons() { grep -o 'cannot be read (.*): moved' "$WORK/$1.err"; }
[ "$(reasons n)" = "$(reasons w)" ] || fail "u.dead does not hold what n could not read"
[ "$(grep -c 'a value of topic u cannot be read' "$WORK/n.err")" = 4 ] || fail "n did not log 4 unreadable values"
[ "$(stat n rejected)" = 4 ] || fail "n rejected $(stat n rejected), not 4"
[ "$(stat n 'dead letters')" = 4 ] || fail "n: $(stat n 'dead letters') dead letters, not 4"
[ "$(stat w 'dead letters')" = 4 ] || fail "w: $(stat w 'dead letters') dead letters from u.dead, not 4"
echo "unreadable: ok"
