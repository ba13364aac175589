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
//
// What leaves is kept until the receiver acknowledges it. Core NATS is at
// most once: across a broker restart the client loses what it wrote to the
// old connection, and what it buffered meanwhile is flushed to the new
// server before the receiver has subscribed again (dropped for lack of
// interest) - all with every publish reported a success. So each chunk to
// a node carries a number (1, 2, 3... per receiver); the receiver takes
// them in order only and says which it has ("ack", wire.hpp). A chunk not
// acknowledged within a second (doubling to 4 s) is sent again, and so is
// everything from a chunk the receiver says went missing. Up to kKeepBytes
// per receiver are kept; past that the oldest are let go, and counted lost
// (and logged) only if the receiver then says they did not arrive.
//
// Once the node has left, what it sent keeps the program alive until it
// is acknowledged, for up to kGiveUpAfter (then it is counted lost and
// logged): so a node's --stats, printed when it is idle, already count it.
// A node that stops without leaving gives the same time in drain().
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "runtime/cluster/counters.hpp"
#include "runtime/cluster/outbox.hpp"

namespace humus::rt::cluster {

class Transport;

class SendQueue {
 public:
  using Clock = std::chrono::steady_clock;
  static constexpr size_t kKeepBytes = 64u << 20;  // per receiver
  static constexpr Clock::duration kResendAfter = std::chrono::seconds(1);
  static constexpr Clock::duration kResendAfterMax = std::chrono::seconds(4);
  static constexpr Clock::duration kGiveUpAfter = std::chrono::seconds(2);
  struct Hold {  // keeps the program alive (Runtime::hold, release_hold)
    std::function<void()> take, release;
  };

  SendQueue(Transport& link, Counters& counters, NodeId self, size_t header_bytes, size_t chunk_bytes, Hold hold)
      : link_(link),
        counters_(counters),
        self_(self),
        header_bytes_(header_bytes),
        chunk_bytes_(chunk_bytes),
        hold_(std::move(hold)) {}

  // Takes a turn's messages to one node (t's chunks, each starting with a
  // header of header_bytes), after those already queued for it; chunks are
  // joined up to chunk_bytes.
  void put(Outbox::ToNode& t);
  // Publishes everything queued, in order. Cheap when the queue is empty.
  void send();
  bool empty() const { return !pending_.load(std::memory_order_acquire); }

  // Node `from` has every chunk before `next`; with `resend` it asks for
  // the rest again (it saw a later one).
  void acked(NodeId from, uint64_t next, bool resend);
  // Sends again what has waited too long for its acknowledgement (the
  // cluster's ticker calls this a few times a second).
  void tick(Clock::time_point now);
  // The node is down: what it has not acknowledged is forgotten (messages
  // in flight to a node that dies are lost, docs/distribution.md).
  void forget(NodeId id);
  // The node has left: from now on unacknowledged messages hold the
  // program, for up to kGiveUpAfter each.
  void leaving();
  // When stopping: waits up to kGiveUpAfter for every acknowledgement; what
  // is still unacknowledged then is counted lost and logged.
  void drain();

 private:
  struct Sent {
    uint64_t seq;
    std::string bytes;
    uint64_t count;  // messages in it
  };
  struct Peer {
    std::shared_ptr<Node> node;
    uint64_t next_seq = 1;
    uint64_t floor = 1;        // chunks before this that were not acknowledged are given up (counted lost)
    std::deque<Sent> unacked;  // sent, kept to send again
    // Sent and let go (over kKeepBytes), not yet acknowledged: (seq, count).
    std::deque<std::pair<uint64_t, uint64_t>> let_go;
    size_t bytes = 0;                 // of unacked
    Clock::time_point waiting_since;  // for resending
    Clock::time_point progress_at;    // for giving up (after leaving)
    Clock::duration resend_after = kResendAfter;
    uint64_t asked = 0;  // the last resend a receiver asked for, and when
    Clock::time_point asked_at;
    bool warned_full = false;
    uint64_t gave_up = 0;  // let-go chunks given up unasked
  };

  // All with send_mutex_ held.
  void resend(Peer& p, const char* why);
  void lose(Peer& p, uint64_t messages, const char* why);
  void give_up(Peer& p, const char* why);
  bool settled() const;
  // Whether the hold should be released now (then done with send_mutex_ not held).
  bool unhold();
  void hold_if_left();

  Transport& link_;
  Counters& counters_;
  const NodeId self_;
  const size_t header_bytes_, chunk_bytes_;
  std::atomic<bool> pending_{false};
  std::mutex queue_mutex_;             // guards nodes_
  std::vector<Outbox::ToNode> nodes_;  // (their count is not used)
  // Held while publishing: a second sender waits, so batches taken from
  // the queue leave in the order they were taken. Also guards peers_.
  std::mutex send_mutex_;
  std::unordered_map<NodeId, Peer> peers_;
  std::condition_variable settled_;  // with send_mutex_: for drain
  const Hold hold_;
  bool left_ = false;
  Clock::time_point left_at_;
  bool holding_ = false;
};

}  // namespace humus::rt::cluster
