// The text functions (runtime/builtins/text.cpp, docs/scripting.md): what
// each gives for strings, packed or built by hand, and ? for anything else.
#include <doctest/doctest.h>

#include <string>

#include "runtime/builtins/functions.hpp"
#include "runtime/equality.hpp"
#include "runtime/print.hpp"
#include "runtime/packed.hpp"
#include "runtime/symbols.hpp"
#include "runtime/text.hpp"
#include "tests/unit/runtime/value_helpers.hpp"

using namespace humus::rt;
using humus::rt::test::I;
using humus::rt::test::list;

namespace {

const Native* F(const std::string& name) {
  for (Native* n : builtin_functions())
    if (name == n->name) return n;
  FAIL("no built-in " << name);
  return nullptr;
}
Value S(std::string_view utf8) { return *str_from_utf8(utf8); }
// A string built by hand, as a program would: pairs of code points.
Value L(std::string_view ascii) {
  Value out = Value::nil();
  for (size_t i = ascii.size(); i-- > 0;) out = make_pair(I(ascii[i]), std::move(out));
  return out;
}
Value sym(const char* s) { return Value::symbol(intern_symbol(s)); }
Value call(const char* name, const Value& v) { return F(name)->fn(v); }
Value call(const char* name, const Value& a, const Value& b) { return F(name)->fn2(a, b); }
// The text of a string result, or "<not a string: ...>".
std::string text_of(const Value& v) {
  if (auto t = string_text(v)) return *t;
  return "<not a string: " + to_string(v) + ">";
}

}  // namespace

TEST_CASE("text(v) is what println writes, as a string") {
  CHECK(text_of(call("text", I(42))) == "42");
  CHECK(text_of(call("text", sym("ok"))) == "#ok");
  CHECK(text_of(call("text", make_pair(I(1), sym("a")))) == "1, #a");
  CHECK(text_of(call("text", S("hi"))) == "104, 105, NIL");  // a string prints as its list
  CHECK(text_of(call("text", Value::undefined())) == "?");
  CHECK(call("text", I(5)).is_str());
}

TEST_CASE("number(s): decimal integers of any size, else ?") {
  CHECK(to_string(call("number", S("42"))) == "42");
  CHECK(to_string(call("number", L("-17"))) == "-17");
  CHECK(to_string(call("number", S("+7"))) == "7");
  CHECK(to_string(call("number", S("007"))) == "7");
  CHECK(to_string(call("number", S("123456789012345678901234567890"))) == "123456789012345678901234567890");
  for (const char* bad : {"", "-", "+", "1.5", " 1", "1 ", "12a", "0x10", "--1"}) {
    CAPTURE(bad);
    CHECK(call("number", std::string_view(bad).empty() ? Value::nil() : S(bad)).is_undefined());
  }
  CHECK(call("number", I(1)).is_undefined());
  CHECK(call("number", sym("one")).is_undefined());
}

TEST_CASE("split(s, sep): the pieces between occurrences of sep") {
  Value parts = call("split", S("a,b,,c"), S(","));
  CHECK(equal(parts, list(L("a"), L("b"), Value::nil(), L("c"))));
  CHECK(equal(call("split", L("a--b--"), L("--")), list(L("a"), L("b"), Value::nil())));
  CHECK(equal(call("split", S("abc"), S(",")), list(L("abc"))));
  CHECK(equal(call("split", Value::nil(), S(",")), list(Value::nil())));
  CHECK(equal(call("split", S("\xe2\x82\xac/x"), S("/")), list(S("\xe2\x82\xac"), L("x"))));
  CHECK(call("split", S("abc"), Value::nil()).is_undefined());  // an empty separator
  CHECK(call("split", I(1), S(",")).is_undefined());
  CHECK(call("split", S("a"), I(1)).is_undefined());
  CHECK(call("split", make_pair(I(-1), Value::nil()), S(",")).is_undefined());  // not a code point
}

TEST_CASE("join(strings, sep) and split are inverses") {
  CHECK(text_of(call("join", list(S("a"), L("b"), Value::nil(), S("c")), S(", "))) == "a, b, , c");
  CHECK(call("join", Value::nil(), S(",")).is_nil());
  CHECK(text_of(call("join", list(S("only")), S(","))) == "only");
  Value s = S("x;y;;z");
  CHECK(equal(call("join", call("split", s, S(";")), S(";")), s));
  CHECK(call("join", list(S("a"), I(1)), S(",")).is_undefined());
  CHECK(call("join", make_pair(S("a"), S("b")), S(",")).is_undefined());  // the list ("a", 98): 98 is no string
}

TEST_CASE("trim(s) removes white space at both ends only") {
  CHECK(text_of(call("trim", S("  \t a b \r\n"))) == "a b");
  CHECK(call("trim", S("   ")).is_nil());
  CHECK(text_of(call("trim", L("x"))) == "x");
  CHECK(text_of(call("trim", S("\xc2\xa0y\xe3\x80\x80"))) == "y");  // no-break and ideographic spaces
  CHECK(call("trim", I(3)).is_undefined());
}

TEST_CASE("symbol(s) and symbol_name(#s)") {
  CHECK(call("symbol", S("ok")).same(sym("ok")));
  CHECK(call("symbol", L("with space")).same(sym("with space")));
  CHECK(call("symbol", Value::nil()).is_undefined());
  CHECK(call("symbol", I(1)).is_undefined());
  CHECK(text_of(call("symbol_name", sym("ok"))) == "ok");
  CHECK(call("symbol_name", S("ok")).is_undefined());
}

TEST_CASE("format(template, args): ~p, ~s, ~~ and the k-tuple of arguments") {
  CHECK(text_of(call("format", S("Total: ~p items"), I(42))) == "Total: 42 items");
  CHECK(text_of(call("format", S("~s has ~p"), make_pair(S("Ann"), I(3)))) == "Ann has 3");
  CHECK(text_of(call("format", S("~p"), make_pair(I(1), I(2)))) == "1, 2");  // one directive: all of it
  CHECK(text_of(call("format", S("~p and ~p"), list(I(1), I(2), I(3)))) ==
        "1 and 2, 3, NIL");                                                         // the last takes the rest
  CHECK(text_of(call("format", S("~p ~p ~p"), make_pair(I(1), I(2)))) == "1 2 ?");  // none left: ?
  CHECK(text_of(call("format", S("~s!"), I(5))) == "?!");                           // ~s of a non-string
  CHECK(text_of(call("format", S("~s"), L("built by hand"))) == "built by hand");
  CHECK(text_of(call("format", S("100~~ ~x ~"), Value::nil())) == "100~ ~x ~");  // ~~, an unknown ~x, a last ~
  CHECK(text_of(call("format", S("no directives"), I(9))) == "no directives");
  CHECK(text_of(call("format", S("\xe2\x82\xac~p"), I(1))) ==
        "\xe2\x82\xac"
        "1");
  CHECK(call("format", I(1), I(2)).is_undefined());
  // The one-argument form takes the pair apart, as every two-argument built-in does.
  CHECK(text_of(F("format")->fn(make_pair(S("[~p]"), I(7)))) == "[7]");
}
