#include "runtime/timers.hpp"

#include "runtime/actor.hpp"
#include "runtime/deadline.hpp"
#include "runtime/dispatcher.hpp"

namespace humus::rt {

Timers::Timers(Dispatcher& dispatcher, bool threaded) : dispatcher_(dispatcher), threaded_(threaded) {
  // Started with the runtime, so that a system without room for one more
  // thread says so at start-up, not in the middle of a commit. It runs no
  // Humus code: a small stack does.
  if (threaded_) thread_ = std::make_unique<BigStackThread>([this] { thread_main(); }, kTimerStackSize);
}

void Timers::stop() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  cv_.notify_all();
  thread_.reset();
  while (!heap_.empty()) {
    heap_.pop();
    dispatcher_.release();
  }
}

void Timers::schedule(int64_t delay_ms, Value target, Value message, uint64_t tag) {
  dispatcher_.hold();
  {
    std::lock_guard lock(mutex_);
    if (stopping_) {  // the runtime is ending: nothing will fire any more
      dispatcher_.release();
      return;
    }
    // A delay past the clock's range (about 292 years) never comes.
    auto due = deadline_after_ms(Clock::now(), delay_ms);
    heap_.push(Entry{due, seq_++, std::move(target), std::move(message), tag});
  }
  cv_.notify_one();
}

size_t Timers::pending() const {
  std::lock_guard lock(mutex_);
  return heap_.size();
}

void Timers::thread_main() {
  std::unique_lock lock(mutex_);
  while (!stopping_) {
    if (heap_.empty()) {
      cv_.wait(lock);
      continue;
    }
    auto due = heap_.top().due;
    if (Clock::now() < due) {
      cv_.wait_until(lock, due);
      continue;
    }
    // priority_queue::top is const; the entry is popped right after, so moving out is safe.
    Entry e = std::move(const_cast<Entry&>(heap_.top()));
    heap_.pop();
    lock.unlock();
    deliver(e);
    lock.lock();
  }
}

void Timers::deliver(Entry& e) {
  if (e.tag && fire_hook_)
    fire_hook_(e.tag, std::move(e.target), std::move(e.message));
  else
    dispatcher_.enqueue(e.target.as<Actor>(), std::move(e.message));
  dispatcher_.release();  // the enqueued message now keeps the program alive
}

int64_t Timers::fire_due(bool* fired) {
  std::unique_lock lock(mutex_);
  while (!stopping_ && !heap_.empty()) {
    const auto now = Clock::now();
    if (heap_.top().due > now) return std::chrono::ceil<std::chrono::milliseconds>(heap_.top().due - now).count();
    Entry e = std::move(const_cast<Entry&>(heap_.top()));
    heap_.pop();
    lock.unlock();
    deliver(e);
    *fired = true;
    lock.lock();
  }
  return -1;
}

}  // namespace humus::rt
