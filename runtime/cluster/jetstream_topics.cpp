#include "runtime/cluster/jetstream_topics.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <thread>
#include <unordered_map>

#include "runtime/runtime.hpp"

namespace humus::rt::cluster {

namespace {

using Clock = std::chrono::steady_clock;

// Deliveries a node takes from a group per member present here.
constexpr size_t kWindowPerMember = 4;
constexpr int kMaxPublishAttempts = 10;
constexpr int64_t kPublishWaitMs = 5000;
// A publish that has heard nothing this long after its own wait ran out is
// given up as failed (and tried again), whatever the client library does:
// an answer lost while a stream's leader changes must not hold the program
// for good (a consumer hung at exit after a failover, issue 33).
constexpr auto kPublishGiveUp = std::chrono::milliseconds(kPublishWaitMs + 2000);
constexpr const char* kMsgIdHeader = "Nats-Msg-Id";  // JetStream's de-duplication header
// While the servers elect a leader (one died) or lack a quorum, JetStream's
// API does not answer: making a stream or a group is tried again for this
// long before the event that asked fails (issue 33).
constexpr auto kApiPatience = std::chrono::seconds(30);

// An answer that may change once the servers have a leader again.
bool transient(natsStatus s, jsErrCode code) {
  return s == NATS_TIMEOUT || s == NATS_NO_RESPONDERS || s == NATS_CONNECTION_DISCONNECTED ||
         code == JSClusterNotAvailErr || code == JSClusterNotLeaderErr;
}

// Stream, consumer and subject names allow [A-Za-z0-9_-]: anything else
// (and '_' itself) becomes _XX, so distinct names stay distinct.
std::string escape(std::string_view s) {
  static const char* hex = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : s) {
    if (std::isalnum(c) || c == '-') {
      out += char(c);
    } else {
      out += '_';
      out += hex[c >> 4];
      out += hex[c & 15];
    }
  }
  return out;
}

std::string js_error(natsStatus s, jsErrCode code) {
  std::string text = natsStatus_GetText(s);
  natsStatus ignored;
  if (const char* last = nats_GetLastError(&ignored); last && *last) text += std::string(": ") + last;
  if (code) text += " (JetStream error " + std::to_string(int(code)) + ")";
  // What a newcomer meets first: a server started without JetStream.
  if (code == JSNotEnabledErr || code == JSNotEnabledForAccountErr || s == NATS_NO_RESPONDERS)
    text += "; topics need JetStream: start the server with `nats-server -js`";
  return text;
}

}  // namespace

// ------------------------------------------------------------------ state

struct Feed;

// A delivery being settled: the input is acknowledged once its outputs are stored.
struct Commit {
  natsMsg* input = nullptr;
  std::shared_ptr<Feed> feed;
  size_t outstanding = 0;
  bool failed = false;
};

// One asynchronous publish waiting for the broker's confirmation.
struct Publication {
  std::string topic;  // its name, for messages
  std::string subject;
  std::string bytes;
  std::string id;  // de-duplication id: publishing it again is harmless
  int attempts = 0;
  Clock::time_point sent;          // of the current attempt
  std::string last_error;          // why the last attempt failed, for the log
  std::shared_ptr<Commit> commit;  // null for an append outside a delivery
};

// The fetcher of one group of one topic on this node, and its members here.
struct Feed {
  Topic* topic = nullptr;
  std::string group;
  natsSubscription* sub = nullptr;
  std::mutex mutex;
  std::condition_variable cv;
  std::vector<Value> members;
  size_t turn = 0;
  size_t in_flight = 0;
  bool stopped = false;
  std::thread thread;

  // A delivery is settled (or given up): its slot is free again.
  void done() {
    {
      std::lock_guard lock(mutex);
      if (in_flight) --in_flight;
    }
    cv.notify_one();
  }
};

