#!/usr/bin/env bash
# --topic-replicas 3 on the one-server fixture: a topic's stream cannot be
# made with 3 replicas; the cluster actor's event fails with an error that
# names the topic, the count and what to do (programs/topic_replicas.hum).
# The same through HUMUS_TOPIC_REPLICAS.
source "$(dirname "$0")/lib.sh"
start_node x "$programs/topic_replicas.hum" --topic-replicas 3
wait_end x 1  # 1: the cluster actor's event failed
same x ""
has_err x "^humus: runtime error in actor cluster: topic orders needs 3 replicas but the NATS cluster has fewer JetStream servers (.*): start more servers or lower --topic-replicas"
HUMUS_TOPIC_REPLICAS=2 start_node y "$programs/topic_replicas.hum"
wait_end y 1
has_err y "topic orders needs 2 replicas but the NATS cluster has fewer JetStream servers"
echo "replicas_error: ok"
