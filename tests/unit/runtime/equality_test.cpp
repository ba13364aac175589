// Structural equality (LANGUAGE.md section 2).
#include <doctest/doctest.h>

#include "runtime/actor.hpp"
#include "runtime/builtins/functions.hpp"
#include "runtime/equality.hpp"
#include "runtime/symbols.hpp"
#include "tests/unit/runtime/value_helpers.hpp"

using namespace humus::rt;
using namespace humus::rt::test;

namespace {
const std::string kFile = "eq.hum";
const FakeFunction kFn(SourceLoc{&kFile, 1, 1});
const FakeBlock kBlk(SourceLoc{&kFile, 2, 1});
Value P(Value h, Value t) { return make_pair(std::move(h), std::move(t)); }
}  // namespace

TEST_CASE("equality of immediates") {
  CHECK(equal(I(1), I(1)));
  CHECK_FALSE(equal(I(1), I(2)));
  CHECK(equal(Value::nil(), Value::nil()));
  CHECK(equal(Value::truth(), Value::truth()));
  CHECK_FALSE(equal(Value::truth(), Value::falsity()));
  CHECK(equal(Value::undefined(), Value::undefined()));
  CHECK_FALSE(equal(Value::undefined(), Value::nil()));
  CHECK(equal(Value::symbol(intern_symbol("a")), Value::symbol(intern_symbol("a"))));
  CHECK_FALSE(equal(Value::symbol(intern_symbol("a")), Value::symbol(intern_symbol("b"))));
  CHECK_FALSE(equal(I(0), Value::nil()));
  CHECK_FALSE(equal(I(0), Value::falsity()));
  CHECK_FALSE(equal(Value::nil(), P(Value::nil(), Value::nil())));
}

TEST_CASE("equality of integers, big and small") {
  Value a = Z("123456789012345678901234567890");
  Value b = Z("123456789012345678901234567890");
  CHECK_FALSE(a.same(b));
  CHECK(equal(a, b));
  CHECK_FALSE(equal(a, int_add(b, I(1))));
  CHECK_FALSE(equal(a, I(1)));
  CHECK_FALSE(equal(I(1), a));
  // An unnormalised BigInt (never produced by the runtime) still compares by value.
  auto* raw = new BigInt();
  mpz_set_si(raw->z, 5);
  Value five = Value::adopt(raw);
  CHECK(equal(five, I(5)));
  CHECK(equal(I(5), five));
  CHECK_FALSE(equal(five, I(6)));
  CHECK(equal(P(five, I(1)), P(I(5), I(1))));
}

TEST_CASE("identity kinds") {
  Value a1 = Value::adopt(new Actor(1));
  Value a2 = Value::adopt(new Actor(1));
  CHECK(equal(a1, a1));
  CHECK_FALSE(equal(a1, a2));
  Value c1 = Value::adopt(Closure::make(&kFn, 0));
  Value c2 = Value::adopt(Closure::make(&kFn, 0));
  CHECK(equal(c1, Value(c1)));
  CHECK_FALSE(equal(c1, c2));
  Value b1 = Value::adopt(BlockValue::make(&kBlk, 0));
  Value b2 = Value::adopt(BlockValue::make(&kBlk, 0));
  CHECK(equal(b1, b1));
  CHECK_FALSE(equal(b1, b2));
  Value n1 = Value::share(builtin_functions()[0]);
  Value n2 = Value::share(builtin_functions()[1]);
  CHECK(equal(n1, n1));
  CHECK_FALSE(equal(n1, n2));
  CHECK(equal(P(a1, c1), P(a1, c1)));
  CHECK_FALSE(equal(P(a1, c1), P(a2, c1)));
}

TEST_CASE("structural equality of pairs") {
  CHECK(equal(list(I(1), I(2), I(3)), list(I(1), I(2), I(3))));
  CHECK_FALSE(equal(list(I(1), I(2), I(3)), list(I(1), I(2))));
  CHECK_FALSE(equal(list(I(1), I(2)), list(I(1), I(2), I(3))));
  CHECK_FALSE(equal(list(I(1), I(2), I(3)), list(I(1), I(2), I(4))));
  CHECK(equal(P(P(I(1), I(2)), I(3)), P(P(I(1), I(2)), I(3))));
  CHECK_FALSE(equal(P(P(I(1), I(2)), I(3)), P(I(1), P(I(2), I(3)))));
  CHECK_FALSE(equal(P(P(I(1), I(2)), I(3)), P(P(I(1), I(9)), I(3))));
  CHECK_FALSE(equal(P(P(I(1), I(2)), I(3)), P(P(I(1), I(2)), I(4))));
  Value shared = list(I(7), I(8));
  CHECK(equal(P(shared, shared), P(shared, list(I(7), I(8)))));
}

TEST_CASE("equality of long lists") {
  Value a = range_list(1'000'000);
  Value b = range_list(1'000'000);
  CHECK(equal(a, b));
  Value c = make_pair(I(-1), a);
  Value d = make_pair(I(-1), range_list(999'999));
  CHECK_FALSE(equal(c, d));
  // differs only at the very end
  Value e = Value::small(1);
  Value f = Value::small(2);
  for (int i = 0; i < 1'000'000; ++i) {
    e = make_pair(I(i), std::move(e));
    f = make_pair(I(i), std::move(f));
  }
  CHECK_FALSE(equal(e, f));
}

TEST_CASE("equality of deep head nesting") {
  const int depth = 200'000;
  Value a = I(0), b = I(0), c = I(0);
  for (int i = 1; i <= depth; ++i) {
    a = make_pair(std::move(a), I(i));
    b = make_pair(std::move(b), I(i));
    c = make_pair(std::move(c), I(i == 1 ? -1 : i));
  }
  CHECK(equal(a, b));
  CHECK_FALSE(equal(a, c));
  // both deep in heads and in tails
  Value x = Value::nil(), y = Value::nil();
  for (int i = 0; i < 100'000; ++i) {
    x = make_pair(make_pair(std::move(x), list(I(i))), list(I(i), I(i)));
    y = make_pair(make_pair(std::move(y), list(I(i))), list(I(i), I(i)));
  }
  CHECK(equal(x, y));
}
