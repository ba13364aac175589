#include "runtime/runtime.hpp"

#include <cstdio>
#include <random>
#include <vector>

#include "runtime/builtins/functions.hpp"
#include "runtime/code.hpp"
#include "runtime/integer.hpp"
#include "runtime/print.hpp"
#include "runtime/stack_guard.hpp"
#include "runtime/symbols.hpp"
#include "runtime/text.hpp"

namespace humus::rt {

namespace {
void write_stdout(std::string_view s) { std::fwrite(s.data(), 1, s.size(), stdout); }
void write_stderr(std::string_view s) {
  std::fwrite(s.data(), 1, s.size(), stderr);
  std::fflush(stderr);
}
// Standard output and error where the host gave no sinks.
RuntimeOptions with_default_sinks(RuntimeOptions o) {
  if (!o.out) o.out = write_stdout;
  if (!o.err) o.err = write_stderr;
  return o;
}
}  // namespace

Runtime::Runtime(RuntimeOptions options)
    : options_(with_default_sinks(std::move(options))),
      reporter_(options_.err, options_.shown),
      collector_(heap_, dispatcher_, options_.cycle_check),
      own_globals_(options_.borrowed_globals ? nullptr : std::make_unique<Globals>()),
      globals_(options_.borrowed_globals ? *options_.borrowed_globals : *own_globals_),
      dispatcher_(*this, options_.threads, options_.budget, options_.seed ? *options_.seed : 0, options_.workers),
      timers_(dispatcher_, dispatcher_.has_threads()),
      devices_(*this, options_.devices, options_.sandbox, options_.seed ? *options_.seed : std::random_device{}()),
      start_time_(std::chrono::steady_clock::now()) {
  if (options_.tracer) {
    tracer_ = std::make_unique<Tracer>(*options_.tracer);
    timers_.set_fire_hook(
        [this](uint64_t id, Value target, Value message) { fire_traced(id, std::move(target), std::move(message)); });
  }
  set_trace(options_.trace);
  define_builtins();
  // Limits (runtime/limits.hpp). Built-in actors are not counted.
  const Limits& lim = options_.limits;
  if (lim.max_events) max_events_ = lim.max_events;
  if (lim.max_actors) actor_id_cap_ = next_actor_id_.load(std::memory_order_relaxed) - 1 + lim.max_actors;
  actor_id_check_ = tracer_ ? 0 : actor_id_cap_;
  integer_limit_ = IntegerLimit::of(lim);
  memory::keep_reserve();  // room for the error path when memory runs out (memory_meter.hpp)
  if (lim.max_memory) memory::set_cap(lim.max_memory);
  if (lim.needs_monitor())
    monitor_ = std::make_unique<LimitMonitor>(
        options_.limits, [this](LimitKind k) { stop_for_limit(k); }, [this] { return limit_reached(); },
        [this] { return dispatcher_.idle_now() ? LimitMonitor::kIdle : dispatcher_.progress(); });
  collector_.arm();  // the first look: cycle_check actors past the built-in ones
}

void Runtime::final_collection() {
  // Nothing runs any more: the threads are joined, the dispatcher and the
  // timers are gone with their messages. What only cycles hold, and what
  // only the globals' pinned values held, goes now; the pinned objects
  // themselves (emptied) go with the globals, after this.
  if (borrowed_)
    borrowed_->pinned_since = globals_.give_back(borrowed_->loan);
  else
    globals_.clear_pinned();
  if (options_.final_collection) collector_.collect_final();
}

Runtime::~Runtime() {
  stop();
  distribution_.reset();  // before the dispatcher: it holds actors and messages
}

void Runtime::stop() {
  collector_.stop();  // it pauses the workers: it must not be at it while they go
  // The cluster's threads send into the dispatcher: they stop first.
  if (distribution_) distribution_->stop();
  if (monitor_) monitor_->stop();
  {
    std::lock_guard lock(stop_mutex_);
    timers_.stop();
  }
  devices_.stop();  // the standard-input reader sends into the dispatcher
  dispatcher_.stop();
  devices_.stop();  // one a last event may have started
}

void Runtime::stop_for_limit(LimitKind kind) {
  int none = 0;
  if (!limit_hit_.compare_exchange_strong(none, int(kind), std::memory_order_acq_rel)) return;
  dispatcher_.drop_queued();
  std::lock_guard lock(stop_mutex_);
  timers_.stop();  // pending timers would keep the program from going idle
}

void Runtime::check_event_limit(uint64_t own_events) {
  // Every 1024 of a worker's events, and when its own count alone reaches
  // the limit: so one worker stops exactly at it, and several within about
  // 1024 events per worker.
  if (own_events >= max_events_ || (max_events_ != UINT64_MAX && dispatcher_.stats().events >= max_events_))
    stop_for_limit(LimitKind::Events);
}

void Runtime::actor_limit_reached() {
  stop_for_limit(LimitKind::Actors);
  runtime_error({}, "stopped: " + limit_message());  // not reported: the run is stopping
}

void Runtime::define_builtins() {
  if (options_.borrowed_globals) {
    // The built-in functions are there already (they belong to the
    // process); the built-in actors are this runtime's own.
    borrowed_.emplace(Borrowed{globals_.lend(), {}});
    devices_.define(globals_);
    return;
  }
  const uint32_t first = globals_.slot(builtin_functions().front()->name);
  for (Native* fn : builtin_functions()) globals_.set(globals_.slot(fn->name), Value::share(fn));
  // Only the functions the VM has instructions for: a program's own `text`
  // or `split` must not turn off the fast paths of `add`.
  globals_.guard_builtins(first, uint32_t(kCoreBuiltins));
  devices_.define(globals_);
}

bool NativeBehaviorCode::run_behavior(const Closure&, const Value& msg, Context& cx) const {
  fn_(*cx.self, msg, cx);
  return true;
}

Value Runtime::builtin_actor(const NativeBehaviorCode& code) {
  builtin_names_.emplace_back(code.name);
  ++builtin_numbered_;
  return new_actor(Value::adopt(Closure::make(&code, 0)), intern_symbol(code.name));
}

Value Runtime::new_actor(Value behavior, uint32_t name) {
  uint64_t id = next_actor_id_.fetch_add(1, std::memory_order_relaxed);
  if (id > actor_id_check_) [[unlikely]]
    return new_actor_checked(id, std::move(behavior), name);
  Actor* a = heap_.make(id, name, std::move(behavior));
  note_actor_made();
  return Value::adopt(a);
}

Value Runtime::system_actor(const NativeBehaviorCode& code) {
  builtin_names_.emplace_back(code.name);
  return Value::adopt(heap_.make(0, intern_symbol(code.name), Value::adopt(Closure::make(&code, 0))));
}

Value Runtime::new_foreign_actor(const ForeignCode& code) {
  Value a = new_actor(Value::adopt(Closure::make(&code, 0)));
  // Before anyone else sees it: Effects::send reads the flag unsynchronised.
  a.object()->flags.fetch_or(Object::kForeign, std::memory_order_relaxed);
  return a;
}

// Past the actor limit, or tracing (which notes every actor made).
Value Runtime::new_actor_checked(uint64_t id, Value behavior, uint32_t name) {
  if (id > actor_id_cap_) actor_limit_reached();
  Value v = Value::adopt(heap_.make(id, name, std::move(behavior)));
  note_actor_made();
  if (tracer_) Tracer::note_created(v);
  return v;
}

std::unique_ptr<Context> Runtime::make_context() { return std::make_unique<Context>(*this); }

void Runtime::start() {
  dispatcher_.start();
  collector_.start();
}

void Runtime::wait_idle() { dispatcher_.wait_idle(); }

Runtime::Slice Runtime::run_for(std::chrono::milliseconds budget) {
  const auto deadline = std::chrono::steady_clock::now() + budget;
  for (;;) {
    // No collector thread here: a requested look runs between slices, on this thread.
    if (collector_.wanted()) collector_.try_collect({});
    // Due timers first, every slice: a program that never stops sending
    // must still get its AFTER messages (as the timer thread gives them).
    bool fired = false;
    timers_.fire_due(&fired);
    if (dispatcher_.run_here(deadline)) return {true, 0};
    fired = false;
    const int64_t next_timer = timers_.fire_due(&fired);
    if (!fired) return {false, next_timer};
    if (std::chrono::steady_clock::now() >= deadline) return {true, 0};
  }
}

void Runtime::interrupt() {
  interrupted_.store(true, std::memory_order_relaxed);
  stop_for_limit(LimitKind::Interrupted);
}

void Runtime::safe_point(Context& cx, uint32_t calls, const SourceLoc& loc) {
  if (cx.guest && std::chrono::steady_clock::now().time_since_epoch().count() > cx.guest_until) [[unlikely]]
    hand_back(cx);
  if (interrupted_.load(std::memory_order_relaxed) ||
      (options_.interrupt_requested && options_.interrupt_requested())) {
    interrupt();
    runtime_error(loc, "interrupted");
  }
  if (interrupt_epoch_.load(std::memory_order_relaxed) != cx.epoch) runtime_error(loc, "interrupted");
  // A limit stopped the run: an event that would never end ends here (rolled
  // back; the limit is what gets reported), instead of being given up on.
  if (limit_hit_.load(std::memory_order_relaxed) != 0) runtime_error(loc, "stopped: " + limit_message());
  // A long event holds its worker: what earlier turns queued for other
  // processes leaves meanwhile.
  if (distribution_) distribution_->send_queued();
  cx.steps += calls;
  if (const uint64_t max = options_.limits.max_steps; max && cx.steps > max) [[unlikely]]
    runtime_error(loc, "this event made more than " + std::to_string(max) + " calls (--max-steps); it is undone");
}

void Runtime::send(const Value& target, Value message) {
  Actor* a = target.as<Actor>();
  if (tracer_) [[unlikely]] {
    tracer_->outside_send(a->id(), [&] { dispatcher_.enqueue(a, std::move(message)); });
    return;
  }
  dispatcher_.enqueue(a, std::move(message));
}

void Runtime::send_after(int64_t delay_ms, Value target, Value message) {
  timers_.schedule(delay_ms, std::move(target), std::move(message));
}

namespace {
// Installs a pending BECOME (Effects::pending_code): in place when the
// actor's closure has the same code and nobody else holds it, which spares
// a BECOME per message an allocation and a free.
void install_pending(Actor& actor, Effects& fx) {
  const uint32_t n = fx.pending_count;
  if (actor.behavior.is(ObjKind::Closure)) {
    auto* old = actor.behavior.as<Closure>();
    // Acquire: a reference another thread dropped just now must have
    // finished its reads of the captures before we overwrite them.
    if (old->code == fx.pending_code && old->count == n && !old->immortal() &&
        old->refs.load(std::memory_order_acquire) == 1) {
      for (uint32_t i = 0; i < n; ++i) old->captures()[i] = std::move(fx.pending[i]);
      fx.pending_code = nullptr;
      fx.pending_count = 0;
      return;
    }
  }
  Closure* c = Closure::make(fx.pending_code, n);
  for (uint32_t i = 0; i < n; ++i) c->captures()[i] = std::move(fx.pending[i]);
  actor.behavior = Value::adopt(c);
  fx.pending_code = nullptr;
  fx.pending_count = 0;
}
}  // namespace

// What the event wrote, and what it sent to the console, goes out before
// any of its messages can start another event (context.hpp, ConsoleSend).
void Runtime::write_console(Context& cx) {
  Effects& fx = cx.fx;
  for (Effects::ConsoleSend& c : fx.console) {
    if (text_trace_.load(std::memory_order_relaxed)) [[unlikely]]
      write_err("trace: " + actor_label(*c.target) + " <- " + shown(c.message) + "\n");
    const auto* code = static_cast<const NativeBehaviorCode*>(c.target->behavior.as<Closure>()->code);
    code->call(*c.target, c.message, cx);
    // It is the console actor's message-event, run here: counted as one.
    if (cx.worker >= 0)
      Context::bump(cx.events);
    else
      outside_events_.fetch_add(1, std::memory_order_relaxed);
  }
  fx.console.clear();
  if (!fx.out.empty()) write_out(fx.out);
  fx.out.clear();
}

// The effects of an event, applied (commit, commit_distributed).
inline void Runtime::apply(Context& cx) {
  Effects& fx = cx.fx;
  if (cx.self) {
    if (fx.pending_code)
      install_pending(*cx.self, fx);
    else if (!fx.become.empty())
      cx.self->behavior = std::move(fx.become);
  }
  if (!fx.console.empty() || !fx.out.empty()) [[unlikely]]
    write_console(cx);
  // Timers before messages: a message may carry a cancellable timer's
  // handle, whose #cancel must find the timer scheduled.
  for (auto& d : fx.delayed) timers_.schedule(d.delay_ms, std::move(d.target), std::move(d.message), 0, d.timer_id);
  for (auto& r : fx.runs) {
    dispatcher_.enqueue_chain(r.target, r.first, r.last, r.count);
    r.first = nullptr;  // the mailbox has them now; clear() releases the target
  }
  fx.clear();
}

void Runtime::commit(Context& cx) {
  if (cx.fx.foreign || cx.delivery) [[unlikely]]
    return commit_distributed(cx);
  apply(cx);
}

// Sends to remote actors and topics, and a topic delivery's settlement, go
// through the cluster: staged first (the event may still fail there),
// released once everything else took effect.
void Runtime::commit_distributed(Context& cx) {
  distribution_->stage(cx);
  apply(cx);
  distribution_->release(cx);
  // Outside any actor's turn (top level, hosts) nobody sends later.
  if (!cx.self && cx.must_flush) {
    distribution_->flush(cx);
    distribution_->send_queued();
  }
}

void Runtime::send_queued() {
  if (distribution_) stop_if_out_of_memory([&] { distribution_->send_queued(); });
}

void Runtime::settle_failed_delivery(Context& cx) {
  if (cx.delivery) distribution_->abandon(cx);
  cx.delivery = nullptr;
}

void Runtime::run_event(Actor& actor, Value& message, Context& cx) {
  cx.self = &actor;
  cx.steps = 0;
  cx.epoch = interrupt_epoch_.load(std::memory_order_relaxed);
  use_integer_limit(integer_limit_);  // this runtime's, whichever ran on the thread before
  uint64_t own_events = cx.events.load(std::memory_order_relaxed) + 1;  // Context::bump, keeping the count
  cx.events.store(own_events, std::memory_order_relaxed);
  if ((own_events & 1023) == 0 || own_events >= max_events_) [[unlikely]]
    check_event_limit(own_events);
  // A delivery from a topic: the behavior sees the value, the commit settles it.
  Value* msg = &message;
  if (message.is(ObjKind::Envelope)) [[unlikely]] {
    cx.delivery = message.as<Envelope>();
    msg = &cx.delivery->value;
  }
  try {
    if (trace_.load(std::memory_order_relaxed)) [[unlikely]]
      run_event_traced(actor, *msg, cx);
    else
      run_event_body(actor, *msg, cx);
  } catch (const HandBack&) {
    // Not run after all: it runs again, whole, on a worker.
    cx.events.store(own_events - 1, std::memory_order_relaxed);
    Context::bump(cx.handed_back);
    cx.no_match = {};
    cx.delivery = nullptr;
    cx.self = nullptr;
    throw;
  } catch (const std::bad_alloc&) {
    // Memory ran out in a commit (which cannot be undone half done) or
    // while reporting a failure: the run stops (docs/reliability.md).
    cx.fx.clear();
    out_of_memory();
  }
  cx.no_match = {};
  cx.delivery = nullptr;
  cx.self = nullptr;
}

// Guest turns run compiled behaviors only: a built-in actor may block its
// thread (a JetStream request), and a trace wants every event on a worker.
bool Runtime::may_run_outside(const Actor& actor) const {
  if (trace_.load(std::memory_order_relaxed) || !actor.behavior.is(ObjKind::Closure)) return false;
  return !actor.behavior.as<Closure>()->code->native;
}

void Runtime::hand_back(Context& cx) {
  cx.fx.clear();
  throw HandBack{};
}

// The actor's turn, handed over by the dispatcher (EventRunner::run_turn).
uint64_t Runtime::run_turn(Actor& actor, Context& cx, uint64_t budget) {
  uint64_t consumed = 0;
  Message* m = nullptr;
  if (cx.guest) [[unlikely]]
    cx.guest_until = (std::chrono::steady_clock::now() + kGuestSlice).time_since_epoch().count();
  try {
    while (consumed < budget) {
      if (cx.guest && consumed && std::chrono::steady_clock::now().time_since_epoch().count() > cx.guest_until)
          [[unlikely]]
        break;  // the rest to a worker
      m = actor.mailbox.pop();
      if (!m) break;
      if (!m->is_batch()) {
        deliver(actor, m->payload, cx);
        delete m;
        ++consumed;
        continue;
      }
      // A batch: each message is an event of its own, within the budget; the
      // rest waits at the front of the mailbox for the next turn.
      auto* b = static_cast<Batch*>(m);
      while (b->taken < b->count && consumed < budget) {
        Value& item = b->items()[b->taken];
        deliver(actor, item, cx);
        item.~Value();
        ++b->taken;
        ++consumed;
      }
      if (b->taken < b->count) {
        actor.mailbox.unpop(b);
        break;
      }
      free_message(b);
    }
  } catch (const HandBack&) {
    actor.mailbox.unpop(m);  // its message first again, for a worker's turn
  }
  // Messages to other processes leave now, while the actor is still ours:
  // its next turn, on any worker, sends after them (order per sender).
  if (cx.must_flush) [[unlikely]]
    stop_if_out_of_memory([&] { distribution_->flush(cx); });
  return consumed;
}

inline void Runtime::deliver(Actor& actor, Value& message, Context& cx) {
  if (!dispatcher_.dropping()) [[likely]]
    run_event(actor, message, cx);
  else
    dispatcher_.count_dropped();
}

inline void Runtime::run_event_body(Actor& actor, Value& message, Context& cx) {
  bool took;
  try {
    took = apply_behavior(actor, message, cx);
  } catch (const EventError& e) {
    // On a guest turn's thread it may be its smaller stack that failed:
    // a worker runs it again, and reports what fails there.
    if (cx.guest) hand_back(cx);
    cx.fx.clear();
    report_error(e, &actor, &message);
    settle_failed_delivery(cx);
    return;
  } catch (const memory::MemoryCapReached&) {
    if (cx.guest) hand_back(cx);
    cx.fx.clear();
    stop_for_limit(LimitKind::Memory);
    settle_failed_delivery(cx);
    return;
  } catch (const std::bad_alloc&) {
    if (cx.guest) hand_back(cx);
    cx.fx.clear();  // undone: what it made is freed before looking for room
    settle_failed_delivery(cx);
    report_out_of_memory({}, &actor, &message);
    return;
  }
  if (!took) {
    cx.fx.clear();
    Context::bump(cx.unhandled);
    report_unhandled(actor, message);
    settle_failed_delivery(cx);
    return;
  }
  const bool unhandled = cx.no_match.line && !cx.fx.any();
  try {
    commit(cx);
    if (unhandled) [[unlikely]]
      note_no_match(actor, message, cx);
  } catch (const EventError& e) {
    cx.fx.clear();
    report_error(e, &actor, &message);
    settle_failed_delivery(cx);
  }
}

void Runtime::out_of_memory() noexcept {
  memory::release_reserve();  // room for winding down: reporting, the stats, dropping what is queued
  stop_for_limit(LimitKind::OutOfMemory);
}

bool Runtime::report_out_of_memory(const SourceLoc& loc, const Actor* actor, const Value* message) noexcept {
  // What the event made is freed; if memory is still full, the program's
  // live data fill it, and every next event would fail the same way (a
  // flood of messages or of actors): the run stops instead.
  if (!memory::room_to_go_on()) {
    out_of_memory();
    return false;
  }
  try {
    report_error(EventError{loc, "out of memory", Value()}, actor, message);
  } catch (const std::bad_alloc&) {
    out_of_memory();
    return false;
  }
  return true;
}

// A CASE statement of the event matched no arm, or a lone IF took no
// branch, and the event did nothing else: the message counts as not
// handled, and -W says where (the reference semantics stand otherwise).
void Runtime::note_no_match(const Actor& actor, const Value& message, Context& cx) {
  Context::bump(cx.unhandled);
  if (warnings_on())
    write_err(headline(cx.no_match, "warning") + ": actor " + actor_label(actor) +
              " did not handle message: " + shown(message) +
              (cx.no_match_if ? " (no branch of this IF was taken)" : " (no arm of this CASE matched)") + "\n");
  cx.no_match = {};
}

int64_t Runtime::now_ms() const {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start_time_).count();
}

