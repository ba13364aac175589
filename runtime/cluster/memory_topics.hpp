// Topics in memory: the cluster is this process alone (no --cluster).
//
// The same semantics as on JetStream except durability: each topic is a
// log of values kept for the life of the process; each group has a cursor
// into it and delivers to its members in turn, at most as many deliveries
// in flight as it has members. A committed delivery appends what its event
// sent to topics and frees its slot in the same step (one process cannot
// die half-way). A failed one is sent again after retry_delay_ms to the
// next member (a timer keeps the program alive meanwhile), and after
// max_deliveries goes to NAME.dead instead.
#pragma once

#include <memory>

#include "runtime/cluster/cluster_options.hpp"
#include "runtime/cluster/counters.hpp"
#include "runtime/cluster/topics.hpp"

namespace humus::rt::cluster {

class MemoryTopics final : public TopicStore {
 public:
  MemoryTopics(Runtime& rt, Counters& counters, const ClusterOptions& options);
  ~MemoryTopics() override;

  void prepare(Topic&) override {}
  void subscribe(const Subscription& s) override;
  void append(std::vector<Append>& values) override;
  void settle(std::unique_ptr<DeliveryTicket> ticket, std::vector<Append>& values) override;
  void abandon(std::unique_ptr<DeliveryTicket> ticket) override;
  void stop() override;

  struct State;  // shared with the tickets, which may outlive the store

 private:
  std::shared_ptr<State> state_;
};

}  // namespace humus::rt::cluster
