#!/usr/bin/env bash
# Credentials: a nats-server of this test's own that wants a user and a
# password. The right ones (in the URL, or from the environment) join; the
# wrong ones, or no server at all, are a clear error (exit status 2) that
# names the server without the credentials.
source "$(dirname "$0")/lib.sh"
setsid nats-server -a 127.0.0.1 -p -1 --user humus --pass s3cret-pw >"$WORK/server.log" 2>&1 </dev/null &
node_pid[server]=$!
for _ in $(seq 1 $((LIMIT * 10))); do
  grep -q 'Server is ready' "$WORK/server.log" && break
  sleep 0.1
done
port="$(grep -o 'client connections on 127.0.0.1:[0-9]*' "$WORK/server.log" | head -1 | sed 's/.*://')"
[ -n "$port" ] || fail "the server did not start"
program='SEND (println, #nodes) TO cluster
SEND #leave TO cluster'

out="$("$HUMUS" --cluster "nats://humus:s3cret-pw@127.0.0.1:$port" --node a -e "$program" 2>"$WORK/a.err")" ||
  fail "did not join with the URL's credentials: $(cat "$WORK/a.err")"
[ "$out" = "#a, NIL" ] || fail "printed $out"

out="$(HUMUS_NATS_USER=humus HUMUS_NATS_PASSWORD=s3cret-pw "$HUMUS" --cluster "nats://127.0.0.1:$port" --node b \
  -e "$program" 2>"$WORK/b.err")" || fail "did not join with the environment's credentials: $(cat "$WORK/b.err")"
[ "$out" = "#b, NIL" ] || fail "printed $out"

status=0
"$HUMUS" --cluster "nats://humus:wrong-pw@127.0.0.1:$port" -e "$program" >"$WORK/c.out" 2>"$WORK/c.err" || status=$?
[ "$status" = 2 ] || fail "wrong password: status $status"
grep -q "humus: error: cannot join the cluster at nats://\*\*\*@127.0.0.1:$port: " "$WORK/c.err" || fail "$(cat "$WORK/c.err")"
grep -qi "author" "$WORK/c.err" || fail "no word of authorization: $(cat "$WORK/c.err")"
! grep -q "wrong-pw\|humus:wrong" "$WORK/c.err" || fail "the password was shown: $(cat "$WORK/c.err")"

status=0
HUMUS_CLUSTER="nats://127.0.0.1:1" "$HUMUS" -e "$program" >"$WORK/d.out" 2>"$WORK/d.err" || status=$?
[ "$status" = 2 ] || fail "no server: status $status"
grep -q "humus: error: cannot join the cluster at nats://127.0.0.1:1: " "$WORK/d.err" || fail "$(cat "$WORK/d.err")"
echo "auth: ok"
