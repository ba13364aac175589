#include "runtime/cluster/memory_topics.hpp"

#include <map>
#include <mutex>
#include <unordered_map>

#include "runtime/runtime.hpp"

namespace humus::rt::cluster {

namespace {

struct Group {
  std::vector<Value> members;
  size_t next = 0;       // the first value of the log not yet delivered
  size_t turn = 0;       // whose turn it is among the members
  size_t in_flight = 0;  // deliveries not settled yet

  const Value& next_member() { return members[turn++ % members.size()]; }
};

struct Log {
  std::vector<Value> values;
  std::map<std::string, Group> groups;
};

// One message on its way to a member, sent once the lock is let go.
struct Outgoing {
  Value member;
  Value envelope;
};

}  // namespace

struct MemoryTopics::State {
  State(Runtime& r, Counters& c, const ClusterOptions& o, TopicStore& s) : rt(r), counters(c), options(o), store(s) {}
  Runtime& rt;
  Counters& counters;
  const ClusterOptions options;
  TopicStore& store;  // only while !stopped
  std::mutex mutex;
  bool stopped = false;
  std::unordered_map<Topic*, Log> logs;

  Value envelope(std::shared_ptr<State> self, Topic* t, const std::string& group, size_t index, int64_t attempt);
  void pump(const std::shared_ptr<State>& self, Topic* t, std::vector<Outgoing>& out);
  void add(Topic* t, Value v) {
    logs[t].values.push_back(std::move(v));
    Counters::add(counters.appended);
  }
  void send(std::vector<Outgoing>& out) {
    for (auto& o : out) rt.send(o.member, std::move(o.envelope));
  }
};

namespace {

struct MemoryTicket final : DeliveryTicket {
  std::shared_ptr<MemoryTopics::State> state;
  Topic* topic;
  std::string group;
  size_t index;
  int64_t attempt;
  bool settled = false;

  // Dropped unsettled (the runtime is stopping, or a limit stopped it): the
  // slot is given back; there is nobody left to deliver to.
  ~MemoryTicket() override {
    if (settled || !state) return;
    std::lock_guard lock(state->mutex);
    if (!state->stopped) state->logs[topic].groups[group].in_flight--;
  }
};

}  // namespace

Value MemoryTopics::State::envelope(std::shared_ptr<State> self, Topic* t, const std::string& group, size_t index,
                                    int64_t attempt) {
  auto ticket = std::make_unique<MemoryTicket>();
  ticket->state = std::move(self);
  ticket->topic = t;
  ticket->group = group;
  ticket->index = index;
  ticket->attempt = attempt;
  Value v = logs[t].values[index];
  return Value::adopt(new Envelope(std::move(v), std::move(ticket)));
}

void MemoryTopics::State::pump(const std::shared_ptr<State>& self, Topic* t, std::vector<Outgoing>& out) {
  Log& log = logs[t];
  for (auto& [name, g] : log.groups) {
    while (!g.members.empty() && g.next < log.values.size() && g.in_flight < g.members.size()) {
      Value member = g.next_member();
      out.push_back({std::move(member), envelope(self, t, name, g.next, 1)});
      ++g.next;
      ++g.in_flight;
      Counters::add(counters.delivered);
    }
  }
}

MemoryTopics::MemoryTopics(Runtime& rt, Counters& counters, const ClusterOptions& options)
    : TopicStore(rt), state_(std::make_shared<State>(rt, counters, options, *this)) {}

MemoryTopics::~MemoryTopics() { stop(); }

void MemoryTopics::subscribe(const Subscription& s) {
  std::vector<Outgoing> out;
  {
    std::lock_guard lock(state_->mutex);
    if (state_->stopped) return;
    state_->logs[s.topic].groups[s.group].members.push_back(s.member);
    state_->pump(state_, s.topic, out);
  }
  state_->send(out);
}

void MemoryTopics::append(std::vector<Append>& values) {
  std::vector<Outgoing> out;
  {
    std::lock_guard lock(state_->mutex);
    if (state_->stopped) return;
    for (auto& a : values) state_->add(a.topic, std::move(a.value));
    for (auto& a : values) state_->pump(state_, a.topic, out);
  }
  state_->send(out);
}

void MemoryTopics::settle(std::unique_ptr<DeliveryTicket> ticket, std::vector<Append>& values) {
  auto& mt = static_cast<MemoryTicket&>(*ticket);
  mt.settled = true;
  std::vector<Outgoing> out;
  {
    std::lock_guard lock(state_->mutex);
    if (state_->stopped) return;
    // The outputs and the acknowledgement in one step.
    for (auto& a : values) state_->add(a.topic, std::move(a.value));
    state_->logs[mt.topic].groups[mt.group].in_flight--;
    state_->pump(state_, mt.topic, out);
    for (auto& a : values) state_->pump(state_, a.topic, out);
  }
  state_->send(out);
}

void MemoryTopics::abandon(std::unique_ptr<DeliveryTicket> ticket) {
  auto& mt = static_cast<MemoryTicket&>(*ticket);
  mt.settled = true;
  std::vector<Outgoing> out;
  Value member, envelope;
  {
    std::lock_guard lock(state_->mutex);
    if (state_->stopped) return;
    Group& g = state_->logs[mt.topic].groups[mt.group];
    if (mt.attempt >= state_->options.max_deliveries) {
      // Given up: to NAME.dead, where another group may look at it.
      Topic& dead = topic(mt.topic->name + ".dead");
      state_->add(&dead, state_->logs[mt.topic].values[mt.index]);
      Counters::add(state_->counters.dead_letters);
      g.in_flight--;
      state_->pump(state_, mt.topic, out);
      state_->pump(state_, &dead, out);
    } else {
      // Still in flight: it comes back after the delay, to the next member.
      member = g.next_member();
      envelope = state_->envelope(state_, mt.topic, mt.group, mt.index, mt.attempt + 1);
      Counters::add(state_->counters.redelivered);
    }
  }
  if (!member.empty()) rt_.send_after(state_->options.retry_delay_ms, std::move(member), std::move(envelope));
  state_->send(out);
}

void MemoryTopics::stop() {
  std::unordered_map<Topic*, Log> gone;
  std::lock_guard lock(state_->mutex);
  state_->stopped = true;
  gone.swap(state_->logs);
}

}  // namespace humus::rt::cluster
