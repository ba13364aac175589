// The cycle collector (runtime/cycle_collector.hpp, issue 15): actors that
// only reference cycles hold are freed while the program runs; anything held
// from outside (a live actor's state, a queued message, a pending timer, a
// host's handle, a global) keeps its cycle alive and working.
#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "interpreter/interpreter.hpp"
#include "run_program.hpp"
#include "runtime/actor_heap.hpp"
#include "runtime/cycle_collector.hpp"
#include "runtime/stack_guard.hpp"
#include "runtime/value.hpp"

namespace {

using humus::interp::Interpreter;

struct Host {
  std::mutex m;
  std::string out, err;
  std::unique_ptr<Interpreter> interp;

  explicit Host(unsigned threads, uint64_t cycle_check = 0, bool final_collection = true) {
    humus::rt::RuntimeOptions o = humus::test::capturing_options(threads, m, out, err);
    o.cycle_check = cycle_check;
    o.final_collection = final_collection;
    interp = std::make_unique<Interpreter>(o);
    interp->start();
  }
  void run(const std::string& code) {
    auto src = std::make_shared<humus::ast::Source>(humus::ast::Source{"cycles.hum", code});
    Interpreter::Outcome outcome;
    auto* unit = interp->load(src, &outcome);
    REQUIRE(unit);
    REQUIRE(interp->run(*unit) == Interpreter::Outcome::Ok);
  }
  humus::rt::Runtime& rt() { return interp->runtime(); }
  int64_t live() { return rt().stats().live_actors; }
  std::string output() {
    std::lock_guard lock(m);
    return out;
  }
};

// `ring(k)`: makes two actors that point at each other, k times; each pair
// answers a ping through both of its members.
const char* const kRings = R"(
DEF peer(other, name) AS \msg.[
  CASE msg OF
  (#ping, cust) : [ SEND (#pong, cust) TO other ]
  (#pong, cust) : [ SEND name TO cust ]
  END
]
CREATE rings WITH \k.[
  CREATE a WITH peer(b, #a)
  CREATE b WITH peer(a, #b)
  IF $k = 0 [] ELSE [ SEND sub(k, 1) TO SELF ]
]
)";

}  // namespace

TEST_CASE("actors that only point at each other are freed") {
  humus::rt::run_on_big_stack([] {
    Host h(1);
    h.run(kRings);
    const int64_t before = h.live();
    h.run("SEND 999 TO rings\n");
    h.interp->wait_idle();
    CHECK(h.live() == before + 2000);  // reference counting alone frees none of them
    auto s = h.rt().collect_cycles();
    CHECK(s.collections == 1);
    CHECK(s.actors_collected == 2000);
    CHECK(h.live() == before);
    h.rt().collect_cycles();  // nothing more to find
    CHECK(h.rt().cycle_stats().actors_collected == 2000);
  });
}

TEST_CASE("without worker threads the host's slices collect by themselves") {
  humus::rt::run_on_big_stack([] {
    Host h(0, 16);  // the playground's and the fuzzers' mode: Runtime::run_for, no collector thread
    h.run(kRings);
    h.run("SEND 99 TO rings\n");
    for (int i = 0; i < 1000; ++i) {
      const humus::rt::Runtime::Slice slice = h.rt().run_for(std::chrono::milliseconds(1));
      if (!slice.more && slice.wait_ms < 0) break;
    }
    h.rt().run_for(std::chrono::milliseconds(1));  // the look asked for by the last actors made
    const auto s = h.rt().cycle_stats();           // no collect_cycles() called
    CHECK(s.collections >= 1);
    CHECK(s.actors_collected >= 100);
    CHECK(s.actors_collected <= 200);
  });
}

TEST_CASE("a cycle held from outside stays, and keeps working") {
  humus::rt::run_on_big_stack([] {
    Host h(2);
    h.run(kRings);
    // A keeper actor holds one member of a ring in its state; a timer holds
    // another ring's member until it fires; a global names a third.
    h.run(R"(
CREATE keeper WITH \msg.[
  CASE msg OF
  (#keep, x) : [ BECOME \m.[ SEND m TO x ] ]
  END
]
CREATE maker WITH \_.[
  CREATE a WITH peer(b, #kept)
  CREATE b WITH peer(a, #other)
  SEND (#keep, a) TO keeper
  CREATE c WITH peer(d, #timed)
  CREATE d WITH peer(c, #other)
  AFTER 300 SEND (#ping, println) TO d
]
SEND #go TO maker
CREATE g1 WITH \(#set, x).[ BECOME peer(x, #global) ]
CREATE g2 WITH peer(g1, #other)
SEND (#set, g2) TO g1
SEND 99 TO rings
)");
    // Wait for the keeper to hold its ring (the timer is still pending).
    for (int i = 0; i < 500 && h.rt().stats().events < 103; ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    auto s = h.rt().collect_cycles();
    CHECK(s.actors_collected == 200);  // the 100 rings only
    h.run("SEND (#ping, println) TO keeper\nSEND (#ping, println) TO g2\n");
    h.interp->wait_idle();  // the timer fires meanwhile
    std::string out = h.output();
    CHECK(out.find("#kept") == std::string::npos);  // kept: a pings b, b pongs a, a names itself
    CHECK(out.find("#other") != std::string::npos);
    CHECK(out.find("#timed") != std::string::npos);
    CHECK(out.find("#global") != std::string::npos);
    CHECK(h.err == "");
  });
}

TEST_CASE("collections race sends and creates on four workers") {
  humus::rt::run_on_big_stack([] {
    // The collector thread looks every 64 more live actors, and the host
    // asks for collections too, while fork/join requests make three-actor
    // cycles on four workers.
    Host h(4, 64);
    h.run(R"(
DEF worker(join) AS \n.[ SEND (SELF, n) TO join ]
DEF joiner(cust, k, w1, w2) AS \(w, n).[
  IF $k = ? [ BECOME joiner(cust, n, w1, w2) ]
  ELSE [ SEND add(k, n) TO cust ]
]
CREATE server WITH \(cust, n).[
  CREATE j WITH joiner(cust, ?, w1, w2)
  CREATE w1 WITH worker(j)
  CREATE w2 WITH worker(j)
  SEND n TO w1
  SEND n TO w2
]
DEF counter(left, sum) AS \r.[
  IF $left = 1 [ SEND (#sum, add(sum, r)) TO println ]
  ELSE [ BECOME counter(sub(left, 1), add(sum, r)) ]
]
CREATE total WITH counter(20000, 0)
CREATE driver WITH \i.[
  IF $i = 20000 [] ELSE [
    SEND (total, i) TO server
    SEND add(i, 1) TO SELF
  ]
]
SEND 0 TO driver
)");
    std::atomic<bool> done{false};
    std::thread asker([&] {
      while (!done.load()) {
        h.rt().collect_cycles();
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
      }
    });
    h.interp->wait_idle();
    done = true;
    asker.join();
    CHECK(h.output() == "#sum, 399980000\n");  // sum of 2i for i < 20000
    h.rt().collect_cycles();
    auto s = h.rt().cycle_stats();
    CHECK(s.collections > 1);
    CHECK(s.actors_collected == 60000);
    CHECK(h.err == "");
  });
}

// A host may take an element out of a list and drop the list while a
// collection reads the counts: read before the copy, the element looks held
// by the list only; read after the drop, the list looks held by garbage
// only. The collection must see the element's count change and change
// nothing; and one that only let an element go again must go on.
TEST_CASE("a host's copy out of a list while the counts are read is not lost") {
  using namespace humus::rt;
  for (const bool keeps : {true, false}) {
    CAPTURE(keeps);
    ActorHeap heap;
    Actor* x = heap.make(1, Actor::kNoName, make_pair(Value::small(7), Value::nil()));  // the element
    Value list = make_pair(Value::adopt(x), Value::nil());                              // only the list holds x
    // a <-> b, a cycle; a also holds the list, as the host does.
    Actor* b = heap.make(2, Actor::kNoName, Value::nil());
    Value a = Value::adopt(heap.make(3, Actor::kNoName, make_pair(list, Value::adopt(b))));
    b->behavior = a;
    a = Value();  // the cycle is garbage, but for the host's list
    REQUIRE(heap.live() == 3);

    CycleCollector collector;
    Value taken;
    collector.after_reading = [&](const Actor& read) {
      if (&read != x) return;
      taken = head(list);  // the host's Value::head()...
      list = Value();      // ...then it drops the list
      if (!keeps) taken = Value();
    };
    CollectResult r = collector.collect(heap);
    collector.after_reading = nullptr;
    if (!keeps) {  // nothing outside holds any of it now: all three go
      CHECK_FALSE(r.raced);
      CHECK(r.actors_collected == 3);
      CHECK(heap.live() == 0);
      continue;
    }
    CHECK(r.raced);
    CHECK(r.actors_collected == 0);
    CHECK(heap.live() == 3);
    REQUIRE(taken.is_actor());
    const Value& kept = taken.as<Actor>()->behavior;
    r = collector.collect(heap);  // now the counts agree: the cycle and the list go, x stays
    CHECK_FALSE(r.raced);
    CHECK(r.actors_collected == 2);
    CHECK(heap.live() == 1);
    REQUIRE(kept.is_pair());
    CHECK(head(kept).small_value() == 7);
  }
}

// Looks that find nothing make the next one wait longer (the live actors
// growing 3-fold, then 5-fold, not 2-fold); the first look that finds
// garbage goes back to doubling.
TEST_CASE("fewer looks at a growing live structure; garbage still found") {
  humus::rt::run_on_big_stack([] {
    Host h(0, 1000);  // one thread, run_for: a requested look runs between slices of 16 turns
    auto run_out = [&] {
      for (int i = 0; i < 1000000; ++i)
        if (const auto s = h.rt().run_for(std::chrono::milliseconds(0)); !s.more && s.wait_ms < 0) break;
      h.rt().run_for(std::chrono::milliseconds(0));  // the look the last actors made asked for
    };
    h.run(kRings);
    // 100,000 live actors, one per event, each holding the one before (`grow` holds the last).
    h.run(R"(
CREATE grow WITH \(k, prev).[
  IF $k = 0 [ BECOME \m.[ SEND m TO prev ] ]
  ELSE [ SEND (sub(k, 1), NEW \m.[ SEND m TO prev ]) TO SELF ]
]
SEND (100000, println) TO grow
)");
    run_out();
    auto s = h.rt().cycle_stats();
    CHECK(s.actors_collected == 0);
    // At about 1,000, 3,600 and 18,400 live (a look runs between slices of
    // turns), each finding nothing, so each waits for more growth: 2x, 4x,
    // then 8x (the next at about 166,000). Doubling would have looked 7
    // times (1k, 2k, ... 64k); growth up to 4x, 4 times.
    CHECK(s.collections == 3);
    const int64_t structure = h.live();
    CHECK(structure >= 100000);
    // 40,000 pairs of garbage: the look at about 166,000 live finds what there is by then.
    h.run("SEND 39999 TO rings\n");
    run_out();
    s = h.rt().cycle_stats();
    CHECK(s.collections == 4);
    CHECK(s.actors_collected >= 50000);
    CHECK(h.live() < structure + 80000 - 50000);
  });
}

// A look asked for during one long event cannot run until the event ends
// (collections pause workers between turns): the collector gives up after
// 20 ms and says so in the stats. Since the live actors more than doubled
// meanwhile, it does not look when the event ends; it waits for them to
// double again, and garbage made after that is found.
TEST_CASE("a look put off by a busy event that made many actors waits for them to double again") {
  humus::rt::run_on_big_stack([] {
    Host h(1, 1000);  // one worker and the collector's thread
    h.run(kRings);
    // One event: 10,000 live actors in a chain (a few ms), then a long loop
    // (about 0.3 s; more under the sanitizers) that keeps the collector
    // waiting past its 20 ms.
    h.run(R"(
DEF link(prev) AS \c.[ SEND c TO prev ]
DEF make(i, prev) AS IF $i = 0 prev ELSE make(sub(i, 1), NEW link(prev))
DEF spin(n) AS IF $n = 0 #spun ELSE spin(sub(n, 1))
CREATE holder WITH \_.[
  LET chain = $make(10000, println)
  BECOME \m.[ SEND m TO chain ]
  SEND spin(50000000) TO println
]
SEND #go TO holder
)");
    h.interp->wait_idle();
    auto s = h.rt().cycle_stats();
    CHECK(h.output() == "#spun\n");
    CHECK(s.gave_up >= 1);
    CHECK(s.collections == 0);  // asked at 1,000 live; 10,000 when it chose to wait
    const int64_t structure = h.live();
    CHECK(structure >= 10000);
    // 10,000 pairs of garbage: the live actors pass 20,000, twice what the
    // event had made when the collector, 50 ms after it gave up, chose to
    // wait; a look then finds the garbage.
    h.run("SEND 9999 TO rings\n");
    h.interp->wait_idle();
    for (int i = 0; i < 500 && h.rt().cycle_stats().collections == 0; ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(10));  // the collector's thread runs it
    s = h.rt().cycle_stats();
    CHECK(s.collections >= 1);
    CHECK(s.actors_collected >= 10000);
    CHECK(h.live() < structure + 20000);
  });
}

TEST_CASE("without the final collection, what only cycles hold is left to the operating system") {
  // RuntimeOptions::final_collection: the humus command sets it false
  // outside checked builds, as its process ends with the runtime.
  humus::rt::enable_live_object_count();
  humus::rt::run_on_big_stack([] {
    {  // made once per process (built-ins, the first runtime's tables): not counted below
      Host warm(1);
      warm.run(kRings);
    }
    // Without the finale the rings are left to the operating system, which
    // LeakSanitizer would report (they are made on worker threads, out of
    // reach of __lsan_disable): that half runs in builds without it.
#if defined(__SANITIZE_ADDRESS__)
    for (const bool final_collection : {true}) {
#else
    for (const bool final_collection : {true, false}) {
#endif
      CAPTURE(final_collection);
      const int64_t before = humus::rt::live_objects();
      uint64_t collections = 0;
      {
        Host h(1, 0, final_collection);
        h.run(kRings);
        h.run("SEND 99 TO rings\n");
        h.interp->wait_idle();
        CHECK(h.live() >= 200);  // 100 rings of two, none freed yet (cycle_check 0)
        collections = h.rt().cycle_stats().collections;
      }
      CHECK(collections == 0);  // only the finale could have looked
      const int64_t left = humus::rt::live_objects() - before;
      if (final_collection)
        CHECK(left == 0);  // the finale freed every ring, and the globals freed the rest
      else
        CHECK(left >= 200);  // every ring's two actors (and their behaviors) stay
    }
  });
}
