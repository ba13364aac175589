#include "runtime/dispatcher.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

namespace humus::rt {

namespace {
// The worker this thread is, if any (and of which dispatcher: tests run
// several runtimes in one process).
thread_local void* tl_worker = nullptr;
}  // namespace

Dispatcher::Dispatcher(EventRunner& runner, unsigned threads, unsigned budget, uint64_t seed,
                       const GovernorSettings& governor)
    : runner_(runner), budget_(budget ? budget : 1), governor_settings_(governor) {
  if (threads == 0) {
    inline_ = true;
    threads = 1;  // one worker, for its queue and context, run by the host
  }
  for (unsigned i = 0; i < threads; ++i) {
    auto w = std::make_unique<Worker>();
    w->owner = this;
    w->index = i;
    w->cx = runner_.make_context();
    w->cx->worker = int(i);
    w->rng.seed(static_cast<std::minstd_rand::result_type>(seed + i + 1));
    workers_.push_back(std::move(w));
  }
  if (!inline_) {
    guest_ = std::make_unique<Worker>();
    guest_->owner = this;
    guest_->index = threads;
    guest_->cx = runner_.make_context();
    guest_->cx->worker = int(threads);
    guest_->cx->guest = true;
  }
  muting_ = workers_.size() > 1;
}

Dispatcher::Worker* Dispatcher::current_worker() const {
  auto* w = static_cast<Worker*>(tl_worker);
  return w && w->owner == this ? w : nullptr;
}

void Dispatcher::start() {
  if (started_) return;
  started_ = true;
  if (inline_) return;
  // Workers count as active until they first park, so a program whose
  // messages are all queued already is not idle before anyone looked.
  active_.store(int(workers_.size()), std::memory_order_seq_cst);
  // A deep stack for deep (but bounded, see stack_guard.hpp) recursion in
  // behaviors; smaller when the address space is limited.
  std::size_t stack = thread_stack_size(workers_.size());
  {
    std::lock_guard lock(park_mutex_);
    running_threads_ = int(workers_.size());
  }
  if (workers_.size() > 1 && governor_settings_.adaptive) {
    const auto now = WorkerGovernor::Clock::now();
    governor_ = std::make_unique<WorkerGovernor>(unsigned(workers_.size()), governor_settings_, now);
    governor_due_.store(governor_->next_step().time_since_epoch().count(), std::memory_order_relaxed);
    allowed_.store(governor_->allowed(), std::memory_order_relaxed);
  }
  for (auto& w : workers_) {
    Worker* wp = w.get();
    threads_.emplace_back([this, wp] { worker_main(*wp); }, stack);
  }
  // Only now: a guest turn counts itself in running_threads_, set above.
  guests_open_.store(true, std::memory_order_release);
}

void Dispatcher::stop() {
  halt_.store(true, std::memory_order_relaxed);  // busy workers stop after their current turn
  {
    std::lock_guard lock(park_mutex_);
    stopping_ = true;
  }
  park_cv_.notify_all();
  pause_cv_.notify_all();
  bench_cv_.notify_all();
  for (auto& t : threads_) t.join();
  threads_.clear();
  // Whatever is still queued is dropped with the queues' references.
  auto drop = [](Actor* a) {
    while (Message* m = a->mailbox.pop()) free_message(m);
    a->release();
  };
  for (auto& w : workers_)
    while (Actor* a = w->local.pop()) drop(a);
  while (Actor* a = pop_global()) drop(a);
  muted_.drain([&](Actor* receiver, Actor* sender) {
    while (sender) {
      Actor* next = sender->next_ready;
      drop(sender);
      sender = next;
    }
    receiver->release();
  });
}

// ------------------------------------------------------------------ sending

void Dispatcher::enqueue(Actor* target, Value msg) {
#if HUMUS_CHECKS
  if (msg.empty()) std::abort();  // it would read as a Batch (mailbox.hpp)
#endif
  auto* m = new Message;
  m->payload = std::move(msg);
  enqueue_chain(target, m, m, 1);
}

// Inlined into enqueue_chain, every SEND's path (a call more cost pingpong
// 0.5% of its instructions).
[[gnu::always_inline]] inline bool Dispatcher::queue_chain(Actor* target, Message* first, Message* last, uint64_t count,
                                                           bool guest_may_run) {
  Worker* w = current_worker();
  if (w) {
    w->sent.store(w->sent.load(std::memory_order_relaxed) + count, std::memory_order_relaxed);
    if (muting_) {
      const uint8_t p = count_send(target);
      if ((p & Actor::kUnderPressure) || Actor::queued(p) >= kQueuedToOverload) [[unlikely]]
        note_pressure(*w, target);
    }
  } else {
    // Outside the pool: count as outside work until the actor is queued, so
    // no one can see the system idle in between.
    external_.fetch_add(1, std::memory_order_seq_cst);
    external_sent_.fetch_add(count, std::memory_order_relaxed);
  }
  target->mailbox.push_chain(first, last);
  // seq_cst pairs with the worker's store of Idle and re-check in run_turn:
  // either we see Idle and schedule, or the worker sees our message.
  bool ran = false;
  SchedState expected = SchedState::Idle;
  if (target->state.load(std::memory_order_seq_cst) == SchedState::Idle &&
      target->state.compare_exchange_strong(expected, SchedState::Scheduled, std::memory_order_seq_cst)) {
    target->retain();  // the queue's reference
    ran = guest_may_run && !w && run_as_guest(target);
    if (!ran) make_ready(target);
  }
  if (!w) release();
  return ran;
}

void Dispatcher::enqueue_chain(Actor* target, Message* first, Message* last, uint64_t count) {
  queue_chain(target, first, last, count, false);
}

bool Dispatcher::deliver_chain(Actor* target, Message* first, Message* last, uint64_t count) {
  return queue_chain(target, first, last, count, guests_open_.load(std::memory_order_acquire));
}

bool Dispatcher::run_as_guest(Actor* actor) {
  // Some worker is awake: it will find the actor soon, on a thread made for it.
  if (active_.load(std::memory_order_seq_cst) != 0 || !runner_.may_run_outside(*actor)) return false;
  if (guest_busy_.exchange(true, std::memory_order_acquire)) return false;
  {
    std::lock_guard lock(park_mutex_);
    if (pausing_ || stopping_) {
      guest_busy_.store(false, std::memory_order_release);
      return false;
    }
    ++running_threads_;  // run_paused waits for this turn as for a worker's
  }
  Worker& g = *guest_;
  if (!tl_stack_limit) stack_guard_init_current();
  void* outer = tl_worker;
  tl_worker = &g;
  try {
    run_turn(g, actor);
  } catch (const std::bad_alloc&) {
    runner_.out_of_memory();  // as worker_main does
  }
  tl_worker = outer;
  // What the turn made runnable (and the actor, if it has more, or handed an
  // event back) goes where the workers find it.
  bool pushed = false;
  while (Actor* a = g.local.pop()) {
    push_global(a);
    pushed = true;
  }
  {
    std::lock_guard lock(park_mutex_);
    if (--running_threads_ == resting_ && pausing_) pause_cv_.notify_all();
  }
  guest_busy_.store(false, std::memory_order_release);
  if (pushed) wake_one();
  return true;
}

void Dispatcher::make_ready(Actor* actor) {
  if (Worker* w = current_worker()) {
    push_local(*w, actor);
    // The sender keeps running; wake a sleeper only if there is more here
    // than this worker is about to do itself (so a ping-pong pair stays on
    // one core instead of bouncing between two).
    if (w->local.size() > 1) wake_one();
  } else {
    push_global(actor);
    wake_one();
  }
}

void Dispatcher::push_local(Worker& w, Actor* actor) {
  if (w.local.push(actor)) return;
  // Full: half of it goes to the global queue, where any worker finds it.
  for (uint32_t i = 0; i < LocalQueue::kCapacity / 2; ++i)
    if (Actor* a = w.local.pop()) push_global(a);
  w.local.push(actor);
  wake_one();
}

void Dispatcher::push_global(Actor* actor) {
  std::lock_guard lock(global_mutex_);
  actor->next_ready = nullptr;
  if (global_tail_)
    global_tail_->next_ready = actor;
  else
    global_head_ = actor;
  global_tail_ = actor;
  global_size_.fetch_add(1, std::memory_order_seq_cst);
}

Actor* Dispatcher::pop_global() {
  if (global_size_.load(std::memory_order_seq_cst) == 0) return nullptr;
  std::lock_guard lock(global_mutex_);
  Actor* a = global_head_;
  if (!a) return nullptr;
  global_head_ = a->next_ready;
  if (!global_head_) global_tail_ = nullptr;
  global_size_.fetch_sub(1, std::memory_order_seq_cst);
  return a;
}

// ---------------------------------------------------------------- workers

void Dispatcher::worker_main(Worker& w) {
  tl_worker = &w;
  for (;;) {
    try {
      work(w);
      break;
    } catch (const std::bad_alloc&) {
      // Events and the runtime's hooks handle their own; this is a last
      // line: the run stops (dropping what is queued), and the worker goes on.
      runner_.out_of_memory();
    }
  }
  tl_worker = nullptr;
}

void Dispatcher::work(Worker& w) {
  while (!halt_.load(std::memory_order_relaxed)) {
    if (pause_flag_.load(std::memory_order_relaxed)) [[unlikely]]
      rest();
    if (benched(w)) [[unlikely]] {
      bench(w);
      continue;
    }
    if (Actor* a = find_work(w)) {
      run_turn(w, a);
      if (++w.turns_since_send == kTurnsPerSend) {
        send_queued(w);
        govern();
      }
      continue;
    }
    send_queued(w);  // before sleeping: nobody else may be awake to send it
    govern();
    park(w);
    std::lock_guard lock(park_mutex_);
    if (stopping_) break;
  }
}

Actor* Dispatcher::find_work(Worker& w) {
  // Now and then the global queue first, so that sends from outside (timers,
  // the top level, hosts) are not starved by a worker that always has local
  // work (Go's scheduler checks every 61 ticks, for the same reason).
  if (++w.ticks % 61 == 0)
    if (Actor* a = pop_global()) return a;
  if (Actor* a = w.local.pop()) return a;
  if (Actor* a = pop_global()) return a;
  return steal(w);
}

// Steals half of a sibling's ring, starting from a random sibling; runs the
// first actor taken and keeps the rest.
Actor* Dispatcher::steal(Worker& w) {
  const size_t n = workers_.size();
  if (n < 2) return nullptr;
  Actor* taken[LocalQueue::kCapacity / 2];
  const size_t start = w.rng() % n;
  for (size_t k = 0; k < n; ++k) {
    Worker& victim = *workers_[(start + k) % n];
    if (&victim == &w) continue;
    uint32_t got = victim.local.steal_half(taken);
    if (got == 0) continue;
    for (uint32_t i = 1; i < got; ++i) w.local.push(taken[i]);  // our ring is empty: they fit
    return taken[0];
  }
  return nullptr;
}

void Dispatcher::run_turn(Worker& w, Actor* actor) {
#if HUMUS_CHECKS
  // Checked builds (sanitizers): only the worker that took the actor from a
  // queue may run it, so it must find it Scheduled, never Running.
  if (actor->state.exchange(SchedState::Running, std::memory_order_acq_rel) != SchedState::Scheduled) {
    std::fprintf(stderr, "humus: internal error: actor @%llu run by two workers at once\n",
                 static_cast<unsigned long long>(actor->id()));
    std::abort();
  }
#else
  actor->state.store(SchedState::Running, std::memory_order_relaxed);
#endif
  w.running = actor;
  const uint64_t consumed = runner_.run_turn(*actor, *w.cx, budget_);
  w.running = nullptr;
  w.consumed.store(w.consumed.load(std::memory_order_relaxed) + consumed, std::memory_order_relaxed);
  if (muting_) {
    end_turn_pressure(w, actor, consumed >= budget_ && !actor->mailbox.empty_for_consumer());
    if (Actor* receiver = w.mute_on) {
      w.mute_on = nullptr;
      const bool muted =
          !(actor->pressure.load(std::memory_order_relaxed) & Actor::kOverloaded) && mute(actor, receiver);
      receiver->release();
      if (muted) return;
    }
  }
  if (!actor->mailbox.empty_for_consumer()) {
    // Budget used up, or a send is half done: to the back of the ring,
    // still ours (senders see Scheduled and leave it be).
    actor->state.store(SchedState::Scheduled, std::memory_order_relaxed);
    push_local(w, actor);
    return;
  }
  // Give the actor up, then look again: a sender that saw Running before our
  // store did not schedule it, so its message must be seen here.
  actor->state.store(SchedState::Idle, std::memory_order_seq_cst);
  SchedState expected = SchedState::Idle;
  if (actor->mailbox.pushed_since_empty() &&
      actor->state.compare_exchange_strong(expected, SchedState::Scheduled, std::memory_order_seq_cst)) {
    push_local(w, actor);  // keeps the queue's reference
  } else {
    actor->release();
  }
}

// ----------------------------------------------------------------- muting

uint8_t Dispatcher::count_send(Actor* target) {
  // The count shares the line the send writes anyway (the mailbox).
  const uint8_t p = target->pressure.load(std::memory_order_relaxed);
  if (Actor::queued(p) >= kQueuedCap || allowed_.load(std::memory_order_relaxed) < 2) return p;
  return uint8_t(target->pressure.fetch_add(Actor::kQueuedUnit, std::memory_order_relaxed) + Actor::kQueuedUnit);
}

void Dispatcher::end_turn_pressure(Worker& w, Actor* actor, bool full) {
  // Senders add to the count meanwhile, and mute() may make the actor
  // overloaded (under mute_mutex_): a compare-and-swap, so that either
  // mute() sees the count cleared, or this sees the flag and lets go of the
  // senders muted on it. (A count added after the clearing is a message
  // still to come: its turn will see the flag.)
  uint8_t p = actor->pressure.load(std::memory_order_relaxed);
  for (;;) {
    const uint8_t turns = p & Actor::kTurnBits;  // never kMuted: it runs
    uint8_t next = 0;
    if (full) {
      next =
          (turns & Actor::kOverloaded) || unsigned(turns + Actor::kFullTurn) >= Actor::kFullTurn * kFullTurnsToOverload
              ? Actor::kOverloaded
              : uint8_t(turns + Actor::kFullTurn);
    } else if (turns & Actor::kOverloaded) {
      unmute_senders(w, actor);  // clears it all, under the lock mute() takes
      return;
    }
    if (p == next || actor->pressure.compare_exchange_weak(p, next, std::memory_order_relaxed)) return;
  }
}

void Dispatcher::note_pressure(Worker& w, Actor* target) {
  if (!w.running || w.mute_on || target == w.running) return;
  // The governor has benched every other worker: a muted sender would only
  // wait for the one worker that runs its receiver anyway (Savina
  // chameneos: 400,000 mutes a run for nothing). Those muted before go back
  // when their receivers catch up, as ever.
  if (allowed_.load(std::memory_order_relaxed) < 2) return;
  target->retain();  // until the turn ends: our send alone does not keep it alive
  w.mute_on = target;
}

bool Dispatcher::mute(Actor* sender, Actor* receiver) {
  std::lock_guard lock(mute_mutex_);
  // An overloaded actor is never muted (the end of every chain of muted
  // actors runs). The caller looked, but a sender to it may have made it
  // overloaded since (below, under this lock).
  if (sender->pressure.load(std::memory_order_relaxed) & Actor::kOverloaded) return false;
  // Under the lock, which unmute_senders takes to clear the flags: either we
  // see the pressure gone, or the receiver's unmuting sees us.
  uint8_t p = receiver->pressure.load(std::memory_order_relaxed);
  // Not overloaded by full turns, but sent kQueuedToOverload messages or
  // more since its last turn (Savina filterbank's banks on two workers: one
  // ran ahead of the others, and the integrator's rounds grew without end):
  // overloaded now, and it will run, since those messages wait. A swap
  // against end_turn_pressure's, which clears the count without this lock.
  while (!(p & Actor::kUnderPressure)) {
    if (Actor::queued(p) < kQueuedToOverload) return false;
    if (receiver->pressure.compare_exchange_weak(p, uint8_t(p | Actor::kOverloaded), std::memory_order_relaxed)) break;
  }
  // Scheduled: senders leave it be; it keeps the queue's reference.
  sender->state.store(SchedState::Scheduled, std::memory_order_relaxed);
  sender->pressure.fetch_or(Actor::kMuted, std::memory_order_relaxed);
  if (muted_.add(receiver, sender)) receiver->retain();
  mutes_.fetch_add(1, std::memory_order_relaxed);
  return true;
}

void Dispatcher::unmute_senders(Worker& w, Actor* receiver) {
  w.unmuted.clear();
  w.unmuted_keys.clear();
  {
    std::lock_guard lock(mute_mutex_);
    receiver->pressure.store(0, std::memory_order_relaxed);  // it runs: it is not muted
    // The receiver's muted senders, then theirs (they are not muted any more).
    Actor* next = receiver;
    for (size_t i = 0;; next = w.unmuted[i++]) {
      if (Actor* s = muted_.take(next)) {
        for (; s; s = s->next_ready) {
          s->pressure.fetch_and(uint8_t(~Actor::kMuted), std::memory_order_relaxed);
          w.unmuted.push_back(s);
        }
        w.unmuted_keys.push_back(next);
      }
      if (i == w.unmuted.size()) break;
    }
  }
  for (Actor* a : w.unmuted_keys) a->release();  // the map's references
  for (Actor* s : w.unmuted) push_local(w, s);
  if (!w.unmuted.empty()) wake_one();
}

bool Dispatcher::run_here(std::chrono::steady_clock::time_point deadline) {
  Worker& w = *workers_.front();
  void* outer = tl_worker;
  tl_worker = &w;
  bool more = false;
  for (uint32_t turns = 1; !halt_.load(std::memory_order_relaxed); ++turns) {
    Actor* a = find_work(w);
    if (!a) break;
    run_turn(w, a);
    if (++w.turns_since_send == kTurnsPerSend) send_queued(w);
    if (turns % 16 == 0 && std::chrono::steady_clock::now() >= deadline) {
      more = true;
      break;
    }
  }
  send_queued(w);
  tl_worker = outer;
  return more;
}

void Dispatcher::send_queued(Worker& w) {
  w.turns_since_send = 0;
  runner_.send_queued();
}

// ---------------------------------------------------------------- parking

void Dispatcher::wake_one() {
  // seq_cst pairs with park(): a worker announces itself in sleepers_ and
  // then looks for work once more, so either it sees our actor or we see it.
  if (sleepers_.load(std::memory_order_seq_cst) == 0) return;
  {
    std::lock_guard lock(park_mutex_);
    ++tokens_;
  }
  park_cv_.notify_one();
}

void Dispatcher::park(Worker& w) {
  sleepers_.fetch_add(1, std::memory_order_seq_cst);
  if (Actor* a = find_work(w)) {  // work arrived while we were deciding to sleep
    sleepers_.fetch_sub(1, std::memory_order_seq_cst);
    run_turn(w, a);
    return;
  }
  if (active_.fetch_sub(1, std::memory_order_seq_cst) == 1) notify_if_idle();
  {
    std::unique_lock lock(park_mutex_);
    // A parked worker counts as resting for run_paused; it stays asleep
    // while a job runs, even with a token (it takes it afterwards).
    if (++resting_ == running_threads_ && pausing_) pause_cv_.notify_all();
    park_cv_.wait(lock, [this] { return (tokens_ > 0 && !pausing_) || stopping_; });
    --resting_;
    if (bench_asleep_) {
      // A benched worker slept while nothing ran: it steps the governor
      // again, in case the event we go to run is a long one.
      bench_asleep_ = false;
      bench_cv_.notify_all();
    }
    if (benched(w)) {
      // Benched while parked: the token is for a worker that may run (the
      // work loop then benches this one).
      if (tokens_ > 0) park_cv_.notify_all();
    } else if (tokens_ > 0) {
      --tokens_;
    }
    // Active again before anyone can see the token gone: the actor that
    // woke us is still in a queue, so the system is not idle meanwhile.
    active_.fetch_add(1, std::memory_order_seq_cst);
  }
  sleepers_.fetch_sub(1, std::memory_order_seq_cst);
}

// ---------------------------------------------------------------- the bench

uint64_t Dispatcher::events_run() const {
  uint64_t n = 0;
  for (const auto& w : workers_) n += w->cx->events.load(std::memory_order_relaxed);
  if (guest_) n += guest_->cx->events.load(std::memory_order_relaxed);
  return n;
}

bool Dispatcher::work_waiting() const {
  if (global_size_.load(std::memory_order_relaxed)) return true;
  for (const auto& w : workers_)
    if (w->local.size()) return true;  // (another worker's ring: a guess, enough here)
  return false;
}

void Dispatcher::govern() {
  if (!governor_) return;
  const auto real = WorkerGovernor::Clock::now();
  if (real.time_since_epoch().count() < governor_due_.load(std::memory_order_relaxed)) return;
  std::unique_lock lock(governor_mutex_, std::try_to_lock);
  if (!lock) return;
  // The governor's clock leaves out the time every worker stood paused for
  // the cycle collector: a window that held a pause would read slow.
  const WorkerGovernor::Clock::duration paused(paused_ns_.load(std::memory_order_relaxed));
  const unsigned before = governor_->allowed();
  const unsigned now_allowed = governor_->step(real - paused, events_run(), work_waiting());
  governor_due_.store((governor_->next_step() + paused).time_since_epoch().count(), std::memory_order_relaxed);
  probe_ns_.store(governor_->probe_time().count(), std::memory_order_relaxed);
  window_ns_.store(governor_->window().count(), std::memory_order_relaxed);
  if (now_allowed == before) return;
  worker_changes_.store(governor_->changes(), std::memory_order_relaxed);
  allowed_.store(now_allowed, std::memory_order_relaxed);
  if (now_allowed > before) {
    // Benched workers wait on bench_cv_ under park_mutex_: taking it orders
    // the store before their re-check.
    { std::lock_guard park_lock(park_mutex_); }
    bench_cv_.notify_all();
  }
}

void Dispatcher::bench(Worker& w) {
  // Its ring goes where the running workers look.
  bool gave = false;
  while (Actor* a = w.local.pop()) {
    push_global(a);
    gave = true;
  }
  if (gave) wake_one();
  send_queued(w);
  if (active_.fetch_sub(1, std::memory_order_seq_cst) == 1) notify_if_idle();
  std::unique_lock lock(park_mutex_);
  if (++resting_ == running_threads_ && pausing_) pause_cv_.notify_all();
  while (!stopping_ && (benched(w) || pausing_)) {
    bench_wakes_.fetch_add(1, std::memory_order_relaxed);
    if (pausing_) {
      // Untimed: the pause's end wakes us. Timed, a step that fell due in
      // the pause (no worker steps then) timed out at once, over and over:
      // a spin on park_mutex_ for the rest of the pause (waves on two
      // threads: 650 turns of this loop in a run, 700 in all).
      bench_cv_.wait(lock);
      continue;
    }
    if (active_.load(std::memory_order_seq_cst) == 0) {
      // Every worker parked: no event runs, so no step has anything to
      // measure. Untimed as well, until a worker wakes (park() wakes us);
      // timed, an idle program woke this worker 177 times a second.
      bench_asleep_ = true;
      bench_cv_.wait(lock);
      continue;
    }
    // Timed: when the governor's step is due, this worker takes it, since
    // the running ones may all be inside long events.
    const WorkerGovernor::Clock::time_point due{
        WorkerGovernor::Clock::duration(governor_due_.load(std::memory_order_relaxed))};
    if (bench_cv_.wait_until(lock, due) == std::cv_status::timeout && !pausing_ && !stopping_) {
      lock.unlock();
      govern();
      lock.lock();
    }
  }
  --resting_;
  active_.fetch_add(1, std::memory_order_seq_cst);
}

// ---------------------------------------------------------------- pausing

void Dispatcher::rest() {
  std::unique_lock lock(park_mutex_);
  if (++resting_ == running_threads_ && pausing_) pause_cv_.notify_all();
  park_cv_.wait(lock, [this] { return !pausing_ || stopping_; });
  --resting_;
}

bool Dispatcher::run_paused(const std::function<void()>& job, std::chrono::nanoseconds limit) {
  const auto began = std::chrono::steady_clock::now();
  std::unique_lock lock(park_mutex_);
  pausing_ = true;
  pause_flag_.store(true, std::memory_order_relaxed);
  const bool all = pause_cv_.wait_for(lock, limit, [this] { return resting_ == running_threads_ || stopping_; });
  const bool ran = all && !stopping_;
  // Whatever happens (the job may throw std::bad_alloc), the workers go on.
  struct Resume {
    Dispatcher& d;
    std::unique_lock<std::mutex>& lock;
    std::chrono::steady_clock::time_point began;
    ~Resume() {
      // The governor's clock stands still while the workers wait here.
      d.paused_ns_.fetch_add((std::chrono::steady_clock::now() - began).count(), std::memory_order_relaxed);
      if (!lock.owns_lock()) lock.lock();
      d.pausing_ = false;
      d.pause_flag_.store(false, std::memory_order_relaxed);
      lock.unlock();
      d.park_cv_.notify_all();
      d.bench_cv_.notify_all();
    }
  } resume{*this, lock, began};
  if (ran) {
    // The workers wait on park_mutex_'s condition; the job runs without it,
    // so a thread that sends meanwhile (a timer, a host) is not blocked.
    lock.unlock();
    job();
  }
  return ran;
}

// ------------------------------------------------------------- quiescence

bool Dispatcher::idle_now() const {
  return active_.load(std::memory_order_seq_cst) == 0 && external_.load(std::memory_order_seq_cst) == 0 &&
         global_size_.load(std::memory_order_seq_cst) == 0;
}

void Dispatcher::notify_if_idle() {
  std::lock_guard lock(idle_mutex_);
  if (idle_now()) {
#if HUMUS_CHECKS
    // Idle with a sender still held back: the receiver it waits for will
    // never run (see Muting), and the sender's messages would be lost.
    std::lock_guard mute_lock(mute_mutex_);
    if (!muted_.empty()) {
      std::fprintf(stderr, "humus: internal error: idle with muted senders\n");
      std::abort();
    }
#endif
    idle_cv_.notify_all();
  }
}

void Dispatcher::release() {
  if (external_.fetch_sub(1, std::memory_order_seq_cst) == 1) notify_if_idle();
}

void Dispatcher::wait_idle() {
  std::unique_lock lock(idle_mutex_);
  // Before start() nothing runs, so there is nothing to wait for.
  idle_cv_.wait(lock, [this] { return !started_ || idle_now(); });
}

bool Dispatcher::wait_idle_for(std::chrono::nanoseconds limit) {
  std::unique_lock lock(idle_mutex_);
  return idle_cv_.wait_for(lock, limit, [this] { return !started_ || idle_now(); });
}

uint64_t Dispatcher::drain() {
  dropped_.store(0, std::memory_order_relaxed);
  dropping_.store(true, std::memory_order_relaxed);
  wait_idle();
  dropping_.store(false, std::memory_order_relaxed);
  return dropped_.load(std::memory_order_relaxed);
}

DispatchStats Dispatcher::stats() const {
  DispatchStats s;
  uint64_t sent = external_sent_.load(std::memory_order_relaxed), consumed = 0;
  auto each = [&](const Worker* w) {
    sent += w->sent.load(std::memory_order_relaxed);
    consumed += w->consumed.load(std::memory_order_relaxed);
    s.events += w->cx->events.load(std::memory_order_relaxed);
    s.unhandled += w->cx->unhandled.load(std::memory_order_relaxed);
  };
  for (const auto& w : workers_) each(w.get());
  if (guest_) {
    each(guest_.get());
    s.guest_events = guest_->cx->events.load(std::memory_order_relaxed);
    s.handed_back = guest_->cx->handed_back.load(std::memory_order_relaxed);
  }
  s.queued = sent > consumed ? sent - consumed : 0;
  s.workers_allowed = std::min(allowed_.load(std::memory_order_relaxed), unsigned(workers_.size()));
  s.worker_changes = worker_changes_.load(std::memory_order_relaxed);
  s.probe_ms = double(probe_ns_.load(std::memory_order_relaxed)) / 1e6;
  s.window_ms = double(window_ns_.load(std::memory_order_relaxed)) / 1e6;
  s.mutes = mutes_.load(std::memory_order_relaxed);
  s.bench_wakes = bench_wakes_.load(std::memory_order_relaxed);
  const int64_t held = external_.load(std::memory_order_relaxed);
  s.holds = held > 0 ? uint64_t(held) : 0;
  return s;
}

uint64_t Dispatcher::progress() const {
  uint64_t n = 0;
  for (const auto& w : workers_)
    n += w->consumed.load(std::memory_order_relaxed) + w->cx->events.load(std::memory_order_relaxed);
  if (guest_)
    n += guest_->consumed.load(std::memory_order_relaxed) + guest_->cx->events.load(std::memory_order_relaxed);
  return n;
}

}  // namespace humus::rt