struct JetStreamTopics::State {
  State(Runtime& r, Counters& c, const ClusterOptions& o, Link& l, NodeId n)
      : rt(r), counters(c), options(o), link(l), self(n) {}
  Runtime& rt;
  Counters& counters;
  const ClusterOptions options;
  Link& link;
  const NodeId self;
  jsCtx* js = nullptr;
  AddressBook* book = nullptr;

  std::mutex mutex;
  bool stopped = false;
  std::set<const Topic*> prepared;
  std::map<std::pair<const Topic*, std::string>, std::shared_ptr<Feed>> feeds;
  std::vector<natsSubscription*> retired;  // the feeds' subscriptions after stop()
  // By id. One id may be pending twice: a delivery redelivered while its
  // first run's outputs are still unanswered publishes the same values with
  // the same ids (the stream keeps one); each entry holds the program once,
  // and each answer settles one of them.
  std::unordered_multimap<std::string, Publication> pending;
  std::deque<std::pair<Clock::time_point, Publication>> retries;
  std::condition_variable retry_cv;
  std::thread retrier;
  std::atomic<uint64_t> next_id{0};

  std::string stream(const Topic& t) const { return escape(options.name) + "_" + escape(t.name); }
  std::string subject(const Topic& t) const { return options.name + ".topic." + escape(t.name); }

  void prepare(const Topic& t);
  // Runs a JetStream API call (`call(code)` -> status) until it answers
  // something other than transient(), for at most kApiPatience; `what` says
  // what for, in the one warning when it must wait.
  template <class Call>
  natsStatus patiently(const std::string& what, jsErrCode& code, Call call);
  void publish(Publication p);
  void finish(Publication& p, bool ok);
  void settle_input(Commit& c);
  void retry_main();
  void give_up_unanswered(std::unique_lock<std::mutex>& lock);
  void feed_main(const std::shared_ptr<Feed>& feed);
  void take(const std::shared_ptr<Feed>& feed, natsMsg* msg);
  void dead_letter(const std::shared_ptr<Feed>& feed, natsMsg* msg, uint64_t seq, const std::string& why);
  static void on_ack(jsCtx*, natsMsg* msg, jsPubAck* pa, jsPubAckErr* pae, void* closure);
  void acked(natsMsg* msg, jsPubAckErr* pae);  // on_ack's work
};

namespace {

struct JsTicket final : DeliveryTicket {
  std::shared_ptr<Feed> feed;
  natsMsg* msg = nullptr;
  uint64_t seq = 0;
  uint64_t delivered = 0;
  // Dropped unsettled (the runtime is stopping): nothing is acknowledged;
  // JetStream delivers it again after ack_wait.
  ~JsTicket() override {
    if (!msg) return;
    natsMsg_Destroy(msg);
    feed->done();
  }
  natsMsg* take() {
    natsMsg* m = msg;
    msg = nullptr;
    return m;
  }
};

}  // namespace

template <class Call>
natsStatus JetStreamTopics::State::patiently(const std::string& what, jsErrCode& code, Call call) {
  const Clock::time_point until = Clock::now() + kApiPatience;
  auto pause = std::chrono::milliseconds(100);
  for (bool warned = false;; pause = std::min(pause * 2, std::chrono::milliseconds(2000))) {
    code = jsErrCode(0);
    const natsStatus s = call(code);
    if (s == NATS_OK || !transient(s, code) || Clock::now() + pause >= until) return s;
    {
      std::lock_guard lock(mutex);
      if (stopped) return s;
    }
    if (!warned) {
      warned = true;
      spdlog::warn("cluster: JetStream did not answer {} ({}); trying again for up to {} s", what, js_error(s, code),
                   kApiPatience.count());
    }
    std::this_thread::sleep_for(pause);
  }
}

