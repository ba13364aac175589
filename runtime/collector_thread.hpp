// When and where the cycle collector (cycle_collector.hpp) looks: its
// trigger (the live actors grew enough since the last look), its own
// thread, and keeping events and outside code still while it looks.
//
// Events are held still by pausing the dispatcher's workers between turns
// (Dispatcher::run_paused); code that runs outside any event (a top-level
// statement, a host's call) holds an OutsideScope, and a look waits for
// none to be open. Without worker threads (the playground) there is no
// collector thread: the host's slices look when it was asked for (run_for).
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>

#if defined(__linux__)
#include <sched.h>
#endif

#include "runtime/actor_heap.hpp"
#include "runtime/cycle_collector.hpp"

namespace humus::rt {

class Dispatcher;

// What the cycle collector did so far.
struct CycleStats {
  uint64_t collections = 0;       // looks at the whole heap of actors
  uint64_t actors_collected = 0;  // actors freed because only garbage held them
  uint64_t pause_us_total = 0;    // time workers were held still for it
  uint64_t pause_us_max = 0;
  // Times it was put off and tried later: it waited too long for a busy
  // event, or a host copied values out of a list while it read.
  uint64_t gave_up = 0;
  // Of `collections`, those its thread ran on the processor of the thread
  // that asked for them (Linux: see CollectorThread::main).
  uint64_t on_askers_cpu = 0;
};

class CollectorThread {
 public:
  // Looks when `cycle_check` actors live, then as they grow (0: only when
  // asked, and at the end). `dispatcher` may be made after this object, but
  // before start().
  CollectorThread(ActorHeap& heap, Dispatcher& dispatcher, uint64_t cycle_check);
  ~CollectorThread() { stop(); }
  CollectorThread(const CollectorThread&) = delete;
  CollectorThread& operator=(const CollectorThread&) = delete;

  // Sets the first look's mark: cycle_check actors more than live now.
  void arm() {
    if (cycle_check_) next_check_.store(heap_.live() + cycle_check_, std::memory_order_relaxed);
  }
  void start();  // the thread, when the dispatcher has worker threads
  void stop();   // before the workers go: a look pauses them

  // Called for each actor made: one load and compare on the common path.
  void note_actor_made() {
    if (uint64_t(heap_.live()) >= next_check_.load(std::memory_order_relaxed)) [[unlikely]]
      request();
  }
  // Asked for and not done yet (run_for, which has no collector thread).
  bool wanted();
  // One look, if it can pause the workers within `limit` (one at a time).
  bool try_collect(std::chrono::nanoseconds limit);
  // A look now, waiting for a busy event or outside code, a minute at most.
  CycleStats collect_now();
  CycleStats stats() const;
  // When the runtime goes and nothing runs any more.
  void collect_final();

  // Held while code runs outside any event; a look waits for it to end.
  void enter_outside();
  void leave_outside() { outside_running_.fetch_sub(1, std::memory_order_seq_cst); }

 private:
  void request();
  void main();
  // Moves this thread to `cpu` for a look (false: it could not); move_back()
  // restores the processors it may run on.
  bool move_to(int cpu);
  void move_back();

  ActorHeap& heap_;
  Dispatcher& dispatcher_;
  const uint64_t cycle_check_;
  CycleCollector tables_;                         // kept between collections
  std::atomic<uint64_t> next_check_{UINT64_MAX};  // live actors that trigger the next look
  std::atomic<int> outside_running_{0};           // OutsideScopes open
  std::atomic<bool> collecting_{false};           // a collection wants outside code to wait
  mutable std::mutex mutex_;                      // guards the fields below but turn_
  std::condition_variable wake_;                  // the thread waits here for a request
  std::condition_variable outside_cv_;            // OutsideScopes wait here while collecting_
  bool requested_ = false;
  uint64_t asked_at_ = 0;  // live actors when it was requested
  int asker_cpu_ = -1;     // the processor the request came from (-1: unknown)
  bool stopping_ = false;
  std::mutex turn_;      // one collection at a time (the thread, collect_now, run_for)
  uint64_t growth_ = 1;  // under turn_: the next look waits for live * this more actors
  CycleStats stats_;     // under mutex_
  std::thread thread_;
#if defined(__linux__)
  cpu_set_t allowed_;   // the thread's own: the processors it may run on between looks
  bool saved_ = false;  // allowed_ holds them
#endif
};

}  // namespace humus::rt
