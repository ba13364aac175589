// The browser build's Link and JetStreamTopics (interpreter/web/CMakeLists.txt
// compiles this instead of link.cpp and jetstream_topics.cpp): a page has
// no NATS client, so joining a cluster fails with a clear error; everything
// else of cluster/ (the `cluster` actor, names, in-memory topics) works as
// in one process of the native build.
#include "runtime/cluster/jetstream_topics.hpp"
#include "runtime/cluster/link.hpp"

namespace humus::rt::cluster {

Link::Link(const ClusterOptions&, const std::string&, Events events) : events_(std::move(events)) {
  throw ClusterError("cannot join a cluster: this build (WebAssembly, the playground) has no NATS client");
}
Link::~Link() = default;
bool Link::publish(const std::string&, const char*, size_t) { return false; }
void Link::subscribe(const std::string&, Handler) {}
bool Link::connected() const { return false; }
void Link::close() {}

// Never made: a JetStreamTopics needs a Link.
struct JetStreamTopics::State {};
JetStreamTopics::JetStreamTopics(Runtime& rt, Counters&, const ClusterOptions&, Link&, NodeId) : TopicStore(rt) {
  throw ClusterError("JetStream topics need a cluster");
}
JetStreamTopics::~JetStreamTopics() = default;
void JetStreamTopics::attach(AddressBook&) {}
void JetStreamTopics::prepare(Topic&) {}
void JetStreamTopics::subscribe(const Subscription&) {}
void JetStreamTopics::append(std::vector<Append>&) {}
void JetStreamTopics::settle(std::unique_ptr<DeliveryTicket>, std::vector<Append>&) {}
void JetStreamTopics::abandon(std::unique_ptr<DeliveryTicket>) {}
void JetStreamTopics::quiesce() {}
void JetStreamTopics::stop() {}

}  // namespace humus::rt::cluster
