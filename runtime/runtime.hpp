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
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "runtime/actor.hpp"
#include "runtime/actor_heap.hpp"
#include "runtime/builtins/devices.hpp"
#include "runtime/code.hpp"
#include "runtime/collector_thread.hpp"
#include "runtime/context.hpp"
#include "runtime/dispatcher.hpp"
#include "runtime/errors.hpp"
#include "runtime/foreign.hpp"
#include "runtime/globals.hpp"
#include "runtime/limits.hpp"
#include "runtime/memory_meter.hpp"
#include "runtime/print.hpp"
#include "runtime/reporter.hpp"
#include "runtime/timers.hpp"
#include "runtime/trace.hpp"

namespace humus::rt {

struct RuntimeOptions {
  unsigned threads = 1;  // worker threads; 0: none, the host calls run_for (the playground)
  unsigned budget = 32;  // messages per actor turn
  // How many of the workers run: by default a governor measures and benches
  // workers that make the program slower (worker_governor.hpp).
  GovernorSettings workers;
  std::optional<uint64_t> seed;  // for `random`; none: from the OS
  TextSink out;                  // program output (println, print); default stdout
  TextSink err;                  // diagnostics; default stderr
  bool trace = false;            // report every message-event, as text
  TraceSink* tracer = nullptr;   // or as records (runtime/trace.hpp); outlives the runtime
  // -W: report every message dropped (unhandled, or sent to a non-actor)
  // and every value the language quietly ignores (a non-function applied, a
  // statement's non-block value), each with its source location.
  bool warn_unhandled = false;
  Limits limits;     // resource limits (runtime/limits.hpp); none by default
  PrintLimit shown;  // how much of a value diagnostics and traces show (print.hpp)
  // --sandbox: the devices stdin, files and clock answer (#error, reason)
  // (runtime/builtins/devices.hpp); `devices` leaves out single ones.
  bool sandbox = false;
  DeviceAccess devices;
  // Asked at compiled code's safe points (every 65536 calls and tail calls):
  // true interrupts the run. For a host whose event can't be interrupted
  // from another thread (the playground: one thread, Stop in a SharedArrayBuffer).
  std::function<bool()> interrupt_requested;
  // The cycle collector (runtime/cycle_collector.hpp) looks for actors in
  // reference cycles when this many actors are live, then each time their
  // number doubles since the last look (or grows more, after looks that
  // found little: collector_thread.cpp); 0: only when the runtime goes (or
  // collect_cycles() is called).
  uint64_t cycle_check = 10000;
  // When the runtime goes, a last collection frees what only cycles hold.
  // false leaves that memory to the operating system: for a process that
  // ends with the runtime (the CLI, outside sanitizer builds), where freeing
  // a million actors one by one costs a tenth of a second for nothing.
  bool final_collection = true;
  // Globals (and the code compiled against them) to start from instead of
  // the built-ins alone: lent by a runtime that loaded them, which must
  // outlive this one and run nothing meanwhile (Globals::lend). They are
  // given back as they were when this runtime ends. For hosts that make
  // many short runs from one loaded library (the fuzz targets).
  Globals* borrowed_globals = nullptr;
};

struct RuntimeStats {
  uint64_t events = 0;     // message-events run (committed or failed)
  uint64_t unhandled = 0;  // messages no behavior matched
  uint64_t errors = 0;     // failed events and top-level errors
  // The `testing` module's checks (stdlib/testing.hum): passes reported to
  // the built-in testing_pass, failures THROWn as (#FAIL, ...).
  uint64_t checks_passed = 0;
  uint64_t checks_failed = 0;
  uint64_t actors = 0;  // actors created, with the built-in ones that have a number (println@1, timer, random)
  uint64_t queued = 0;  // messages queued or running, and pending timers
  // Outside work the runtime waits for before it is idle: pending timers, a
  // read of standard input, topic values not yet stored, messages to other
  // processes not yet acknowledged.
  uint64_t holds = 0;
  // Of `events`, those run on the thread a message from another process
  // arrived on (guest turns, runtime/dispatcher.hpp), and those such a turn
  // gave back to run again on a worker.
  uint64_t guest_events = 0;
  uint64_t handed_back = 0;
  // Workers the governor lets run at the time (all of them without one), and
  // how many times it changed that count (runtime/worker_governor.hpp).
  unsigned workers_allowed = 0;
  uint64_t worker_changes = 0;
  double governor_probe_ms = 0;   // how long its probes ran another count, in all
  double governor_window_ms = 0;  // the length its measuring window grew to
  // Senders held back for sending to an overloaded actor (back-pressure,
  // runtime/dispatcher.hpp "Muting"; several workers only).
  uint64_t mutes = 0;
  DistributionStats distribution;  // messages and topics across processes (when a distribution layer is installed)
  CycleStats cycles;               // the cycle collector's work
  int64_t live_actors = 0;         // actors of this runtime not freed yet, with every built-in one
  // The runtime's own actors (println, timer, random, print, testing_pass,
  // cluster): made before any program runs, never freed. `builtin_numbered`
  // of them count in `actors`, all of them in `live_actors`.
  uint64_t builtin_actors = 0;
  uint64_t builtin_numbered = 0;
};

class Runtime final : public EventRunner {
 public:
  explicit Runtime(RuntimeOptions options);
  ~Runtime() override;
  Runtime(const Runtime&) = delete;
  Runtime& operator=(const Runtime&) = delete;

