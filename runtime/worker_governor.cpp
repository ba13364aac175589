#include "runtime/worker_governor.hpp"

#include <algorithm>
#include <cmath>

namespace humus::rt {

WorkerGovernor::WorkerGovernor(unsigned workers, const GovernorSettings& settings, Clock::time_point now)
    : workers_(workers ? workers : 1),
      s_(settings),
      // One worker until a look says more run faster: a second worker that
      // makes a program slower costs more than one that would speed it up
      // saves in the same few milliseconds.
      allowed_(1),
      settled_(1),
      // The first look at once: a short program has no time to lose.
      phase_end_(now),
      window_(settings.window),
      interval_(settings.first_interval) {}

unsigned WorkerGovernor::step(Clock::time_point now, uint64_t events, bool waiting) {
  if (workers_ == 1 || now < phase_end_) return allowed_;
  bool done = false;
  switch (phase_) {
    case Phase::Settled:
      phase_ = Phase::Baseline;
      begin_window(now, events);
      break;
    case Phase::Baseline: {
      const double rate = window_rate(now, events, done);
      if (!done) break;
      if (rate >= 0 && stretched_ && !remeasured_) {
        // The window had to wait for events, so the rate changed inside it
        // (a program's setup, then its work): measure once more.
        remeasured_ = true;
        begin_window(now, events);
        break;
      }
      remeasured_ = false;
      if (rate < 0) {
        // Nothing to compare, and another look soon (measuring the count
        // that runs costs nothing; the long events may be over by then).
        const unsigned n = long_events_count(waiting);
        settle(now, n, settled_ != n, /*soon=*/true);
        break;
      }
      if (!second_baseline_) {
        // Two windows of the settled count before a probe (they cost
        // nothing): how far apart they are is the noise a probe must beat.
        second_baseline_ = true;
        baseline_rate_ = rate;
        begin_window(now, events);
        break;
      }
      second_baseline_ = false;
      noise_ = std::abs(rate - baseline_rate_);
      baseline_rate_ = (baseline_rate_ + rate) / 2;
      allowed_ = probe_target();
      phase_ = Phase::Probe;
      begin_window(now, events);
      break;
    }
    case Phase::Probe: {
      const double rate = window_rate(now, events, done);
      if (!done) break;
      probe_time_ += now - mark_time_;
      if (rate < 0) {
        const unsigned n = long_events_count(waiting);
        settle(now, n, settled_ != n);
        break;
      }
      const bool fewer = allowed_ < settled_;
      const double bar = baseline_rate_ * (fewer ? s_.fewer_if : s_.more_if);
      const bool wins = fewer ? rate >= bar : rate > bar;
      if (wins && rate - bar <= noise_ && window_ < s_.max_window) {
        // A win no wider than the two baselines' difference may be where
        // the windows fell in a program that runs in waves: longer ones.
        lengthen_window(now);
        break;
      }
      if (wins && !confirming_) {
        // Once is not enough: a 3 ms window's rate swings by a third from
        // one to the next (a token ring on one worker: 2.0-5.0M events/s),
        // and the first baseline of a run is taken while it warms up. The
        // same probe against a fresh baseline must win again.
        confirming_ = true;
        allowed_ = settled_;
        phase_ = Phase::Baseline;
        begin_window(now, events);
      } else if (wins) {
        settle(now, allowed_, true);  // and the next probe goes on in the same direction
      } else {
        down_next_ = !down_next_;
        settle(now, settled_, false);
      }
      break;
    }
  }
  return allowed_;
}

unsigned WorkerGovernor::long_events_count(bool waiting) const {
  // Actors wait their turn behind long events: every worker, as without a
  // governor, runs them meanwhile. None waits: more workers would have
  // nothing to do now, and the count is kept (Savina-like bigevent: one
  // event of 100 ms making 500,000 actors, whose sends land when it ends;
  // every worker then ran its 500,000 small events 15-40% slower).
  return waiting ? workers_ : settled_;
}

void WorkerGovernor::begin_window(Clock::time_point now, uint64_t events) {
  mark_time_ = now;
  mark_events_ = events;
  phase_end_ = now + window_;
  stretched_ = false;
}

void WorkerGovernor::lengthen_window(Clock::time_point now) {
  // Savina-like waves: one long driver event, then the pairs' short events,
  // 8 ms a wave; 3 ms windows let two workers, 1.4 times slower there, win
  // twice in a row by where the windows fell.
  window_ = std::min(window_ * 2, s_.max_window);
  settle(now, settled_, false, /*soon=*/true);
  phase_end_ = now;  // and at once: measuring the settled count costs nothing
}

double WorkerGovernor::window_rate(Clock::time_point now, uint64_t events, bool& done) {
  const auto elapsed = now - mark_time_;
  done = false;
  // Nobody stepped for far longer than asked: the workers were all parked
  // (an idle program), so the window measured a pause. Measure again.
  if (elapsed > 4 * s_.max_window) {
    begin_window(now, events);
    return 0;
  }
  const uint64_t n = events - mark_events_;
  if (n < s_.min_events && elapsed < s_.max_window) {
    phase_end_ = now + window_;  // stretched: too few events yet
    stretched_ = true;
    return 0;
  }
  done = true;
  if (n < s_.min_events) return -1;
  return double(n) / std::chrono::duration<double>(elapsed).count();
}

void WorkerGovernor::settle(Clock::time_point now, unsigned workers, bool changed, bool soon) {
  confirming_ = false;
  second_baseline_ = false;
  if (changed) ++changes_;
  if (changed || soon) {
    interval_ = s_.first_interval;
  } else {
    interval_ = std::min(interval_ * 2, s_.max_interval);
  }
  allowed_ = settled_ = workers;
  phase_ = Phase::Settled;
  phase_end_ = now + interval_;
}

unsigned WorkerGovernor::probe_target() const {
  const unsigned down = std::max(1u, allowed_ / 2);
  const unsigned up = std::min(workers_, allowed_ * 2);
  if (allowed_ == 1) return up;
  if (allowed_ == workers_) return down;
  return down_next_ ? down : up;
}

}  // namespace humus::rt
