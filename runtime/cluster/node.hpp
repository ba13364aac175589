// One node of the cluster as this node sees it.
#pragma once

#include <atomic>
#include <chrono>
#include <string>

#include "runtime/cluster/address.hpp"

namespace humus::rt::cluster {

struct Node {
  Node(NodeId i, std::string inbox, bool is_self) : id(i), subject(std::move(inbox)), self(is_self) {}

  const NodeId id;
  const std::string subject;  // where messages to its actors go
  const bool self;
  // Once down, a node stays down: messages to its actors are dropped, and
  // a process that comes back is a new node with a new id.
  std::atomic<bool> down{false};
  bool is_down() const { return down.load(std::memory_order_acquire); }
  // Down for its silence (not for saying goodbye): when it is heard from
  // again it is told so (wire::Kind::Down, at most once a second: `told`,
  // steady-clock nanoseconds) and nothing from it is taken.
  std::atomic<bool> silent{false};
  std::atomic<int64_t> told{0};

  // Guarded by Membership's mutex.
  std::string name;  // empty until its first heartbeat
  std::chrono::steady_clock::time_point last_seen;
};

}  // namespace humus::rt::cluster
