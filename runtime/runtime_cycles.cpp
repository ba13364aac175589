// The Runtime's side of the cycle collector (runtime/cycle_collector.hpp):
// when to look, on which thread, and keeping events and outside code still
// while it looks.
#include <algorithm>
#include <chrono>
#include <new>

#include "runtime/runtime.hpp"

namespace humus::rt {

namespace {
// How long a collection waits for busy workers to finish their turn before
// it gives up and tries again later: the idle ones wait meanwhile.
constexpr auto kPauseWait = std::chrono::milliseconds(20);
constexpr auto kRetryAfter = std::chrono::milliseconds(50);
}  // namespace

Runtime::OutsideScope::OutsideScope(Runtime& rt) : rt_(rt) {
  for (;;) {
    // seq_cst pairs with try_collect: either it sees us running, or we see it collecting.
    rt_.outside_running_.fetch_add(1, std::memory_order_seq_cst);
    if (!rt_.collecting_.load(std::memory_order_seq_cst)) return;
    rt_.outside_running_.fetch_sub(1, std::memory_order_seq_cst);
    std::unique_lock lock(rt_.cycles_mutex_);
    rt_.outside_cv_.wait(lock, [this] { return !rt_.collecting_.load(std::memory_order_seq_cst); });
  }
}

Runtime::OutsideScope::~OutsideScope() { rt_.outside_running_.fetch_sub(1, std::memory_order_seq_cst); }

void Runtime::request_cycle_check() {
  // Raised out of reach until the collection sets the next mark, so the
  // actors made meanwhile do not ask again.
  next_cycle_check_.store(UINT64_MAX, std::memory_order_relaxed);
  {
    std::lock_guard lock(cycles_mutex_);
    cycle_check_requested_ = true;
    cycle_check_asked_at_ = uint64_t(std::max<int64_t>(heap_.live(), 1));
  }
  cycles_cv_.notify_one();
}

bool Runtime::cycle_check_wanted() {
  std::lock_guard lock(cycles_mutex_);
  return cycle_check_requested_;
}

void Runtime::start_collector() {
  if (!dispatcher_.has_threads() || collector_.joinable()) return;
  collector_ = std::thread([this] { collector_main(); });
}

void Runtime::stop_collector() {
  {
    std::lock_guard lock(cycles_mutex_);
    collector_stopping_ = true;
  }
  cycles_cv_.notify_all();
  if (collector_.joinable() && collector_.get_id() != std::this_thread::get_id()) collector_.join();
}

void Runtime::collector_main() {
  std::unique_lock lock(cycles_mutex_);
  for (;;) {
    cycles_cv_.wait(lock, [this] { return cycle_check_requested_ || collector_stopping_; });
    if (collector_stopping_) return;
    lock.unlock();
    const bool done = try_collect(kPauseWait);
    lock.lock();
    if (!done) {
      ++cycle_stats_.gave_up;
      cycles_cv_.wait_for(lock, kRetryAfter, [this] { return collector_stopping_; });
      // Put off while the live actors more than doubled: a busy event made
      // them (one event building a structure of a million actors). What an
      // event just made is mostly alive, and a look costs what lives: the
      // look waits until they double again, as if it had been made now.
      const uint64_t live = uint64_t(std::max<int64_t>(heap_.live(), 0));
      if (cycle_check_requested_ && live >= 2 * cycle_check_asked_at_) {
        cycle_check_requested_ = false;
        next_cycle_check_.store(2 * live, std::memory_order_relaxed);
      }
    }
  }
}

bool Runtime::try_collect(std::chrono::nanoseconds limit) {
  std::lock_guard turn(collect_turn_);
  {
    std::lock_guard lock(cycles_mutex_);
    collecting_.store(true, std::memory_order_seq_cst);
  }
  auto end_collecting = [this] {
    {
      std::lock_guard lock(cycles_mutex_);
      collecting_.store(false, std::memory_order_seq_cst);
    }
    outside_cv_.notify_all();
  };
  if (outside_running_.load(std::memory_order_seq_cst) != 0) {
    end_collecting();  // outside code is running: its values are half made
    return false;
  }
  CollectResult r;
  std::chrono::steady_clock::duration paused{};
  bool ran = false;
  try {
    ran = dispatcher_.run_paused(
        [&] {
          const auto t0 = std::chrono::steady_clock::now();
          r = cycle_collector_.collect(heap_);
          paused = std::chrono::steady_clock::now() - t0;
        },
        limit);
  } catch (const std::bad_alloc&) {
    ran = false;  // out of memory for its tables: nothing changed; it tries again later
  }
  end_collecting();
  if (!ran || r.raced) return false;
  const auto us = uint64_t(std::chrono::duration_cast<std::chrono::microseconds>(paused).count());
  {
    std::lock_guard lock(cycles_mutex_);
    CycleStats& s = cycle_stats_;
    ++s.collections;
    s.actors_collected += r.actors_collected;
    s.pause_us_total += us;
    if (us > s.pause_us_max) s.pause_us_max = us;
    cycle_check_requested_ = false;  // answered, whoever asked
  }
  // The next look when the live actors have doubled (or grown by the
  // option's step, if that is more): collecting costs time in proportion to
  // what lives, so the work per actor made stays bounded. After a look that
  // found little (under a quarter of what it saw), the growth it waits for
  // doubles, up to eight times what lives: a program that builds a large
  // live structure (a ring of a million actors: looks at 10,000, 30,000
  // and 150,000 live, then none before 1,350,000) pays for fewer looks, and
  // one that makes garbage finds it again at the next look, which resets
  // the growth. The price: after three fruitless looks, cyclic garbage may
  // grow to eight times what lives before it is found.
  cycle_growth_ = r.actors_collected * 4 >= r.actors_seen ? 1 : std::min<uint64_t>(cycle_growth_ * 2, 8);
  if (options_.cycle_check) {
    const uint64_t live = uint64_t(heap_.live() > 0 ? heap_.live() : 0);
    next_cycle_check_.store(live + std::max<uint64_t>(live * cycle_growth_, options_.cycle_check),
                            std::memory_order_relaxed);
  }
  return true;
}

CycleStats Runtime::collect_cycles() {
  // A busy event or outside code delays it: it tries until it gets its
  // turn, for at most a minute (an event that long, or no memory at all).
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::minutes(1);
  while (!try_collect(std::chrono::seconds(1)) && std::chrono::steady_clock::now() < give_up)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  return cycle_stats();
}

CycleStats Runtime::cycle_stats() const {
  std::lock_guard lock(cycles_mutex_);
  return cycle_stats_;
}

void Runtime::final_collection() {
  // Nothing runs any more: the threads are joined, the dispatcher and the
  // timers are gone with their messages. What only cycles hold, and what
  // only the globals' pinned values held, goes now; the pinned objects
  // themselves (emptied) go with the globals, after this.
  // (No lock: the mutexes below the finale in Runtime are gone already.)
  globals_.clear_pinned();
  if (!options_.final_collection) return;
  try {
    cycle_collector_.collect(heap_);  // (gives up if a host copies values out of lists meanwhile)
  } catch (const std::bad_alloc&) {
    // No memory for its tables: what only cycles hold stays (it is only at the end).
  }
}

}  // namespace humus::rt
