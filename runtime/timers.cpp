#include "runtime/timers.hpp"

#include "runtime/actor.hpp"
#include "runtime/deadline.hpp"
#include "runtime/dispatcher.hpp"

namespace humus::rt {

Timers::Timers(Dispatcher& dispatcher) : dispatcher_(dispatcher) {
  // Started with the runtime, so that a system without room for one more
  // thread says so at start-up, not in the middle of a commit. It runs no
  // Humus code: a small stack does.
  thread_ = std::make_unique<BigStackThread>([this] { thread_main(); }, kTimerStackSize);
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

void Timers::schedule(int64_t delay_ms, Value target, Value message) {
  dispatcher_.hold();
  {
    std::lock_guard lock(mutex_);
    if (stopping_) {  // the runtime is ending: nothing will fire any more
      dispatcher_.release();
      return;
    }
    // A delay past the clock's range (about 292 years) never comes.
    auto due = deadline_after_ms(Clock::now(), delay_ms);
    heap_.push(Entry{due, seq_++, std::move(target), std::move(message)});
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
    dispatcher_.enqueue(e.target.as<Actor>(), std::move(e.message));
    dispatcher_.release();  // the enqueued message now keeps the program alive
    lock.lock();
  }
}

}  // namespace humus::rt