  Globals& globals() { return globals_; }
  const RuntimeOptions& options() const { return options_; }
  // Switches the text trace of message-events on or off while messages run (the REPL's :trace).
  void set_trace(bool on) {
    text_trace_.store(on, std::memory_order_relaxed);
    trace_.store(on || tracer_, std::memory_order_relaxed);
  }

  // A new actor with `behavior` (a function value, not checked here),
  // named for diagnostics by the symbol `name` (its CREATE name), if any.
  Value new_actor(Value behavior, uint32_t name = Actor::kNoName);
  // The actors `print` and `cluster`: numbered @0, so that adding them did
  // not renumber the actors of every program (@1..@3 are println, timer and
  // random); diagnostics tell them apart by name (print@0).
  Value system_actor(const NativeBehaviorCode& code);
  // A built-in actor that has a number (@1, @2, @3: println, timer, random).
  Value builtin_actor(const NativeBehaviorCode& code);
  // The names of the runtime's own actors, in the order they were made.
  const std::vector<std::string>& builtin_actor_names() const { return builtin_names_; }
  // A foreign actor (runtime/foreign.hpp) whose behavior is `code`.
  Value new_foreign_actor(const ForeignCode& code);
  // Gives an actor made by new_actor(Value()) its behavior (CREATE).
  void set_behavior(Actor& actor, Value behavior) { actor.behavior = std::move(behavior); }
  // Applies an event's buffered effects; `cx.self` (if any) takes the new behavior.
  void commit(Context& cx);
  // Sends from outside any event (embedding hosts).
  void send(const Value& target, Value message);
  // The same, delivered after `delay_ms` milliseconds (it holds the program
  // alive meanwhile, as AFTER does).
  void send_after(int64_t delay_ms, Value target, Value message);
  // A top-level statement is an event without an actor, run in `cx` by the
  // interpreter: begin_outside before it, then end_outside, which commits
  // its effects, or drops them when `failed` (and traces it, when tracing).
  void begin_outside(Context& cx);
  void end_outside(Context& cx, const EventError* failed, const SourceLoc& where);
  // Held while code runs outside any event (a top-level statement, a host
  // call): the cycle collector must not look at actors while they are being
  // made and given behaviors, so it waits for the scope to end.
  class OutsideScope {
   public:
    explicit OutsideScope(Runtime& rt) : rt_(rt) { rt_.collector_.enter_outside(); }
    ~OutsideScope() { rt_.collector_.leave_outside(); }
    OutsideScope(const OutsideScope&) = delete;
    OutsideScope& operator=(const OutsideScope&) = delete;

   private:
    Runtime& rt_;
  };

