// The worker governor's decisions (runtime/worker_governor.hpp), driven by a
// made-up clock and event counts: a program whose event rate is a function
// of how many workers run.
#include <doctest/doctest.h>

#include <algorithm>
#include <functional>
#include <map>

#include "runtime/worker_governor.hpp"

using humus::rt::GovernorSettings;
using humus::rt::WorkerGovernor;
using namespace std::chrono_literals;

namespace {

using Clock = WorkerGovernor::Clock;

// Events per millisecond with `workers` running, `ms` into the run.
using RateFn = std::function<double(unsigned workers, double ms)>;

struct Simulation {
  std::map<unsigned, double> ms_at;  // milliseconds spent with each count allowed
  unsigned last = 0;
};

// Steps the governor every 100 µs, as busy workers do, for `ms` milliseconds;
// `waiting`: whether actors wait in the queues meanwhile.
Simulation simulate(WorkerGovernor& g, Clock::time_point start, double ms, const RateFn& rate, double offset_ms = 0,
                    double* events_io = nullptr, bool waiting = true) {
  Simulation sim;
  double events = events_io ? *events_io : 0;
  const double dt = 0.1;
  for (double t = 0; t < ms; t += dt) {
    const auto now = start + std::chrono::microseconds(int64_t((offset_ms + t) * 1000));
    const unsigned a = g.step(now, uint64_t(events), waiting);
    sim.ms_at[a] += dt;
    events += rate(a, offset_ms + t) * dt;
  }
  if (events_io) *events_io = events;
  sim.last = g.allowed();
  return sim;
}

}  // namespace

TEST_CASE("two workers slower than one: the governor settles on one, and probes rarely") {
  const auto t0 = Clock::now();
  WorkerGovernor g(2, GovernorSettings{}, t0);
  CHECK(g.allowed() == 1);  // one, until a look says more run faster
  auto sim = simulate(g, t0, 2000, [](unsigned w, double) { return w == 1 ? 1000.0 : 400.0; });
  CHECK(sim.last == 1);
  CHECK(g.changes() == 0);
  // Probes of two workers cost little: well under 5% of the run.
  CHECK(sim.ms_at[2] < 0.02 * 2000);
}

TEST_CASE("two workers faster: the governor keeps both") {
  const auto t0 = Clock::now();
  WorkerGovernor g(2, GovernorSettings{}, t0);
  auto sim = simulate(g, t0, 2000, [](unsigned w, double) { return w == 1 ? 1000.0 : 1800.0; });
  CHECK(sim.last == 2);
  CHECK(g.changes() == 1);
  CHECK(sim.ms_at[1] < 0.02 * 2000);
}

TEST_CASE("more workers must win clearly; a near tie goes to fewer") {
  const auto t0 = Clock::now();
  WorkerGovernor g(2, GovernorSettings{}, t0);
  // Two workers 8% faster: short of more_if (10%), so one is kept.
  auto sim = simulate(g, t0, 1000, [](unsigned w, double) { return w == 1 ? 1000.0 : 1080.0; });
  CHECK(sim.last == 1);
  CHECK(g.changes() == 0);
  // Once on two, one 2% slower is within fewer_if (3%): back to one.
  WorkerGovernor k(2, GovernorSettings{}, t0);
  RateFn swing = [](unsigned w, double ms) { return w == 1 ? 1000.0 : ms < 500 ? 2000.0 : 1020.0; };
  double k_events = 0;
  sim = simulate(k, t0, 500, swing, 0, &k_events);
  CHECK(sim.last == 2);
  sim = simulate(k, t0, 3000, swing, 500, &k_events);
  CHECK(sim.last == 1);
  CHECK(k.changes() == 2);
  // Once on one, two 5% faster is not enough to come back (more_if: 10%).
  WorkerGovernor h(2, GovernorSettings{}, t0);
  RateFn rate = [](unsigned w, double ms) { return w == 1 ? 1000.0 : ms < 500 ? 800.0 : 1050.0; };
  double events = 0;
  sim = simulate(h, t0, 500, rate, 0, &events);
  CHECK(sim.last == 1);
  sim = simulate(h, t0, 3000, rate, 500, &events);
  CHECK(sim.last == 1);
  CHECK(h.changes() == 0);
}

