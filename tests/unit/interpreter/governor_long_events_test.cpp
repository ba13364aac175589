// The worker governor when events run too long to measure a rate
// (runtime/worker_governor.hpp): more workers only when some actor waits
// for one. A long event whose sends land when it ends (Savina-like
// bigevent) gave the second worker nothing to do, and then its many small
// events ran 15-40% slower on two workers than on one.
#include <doctest/doctest.h>

#include <chrono>

#include "run_program.hpp"

using humus::test::run_program;

namespace {
// Short windows, so that an event of a few tens of milliseconds outlasts
// a stretched one (max_window) and the governor decides without a rate.
humus::rt::GovernorSettings short_windows() {
  humus::rt::GovernorSettings s;
  s.window = std::chrono::milliseconds(1);
  s.max_window = std::chrono::milliseconds(5);
  return s;
}

const char* kSpin = R"(
  DEF spin(n) AS IF $n = 0 0 ELSE spin(sub(n, 1))
  DEF counter(left) AS \_.[ IF $left = 1 [ SEND #counted TO println ] ELSE [ BECOME counter(sub(left, 1)) ] ]
)";
}  // namespace

TEST_CASE("one long event and nobody waiting: the governor keeps one worker") {
  // The event's sends land only when it ends, so nothing waits meanwhile.
  const auto settings = short_windows();
  const std::string code = std::string(kSpin) + R"(
    CREATE c WITH counter(10)
    DEF send_n(n) AS IF $n = 0 [] ELSE [ SEND n TO c  send_n(sub(n, 1)) ]
    SEND #go TO NEW \_.[ IF $spin(10000000) = 0 [ send_n(10) ] ELSE [] ]
  )";
  auto r = run_program(code, 2, "test.hum", false, nullptr, &settings);
  REQUIRE(r.err == "");
  CHECK(r.out == "#counted\n");
  CHECK(r.stats.worker_changes == 0);
  CHECK(r.stats.workers_allowed == 1);
}

namespace {
// `start` makes four actors and sends each a long event; the counter
// prints once all four have answered.
const char* kFourLongEvents = R"(
  CREATE c WITH counter(4)
  DEF long_beh AS \n.[ SEND spin(n) TO c ]
  DEF start AS \_.[
    SEND 10000000 TO NEW long_beh
    SEND 10000000 TO NEW long_beh
    SEND 10000000 TO NEW long_beh
    SEND 10000000 TO NEW long_beh
  ]
)";

void check_every_worker_ran(const humus::test::Run& r) {
  REQUIRE(r.err == "");
  CHECK(r.out == "#counted\n");
  CHECK(r.stats.worker_changes >= 1);
  CHECK(r.stats.workers_allowed == 2);
}
}  // namespace

TEST_CASE("long events with actors waiting their turn: the governor lets every worker run") {
  const auto settings = short_windows();
  const std::string code = std::string(kSpin) + kFourLongEvents + "SEND #go TO NEW start";
  check_every_worker_ran(run_program(code, 2, "test.hum", false, nullptr, &settings));
}

TEST_CASE("long events after the program stood idle: the benched worker wakes to let every worker run") {
  // While every worker is parked the benched one sleeps untimed
  // (runtime/dispatcher.cpp, bench); the worker the timer wakes must wake
  // it, or nobody steps the governor while that worker is in a long event.
  const auto settings = short_windows();
  const std::string code = std::string(kSpin) + kFourLongEvents + "AFTER 300 SEND #go TO NEW start";
  check_every_worker_ran(run_program(code, 2, "test.hum", false, nullptr, &settings));
}
