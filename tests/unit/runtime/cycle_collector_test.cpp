// The cycle collector (runtime/cycle_collector.hpp, issue 15): actors that
// only reference cycles hold are freed while the program runs; anything held
// from outside (a live actor's state, a queued message, a pending timer, a
// host's handle, a global) keeps its cycle alive and working.
//
// The actors are written in C++ (native_actors.hpp): each shape below is
// the one a Humus program would make, given in a comment beside it.
#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "native_actors.hpp"
#include "runtime/actor_heap.hpp"
#include "runtime/cycle_collector.hpp"
#include "runtime/runtime.hpp"
#include "runtime/value.hpp"

namespace {

using namespace humus::rt;
using humus::rt::test::native_behavior;
using humus::rt::test::state;
using humus::rt::test::TestRuntime;

// (cust, x): a pair whose tail is an actor.
bool to_actor(const Value& msg, const Value& tag) {
  return msg.is_pair() && head(msg).same(tag) && tail(msg).is_actor();
}

// DEF peer(other, name) AS \msg.[
//   CASE msg OF
//   (#ping, cust) : [ SEND (#pong, cust) TO other ]
//   (#pong, cust) : [ SEND name TO cust ]
//   END
// ]
void peer_behavior(Actor& self, const Value& msg, Context& cx) {
  static const Value ping = sym("ping"), pong = sym("pong");
  if (to_actor(msg, ping)) return cx.fx.send(state(self, 0).as<Actor>(), make_pair(pong, tail(msg)));
  if (to_actor(msg, pong)) return cx.fx.send(tail(msg).as<Actor>(), state(self, 1));
  cx.rt.unhandled(cx, msg);
}
const NativeBehaviorCode peer_code(peer_behavior, "peer");
Value peer(Value other, const char* name) { return native_behavior(peer_code, {std::move(other), sym(name)}); }

// Two actors, each naming the other (CREATE a WITH peer(b, #a); CREATE b WITH
// peer(a, #b)): their behaviors are set once both exist, as CREATE does.
// Within an event, or outside one in an OutsideScope: no look meanwhile.
// `a` and `b`, if given, get the two actors.
void make_ring(Runtime& rt, const char* a_name, const char* b_name, Value* a = nullptr, Value* b = nullptr) {
  Value x = rt.new_actor(Value()), y = rt.new_actor(Value());
  rt.set_behavior(*x.as<Actor>(), peer(y, a_name));
  rt.set_behavior(*y.as<Actor>(), peer(x, b_name));
  if (a) *a = std::move(x);
  if (b) *b = std::move(y);
}

// CREATE rings WITH \k.[
//   CREATE a WITH peer(b, #a)
//   CREATE b WITH peer(a, #b)
//   IF $k = 0 [] ELSE [ SEND sub(k, 1) TO SELF ]
// ]
// `SEND k TO rings` makes k + 1 rings of two, one an event.
void rings_behavior(Actor& self, const Value& msg, Context& cx) {
  if (!msg.is_small()) return cx.rt.unhandled(cx, msg);
  make_ring(cx.rt, "a", "b");
  if (msg.small_value() > 0) cx.fx.send(&self, Value::small(msg.small_value() - 1));
}
const NativeBehaviorCode rings_code(rings_behavior, "rings");

// \m.[ SEND m TO target ]
void forward_behavior(Actor& self, const Value& msg, Context& cx) { cx.fx.send(state(self, 0).as<Actor>(), msg); }
const NativeBehaviorCode forward_code(forward_behavior, "forward");
Value forward(Value target) { return native_behavior(forward_code, {std::move(target)}); }

// A test's runtime, with its `rings` actor (the host holds it).
struct Host : TestRuntime {
  using TestRuntime::TestRuntime;
  Value rings = outside_new(native_behavior(rings_code, {}));
  Value println = global("println");

  Value outside_new(Value behavior) {
    Value a;
    outside([&] { a = rt.new_actor(std::move(behavior)); });
    return a;
  }
  void send(const Value& to, Value msg) { rt.send(to, std::move(msg)); }
  // What the program printed, a line each, sorted (workers print in any order).
  std::vector<std::string> lines() {
    std::vector<std::string> r;
    std::istringstream in(output());
    for (std::string line; std::getline(in, line);) r.push_back(line);
    std::sort(r.begin(), r.end());
    return r;
  }
};

}  // namespace

