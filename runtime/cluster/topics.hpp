// Durable topics: the interface both stores implement (memory_topics.hpp
// without a broker, jetstream_topics.hpp on NATS JetStream).
//
// A topic has an actor (foreign: sends to it are appends, taken out of the
// sending event at commit). Values go to topics encoded (so what cannot
// cross nodes cannot be appended either, with or without a broker).
// Members subscribe in groups: each value goes to one member of each group.
// A delivery is an Envelope whose event settles it: on commit the values
// the event sent to topics are stored first, then the input is
// acknowledged; on failure it is abandoned and comes back after a delay,
// to any member, until max_deliveries, after which it goes to NAME.dead.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/cluster/foreign_codes.hpp"
#include "runtime/foreign.hpp"
#include "runtime/value.hpp"

namespace humus::rt {
class Runtime;
}

namespace humus::rt::cluster {

class AddressBook;

struct Topic {
  explicit Topic(std::string n) : name(std::move(n)), code(*this) {}
  const std::string name;
  TopicCode code;
  Value actor;            // made by TopicStore::topic, with `code` as its behavior
  Topic* dead = nullptr;  // NAME.dead, once the store needed it
};

// One value sent to a topic by a committing event: the value itself (for
// the memory store) or its encoding (for the broker).
struct Append {
  Topic* topic;
  Value value;
  std::string bytes;
};

// A subscription asked for by a committing event.
struct Subscription {
  Topic* topic;
  std::string group;
  Value member;
};

class TopicStore {
 public:
  explicit TopicStore(Runtime& rt) : rt_(rt) {}
  virtual ~TopicStore() = default;
  TopicStore(const TopicStore&) = delete;
  TopicStore& operator=(const TopicStore&) = delete;

  // The topic named `name`, made on first use; the same one every time.
  Topic& topic(std::string_view name);
  // The book its values are encoded and decoded with, once the cluster's
  // registry is made (a store on a broker keeps values encoded).
  virtual void attach(AddressBook&) {}
  // Makes sure the topic's storage exists (a stream); throws ClusterError.
  virtual void prepare(Topic& t) = 0;
  virtual void subscribe(const Subscription& s) = 0;
  // Appends from an event that was not a delivery.
  virtual void append(std::vector<Append>& values) = 0;
  // A delivery's event committed: store what it sent to topics, then
  // acknowledge its input.
  virtual void settle(std::unique_ptr<DeliveryTicket> ticket, std::vector<Append>& values) = 0;
  // A delivery's event failed: the input comes back later (or goes to NAME.dead).
  virtual void abandon(std::unique_ptr<DeliveryTicket> ticket) = 0;
  // The node leaves: no new deliveries (those under way are still settled).
  virtual void quiesce() {}
  // No more deliveries; settles nothing more. Called before the runtime stops.
  virtual void stop() = 0;
  // Forgets the topics' actors (after stop).
  void clear();

 protected:
  Runtime& rt_;

 private:
  std::mutex mutex_;
  std::map<std::string, std::unique_ptr<Topic>, std::less<>> topics_;
};

}  // namespace humus::rt::cluster