  // Frees the actors only reference cycles hold, now: waits for running
  // events to end (they keep running meanwhile) and for outside code, a
  // minute at most. From any thread but a worker's or an OutsideScope's.
  // Returns the totals.
  CycleStats collect_cycles() { return collector_.collect_now(); }
  CycleStats cycle_stats() const { return collector_.stats(); }

  void start();  // starts dispatching (messages queue up until then)
  // Stops the workers and the timer thread; queued messages are dropped.
  // After it, no compiled code runs any more (it may then be freed).
  void stop();
  void wait_idle();  // blocks until quiescent
  // Without worker threads (threads = 0): runs events on this thread for
  // about `budget`, firing due timers. `more`: messages are still queued;
  // else `wait_ms` until the next timer, or -1 when the run is over.
  struct Slice {
    bool more;
    int64_t wait_ms;
  };
  Slice run_for(std::chrono::milliseconds budget);
  // Stops the run, from any thread: queued messages and pending timers are
  // dropped, and an event still running fails at its next safe point
  // (interpreter/engine/vm.cpp). limit_reached() is then Interrupted.
  void interrupt();
  // Interrupts only what runs now, from any thread (async-signal-safe: one
  // atomic add): every event running, and the top-level statement or host
  // call running, fails ("interrupted") at its next safe point and is
  // undone; queued messages, later events and every binding stay. The
  // REPL's Ctrl-C.
  void interrupt_events() { interrupt_epoch_.fetch_add(1, std::memory_order_relaxed); }
  // A safe point of compiled code, every `calls` calls: fails the event when
  // the run is interrupted or stopped by a limit, or when the event has made
  // more than Limits::max_steps calls.
  void safe_point(Context& cx, uint32_t calls, const SourceLoc& loc);
  // The same, for at most `limit`; true if quiescent (embedding hosts).
  bool wait_idle_for(std::chrono::nanoseconds limit) { return dispatcher_.wait_idle_for(limit); }
  uint64_t drain() { return dispatcher_.drain(); }

  int64_t now_ms() const;
  // A value as diagnostics show it: bounded, and readable (print.hpp).
  std::string shown(const Value& v) const { return reporter_.shown(v); }
  int64_t now_us() const;
  void write_out(std::string_view text) const { options_.out(text); }
  // The built-in actors' state (runtime/builtins/devices.hpp).
  Devices& devices() { return devices_; }
  // Cancellable timers (the `timer` actor's #schedule): an id for one, and
  // taking one back before it fires.
  uint64_t reserve_timer_id() { return timers_.reserve_id(); }
  void cancel_timer(uint64_t id) { timers_.cancel(id); }
  // A timer set outside any event (the embedding API's ask timeout).
  void schedule_timer(int64_t delay_ms, Value target, Value message, uint64_t id) {
    timers_.schedule(delay_ms, std::move(target), std::move(message), 0, id);
  }
  // The error stream (runtime/reporter.hpp): what follows forwards to it.
  Reporter& reporter() { return reporter_; }
  void write_err(std::string_view text) const { reporter_.write(text); }
  // Set before anything runs; called from any thread (it must be safe so).
  void set_source_viewer(SourceViewer viewer) { reporter_.set_source_viewer(std::move(viewer)); }
  // "FILE:LINE:COLUMN", the column in characters when the source is known.
  std::string location(const SourceLoc& loc) const { return reporter_.location(loc); }
  // "FILE:LINE:COL: KIND", or "humus: KIND" for a place outside any program.
  std::string headline(const SourceLoc& loc, std::string_view kind) const { return reporter_.headline(loc, kind); }

