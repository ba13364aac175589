// The dispatcher on several workers: nothing lost, nothing duplicated,
// per-sender order kept, and the run ends exactly at quiescence. Repeated,
// since races show up only now and then (also run under ThreadSanitizer).
#include <doctest/doctest.h>

#include <chrono>
#include <thread>

#include "run_program.hpp"
#include "runtime/value.hpp"

using humus::test::run_program;

TEST_CASE("many producers to one actor: exact count and per-producer FIFO") {
  // 20 producers each send 0..199 in order; the sink checks every producer's
  // sequence arrives in order and counts all 4000.
  const char* program = R"(
    DEF sink_beh(expected, seen, count) AS \(who, k).[
      LET next = $lookup(seen, who)
      IF $k = $next [
        BECOME sink_beh(expected, bump(seen, who), add(count, 1))
        IF $add(count, 1) = $expected [ SEND (#received, add(count, 1)) TO println ]
      ] ELSE [
        THROW (#out_of_order, who, k, #expected, next)
      ]
    ]
    DEF lookup(seen, who) AS CASE seen OF NIL : 0  (($who, n), _) : n  (_, rest) : lookup(rest, who) END
    DEF bump(seen, who) AS CASE seen OF
      NIL : ((who, 1), NIL)
      (($who, n), rest) : ((who, add(n, 1)), rest)
      (e, rest) : (e, bump(rest, who))
    END
    CREATE sink WITH sink_beh(4000, NIL, 0)
    DEF producer(k) AS \who.[
      IF $k = 200 [] ELSE [
        SEND (who, k) TO sink
        SEND who TO NEW producer(add(k, 1))
      ]
    ]
    DEF start(i) AS IF $i = 0 [] ELSE [ SEND i TO NEW producer(0)  start(sub(i, 1)) ]
    start(20)
  )";
  for (int round = 0; round < 10; ++round) {
    auto r = run_program(program, 4);
    REQUIRE(r.err == "");
    REQUIRE(r.out == "#received, 4000\n");
  }
}

TEST_CASE("a ring passes a token around on several workers") {
  const char* program = R"(
    DEF node(next) AS \(n, k).[
      IF $n = 0 [ SEND (#done, k) TO println ]
      ELSE [ SEND (sub(n, 1), add(k, 1)) TO next ]
    ]
    # The last node sends to `closer`, which learns the first node, then forwards to it.
    CREATE closer WITH \first.[ BECOME \msg.[ SEND msg TO first ] ]
    DEF build(i, next) AS IF $i = 0 next ELSE build(sub(i, 1), NEW node(next))
    DEF first AS build(500, closer)
    SEND first TO closer
    SEND (20000, 0) TO first
  )";
  for (int round = 0; round < 5; ++round) {
    auto r = run_program(program, 4);
    REQUIRE(r.err == "");
    REQUIRE(r.out == "#done, 20000\n");
  }
}

TEST_CASE("actors that BECOME on every message never run on two workers at once") {
  // Each counter's state lives only in its behavior: a lost or doubled update
  // (two workers in one actor) shows as a wrong total.
  const char* program = R"(
    DEF counter(n) AS \#inc.[
      BECOME counter(add(n, 1))
      IF $add(n, 1) = 10000 [ SEND #all_10000_counted TO println ]
    ]
    CREATE c WITH counter(0)
    DEF bump(i) AS IF $i = 0 [] ELSE [ SEND #inc TO c  SEND #inc TO NEW \_.[ SEND #inc TO c ]  bump(sub(i, 1)) ]
    CREATE driver WITH \_.[ bump(5000) ]
    SEND #go TO driver
  )";
  for (int round = 0; round < 3; ++round) {
    auto r = run_program(program, 4);
    REQUIRE(r.err == "");
    REQUIRE(r.out == "#all_10000_counted\n");
    REQUIRE(r.stats.unhandled == 0);
  }
}

TEST_CASE("fork/join trees: every continuation gets two racing answers") {
  const char* program = R"(
    DEF fib_beh AS \(cust, n).[
      CASE less(n, 2) OF
      TRUE : [ SEND n TO cust ]
      FALSE : [
        SEND (k, sub(n, 1)) TO SELF
        SEND (k, sub(n, 2)) TO NEW fib_beh
        CREATE k WITH \a.[ BECOME \b.[ SEND add(a, b) TO cust ] ]
      ]
      END
    ]
    SEND (println, 18) TO NEW fib_beh
    SEND (println, 12) TO NEW fib_beh
  )";
  for (int round = 0; round < 10; ++round) {
    auto r = run_program(program, 4);
    REQUIRE(r.err == "");
    REQUIRE((r.out == "144\n2584\n" || r.out == "2584\n144\n"));
  }
}

TEST_CASE("shutdown while work is queued frees everything") {
  humus::rt::enable_live_object_count();
  const int64_t before = humus::rt::live_objects();
  humus::rt::run_on_big_stack([] {
    for (int round = 0; round < 5; ++round) {
      humus::rt::RuntimeOptions o;
      o.threads = 4;
      o.out = [](std::string_view) {};
      humus::interp::Interpreter interp(o);
      auto src = std::make_shared<humus::ast::Source>(humus::ast::Source{"shutdown.hum", R"(
        # 100 actors that never stop, each making a new actor per message
        DEF spin(n) AS \m.[ SEND add(m, 1) TO SELF  SEND m TO NEW \_.[ ] ]
        DEF start(i) AS IF $i = 0 [] ELSE [ SEND i TO NEW spin(i)  start(sub(i, 1)) ]
        start(100)
        AFTER 10000 SEND #never TO println
      )"});
      auto* unit = interp.load(src);
      REQUIRE(unit);
      interp.run(*unit);
      interp.start();
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      // The interpreter goes out of scope with messages queued, actors
      // running away and a timer pending.
    }
  });
  CHECK(humus::rt::live_objects() - before < 100);
}

namespace {
// A governor that changes its mind every step (a step every 50 µs): workers
// are benched and called back thousands of times a run.
humus::rt::GovernorSettings twitchy() {
  humus::rt::GovernorSettings s;
  s.window = std::chrono::microseconds(50);
  s.max_window = std::chrono::microseconds(200);
  s.first_interval = std::chrono::microseconds(50);
  s.max_interval = std::chrono::microseconds(100);
  s.min_events = 0;
  s.fewer_if = 0;  // fewer always wins...
  s.more_if = 0;   // ...and so does more, when anything ran
  return s;
}
}  // namespace

TEST_CASE("workers benched and called back all the time: nothing lost, order kept, the run ends") {
  // The producers program above, and fork/join trees, under a governor that
  // flips between 1, 2 and 4 workers as often as it can.
  const char* producers = R"(
    DEF sink_beh(seen, count) AS \(who, k).[
      IF $k = $lookup(seen, who) [
        BECOME sink_beh(bump(seen, who), add(count, 1))
        IF $add(count, 1) = 4000 [ SEND (#received, 4000) TO println ]
      ] ELSE [ THROW (#out_of_order, who, k) ]
    ]
    DEF lookup(seen, who) AS CASE seen OF NIL : 0  (($who, n), _) : n  (_, rest) : lookup(rest, who) END
    DEF bump(seen, who) AS CASE seen OF
      NIL : ((who, 1), NIL)
      (($who, n), rest) : ((who, add(n, 1)), rest)
      (e, rest) : (e, bump(rest, who))
    END
    CREATE sink WITH sink_beh(NIL, 0)
    DEF producer(k) AS \who.[ IF $k = 200 [] ELSE [ SEND (who, k) TO sink  SEND who TO NEW producer(add(k, 1)) ] ]
    DEF start(i) AS IF $i = 0 [] ELSE [ SEND i TO NEW producer(0)  start(sub(i, 1)) ]
    start(20)
  )";
  const char* forkjoin = R"(
    DEF fib_beh AS \(cust, n).[
      IF $less(n, 2) = TRUE [ SEND n TO cust ] ELSE [
        SEND (k, sub(n, 1)) TO SELF
        SEND (k, sub(n, 2)) TO NEW fib_beh
        CREATE k WITH \a.[ BECOME \b.[ SEND add(a, b) TO cust ] ]
      ]
    ]
    SEND (println, 20) TO NEW fib_beh
  )";
  const auto settings = twitchy();
  uint64_t changes = 0;
  for (int round = 0; round < 6; ++round) {
    auto r = run_program(producers, 4, "test.hum", false, nullptr, &settings);
    REQUIRE(r.err == "");
    REQUIRE(r.out == "#received, 4000\n");
    auto f = run_program(forkjoin, 4, "test.hum", false, nullptr, &settings);
    REQUIRE(f.err == "");
    REQUIRE(f.out == "6765\n");
    changes += r.stats.worker_changes + f.stats.worker_changes;
  }
  CHECK(changes > 6);  // it did bench and call back workers
}

TEST_CASE("a benched worker comes back when the running one is stuck in a long event") {
  // The governor starts with the second worker benched, and keeps it so
  // through a warm-up of many short events (fewer always wins here, more
  // never does). Then one worker is caught in
  // a long event while another actor's chain of 200 messages waits in its
  // ring: the benched worker steps the governor itself (a probe, or too few
  // events to measure), runs, and the chain ends long before the long event.
  const char* program = R"(
    DEF spin(n) AS IF $n = 0 #long_done ELSE spin(sub(n, 1))
    CREATE long WITH \_.[ SEND spin(150000000) TO println ]
    DEF chain(k) AS \_.[ IF $k = 200 [ SEND #chain_done TO println ] ELSE [ BECOME chain(add(k, 1))  SEND #next TO SELF ] ]
    CREATE short WITH chain(0)
    DEF warm(k) AS \_.[
      IF $k = 0 [ SEND #go TO long  SEND #go TO short ]
      ELSE [ BECOME warm(sub(k, 1))  SEND #next TO SELF ]
    ]
    SEND #next TO NEW warm(200000)
  )";
  humus::rt::GovernorSettings s;
  s.window = std::chrono::milliseconds(2);
  s.max_window = std::chrono::milliseconds(20);
  s.first_interval = std::chrono::milliseconds(2);
  s.max_interval = std::chrono::milliseconds(20);
  s.fewer_if = 0;
  s.more_if = 1e9;
  auto r = run_program(program, 2, "test.hum", false, nullptr, &s);
  REQUIRE(r.err == "");
  CHECK(r.out == "#chain_done\n#long_done\n");
}
