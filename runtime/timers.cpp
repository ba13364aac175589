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
  std::map<Key, Entry> dropped;
  {
    std::lock_guard lock(mutex_);
    dropped.swap(pending_);
    by_id_.clear();
  }
  for (size_t i = 0; i < dropped.size(); ++i) dispatcher_.release();
}

void Timers::schedule(int64_t delay_ms, Value target, Value message, uint64_t tag, uint64_t id) {
  dispatcher_.hold();
  {
    std::lock_guard lock(mutex_);
    if (stopping_) {  // the runtime is ending: nothing will fire any more
      dispatcher_.release();
      return;
    }
    // A delay past the clock's range (about 292 years) never comes.
    const Key key{deadline_after_ms(Clock::now(), delay_ms), seq_++};
    pending_.emplace(key, Entry{std::move(target), std::move(message), tag, id});
    if (id) by_id_.emplace(id, key);
  }
  cv_.notify_one();
}

bool Timers::cancel(uint64_t id) {
  Entry gone{};  // its values are released outside the lock
  {
    std::lock_guard lock(mutex_);
    auto it = by_id_.find(id);
    if (it == by_id_.end()) return false;
    auto node = pending_.find(it->second);
    by_id_.erase(it);
    if (node == pending_.end()) return false;
    gone = std::move(node->second);
    pending_.erase(node);
  }
  dispatcher_.release();  // it holds the program no longer
  return true;
}

size_t Timers::pending() const {
  std::lock_guard lock(mutex_);
  return pending_.size();
}

Timers::Entry Timers::pop_first() {
  auto first = pending_.begin();
  Entry e = std::move(first->second);
  if (e.id) by_id_.erase(e.id);
  pending_.erase(first);
  return e;
}

void Timers::thread_main() {
  std::unique_lock lock(mutex_);
  while (!stopping_) {
    if (pending_.empty()) {
      cv_.wait(lock);
      continue;
    }
    auto due = pending_.begin()->first.first;
    if (Clock::now() < due) {
      cv_.wait_until(lock, due);
      continue;
    }
    Entry e = pop_first();
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
  while (!stopping_ && !pending_.empty()) {
    const auto now = Clock::now();
    const auto due = pending_.begin()->first.first;
    if (due > now) return std::chrono::ceil<std::chrono::milliseconds>(due - now).count();
    Entry e = pop_first();
    lock.unlock();
    deliver(e);
    *fired = true;
    lock.lock();
  }
  return -1;
}

}  // namespace humus::rt
