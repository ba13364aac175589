// A run without worker threads (the playground's: the host runs events in
// slices with Runtime::run_for) and interrupting a run (Runtime::interrupt,
// RuntimeOptions::interrupt_requested), even inside an event that never ends.
#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>

#include "interpreter/interpreter.hpp"
#include "run_program.hpp"
#include "runtime/stack_guard.hpp"

using namespace std::chrono_literals;
using humus::interp::Interpreter;

namespace {

struct Host {
  std::string out, err;
  std::mutex m;
  humus::rt::RuntimeOptions options(unsigned threads) { return humus::test::capturing_options(threads, m, out, err); }
};

Interpreter::Outcome load_and_run(Interpreter& interp, const std::string& code) {
  auto src = std::make_shared<humus::ast::Source>(humus::ast::Source{"test.hum", code});
  Interpreter::Outcome outcome;
  auto* unit = interp.load(src, &outcome);
  if (!unit) return outcome;
  return interp.run(*unit);
}

}  // namespace

TEST_CASE("without worker threads the host runs events in slices, timers included") {
  Host h;
  humus::rt::run_on_big_stack([&] {
    Interpreter interp(h.options(0));
    REQUIRE(load_and_run(interp, R"(
      DEF count(n) AS \k.[
        CASE k OF
        0 : [ SEND (#counted, n) TO println  AFTER 30 SEND #late TO println ]
        _ : [ SEND sub(k, 1) TO SELF BECOME count(add(n, 1)) ]
        END
      ]
      SEND 100000 TO NEW count(0)
    )") == Interpreter::Outcome::Ok);
    interp.start();
    int slices = 0, waits = 0;
    for (;;) {
      humus::rt::Runtime::Slice s = interp.runtime().run_for(1ms);
      ++slices;
      if (s.more) continue;
      if (s.wait_ms < 0) break;
      ++waits;
      CHECK(s.wait_ms <= 30);
      std::this_thread::sleep_for(std::chrono::milliseconds(s.wait_ms));
    }
    CHECK(h.out == "#counted, 100000\n#late\n");
    CHECK(slices > 1);  // 100000 events do not fit in one millisecond's slice
    CHECK(waits >= 1);  // the timer made the host wait (set when the counting is done)
    CHECK(interp.runtime().stats().events == 100000 + 1 + 2);
  });
}

TEST_CASE("without worker threads, timers fire while messages never stop coming") {
  Host h;
  humus::rt::run_on_big_stack([&] {
    Interpreter interp(h.options(0));
    REQUIRE(load_and_run(interp, R"(
      CREATE spin WITH \n.[ SEND add(n, 1) TO SELF ]
      SEND 0 TO spin
      AFTER 20 SEND #late TO println
    )") == Interpreter::Outcome::Ok);
    interp.start();
    const auto give_up = std::chrono::steady_clock::now() + 10s;
    while (h.out.empty() && std::chrono::steady_clock::now() < give_up) {
      humus::rt::Runtime::Slice s = interp.runtime().run_for(5ms);
      REQUIRE(s.more);  // spin always has a message queued
    }
    CHECK(h.out == "#late\n");
    interp.runtime().interrupt();
    CHECK_FALSE(interp.runtime().run_for(5ms).more);
  });
}

TEST_CASE("interrupt stops an event that never ends, and drops what is queued") {
  Host h;
  humus::rt::run_on_big_stack([&] {
    Interpreter interp(h.options(2));
    REQUIRE(load_and_run(interp, R"(
      DEF loop(n) AS loop(add(n, 1))
      CREATE spin WITH \m.[ SEND loop(0) TO println ]
      SEND #go TO spin
      AFTER 100000 SEND #never TO println
    )") == Interpreter::Outcome::Ok);
    interp.start();
    std::this_thread::sleep_for(50ms);
    interp.runtime().interrupt();
    CHECK(interp.runtime().wait_idle_for(10s));
    CHECK(interp.runtime().limit_reached() == humus::rt::LimitKind::Interrupted);
    CHECK(interp.runtime().limit_message() == "interrupted");
  });
  CHECK(h.out == "");
  CHECK(h.err == "");  // the interrupted event's failure is not an error of the program
}

TEST_CASE("a host without threads interrupts through interrupt_requested, in loops and in deep recursion") {
  for (const char* body : {"DEF loop(n) AS loop(add(n, 1))\nSEND loop(0) TO println\n",
                           "DEF fib(n) AS CASE less(n, 2) OF TRUE : n _ : add(fib(sub(n, 1)), fib(sub(n, 2))) END\n"
                           "SEND fib(60) TO println\n"}) {
    CAPTURE(body);
    Host h;
    humus::rt::run_on_big_stack([&] {
      std::atomic<int> asked{0};
      humus::rt::RuntimeOptions o = h.options(0);
      o.interrupt_requested = [&] { return ++asked == 3; };  // Stop pressed after a while
      Interpreter interp(o);
      // A top-level statement that never ends is interrupted too.
      CHECK(load_and_run(interp, body) == Interpreter::Outcome::RuntimeError);
      CHECK(asked == 3);
      CHECK(interp.runtime().limit_reached() == humus::rt::LimitKind::Interrupted);
    });
    CHECK(h.out == "");
  }
}
