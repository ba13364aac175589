// Tagging, kinds, reference counts and iterative freeing.
#include <doctest/doctest.h>

#include <string>
#include <thread>

#include "runtime/actor.hpp"
#include "runtime/builtins/functions.hpp"
#include "runtime/globals.hpp"
#include "runtime/symbols.hpp"
#include "tests/unit/runtime/value_helpers.hpp"

using namespace humus::rt;
using namespace humus::rt::test;

// Before main(), hence before any heap object exists: live counts are exact.
static const bool counting_on = (enable_live_object_count(), true);

namespace {
const std::string kFile = "fib.hum";
const FakeFunction kFn(SourceLoc{&kFile, 3, 1});
const FakeBlock kBlk(SourceLoc{&kFile, 5, 2});
}  // namespace

TEST_CASE("counting is on for the runtime tests") {
  CHECK(counting_on);
  CHECK(live_object_count_enabled());
}

TEST_CASE("immediate tagging") {
  Value e;
  CHECK(e.empty());
  CHECK_FALSE(e.is_object());
  CHECK(e.kind() == Kind::Undefined);

  CHECK(Value::nil().is_nil());
  CHECK(Value::nil().kind() == Kind::Nil);
  CHECK(Value::truth().is_true());
  CHECK(Value::truth().is_boolean());
  CHECK(Value::falsity().is_false());
  CHECK(Value::falsity().kind() == Kind::Boolean);
  CHECK(Value::undefined().is_undefined());
  CHECK(Value::undefined().kind() == Kind::Undefined);
  CHECK(Value::boolean(true).same(Value::truth()));
  CHECK(Value::boolean(false).same(Value::falsity()));

  for (Value c : {Value::nil(), Value::truth(), Value::falsity(), Value::undefined()}) {
    CHECK_FALSE(c.is_small());
    CHECK_FALSE(c.is_object());
    CHECK_FALSE(c.is_symbol());
    CHECK_FALSE(c.empty());
  }

  uint32_t id = intern_symbol("tagging");
  Value s = Value::symbol(id);
  CHECK(s.is_symbol());
  CHECK(s.symbol_id() == id);
  CHECK(s.kind() == Kind::Symbol);
  CHECK_FALSE(s.is_small());
  CHECK_FALSE(s.is_object());
  CHECK(Value::symbol(0xFFFFFFFFu).symbol_id() == 0xFFFFFFFFu);

  for (int64_t n : {int64_t(0), int64_t(1), int64_t(-1), int64_t(42), Value::kSmallMax, Value::kSmallMin}) {
    Value v = Value::small(n);
    CHECK(v.is_small());
    CHECK(v.is_integer());
    CHECK(v.small_value() == n);
    CHECK(v.kind() == Kind::Integer);
    CHECK_FALSE(v.is_object());
  }
  CHECK(Value::fits_small(Value::kSmallMax));
  CHECK_FALSE(Value::fits_small(Value::kSmallMax + 1));
  CHECK(Value::fits_small(Value::kSmallMin));
  CHECK_FALSE(Value::fits_small(Value::kSmallMin - 1));
}

TEST_CASE("heap kinds") {
  builtin_functions();  // made on first use, immortal: outside the baseline
  LiveCheck live;
  {
    Value p = make_pair(Value::small(1), Value::nil());
    CHECK(p.is_pair());
    CHECK(p.is_object());
    CHECK(p.kind() == Kind::Pair);
    CHECK(head(p).small_value() == 1);
    CHECK(tail(p).is_nil());

    Value big = make_integer(Value::kSmallMax + 1);
    CHECK(big.is_bigint());
    CHECK(big.is_integer());
    CHECK(big.kind() == Kind::Integer);

    Value a = Value::adopt(new Actor(17));
    CHECK(a.is_actor());
    CHECK(a.kind() == Kind::Actor);

    Value c = Value::adopt(Closure::make(&kFn, 2));
    CHECK(c.is_function());
    CHECK(c.kind() == Kind::Function);
    CHECK(c.as<Closure>()->count == 2);
    CHECK(c.as<Closure>()->captures()[0].empty());
    CHECK(c.as<Closure>()->captures()[1].empty());

    Value b = Value::adopt(BlockValue::make(&kBlk, 3));
    CHECK(b.is_block());
    CHECK(b.kind() == Kind::Block);
    CHECK(b.as<BlockValue>()->count == 3);
    for (uint32_t i = 0; i < 3; ++i) CHECK(b.as<BlockValue>()->captures()[i].empty());
    b.as<BlockValue>()->captures()[0] = c;

    Value n = Value::share(builtin_functions()[0]);
    CHECK(n.is_function());
    CHECK(n.kind() == Kind::Function);
    CHECK(live.delta() == 5);
  }
  CHECK(live.delta() == 0);
}