void JetStreamTopics::State::prepare(const Topic& t) {
  {
    std::lock_guard lock(mutex);
    if (prepared.count(&t)) return;
  }
  const std::string name = stream(t), subj = subject(t);
  const char* subjects[] = {subj.c_str()};
  jsStreamConfig cfg;
  jsStreamConfig_Init(&cfg);
  cfg.Name = name.c_str();
  cfg.Subjects = subjects;
  cfg.SubjectsLen = 1;
  cfg.Storage = js_FileStorage;
  cfg.Retention = js_LimitsPolicy;  // every group sees every value
  cfg.Replicas = options.topic_replicas;
  jsErrCode code = jsErrCode(0);
  natsStatus s = patiently("making the stream of topic " + t.name, code, [&](jsErrCode& c) {
    jsStreamInfo* si = nullptr;
    natsStatus r = js_AddStream(&si, js, &cfg, nullptr, &c);
    if (si) jsStreamInfo_Destroy(si);
    return r;
  });
  if (s != NATS_OK &&
      (code == JSInsufficientResourcesErr || code == JSClusterNoPeersErr || code == JSStreamReplicasNotSupportedErr)) {
    // Fewer JetStream servers than replicas: say what to do, not just the broker's words.
    throw ClusterError("topic " + t.name + " needs " + std::to_string(options.topic_replicas) +
                       " replicas but the NATS cluster has fewer JetStream servers (" + js_error(s, code) +
                       "): start more servers or lower --topic-replicas");
  }
  if (s != NATS_OK) {
    // Two nodes making the same stream at once: the one that loses may hear
    // "subjects overlap" (10065) rather than "name in use". If the stream is
    // there now, it is the one we wanted (its name is the topic's).
    jsStreamInfo* there = nullptr;
    if (js_GetStreamInfo(&there, js, name.c_str(), nullptr, nullptr) != NATS_OK || !there)
      throw ClusterError("cannot make the stream of topic " + t.name + ": " + js_error(s, code));
    // Made before with another replica count: it is used as it is (changing
    // it is the operator's call: `nats stream edit --replicas`), but said once.
    if (there->Config && there->Config->Replicas != options.topic_replicas)
      spdlog::warn(
          "cluster: topic {} has {} replicas, not the {} asked for: its stream was made before with "
          "another --topic-replicas",
          t.name, there->Config->Replicas, options.topic_replicas);
    jsStreamInfo_Destroy(there);
  }
  std::lock_guard lock(mutex);
  prepared.insert(&t);
}

void JetStreamTopics::State::publish(Publication p) {
  natsMsg* m = nullptr;
  natsStatus s = natsMsg_Create(&m, p.subject.c_str(), nullptr, p.bytes.data(), int(p.bytes.size()));
  // The id goes into the message now (the library copies it), not through
  // jsPubOptions::MsgId: that pointer into p.id dangled once p moved into
  // `pending` (an id of 15 characters or fewer lives inside the string).
  if (s == NATS_OK) s = natsMsgHeader_Set(m, kMsgIdHeader, p.id.c_str());
  jsPubOptions o;
  jsPubOptions_Init(&o);
  o.MaxWait = kPublishWaitMs;  // no answer in time: the handler hears of it, and we retry
  const std::string id = p.id;
  const Publication* mine = nullptr;  // this attempt's entry in `pending`
  {
    std::lock_guard lock(mutex);
    if (stopped) {
      if (m) natsMsg_Destroy(m);
      Counters::add(counters.lost);
      return;
    }
    rt.hold();  // the program is not done while a value is not stored
    ++p.attempts;
    p.sent = Clock::now();
    // The retrier watches for answers that never come: it starts to look
    // again once something is pending (one wake-up, not one a publish).
    if (pending.empty()) retry_cv.notify_one();
    mine = &pending.emplace(id, std::move(p))->second;
  }
  if (s == NATS_OK) s = js_PublishMsgAsync(js, &m, &o);
  if (s == NATS_OK) return;
  if (m) natsMsg_Destroy(m);
  // Not even sent (the connection is down and its buffer full): as a failure.
  std::unique_lock lock(mutex);
  auto [it, end] = pending.equal_range(id);
  while (it != end && &it->second != mine) ++it;
  if (it == end) return;  // already settled (an answer came after all) or given up
  Publication again = std::move(it->second);
  pending.erase(it);
  lock.unlock();
  again.last_error = natsStatus_GetText(s);
  finish(again, false);
}

