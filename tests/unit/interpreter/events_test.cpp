// Message-events are transactions; failures are reported and contained.
#include <doctest/doctest.h>

#include "run_program.hpp"
#include "runtime/value.hpp"

using humus::test::run_program;

TEST_CASE("an event that SENDs, CREATEs and BECOMEs and then THROWs leaves no trace") {
  auto r = run_program(R"(
    CREATE a WITH \m.[
      SEND (#sent, m) TO println
      SEND #hello TO NEW \x.[ SEND (#created_actor_ran, x) TO println ]
      BECOME \m2.[ SEND (#became, m2) TO println ]
      IF $m = #bad [ THROW (#oops, m) ]
    ]
    SEND #bad TO a
    SEND #good TO a
    SEND #next TO a
  )");
  // (a handles #next in the same turn, before the actor it created runs)
  CHECK(r.out == "#sent, #good\n#became, #next\n#created_actor_ran, #hello\n");
  CHECK(r.err ==
        "test.hum:6:22: runtime error in actor a@4: THROW #oops, #bad\n"
        "      IF $m = #bad [ THROW (#oops, m) ]\n"
        "                     ^\n"
        "  while handling message: #bad\n");
  CHECK(r.had_runtime_error);
}

TEST_CASE("a second BECOME and a LET mismatch roll the event back") {
  auto r = run_program(R"(
    CREATE a WITH \m.[
      SEND m TO println
      BECOME \x.[]
      CASE m OF #twice : [ BECOME \x.[] ] #mismatch : [ LET (p, q) = $m ] END
    ]
    SEND #twice TO a
    SEND #mismatch TO a
  )");
  CHECK(r.out == "");
  CHECK(r.err.find("runtime error in actor a@4: a second BECOME in one message-event") != std::string::npos);
  CHECK(r.err.find("runtime error in actor a@4: LET mismatch") != std::string::npos);
}

TEST_CASE("runaway recursion is an error, not a crash") {
  auto r = run_program(R"(
    DEF deep(n) AS add(1, deep(add(n, 1)))
    CREATE a WITH \m.[ SEND deep(0) TO println ]
    SEND 0 TO a
    SEND #still_alive TO println
  )");
  CHECK(r.out == "#still_alive\n");
  CHECK(r.err.find("runtime error in actor a@4: recursion too deep") != std::string::npos);
}

TEST_CASE("unhandled messages are counted") {
  auto r = run_program(R"(
    CREATE a WITH \(x, y).[ SEND x TO println ]
    SEND 1 TO a
    SEND (2, 3) TO a
    CREATE b WITH \m. IF $m = 1 [ SEND #one TO println ]
    SEND 1 TO b
    SEND 2 TO b
  )");
  CHECK(r.out == "2\n#one\n");
  CHECK(r.stats.unhandled == 2);
  CHECK(r.err == "");
}

TEST_CASE("actors that finish are freed") {
  humus::rt::enable_live_object_count();
  const int64_t before = humus::rt::live_objects();
  auto r = run_program(R"(
    DEF spawn(n) AS IF $n = 0 [] ELSE [
      SEND n TO NEW \m.[ BECOME \x.[] ]
      spawn(sub(n, 1))
    ]
    CREATE start WITH \n.[ spawn(n) ]
    SEND 20000 TO start
  )");
  CHECK(r.err == "");
  CHECK(r.stats.actors > 20000);
  // The runtime and its globals are gone too: what is left is only what the
  // process keeps for good (built-in functions).
  CHECK(humus::rt::live_objects() - before < 100);
  CHECK(r.stats.live_actors < 12);  // the finished actors are gone: the 9 built-in ones and `start` are left
}

// Sanitizers' frames are several times larger and their stacks smaller (see stack_guard.hpp).
#if !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
TEST_CASE("non-tail recursion 100,000 deep works in an optimized build") {
  auto r = run_program(R"(
    DEF len(n) AS IF $n = 0 0 ELSE add(1, len(sub(n, 1)))
    SEND len(100000) TO println
    CREATE a WITH \n.[ SEND len(n) TO println ]
    SEND 100000 TO a
  )");
  CHECK(r.err == "");
  CHECK(r.out == "100000\n100000\n");
}
#endif
