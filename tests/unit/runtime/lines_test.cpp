// Packed lines (runtime/lines.hpp): the list of strings files #lines
// answers, the same value as the list built by hand, to equality,
// ordering, hashing, printing, cursors and expansion.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "runtime/builtins/functions.hpp"
#include "runtime/equality.hpp"
#include "runtime/packed.hpp"
#include "runtime/print.hpp"
#include "tests/unit/runtime/value_helpers.hpp"

using namespace humus::rt;

namespace {

// The text of line i: empty every 1000th, wide (U+2603) once, else ASCII.
std::string line_text(int i) {
  if (i % 1000 == 0) return "";
  if (i == 25001) return "snow \xe2\x98\x83 " + std::to_string(i);
  return "line " + std::to_string(i) + " of some text, long enough to fill";
}

Value by_hand(const std::vector<std::string>& lines) {
  Value out = Value::nil();
  for (size_t i = lines.size(); i-- > 0;) out = make_pair(*str_from_utf8(lines[i]), std::move(out));
  return out;
}

struct Sample {
  std::vector<std::string> texts;
  Value packed, listed;
  explicit Sample(int n) {
    LinesBuilder b;
    for (int i = 1; i <= n; ++i) {
      texts.push_back(line_text(i));
      REQUIRE(b.add(texts.back()));
    }
    CHECK(b.lines() == size_t(n));
    packed = b.finish();
    listed = by_hand(texts);
  }
};

}  // namespace

TEST_CASE("packed lines: several owners of about a megabyte, chained by next") {
  Sample s(40000);  // about 1.7 MB of text
  REQUIRE(s.packed.is(ObjKind::Lines));
  const Lines* first = s.packed.as<Lines>();
  CHECK(first->count < 40000);
  REQUIRE(first->next.is(ObjKind::Lines));
  CHECK(first->count + first->next.as<Lines>()->count == 40000);
  CHECK(first->next.as<Lines>()->next.is_nil());
  CHECK(first->text.as<Str>()->shift == 0);
  CHECK(first->next.as<Lines>()->text.as<Str>()->shift == 2);  // the owner with the snowman
  const Value* end = nullptr;
  CHECK(list_length(s.packed, &end) == 40000);
  CHECK(end->is_nil());
}

TEST_CASE("packed lines equal, order, hash and print as the list built by hand") {
  Sample s(40000);
  CHECK(equal(s.packed, s.listed));
  CHECK(equal(s.listed, s.packed));
  CHECK(order(s.packed, s.listed) == 0);
  CHECK(hash_value(s.packed) == hash_value(s.listed));
  Sample small(5);
  CHECK(to_string(small.packed) == to_string(small.listed));
  // One line different, in the second owner: not equal, and ordered by it.
  std::vector<std::string> other = s.texts;
  other[30000] += "!";
  Value changed = by_hand(other);
  CHECK_FALSE(equal(s.packed, changed));
  CHECK(order(s.packed, changed) < 0);
}

TEST_CASE("a cursor and expansion give the lines in order, empty ones as NIL") {
  Sample s(3000);
  size_t i = 0;
  for (ListCursor c(s.packed); c.at_pair(); c.next(), ++i) {
    REQUIRE(i < s.texts.size());
    CHECK(equal(c.head(), *str_from_utf8(s.texts[i])));
  }
  CHECK(i == 3000);
  // Taking the list apart the VM's way: a chunk of pairs, the rest packed.
  Value cur = s.packed;
  i = 0;
  while (!cur.is_nil()) {
    if (!cur.is_pair()) {
      REQUIRE(cur.is(ObjKind::Lines));
      cur = expand(cur);
      continue;
    }
    const Value& h = head(cur);
    CHECK(equal(h, *str_from_utf8(s.texts[i])));
    if (s.texts[i].empty()) CHECK(h.is_nil());
    ++i;
    Value t = tail(cur);
    cur = std::move(t);
  }
  CHECK(i == 3000);
}

TEST_CASE("lines_rest and lines_first: a slice shares its owner") {
  Sample s(100);
  Value rest = lines_rest(s.packed, 42);
  REQUIRE(rest.is(ObjKind::Lines));
  CHECK(rest.as<Lines>()->base.same(s.packed));
  CHECK(equal(lines_first(rest), *str_from_utf8(s.texts[42])));
  CHECK(list_length(rest) == 58);
}

TEST_CASE("a line that is not UTF-8 is refused; no line gives NIL") {
  LinesBuilder b;
  CHECK(b.add("fine"));
  CHECK_FALSE(b.add("\xff"));
  CHECK(b.lines() == 1);
  LinesBuilder none;
  CHECK(none.finish().is_nil());
}

TEST_CASE("drop and nth over packed lines give what they give over the list by hand") {
  // native_drop walks cells without counting them (runtime/builtins/lists.cpp):
  // across owners, into a slice, and past the end.
  Sample s(40000);
  auto native = [](const char* name) {
    for (Native* n : builtin_functions())
      if (std::string(name) == n->name) return n;
    FAIL("no built-in " << name);
    return static_cast<Native*>(nullptr);
  };
  Native* drop = native("native_drop");
  Native* nth = native("native_nth");
  const int64_t first = s.packed.as<Lines>()->count;
  const Value slice = lines_rest(s.packed, 7);
  const Value slice_listed = by_hand(std::vector<std::string>(s.texts.begin() + 7, s.texts.end()));
  for (int64_t k :
       {int64_t(0), int64_t(1), first - 1, first, first + 1, int64_t(39999), int64_t(40000), int64_t(40001)}) {
    CAPTURE(k);
    const Value n = Value::small(k);
    CHECK(equal(drop->fn2(n, s.packed), drop->fn2(n, s.listed)));
    CHECK(equal(nth->fn2(s.packed, n), nth->fn2(s.listed, n)));
    CHECK(equal(drop->fn2(n, slice), drop->fn2(n, slice_listed)));
    CHECK(equal(nth->fn2(slice, n), nth->fn2(slice_listed, n)));
  }
  CHECK(equal(nth->fn2(s.packed, Value::small(first)), *str_from_utf8(s.texts[size_t(first)])));
  CHECK(drop->fn2(Value::small(40000), s.packed).is_nil());
}