int64_t Runtime::now_us() const {
  return std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - start_time_).count();
}

void Runtime::report_warning(const SourceLoc& loc, const std::string& message, bool always) {
  if (always || warnings_on()) reporter_.warning(loc, message);
}

void Runtime::drop_send(const SourceLoc& loc, const Value& target, const Value& message, Context& cx) {
  // A worker's own counter inside an event; top-level statements and hosts
  // share one.
  if (cx.self)
    Context::bump(cx.unhandled);
  else
    dropped_outside_.fetch_add(1, std::memory_order_relaxed);
  if (warnings_on())
    report_warning(
        loc, "message dropped: the target " + shown(target) + " is not an actor (message: " + shown(message) + ")");
}

RuntimeStats Runtime::stats() const {
  DispatchStats d = dispatcher_.stats();
  RuntimeStats s;
  s.events = d.events + outside_events_.load(std::memory_order_relaxed);
  s.unhandled = d.unhandled + dropped_outside_.load(std::memory_order_relaxed);
  s.errors = reporter_.errors();
  s.checks_passed = reporter_.checks_passed();
  s.checks_failed = reporter_.checks_failed();
  s.actors = next_actor_id_.load(std::memory_order_relaxed) - 1;
  s.queued = d.queued;
  s.holds = d.holds;
  s.guest_events = d.guest_events;
  s.handed_back = d.handed_back;
  s.workers_allowed = d.workers_allowed;
  s.worker_changes = d.worker_changes;
  s.governor_probe_ms = d.probe_ms;
  s.governor_window_ms = d.window_ms;
  s.mutes = d.mutes;
  if (distribution_) s.distribution = distribution_->stats();
  s.cycles = cycle_stats();
  s.live_actors = heap_.live();
  s.builtin_actors = builtin_names_.size();
  s.builtin_numbered = builtin_numbered_;
  return s;
}

}  // namespace humus::rt
