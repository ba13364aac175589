// How many of the dispatcher's workers may run: a hill climber on the event
// rate, in the manner of .NET's thread pool.
//
// A second worker is not always a gain. Two workers that pass small messages
// between actors, or read one big shared value (every use counts its
// references, a cache line bounced between cores), can run a program 2-3
// times slower than one; measured, not guessed (docs/performance.md). So the
// dispatcher runs `allowed()` workers and benches the rest, and this class
// decides how many from what it sees: now and then it measures the event rate
// for a short window, tries the other count for a window of the same length,
// and keeps whichever ran more events (fewer workers on a near tie), if it
// does so twice in a row (one window pair is often wrong by chance). Each
// baseline is two windows, and a probe must win by more than they differ: a
// narrower win may be where the windows fell in a program that runs in waves
// longer than a window, so the window doubles (to max_window) and the look
// starts again. A probe that changes nothing doubles the time to the next
// one, so a settled program pays a probe window a second at most. Events
// too long to measure a rate allow every worker if some actor waits for one,
// else keep the count.
//
// Pure logic, stepped with the clock and the event count by the dispatcher
// (runtime/dispatcher.cpp), so tests can drive it with made-up figures.
#pragma once

#include <chrono>
#include <cstdint>

namespace humus::rt {

struct GovernorSettings {
  bool adaptive = true;  // false: every worker may always run (--fixed-threads)
  std::chrono::nanoseconds window = std::chrono::milliseconds(3);       // one measurement
  std::chrono::nanoseconds max_window = std::chrono::milliseconds(50);  // stretched for want of events
  uint64_t min_events = 400;  // a window with fewer says nothing: events are long, or there are none
  std::chrono::nanoseconds first_interval = std::chrono::milliseconds(50);  // settled time after a change
  std::chrono::nanoseconds max_interval = std::chrono::seconds(1);          // after probes that changed nothing
  double fewer_if = 0.97;  // fewer workers win if they run at least this share of the rate
  double more_if = 1.10;   // more workers win only if they run this much faster
};

class WorkerGovernor {
 public:
  using Clock = std::chrono::steady_clock;

  // Starts with one worker allowed.
  WorkerGovernor(unsigned workers, const GovernorSettings& settings, Clock::time_point now);

  // `events`: the events run so far, by all workers; `waiting`: whether
  // some actor waits in a queue for a worker now. Returns how many workers
  // may run from now on.
  unsigned step(Clock::time_point now, uint64_t events, bool waiting = true);
  unsigned allowed() const { return allowed_; }
  // When step() next has something to do.
  Clock::time_point next_step() const { return phase_end_; }
  // How many times a probe won (the count changed for good).
  uint64_t changes() const { return changes_; }
  // Time spent running a probe's count, in all; the window's present length.
  std::chrono::nanoseconds probe_time() const { return probe_time_; }
  std::chrono::nanoseconds window() const { return window_; }

 private:
  enum class Phase { Settled, Baseline, Probe };
  // The rate of the window begun at mark_, or a negative number if it
  // has too few events to say anything; `done` false: not over yet.
  double window_rate(Clock::time_point now, uint64_t events, bool& done);
  void begin_window(Clock::time_point now, uint64_t events);
  // The window is too short: doubles it and looks again at once, keeping the count.
  void lengthen_window(Clock::time_point now);
  // Ends a look with `workers` allowed; the next look comes after the first
  // interval if the count `changed` (or `soon`), else after twice the last.
  void settle(Clock::time_point now, unsigned workers, bool changed, bool soon = false);
  unsigned probe_target() const;
  // The count to run when a window has too few events to measure.
  unsigned long_events_count(bool waiting) const;

  const unsigned workers_;
  const GovernorSettings s_;
  unsigned allowed_;
  unsigned settled_;  // the count a probe returns to if it loses
  Phase phase_ = Phase::Settled;
  Clock::time_point phase_end_;
  Clock::time_point mark_time_;
  uint64_t mark_events_ = 0;
  double baseline_rate_ = 0;
  double noise_ = 0;                 // how far apart the baseline's two windows were
  std::chrono::nanoseconds window_;  // one measurement's length, grown by lengthen_window
  std::chrono::nanoseconds interval_;
  bool down_next_ = true;         // the direction of the next probe, where both are open
  bool stretched_ = false;        // the present window waited for events
  bool remeasured_ = false;       // the baseline was measured again after such a wait
  bool second_baseline_ = false;  // the baseline's first window is measured
  bool confirming_ = false;       // the probe won once: measuring both again
  uint64_t changes_ = 0;
  std::chrono::nanoseconds probe_time_{0};
};

}  // namespace humus::rt
