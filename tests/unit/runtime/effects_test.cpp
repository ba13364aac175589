// The effect buffer of an event, and the actor's layout.
#include <doctest/doctest.h>

#include "runtime/actor.hpp"
#include "runtime/context.hpp"

using namespace humus::rt;

namespace {
// The payloads in `r`'s chain, in order, batches opened.
std::vector<int64_t> chain_of(const Effects::Run& r) {
  std::vector<int64_t> out;
  for (Message* m = r.first; m; m = m->next.load()) {
    if (!m->is_batch()) {
      out.push_back(m->payload.small_value());
      continue;
    }
    auto* b = static_cast<Batch*>(m);
    for (uint32_t i = 0; i < b->count; ++i) out.push_back(b->items()[i].small_value());
  }
  return out;
}

// The nodes of `r`'s chain: how many messages each holds.
std::vector<uint32_t> node_sizes(const Effects::Run& r) {
  std::vector<uint32_t> out;
  for (Message* m = r.first; m; m = m->next.load()) out.push_back(m->is_batch() ? static_cast<Batch*>(m)->count : 1);
  return out;
}
}  // namespace

TEST_CASE("the sends to one actor form one run, in SEND order, however they interleave") {
  auto* a = new Actor(1);
  auto* b = new Actor(2);
  Effects fx;
  fx.send(a, Value::small(1));
  fx.send(a, Value::small(2));
  fx.send(b, Value::small(3));
  fx.send(a, Value::small(4));
  REQUIRE(fx.runs.size() == 2);
  CHECK(fx.runs[0].target == a);  // in the order of each target's first send
  CHECK(chain_of(fx.runs[0]) == std::vector<int64_t>{1, 2, 4});
  CHECK(fx.runs[0].count == 3);
  CHECK(fx.runs[1].target == b);
  CHECK(chain_of(fx.runs[1]) == std::vector<int64_t>{3});
  // Each run holds its target, besides our own references.
  CHECK(a->refs.load() == 2);
  CHECK(b->refs.load() == 2);
  fx.clear();  // a failed event: the messages go, and the references with them
  CHECK(fx.runs.empty());
  CHECK(a->refs.load() == 1);
  CHECK(b->refs.load() == 1);
  a->release();
  b->release();
}

TEST_CASE("sends round many actors: each actor's run is found again, by scan and then by index") {
  constexpr int kActors = 20, kRounds = 50;  // more actors than a scan covers
  std::vector<Actor*> actors;
  for (int i = 0; i < kActors; ++i) actors.push_back(new Actor(uint64_t(i + 1)));
  Effects fx;
  for (int round = 0; round < kRounds; ++round)
    for (int i = 0; i < kActors; ++i) fx.send(actors[size_t(i)], Value::small(round * 100 + i));
  REQUIRE(fx.runs.size() == size_t(kActors));
  for (int i = 0; i < kActors; ++i) {
    const auto& r = fx.runs[size_t(i)];
    CHECK(r.target == actors[size_t(i)]);
    CHECK(r.count == uint64_t(kRounds));
    std::vector<int64_t> want;
    for (int round = 0; round < kRounds; ++round) want.push_back(round * 100 + i);
    CHECK(chain_of(r) == want);
  }
  fx.clear();
  // A new event starts afresh: the index went with the runs.
  fx.send(actors[5], Value::small(1));
  fx.send(actors[3], Value::small(2));
  fx.send(actors[5], Value::small(3));
  REQUIRE(fx.runs.size() == 2);
  CHECK(chain_of(fx.runs[0]) == std::vector<int64_t>{1, 3});
  fx.clear();
  for (Actor* a : actors) {
    CHECK(a->refs.load() == 1);
    a->release();
  }
}

