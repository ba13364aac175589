// How a call passes its arguments (compile/compile_calls.cpp): one by one,
// or, to a function known to take one parameter, as the tuple made at the
// call. Read off the disassembly, the way a reader of `humus --dump-code`
// sees it.
#include <doctest/doctest.h>

#include <string>

#include "tests/unit/interpreter/disassembly.hpp"

namespace {

using test_code::code_of;
using test_code::function;
using test_code::has;

}  // namespace

TEST_CASE("f(x, y) of a function of one parameter makes the pair and passes it") {
  const std::string code = code_of(
      "DEF f(p) AS p\n"
      "DEF g(x, y) AS f(x, y)\n"
      "DEF h(x, y) AS (f(x, y), 0)\n");
  // In tail position the pair is made straight into R0, the parameter it replaces.
  const std::string g = function(code, "2:5");
  CHECK(has(g, "PAIR        a=0 b=0 c=1 x=3\n"));
  CHECK(has(g, "TAILCALL    a=2 b=1 c=1 x=1\n"));
  const std::string h = function(code, "3:5");
  CHECK(has(h, "PAIR        a=4 b=0 c=1 x=3\n"));
  CHECK(has(h, "CALL        a=3 b=1 c=1\n"));
}

TEST_CASE("a function of two parameters gets the values one by one") {
  const std::string code = code_of(
      "DEF f(a, b) AS a\n"
      "DEF g(x, y) AS (f(x, y), 0)\n");
  CHECK(has(function(code, "2:5"), "CALL        a=3 b=2 c=1\n"));
}

TEST_CASE("a function of the prelude is known by what its global holds") {
  // identity takes one parameter: the triple is made at the call.
  const std::string code = code_of("DEF g(x) AS (identity(x, x, x), 0)\n", true);
  const std::string g = function(code, "1:5");
  CHECK(has(g, "TUPLE       a=3 b=4 c=3\n"));
  CHECK(has(g, "CALL        a=2 b=1 c=1\n"));
}

TEST_CASE("a callee not known to take one parameter gets the values one by one") {
  // Defined further on (each statement is compiled as it is read), defined
  // again with another arity, bound to a value, or a parameter.
  const std::string code = code_of(
      "DEF early(x, y) AS (later(x, y), 0)\n"
      "DEF later(p) AS p\n"
      "DEF twice(p) AS p\n"
      "DEF twice(a, b) AS a\n"
      "DEF g(x, y) AS (twice(x, y), 0)\n"
      "LET v = 5\n"
      "DEF h(x, y) AS (v(x, y), 0)\n"
      "DEF k(later, y) AS (later(y, y), 0)\n");
  CHECK(has(function(code, "1:5"), "CALL        a=3 b=2 c=1\n"));
  CHECK(has(function(code, "5:5"), "CALL        a=3 b=2 c=1\n"));
  CHECK(has(function(code, "7:5"), "CALL        a=3 b=2 c=1\n"));
  CHECK(has(function(code, "8:5"), "CALL        a=3 b=2 c=0\n"));
}
