// What a node that joins a cluster needs of its broker: a connection that
// publishes and subscribes (Transport), and the topics kept on the broker
// (a TopicStore). NATS provides both (nats_broker.hpp: link.hpp and
// jetstream_topics.hpp); the host that can join passes Cluster a Connect
// function, and one that cannot (the WebAssembly playground, which has no
// NATS client) passes none: its cluster is this process alone.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "runtime/cluster/address.hpp"
#include "runtime/cluster/cluster_options.hpp"
#include "runtime/cluster/counters.hpp"
#include "runtime/cluster/topics.hpp"

namespace humus::rt {
class Runtime;
}

namespace humus::rt::cluster {

class Transport {
 public:
  struct Events {
    std::function<void()> disconnected;
    std::function<void()> reconnected;
  };
  using Handler = std::function<void(const char* data, size_t len)>;

  virtual ~Transport() = default;
  // Publishes; false (and logged, once in a while) when the broker refused it.
  virtual bool publish(const std::string& subject, const char* data, size_t len) = 0;
  // `handler` gets each message's payload, on the transport's delivery thread.
  virtual void subscribe(const std::string& subject, Handler handler) = 0;
  virtual bool connected() const = 0;
  // The most one message may carry (<= 0: no limit known).
  virtual int64_t max_payload() const = 0;
  // Sends what is buffered and closes (subscriptions end first).
  virtual void close() = 0;
};

struct Broker {
  std::unique_ptr<Transport> transport;
  std::unique_ptr<TopicStore> topics;  // on the broker, through `transport`
};

// Connects to options.url as `client_name`; throws ClusterError when it cannot.
using Connect = std::function<Broker(Runtime& rt, Counters& counters, const ClusterOptions& options,
                                     const std::string& client_name, Transport::Events events, NodeId self)>;

}  // namespace humus::rt::cluster
