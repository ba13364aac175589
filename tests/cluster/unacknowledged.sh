#!/usr/bin/env bash
# Messages a node cannot confirm are counted lost and logged: the receiver
# is stopped (SIGSTOP: it neither acknowledges nor is found down, with
# --down-after-ms 60000) while the sender sends it 20000 messages and then
# leaves; the sender waits 2 s for acknowledgements, then counts each
# message sent after the stop (and the #report) lost, in a log line and in
# its --stats. Lost means not confirmed: the receiver, continued, still
# takes them all.
source "$(dirname "$0")/lib.sh"
opts=(--threads 1 --down-after-ms 60000)
start_node sink "$programs/counting_sink.hum" "${opts[@]}"
wait_line sink '#ready'
start_node sender "$programs/paced_sender.hum" "${opts[@]}"
# Once the sender has found #sink (the sink introduces itself when it hears of the sender).
wait_err sink 'node sender .* is up'
sleep 0.3
kill -STOP "${node_pid[sink]}"
wait_line sender '#sent'
kill -TERM "${node_pid[sender]}"
wait_end sender 0
lost="$(stat sender lost)"
# Most of the 20000 (and #report) were sent after the stop: none of those was acknowledged.
[ "$lost" -gt 10000 ] || fail "the sender counted $lost lost"
has_err sender "cluster: $lost messages to node [0-9a-f]* are counted lost: not acknowledged within 2 s after this node left"
kill -CONT "${node_pid[sink]}"
wait_line sink '#received'
wait_end sink 0
same sink "#ready
#received, 20000, #in_order, TRUE, #last, 20000"
echo "unacknowledged: ok"
