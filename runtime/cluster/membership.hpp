// Who is in the cluster, who is down, and who wants to know.
//
// Every node announces itself with a heartbeat (Cluster's heartbeat
// thread). A node is down when it says goodbye, or when it has been silent
// for `down_after`; that is checked only while this node is connected, so
// losing our own connection to NATS does not make everyone else look dead
// (the clocks start again when the connection comes back). Down is final
// for a node id. Monitors of an actor of a node that goes down get
// (#down, actor) once.
#pragma once

#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "runtime/cluster/node.hpp"
#include "runtime/value.hpp"

namespace humus::rt {
class Runtime;
}

namespace humus::rt::cluster {

class Membership {
 public:
  using Clock = std::chrono::steady_clock;

  Membership(Runtime& rt, NodeId self, std::string self_name, std::string prefix, int64_t down_after_ms);

  const std::shared_ptr<Node>& self() const { return self_; }
  // The subject of node `id`'s inbox.
  std::string inbox(NodeId id) const;
  // The node with this id, made (alive, seen now) if it is new.
  std::shared_ptr<Node> node(NodeId id);
  // A heartbeat from node `id`; true if it was not heard from before.
  bool heard(NodeId id, std::string_view name);
  // Declares a node down: true if it was up (its monitors are told).
  // `silent`: for its silence, not because it said goodbye.
  bool mark_down(NodeId id, bool silent = false);
  // The nodes silent for longer than down_after (marked down here).
  std::vector<NodeId> expire(Clock::time_point now);
  // Our own connection to the broker went away / came back.
  void disconnected();
  void reconnected();
  // Whether any node was ever found down for its silence: until then the
  // receiving path looks no sender up (Cluster::silent_down).
  bool any_silent() const { return any_silent_.load(std::memory_order_acquire); }
  // Node `id`'s name, or its id in hex before its first heartbeat.
  std::string name_of(NodeId id) const;
  // The names of the nodes up now, this one included, sorted.
  std::vector<std::string> live_names() const;
  // Sends (#down, actor) to cust when `node` goes down (at once if it is).
  void monitor(const std::shared_ptr<Node>& node, Value cust, Value actor);
  void clear();  // forgets the monitors (when stopping)

 private:
  void tell_monitors(NodeId id);  // with mutex_ not held

  Runtime& rt_;
  const std::string prefix_;
  const Clock::duration down_after_;
  std::shared_ptr<Node> self_;
  mutable std::mutex mutex_;
  std::unordered_map<NodeId, std::shared_ptr<Node>> nodes_;
  std::unordered_multimap<NodeId, std::pair<Value, Value>> monitors_;  // node -> (cust, actor)
  bool connected_ = true;
  std::atomic<bool> any_silent_{false};
};

}  // namespace humus::rt::cluster
