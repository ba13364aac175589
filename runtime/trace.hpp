// Structured traces of message-events: what each event did, for
// `humus --trace=json` and the sequence diagram (docs/trace.md; the JSON form
// is described by docs/trace.schema.json).
//
// Off, tracing costs the hot path nothing new: Runtime::run_event already
// tests one flag per event (for the text trace) and takes the traced path
// only when it is set; actor creation reuses the branch of the actor limit.
// On, each event commits under the Tracer's one lock, which also numbers the
// messages: an event's sends get ids as they are enqueued, and since a
// mailbox is FIFO and every enqueue happens under the lock, the k-th message
// enqueued for an actor is the k-th one it handles. So each event can say
// which message it consumed and who sent it, which is what a diagram needs
// to draw an arrow, with no field added to messages.
#pragma once

#include <cstdint>
#include <deque>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "runtime/print.hpp"
#include "runtime/source_loc.hpp"
#include "runtime/value.hpp"

namespace humus::rt {

struct Actor;
struct Context;

enum class TraceOutcome : uint8_t { Committed, Failed, Unhandled };
const char* outcome_name(TraceOutcome o);  // "committed", "failed", "unhandled"

struct TraceSend {
  uint64_t id = 0;        // the message's id, unique in the run
  uint64_t to = 0;        // the target actor
  std::string message;    // printed, about kTraceTextLimit bytes at most (then "... (N more)")
  int64_t after_ms = -1;  // a delayed send (AFTER, the timer actor): its delay; -1 for SEND
  std::string to_name;    // the target's CREATE name (greeter for greeter@4); empty: none
};

struct TraceActor {
  uint64_t id = 0;
  std::string behavior;  // see describe_behavior
  std::string name;      // its CREATE name; empty: none (NEW)
};

// An actor as diagnostics and the text trace name it, from its number and
// CREATE name: greeter@4, or @4 without a name, "top level" for 0.
std::string actor_label(uint64_t id, const std::string& name);

struct TraceEvent {
  uint64_t seq = 0;     // 1, 2, ... in the order events finished
  int64_t time_us = 0;  // when it started, in microseconds since the runtime was made
  int64_t duration_us = 0;
  int worker = -1;          // the dispatcher's worker that ran it; -1: outside the pool
  uint64_t actor = 0;       // the actor; 0 for a top-level statement (or a host's call)
  std::string behavior;     // the actor's behavior as the event started
  uint64_t message_id = 0;  // the message it handled; 0: none (top level)
  uint64_t from = 0;        // the actor that sent it; 0: the top level or a host
  int64_t after_ms = -1;    // the message was sent with this delay (-1: a plain SEND)
  std::string message;      // printed, like TraceSend::message
  std::vector<TraceSend> sent;
  std::vector<TraceActor> created;
  std::string become;  // the new behavior, if BECOME ran and the event committed
  TraceOutcome outcome = TraceOutcome::Committed;
  std::string error;      // Failed: what went wrong
  SourceLoc where;        // Failed: where; a top-level statement: the statement
  std::string name;       // the actor's CREATE name; empty: none
  std::string from_name;  // the sender's CREATE name; empty: none
};

// Where traced events go (the JSON writer, the diagram). Called once per
// event, in `seq` order, under the tracer's lock: a sink needs no lock of its own.
class TraceSink {
 public:
  virtual ~TraceSink() = default;
  virtual void event(const TraceEvent& e) = 0;
};

// How long printed messages and behaviors may get in a trace.
inline constexpr size_t kTraceTextLimit = 200;
// Values in trace records: at most kTraceTextLimit bytes, then "... (N more)".
inline constexpr PrintLimit kTraceShown{0, kTraceTextLimit};

// A behavior as a trace names it: `greeter(1)` for a closure whose code has
// a name (its captured values in parentheses), `println` for a built-in, the
// source location `\file:3:7` for an anonymous lambda.
std::string describe_behavior(const Value& behavior);

// The bookkeeping of a traced run (owned by the Runtime when a sink is set).
class Tracer {
 public:
  explicit Tracer(TraceSink& sink) : sink_(sink) {}
  Tracer(const Tracer&) = delete;
  Tracer& operator=(const Tracer&) = delete;

  // An event starts on this thread: `actor` (null at top level) takes its
  // next message. Actors made from now on (note_created) are its own.
  void begin(TraceEvent& ev, const Actor* actor);
  // Runs `commit`, which applies the event's effects, under the lock: the
  // sends and delayed sends of cx.fx are numbered and recorded first, and
  // `ids` receives the delayed sends' ids, in order, for their timers.
  template <class Commit>
  void commit(TraceEvent& ev, Context& cx, std::vector<uint64_t>& ids, Commit&& commit) {
    std::lock_guard lock(mutex_);
    record_effects(ev, cx, ids);
    commit();
    emit(ev);
    emit_console();
  }
  // A failed or unhandled event (its effects were dropped).
  void finish(TraceEvent& ev);
  // Enqueues a message from outside any event (a host), numbering it first.
  template <class Enqueue>
  void outside_send(uint64_t to, Enqueue&& enqueue) {
    std::lock_guard lock(mutex_);
    queued_[to].push_back({next_id_++, 0, -1, kNoName});
    enqueue();
  }
  // The timer of delayed send `id` fired: its message goes into the
  // target's queue as `enqueue` puts it into the mailbox.
  template <class Enqueue>
  void fire(uint64_t id, uint64_t to, Enqueue&& enqueue) {
    std::lock_guard lock(mutex_);
    Queued q{id, 0, -1, kNoName};
    if (auto it = delayed_.find(id); it != delayed_.end()) {
      q = it->second;
      delayed_.erase(it);
    }
    queued_[to].push_back(q);
    enqueue();
  }
  // An actor made while this thread runs a traced event (Runtime::new_actor).
  static void note_created(const Value& actor);

 private:
  static constexpr uint32_t kNoName = UINT32_MAX;  // Actor::kNoName
  struct Queued {
    uint64_t id;
    uint64_t from;
    int64_t after_ms;
    uint32_t from_name;  // the sender's CREATE name, a symbol
  };
  void record_effects(TraceEvent& ev, Context& cx, std::vector<uint64_t>& ids);
  void record_created(TraceEvent& ev);
  void emit(TraceEvent& ev);
  // The console's sends of the event just emitted: each an event of the
  // console actor that handled it at once (context.hpp, ConsoleSend).
  void emit_console();

  TraceSink& sink_;
  std::mutex mutex_;
  uint64_t next_id_ = 1;
  uint64_t next_seq_ = 1;
  std::unordered_map<uint64_t, std::deque<Queued>> queued_;  // by actor: its messages not yet handled
  std::unordered_map<uint64_t, Queued> delayed_;             // by id: delayed sends not yet fired
  std::vector<TraceEvent> console_;                          // emit_console's, made by record_effects
};

}  // namespace humus::rt
