// Lent arguments (compile/lend_plan.cpp): which calls pass a borrowed value
// uncounted, read off the disassembly. What running them does is tested by
// tests/scripts/lent_arguments.hum.
#include <doctest/doctest.h>

#include <string>

#include "tests/unit/interpreter/disassembly.hpp"

using test_code::code_of;
using test_code::function;
using test_code::has;

namespace {

const char* const kSafe =
    "DEF safe(q, board, d) AS CASE board OF (p, rest) : IF $q = $p FALSE ELSE safe(q, rest, add(d, 1)) _ : TRUE "
    "END\n";

}  // namespace

TEST_CASE("a borrowed tail copied into a call's argument is lent") {
  const std::string code =
      code_of(std::string(kSafe) +
              "DEF valid(board) AS CASE board OF (q, rest) : IF $safe(q, rest, 1) = TRUE valid(rest) ELSE FALSE _ : "
              "TRUE END\n");
  const std::string valid = function(code, "2:5");
  // q is copied counted, rest (R0, borrowed) lent: the pair of copies is
  // MOVE2L, the call CALLL naming argument 1 (x = 1 + 1).
  CHECK(has(valid, "MOVE2L      a=3 b=1 c=0\n"));
  CHECK(has(valid, "MOVEL       a=4 b=0 c=0\n"));
  CHECK(has(valid, "CALLL       a=2 b=3 c=1 x=2\n"));
  // Its statement and behavior code borrow nothing, and lend nothing.
  CHECK(valid.find("CALLL") == valid.rfind("CALLL"));
}

TEST_CASE("only a copy just before the call, from a borrowed register, is lent") {
  // Counted parameters (nothing borrowed): nothing to lend.
  CHECK_FALSE(has(code_of("DEF f(a, b) AS g(a, b)\nDEF g(x, y) AS x\n"), "CALLL"));
  // A borrowed tail, but a built-in's value (which can fail) computed after
  // its copy: the copy stays counted.
  const std::string later = function(
      code_of(std::string(kSafe) +
              "DEF each(l) AS CASE l OF (q, rest) : IF $safe(q, rest, add(q, 1)) = TRUE each(rest) ELSE FALSE _ : "
              "TRUE END\n"),
      "2:5");
  CHECK_FALSE(has(later, "CALLL"));
  CHECK_FALSE(has(later, "MOVEL"));
  // The same with the built-in first: lent.
  const std::string first = function(
      code_of("DEF probe(d, l) AS CASE l OF (p, r) : IF $p = $d TRUE ELSE probe(d, r) _ : FALSE END\n"
              "DEF each(l) AS CASE l OF (q, rest) : IF $probe(add(q, 1), rest) = TRUE each(rest) ELSE FALSE _ : "
              "TRUE END\n"),
      "2:5");
  CHECK(has(first, "MOVEL "));
  CHECK(has(first, "CALLL "));
  // An argument that an IF chooses (a jump lands among the arguments'
  // set-up): not lent.
  const std::string chosen = function(
      code_of(std::string(kSafe) +
              "DEF each(l) AS CASE l OF (q, rest) : IF $safe(q, rest, IF $q = 0 1 ELSE 2) = TRUE each(rest) ELSE "
              "FALSE _ : TRUE END\n"),
      "2:5");
  CHECK_FALSE(has(chosen, "CALLL"));
}
