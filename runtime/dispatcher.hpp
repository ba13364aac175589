// The dispatcher: worker threads that run actors' message-events.
//
// This is the simple dispatcher of the interpreter issue: one shared ready
// queue under a mutex, N workers, and the per-actor scheduling state that the
// multi-core dispatcher will keep (Idle -> Scheduled -> Running). An actor is
// in the ready queue at most once, so at most one worker runs it at a time.
//
// Quiescence is a count of work in flight: every queued message and every
// pending timer adds one, and it drops when the event that consumed the
// message has committed (its own sends already counted). The program is done
// exactly when the count reaches zero; nobody polls.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <vector>

#include "runtime/actor.hpp"
#include "runtime/stack_guard.hpp"

namespace humus::rt {

struct Context;

// What the dispatcher calls to run one message-event (the Runtime).
class EventRunner {
 public:
  virtual ~EventRunner() = default;
  virtual Context make_context() = 0;
  virtual void run_event(Actor& actor, Value& message, Context& cx) = 0;
};

class Dispatcher {
 public:
  Dispatcher(EventRunner& runner, unsigned threads, unsigned budget);
  ~Dispatcher() { stop(); }
  // Stops the workers; queued messages are dropped.
  void stop();
  Dispatcher(const Dispatcher&) = delete;
  Dispatcher& operator=(const Dispatcher&) = delete;

  // Starts the workers (until then messages only queue up).
  void start();
  // Queues `msg` for `target`, which the caller keeps alive during the call.
  void enqueue(Actor* target, Value msg);
  // Work that is not a queued message but must keep the program alive (timers).
  void hold() { pending_.fetch_add(1, std::memory_order_relaxed); }
  void release() { finish_one(); }
  // Blocks until no message is queued or running and nothing is held.
  void wait_idle();
  // Drops every queued message and waits for running events to finish;
  // returns how many messages were dropped.
  uint64_t drain();
  uint64_t pending() const { return uint64_t(pending_.load(std::memory_order_acquire)); }
  unsigned threads() const { return threads_; }

 private:
  void worker_main();
  void run_turn(Actor* actor, Context& cx);
  void push_ready(Actor* actor);
  Actor* pop_ready();  // null when stopping
  void finish_one();

  EventRunner& runner_;
  const unsigned threads_;
  const unsigned budget_;
  std::vector<BigStackThread> workers_;

  std::mutex ready_mutex_;
  std::condition_variable ready_cv_;
  std::deque<Actor*> ready_;
  unsigned sleeping_ = 0;
  bool stopping_ = false;
  std::atomic<bool> dropping_{false};

  std::atomic<int64_t> pending_{0};
  std::atomic<uint64_t> dropped_{0};
  std::mutex idle_mutex_;
  std::condition_variable idle_cv_;
};

}  // namespace humus::rt
