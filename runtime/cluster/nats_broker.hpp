// Joining a cluster through NATS: the connection (link.hpp) and the topics
// on JetStream (jetstream_topics.hpp), as broker.hpp's Connect.
#pragma once

#include "runtime/cluster/broker.hpp"

namespace humus::rt::cluster {

Broker connect_nats(Runtime& rt, Counters& counters, const ClusterOptions& options, const std::string& client_name,
                    Transport::Events events, NodeId self);

}  // namespace humus::rt::cluster
