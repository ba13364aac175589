// A statement's tail call of its own function (compile_calls.cpp): when
// every argument can go over the parameter it replaces, it is TAILSELFST,
// which starts the statement code again in the same frame; otherwise the
// arguments are set out above the frame for TAILCALLST, as before. Read off
// the disassembly; what the loops compute is tests/scripts/statement_loops.hum's.
#include <doctest/doctest.h>

#include <string>

#include "tests/unit/interpreter/disassembly.hpp"

namespace {

using test_code::code_of;
using test_code::function;
using test_code::has;

}  // namespace

TEST_CASE("a statement loop sets its arguments out over its parameters") {
  const std::string count = function(code_of("DEF count(i, n) AS IF $i = $n [] ELSE [ count(add(i, 1), n) ]\n"), "1:5");
  // add(i, 1) written straight into R0 (i); n passed on where it is.
  CHECK(has(count, "ADDI        a=0 b=0 c=32769\n"));
  CHECK(has(count, "TAILSELFST  a=2 b=2 c=1\n"));
  CHECK(!has(count, "TAILCALLST"));
}

TEST_CASE("an argument that reads a parameter an earlier one goes over: set out above the frame") {
  const std::string swap =
      function(code_of("DEF swap(a, b, n) AS IF $n = 0 [] ELSE [ swap(b, a, sub(n, 1)) ]\n"), "1:5");
  CHECK(has(swap, "TAILCALLST"));
  CHECK(!has(swap, "TAILSELFST"));
}

TEST_CASE("a callee that is not a global, or fewer arguments than parameters: TAILCALLST") {
  const std::string apply = function(code_of("DEF apply(f, n) AS IF $n = 0 [] ELSE [ f(f, sub(n, 1)) ]\n"), "1:5");
  CHECK(has(apply, "TAILCALLST"));
  CHECK(!has(apply, "TAILSELFST"));
  const std::string fewer = function(code_of("DEF g(a, b) AS IF $a = 0 [] ELSE [ g(sub(a, 1)) ]\n"), "1:5");
  CHECK(has(fewer, "TAILCALLST"));
  CHECK(!has(fewer, "TAILSELFST"));
}

TEST_CASE("what a turn leaves in the frame is released before the next one") {
  // `big` (R2) is still held when the call is made: the DROPS word after
  // TAILSELFST names it, so the next turn starts with the parameters alone
  // (drop_plan.cpp plans the statement entry so).
  const std::string churn = function(code_of("DEF churn(k, x) AS IF $k = 0 [] ELSE [\n"
                                             "  LET big = $(k, x)\n"
                                             "  IF $big = $x [] ELSE [ churn(sub(k, 1), x) ]\n"
                                             "]\n"),
                                     "1:5");
  CHECK(has(churn, "TAILSELFST  a=3 b=2 c=1\n  13   3:26  DROPS       a=7 b=0 c=0 x=128  [drops 0,1,2]\n"));
}