TEST_CASE("too few events to measure: every worker stays allowed") {
  const auto t0 = Clock::now();
  WorkerGovernor g(2, GovernorSettings{}, t0);
  // Long events: 2 a millisecond, so even a stretched window (50 ms) holds 100 < 400.
  auto sim = simulate(g, t0, 3000, [](unsigned w, double) { return w == 1 ? 4.0 : 2.0; });
  CHECK(sim.last == 2);
  CHECK(g.changes() == 1);           // from the one it starts with
  CHECK(sim.ms_at[1] < 0.1 * 3000);  // it did look now and then
}

TEST_CASE("too few events to measure and nobody waiting: the count stays") {
  // One long event at a time, nothing queued behind it: a second worker
  // would have nothing to run.
  const auto t0 = Clock::now();
  WorkerGovernor g(2, GovernorSettings{}, t0);
  auto sim = simulate(
      g, t0, 3000, [](unsigned, double) { return 2.0; }, 0, nullptr, /*waiting=*/false);
  CHECK(sim.last == 1);
  CHECK(g.changes() == 0);
  CHECK(sim.ms_at[2] == 0);
}

TEST_CASE("a program that changes phase is followed within about a second") {
  const auto t0 = Clock::now();
  WorkerGovernor g(2, GovernorSettings{}, t0);
  // First two workers lose, from 3 s on they win.
  RateFn rate = [](unsigned w, double ms) {
    if (ms < 3000) return w == 1 ? 1000.0 : 500.0;
    return w == 1 ? 1000.0 : 1900.0;
  };
  double events = 0;
  auto first = simulate(g, t0, 3000, rate, 0, &events);
  CHECK(first.last == 1);
  auto second = simulate(g, t0, 3000, rate, 3000, &events);
  CHECK(second.last == 2);
  CHECK(second.ms_at[1] < 1200);  // at most a settled interval and its windows
}

TEST_CASE("four workers: the best count in the middle is found") {
  const auto t0 = Clock::now();
  WorkerGovernor g(4, GovernorSettings{}, t0);
  auto sim = simulate(g, t0, 3000, [](unsigned w, double) {
    return w == 1 ? 1000.0 : w == 2 ? 1600.0 : w == 3 ? 1300.0 : 900.0;
  });
  CHECK(sim.last == 2);
  CHECK(sim.ms_at[2] > 0.9 * 3000);
}

TEST_CASE("a window that spans a pause measures again instead of deciding") {
  const auto t0 = Clock::now();
  GovernorSettings s;
  WorkerGovernor g(2, s, t0);
  CHECK(g.step(t0, 0) == 1);  // the first look: a baseline window begins
  // Nobody steps for ten seconds (every worker parked), then a burst that
  // would make the baseline's rate look tiny: no decision is taken from it.
  const auto later = t0 + 10s;
  CHECK(g.step(later, 1000000) == 1);
  CHECK(g.next_step() == later + s.window);  // a fresh baseline window
  CHECK(g.changes() == 0);
}

TEST_CASE("one worker: nothing to govern") {
  const auto t0 = Clock::now();
  WorkerGovernor g(1, GovernorSettings{}, t0);
  auto sim = simulate(g, t0, 500, [](unsigned, double) { return 1000.0; });
  CHECK(sim.last == 1);
  CHECK(g.changes() == 0);
}

