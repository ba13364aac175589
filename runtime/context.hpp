// The state of one message-event while its behavior runs.
//
// Effects are buffered here, not applied: sends, delayed sends and the new
// behavior take effect together in Runtime::commit when the event finishes,
// or are dropped when it fails (LANGUAGE.md section 7). Each worker thread
// owns one Context and reuses its buffers, so a steady stream of events
// allocates nothing here.
#pragma once

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "runtime/actor.hpp"
#include "runtime/code.hpp"
#include "runtime/foreign.hpp"
#include "runtime/trace.hpp"
#include "runtime/value.hpp"

namespace humus::rt {

class Runtime;

struct Effects {
  Effects() = default;
  Effects(const Effects&) = delete;
  Effects& operator=(const Effects&) = delete;
  ~Effects() { clear(); }

  // The sends to one actor: their messages, already linked into the chain
  // that the commit splices into the actor's mailbox in one step. A message
  // is made once, at SEND; a loop of a million sends to one actor is one
  // run, and committing it is one exchange on the mailbox. Sends that go
  // round several actors join each actor's run too (send_elsewhere), so a
  // message costs one word in a batch however the targets interleave.
  // Runs are committed in the order of their first SEND: each actor sees
  // its messages in SEND order, and actors are woken in the order they
  // were first sent to, as if each message were committed on its own.
  struct Run {
    Actor* target;  // holds a reference until the run is committed or dropped
    Message* first;
    Message* last;
    uint64_t count;
  };
  struct Delayed {
    int64_t delay_ms;
    Value target;
    Value message;
    uint64_t timer_id = 0;  // a cancellable timer's (Timers::reserve_id), else 0
  };
  // A send to the console (println, print, testing_pass: actors flagged
  // Object::kConsole). It is not queued: the commit writes it, in SEND
  // order, before any message of the event can start another event, so
  // what one event prints comes out in the order it was sent and after
  // what the events that caused it printed (docs/scripting.md).
  struct ConsoleSend {
    Actor* target;  // a built-in actor, bound to a global: immortal, not counted
    Value message;
  };
  std::vector<Run> runs;             // in the order of each target's first SEND
  std::vector<Delayed> delayed;      // AFTER, in statement order
  std::vector<ConsoleSend> console;  // in SEND order
  std::string out;                   // what the event writes on standard output, at commit
  Value become;                      // empty unless BECOME ran
  // Or a BECOME of a closure not made yet (a behavior factory's result):
  // its code and captured values. The commit writes them into the actor's
  // closure in place when only the actor holds it and the code is the same
  // (a counter's BECOME counter(add(sum, n))), and makes a closure otherwise.
  static constexpr uint32_t kPendingMax = 4;
  const FunctionCode* pending_code = nullptr;
  uint32_t pending_count = 0;
  Value pending[kPendingMax];

  // Set when a run targets a foreign actor (foreign.hpp): the commit
  // then lets the distribution layer take those runs first.
  bool foreign = false;

  bool has_become() const { return !become.empty() || pending_code; }
  // Whether the event did anything: a send, an AFTER, output or a BECOME.
  bool any() const { return !runs.empty() || !delayed.empty() || has_become() || !console.empty() || !out.empty(); }

  // Buffers AFTER delay_ms SEND message TO target.
  void delay(int64_t delay_ms, Value target, Value message) {
    delayed.push_back({delay_ms, std::move(target), std::move(message)});
  }

  // Buffers SEND message TO target (an actor, borrowed).
  void send(Actor* target, Value message) {
#if HUMUS_CHECKS
    // An empty payload would read as a Batch (mailbox.hpp); no value a
    // program or a host can make is empty.
    if (message.empty()) std::abort();
#endif
    if (!runs.empty() && runs.back().target == target) [[likely]] {
      append(runs.back(), std::move(message));
      return;
    }
    send_elsewhere(target, std::move(message));
  }

  // What clearing costs and what stays allocated between events: the run
  // index's buckets and the vectors' capacities (a guard against costs
  // that scale with the largest past event: tests/unit/runtime/effects_test.cpp).
  size_t kept_buckets() const { return run_index.bucket_count(); }
  size_t kept_capacity() const { return runs.capacity() + delayed.capacity() + console.capacity() + out.capacity(); }

  // Drops everything buffered (a failed event, or what a commit left).
  void clear() {
    if (any()) drop_all();
  }

 private:
  void append(Run& r, Value message) {
    if (r.last->is_batch()) {
      auto* b = static_cast<Batch*>(r.last);
      if (b->count < b->capacity) [[likely]] {
        new (&b->items()[b->count++]) Value(std::move(message));
        ++r.count;
        return;
      }
    }
    extend(r, std::move(message));  // may run out of memory: count after
    ++r.count;
  }
  // A send to another actor than the last one: to its run, or a new one.
  void send_elsewhere(Actor* target, Value message);
  // Starts a new batch at the end of r's chain, holding `message`.
  void extend(Run& r, Value message);
  void drop_all();

  // Beyond this many runs, a run is found by its target in run_index.
  static constexpr size_t kScanRuns = 8;
  static constexpr size_t kKeepBuckets = 1024;  // a run index with more buckets is dropped, not cleared
  std::unordered_map<const Actor*, uint32_t> run_index;
};

// The state compiled code keeps per context between events (the
// interpreter's VM stack, interpreter/engine/vm.hpp), made on first use.
// The runtime only owns it.
struct EngineState {
  virtual ~EngineState() = default;
};

// Cache-line aligned: each worker writes its own context on every event, and
// two contexts sharing a line would bounce it between cores.
struct alignas(64) Context {
  explicit Context(Runtime& r) : rt(r) {}
  Context(const Context&) = delete;
  Context& operator=(const Context&) = delete;

  Runtime& rt;
  Actor* self = nullptr;  // null for top-level statements
  Effects fx;
  std::unique_ptr<EngineState> engine;
  // The topic delivery this event handles (its envelope), if any.
  Envelope* delivery = nullptr;
  // The distribution layer's state for this context (its outbox), and
  // whether it holds messages to send at the end of the turn.
  std::unique_ptr<ContextState> remote;
  bool must_flush = false;
  int worker = -1;  // the dispatcher's worker that owns it; -1: a thread outside the pool
  // A guest turn's context (runtime/dispatcher.hpp): an event that fails or
  // is still running at guest_until (steady_clock nanoseconds) is handed
  // back undone, to run again on a worker (Runtime::HandBack).
  bool guest = false;
  int64_t guest_until = 0;
  // A top-level statement's trace record while it runs (traced runs only).
  std::unique_ptr<TraceEvent> outside_trace;
  // Written only by the thread that owns this context (a load and a store,
  // no locked instruction); read by Runtime::stats from anywhere.
  std::atomic<uint64_t> events{0};
  std::atomic<uint64_t> unhandled{0};
  std::atomic<uint64_t> handed_back{0};  // a guest turn's events run again on a worker
  // Calls the running event has made, as counted at the VM's safe points
  // (every kSafePointTicks calls): for Limits::max_steps.
  uint64_t steps = 0;
  // Runtime::interrupt_events's count when the running event began: a
  // different count at a safe point means it was interrupted since.
  uint64_t epoch = 0;
  // A CASE statement that matched no arm, or an IF statement alone in its
  // block that took no branch, in the running event (the VM's NOMATCH):
  // where, and which. If the event does nothing else, it is counted as not
  // handling its message (docs/language.md, "Handled messages").
  SourceLoc no_match{};
  bool no_match_if = false;

  static void bump(std::atomic<uint64_t>& counter) {
    counter.store(counter.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
  }
};

}  // namespace humus::rt