void JetStreamTopics::State::on_ack(jsCtx*, natsMsg* msg, jsPubAck*, jsPubAckErr* pae, void* closure) {
  auto* st = static_cast<State*>(closure);
  // The handler owns the published message (nats.h, jsPubAckHandler).
  std::unique_ptr<natsMsg, decltype(&natsMsg_Destroy)> own(msg, &natsMsg_Destroy);
  st->rt.stop_if_out_of_memory([&] { st->acked(msg, pae); });  // no exception into libnats
}

void JetStreamTopics::State::acked(natsMsg* msg, jsPubAckErr* pae) {
  State* st = this;
  const char* id = nullptr;
  if (natsMsgHeader_Get(msg, kMsgIdHeader, &id) != NATS_OK || !id) {
    // Every publish carries its id: without it no publication can be settled (its hold would stay).
    spdlog::error("cluster: a topic publish answered without its de-duplication id");
    return;
  }
  std::unique_lock lock(st->mutex);
  auto it = st->pending.find(id);
  if (it == st->pending.end()) return;  // an earlier attempt's late answer
  Publication p = std::move(it->second);
  st->pending.erase(it);
  lock.unlock();
  if (pae) {
    p.last_error = pae->ErrText ? pae->ErrText : natsStatus_GetText(pae->Err);
    spdlog::debug("cluster: publish {} not confirmed: {}", p.id, p.last_error);
  }
  st->finish(p, pae == nullptr);
}

// One attempt of `p` ended (its hold is released here).
void JetStreamTopics::State::finish(Publication& p, bool ok) {
  if (!ok && p.attempts < kMaxPublishAttempts) {
    std::lock_guard lock(mutex);
    if (!stopped) {
      rt.hold();  // still owed
      auto due = Clock::now() + std::chrono::milliseconds(100 << std::min(p.attempts, 5));
      retries.emplace_back(due, std::move(p));
      retry_cv.notify_one();
      rt.release_hold();
      return;
    }
  }
  if (!ok) {
    Counters::add(counters.lost);
    spdlog::error("cluster: a value for topic {} was not stored after {} attempts (the last: {})", p.topic, p.attempts,
                  p.last_error.empty() ? "no answer" : p.last_error);
  }
  if (p.commit) {
    Commit& c = *p.commit;
    bool last;
    {
      std::lock_guard lock(mutex);
      c.failed |= !ok;
      last = --c.outstanding == 0;
    }
    if (last) settle_input(c);
  }
  rt.release_hold();
}

// Every output of the delivery is stored (or one never will be).
void JetStreamTopics::State::settle_input(Commit& c) {
  if (!c.failed) {
    natsMsg_Ack(c.input, nullptr);
  } else {
    natsMsg_NakWithDelay(c.input, options.retry_delay_ms, nullptr);
    Counters::add(counters.redelivered);
  }
  natsMsg_Destroy(c.input);
  c.input = nullptr;
  c.feed->done();
}

void JetStreamTopics::State::retry_main() {
  std::unique_lock lock(mutex);
  Clock::time_point next_look = Clock::now() + kPublishGiveUp;
  while (!stopped) {
    if (Clock::now() >= next_look) {
      give_up_unanswered(lock);
      next_look = Clock::now() + std::chrono::seconds(1);
      continue;
    }
    if (retries.empty()) {
      if (pending.empty())
        retry_cv.wait(lock);
      else
        retry_cv.wait_until(lock, next_look);
      continue;
    }
    auto due = std::min(retries.front().first, next_look);
    if (Clock::now() < due) {
      retry_cv.wait_until(lock, due);
      continue;
    }
    if (Clock::now() < retries.front().first) continue;
    Publication p = std::move(retries.front().second);
    retries.pop_front();
    lock.unlock();
    publish(std::move(p));
    rt.release_hold();  // the retry's own hold; publish took one
    lock.lock();
  }
}

