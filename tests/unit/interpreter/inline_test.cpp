// Small functions compiled in place (compile/compile_inline.cpp): which
// calls are inlined, read off the disassembly. What they compute, also
// after the function is defined again, is tests/scripts/inline_calls.hum.
#include <doctest/doctest.h>

#include <string>

#include "tests/unit/interpreter/disassembly.hpp"

using test_code::code_of;
using test_code::function;
using test_code::has;

TEST_CASE("a call of a function of a few built-in operations is its body, behind a guard") {
  const std::string code = code_of(
      "DEF next(x) AS mod(add(mul(x, 1309), 13849), 65536)\n"
      "DEF use(y) AS add(next(y), 1)\n");
  const std::string use = function(code, "2:5");
  // The guard jumps to the call when the global holds another function.
  CHECK(has(use, "JNCODE      a=0 b=0 c=4  -> 5\n"));
  CHECK(has(use, "MUL         a=4 b=0 c=0 x=1\n"));  // reads y (R0) where it is: no copy
  CHECK(has(use, "MODP"));
  CHECK(has(use, "CALL        a=2 b=1 c=1\n"));  // the call, for the guard's failure
}

TEST_CASE("calls that stay calls") {
  SUBCASE("a body that calls a function of its own") {
    const std::string code = code_of("DEF f(x) AS g(x)\nDEF g(x) AS x\nDEF use(y) AS add(f(y), 1)\n");
    CHECK_FALSE(has(function(code, "3:5"), "JNCODE"));
  }
  SUBCASE("a built-in the body names is a local variable at the call") {
    const std::string code = code_of("DEF f(x) AS add(x, 1)\nDEF use(add) AS mul(f(add), 2)\n");
    CHECK_FALSE(has(function(code, "2:5"), "JNCODE"));
  }
  SUBCASE("the function's name is a local variable at the call") {
    const std::string code = code_of("DEF f(x) AS add(x, 1)\nDEF use(f, y) AS mul(f(y), 2)\n");
    CHECK_FALSE(has(function(code, "2:5"), "JNCODE"));
  }
  SUBCASE("one tuple for two parameters") {
    const std::string code = code_of("DEF d(x, y) AS sub(x, y)\nDEF use(p) AS mul(d(p), 2)\n");
    CHECK_FALSE(has(function(code, "2:5"), "JNCODE"));
  }
  SUBCASE("an argument that is more than a few operations (it would be compiled twice)") {
    const std::string code = code_of("DEF f(x) AS add(x, 1)\nDEF use(y) AS mul(f(CASE y OF 1 : 2 END), 2)\n");
    CHECK_FALSE(has(function(code, "2:5"), "JNCODE"));
  }
  SUBCASE("a name bound again by LET at top level") {
    const std::string code = code_of("DEF f(x) AS add(x, 1)\nLET f = \\x.x\nDEF use(y) AS mul(f(y), 2)\n");
    CHECK_FALSE(has(function(code, "3:5"), "JNCODE"));
  }
}
