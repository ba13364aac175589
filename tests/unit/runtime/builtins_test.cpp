// The built-in functions of section 9, including every ? case.
#include <doctest/doctest.h>

#include <map>
#include <set>
#include <string>

#include "runtime/actor.hpp"
#include "runtime/builtins/functions.hpp"
#include "runtime/print.hpp"
#include "runtime/symbols.hpp"
#include "tests/unit/runtime/value_helpers.hpp"

using namespace humus::rt;
using namespace humus::rt::test;

namespace {
const std::string kFile = "b.hum";
const FakeFunction kFn(SourceLoc{&kFile, 1, 1});
const FakeBlock kBlk(SourceLoc{&kFile, 2, 1});

Native* B(const std::string& name) {
  for (Native* n : builtin_functions())
    if (name == n->name) return n;
  FAIL("no built-in " << name);
  return nullptr;
}
// Calls a one-argument built-in.
std::string call1(const std::string& name, const Value& v) { return to_string(B(name)->fn(v)); }
// Calls a two-argument built-in both ways (fn2 and fn on a pair) and checks they agree.
std::string call2(const std::string& name, const Value& a, const Value& b) {
  Native* n = B(name);
  REQUIRE(bool(n->fn2));
  std::string direct = to_string(n->fn2(a, b));
  std::string paired = to_string(n->fn(make_pair(a, b)));
  CHECK(direct == paired);
  return direct;
}

Value T() { return Value::truth(); }
Value F() { return Value::falsity(); }
Value N() { return Value::nil(); }
Value U() { return Value::undefined(); }
Value Sym(const char* s) { return Value::symbol(intern_symbol(s)); }
}  // namespace

TEST_CASE("the table of built-ins") {
  const std::set<std::string> one = {"not",         "is_boolean", "is_number", "is_symbol",
                                     "is_function", "is_actor",   "is_pair",   "neg"};
  const std::set<std::string> two = {"eq",  "and",     "or",   "add",        "sub",           "mul",    "div",
                                     "mod", "compare", "less", "less_equal", "greater_equal", "greater"};
  // the text functions (docs/scripting.md) and the natives the map module binds.
  const std::set<std::string> text_one = {"text",           "number",          "trim",           "symbol",
                                          "symbol_name",    "native_map_size", "native_map_keys", "native_map_items",
                                          "native_length",  "native_reverse",  "native_last",     "native_sum"};
  const std::set<std::string> text_two = {"split",          "join",           "format",        "native_map_get",
                                          "native_map_has", "native_map_put", "native_map_remove",
                                          "native_append",  "native_member",  "native_nth",    "native_take",
                                          "native_drop"};
  auto all = builtin_functions();
  CHECK(all.size() == one.size() + two.size() + text_one.size() + text_two.size());
  CHECK(one.size() + two.size() == kCoreBuiltins);
  REQUIRE(builtin_table().size() == all.size());
  std::set<std::string> seen;
  for (size_t i = 0; i < all.size(); ++i) {
    Native* n = all[i];
    CAPTURE(n->name);
    CHECK(seen.insert(n->name).second);
    CHECK(n->immortal());
    CHECK(n->kind == ObjKind::Native);
    CHECK(bool(n->fn));
    CHECK(std::string(builtin_table()[i].name) == n->name);
    CHECK(std::string(builtin_table()[i].doc).find(std::string("`") + n->name + "(") == 0);  // its own doc
    if (i < kCoreBuiltins) {
      CHECK(bool(n->fn2) == (two.count(n->name) == 1));
      CHECK((one.count(n->name) + two.count(n->name)) == 1);
    } else {
      CHECK(bool(n->fn2) == (text_two.count(n->name) == 1));
      CHECK((text_one.count(n->name) + text_two.count(n->name)) == 1);
    }
  }
  // made once
  CHECK(builtin_functions().data() == all.data());
  CHECK(builtin_functions()[3] == all[3]);
}