// Publications whose answer is overdue end as failed attempts (`lock` held
// on entry and exit). A late answer finds the next attempt, of the same id,
// which the stream de-duplicates: either settles it.
void JetStreamTopics::State::give_up_unanswered(std::unique_lock<std::mutex>& lock) {
  const Clock::time_point now = Clock::now();
  std::vector<Publication> overdue;
  for (auto it = pending.begin(); it != pending.end();) {
    if (now - it->second.sent >= kPublishGiveUp) {
      overdue.push_back(std::move(it->second));
      it = pending.erase(it);
    } else {
      ++it;
    }
  }
  if (overdue.empty()) return;
  lock.unlock();
  for (Publication& p : overdue) {
    p.last_error = "no answer from the broker";
    finish(p, false);
  }
  lock.lock();
}

// ------------------------------------------------------------------ fetching

natsStatus fetch_some(natsMsgList* list, natsSubscription* sub, int want, int64_t timeout_ms) {
  int waiting = 0;
  if (natsSubscription_GetPending(sub, &waiting, nullptr) != NATS_OK || waiting > 0) want = 1;
  return natsSubscription_Fetch(list, sub, std::max(want, 1), timeout_ms, nullptr);
}

void JetStreamTopics::State::feed_main(const std::shared_ptr<Feed>& feed) {
  uint64_t errors = 0;
  for (;;) {
    int want;
    {
      std::unique_lock lock(feed->mutex);
      feed->cv.wait(lock, [&] {
        return feed->stopped || (!feed->members.empty() && feed->in_flight < kWindowPerMember * feed->members.size());
      });
      if (feed->stopped) return;
      want = int(std::min<size_t>(64, kWindowPerMember * feed->members.size() - feed->in_flight));
    }
    natsMsgList list{};
    natsStatus s = fetch_some(&list, feed->sub, want, 1000);
    if (s == NATS_TIMEOUT) continue;
    if (s != NATS_OK) {
      if (errors++ % 100 == 0)
        spdlog::warn("cluster: fetching from topic {}: {}", feed->topic->name, natsStatus_GetText(s));
      std::unique_lock lock(feed->mutex);
      feed->cv.wait_for(lock, std::chrono::milliseconds(500), [&] { return feed->stopped; });
      continue;
    }
    for (int i = 0; i < list.Count; ++i) {
      take(feed, list.Msgs[i]);
      list.Msgs[i] = nullptr;  // ours now
    }
    natsMsgList_Destroy(&list);
  }
}

void JetStreamTopics::State::take(const std::shared_ptr<Feed>& feed, natsMsg* msg) {
  jsMsgMetaData* meta = nullptr;
  if (natsMsg_GetMetaData(&meta, msg) != NATS_OK) {
    natsMsg_Destroy(msg);
    Counters::add(counters.rejected);
    return;
  }
  const uint64_t seq = meta->Sequence.Stream, delivered = meta->NumDelivered;
  jsMsgMetaData_Destroy(meta);
  {
    std::lock_guard lock(feed->mutex);
    if (feed->stopped) {
      // Fetched as the node was leaving: straight back, for another node.
      natsMsg_Nak(msg, nullptr);
      natsMsg_Destroy(msg);
      return;
    }
    ++feed->in_flight;  // until settled, abandoned or dead-lettered
  }
  if (int64_t(delivered) > options.max_deliveries)
    return dead_letter(feed, msg, seq, "delivered " + std::to_string(delivered - 1) + " times");
  std::string error;
  size_t off = 0;
  const int len = natsMsg_GetDataLength(msg);
  Value v = decode_value(natsMsg_GetData(msg), size_t(len), off, *book, error);
  if (!v.empty() && off != size_t(len)) v = Value(), error = "bytes after the value";
  if (v.empty()) {
    Counters::add(counters.rejected);
    spdlog::warn("cluster: a value of topic {} cannot be read ({}): moved to {}.dead", feed->topic->name, error,
                 feed->topic->name);
    return dead_letter(feed, msg, seq, error);
  }
  auto ticket = std::make_unique<JsTicket>();
  ticket->feed = feed;
  ticket->msg = msg;
  ticket->seq = seq;
  ticket->delivered = delivered;
  Value member;
  {
    std::lock_guard lock(feed->mutex);
    member = feed->members[feed->turn++ % feed->members.size()];
  }
  Counters::add(counters.delivered);
  rt.send(member, Value::adopt(new Envelope(std::move(v), std::move(ticket))));
}

