#include "runtime/collector_thread.hpp"

#include <algorithm>
#include <new>

#if defined(__linux__)
#include <sched.h>
#endif

#include "runtime/dispatcher.hpp"

namespace humus::rt {

namespace {
// How long a collection waits for busy workers to finish their turn before
// it gives up and tries again later: the idle ones wait meanwhile.
constexpr auto kPauseWait = std::chrono::milliseconds(20);
constexpr auto kRetryAfter = std::chrono::milliseconds(50);
}  // namespace

CollectorThread::CollectorThread(ActorHeap& heap, Dispatcher& dispatcher, uint64_t cycle_check)
    : heap_(heap), dispatcher_(dispatcher), cycle_check_(cycle_check) {}

void CollectorThread::enter_outside() {
  for (;;) {
    // seq_cst pairs with try_collect: either it sees us running, or we see it collecting.
    outside_running_.fetch_add(1, std::memory_order_seq_cst);
    if (!collecting_.load(std::memory_order_seq_cst)) return;
    outside_running_.fetch_sub(1, std::memory_order_seq_cst);
    std::unique_lock lock(mutex_);
    outside_cv_.wait(lock, [this] { return !collecting_.load(std::memory_order_seq_cst); });
  }
}

void CollectorThread::request() {
  // Raised out of reach until the collection sets the next mark, so the
  // actors made meanwhile do not ask again.
  next_check_.store(UINT64_MAX, std::memory_order_relaxed);
  {
    std::lock_guard lock(mutex_);
    requested_ = true;
    asked_at_ = uint64_t(std::max<int64_t>(heap_.live(), 1));
#if defined(__linux__)
    asker_cpu_ = sched_getcpu();
#endif
  }
  wake_.notify_one();
}

bool CollectorThread::wanted() {
  std::lock_guard lock(mutex_);
  return requested_;
}

void CollectorThread::start() {
  if (!dispatcher_.has_threads() || thread_.joinable()) return;
  thread_ = std::thread([this] { main(); });
}

void CollectorThread::stop() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable() && thread_.get_id() != std::this_thread::get_id()) thread_.join();
}

void CollectorThread::main() {
  std::unique_lock lock(mutex_);
  for (;;) {
    wake_.wait(lock, [this] { return requested_ || stopping_; });
    if (stopping_) return;
    const int cpu = asker_cpu_;
    lock.unlock();
    // The look runs where the asking worker ran, its caches warm with the
    // actors it walks, and what it frees is freed where it was made (waves,
    // one thread: a fifth faster; docs/performance.md, 2026-11-30).
    const bool moved = move_to(cpu);
    const bool done = try_collect(kPauseWait);
    move_back();
    lock.lock();
    if (done && moved) ++stats_.on_askers_cpu;
    if (!done) {
      ++stats_.gave_up;
      wake_.wait_for(lock, kRetryAfter, [this] { return stopping_; });
      // Put off while the live actors more than doubled: a busy event made
      // them (one event building a structure of a million actors). What an
      // event just made is mostly alive, and a look costs what lives: the
      // look waits until they double again, as if it had been made now.
      const uint64_t live = uint64_t(std::max<int64_t>(heap_.live(), 0));
      if (requested_ && live >= 2 * asked_at_) {
        requested_ = false;
        next_check_.store(2 * live, std::memory_order_relaxed);
      }
    }
  }
}

bool CollectorThread::try_collect(std::chrono::nanoseconds limit) {
  std::lock_guard turn(turn_);
  {
    std::lock_guard lock(mutex_);
    collecting_.store(true, std::memory_order_seq_cst);
  }
  auto end_collecting = [this] {
    {
      std::lock_guard lock(mutex_);
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
          r = tables_.collect(heap_);
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
    std::lock_guard lock(mutex_);
    CycleStats& s = stats_;
    ++s.collections;
    s.actors_collected += r.actors_collected;
    s.pause_us_total += us;
    if (us > s.pause_us_max) s.pause_us_max = us;
    requested_ = false;  // answered, whoever asked
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
  growth_ = r.actors_collected * 4 >= r.actors_seen ? 1 : std::min<uint64_t>(growth_ * 2, 8);
  if (cycle_check_) {
    const uint64_t live = uint64_t(heap_.live() > 0 ? heap_.live() : 0);
    next_check_.store(live + std::max<uint64_t>(live * growth_, cycle_check_), std::memory_order_relaxed);
  }
  return true;
}

#if defined(__linux__)
bool CollectorThread::move_to(int cpu) {
  if (cpu < 0 || cpu >= CPU_SETSIZE) return false;
  cpu_set_t one;
  CPU_ZERO(&one);
  CPU_SET(cpu, &one);
  saved_ = sched_getaffinity(0, sizeof allowed_, &allowed_) == 0;
  // Setting one's own affinity moves the thread there before it returns.
  return saved_ && sched_setaffinity(0, sizeof one, &one) == 0 && sched_getcpu() == cpu;
}
void CollectorThread::move_back() {
  if (saved_) sched_setaffinity(0, sizeof allowed_, &allowed_);
  saved_ = false;
}
#else
bool CollectorThread::move_to(int) { return false; }
void CollectorThread::move_back() {}
#endif

CycleStats CollectorThread::collect_now() {
  // A busy event or outside code delays it: it tries until it gets its
  // turn, for at most a minute (an event that long, or no memory at all).
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::minutes(1);
  while (!try_collect(std::chrono::seconds(1)) && std::chrono::steady_clock::now() < give_up)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  return stats();
}

CycleStats CollectorThread::stats() const {
  std::lock_guard lock(mutex_);
  return stats_;
}

void CollectorThread::collect_final() {
  try {
    tables_.collect(heap_);  // (gives up if a host copies values out of lists meanwhile)
  } catch (const std::bad_alloc&) {
    // No memory for its tables: what only cycles hold stays (it is only at the end).
  }
}

}  // namespace humus::rt
