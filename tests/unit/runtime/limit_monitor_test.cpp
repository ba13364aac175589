// The limit monitor's judgement of "an event did not finish" (issue 34,
// item 6): after a limit stopped the run, a runtime that keeps dropping
// queued messages or ending events is winding down, however long that
// takes on a busy core; only one that makes no progress is stuck.
#include "runtime/limits.hpp"

#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <thread>

#include <time.h>

using humus::rt::kStuckGrace;
using humus::rt::LimitKind;
using humus::rt::LimitMonitor;
using humus::rt::Limits;

namespace {

std::chrono::nanoseconds process_cpu() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return std::chrono::seconds(ts.tv_sec) + std::chrono::nanoseconds(ts.tv_nsec);
}

// Runs a monitor whose --timeout trips at once, for three grace periods,
// with `progress` as the runtime's count, and (`busy`) a thread that runs
// meanwhile, as an event that never ends does; returns how often on_stuck
// was called.
template <class Progress>
int stuck_calls(Progress progress, bool busy = true) {
  std::atomic<int> calls{0};
  std::atomic<int> tripped{0};
  Limits limits;
  limits.timeout = 0.001;
  limits.on_stuck = [&](const std::string& message) {
    CHECK(message == "--timeout 0.001 reached");
    ++calls;
  };
  std::atomic<bool> done{false};
  std::thread event([&] {
    while (busy && !done.load(std::memory_order_relaxed)) {
    }
  });
  {
    LimitMonitor monitor(
        limits, [&](LimitKind k) { tripped = int(k); }, [&] { return LimitKind(tripped.load()); }, progress);
    // Three grace periods of the clock and, with a busy thread, of the
    // process's CPU time too (the monitor's measure): on a loaded machine
    // the busy thread may get a fraction of a core (a minute at most).
    const auto cpu0 = process_cpu();
    const auto until = std::chrono::steady_clock::now() + std::chrono::minutes(1);
    std::this_thread::sleep_for(3 * kStuckGrace);
    while (busy && process_cpu() - cpu0 < 3 * kStuckGrace && std::chrono::steady_clock::now() < until)
      std::this_thread::sleep_for(kStuckGrace / 10);
  }
  done = true;
  event.join();
  CHECK(tripped == int(LimitKind::Timeout));
  return calls;
}

}  // namespace

TEST_CASE("a runtime that drops queued messages for longer than the grace period is not stuck") {
  std::atomic<uint64_t> n{0};
  CHECK(stuck_calls([&] { return n++; }) == 0);  // before: called after the first grace period
}

TEST_CASE("a runtime that went idle is not stuck") {
  CHECK(stuck_calls([] { return LimitMonitor::kIdle; }) == 0);
}

TEST_CASE("a runtime whose event never ends is stuck, and said so once") {
  CHECK(stuck_calls([] { return uint64_t(42); }) == 1);
}

TEST_CASE("a runtime that waits for a core is not stuck") {
  // No progress, and no CPU time used either: the process is starved (a
  // loaded machine), not running an event that never ends.
  CHECK(stuck_calls([] { return uint64_t(42); }, false) == 0);  // before: called after the first grace period
}