TEST_CASE("two-argument built-ins on a non-pair give ?") {
  for (Native* n : builtin_functions()) {
    if (!n->fn2) continue;
    CAPTURE(n->name);
    for (const Value& v : {I(1), N(), T(), U(), Sym("x"), Value::adopt(new Actor(1))}) CHECK(n->fn(v).is_undefined());
  }
}

TEST_CASE("eq") {
  CHECK(call2("eq", I(1), I(1)) == "TRUE");
  CHECK(call2("eq", I(1), I(2)) == "FALSE");
  CHECK(call2("eq", list(I(1), I(2)), list(I(1), I(2))) == "TRUE");
  CHECK(call2("eq", list(I(1), I(2)), list(I(1))) == "FALSE");
  CHECK(call2("eq", U(), U()) == "TRUE");
  CHECK(call2("eq", N(), U()) == "FALSE");
  CHECK(call2("eq", Sym("a"), Sym("a")) == "TRUE");
  CHECK(call2("eq", Z("99999999999999999999999"), Z("99999999999999999999999")) == "TRUE");
  Value a = Value::adopt(new Actor(1));
  CHECK(call2("eq", a, a) == "TRUE");
  CHECK(call2("eq", a, Value::adopt(new Actor(1))) == "FALSE");
}

TEST_CASE("boolean logic") {
  CHECK(call1("not", T()) == "FALSE");
  CHECK(call1("not", F()) == "TRUE");
  for (const Value& v : {I(0), I(1), N(), U(), Sym("TRUE"), make_pair(T(), T())}) {
    CHECK(call1("not", v) == "?");
    CHECK(call2("and", v, T()) == "?");
    CHECK(call2("and", T(), v) == "?");
    CHECK(call2("and", F(), v) == "?");
    CHECK(call2("or", v, F()) == "?");
    CHECK(call2("or", T(), v) == "?");
  }
  CHECK(call2("and", T(), T()) == "TRUE");
  CHECK(call2("and", T(), F()) == "FALSE");
  CHECK(call2("and", F(), T()) == "FALSE");
  CHECK(call2("and", F(), F()) == "FALSE");
  CHECK(call2("or", T(), T()) == "TRUE");
  CHECK(call2("or", T(), F()) == "TRUE");
  CHECK(call2("or", F(), T()) == "TRUE");
  CHECK(call2("or", F(), F()) == "FALSE");
}

TEST_CASE("type tests") {
  Value actor = Value::adopt(new Actor(2));
  Value closure = Value::adopt(Closure::make(&kFn, 0));
  Value block = Value::adopt(BlockValue::make(&kBlk, 0));
  Value native = Value::share(B("add"));
  Value big = Z("99999999999999999999999");
  Value pair = make_pair(I(1), I(2));
  struct Case {
    Value v;
    const char* is_true;  // the one test that holds, or ""
  };
  const Case cases[] = {
      {I(3), "is_number"},
      {I(-3), "is_number"},
      {big, "is_number"},
      {T(), "is_boolean"},
      {F(), "is_boolean"},
      {N(), ""},
      {U(), ""},
      {Sym("s"), "is_symbol"},
      {pair, "is_pair"},
      {list(I(1)), "is_pair"},
      {actor, "is_actor"},
      {closure, "is_function"},
      {native, "is_function"},
      {block, ""},
  };
  for (const Case& c : cases) {
    CAPTURE(to_string(c.v));
    for (const char* test : {"is_boolean", "is_number", "is_symbol", "is_function", "is_actor", "is_pair"})
      CHECK(call1(test, c.v) == (std::string(test) == c.is_true ? "TRUE" : "FALSE"));
  }
}