TEST_CASE("reference counts") {
  LiveCheck live;
  {
    Value p = make_pair(Value::small(1), Value::small(2));
    Object* o = p.object();
    CHECK(o->refs.load() == 1);
    {
      Value q = p;
      CHECK(o->refs.load() == 2);
      Value r = std::move(q);
      CHECK(q.empty());
      CHECK(o->refs.load() == 2);
      r = Value::nil();
      CHECK(o->refs.load() == 1);
    }
    CHECK(o->refs.load() == 1);
    Value s = p;
    Value& alias = s;  // (an alias, so compilers do not flag the self-assignment)
    s = alias;         // self-assignment keeps the count
    CHECK(o->refs.load() == 2);
    s = std::move(alias);
    CHECK(o->refs.load() == 2);
    CHECK(live.delta() == 1);
    Value t = make_pair(p, p);
    CHECK(o->refs.load() == 4);
    CHECK(live.delta() == 2);
  }
  CHECK(live.delta() == 0);

  SUBCASE("release_object and adopt hand over the reference") {
    Value p = make_pair(Value::nil(), Value::nil());
    Object* o = p.release_object();
    CHECK(p.empty());
    CHECK(o->refs.load() == 1);
    Value back = Value::adopt(o);
    CHECK(live.delta() == 1);
  }
  CHECK(live.delta() == 0);
}

TEST_CASE("immortal objects are not counted") {
  LiveCheck live;
  auto* p = new Pair(Value::small(1), make_pair(Value::small(2), Value::nil()));
  p->make_immortal();
  CHECK(p->immortal());
  uint32_t before = p->refs.load();
  {
    Value a = Value::share(p);
    Value b = a;
    Value c = a;
    CHECK(p->refs.load() == before);
  }
  CHECK(p->refs.load() == before);
  CHECK(live.delta() == 2);  // never freed by release(), by design
  delete p;                  // release() never frees an immortal; the test does, by hand, for LeakSanitizer
  // Natives are immortal from the start.
  for (Native* n : builtin_functions()) CHECK(n->immortal());
}

TEST_CASE("dropping a 10,000,000-element list is iterative and frees everything") {
  LiveCheck live;
  {
    Value l = range_list(10'000'000);
    CHECK(live.delta() == 10'000'000);
  }
  CHECK(live.delta() == 0);

  // The same list hanging off the tail of a pair, and shared: freed only at the last drop.
  {
    Value l = range_list(1'000'000);
    Value p = make_pair(Value::small(0), l);
    l = Value::nil();
    Value q = p;
    p = Value::nil();
    CHECK(live.delta() == 1'000'001);
    q = Value::nil();
    CHECK(live.delta() == 0);
  }
}

