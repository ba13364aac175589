// Packed strings (runtime/str.hpp): the same value as the list of their
// code points, to equality, ordering, printing, cursors and the codec.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "runtime/equality.hpp"
#include "runtime/print.hpp"
#include "runtime/packed.hpp"
#include "runtime/text.hpp"
#include "tests/unit/runtime/value_helpers.hpp"

using namespace humus::rt;

namespace {

Value packed(std::string_view utf8) {
  std::optional<Value> v = str_from_utf8(utf8);
  REQUIRE(v);
  return *v;
}

// The same string as a list of pairs, built by hand.
Value listed(std::u32string_view cps) {
  Value out = Value::nil();
  for (size_t i = cps.size(); i-- > 0;) out = make_pair(Value::small(cps[i]), std::move(out));
  return out;
}

}  // namespace

TEST_CASE("packed strings: made from UTF-8 of every width; the empty string is NIL") {
  CHECK(packed("").is_nil());
  Value a = packed("abc");
  REQUIRE(a.is_str());
  CHECK(a.as<Str>()->length == 3);
  CHECK(a.as<Str>()->shift == 0);
  Value latin = packed("caf\xc3\xa9");  // é is U+00E9: still one byte a code point
  CHECK(latin.as<Str>()->shift == 0);
  CHECK(latin.as<Str>()->at(3) == 0xE9);
  Value wide = packed("\xe2\x82\xac\xf0\x9f\x98\x80");  // € and an emoji
  CHECK(wide.as<Str>()->shift == 2);
  CHECK(wide.as<Str>()->at(0) == 0x20AC);
  CHECK(wide.as<Str>()->at(1) == 0x1F600);
  CHECK(a.kind() == Kind::Pair);
  CHECK(a.is_cons());
  CHECK_FALSE(a.is_pair());  // never read as a Pair object
}

TEST_CASE("packed strings: invalid UTF-8 is refused, overlong forms and surrogates included") {
  CHECK_FALSE(str_from_utf8("\xff"));
  CHECK_FALSE(str_from_utf8("a\xc3"));             // cut short
  CHECK_FALSE(str_from_utf8("\xc0\xaf"));          // overlong '/'
  CHECK_FALSE(str_from_utf8("\xed\xa0\x80"));      // a surrogate
  CHECK_FALSE(str_from_utf8("\xf4\x90\x80\x80"));  // past U+10FFFF
}

TEST_CASE("packed strings equal the list of their code points, in every mix") {
  Value p = packed("hello");
  Value l = listed(U"hello");
  CHECK(equal(p, l));
  CHECK(equal(l, p));
  CHECK(equal(p, packed("hello")));
  CHECK_FALSE(equal(p, packed("hell")));
  CHECK_FALSE(equal(p, listed(U"hellO")));
  CHECK_FALSE(equal(p, listed(U"hello!")));
  // Pairs that end in a packed string, and slices of one.
  Value mixed = make_pair(Value::small('h'), make_pair(Value::small('e'), packed("llo")));
  CHECK(equal(mixed, p));
  CHECK(equal(p, mixed));
  CHECK(equal(str_rest(p, 2), listed(U"llo")));
  CHECK(equal(str_rest(p, 5), Value::nil()));
  // A wide string against a narrow one of the same text never happens; two wide ones compare.
  CHECK(equal(packed("\xe2\x82\xac"
                     "x"),
              listed(U"\u20acx")));
  // Inside a tuple, as a head.
  Value t1 = make_pair(packed("ab"), Value::small(1));
  Value t2 = make_pair(listed(U"ab"), Value::small(1));
  CHECK(equal(t1, t2));
}