TEST_CASE("actors that only point at each other are freed") {
  Host h(1);
  const int64_t before = h.live();
  h.send(h.rings, Value::small(999));
  h.rt.wait_idle();
  CHECK(h.live() == before + 2000);  // reference counting alone frees none of them
  auto s = h.rt.collect_cycles();
  CHECK(s.collections == 1);
  CHECK(s.actors_collected == 2000);
  CHECK(h.live() == before);
  s = h.rt.collect_cycles();  // nothing more to find
  CHECK(s.collections == 2);
  CHECK(s.actors_collected == 2000);
  CHECK(h.live() == before);
}

TEST_CASE("the collector's thread looks from the processor of the worker that asked") {
  // Its caches hold the actors the look walks, and frees land where the
  // objects were made (docs/performance.md: waves, 1 thread, 0.87-0.98 s
  // with looks from the other processor, 0.68-0.75 s moved).
  Host h(2, 1000);
  CycleStats s;
  // 10,000 actors made on the workers a round: looks on the way. On a busy
  // machine a look may give up waiting for the pause and be put off (the
  // live actors doubled meanwhile), so rounds until one has run.
  for (int round = 0; round < 20 && s.collections == 0; ++round) {
    h.send(h.rings, Value::small(4999));
    h.rt.wait_idle();
    s = h.rt.cycle_stats();
  }
  // The last look may still be counting itself as moved.
  for (int i = 0; i < 500 && s.on_askers_cpu != s.collections; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    s = h.rt.cycle_stats();
  }
  CHECK(s.collections >= 1);
#if defined(__linux__)
  CHECK(s.on_askers_cpu == s.collections);
#else
  CHECK(s.on_askers_cpu == 0);
#endif
}

TEST_CASE("without worker threads the host's slices collect by themselves") {
  Host h(0, 16);  // the playground's and the fuzzers' mode: Runtime::run_for, no collector thread
  h.send(h.rings, Value::small(99));
  for (int i = 0; i < 1000; ++i) {
    const Runtime::Slice slice = h.rt.run_for(std::chrono::milliseconds(1));
    if (!slice.more && slice.wait_ms < 0) break;
  }
  h.rt.run_for(std::chrono::milliseconds(1));  // the look asked for by the last actors made
  const auto s = h.rt.cycle_stats();           // no collect_cycles() called
  CHECK(s.collections >= 1);
  CHECK(s.actors_collected >= 100);
  CHECK(s.actors_collected <= 200);
}

namespace {

// CREATE keeper WITH \msg.[
//   CASE msg OF
//   (#keep, x) : [ BECOME \m.[ SEND m TO x ] ]
//   END
// ]
void keeper_behavior(Actor&, const Value& msg, Context& cx) {
  static const Value keep = sym("keep");
  if (!to_actor(msg, keep)) return cx.rt.unhandled(cx, msg);
  cx.fx.become = forward(tail(msg));
}
const NativeBehaviorCode keeper_code(keeper_behavior, "keeper");

// CREATE maker WITH \_.[                       (its state: keeper, println)
//   CREATE a WITH peer(b, #kept)
//   CREATE b WITH peer(a, #other)
//   SEND (#keep, a) TO keeper
//   CREATE c WITH peer(d, #timed)
//   CREATE d WITH peer(c, #other)
//   AFTER 1000 SEND (#ping, println) TO d
// ]
void maker_behavior(Actor& self, const Value&, Context& cx) {
  static const Value keep = sym("keep"), ping = sym("ping");
  Value a, d;
  make_ring(cx.rt, "kept", "other", &a);
  cx.fx.send(state(self, 0).as<Actor>(), make_pair(keep, std::move(a)));
  make_ring(cx.rt, "timed", "other", nullptr, &d);
  cx.fx.delay(1000, std::move(d), make_pair(ping, state(self, 1)));
}
const NativeBehaviorCode maker_code(maker_behavior, "maker");

}  // namespace

