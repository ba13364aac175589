// The cluster: this node's part in a world of Humus processes, and the
// global actor `cluster` through which programs see it (docs/distribution.md).
//
// Without a URL the cluster is this process alone: names and monitors work
// locally, topics live in memory (memory_topics.hpp), nothing leaves the
// process. With one (--cluster nats://...) the node joins through NATS:
//
//   <name>.ctl            broadcast: heartbeats, goodbyes, publications
//   <name>.node.<id>      this node's inbox: messages to its actors (numbered
//                         and acknowledged: send_queue.hpp), and
//                         introductions from the others
//   JetStream streams     topics (jetstream_topics.hpp)
//
// The broker is reached through broker.hpp's Transport and TopicStore, made
// by the host's Connect (nats_broker.hpp).
//
// Messages to remote actors leave at commit (stage, then release: see
// runtime/foreign.hpp), are queued at the end of the sending actor's turn,
// batched per destination node (outbox.hpp), and go out when a worker is
// between jobs (send_queue.hpp). A joined node keeps the
// program alive until it leaves (`SEND #leave TO cluster`, or a signal).
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include "runtime/cluster/broker.hpp"
#include "runtime/cluster/cluster_options.hpp"
#include "runtime/cluster/counters.hpp"
#include "runtime/cluster/membership.hpp"
#include "runtime/cluster/names.hpp"
#include "runtime/cluster/outbox.hpp"
#include "runtime/cluster/registry.hpp"
#include "runtime/cluster/send_queue.hpp"
#include "runtime/cluster/topics.hpp"
#include "runtime/foreign.hpp"

namespace humus::rt {
class Runtime;
}

namespace humus::rt::cluster {

class Cluster final : public Distribution {
 public:
  // Defines the global `cluster`; joins through `connect` when options.url
  // is set (throws ClusterError when it cannot, or when there is no connect).
  Cluster(Runtime& rt, const ClusterOptions& options, const Connect& connect = nullptr);
  ~Cluster() override;
  Cluster(const Cluster&) = delete;
  Cluster& operator=(const Cluster&) = delete;

  // Stops the threads and the connection and forgets every actor; for the
  // runtime's stop. Idempotent.
  void stop() override;
  // Leaves the cluster: says goodbye and stops keeping the program alive.
  void leave() override;
  ClusterStats stats() const override { return counters_.snapshot(); }
  bool joined() const { return link_ != nullptr; }
  const std::string& node_name() const { return members_->self()->name; }

  // What the `cluster` actor asks for (cluster_actor.cpp), from its events.
  void publish(const std::string& name, const Value& actor);
  Value lookup(const std::string& name, const Value& cust);  // empty: answered later
  void monitor(const Value& cust, const Value& actor);
  std::vector<std::string> nodes() const { return members_->live_names(); }
  Value topic(const std::string& name);  // throws EventError when its stream cannot be made

  // Distribution (runtime/foreign.hpp).
  void stage(Context& cx) override;
  void release(Context& cx) override;
  void abandon(Context& cx) override;
  void flush(Context& cx) override;
  void send_queued() override;

 private:
  Outbox& outbox(Context& cx);
  size_t chunk_bytes() const;
  void stage_message(Outbox& out, Actor& target, const Value& message, uint64_t& dropped);
  void on_broadcast(const char* data, size_t len);
  void on_inbox(const char* data, size_t len);
  void receive_messages(const char* data, size_t len, size_t off);
  void receive_names(const char* data, size_t len, size_t off, NodeId from);
  void heard_from(NodeId id, const std::string& name);
  void introduce(NodeId to);
  void node_down(NodeId id);
  bool take_chunk(NodeId from, uint64_t seq);
  void skip_to(NodeId from, uint64_t to);
  void send_acks();
  void heartbeat_main();
  // This node learns that the others have found it down (it was stalled
  // or cut off for longer than --down-after-ms): it stops the run
  // (LimitKind::DeclaredDown) and leaves, rather than carry on as if
  // nothing had happened; `why` goes to the log. Once only.
  void declared_down(const std::string& why);
  // Whether this process was stalled (SIGSTOP, a long pause) for longer
  // than down_after: its heartbeat thread has not run since, so it sent no
  // heartbeat either, and the others have found it down (declared_down).
  bool stalled(std::chrono::steady_clock::time_point now);
  // Whether node `id` is down for its silence here; it is told so, at most
  // once a second, so that it stops (it may not know: a stall, a cut).
  bool silent_down(NodeId id);
  void reject(const std::string& why);
  void broadcast(const std::string& bytes);

  Runtime& rt_;
  const ClusterOptions options_;
  Counters counters_;
  std::unique_ptr<Membership> members_;
  std::unique_ptr<TopicStore> topics_;
  std::unique_ptr<Registry> registry_;
  Names names_;
  std::unique_ptr<Transport> link_;   // null: this process alone
  std::unique_ptr<SendQueue> sends_;  // with link_
  std::string broadcast_subject_;
  std::string messages_header_;  // starts every chunk of messages from this node

  // What this node has taken of each sender's numbered chunks (send_queue.hpp).
  struct Incoming {
    uint64_t expected = 1;  // the next chunk to take
    uint64_t told = 1;      // `expected` as last acknowledged
    uint32_t fresh = 0;     // chunks taken since
    bool owed = false;      // a duplicate came: the sender waits for an acknowledgement
    uint64_t asked = 0;     // the last resend asked for, and when
    std::chrono::steady_clock::time_point asked_at;
  };
  std::mutex incoming_mutex_;
  std::unordered_map<NodeId, Incoming> incoming_;

  std::thread heartbeat_;  // heartbeats, acknowledgements and resends
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  bool stopped_ = false;  // the heartbeat thread ends
  bool left_ = false;
  bool held_ = false;                   // the program is kept alive while joined
  std::atomic<int64_t> last_round_{0};  // the heartbeat thread's last round (steady-clock ns; 0: none yet)
  std::atomic<bool> declared_down_{false};
};

}  // namespace humus::rt::cluster