  // Reports a failed event (actor may be null for top-level statements),
  // with the source line and a caret under the error's column; nothing once
  // a limit stops the run (the limit is what gets reported).
  void report_error(const EventError& e, const Actor* actor, const Value* message) {
    if (limit_reached() == LimitKind::None) reporter_.error(e, actor, message);
  }
  // A passed check of the `testing` module (the built-in testing_pass).
  void count_passed_check() { reporter_.count_passed_check(); }
  // The failed checks of the `testing` module, the first ones, in order.
  std::vector<FailedCheck> failed_checks() const { return reporter_.failed_checks(); }
  // Whether what the language quietly drops or ignores is reported (-W or
  // the text --trace; a JSON trace or a diagram records it, not stderr).
  bool warnings_on() const { return options_.warn_unhandled || text_trace_.load(std::memory_order_relaxed); }
  // "FILE:LINE:COLUMN: warning: MESSAGE" on stderr, when warnings_on() or `always`.
  void report_warning(const SourceLoc& loc, const std::string& message, bool always = false);
  // A message sent to something that is not an actor: dropped, counted as
  // unhandled, and reported with -W.
  void drop_send(const SourceLoc& loc, const Value& target, const Value& message, Context& cx);
  bool had_error() const { return reporter_.errors() != 0; }
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
  // Memory ran out where nothing can be undone (a commit, a timer, the
  // cluster's threads, reporting an error): the run stops for OutOfMemory
  // ("humus: stopped: out of memory"), with the memory reserve given back
  // for winding down (memory_meter.hpp). From any thread; allocates nothing.
  void out_of_memory() noexcept override;
  // An event or top-level statement ran out of memory and was undone: when
  // that left room to go on (memory::room_to_go_on), reports the error and
  // returns true; else stops the run as out_of_memory() does.
  bool report_out_of_memory(const SourceLoc& loc, const Actor* actor, const Value* message) noexcept;
  // Runs `fn` (a thread's loop or callback); memory running out in it stops the run.
  template <class F>
  void stop_if_out_of_memory(F&& fn) noexcept {
    try {
      fn();
    } catch (const std::bad_alloc&) {
      out_of_memory();
    }
  }

  // Context for a thread that runs top-level statements or host calls.
  std::unique_ptr<Context> make_context() override;
  uint64_t run_turn(Actor& actor, Context& cx, uint64_t budget) override;
  bool may_run_outside(const Actor& actor) const override;
  // One message-event: the behavior applied, its effects committed or dropped.
  void run_event(Actor& actor, Value& message, Context& cx);
  void send_queued() override;

  // Outside work that keeps the program from being idle (the cluster while
  // it is joined, a topic's pending redelivery); each hold() one release().
  void hold() { dispatcher_.hold(); }
  void release_hold() { dispatcher_.release(); }
  // Queues the `count` messages linked from `first` to `last` for `target`
  // from outside any event (messages arriving from other processes).
  // It may run the target's turn on the calling thread (a guest turn,
  // runtime/dispatcher.hpp): then it returns true, and what that turn sent
  // to other processes waits for the caller's send_queued().
  bool send_chain(Actor* target, Message* first, Message* last, uint64_t count) {
    return dispatcher_.deliver_chain(target, first, last, count);
  }
  // The distribution layer (runtime/foreign.hpp), installed by the host
  // once, before anything runs; stopped first and destroyed before the
  // dispatcher, since it sends into it from its threads.
  void install(std::unique_ptr<Distribution> distribution) { distribution_ = std::move(distribution); }
  Distribution* distribution() { return distribution_.get(); }
  // Asks the other processes to be left, as `SEND #leave TO cluster` does (a
  // signal, a host); nothing without a distribution layer.
  void leave_cluster() {
    if (distribution_) distribution_->leave();
  }
  // A built-in actor did not take `message`: counted and, when asked for, reported.
  void unhandled(Context& cx, const Value& message) {
    Context::bump(cx.unhandled);
    report_unhandled(*cx.self, message);
  }