// The input goes to NAME.dead as it is (bytes), and is acknowledged once stored there.
void JetStreamTopics::State::dead_letter(const std::shared_ptr<Feed>& feed, natsMsg* msg, uint64_t seq,
                                         const std::string& why) {
  spdlog::info("cluster: topic {}, group {}: value {} goes to {}.dead ({})", feed->topic->name, feed->group, seq,
               feed->topic->name, why);
  Counters::add(counters.dead_letters);
  Topic& dead = *feed->topic->dead;
  auto commit = std::make_shared<Commit>();
  commit->input = msg;
  commit->feed = feed;
  commit->outstanding = 1;
  try {
    prepare(dead);
  } catch (const ClusterError& e) {
    spdlog::error("cluster: {}", e.what());
    commit->failed = true;
    commit->outstanding = 0;
    return settle_input(*commit);
  }
  Publication p;
  p.topic = dead.name;
  p.subject = subject(dead);
  p.bytes.assign(natsMsg_GetData(msg), size_t(natsMsg_GetDataLength(msg)));
  p.id = "dead/" + stream(*feed->topic) + "/" + escape(feed->group) + "/" + std::to_string(seq);
  p.commit = std::move(commit);
  publish(std::move(p));
}

// ------------------------------------------------------------------ the store

JetStreamTopics::JetStreamTopics(Runtime& rt, Counters& counters, const ClusterOptions& options, Link& link,
                                 NodeId self)
    : TopicStore(rt), state_(std::make_shared<State>(rt, counters, options, link, self)) {
  jsOptions jo;
  jsOptions_Init(&jo);
  jo.Wait = 5000;
  jo.PublishAsync.MaxPending = 4096;
  jo.PublishAsync.StallWait = 1000;
  jo.PublishAsync.AckHandler = State::on_ack;
  jo.PublishAsync.AckHandlerClosure = state_.get();
  natsStatus s = natsConnection_JetStream(&state_->js, link.connection(), &jo);
  if (s != NATS_OK) throw ClusterError(std::string("cannot use JetStream: ") + natsStatus_GetText(s));
  state_->retrier = std::thread([st = state_.get()] { st->rt.stop_if_out_of_memory([st] { st->retry_main(); }); });
}

JetStreamTopics::~JetStreamTopics() {
  stop();
  for (natsSubscription* sub : state_->retired) natsSubscription_Destroy(sub);
  if (state_->js) jsCtx_Destroy(state_->js);
}

void JetStreamTopics::attach(AddressBook& book) { state_->book = &book; }

void JetStreamTopics::prepare(Topic& t) {
  Topic& dead = topic(t.name + ".dead");  // only named here; its stream is made when needed
  {
    std::lock_guard lock(state_->mutex);
    if (!t.dead) t.dead = &dead;
  }
  state_->prepare(t);
}

