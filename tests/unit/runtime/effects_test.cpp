// The effect buffer of an event, and the actor's layout.
#include <doctest/doctest.h>

#include "runtime/actor.hpp"
#include "runtime/context.hpp"

using namespace humus::rt;

TEST_CASE("clear() keeps a small effect buffer and gives back a huge one") {
  Effects fx;
  for (int i = 0; i < 100; ++i) fx.sends.push_back({Value::small(i), Value::small(i)});
  fx.clear();
  CHECK(fx.sends.empty());
  CHECK(fx.sends.capacity() >= 100);  // reused by the next event

  for (int i = 0; i < 1'000'000; ++i) fx.sends.push_back({Value::small(i), Value::small(i)});
  for (int i = 0; i < 100'000; ++i) fx.delayed.push_back({0, Value::small(i), Value::small(i)});
  fx.clear();
  CHECK(fx.sends.empty());
  CHECK(fx.sends.capacity() <= (1 << 14));
  CHECK(fx.delayed.capacity() <= (1 << 14));
}

TEST_CASE("an actor fills one cache line, aligned to it") {
  CHECK(sizeof(Actor) == 64);
  CHECK(alignof(Actor) == 64);
  auto* a = new Actor(1);
  CHECK(reinterpret_cast<uintptr_t>(a) % 64 == 0);
  CHECK(a->state.load() == SchedState::Idle);
  a->release();
}