TEST_CASE("arithmetic built-ins") {
  CHECK(call1("neg", I(5)) == "-5");
  CHECK(call1("neg", Z("-4611686018427387904")) == "4611686018427387904");
  CHECK(call2("add", I(2), I(3)) == "5");
  CHECK(call2("add", I(Value::kSmallMax), I(1)) == "4611686018427387904");
  CHECK(call2("sub", I(2), I(3)) == "-1");
  CHECK(call2("mul", I(6), I(7)) == "42");
  CHECK(call2("mul", Z("99999999999999999999"), Z("99999999999999999999")) ==
        "9999999999999999999800000000000000000001");
  CHECK(call2("div", I(-7), I(2)) == "-4");
  CHECK(call2("mod", I(-7), I(2)) == "1");
  CHECK(call2("div", I(7), I(-2)) == "-3");
  CHECK(call2("mod", I(7), I(-2)) == "1");
  CHECK(call2("div", I(-7), I(-2)) == "4");
  CHECK(call2("mod", I(-7), I(-2)) == "1");
  CHECK(call2("div", I(7), I(0)) == "?");
  CHECK(call2("mod", I(7), I(0)) == "?");
  for (const Value& v : {N(), T(), U(), Sym("one"), make_pair(I(1), I(2))}) {
    CHECK(call1("neg", v) == "?");
    for (const char* op : {"add", "sub", "mul", "div", "mod"}) {
      CAPTURE(op);
      CHECK(call2(op, v, I(1)) == "?");
      CHECK(call2(op, I(1), v) == "?");
      CHECK(call2(op, v, v) == "?");
    }
  }
}

TEST_CASE("comparisons") {
  Value big = Z("99999999999999999999999");
  struct Row {
    Value a, b;
    const char *compare, *less, *less_equal, *greater_equal, *greater;
  };
  const Row rows[] = {
      {I(1), I(2), "-1", "TRUE", "TRUE", "FALSE", "FALSE"},
      {I(2), I(2), "0", "FALSE", "TRUE", "TRUE", "FALSE"},
      {I(3), I(2), "1", "FALSE", "FALSE", "TRUE", "TRUE"},
      {big, I(2), "1", "FALSE", "FALSE", "TRUE", "TRUE"},
      {int_neg(big), I(2), "-1", "TRUE", "TRUE", "FALSE", "FALSE"},
      {big, Z("99999999999999999999999"), "0", "FALSE", "TRUE", "TRUE", "FALSE"},
  };
  for (const Row& r : rows) {
    CAPTURE(to_string(r.a));
    CAPTURE(to_string(r.b));
    CHECK(call2("compare", r.a, r.b) == r.compare);
    CHECK(call2("less", r.a, r.b) == r.less);
    CHECK(call2("less_equal", r.a, r.b) == r.less_equal);
    CHECK(call2("greater_equal", r.a, r.b) == r.greater_equal);
    CHECK(call2("greater", r.a, r.b) == r.greater);
  }
  CHECK(B("compare")->fn2(I(1), I(2)).is_small());
  for (const Value& v : {N(), T(), F(), U(), Sym("one"), make_pair(I(1), I(2))})
    for (const char* op : {"less", "less_equal", "greater_equal", "greater"}) {
      CAPTURE(op);
      CHECK(call2(op, v, I(1)) == "?");
      CHECK(call2(op, I(1), v) == "?");
    }
  // compare orders every value: ? < FALSE < TRUE < integers < symbols < NIL < pairs.
  CHECK(call2("compare", U(), F()) == "-1");
  CHECK(call2("compare", T(), F()) == "1");
  CHECK(call2("compare", I(1), T()) == "1");
  CHECK(call2("compare", I(1), Sym("one")) == "-1");
  CHECK(call2("compare", Sym("b"), Sym("a")) == "1");
  CHECK(call2("compare", Sym("one"), N()) == "-1");
  CHECK(call2("compare", N(), make_pair(I(1), I(2))) == "-1");
  CHECK(call2("compare", make_pair(I(1), I(2)), make_pair(I(1), I(3))) == "-1");
  CHECK(call2("compare", make_pair(I(1), I(2)), make_pair(I(1), I(2))) == "0");
}