TEST_CASE("a cycle held from outside stays, and keeps working") {
  Host h(2);
  // A keeper actor holds one member of a ring in its state; a timer holds
  // another ring's member until it fires; a global names a third.
  const Value keeper = h.outside_new(native_behavior(keeper_code, {}));
  const Value maker = h.outside_new(native_behavior(maker_code, {keeper, h.println}));
  h.send(maker, sym("go"));
  h.outside([&] {
    // g1, a global, is peer(g2, #other); g2, held by g1's behavior only, is peer(g1, #global).
    Value g1;
    make_ring(h.rt, "other", "global", &g1);
    h.rt.globals().set(h.rt.globals().slot("g1"), std::move(g1));
  });
  h.send(h.rings, Value::small(99));
  // Wait for the keeper to hold its ring (the timer is still pending): the
  // maker's event, the keeper's and the 100 rings' have run.
  for (int i = 0; i < 5000 && h.rt.stats().events < 102; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(2));
  REQUIRE(h.rt.stats().events == 102);
  auto s = h.rt.collect_cycles();
  CHECK(s.actors_collected == 200);  // the 100 rings only
  REQUIRE(h.output() == "");         // the timer had not fired yet: it held d
  static const Value ping = sym("ping");
  h.send(keeper, make_pair(ping, h.println));          // the keeper's a pings b: b says #other
  h.send(h.global("g1"), make_pair(ping, h.println));  // g1 pings g2: #global
  h.rt.wait_idle();                                    // the timer fires meanwhile: d pings c, #timed
  CHECK(h.lines() == std::vector<std::string>{"#global", "#other", "#timed"});
  CHECK(h.rt.stats().unhandled == 0);
  CHECK(h.errors() == "");
}

namespace {

// Fork/join, each request a cycle of three actors:
//
// DEF worker(join) AS \n.[ SEND (SELF, n) TO join ]
// DEF joiner(cust, k, w1, w2) AS \(w, n).[
//   IF $k = ? [ BECOME joiner(cust, n, w1, w2) ]
//   ELSE [ SEND add(k, n) TO cust ]
// ]
// CREATE server WITH \(cust, n).[
//   CREATE j WITH joiner(cust, ?, w1, w2)
//   CREATE w1 WITH worker(j)
//   CREATE w2 WITH worker(j)
//   SEND n TO w1
//   SEND n TO w2
// ]
// DEF counter(left, sum) AS \r.[               (its state also holds println)
//   IF $left = 1 [ SEND (#sum, add(sum, r)) TO println ]
//   ELSE [ BECOME counter(sub(left, 1), add(sum, r)) ]
// ]
// CREATE total WITH counter(20000, 0)
// CREATE driver WITH \i.[                      (its state: server, total)
//   IF $i = 20000 [] ELSE [
//     SEND (total, i) TO server
//     SEND add(i, 1) TO SELF
//   ]
// ]
constexpr int64_t kRequests = 20000;

void worker_behavior(Actor& self, const Value& n, Context& cx) {
  cx.fx.send(state(self, 0).as<Actor>(), make_pair(Value::share(&self), n));
}
const NativeBehaviorCode worker_code(worker_behavior, "worker");

Value joiner(const Value& cust, Value k, const Value& w1, const Value& w2);
void joiner_behavior(Actor& self, const Value& msg, Context& cx) {
  if (!msg.is_pair() || !head(msg).is_actor() || !tail(msg).is_small()) return cx.rt.unhandled(cx, msg);
  const Value &cust = state(self, 0), &k = state(self, 1);
  if (k.is_undefined()) {
    cx.fx.become = joiner(cust, tail(msg), state(self, 2), state(self, 3));
    return;
  }
  cx.fx.send(cust.as<Actor>(), Value::small(k.small_value() + tail(msg).small_value()));
}
const NativeBehaviorCode joiner_code(joiner_behavior, "joiner");
Value joiner(const Value& cust, Value k, const Value& w1, const Value& w2) {
  return native_behavior(joiner_code, {cust, std::move(k), w1, w2});
}

void server_behavior(Actor&, const Value& msg, Context& cx) {
  if (!msg.is_pair() || !head(msg).is_actor()) return cx.rt.unhandled(cx, msg);
  Value j = cx.rt.new_actor(Value());
  Value w1 = cx.rt.new_actor(native_behavior(worker_code, {j}));
  Value w2 = cx.rt.new_actor(native_behavior(worker_code, {j}));
  cx.rt.set_behavior(*j.as<Actor>(), joiner(head(msg), Value::undefined(), w1, w2));
  cx.fx.send(w1.as<Actor>(), tail(msg));
  cx.fx.send(w2.as<Actor>(), tail(msg));
}
const NativeBehaviorCode server_code(server_behavior, "server");

void counter_behavior(Actor& self, const Value& r, Context& cx) {
  static const Value sum_tag = sym("sum");
  if (!r.is_small()) return cx.rt.unhandled(cx, r);
  const Value &out = state(self, 0), &left = state(self, 1);
  const int64_t sum = state(self, 2).small_value() + r.small_value();
  if (left.small_value() == 1) return cx.fx.send(out.as<Actor>(), make_pair(sum_tag, Value::small(sum)));
  cx.fx.become = native_behavior(*static_cast<const NativeBehaviorCode*>(self.behavior.as<Closure>()->code),
                                 {out, Value::small(left.small_value() - 1), Value::small(sum)});
}
const NativeBehaviorCode counter_code(counter_behavior, "counter");

void driver_behavior(Actor& self, const Value& i, Context& cx) {
  if (!i.is_small()) return cx.rt.unhandled(cx, i);
  if (i.small_value() == kRequests) return;
  cx.fx.send(state(self, 0).as<Actor>(), make_pair(state(self, 1), i));
  cx.fx.send(&self, Value::small(i.small_value() + 1));
}
const NativeBehaviorCode driver_code(driver_behavior, "driver");

}  // namespace

