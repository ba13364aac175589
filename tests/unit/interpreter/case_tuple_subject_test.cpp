// CASE over a tuple written in place (compile_control.cpp, case_of_tuple):
// the tuple is not made when every alternative is a tuple of as many parts,
// read off the disassembly. What running such CASEs gives is tested by
// tests/scripts/case_tuple_subject.hum.
#include <doctest/doctest.h>

#include <string>

#include "tests/unit/interpreter/disassembly.hpp"

namespace {

using test_code::code_of;
using test_code::function;
using test_code::has;

}  // namespace

TEST_CASE("CASE (x, y) OF a walk of two lists makes no pair, and borrows the first list") {
  const std::string dot = function(code_of("DEF dot(xs, ys, acc) AS CASE (xs, ys) OF\n"
                                           "  ((x, xs'), (y, ys')) : dot(xs', ys', add(acc, mul(x, y)))\n"
                                           "  _ : acc\n"
                                           "END\n"),
                                   "1:5");
  CHECK_FALSE(has(dot, "PAIR "));
  CHECK_FALSE(has(dot, "TUPLE "));
  // Each list is taken apart where it is, the first uncounted (its loop
  // passes the tail back in place).
  CHECK(has(dot, "borrowed 0,"));
  CHECK(has(dot, "UNPAIRJB    a=0 b=3"));
  CHECK(has(dot, "UNPAIRJ     a=1 b=5"));
}

TEST_CASE("CASE over a tuple made of calls computes each part once, before any alternative") {
  const std::string f = function(code_of("DEF f(a, b) AS CASE (add(a, 1), sub(b, 1)) OF\n"
                                         "  (0, _) : #first\n"
                                         "  (_, 0) : #second\n"
                                         "  (x, y) : (y, x)\n"
                                         "END\n"),
                                 "1:5");
  // The value code: both parts into registers, then the tests on them;
  // the only pair made is the last arm's (y, x).
  CHECK(has(f, "   0   1:22  ADDI        a=2 b=0 c=32769\n"));
  CHECK(has(f, "   1   1:33  SUBI        a=3 b=1 c=32769\n"));
  CHECK(has(f, "   2   2:4   JNWORD      a=2 b=0 c=1  -> 4  ; 0\n"));
  CHECK(has(f, "   4   3:7   JNWORD      a=3 b=0 c=1  -> 6  ; 0\n"));
  CHECK(has(f, "   6   4:13  PAIR        a=4 b=3 c=2 x=3\n"));
}

TEST_CASE("CASE over a tuple with an alternative for the whole value makes the tuple as before") {
  const std::string f = function(code_of("DEF f(a, b) AS CASE (a, b) OF\n"
                                         "  (1, x) : x\n"
                                         "  w : w\n"
                                         "END\n"),
                                 "1:5");
  CHECK(has(f, "PAIR "));
}
