// Messages to other nodes on their way out: what actors' turns sent, in
// the order the turns ended, until a worker has nothing else to run (or
// has run Dispatcher::kTurnsPerSend turns, or a long event reaches a safe
// point).
//
// Publishing at the end of every turn made one NATS message per turn: with
// many actors each sending one message (64 clients with a request each in
// flight), one write to the broker per message. Held here until the worker
// is between jobs, the turns' messages to one node share NATS messages.
// Order per sender is kept: a turn's messages are queued before its actor
// can run again, on any worker, and the queue leaves in order.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "runtime/cluster/counters.hpp"
#include "runtime/cluster/outbox.hpp"

namespace humus::rt::cluster {

class Link;

class SendQueue {
 public:
  SendQueue(Link& link, Counters& counters, size_t header_bytes, size_t chunk_bytes)
      : link_(link), counters_(counters), header_bytes_(header_bytes), chunk_bytes_(chunk_bytes) {}

  // Takes a turn's messages to one node (t's chunks, each starting with a
  // header of header_bytes), after those already queued for it; chunks are
  // joined up to chunk_bytes.
  void put(Outbox::ToNode& t);
  // Publishes everything queued, in order. Cheap when the queue is empty.
  void send();
  bool empty() const { return !pending_.load(std::memory_order_acquire); }

 private:
  Link& link_;
  Counters& counters_;
  const size_t header_bytes_, chunk_bytes_;
  std::atomic<bool> pending_{false};
  std::mutex queue_mutex_;             // guards nodes_
  std::vector<Outbox::ToNode> nodes_;  // (their count is not used)
  // Held while publishing: a second sender waits, so batches taken from
  // the queue leave in the order they were taken.
  std::mutex send_mutex_;
};

}  // namespace humus::rt::cluster
