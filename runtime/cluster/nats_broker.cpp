#include "runtime/cluster/nats_broker.hpp"

#include "runtime/cluster/jetstream_topics.hpp"
#include "runtime/cluster/link.hpp"

namespace humus::rt::cluster {

Broker connect_nats(Runtime& rt, Counters& counters, const ClusterOptions& options, const std::string& client_name,
                    Transport::Events events, NodeId self) {
  auto link = std::make_unique<Link>(options, client_name, std::move(events));
  auto topics = std::make_unique<JetStreamTopics>(rt, counters, options, *link, self);
  return Broker{std::move(link), std::move(topics)};
}

}  // namespace humus::rt::cluster
