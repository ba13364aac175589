// Topics on NATS JetStream: durable, shared by every node of the cluster.
//
// A topic is a stream (file storage) over one subject; a group is a durable
// pull consumer of it, shared by the group's members on every node, so each
// value goes to one member of each group. Each node runs one fetcher thread
// per (topic, group) it has members of; it fetches only as many messages as
// its members have free slots (a few each), so a slow node does not hoard
// work, and deals them out in turn.
//
// Settling a delivery: the values its event sent to topics are published
// asynchronously, each with a de-duplication id made from the input's
// stream, sequence and group and the output's position; only when every one
// is stored is the input acknowledged. A node that dies in between leaves
// the input unacknowledged: after ack_wait it is delivered again, maybe on
// another node, and its outputs, published again with the same ids, are
// dropped by JetStream as duplicates (within its two-minute window). A
// failed event is negatively acknowledged with retry_delay; a delivery whose
// count passes max_deliveries goes to NAME.dead instead and is acknowledged.
// Appends outside deliveries carry an id of this node and a counter, and are
// published again (same id) if the broker does not confirm them.
#pragma once

#include <nats/nats.h>

#include <memory>

#include "runtime/cluster/cluster_options.hpp"
#include "runtime/cluster/codec.hpp"
#include "runtime/cluster/counters.hpp"
#include "runtime/cluster/link.hpp"
#include "runtime/cluster/topics.hpp"

namespace humus::rt::cluster {

class JetStreamTopics final : public TopicStore {
 public:
  JetStreamTopics(Runtime& rt, Counters& counters, const ClusterOptions& options, Link& link, NodeId self);
  ~JetStreamTopics() override;

  // Where decoded values find their actors (set before any subscription).
  void attach(AddressBook& book) override;
  void prepare(Topic& t) override;
  void subscribe(const Subscription& s) override;
  void append(std::vector<Append>& values) override;
  void settle(std::unique_ptr<DeliveryTicket> ticket, std::vector<Append>& values) override;
  void abandon(std::unique_ptr<DeliveryTicket> ticket) override;
  void quiesce() override;
  void stop() override;

  struct State;  // shared with fetchers, tickets and publish callbacks

 private:
  std::shared_ptr<State> state_;
};

// natsSubscription_Fetch for at most `want` messages, guarding against a
// bug of libnats 3.4.1 (Debian's; nats.c fixed it in 3.8.3, "Fix heap buffer
// overflow in _fetch"): when c messages already wait in the subscription as
// a fetch for B starts, 0 < c < B, it then asks for B - c and waits until
// it has exactly that many in all; past it, any further message (a stale
// pull request's: answered after a reconnection, or late on a loaded
// machine) is written past the end of its B-entry array. So while anything
// waits, this takes one message (then c = B = 1). With nothing waiting
// (c = 0) a batch is safe, unless more than half of it arrives in the
// microseconds between the look and the fetch's own.
natsStatus fetch_some(natsMsgList* list, natsSubscription* sub, int want, int64_t timeout_ms);

}  // namespace humus::rt::cluster
