// The runtime: globals, actors, the dispatcher, timers and the built-in
// actors, and the transactional message-event (LANGUAGE.md section 7).
//
// run_event applies an actor's behavior to one message with the effects
// buffered in the worker's Context; commit() then applies them all at once
// (new behavior, sends in SEND order, delayed sends), and any failure drops
// them all instead. The runtime knows nothing of syntax: compiled code
// reaches it through code.hpp, and it reports locations as SourceLocs.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <string>
#include <string_view>

#include "runtime/actor.hpp"
#include "runtime/code.hpp"
#include "runtime/context.hpp"
#include "runtime/dispatcher.hpp"
#include "runtime/errors.hpp"
#include "runtime/globals.hpp"
#include "runtime/limits.hpp"
#include "runtime/print.hpp"
#include "runtime/timers.hpp"

namespace humus::rt {

using TextSink = std::function<void(std::string_view)>;

struct RuntimeOptions {
  unsigned threads = 1;
  unsigned budget = 32;          // messages per actor turn
  std::optional<uint64_t> seed;  // for `random`; none: from the OS
  TextSink out;                  // program output (println); default stdout
  TextSink err;                  // diagnostics; default stderr
  bool trace = false;            // report every message-event
  bool warn_unhandled = false;   // report every unhandled message
  Limits limits;                 // resource limits (runtime/limits.hpp); none by default
  PrintLimit shown;              // how much of a value diagnostics and traces show (print.hpp)
};

struct RuntimeStats {
  uint64_t events = 0;     // message-events run (committed or failed)
  uint64_t unhandled = 0;  // messages no behavior matched
  uint64_t errors = 0;     // failed events and top-level errors
  uint64_t actors = 0;     // actors created
  uint64_t queued = 0;     // messages queued or running, and pending timers
};

class Runtime final : public EventRunner {
 public:
  explicit Runtime(RuntimeOptions options);
  ~Runtime() override;
  Runtime(const Runtime&) = delete;
  Runtime& operator=(const Runtime&) = delete;

  Globals& globals() { return globals_; }
  const RuntimeOptions& options() const { return options_; }
  // Switches the trace of message-events on or off while messages run (the REPL's :trace).
  void set_trace(bool on) { trace_.store(on, std::memory_order_relaxed); }

  // A new actor with `behavior` (a function value, not checked here).
  Value new_actor(Value behavior);
  // Gives an actor made by new_actor(Value()) its behavior (CREATE).
  void set_behavior(Actor& actor, Value behavior) { actor.behavior = std::move(behavior); }
  // Applies an event's buffered effects; `cx.self` (if any) takes the new behavior.
  void commit(Context& cx);
  // Sends from outside any event (embedding hosts).
  void send(const Value& target, Value message);

  void start();  // starts dispatching (messages queue up until then)
  // Stops the workers and the timer thread; queued messages are dropped.
  // After it, no compiled code runs any more (it may then be freed).
  void stop();
  void wait_idle();  // blocks until quiescent
  // The same, for at most `limit`; true if quiescent (embedding hosts).
  bool wait_idle_for(std::chrono::nanoseconds limit) { return dispatcher_.wait_idle_for(limit); }
  uint64_t drain() { return dispatcher_.drain(); }

  int64_t now_ms() const;
  // A value as diagnostics show it: cut short past options().shown.
  std::string shown(const Value& v) const { return to_string(v, options_.shown); }
  void write_out(std::string_view text) const { options_.out(text); }
  void write_err(std::string_view text) const;

  // Reports a failed event (actor may be null for top-level statements).
  void report_error(const EventError& e, const Actor* actor, const Value* message);
  bool had_error() const { return errors_.load(std::memory_order_relaxed) != 0; }
  RuntimeStats stats() const;
  unsigned threads() const { return dispatcher_.threads(); }
  // Which resource limit stopped the run, if any (runtime/limits.hpp), and
  // how the humus command words it ("--max-events 1000 reached").
  LimitKind limit_reached() const { return LimitKind(limit_hit_.load(std::memory_order_acquire)); }
  std::string limit_message() const { return rt::limit_message(limit_reached(), options_.limits); }
  // Stops the run for `kind`: drops queued messages and pending timers from
  // now on. The first call wins; from any thread.
  void stop_for_limit(LimitKind kind);
  // Non-zero once a limit stopped the run (for memory::CapScope).
  const std::atomic<int>* limit_flag() const { return &limit_hit_; }

  // Context for a thread that runs top-level statements or host calls.
  std::unique_ptr<Context> make_context() override;
  void run_event(Actor& actor, Value& message, Context& cx) override;

 private:
  friend void random_behavior(Actor&, const Value&, Context&);
  friend void timer_behavior(Actor&, const Value&, Context&);
  Value native_actor(const NativeBehaviorCode& code);
  void define_builtins();
  void report_unhandled(const Actor& actor, const Value& message);
  void check_event_limit(uint64_t own_events);
  [[noreturn]] void actor_limit_reached();

  RuntimeOptions options_;
  Globals globals_;
  Dispatcher dispatcher_;
  Timers timers_;
  std::chrono::steady_clock::time_point start_time_;
  std::atomic<uint64_t> next_actor_id_{1};
  std::atomic<uint64_t> errors_{0};
  std::atomic<bool> trace_{false};  // options_.trace, switchable while running
  mutable std::mutex err_mutex_;
  std::mt19937_64 rng_;  // used only inside `random`'s events, one at a time
  // Limits: UINT64_MAX when not set, so the checks are one compare.
  uint64_t max_events_ = UINT64_MAX;
  uint64_t actor_id_cap_ = UINT64_MAX;  // the last actor id allowed
  std::atomic<int> limit_hit_{0};       // a LimitKind
  std::mutex stop_mutex_;               // serialises stopping the timers
  std::unique_ptr<LimitMonitor> monitor_;
};

}  // namespace humus::rt