TEST_CASE("a probe that wins once by chance does not change the count") {
  // The run's first window is slow (it warms up: a third of the rate), so
  // the first probe of two workers, slower than one afterwards, beats it.
  // The count changes only when the same probe wins again against a fresh
  // baseline, which it does not.
  const auto t0 = Clock::now();
  WorkerGovernor g(2, GovernorSettings{}, t0);
  auto sim = simulate(g, t0, 1000, [](unsigned w, double ms) { return ms < 3 ? 300.0 : w == 1 ? 1000.0 : 800.0; });
  CHECK(sim.last == 1);
  CHECK(g.changes() == 0);
  CHECK(sim.ms_at[2] < 0.03 * 1000);
}

TEST_CASE("a probe that wins twice in a row changes the count, after one more window pair") {
  const auto t0 = Clock::now();
  WorkerGovernor g(2, GovernorSettings{}, t0);
  // Two windows of the settled count, one of the probe, all three again:
  // the change comes after six windows (18 ms at the default 3 ms).
  const RateFn rate = [](unsigned w, double) { return w == 1 ? 1000.0 : 2000.0; };
  double events = 0;
  auto sim = simulate(g, t0, 17.5, rate, 0, &events);
  CHECK(g.changes() == 0);
  sim = simulate(g, t0, 20, rate, 17.5, &events);
  CHECK(g.changes() == 1);
  CHECK(sim.last == 2);
}

// Savina-like waves: every 8 ms one long driver event (2 ms, no other event
// ends meanwhile), then 6 ms of short events, `two` a millisecond on two
// workers against 1000 on one. A 3 ms window's rate depends on where in
// the wave it falls.
RateFn waves_rate(double two) {
  return [two](unsigned w, double ms) {
    const double at = ms - 8.0 * double(int64_t(ms / 8.0));
    if (at < 2.0) return 0.0;
    return w == 1 ? 1000.0 : two;
  };
}

TEST_CASE("a program that runs in waves longer than a window: no count changes by chance") {
  // Two workers a quarter slower. A probe window can beat its baseline by
  // where it fell, twice in a row, unless a win must be wider than the two
  // baseline windows differ (else the window grows).
  const RateFn waves = waves_rate(750);
  const auto t0 = Clock::now();
  int changed = 0;
  double worst_share_on_two = 0;
  for (int start = 0; start < 80; ++start) {
    WorkerGovernor g(2, GovernorSettings{}, t0);
    auto sim = simulate(g, t0, 3000, waves, start * 0.1);
    if (g.changes() != 0) ++changed;
    worst_share_on_two = std::max(worst_share_on_two, sim.ms_at[2] / 3000);
  }
  CHECK(changed == 0);
  CHECK(worst_share_on_two < 0.05);
}

TEST_CASE("waves where two workers do win: the longer window still finds them") {
  const RateFn waves = waves_rate(1600);
  const auto t0 = Clock::now();
  double worst_share_on_one = 0;
  for (int start = 0; start < 80; start += 7) {
    WorkerGovernor g(2, GovernorSettings{}, t0);
    auto sim = simulate(g, t0, 3000, waves, start * 0.1);
    CHECK(g.changes() == 1);  // to two, and no more (the run may end inside a probe of one)
    worst_share_on_one = std::max(worst_share_on_one, sim.ms_at[1] / 3000);
  }
  CHECK(worst_share_on_one < 0.12);  // the window grows at once: 3, 6, 12, 24 ms
}

TEST_CASE("a rate no window can steady: probes stay rare and the count stays") {
  // Phases of 150 ms at a third of the rate and then the full rate, longer
  // than the longest window: windows disagree whatever their length.
  const RateFn phases = [](unsigned w, double ms) {
    const double base = int64_t(ms / 150.0) % 2 ? 3000.0 : 1000.0;
    return w == 1 ? base : base / 2;
  };
  const auto t0 = Clock::now();
  WorkerGovernor g(2, GovernorSettings{}, t0);
  auto sim = simulate(g, t0, 5000, phases);
  CHECK(sim.last == 1);
  CHECK(g.changes() == 0);
  CHECK(sim.ms_at[2] < 0.02 * 5000);
}
