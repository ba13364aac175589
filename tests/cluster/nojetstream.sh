#!/usr/bin/env bash
# A server started without JetStream: plain messages work, but a topic
# cannot be made; the error says so and how to start the server
# (programs/topic_nojs.hum). This test has a server of its own.
source "$(dirname "$0")/lib.sh"
own_server
start_node x "$programs/topic_nojs.hum"
wait_end x 1  # 1: the cluster actor's event failed
same x ""
has_err x "^humus: runtime error in actor cluster: cannot make the stream of topic events: .*topics need JetStream: start the server with \`nats-server -js\`"
echo "nojetstream: ok"
