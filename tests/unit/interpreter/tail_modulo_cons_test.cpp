// A function's value that is a tuple ending in a call (compile_control.cpp,
// expr_tail): the tuple is made open at its end (HOLE) and the call is a
// tail call, so `(x, init(rest))` loops. Read off the disassembly; what the
// code computes is tests/scripts/tail_modulo_cons.hum's.
#include <doctest/doctest.h>

#include <string>

#include "tests/unit/interpreter/disassembly.hpp"

namespace {

using test_code::code_of;
using test_code::function;
using test_code::has;

}  // namespace

TEST_CASE("(x, f(rest)) in a function's value: HOLE, then the call as a self tail call") {
  const std::string code = code_of(
      "DEF init(xs) AS CASE xs OF\n"
      "  (x, NIL) : NIL\n"
      "  (x, rest) : (x, init(rest))\n"
      "END\n");
  const std::string init = function(code, "1:5");
  CHECK(has(init, "HOLE        a=1 b=1 c=0 x=1\n"));  // x read where it is, and moved
  CHECK(has(init, "TAILSELF"));
}

TEST_CASE("several parts before the call go into the open tuple at once") {
  const std::string code = code_of("DEF f(x, y) AS (x, y, g(x))\n");
  const std::string f = function(code, "1:5");
  CHECK(has(f, "HOLE        a=2 b=2 c=0 x=1\n"));
  CHECK(has(f, "TAILCALL"));
}

TEST_CASE("a tuple ending in a tuple that ends in a call: two HOLEs") {
  const std::string code = code_of("DEF f(x) AS (x, (x, f(x)))\n");
  const std::string f = function(code, "1:5");
  CHECK(has(f, "   0   1:14  HOLE        a=0 b=1 c=0\n   1   1:18  HOLE        a=0 b=1 c=0\n"));
}

TEST_CASE("a tuple ending in a built-in computed in place, or in no call, is made whole") {
  const std::string code = code_of(
      "DEF f(x) AS (x, add(x, 1))\n"
      "DEF g(x) AS (x, 1)\n"
      "DEF h(x) AS (k(x), x)\n");
  CHECK_FALSE(has(code, "HOLE"));
}

TEST_CASE("a tuple ending in a call of a small function keeps the call compiled in place") {
  // next_random's body is inlined at a value's call (compile_inline.cpp):
  // no frame to save, so no HOLE, and the tail call would have lost that.
  const std::string code = code_of(
      "DEF next_random(x) AS mod(add(mul(x, 1309), 13849), 65536)\n"
      "DEF step(s) AS (s, next_random(s))\n");
  const std::string step = function(code, "2:5");
  CHECK_FALSE(has(step, "HOLE"));
  CHECK(has(step, "JNCODE"));
}

TEST_CASE("statement and behavior code make the tuple whole: only a value is filled in") {
  // The same body run as a statement (EXEC of its value) calls g first.
  const std::string code = code_of("DEF f(x) AS (x, g(x))\n");
  const std::string f = function(code, "1:5");
  CHECK(has(f, "HOLE"));
  CHECK(has(f, "CALL "));
  CHECK(has(f, "PAIR"));
}