TEST_CASE("the order of values: kinds, integers, symbols by name, lists and strings by their elements") {
  CHECK(order(Value::undefined(), Value::falsity()) < 0);
  CHECK(order(Value::falsity(), Value::truth()) < 0);
  CHECK(order(Value::truth(), Value::small(-5)) < 0);
  CHECK(order(Value::small(3), Value::small(10)) < 0);
  CHECK(order(Value::small(10), Value::symbol(0)) < 0);
  CHECK(order(Value::nil(), listed(U"a")) < 0);
  CHECK(order(Value::small(10), Value::nil()) < 0);
  CHECK(order(packed("ab"), packed("abc")) < 0);
  CHECK(order(packed("abc"), packed("ab")) > 0);
  CHECK(order(packed("abd"), listed(U"abc")) > 0);
  CHECK(order(listed(U"abc"), packed("abd")) < 0);
  CHECK(order(packed("abc"), listed(U"abc")) == 0);
  CHECK(order(packed("\xe2\x82\xac"), packed("z")) > 0);  // by code point
  // Heads that are pairs are compared first.
  Value a = make_pair(make_pair(Value::small(1), Value::small(2)), Value::small(9));
  Value b = make_pair(make_pair(Value::small(1), Value::small(3)), Value::small(0));
  CHECK(order(a, b) < 0);
  CHECK(order(b, a) > 0);
  CHECK(order(a, a) == 0);
}

TEST_CASE("packed strings print as the list they are, within print limits") {
  CHECK(to_string(packed("hi")) == "104, 105, NIL");
  CHECK(to_string(make_pair(packed("hi"), Value::small(1))) == "(104, 105, NIL), 1");
  CHECK(to_string(make_pair(Value::small(1), packed("hi"))) == "1, 104, 105, NIL");
  PrintLimit two{2, 0};
  CHECK(to_string(packed("hello"), two) == "104, 101, ... (4 more)");
  CHECK(string_text(packed("h\xc3\xa9llo")) == "h\xc3\xa9llo");
  CHECK(string_text(make_pair(Value::small('a'), packed("bc"))) == "abc");
  CHECK_FALSE(string_text(make_pair(Value::small(-1), packed("bc"))));
}

TEST_CASE("a cursor walks pairs and packed strings alike, without allocating") {
  Value v = make_pair(Value::small('x'), packed("yz"));
  std::u32string seen;
  ListCursor c(v);
  for (; c.at_pair(); c.next()) seen += char32_t(c.head().small_value());
  CHECK(seen == U"xyz");
  CHECK(c.rest().is_nil());
  const Value* end = nullptr;
  CHECK(list_length(v, &end) == 3);
  CHECK(end->is_nil());
  Value improper = make_pair(Value::small(1), Value::small(2));
  CHECK(list_length(improper, &end) == 1);
  CHECK(end->small_value() == 2);
}

TEST_CASE("expanding a packed string gives the equal pairs, a chunk at a time") {
  std::string text(40, 'q');
  Value s = packed(text);
  Value e = str_expand(s);
  REQUIRE(e.is_pair());
  CHECK(equal(e, s));
  const Value* cur = &e;
  uint32_t pairs = 0;
  while (cur->is_pair()) {
    ++pairs;
    cur = &tail(*cur);
  }
  CHECK(pairs == kExpandChunk);
  CHECK(cur->is_str());
  CHECK(cur->as<Str>()->length == 40 - kExpandChunk);
  // A slice of a slice shares the first string's data, not a chain of slices.
  Value r = str_rest(*cur, 3);
  CHECK(r.as<Str>()->base.same(s));
}

TEST_CASE("builders make the narrowest packed string") {
  StrBuilder b;
  b.append_utf8("ab");
  CHECK(b.append_string(listed(U"cd")));
  CHECK(b.append_string(packed("ef")));
  Value v = b.finish();
  CHECK(equal(v, listed(U"abcdef")));
  CHECK(v.as<Str>()->shift == 0);
  b.push(0x1F600);
  CHECK(b.finish().as<Str>()->shift == 2);
  CHECK(b.finish().is_nil());
  CHECK_FALSE(b.append_string(make_pair(Value::small('a'), Value::small('b'))));
}