TEST_CASE("a long run is one message, then batches that double up to 256") {
  auto* a = new Actor(1);
  Effects fx;
  for (int i = 0; i < 1000; ++i) fx.send(a, Value::small(i));
  REQUIRE(fx.runs.size() == 1);
  CHECK(fx.runs[0].count == 1000);
  CHECK(node_sizes(fx.runs[0]) == std::vector<uint32_t>{1, 4, 8, 16, 32, 64, 128, 256, 256, 235});
  std::vector<int64_t> expected(1000);
  for (int i = 0; i < 1000; ++i) expected[i] = i;
  CHECK(chain_of(fx.runs[0]) == expected);
  // Boxed payloads are dropped with a failed event (no leak under ASan).
  fx.send(a, make_pair(Value::small(1), Value::small(2)));
  fx.clear();
  a->release();
}

TEST_CASE("a committed run splices into the mailbox whole, after what was there") {
  auto* a = new Actor(1);
  auto* first = new Message;
  first->payload = Value::small(0);
  a->mailbox.push(first);
  Effects fx;
  for (int i = 1; i <= 7; ++i) fx.send(a, Value::small(i));
  Effects::Run r = fx.runs[0];
  a->mailbox.push_chain(r.first, r.last);
  fx.runs[0].first = nullptr;  // as Runtime::commit does: the mailbox owns them now
  fx.clear();
  std::vector<int64_t> got;
  while (Message* m = a->mailbox.pop()) {
    if (m->is_batch()) {
      auto* b = static_cast<Batch*>(m);
      for (uint32_t i = 0; i < b->count; ++i) got.push_back(b->items()[i].small_value());
    } else {
      got.push_back(m->payload.small_value());
    }
    free_message(m);
  }
  CHECK(got == std::vector<int64_t>{0, 1, 2, 3, 4, 5, 6, 7});
  CHECK(a->mailbox.empty_for_consumer());
  a->release();
}

TEST_CASE("a batch popped and put back is popped again first") {
  auto* a = new Actor(1);
  Effects fx;
  for (int i = 1; i <= 3; ++i) fx.send(a, Value::small(i));  // a message, then a batch of two
  a->mailbox.push_chain(fx.runs[0].first, fx.runs[0].last);
  fx.runs[0].first = nullptr;
  fx.clear();
  Message* m = a->mailbox.pop();
  REQUIRE(m);
  CHECK(m->payload.small_value() == 1);
  free_message(m);
  m = a->mailbox.pop();
  REQUIRE(m);
  REQUIRE(m->is_batch());
  auto* b = static_cast<Batch*>(m);
  b->items()[0].~Value();  // handled the first item, as a turn does
  b->taken = 1;
  a->mailbox.unpop(b);
  CHECK_FALSE(a->mailbox.empty_for_consumer());
  CHECK(a->mailbox.pop() == b);
  CHECK(b->items()[b->taken].small_value() == 3);
  free_message(b);
  CHECK(a->mailbox.pop() == nullptr);
  a->release();
}

