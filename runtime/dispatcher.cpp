#include "runtime/dispatcher.hpp"

#include "runtime/context.hpp"
#include "runtime/stack_guard.hpp"

namespace humus::rt {

Dispatcher::Dispatcher(EventRunner& runner, unsigned threads, unsigned budget)
    : runner_(runner), threads_(threads ? threads : 1), budget_(budget ? budget : 1) {}

void Dispatcher::stop() {
  {
    std::lock_guard lock(ready_mutex_);
    stopping_ = true;
  }
  ready_cv_.notify_all();
  for (auto& t : workers_) t.join();
  workers_.clear();
  // Whatever is still queued is dropped with its actors' references.
  for (Actor* a : ready_) {
    while (Message* m = a->mailbox.pop()) delete m;
    a->release();
  }
  ready_.clear();
}

void Dispatcher::start() {
  if (!workers_.empty()) return;
  for (unsigned i = 0; i < threads_; ++i) {
    // A deep stack for deep (but bounded, see stack_guard.hpp) recursion in behaviors.
    workers_.emplace_back([this] { worker_main(); });
  }
}

void Dispatcher::enqueue(Actor* target, Value msg) {
  pending_.fetch_add(1, std::memory_order_relaxed);
  auto* m = new Message;
  m->payload = std::move(msg);
  target->mailbox.push(m);
  // seq_cst pairs with the worker's store of Idle and re-check in run_turn:
  // either we see Idle and schedule, or the worker sees our message.
  SchedState expected = SchedState::Idle;
  if (target->state.load(std::memory_order_seq_cst) == SchedState::Idle &&
      target->state.compare_exchange_strong(expected, SchedState::Scheduled, std::memory_order_seq_cst)) {
    target->retain();  // the ready queue's reference
    push_ready(target);
  }
}

void Dispatcher::push_ready(Actor* actor) {
  bool wake;
  {
    std::lock_guard lock(ready_mutex_);
    if (stopping_) {  // a late send (a timer) while stopping: dropped
      while (Message* m = actor->mailbox.pop()) delete m;
      actor->release();
      return;
    }
    ready_.push_back(actor);
    wake = sleeping_ > 0;
  }
  if (wake) ready_cv_.notify_one();
}

Actor* Dispatcher::pop_ready() {
  std::unique_lock lock(ready_mutex_);
  while (ready_.empty() && !stopping_) {
    ++sleeping_;
    ready_cv_.wait(lock);
    --sleeping_;
  }
  if (stopping_) return nullptr;
  Actor* a = ready_.front();
  ready_.pop_front();
  return a;
}

void Dispatcher::worker_main() {
  Context cx = runner_.make_context();
  while (Actor* a = pop_ready()) run_turn(a, cx);
}

void Dispatcher::run_turn(Actor* actor, Context& cx) {
  actor->state.store(SchedState::Running, std::memory_order_relaxed);
  for (unsigned n = 0; n < budget_; ++n) {
    Message* m = actor->mailbox.pop();
    if (!m) break;
    if (!dropping_) runner_.run_event(*actor, m->payload, cx);
    else dropped_.fetch_add(1, std::memory_order_relaxed);
    delete m;
    finish_one();
  }
  if (!actor->mailbox.empty_for_consumer()) {
    // Budget used up, or a send is half done: to the back of the queue,
    // still ours (senders see Scheduled and leave it be).
    actor->state.store(SchedState::Scheduled, std::memory_order_relaxed);
    push_ready(actor);
    return;
  }
  // Give the actor up, then look again: a sender that saw Running before our
  // store did not schedule it, so its message must be seen here.
  actor->state.store(SchedState::Idle, std::memory_order_seq_cst);
  SchedState expected = SchedState::Idle;
  if (actor->mailbox.pushed_since_empty() &&
      actor->state.compare_exchange_strong(expected, SchedState::Scheduled, std::memory_order_seq_cst)) {
    push_ready(actor);  // keeps the ready queue's reference
  } else {
    actor->release();
  }
}

void Dispatcher::finish_one() {
  if (pending_.fetch_sub(1, std::memory_order_acq_rel) == 1) {
    std::lock_guard lock(idle_mutex_);
    idle_cv_.notify_all();
  }
}

void Dispatcher::wait_idle() {
  std::unique_lock lock(idle_mutex_);
  idle_cv_.wait(lock, [this] { return pending_.load(std::memory_order_acquire) == 0; });
}

uint64_t Dispatcher::drain() {
  dropped_.store(0, std::memory_order_relaxed);
  dropping_ = true;
  wait_idle();
  dropping_ = false;
  return dropped_.load(std::memory_order_relaxed);
}

}  // namespace humus::rt
