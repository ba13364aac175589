#include "runtime/cluster/cluster.hpp"

#include <unistd.h>
#include <algorithm>

#include <spdlog/spdlog.h>

#include "runtime/cluster/cluster_actor.hpp"
#include "runtime/cluster/codec.hpp"
#include "runtime/cluster/memory_topics.hpp"
#include "runtime/cluster/wire.hpp"
#include "runtime/runtime.hpp"
#include "runtime/symbols.hpp"
#include "runtime/text.hpp"
#include "runtime/thread_owned.hpp"

namespace humus::rt::cluster {

namespace {

// Acknowledgements go out at least this often, and after every kAckEvery chunks taken.
constexpr auto kTick = std::chrono::milliseconds(100);
constexpr uint32_t kAckEvery = 16;
// A receiver that sees a gap asks for the rest again, once per this.
constexpr auto kAskAgain = std::chrono::milliseconds(500);

std::string default_node_name(bool joined) {
  if (!joined) return "local";
  char host[256] = {0};
  if (gethostname(host, sizeof host - 1) != 0) host[0] = 0;
  return std::string(*host ? host : "node") + "-" + std::to_string(getpid());
}

}  // namespace

Cluster::Cluster(Runtime& rt, const ClusterOptions& options, const Connect& connect)
    : rt_(rt), options_(options), names_(rt) {
  // The humus command checks its option; an embedding host's value is checked here.
  if (options_.topic_replicas < 1 || options_.topic_replicas > kMaxTopicReplicas)
    throw ClusterError("topic_replicas must be from 1 to " + std::to_string(kMaxTopicReplicas) + ", not " +
                       std::to_string(options_.topic_replicas));
  const bool join = !options_.url.empty();
  const NodeId self = random_node_id();
  std::string name = options_.node.empty() ? default_node_name(join) : options_.node;
  members_ = std::make_unique<Membership>(rt_, self, name, options_.name, options_.down_after_ms);
  if (join) {
    if (!connect) throw ClusterError("cannot join a cluster: this build has no NATS client");
    Broker broker =
        connect(rt_, counters_, options_, "humus " + name,
                Transport::Events{[this] { members_->disconnected(); }, [this] { members_->reconnected(); }}, self);
    link_ = std::move(broker.transport);
    topics_ = std::move(broker.topics);
    registry_ = std::make_unique<Registry>(rt_, *members_, *topics_);
    topics_->attach(*registry_);
  } else {
    topics_ = std::make_unique<MemoryTopics>(rt_, counters_, options_);
    registry_ = std::make_unique<Registry>(rt_, *members_, *topics_);
  }
  wire::put_messages_header(messages_header_, self);
  define_cluster_actor(rt_, *this);
  if (!join) return;

  sends_ = std::make_unique<SendQueue>(*link_, counters_, self, messages_header_.size(), chunk_bytes(),
                                       SendQueue::Hold{[this] { rt_.hold(); }, [this] { rt_.release_hold(); }});

  broadcast_subject_ = options_.name + ".ctl";
  // NATS's threads and ours: memory running out there stops the run (an
  // exception must not cross libnats's C frames, nor end a thread).
  link_->subscribe(members_->self()->subject,
                   [this](const char* d, size_t n) { rt_.stop_if_out_of_memory([&] { on_inbox(d, n); }); });
  link_->subscribe(broadcast_subject_,
                   [this](const char* d, size_t n) { rt_.stop_if_out_of_memory([&] { on_broadcast(d, n); }); });
  rt_.hold();  // a joined node lives until it leaves
  held_ = true;
  heartbeat_ = std::thread([this] { rt_.stop_if_out_of_memory([this] { heartbeat_main(); }); });
  spdlog::info("cluster: node {} ({}) joined {} at {}", name, node_hex(self), options_.name, redact_urls(options_.url));
}

Cluster::~Cluster() { stop(); }

void Cluster::stop() {
  {
    std::lock_guard lock(mutex_);
    if (stopping_) return;
    stopping_ = true;
  }
  topics_->stop();
  // While the heartbeat thread still acknowledges and resends.
  if (sends_) sends_->drain();
  {
    std::lock_guard lock(mutex_);
    stopped_ = true;
  }
  wake_.notify_all();
  if (heartbeat_.joinable()) heartbeat_.join();
  if (link_) link_->close();  // no callback runs after this
  bool held;
  {
    std::lock_guard lock(mutex_);
    held = held_;
    held_ = false;
  }
  if (held) rt_.release_hold();
  members_->clear();
  names_.clear();
  registry_->clear();
  topics_->clear();
}

void Cluster::leave() {
  bool held;
  {
    std::lock_guard lock(mutex_);
    if (left_ || stopping_) return;
    left_ = true;
    held = held_;
    held_ = false;
  }
  wake_.notify_all();  // no more heartbeats
  topics_->quiesce();
  if (link_) {
    sends_->leaving();  // what turns sent before this goes before the goodbye, and holds the program
    std::string bye;
    wire::put_header(bye, wire::Kind::Bye, members_->self()->id);
    broadcast(bye);
    spdlog::info("cluster: node {} left", node_name());
  }
  if (held) rt_.release_hold();  // the program ends once it is idle
}

// ------------------------------------------------------------ the cluster actor's requests

void Cluster::publish(const std::string& name, const Value& actor) {
  const uint64_t stamp = publication_stamp();
  const NodeId self = members_->self()->id;
  names_.learn(name, {actor, stamp, self});
  if (!link_) return;
  std::string bytes;
  wire::put_publish(bytes, self, name, stamp);
  encode_value(bytes, actor, *registry_);  // an actor always encodes
  broadcast(bytes);
}

Value Cluster::lookup(const std::string& name, const Value& cust) { return names_.lookup(name, cust); }

void Cluster::monitor(const Value& cust, const Value& actor) {
  // Local actors and topics live as long as this node: nothing to watch.
  if (const std::shared_ptr<Node>* node = Registry::node_of(*actor.as<Actor>())) members_->monitor(*node, cust, actor);
}

Value Cluster::topic(const std::string& name) {
  Topic& t = topics_->topic(name);
  try {
    topics_->prepare(t);
  } catch (const ClusterError& e) {
    runtime_error({}, e.what());
  }
  return t.actor;
}

// ------------------------------------------------------------------ commit

Outbox& Cluster::outbox(Context& cx) {
  if (!cx.remote) {
    auto out = std::make_unique<Outbox>();
    out->chunk_bytes = chunk_bytes();
    cx.remote = std::move(out);
  }
  return static_cast<Outbox&>(*cx.remote);
}

// What one NATS message may carry: a broker configured with a max_payload
// below Outbox::kChunkBytes refuses bigger ones (they would be lost).
size_t Cluster::chunk_bytes() const {
  if (!link_ || link_->max_payload() <= 0) return Outbox::kChunkBytes;
  return std::min(Outbox::kChunkBytes, size_t(link_->max_payload()));
}

void Cluster::stage_message(Outbox& out, Actor& target, const Value& message, uint64_t& dropped) {
  const ClusterCode& code = ClusterCode::of(target);
  if (code.kind == ClusterCode::Kind::Topic) {
    Topic& topic = static_cast<const TopicCode&>(code).topic;
    // (#subscribe, group, actor): a subscription, not a value.
    static const uint32_t subscribe = intern_symbol("subscribe");
    if (message.is_pair() && head(message).is_symbol() && head(message).symbol_id() == subscribe &&
        tail(message).is_pair() && tail(tail(message)).is_actor()) {
      if (auto group = name_text(head(tail(message)))) {
        out.subscriptions.push_back({&topic, *group, tail(tail(message))});
        return;
      }
    }
    Append a{&topic, Value(), std::string()};
    if (link_) {
      encode_value(a.bytes, message, *registry_);
    } else {
      CheckingBook check;  // the same values cross as with a broker
      out.scratch.clear();
      encode_value(out.scratch, message, check);
      a.value = message;
    }
    out.appends.push_back(std::move(a));
    return;
  }
  const auto& remote = static_cast<const RemoteCode&>(code);
  if (remote.node->is_down()) {
    ++dropped;
    return;
  }
  out.scratch.clear();
  encode_token(out.scratch, remote.address.token);
  encode_value(out.scratch, message, *registry_);
  if (link_ && int64_t(out.scratch.size() + messages_header_.size()) > link_->max_payload())
    throw EncodeError{"a message of " + std::to_string(out.scratch.size()) + " bytes is more than the broker takes (" +
                      std::to_string(link_->max_payload()) + ")"};
  out.add(out.to(remote.node), messages_header_);
}

void Cluster::stage(Context& cx) {
  Effects& fx = cx.fx;
  Outbox& out = outbox(cx);
  uint64_t dropped = 0;
  if (fx.foreign) {
    out.mark();
    try {
      for (const auto& r : fx.runs) {
        if (!r.target->foreign()) continue;
        for (Message* m = r.first; m; m = m->next.load(std::memory_order_relaxed)) {
          if (!m->is_batch()) {
            stage_message(out, *r.target, m->payload, dropped);
            continue;
          }
          auto* b = static_cast<Batch*>(m);
          for (uint32_t i = b->taken; i < b->count; ++i) stage_message(out, *r.target, b->items()[i], dropped);
        }
      }
    } catch (const EncodeError& e) {
      out.undo();
      // Reported where the sending behavior is (the SEND's own place is not known at commit).
      SourceLoc at;
      if (cx.self && cx.self->behavior.is(ObjKind::Closure)) at = cx.self->behavior.as<Closure>()->code->loc;
      runtime_error(at, "cannot send: " + e.message);
    } catch (...) {
      out.undo();
      throw;
    }
    // The foreign runs are the outbox's now: out of the event's effects.
    size_t kept = 0;
    for (auto& r : fx.runs) {
      if (!r.target->foreign()) {
        fx.runs[kept++] = r;
        continue;
      }
      for (Message* m = r.first; m;) {
        Message* next = m->next.load(std::memory_order_relaxed);
        free_message(m);
        m = next;
      }
      r.target->release();
    }
    fx.runs.resize(kept);
    fx.foreign = false;
  }
  if (dropped) {
    Counters::add(counters_.dropped, dropped);
    spdlog::debug("cluster: dropped {} messages to actors of nodes that are down", dropped);
  }
  for (const auto& t : out.nodes)
    if (t.count) cx.must_flush = true;
}

void Cluster::release(Context& cx) {
  Outbox& out = outbox(cx);
  for (const auto& s : out.subscriptions) {
    try {
      topics_->prepare(*s.topic);
      topics_->subscribe(s);
    } catch (const ClusterError& e) {
      spdlog::error("cluster: subscribing to topic {}: {}", s.topic->name, e.what());
    }
  }
  out.subscriptions.clear();
  if (cx.delivery && cx.delivery->ticket)
    topics_->settle(std::move(cx.delivery->ticket), out.appends);
  else if (!out.appends.empty())
    topics_->append(out.appends);
  out.appends.clear();
}

void Cluster::abandon(Context& cx) {
  if (cx.delivery && cx.delivery->ticket) topics_->abandon(std::move(cx.delivery->ticket));
}

void Cluster::flush(Context& cx) {
  cx.must_flush = false;
  if (!cx.remote) return;
  Outbox& out = static_cast<Outbox&>(*cx.remote);
  for (auto& t : out.nodes) {
    if (!t.count) continue;
    if (t.node->is_down() || !link_) {
      Counters::add(counters_.dropped, t.count);
    } else {
      // Counted before the bytes leave: a reply may come back (and a host
      // read the stats) before they are published.
      Counters::add(counters_.sent, t.count);
      sends_->put(t);
    }
    t.chunks.clear();
    t.counts.clear();
    t.count = 0;
  }
}

void Cluster::send_queued() {
  if (sends_) sends_->send();
}

// ------------------------------------------------------------------ incoming

void Cluster::reject(const std::string& why) {
  uint64_t n = counters_.rejected.fetch_add(1, std::memory_order_relaxed);
  // Logged, but a flood of bad input must not become a flood of log lines.
  if (n < 10 || n % 1000 == 0) spdlog::warn("cluster: rejected input from the wire: {} ({} so far)", why, n + 1);
}

void Cluster::broadcast(const std::string& bytes) {
  if (link_) link_->publish(broadcast_subject_, bytes.data(), bytes.size());
}

void Cluster::on_broadcast(const char* data, size_t len) {
  size_t off = 0;
  wire::Header h;
  std::string error;
  if (!wire::read_header(data, len, off, h, error)) return reject(error);
  if (h.from == members_->self()->id) return;
  if (declared_down_.load(std::memory_order_acquire) || stalled(std::chrono::steady_clock::now())) return;
  if (h.kind != wire::Kind::Bye && silent_down(h.from)) return;
  switch (h.kind) {
    case wire::Kind::Heartbeat:
      return heard_from(h.from, h.name);
    case wire::Kind::Bye:
      if (members_->mark_down(h.from)) node_down(h.from);
      return;
    case wire::Kind::Publish: {
      members_->node(h.from);
      Value actor = decode_value(data, len, off, *registry_, error);
      if (actor.empty() || !actor.is_actor()) return reject(error.empty() ? "a publication of a non-actor" : error);
      names_.learn(h.name, {std::move(actor), h.stamp, h.from});
      return;
    }
    default:
      return reject("a message meant for one node, broadcast");
  }
}

void Cluster::on_inbox(const char* data, size_t len) {
  size_t off = 0;
  wire::Header h;
  std::string error;
  if (!wire::read_header(data, len, off, h, error)) return reject(error);
  // Told by a node this one has found down itself, the telling does not
  // count: both sides of a healed partition find each other down, and each
  // stopping for the other's word would end the whole cluster. They stay
  // dead to each other instead (each takes nothing from the other).
  if (h.kind == wire::Kind::Down && !members_->node(h.from)->is_down())
    return declared_down(
        fmt::format("node {} has declared this node down (it heard nothing from it for longer than "
                    "its --down-after-ms)",
                    members_->name_of(h.from)));
  // Nothing more is taken once this node is down, nor from a node down here.
  if (declared_down_.load(std::memory_order_acquire) || stalled(std::chrono::steady_clock::now())) return;
  if (silent_down(h.from)) return;
  switch (h.kind) {
    case wire::Kind::Down:
      return;  // from a node that said goodbye (above)
    case wire::Kind::Messages:
      if (take_chunk(h.from, h.seq)) receive_messages(data, len, off);
      return;
    case wire::Kind::Ack:
      if (sends_) sends_->acked(h.from, h.seq, h.resend);
      return;
    case wire::Kind::Skip:
      return skip_to(h.from, h.seq);
    case wire::Kind::Heartbeat:
      return heard_from(h.from, h.name);
    case wire::Kind::Names:
      return receive_names(data, len, off, h.from);
    default:
      return reject("a broadcast sent to one node");
  }
}

namespace {
ThreadOwned<Effects> receive_effects;  // each receiving thread's, reused (not a thread_local: thread_owned.hpp)
}  // namespace

// Chunks from one sender are taken in order, each once: a duplicate (sent
// again) is dropped, and so is one after a gap, which asks for the rest again.
bool Cluster::take_chunk(NodeId from, uint64_t seq) {
  std::string reply;
  bool take = false;
  {
    std::lock_guard lock(incoming_mutex_);
    Incoming& in = incoming_[from];
    if (seq == in.expected) {
      take = true;
      ++in.expected;
      if (++in.fresh >= kAckEvery) {
        wire::put_ack(reply, members_->self()->id, in.expected, false);
        in.told = in.expected;
        in.fresh = 0;
        in.owed = false;
      }
    } else if (seq < in.expected) {
      in.owed = true;
    } else {
      const auto now = std::chrono::steady_clock::now();
      if (in.asked != in.expected || now - in.asked_at >= kAskAgain) {
        wire::put_ack(reply, members_->self()->id, in.expected, true);
        in.asked = in.expected;
        in.asked_at = now;
        spdlog::info("cluster: messages from node {} went missing (expected NATS message {}, got {}): asked again",
                     node_hex(from), in.expected, seq);
      }
    }
  }
  if (!reply.empty()) link_->publish(members_->inbox(from), reply.data(), reply.size());
  return take;
}

// The sender cannot send again what we missed before `to` (it counts it lost).
void Cluster::skip_to(NodeId from, uint64_t to) {
  std::lock_guard lock(incoming_mutex_);
  Incoming& in = incoming_[from];
  if (to <= in.expected) return;
  spdlog::error("cluster: NATS messages {} to {} from node {} did not arrive and cannot be sent again (lost)",
                in.expected, to - 1, node_hex(from));
  in.expected = to;
  in.owed = true;
}

void Cluster::send_acks() {
  std::vector<std::pair<NodeId, uint64_t>> due;
  {
    std::lock_guard lock(incoming_mutex_);
    for (auto& [id, in] : incoming_) {
      if (!in.owed && in.told == in.expected) continue;
      due.emplace_back(id, in.expected);
      in.told = in.expected;
      in.fresh = 0;
      in.owed = false;
    }
  }
  std::string ack;
  for (const auto& [id, next] : due) {
    ack.clear();
    wire::put_ack(ack, members_->self()->id, next, false);
    link_->publish(members_->inbox(id), ack.data(), ack.size());
  }
}

void Cluster::receive_messages(const char* data, size_t len, size_t off) {
  // Consecutive messages to one actor go into its mailbox as one chain, in
  // batches, as an event's sends do (Effects); this thread's buffer is reused.
  Effects& fx = receive_effects.get();
  struct Clear {  // out of memory half way: what was decoded goes (the run stops)
    Effects& fx;
    ~Clear() { fx.clear(); }
  } clear{fx};
  std::string error;
  Value target;
  Token last_token;
  while (off < len) {
    Token token;
    if (!decode_token(data, len, off, token, error)) {
      reject(error);
      break;
    }
    Value v = decode_value(data, len, off, *registry_, error);
    if (v.empty()) {
      reject(error);
      break;  // the rest cannot be found any more
    }
    if (target.empty() || !(token == last_token)) {
      target = registry_->exported(token);
      last_token = token;
    }
    if (target.empty()) {
      reject("a message to an unknown actor");
      continue;
    }
    fx.send(target.as<Actor>(), std::move(v));
  }
  // Counted before the messages reach their mailboxes, so that stats read
  // after any effect of these messages already include them.
  uint64_t count = 0;
  for (const auto& r : fx.runs) count += r.count;
  Counters::add(counters_.received, count);
  bool ran_here = false;
  for (auto& r : fx.runs) {
    ran_here |= rt_.send_chain(r.target, r.first, r.last, r.count);
    r.first = nullptr;  // the mailbox has them; clear() releases the target
  }
  // What the turns run here sent leaves together (answers to many senders
  // share NATS messages).
  if (ran_here) send_queued();
}

void Cluster::receive_names(const char* data, size_t len, size_t off, NodeId from) {
  members_->node(from);
  std::string error, name;
  while (off < len) {
    uint64_t stamp = 0;
    if (!wire::read_name_entry(data, len, off, name, stamp, error)) return reject(error);
    Value actor = decode_value(data, len, off, *registry_, error);
    if (actor.empty() || !actor.is_actor()) return reject(error.empty() ? "a name for a non-actor" : error);
    names_.learn(name, {std::move(actor), stamp, from});
  }
}

void Cluster::heard_from(NodeId id, const std::string& name) {
  if (members_->heard(id, name)) {
    spdlog::info("cluster: node {} ({}) is up", name, node_hex(id));
    introduce(id);
  }
}

// A node we had not heard of: tell it who we are and the names we hold.
void Cluster::introduce(NodeId to) {
  const NodeId self = members_->self()->id;
  const std::string subject = members_->inbox(to);
  std::string hb;
  wire::put_heartbeat(hb, self, node_name(), false);
  link_->publish(subject, hb.data(), hb.size());
  auto held = names_.held_by(self);
  if (held.empty()) return;
  std::string names;
  wire::put_header(names, wire::Kind::Names, self);
  for (const auto& [name, e] : held) {
    wire::put_name_entry(names, name, e.stamp);
    encode_value(names, e.actor, *registry_);
  }
  link_->publish(subject, names.data(), names.size());
}

void Cluster::node_down(NodeId id) {
  spdlog::info("cluster: node {} is down", node_hex(id));
  names_.forget(id);
  if (sends_) sends_->forget(id);
}

bool Cluster::silent_down(NodeId id) {
  if (!members_->any_silent()) return false;  // the common case: no lock, no lookup per NATS message
  std::shared_ptr<Node> n = members_->node(id);
  if (!n->is_down() || !n->silent.load(std::memory_order_relaxed)) return false;
  const int64_t now = std::chrono::steady_clock::now().time_since_epoch().count();
  int64_t told = n->told.load(std::memory_order_relaxed);
  if (now - told >= std::chrono::nanoseconds(std::chrono::seconds(1)).count() &&
      n->told.compare_exchange_strong(told, now, std::memory_order_relaxed)) {
    std::string down;
    wire::put_header(down, wire::Kind::Down, members_->self()->id);
    if (link_) link_->publish(n->subject, down.data(), down.size());
    spdlog::info("cluster: node {} was found down here and is heard from again: told so", node_hex(id));
  }
  return true;
}

bool Cluster::stalled(std::chrono::steady_clock::time_point now) {
  const int64_t last = last_round_.load(std::memory_order_acquire);
  if (last == 0) return false;
  // A round is due every tick (heartbeat_main): only a gap longer than
  // down_after beyond that is a stall.
  const auto since = now.time_since_epoch() - std::chrono::steady_clock::duration(last);
  const auto tick =
      std::min<std::chrono::steady_clock::duration>(std::chrono::milliseconds(options_.heartbeat_ms), kTick);
  if (since <= std::chrono::milliseconds(options_.down_after_ms) + tick) return false;
  declared_down(
      fmt::format("this node was stalled for {} ms, longer than --down-after-ms {}: the other nodes have "
                  "found it down",
                  std::chrono::duration_cast<std::chrono::milliseconds>(since).count(), options_.down_after_ms));
  return true;
}

void Cluster::declared_down(const std::string& why) {
  {
    std::lock_guard lock(mutex_);
    if (stopping_ || declared_down_.exchange(true, std::memory_order_acq_rel)) return;
  }
  spdlog::error("cluster: {}; this node stops: its actors are dead to the others, and it takes nothing more from them",
                why);
  rt_.stop_for_limit(LimitKind::DeclaredDown);
  leave();
}

// Heartbeats until the node leaves; acknowledgements and resends until it
// stops (a node that has left still takes and sends what is in flight).
void Cluster::heartbeat_main() {
  using Clock = Membership::Clock;
  const Clock::duration beat_every = std::chrono::milliseconds(options_.heartbeat_ms);
  const Clock::duration tick = std::min<Clock::duration>(beat_every, kTick);
  bool first = true;
  Clock::time_point next_beat = Clock::now();
  std::unique_lock lock(mutex_);
  while (!stopped_) {
    const bool beat = !left_ && Clock::now() >= next_beat;
    lock.unlock();
    const Clock::time_point now = Clock::now();
    // Its own stall is no silence of the others: none is found down for it.
    const bool was_stalled = stalled(now);
    last_round_.store(now.time_since_epoch().count(), std::memory_order_release);
    if (beat && !was_stalled) {
      std::string hb;
      wire::put_heartbeat(hb, members_->self()->id, node_name(), first);
      broadcast(hb);
      first = false;
      for (NodeId id : members_->expire(now)) node_down(id);
      next_beat = now + beat_every;
    }
    send_acks();
    sends_->tick(now);
    lock.lock();
    wake_.wait_for(lock, tick, [this] { return stopped_; });
  }
}

}  // namespace humus::rt::cluster