TEST_CASE("dropping deeply head-nested pairs is iterative") {
  LiveCheck live;
  {
    Value v = Value::nil();
    for (int i = 0; i < 1'000'000; ++i) v = make_pair(std::move(v), make_pair(Value::small(i), Value::nil()));
    CHECK(live.delta() == 2'000'000);
  }
  CHECK(live.delta() == 0);
  {
    // A full binary tree: many objects pending at once (spills the inline worklist).
    Value level = Value::small(1);
    for (int d = 0; d < 20; ++d) level = make_pair(level, make_pair(level, Value::nil()));
    // shared subtrees: 2 pairs per level
    CHECK(live.delta() == 40);
    Value tree = Value::nil();
    for (int i = 0; i < 100'000; ++i) tree = make_pair(make_pair(tree, range_list(3)), range_list(2));
  }
  CHECK(live.delta() == 0);
}

TEST_CASE("big integers are freed") {
  LiveCheck live;
  {
    Value b = make_integer(Value::kSmallMax + 1);
    CHECK(live.delta() == 1);
    Value l = make_pair(b, make_pair(Z("123456789012345678901234567890"), Value::nil()));
    CHECK(live.delta() == 4);
  }
  CHECK(live.delta() == 0);
}

TEST_CASE("a deep chain of closures and blocks is freed iteratively") {
  LiveCheck live;
  {
    Value v = Value::nil();
    for (int i = 0; i < 1'000'000; ++i) {
      Closure* c = Closure::make(&kFn, 2);
      c->captures()[0] = Value::small(i);
      c->captures()[1] = std::move(v);
      Value cv = Value::adopt(c);
      BlockValue* b = BlockValue::make(&kBlk, 2);
      b->captures()[0] = cv;
      b->captures()[1] = cv;
      v = Value::adopt(b);
    }
    CHECK(live.delta() == 2'000'000);
  }
  CHECK(live.delta() == 0);
  {
    Value c = Value::adopt(Closure::make(&kFn, 0));  // no captures at all
    Value b = Value::adopt(BlockValue::make(&kBlk, 0));
    CHECK(b.as<BlockValue>()->count == 0);
    CHECK(live.delta() == 2);
  }
  CHECK(live.delta() == 0);
}

TEST_CASE("actors release their behavior and drain their mailbox") {
  LiveCheck live;
  {
    auto* a = new Actor(1);
    a->behavior = Value::adopt(Closure::make(&kFn, 1));
    for (int i = 0; i < 1000; ++i) {
      auto* m = new Message;
      m->payload = make_pair(Value::small(i), range_list(10));
      a->mailbox.push(m);
    }
    Value av = Value::adopt(a);
    CHECK(live.delta() == 2 + 1000 * 11);
  }
  CHECK(live.delta() == 0);
  {
    // A chain of 200,000 actors, each holding the next in its behavior's
    // captures and in a pending message.
    Value next = Value::nil();
    for (int i = 0; i < 200'000; ++i) {
      auto* a = new Actor(uint64_t(i));
      Closure* c = Closure::make(&kFn, 1);
      c->captures()[0] = next;
      a->behavior = Value::adopt(c);
      auto* m = new Message;
      m->payload = make_pair(next, Value::nil());
      a->mailbox.push(m);
      next = Value::adopt(a);
    }
    CHECK(live.delta() == 600'000);
  }
  CHECK(live.delta() == 0);
}

TEST_CASE("objects freed on another thread") {
  LiveCheck live;
  Value l = range_list(100'000);
  std::thread t([v = std::move(l)]() mutable { v = Value::nil(); });
  t.join();
  CHECK(live.delta() == 0);
}

TEST_CASE("a freed pair's block is kept by its thread for the next pair, up to PairCache::kMax") {
  // On a thread of its own, so what other tests left in this thread's cache
  // does not count.
  std::thread([] {
    const detail::PairCache& cache = detail::tl_pairs;
    CHECK(cache.count == 0);
    const int64_t before = live_objects();
    const void* first;
    {
      Value p = make_pair(Value::small(1), Value::small(2));
      first = p.object();
    }
    CHECK(live_objects() == before);     // the pair is gone as an object...
    if (detail::PairCache::kMax == 0) {  // sanitizer builds: every block back to the allocator
      CHECK(cache.count == 0);
      return;
    }
    CHECK(cache.count == 1);  // ...its block kept
    Value q = make_pair(Value::small(3), Value::nil());
    CHECK(q.object() == first);  // and used again
    CHECK(cache.count == 0);
    CHECK(head(q).small_value() == 3);
    // A long list freed at once fills the cache to its bound and no further.
    Value list = Value::nil();
    for (uint32_t i = 0; i < detail::PairCache::kMax + 100; ++i) list = make_pair(Value::small(i), std::move(list));
    list = Value();
    CHECK(cache.count == detail::PairCache::kMax);
  }).join();
}

TEST_CASE("pinning makes a whole value immortal except the actors in it; the globals free it all") {
  LiveCheck live;
  Value actor = Value::adopt(new Actor(7));
  {
    Globals g;
    Closure* c = Closure::make(&kFn, 2);
    c->captures()[0] = range_list(3);
    c->captures()[1] = actor;
    Value v = make_pair(Z("100000000000000000000"), Value::adopt(c));
    CHECK(actor.object()->refs.load() == 2);
    g.pin(v);
    CHECK(v.object()->immortal());
    CHECK(head(v).object()->immortal());  // the big integer
    CHECK(tail(v).object()->immortal());  // the closure
    for (Value l = c->captures()[0]; l.is_pair(); l = tail(l)) CHECK(l.object()->immortal());
    CHECK(!actor.object()->immortal());  // its lifetime stays counted
    CHECK(actor.object()->refs.load() == 2);
    // Copies of any part count nothing.
    const uint32_t before = tail(c->captures()[0]).object()->refs.load();
    Value copy = tail(c->captures()[0]);
    CHECK(tail(c->captures()[0]).object()->refs.load() == before);
    CHECK(live.delta() == 7);  // the actor, the pair, the big integer, the closure, three list cells
  }
  // The globals went, with all they pinned; the actor's reference went back.
  CHECK(actor.object()->refs.load() == 1);
  CHECK(live.delta() == 1);
  actor = Value();
  CHECK(live.delta() == 0);
}
