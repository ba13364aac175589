// Delayed sends (AFTER ... SEND and the `timer` actor) on one timer thread.
//
// Pending timers sit in a map ordered by due time; the thread sleeps on a
// condition variable until the earliest is due or a sooner one arrives.
// Each pending timer holds the dispatcher (Dispatcher::hold), so a program
// with a timer still to fire is not quiescent. The thread starts with the
// runtime and sleeps until a timer is due. A timer scheduled with an id
// (reserve_id) can be cancelled: it is removed at once, with its message,
// and holds the program no longer (the `timer` actor's #schedule).
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <utility>
#include <vector>

#include "runtime/stack_guard.hpp"
#include "runtime/value.hpp"

namespace humus::rt {

class Dispatcher;

class Timers {
 public:
  // threaded = false: no thread; the host calls fire_due (the playground).
  explicit Timers(Dispatcher& dispatcher, bool threaded = true);
  ~Timers() { stop(); }
  void stop();  // cancels what is pending
  Timers(const Timers&) = delete;
  Timers& operator=(const Timers&) = delete;

  // Delivers `message` to `target` (an actor) after `delay_ms` milliseconds.
  // A non-zero `tag` (a traced run's message id) makes the delivery go
  // through the fire hook instead, which enqueues it. A non-zero `id` (from
  // reserve_id) lets cancel() take the timer back.
  void schedule(int64_t delay_ms, Value target, Value message, uint64_t tag = 0, uint64_t id = 0);
  // An id for a cancellable timer, unique in this runtime.
  uint64_t reserve_id() { return next_id_.fetch_add(1, std::memory_order_relaxed); }
  // Takes back timer `id` if it has not fired: true when it was pending.
  bool cancel(uint64_t id);
  using FireHook = std::function<void(uint64_t tag, Value target, Value message)>;
  void set_fire_hook(FireHook hook) { fire_hook_ = std::move(hook); }
  size_t pending() const;
  // Without a thread: delivers the timers that are due (`fired` says if
  // any was); returns the milliseconds until the next one, -1 if none.
  int64_t fire_due(bool* fired);

 private:
  using Clock = std::chrono::steady_clock;
  using Key = std::pair<Clock::time_point, uint64_t>;  // due, then scheduling order
  struct Entry {
    Value target;
    Value message;
    uint64_t tag;
    uint64_t id;  // 0: not cancellable
  };

  void thread_main();
  static constexpr std::size_t kTimerStackSize = kMinThreadStackSize;
  void deliver(Entry& e);
  Entry pop_first();  // under mutex_, the map not empty

  Dispatcher& dispatcher_;
  const bool threaded_;
  mutable std::mutex mutex_;
  std::condition_variable cv_;
  std::map<Key, Entry> pending_;
  std::unordered_map<uint64_t, Key> by_id_;  // the cancellable ones
  uint64_t seq_ = 0;
  std::atomic<uint64_t> next_id_{1};
  bool stopping_ = false;
  FireHook fire_hook_;
  std::unique_ptr<BigStackThread> thread_;
};

}  // namespace humus::rt