void JetStreamTopics::subscribe(const Subscription& s) {
  State& st = *state_;
  const auto key = std::pair<const Topic*, std::string>(s.topic, s.group);
  std::shared_ptr<Feed> feed;
  {
    std::lock_guard lock(st.mutex);
    if (st.stopped) return;
    if (auto it = st.feeds.find(key); it != st.feeds.end()) feed = it->second;
  }
  if (feed) {
    {
      std::lock_guard lock(feed->mutex);
      feed->members.push_back(s.member);
    }
    feed->cv.notify_one();
    return;
  }
  // The group's durable consumer (made once, shared by every node), and our pull subscription to it.
  const std::string stream = st.stream(*s.topic), subject = st.subject(*s.topic), durable = escape(s.group);
  jsConsumerConfig cc;
  jsConsumerConfig_Init(&cc);
  cc.Durable = durable.c_str();
  cc.AckPolicy = js_AckExplicit;
  cc.AckWait = st.options.ack_wait_ms * 1000000;
  cc.MaxDeliver = -1;  // we count deliveries ourselves (dead letters)
  cc.DeliverPolicy = js_DeliverAll;
  cc.FilterSubject = subject.c_str();
  jsErrCode code = jsErrCode(0);
  natsStatus rc = st.patiently("making group " + s.group + " of topic " + s.topic->name, code, [&](jsErrCode& c) {
    jsConsumerInfo* ci = nullptr;
    natsStatus r = js_AddConsumer(&ci, st.js, stream.c_str(), &cc, nullptr, &c);
    if (ci) jsConsumerInfo_Destroy(ci);
    return r;
  });
  if (rc != NATS_OK && code != JSConsumerNameExistErr && code != JSConsumerExistingActiveErr)
    throw ClusterError("cannot make group " + s.group + " of topic " + s.topic->name + ": " + js_error(rc, code));
  jsSubOptions so;
  jsSubOptions_Init(&so);
  so.Stream = stream.c_str();
  so.Consumer = durable.c_str();  // bound: unsubscribing never deletes the group
  feed = std::make_shared<Feed>();
  feed->topic = s.topic;
  feed->group = s.group;
  feed->members.push_back(s.member);
  rc = st.patiently("joining group " + s.group + " of topic " + s.topic->name, code, [&](jsErrCode& c) {
    return js_PullSubscribe(&feed->sub, st.js, subject.c_str(), durable.c_str(), nullptr, &so, &c);
  });
  if (rc != NATS_OK)
    throw ClusterError("cannot join group " + s.group + " of topic " + s.topic->name + ": " + js_error(rc, code));
  {
    std::lock_guard lock(st.mutex);
    if (st.stopped) {
      natsSubscription_Destroy(feed->sub);
      return;
    }
    st.feeds.emplace(key, feed);
  }
  feed->thread = std::thread([st = state_, feed] { st->rt.stop_if_out_of_memory([&] { st->feed_main(feed); }); });
}

void JetStreamTopics::append(std::vector<Append>& values) {
  for (auto& a : values) {
    try {
      prepare(*a.topic);
    } catch (const ClusterError& e) {
      Counters::add(state_->counters.lost);
      spdlog::error("cluster: {}", e.what());
      continue;
    }
    Publication p;
    p.topic = a.topic->name;
    p.subject = state_->subject(*a.topic);
    p.bytes = std::move(a.bytes);
    p.id = node_hex(state_->self) + "/" + std::to_string(state_->next_id.fetch_add(1, std::memory_order_relaxed));
    Counters::add(state_->counters.appended);
    state_->publish(std::move(p));
  }
}

