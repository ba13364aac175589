// Allocation failure injection (issue 20): an allocation that fails inside
// an event's code or while compiling fails that event or that load, cleanly,
// wherever it happens: in the parser, the compiler, the VM, a pair, a
// closure, a message, GMP. Every allocation point of the program below is
// made to fail in turn; the interpreter must report it, go on, and run the
// next program in full. (LeakSanitizer checks nothing is lost on the way.)
#include <doctest/doctest.h>

#include <limits>
#include <sstream>
#include <string>

#include "../interpreter/run_program.hpp"
#include "failing_new.hpp"

namespace {

using humus::test::alloc_countdown;
using Outcome = humus::interp::Interpreter::Outcome;

// Pairs, big integers (through GMP; the literal too), closures, BECOME, messages.
const char* const kProgram = R"(DEF sq(n) AS mul(n, n)
DEF build(n, acc) AS IF $n = 0 acc ELSE build(sub(n, 1), (sq(add(n, 1000000000000000000000000)), acc))
DEF count(l, k) AS CASE l OF () : k (_, t) : count(t, add(k, 1)) END
DEF counter(total) AS \n.[
  SEND (count(build(n, NIL), 0), add(total, n)) TO println
  BECOME counter(add(total, n))
]
CREATE c WITH counter(0)
SEND 30 TO c
SEND 20 TO c
)";
const char* const kOutput = "30, 30\n20, 50\n";

// Whether every line of `err` reports an allocation failure.
bool only_out_of_memory(const std::string& err) {
  std::istringstream lines(err);
  std::string line;
  int window = 0;  // lines of a top-level error's source window still to come (the line, the caret)
  while (std::getline(lines, line)) {
    if (window > 0) {
      --window;
      continue;
    }
    bool ok = (line.find(": runtime error in actor ") != std::string::npos && line.ends_with(": out of memory")) ||
              line.starts_with("  while handling message: ") ||
              line == "test.hum: error: out of memory while compiling" ||
              line.ends_with(": runtime error: out of memory");
    if (!ok) return false;
    if (line.starts_with("test.hum:") && line.ends_with(": runtime error: out of memory")) window = 2;
  }
  return window == 0;
}

// Runs `program` once with no failure; how many capped allocations it made.
long allocations_of(const char* program, humus::test::Run& full) {
  const long many = std::numeric_limits<long>::max() / 2;
  alloc_countdown = many;
  full = humus::test::run_program(program);
  const long total = many - alloc_countdown.load();
  alloc_countdown = -1;
  return total;
}

// Runs `program` with the nth capped allocation failing, and the `burst`
// allocations after it anywhere.
humus::test::Run failing_at(const char* program, long n, long burst = 0, unsigned threads = 1, long after = 0) {
  humus::test::alloc_burst = burst;
  humus::test::alloc_burst_after = after;
  alloc_countdown = n;
  humus::test::Run r;
  try {
    r = humus::test::run_program(program, threads);
  } catch (const std::bad_alloc&) {
    // Starting the workers found no memory: Runtime::start throws, as it
    // throws ThreadStartError (the humus command: "stopped: out of memory").
    r.limit = humus::rt::LimitKind::OutOfMemory;
  }
  humus::test::stop_failing();
  return r;
}

}  // namespace

TEST_CASE("every allocation of a program can fail: the event or the load fails, the runtime goes on") {
  humus::test::Run full;
  const long total = allocations_of(kProgram, full);
  REQUIRE(full.err == "");
  REQUIRE(full.out == kOutput);
  REQUIRE(total > 100);

  int compiling = 0, in_events = 0;
  const long step = total / 300 + 1;  // about 300 runs
  for (long n = 0; n <= total; n += step) {
    CAPTURE(n);
    auto r = failing_at(kProgram, n);
    INFO("stderr: " << r.err);
    CHECK(only_out_of_memory(r.err));
    if (r.outcome == Outcome::CompileError) {
      CHECK(r.err == "test.hum: error: out of memory while compiling\n");
      CHECK(r.out == "");
      ++compiling;
    } else if (r.err.find("runtime error in actor c@4: out of memory") != std::string::npos) {
      // One of the two events failed, and changed nothing: the other one's
      // line is there, and its total does not include the failed one.
      CHECK((r.out == "" || r.out == "30, 30\n" || r.out == "20, 20\n"));
      ++in_events;
    }
    // The next program runs in full.
    auto after = humus::test::run_program(kProgram);
    CHECK(after.out == kOutput);
    CHECK(after.err == "");
  }
  CHECK(compiling > 0);
  CHECK(in_events > 0);
}

TEST_CASE("every allocation of a short program fails in turn: big integer literals leak nothing") {
  // Exhaustive where the test above samples: a literal's digits go to GMP
  // (parse_integer) before its BigInt exists, the leak the fuzzer found.
  const char* const program = "SEND (1000000000000000000000000, -20000000000000000000000000) TO println\n";
  humus::test::Run full;
  const long total = allocations_of(program, full);
  REQUIRE(full.out == "1000000000000000000000000, -20000000000000000000000000\n");
  for (long n = 0; n <= total; ++n) {
    CAPTURE(n);
    auto r = failing_at(program, n);
    INFO("stderr: " << r.err);
    CHECK(only_out_of_memory(r.err));
    CHECK((r.out == "" || r.out == full.out));
  }
}

TEST_CASE("memory that stays full: the error path fails too, and the run stops for it, never aborts") {
  // After the failing allocation, `burst` more fail, on every thread and
  // outside events too: when the undone event looks for room to go on
  // (memory::room_to_go_on), or, when `after` allocations found room, in
  // reporting the error (Runtime::headline, report_error), in the commit
  // of a top-level statement, a timer, starting the workers, the winding
  // down. The run stops with "out of memory" (LimitKind::OutOfMemory; the
  // humus command: status 3), and the next runtime runs the program in
  // full. (Reporting aborted the process: issue 34.)
  humus::test::Run full;
  const long total = allocations_of(kProgram, full);
  REQUIRE(full.out == kOutput);
  int stopped = 0, reported = 0;
  const long step = total / 40 + 1;
  for (unsigned threads : {1u, 2u}) {
    for (auto [burst, after] : {std::pair{3L, 0L}, {1L << 30, 0L}, {4L, 16L}, {40L, 17L}, {1L << 30, 18L}}) {
      for (long n = 0; n <= total; n += step) {
        CAPTURE(threads);
        CAPTURE(burst);
        CAPTURE(after);
        CAPTURE(n);
        auto r = failing_at(kProgram, n, burst, threads, after);
        INFO("stderr: " << r.err);
        CHECK(only_out_of_memory(r.err));
        const bool oom_stop = r.limit == humus::rt::LimitKind::OutOfMemory;
        CHECK((oom_stop || r.limit == humus::rt::LimitKind::None));
        if (oom_stop)
          ++stopped;
        else if (r.err.find("out of memory") != std::string::npos)
          ++reported;
        // Memory that never comes back: the run stops (or, with room for
        // that, the load says "out of memory while compiling" and nothing runs).
        if (burst == 1L << 30 && after == 0) CHECK(oom_stop);
        if (burst == 1L << 30 && !oom_stop) CHECK(r.outcome == humus::interp::Interpreter::Outcome::CompileError);
        auto after_run = humus::test::run_program(kProgram, threads);
        CHECK(after_run.out == kOutput);
        CHECK(after_run.err == "");
      }
    }
  }
  CHECK(stopped > 0);
  CHECK(reported > 0);  // a short burst within the report's room: the event fails, the run goes on
}