 private:
  void define_builtins();
  void write_console(Context& cx);
  void report_unhandled(const Actor& actor, const Value& message) {
    if (warnings_on()) reporter_.unhandled(actor, message);
  }
  void note_no_match(const Actor& actor, const Value& message, Context& cx);
  void settle_failed_delivery(Context& cx);
  void apply(Context& cx);
  [[gnu::noinline]] void commit_distributed(Context& cx);
  void check_event_limit(uint64_t own_events);
  void run_event_body(Actor& actor, Value& message, Context& cx);
  // Thrown in a guest turn's event to hand it back undone (Context::guest).
  struct HandBack {};
  // A guest turn's events: at most this long each, and the turn no longer.
  static constexpr std::chrono::microseconds kGuestSlice{500};
  [[noreturn]] static void hand_back(Context& cx);
  void deliver(Actor& actor, Value& message, Context& cx);
  [[noreturn]] void actor_limit_reached();
  Value new_actor_checked(uint64_t id, Value behavior, uint32_t name);
  // Runs the actor's behavior on `message`; false when it did not take it.
  // --max-memory holds within the event's own code (memory::CapScope).
  bool apply_behavior(Actor& actor, Value& message, Context& cx) {
    if (!actor.behavior.is(ObjKind::Closure)) return false;
    const auto* beh = actor.behavior.as<Closure>();
    memory::CapScope capped(&limit_hit_);
    return beh->code->run_behavior(*beh, message, cx);
  }
  void note_actor_made() { collector_.note_actor_made(); }
  void final_collection();  // when the runtime goes: nothing runs any more
  // The traced paths (runtime_trace.cpp).
  void run_event_traced(Actor& actor, Value& message, Context& cx);
  void commit_traced(Context& cx, TraceEvent& ev);
  void fire_traced(uint64_t id, Value target, Value message);

  RuntimeOptions options_;
  Reporter reporter_;
  ActorHeap heap_;             // first made, last gone: everything below may hold actors
  CollectorThread collector_;  // the cycle collector: its tables, trigger and thread
  // Its own globals, or borrowed ones (RuntimeOptions::borrowed_globals)
  // with what they held when lent, and what was pinned in them since:
  // emptied by the last collection, freed here, where its own would be.
  struct Borrowed {
    Globals::Loan loan;
    std::vector<Object*> pinned_since;
    ~Borrowed() { free_pinned(std::move(pinned_since)); }
  };
  std::unique_ptr<Globals> own_globals_;
  Globals& globals_;
  std::optional<Borrowed> borrowed_;
  // Destroyed between the dispatcher (with the timers) and the globals: the
  // last collection (final_collection).
  struct Finale {
    Runtime* rt;
    ~Finale() { rt->final_collection(); }
  } finale_{this};
  Dispatcher dispatcher_;
  Timers timers_;
  Devices devices_;  // the built-in actors' state: stopped before the dispatcher
  std::chrono::steady_clock::time_point start_time_;
  std::atomic<uint64_t> next_actor_id_{1};
  std::vector<std::string> builtin_names_;  // written only while the runtime is made
  uint64_t builtin_numbered_ = 0;
  std::atomic<uint64_t> dropped_outside_{0};  // unhandled outside any worker's event (top level, hosts)
  std::atomic<uint64_t> outside_events_{0};   // the console's events run by top-level statements and hosts
  std::atomic<bool> trace_{false};            // any trace: run_event takes the traced path
  std::atomic<bool> text_trace_{false};       // options_.trace, switchable while running
  std::unique_ptr<Tracer> tracer_;            // when options_.tracer is set
  // Limits: UINT64_MAX when not set, so the checks are one compare.
  uint64_t max_events_ = UINT64_MAX;
  IntegerLimit integer_limit_;                // what integer arithmetic may make in this runtime's code
  uint64_t actor_id_cap_ = UINT64_MAX;        // the last actor id allowed
  uint64_t actor_id_check_ = UINT64_MAX;      // the cap, or 0 when tracing (every new actor is noted)
  std::atomic<int> limit_hit_{0};             // a LimitKind
  std::atomic<uint64_t> interrupt_epoch_{0};  // interrupt_events() calls
  std::atomic<bool> interrupted_{false};
  std::mutex stop_mutex_;  // serialises stopping the timers
  std::unique_ptr<LimitMonitor> monitor_;
  // Other processes: nodes, names, topics (installed by the host; runtime/cluster/).
  // Made last and stopped first: it sends into the dispatcher from its threads.
  std::unique_ptr<Distribution> distribution_;
};

}  // namespace humus::rt