void JetStreamTopics::settle(std::unique_ptr<DeliveryTicket> ticket, std::vector<Append>& values) {
  auto& t = static_cast<JsTicket&>(*ticket);
  auto commit = std::make_shared<Commit>();
  commit->feed = t.feed;
  commit->input = t.take();
  std::vector<Publication> outputs;
  const std::string origin = state_->stream(*t.feed->topic) + "/" + escape(t.feed->group) + "/" + std::to_string(t.seq);
  for (size_t k = 0; k < values.size(); ++k) {
    try {
      prepare(*values[k].topic);
    } catch (const ClusterError& e) {
      spdlog::error("cluster: {}", e.what());
      commit->failed = true;
      continue;
    }
    Publication p;
    p.topic = values[k].topic->name;
    p.subject = state_->subject(*values[k].topic);
    p.bytes = std::move(values[k].bytes);
    p.id = origin + "/" + std::to_string(k);  // the same on every redelivery of this input
    p.commit = commit;
    outputs.push_back(std::move(p));
  }
  commit->outstanding = outputs.size();
  if (outputs.empty()) return state_->settle_input(*commit);
  Counters::add(state_->counters.appended, outputs.size());
  for (auto& p : outputs) state_->publish(std::move(p));
}

void JetStreamTopics::abandon(std::unique_ptr<DeliveryTicket> ticket) {
  auto& t = static_cast<JsTicket&>(*ticket);
  natsMsg* msg = t.take();
  if (int64_t(t.delivered) >= state_->options.max_deliveries)
    return state_->dead_letter(t.feed, msg, t.seq, "failed " + std::to_string(t.delivered) + " times");
  natsMsg_NakWithDelay(msg, state_->options.retry_delay_ms, nullptr);
  natsMsg_Destroy(msg);
  Counters::add(state_->counters.redelivered);
  t.feed->done();
}

void JetStreamTopics::quiesce() {
  std::vector<std::shared_ptr<Feed>> feeds;
  {
    std::lock_guard lock(state_->mutex);
    for (auto& [key, f] : state_->feeds) feeds.push_back(f);
  }
  for (auto& f : feeds) {
    {
      std::lock_guard lock(f->mutex);
      f->stopped = true;  // the thread ends after its current fetch; stop() joins it
    }
    f->cv.notify_all();
  }
}

void JetStreamTopics::stop() {
  State& st = *state_;
  std::map<std::pair<const Topic*, std::string>, std::shared_ptr<Feed>> feeds;
  {
    std::lock_guard lock(st.mutex);
    if (st.stopped) return;
    feeds = st.feeds;
  }
  for (auto& [key, f] : feeds) {
    {
      std::lock_guard lock(f->mutex);
      f->stopped = true;
    }
    f->cv.notify_all();
  }
  for (auto& [key, f] : feeds) {
    if (f->thread.joinable()) f->thread.join();
    // Unsubscribed, not freed: an event still running may settle a delivery
    // of it, and acknowledging reads the subscription (freed with the store,
    // after the runtime's workers have stopped).
    natsSubscription_Unsubscribe(f->sub);
    {
      std::lock_guard lock(st.mutex);
      st.retired.push_back(f->sub);
    }
    f->sub = nullptr;
    std::lock_guard lock(f->mutex);
    f->members.clear();
  }
  // What is still being stored gets a moment.
  jsPubOptions o;
  jsPubOptions_Init(&o);
  o.MaxWait = 2000;
  js_PublishAsyncComplete(st.js, &o);
  std::vector<Publication> owed;
  {
    std::lock_guard lock(st.mutex);
    st.stopped = true;
    st.feeds.clear();
    for (auto& [id, p] : st.pending) owed.push_back(std::move(p));
    st.pending.clear();
    for (auto& [due, p] : st.retries) owed.push_back(std::move(p));
    st.retries.clear();
  }
  st.retry_cv.notify_all();
  if (st.retrier.joinable()) st.retrier.join();
  for (auto& p : owed) {
    Counters::add(st.counters.lost);
    if (p.commit && p.commit->input) {
      natsMsg_Destroy(p.commit->input);  // not acknowledged: delivered again later
      p.commit->input = nullptr;
    }
  }
  if (!owed.empty()) spdlog::error("cluster: {} values were not confirmed stored when the node stopped", owed.size());
}

}  // namespace humus::rt::cluster