TEST_CASE("clear() keeps a small effect buffer and gives back a huge one") {
  // A run per actor: 20,000 actors make more runs than a buffer keeps.
  std::vector<Actor*> actors;
  for (int i = 0; i < 20'000; ++i) actors.push_back(new Actor(uint64_t(i + 1)));
  Effects fx;
  for (int i = 0; i < 100; ++i) fx.send(actors[size_t(i)], Value::small(i));
  fx.clear();
  CHECK(fx.runs.empty());
  CHECK(fx.runs.capacity() >= 100);  // reused by the next event

  for (int i = 0; i < 1'000'000; ++i) fx.send(actors[size_t(i) % actors.size()], Value::small(i));
  CHECK(fx.runs.size() == actors.size());
  for (int i = 0; i < 100'000; ++i) fx.delayed.push_back({0, Value::small(i), Value::small(i)});
  fx.clear();
  CHECK(fx.runs.empty());
  CHECK(fx.runs.capacity() <= (1 << 14));
  CHECK(fx.delayed.capacity() <= (1 << 14));
  for (Actor* a : actors) {
    CHECK(a->refs.load() == 1);
    a->release();
  }
}

TEST_CASE("an actor fills one cache line, aligned to it") {
  CHECK(sizeof(Actor) == 64);
  CHECK(alignof(Actor) == 64);
  auto* a = new Actor(1);
  CHECK(reinterpret_cast<uintptr_t>(a) % 64 == 0);
  CHECK(a->state.load() == SchedState::Idle);
  a->release();
}

#include "runtime/runtime.hpp"

namespace {
// A function code that is never run: the closures below only carry it.
struct NoCode final : FunctionCode {
  NoCode() : FunctionCode(SourceLoc{}) {}
  Value apply(const Closure&, const Value&, Context&) const override { return Value(); }
  bool run_behavior(const Closure&, const Value&, Context&) const override { return true; }
};

Value closure_of(const FunctionCode& code, int64_t capture) {
  Closure* c = Closure::make(&code, 1);
  c->captures()[0] = Value::small(capture);
  return Value::adopt(c);
}

void pend(Effects& fx, const FunctionCode& code, int64_t capture) {
  fx.pending_code = &code;
  fx.pending_count = 1;
  fx.pending[0] = Value::small(capture);
}
}  // namespace

TEST_CASE("a pending BECOME reuses the actor's closure only when nobody else holds it") {
  NoCode code, other;
  Runtime rt(RuntimeOptions{});
  auto cx = rt.make_context();
  Value actor = rt.new_actor(closure_of(code, 1));
  Actor& a = *actor.as<Actor>();
  cx->self = &a;

  // The actor holds the only reference, same code: written in place.
  const Object* before = a.behavior.object();
  pend(cx->fx, code, 2);
  rt.commit(*cx);
  CHECK(a.behavior.object() == before);
  CHECK(a.behavior.as<Closure>()->captures()[0].small_value() == 2);
  CHECK_FALSE(cx->fx.has_become());

  // Someone else holds it too: a new closure, the old one untouched.
  Value held = a.behavior;
  pend(cx->fx, code, 3);
  rt.commit(*cx);
  CHECK(a.behavior.object() != held.object());
  CHECK(a.behavior.as<Closure>()->captures()[0].small_value() == 3);
  CHECK(held.as<Closure>()->captures()[0].small_value() == 2);

  // Other code: a new closure with it.
  pend(cx->fx, other, 4);
  rt.commit(*cx);
  CHECK(a.behavior.as<Closure>()->code == &other);
  CHECK(a.behavior.as<Closure>()->captures()[0].small_value() == 4);

  // A failed event: the pending values are dropped, the behavior stays.
  pend(cx->fx, other, 5);
  cx->fx.clear();
  CHECK_FALSE(cx->fx.has_become());
  CHECK(a.behavior.as<Closure>()->captures()[0].small_value() == 4);
  cx->self = nullptr;
  a.behavior = Value();  // no code outlives its closures
  held = Value();
}

// Savina's fjcreate: one event sent to a million actors, and every small
// event after it paid for a million hash buckets when its effects were
// cleared (114x slower than Erlang). Counted, not timed: what a small event
// leaves to clear after a huge one is what it leaves alone.
TEST_CASE("a small event after a huge one costs what it costs alone") {
  constexpr int kHuge = 200'000, kSmall = 12;  // kSmall > kScanRuns: the index is used
  std::vector<Actor*> actors;
  for (int i = 0; i < kHuge; ++i) actors.push_back(new Actor(uint64_t(i + 1)));
  auto small_event = [&](Effects& fx) {
    for (int i = 0; i < kSmall; ++i) fx.send(actors[size_t(i)], Value::small(i));
    for (int i = 0; i < kSmall; ++i) fx.send(actors[size_t(i)], Value::small(i));  // found in the index
    CHECK(fx.runs.size() == size_t(kSmall));
    fx.clear();
  };
  Effects alone;
  small_event(alone);
  const size_t buckets_alone = alone.kept_buckets(), capacity_alone = alone.kept_capacity();

  Effects after;
  for (int i = 0; i < kHuge; ++i) after.send(actors[size_t(i)], Value::small(i));
  after.delay(1, Value::small(0), Value::small(0));
  CHECK(after.kept_buckets() >= size_t(kHuge));  // the huge event did index its runs
  after.clear();
  small_event(after);
  CHECK(after.kept_buckets() <= std::max<size_t>(buckets_alone, 1024));
  CHECK(after.kept_capacity() <= std::max<size_t>(capacity_alone, size_t(1) << 15));
  for (Actor* a : actors) a->release();
}
