#!/usr/bin/env bash
# TLS: a nats-server of this test's own that speaks only TLS, with a
# certificate from a test CA made here (openssl). A node that trusts the CA
# (HUMUS_NATS_CA) joins over tls://; one that does not is refused with a
# clear error (status 2). Then the server also wants a client certificate:
# with HUMUS_NATS_CERT/HUMUS_NATS_KEY a node joins, without them it cannot.
source "$(dirname "$0")/lib.sh"
pki="$WORK/pki"
mkdir -p "$pki"
(
  cd "$pki"
  openssl req -x509 -newkey rsa:2048 -nodes -keyout ca.key -out ca.pem -days 2 -subj /CN=humus-test-ca
  for who in server client; do
    openssl req -newkey rsa:2048 -nodes -keyout "$who.key" -out "$who.csr" -subj "/CN=humus-test-$who"
    printf 'subjectAltName=IP:127.0.0.1\nextendedKeyUsage=%s\n' "$([ $who = server ] && echo serverAuth || echo clientAuth)" >"$who.ext"
    openssl x509 -req -in "$who.csr" -CA ca.pem -CAkey ca.key -CAcreateserial -out "$who.pem" -days 2 -extfile "$who.ext"
  done
) >"$WORK/openssl.log" 2>&1 || fail "openssl: $(cat "$WORK/openssl.log")"

# serve NAME [nats-server options]: a TLS server; sets port.
serve() {
  local name="$1"
  shift
  setsid nats-server -a 127.0.0.1 -p -1 --tls --tlscert "$pki/server.pem" --tlskey "$pki/server.key" "$@" \
    >"$WORK/$name.log" 2>&1 </dev/null &
  node_pid[$name]=$!
  for _ in $(seq 1 $((LIMIT * 10))); do
    grep -q 'Server is ready' "$WORK/$name.log" && break
    sleep 0.1
  done
  port="$(grep -o 'client connections on 127.0.0.1:[0-9]*' "$WORK/$name.log" | head -1 | sed 's/.*://')"
  [ -n "$port" ] || fail "the $name server did not start: $(cat "$WORK/$name.log")"
}
program='SEND (println, #nodes) TO cluster
SEND #leave TO cluster'

serve tls
out="$(HUMUS_NATS_CA="$pki/ca.pem" "$HUMUS" --cluster "tls://127.0.0.1:$port" --node a -e "$program" 2>"$WORK/a.err")" ||
  fail "did not join over TLS with the CA: $(cat "$WORK/a.err")"
[ "$out" = "#a, NIL" ] || fail "printed $out"

status=0
"$HUMUS" --cluster "tls://127.0.0.1:$port" --node b -e "$program" >"$WORK/b.out" 2>"$WORK/b.err" || status=$?
[ "$status" = 2 ] || fail "a server it does not trust: status $status"
grep -q "humus: error: cannot join the cluster at tls://127.0.0.1:$port: " "$WORK/b.err" || fail "$(cat "$WORK/b.err")"
grep -qi "ssl\|tls\|certificate" "$WORK/b.err" || fail "no word of TLS: $(cat "$WORK/b.err")"

serve mutual --tlsverify --tlscacert "$pki/ca.pem"
out="$(HUMUS_NATS_CA="$pki/ca.pem" HUMUS_NATS_CERT="$pki/client.pem" HUMUS_NATS_KEY="$pki/client.key" \
  "$HUMUS" --cluster "tls://127.0.0.1:$port" --node c -e "$program" 2>"$WORK/c.err")" ||
  fail "did not join with a client certificate: $(cat "$WORK/c.err")"
[ "$out" = "#c, NIL" ] || fail "printed $out"

status=0
HUMUS_NATS_CA="$pki/ca.pem" "$HUMUS" --cluster "tls://127.0.0.1:$port" --node d -e "$program" >"$WORK/d.out" 2>"$WORK/d.err" ||
  status=$?
[ "$status" = 2 ] || fail "no client certificate: status $status"
grep -q "humus: error: cannot join the cluster at tls://127.0.0.1:$port: .*if the server wants a client certificate, give it with HUMUS_NATS_CERT and HUMUS_NATS_KEY$" \
  "$WORK/d.err" || fail "$(cat "$WORK/d.err")"
echo "tls: ok"
