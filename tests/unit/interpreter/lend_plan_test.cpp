// Lent arguments (compile/lend_plan.cpp): which calls pass a copy of a list
// uncounted, read off the disassembly. What running them does, with
// callees that borrow the argument and callees that do not, is tested by
// tests/scripts/lent_arguments.hum.
#include <doctest/doctest.h>

#include <string>

#include "tests/unit/interpreter/disassembly.hpp"

namespace {

using test_code::code_of;
using test_code::function;
using test_code::has;

const char* const kWalks =
    "DEF sum(l, acc) AS CASE l OF (h, t) : sum(t, add(acc, h)) _ : acc END\n"
    "DEF valid(b) AS CASE b OF (q, rest) : IF $sum(rest, q) = 0 valid(rest) ELSE FALSE _ : TRUE END\n";

}  // namespace

TEST_CASE("copies of a call's arguments are lent, moves are not") {
  const std::string code = code_of(std::string(kWalks) + "DEF twice(l) AS add(sum(l, 0), sum(l, 0))\n");
  // valid copies both (it walks rest itself after the call): MOVEL writes
  // them uncounted, and CALLL names them (x: arguments 0 and 1). The two
  // MOVELs are fused (MOVEL2, x: 4 and 8, both lent); the second stays as data.
  const std::string valid = function(code, "2:5");
  CHECK(has(valid, "MOVEL2      a=3 b=0 c=1 x=12\n"));
  CHECK(has(valid, "MOVEL       a=4 b=1 c=0\n"));
  CHECK(has(valid, "CALLL       a=2 b=2 c=1 x=3\n"));
  // twice's first call copies l, lent; its second moves l (its last use),
  // a count to give: a plain CALL.
  const std::string twice = function(code, "3:5");
  CHECK(has(twice, "   0   3:25  MOVEL       a=3 b=0 c=0\n"));  // then a LOADK: no fusing
  CHECK(has(twice, "CALLL       a=2 b=2 c=1 x=1\n"));
  CHECK(has(twice, "MOVE        a=4 b=0 c=0 x=1\n"));
  CHECK(has(twice, "CALL        a=3 b=2 c=1\n"));
}

TEST_CASE("nothing that may fail comes between a lent argument and its call") {
  // add(n, 1) may fail (n need not be a number): the unwinding would release
  // an uncounted word. The copy of l before it stays counted.
  const std::string code = code_of(std::string(kWalks) + "DEF g(l, n) AS (sum(l, add(n, 1)), l)\n");
  const std::string g = function(code, "3:5");
  CHECK(has(g, "MOVE        a=4 b=0 c=0\n"));
  CHECK(has(g, "ADDI        a=5 b=1 c=32769\n"));
  CHECK(has(g, "CALL        a=3 b=2 c=1\n"));
  CHECK(!has(g, "MOVEL"));
  CHECK(!has(g, "CALLL"));
}

TEST_CASE("a tail call lends nothing") {
  // Its frame replaces the caller's: nothing would hold the list.
  const std::string code = code_of(std::string(kWalks) + "DEF h(l) AS sum(l, 0)\n");
  const std::string h = function(code, "3:5");
  CHECK(has(h, "TAILCALL"));
  CHECK(!has(h, "MOVEL"));
}
