// Delayed sends (AFTER ... SEND and the `timer` actor) on one timer thread.
//
// Pending timers sit in a min-heap ordered by due time; the thread sleeps on
// a condition variable until the earliest is due or a sooner one arrives.
// Each pending timer holds the dispatcher (Dispatcher::hold), so a program
// with a timer still to fire is not quiescent. The thread starts with the
// runtime and sleeps until a timer is due.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <queue>
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
  // through the fire hook instead, which enqueues it.
  void schedule(int64_t delay_ms, Value target, Value message, uint64_t tag = 0);
  using FireHook = std::function<void(uint64_t tag, Value target, Value message)>;
  void set_fire_hook(FireHook hook) { fire_hook_ = std::move(hook); }
  size_t pending() const;
  // Without a thread: delivers the timers that are due (`fired` says if
  // any was); returns the milliseconds until the next one, -1 if none.
  int64_t fire_due(bool* fired);

 private:
  using Clock = std::chrono::steady_clock;
  struct Entry {
    Clock::time_point due;
    uint64_t seq;  // equal due times fire in scheduling order
    Value target;
    Value message;
    uint64_t tag;
  };
  struct Later {
    bool operator()(const Entry& a, const Entry& b) const { return a.due != b.due ? a.due > b.due : a.seq > b.seq; }
  };

  void thread_main();
  static constexpr std::size_t kTimerStackSize = kMinThreadStackSize;
  void deliver(Entry& e);

  Dispatcher& dispatcher_;
  const bool threaded_;
  mutable std::mutex mutex_;
  std::condition_variable cv_;
  std::priority_queue<Entry, std::vector<Entry>, Later> heap_;
  uint64_t seq_ = 0;
  bool stopping_ = false;
  FireHook fire_hook_;
  std::unique_ptr<BigStackThread> thread_;
};

}  // namespace humus::rt
