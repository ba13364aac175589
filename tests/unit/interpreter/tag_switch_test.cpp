// TAGSWITCH's lookup (engine/proto.hpp, TagSwitch::target): a dense table
// indexed by a rotated distance from the first symbol, or a binary search.
#include <doctest/doctest.h>

#include "interpreter/engine/proto.hpp"
#include "runtime/value.hpp"

using humus::engine::TagSwitch;
using humus::rt::Value;

namespace {

uint64_t sym(uint32_t id) { return Value::symbol(id).bits(); }

}  // namespace

TEST_CASE("a dense switch finds its tags and sends every other word to otherwise") {
  TagSwitch s;
  s.cases = {{sym(12), 30}, {sym(10), 10}, {sym(14), 50}};
  s.otherwise = 99;
  s.plan();
  REQUIRE(s.dense_count == 5);  // ids 10 .. 14
  CHECK(s.target(sym(10)) == 10);
  CHECK(s.target(sym(12)) == 30);
  CHECK(s.target(sym(14)) == 50);
  CHECK(s.target(sym(11)) == 99);  // a gap in the table
  CHECK(s.target(sym(9)) == 99);   // below the first: the distance wraps round
  CHECK(s.target(sym(15)) == 99);  // past the last
  // Words that are not symbols: their low nibble rotates into the top bits.
  CHECK(s.target(Value::small(10).bits()) == 99);
  CHECK(s.target(Value::small(0).bits()) == 99);
  CHECK(s.target(Value::nil().bits()) == 99);
  CHECK(s.target(Value::truth().bits()) == 99);
  CHECK(s.target(sym(10) + 0x10000) == 99);  // a symbol far above
}

TEST_CASE("tags far apart or not symbols are found by binary search") {
  TagSwitch far;
  far.cases = {{sym(1), 1}, {sym(1000), 2}};
  far.otherwise = 7;
  far.plan();
  CHECK(far.dense_count == 0);
  CHECK(far.target(sym(1)) == 1);
  CHECK(far.target(sym(1000)) == 2);
  CHECK(far.target(sym(2)) == 7);
  CHECK(far.target(Value::small(1).bits()) == 7);

  TagSwitch mixed;
  mixed.cases = {{Value::small(7).bits(), 3}, {sym(5), 4}, {Value::truth().bits(), 6}};
  mixed.otherwise = 9;
  mixed.plan();
  CHECK(mixed.dense_count == 0);
  CHECK(mixed.target(Value::small(7).bits()) == 3);
  CHECK(mixed.target(sym(5)) == 4);
  CHECK(mixed.target(Value::truth().bits()) == 6);
  CHECK(mixed.target(Value::small(8).bits()) == 9);
}