TEST_CASE("collections race sends and creates on four workers") {
  // The collector thread looks every 64 more live actors, and the host
  // asks for collections too, while fork/join requests make three-actor
  // cycles on four workers.
  Host h(4, 64);
  const Value server = h.outside_new(native_behavior(server_code, {}));
  const Value total =
      h.outside_new(native_behavior(counter_code, {h.println, Value::small(kRequests), Value::small(0)}));
  const Value driver = h.outside_new(native_behavior(driver_code, {server, total}));
  h.send(driver, Value::small(0));
  std::atomic<bool> done{false};
  std::thread asker([&] {
    while (!done.load()) {
      h.rt.collect_cycles();
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
  });
  h.rt.wait_idle();
  done = true;
  asker.join();
  CHECK(h.output() == "#sum, 399980000\n");  // sum of 2i for i < 20000
  h.rt.collect_cycles();
  auto s = h.rt.cycle_stats();
  CHECK(s.collections > 1);
  CHECK(s.actors_collected == 3 * kRequests);
  CHECK(h.rt.stats().unhandled == 0);
  CHECK(h.errors() == "");
}

// A host may take an element out of a list and drop the list while a
// collection reads the counts: read before the copy, the element looks held
// by the list only; read after the drop, the list looks held by garbage
// only. The collection must see the element's count change and change
// nothing; and one that only let an element go again must go on.
TEST_CASE("a host's copy out of a list while the counts are read is not lost") {
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

namespace {

// 100,000 live actors, one per event, each holding the one before (`grow`
// holds the last):
// CREATE grow WITH \(k, prev).[
//   IF $k = 0 [ BECOME \m.[ SEND m TO prev ] ]
//   ELSE [ SEND (sub(k, 1), NEW \m.[ SEND m TO prev ]) TO SELF ]
// ]
void grow_behavior(Actor& self, const Value& msg, Context& cx) {
  if (!msg.is_pair() || !head(msg).is_small() || !tail(msg).is_actor()) return cx.rt.unhandled(cx, msg);
  const int64_t k = head(msg).small_value();
  if (k == 0) {
    cx.fx.become = forward(tail(msg));
    return;
  }
  cx.fx.send(&self, make_pair(Value::small(k - 1), cx.rt.new_actor(forward(tail(msg)))));
}
const NativeBehaviorCode grow_code(grow_behavior, "grow");

}  // namespace

// Looks that find nothing make the next one wait longer (the live actors
// growing 3-fold, then 5-fold, not 2-fold); the first look that finds
// garbage goes back to doubling.
TEST_CASE("fewer looks at a growing live structure; garbage still found") {
  Host h(0, 1000);  // one thread, run_for: a requested look runs between slices of 16 turns
  auto run_out = [&] {
    for (int i = 0; i < 1000000; ++i)
      if (const auto s = h.rt.run_for(std::chrono::milliseconds(0)); !s.more && s.wait_ms < 0) break;
    h.rt.run_for(std::chrono::milliseconds(0));  // the look the last actors made asked for
  };
  const Value grow = h.outside_new(native_behavior(grow_code, {}));
  h.send(grow, make_pair(Value::small(100000), h.println));
  run_out();
  auto s = h.rt.cycle_stats();
  CHECK(s.actors_collected == 0);
  // At about 1,000, 3,600 and 18,400 live (a look runs between slices of
  // turns), each finding nothing, so each waits for more growth: 2x, 4x,
  // then 8x (the next at about 166,000). Doubling would have looked 7
  // times (1k, 2k, ... 64k); growth up to 4x, 4 times.
  CHECK(s.collections == 3);
  const int64_t structure = h.live();
  CHECK(structure >= 100000);
  // 40,000 pairs of garbage: the look at about 166,000 live finds what there is by then.
  h.send(h.rings, Value::small(39999));
  run_out();
  s = h.rt.cycle_stats();
  CHECK(s.collections == 4);
  CHECK(s.actors_collected >= 50000);
  CHECK(h.live() < structure + 80000 - 50000);
}

namespace {

// One event: 10,000 live actors in a chain (a few ms), then it keeps its
// worker busy until the collector has given up waiting for it (20 ms; 30 s
// at most, and the test fails), and 300 ms more, so that the collector
// chooses, 50 ms after giving up, while the event still runs:
// DEF link(prev) AS \c.[ SEND c TO prev ]
// DEF make(i, prev) AS IF $i = 0 prev ELSE make(sub(i, 1), NEW link(prev))
// CREATE holder WITH \_.[                      (its state holds println)
//   LET chain = $make(10000, println)
//   BECOME \m.[ SEND m TO chain ]
//   SEND #spun TO println                       (after the wait)
// ]
void holder_behavior(Actor& self, const Value&, Context& cx) {
  static const Value spun = sym("spun");
  Value chain = state(self, 0);
  for (int i = 0; i < 10000; ++i) chain = cx.rt.new_actor(forward(std::move(chain)));
  cx.fx.become = forward(std::move(chain));
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (cx.rt.cycle_stats().gave_up == 0 && std::chrono::steady_clock::now() < give_up)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  cx.fx.send(state(self, 0).as<Actor>(), spun);
}
const NativeBehaviorCode holder_code(holder_behavior, "holder");

}  // namespace

// A look asked for during one long event cannot run until the event ends
// (collections pause workers between turns): the collector gives up after
// 20 ms and says so in the stats. Since the live actors more than doubled
// meanwhile, it does not look when the event ends; it waits for them to
// double again, and garbage made after that is found.
TEST_CASE("a look put off by a busy event that made many actors waits for them to double again") {
  Host h(1, 1000);  // one worker and the collector's thread
  const Value holder = h.outside_new(native_behavior(holder_code, {h.println}));
  h.send(holder, sym("go"));
  h.rt.wait_idle();
  auto s = h.rt.cycle_stats();
  CHECK(h.output() == "#spun\n");
  CHECK(s.gave_up == 1);      // it tried once, then chose to wait rather than try again
  CHECK(s.collections == 0);  // asked at 1,000 live; 10,000 when it chose to wait
  const int64_t structure = h.live();
  CHECK(structure >= 10000);
  // 10,000 pairs of garbage: the live actors pass 20,000, twice what the
  // event had made when the collector, 50 ms after it gave up, chose to
  // wait; a look then finds the garbage.
  h.send(h.rings, Value::small(9999));
  h.rt.wait_idle();
  for (int i = 0; i < 500 && h.rt.cycle_stats().collections == 0; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));  // the collector's thread runs it
  s = h.rt.cycle_stats();
  CHECK(s.collections >= 1);
  CHECK(s.actors_collected >= 10000);
  CHECK(h.live() < structure + 20000);
}

TEST_CASE("without the final collection, what only cycles hold is left to the operating system") {
  // RuntimeOptions::final_collection: the humus command sets it false
  // outside checked builds, as its process ends with the runtime.
  enable_live_object_count();
  {  // made once per process (the built-ins' symbols, the first runtime's tables): not counted below
    Host warm(1);
    warm.send(warm.rings, Value::small(0));
    warm.rt.wait_idle();
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
    const int64_t before = live_objects();
    uint64_t collections = 0;
    {
      Host h(1, 0, final_collection);
      h.send(h.rings, Value::small(99));
      h.rt.wait_idle();
      CHECK(h.live() >= 200);  // 100 rings of two, none freed yet (cycle_check 0)
      collections = h.rt.cycle_stats().collections;
    }
    CHECK(collections == 0);  // only the finale could have looked
    const int64_t left = live_objects() - before;
    if (final_collection)
      CHECK(left == 0);  // the finale freed every ring, and the globals freed the rest
    else
      CHECK(left >= 200);  // every ring's two actors (and their behaviors) stay
  }
}
