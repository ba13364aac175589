// Printing (LANGUAGE.md section 11).
#include <doctest/doctest.h>

#include <string>

#include "runtime/actor.hpp"
#include "runtime/builtins/functions.hpp"
#include "runtime/print.hpp"
#include "runtime/symbols.hpp"
#include "tests/unit/runtime/value_helpers.hpp"

using namespace humus::rt;
using namespace humus::rt::test;

namespace {
const std::string kFile = "fib.hum";
const FakeFunction kFn(SourceLoc{&kFile, 3, 1});
const FakeBlock kBlk(SourceLoc{&kFile, 5, 2});
const FakeFunction kNoFile(SourceLoc{nullptr, 7, 1});
Value P(Value h, Value t) { return make_pair(std::move(h), std::move(t)); }
}  // namespace

TEST_CASE("printing atoms") {
  CHECK(to_string(I(42)) == "42");
  CHECK(to_string(I(-7)) == "-7");
  CHECK(to_string(I(0)) == "0");
  CHECK(to_string(I(Value::kSmallMin)) == "-4611686018427387904");
  CHECK(to_string(Z("815915283247897734345611269596115894272000000000")) ==
        "815915283247897734345611269596115894272000000000");
  CHECK(to_string(Z("-815915283247897734345611269596115894272000000000")) ==
        "-815915283247897734345611269596115894272000000000");
  CHECK(to_string(Value::truth()) == "TRUE");
  CHECK(to_string(Value::falsity()) == "FALSE");
  CHECK(to_string(Value::nil()) == "NIL");
  CHECK(to_string(Value::undefined()) == "?");
  CHECK(to_string(Value()) == "<empty>");
  CHECK(to_string(Value::symbol(intern_symbol("foo"))) == "#foo");
  CHECK(to_string(Value::adopt(new Actor(17))) == "@17");
  CHECK(to_string(Value::adopt(Closure::make(&kFn, 0))) == "\\fib.hum:3");
  CHECK(to_string(Value::adopt(Closure::make(&kNoFile, 0))) == "\\<builtin>:7");
  CHECK(to_string(Value::adopt(BlockValue::make(&kBlk, 0))) == "[fib.hum:5]");
  for (Native* n : builtin_functions()) CHECK(to_string(Value::share(n)) == std::string("\\<") + n->name + ">");
  CHECK(to_string(Value::share(builtin_functions()[0])) == "\\<eq>");
}

TEST_CASE("printing pairs") {
  CHECK(to_string(P(I(1), I(2))) == "1, 2");
  CHECK(to_string(P(I(1), P(I(2), I(3)))) == "1, 2, 3");
  CHECK(to_string(P(P(I(1), I(2)), I(3))) == "(1, 2), 3");
  CHECK(to_string(list(I(1), I(2))) == "1, 2, NIL");
  CHECK(to_string(P(Value::nil(), Value::nil())) == "NIL, NIL");
  CHECK(to_string(P(P(P(I(1), I(2)), I(3)), I(4))) == "((1, 2), 3), 4");
  CHECK(to_string(P(I(0), P(P(I(1), I(2)), P(I(3), Value::nil())))) == "0, (1, 2), 3, NIL");
  CHECK(to_string(P(P(I(1), P(I(2), Value::nil())), P(P(I(3), I(4)), Value::nil()))) == "(1, 2, NIL), (3, 4), NIL");
  CHECK(to_string(P(P(P(I(1), I(2)), P(I(3), I(4))), I(5))) == "((1, 2), 3, 4), 5");
  // "hi" is a list of code points
  CHECK(to_string(list(I(104), I(105))) == "104, 105, NIL");
  Value s = Value::symbol(intern_symbol("ok"));
  CHECK(to_string(list(s, Value::truth(), Value::undefined(), Value::adopt(new Actor(3)))) == "#ok, TRUE, ?, @3, NIL");
  std::string out = "x=";
  print_value(out, P(I(1), I(2)));
  CHECK(out == "x=1, 2");
}

TEST_CASE("printing a 1,000,000-element list") {
  Value l = range_list(1'000'000);
  std::string s = to_string(l);
  std::string expect;
  for (int i = 0; i < 1'000'000; ++i) expect += std::to_string(i) + ", ";
  expect += "NIL";
  CHECK(s == expect);
}

TEST_CASE("printing a 100,000-deep head-nested pair") {
  const int depth = 100'000;
  Value v = I(0);
  for (int i = 1; i <= depth; ++i) v = P(std::move(v), I(i));
  std::string s = to_string(v);
  // ((((0, 1), 2), 3) ..., 100000
  std::string expect(depth - 1, '(');
  expect += "0";
  for (int i = 1; i < depth; ++i) expect += ", " + std::to_string(i) + ")";
  expect += ", " + std::to_string(depth);
  CHECK(s.size() == expect.size());
  CHECK(s == expect);
}

TEST_CASE("bounded printing cuts a value short and counts what it left out") {
  Value l = Value::nil();
  for (int i = 1000; i >= 1; --i) l = P(I(i), std::move(l));
  CHECK(to_string(l, PrintLimit{3, 0}) == "1, 2, 3, ... (998 more)");  // 997 numbers and the NIL
  CHECK(to_string(l, PrintLimit{0, 12}) == "1, 2, 3, 4, ... (997 more)");
  CHECK(to_string(l, PrintLimit{1000, 0}) ==
        to_string(l, PrintLimit{1001, 0}).substr(0, to_string(l).size() - 3) + "... (1 more)");
  CHECK(to_string(l, PrintLimit{1001, 0}) == to_string(l));
  CHECK(to_string(l, kNoPrintLimit).size() == to_string(l).size());
  // Nested heads: the bound counts the parentheses' bytes too.
  Value d = Value::nil();
  for (int i = 0; i < 10000; ++i) d = P(std::move(d), I(i));
  CHECK(to_string(d, PrintLimit{0, 5}) == "(((((... (10001 more)");
  CHECK(to_string(P(P(I(1), I(2)), P(I(3), I(4))), PrintLimit{3, 0}) == "(1, 2), 3, ... (1 more)");
}

TEST_CASE("bounded printing describes a huge integer by its size") {
  std::string digits(5000, '7');
  CHECK(to_string(Z(digits), PrintLimit{200, 4096}) == "<an integer of 16610 bits>");
  CHECK(to_string(Z(digits), kNoPrintLimit) == digits);
  CHECK(to_string(Z(digits.substr(0, 100)), PrintLimit{200, 4096}) == digits.substr(0, 100));
}

TEST_CASE("counting what was left out stops at a budget on values that share their parts") {
  // 2^40 elements in 40 pairs: printing it whole would never end.
  Value v = I(1);
  for (int i = 0; i < 40; ++i) v = P(v, v);
  const std::string s = to_string(v, PrintLimit{4, 0});
  CHECK(s.find("... (over 10000000 more)") != std::string::npos);
}

TEST_CASE("cutting text never splits a character") {
  std::string t = "ab\xc3\xa9\xc3\xa9";  // "abéé": 'é' is two bytes
  cut_text(t, 3);                        // byte 3 is inside the first 'é'
  CHECK(t == "ab...");
  std::string u = "ab\xc3\xa9\xc3\xa9";
  cut_text(u, 4);
  CHECK(u == "ab\xc3\xa9...");
  std::string v = "short";
  cut_text(v, 10);
  CHECK(v == "short");
}
