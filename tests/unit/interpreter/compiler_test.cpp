// Scope resolution and closures: every way a name can be reached.
#include <doctest/doctest.h>

#include "run_program.hpp"

using humus::test::run_program;
using Outcome = humus::interp::Interpreter::Outcome;

TEST_CASE("parameters, captures through several levels, and shadowing") {
  auto r = run_program(R"(
    DEF adder(a) AS \b.\c.add(a, add(b, c))
    SEND adder(1)(10)(100) TO println
    DEF shadow(x) AS LET x = $add(x, 1) IN \x.mul(x, 2)
    SEND shadow(5)(7) TO println
    DEF pair_swap(a, b) AS (b, a)
    SEND pair_swap(1, 2) TO println
  )");
  CHECK(r.err == "");
  CHECK(r.out == "111\n14\n2, 1\n");
}

TEST_CASE("a local function calls itself without capturing itself") {
  auto r = run_program(R"(
    CREATE a WITH \n.[
      LET count_down(k) = IF $k = 0 #done ELSE count_down(sub(k, 1))
      SEND count_down(n) TO println
    ]
    SEND 1000 TO a
  )");
  CHECK(r.err == "");
  CHECK(r.out == "#done\n");
}

TEST_CASE("mutually recursive local functions, also reached from a nested lambda") {
  auto r = run_program(R"(
    CREATE a WITH \n.[
      DEF even(k) AS IF $k = 0 TRUE ELSE odd(sub(k, 1))
      DEF odd(k) AS IF $k = 0 FALSE ELSE even(sub(k, 1))
      DEF via_lambda AS \k.odd(k)
      SEND (even(n), odd(n), via_lambda(n), n) TO println
    ]
    SEND 10 TO a
    SEND 7 TO a
  )");
  CHECK(r.err == "");
  CHECK(r.out == "TRUE, FALSE, FALSE, 10\nFALSE, TRUE, TRUE, 7\n");
}

TEST_CASE("globals are late-bound and a redefinition replaces them") {
  auto r = run_program(R"(
    DEF f(x) AS g(x)
    DEF g(x) AS add(x, 1)
    SEND f(1) TO println
    DEF g(x) AS mul(x, 10)
    SEND f(2) TO println
  )");
  CHECK(r.out == "2\n20\n");
}

TEST_CASE("a block value keeps the frame slots it reads") {
  auto r = run_program(R"(
    DEF later(x) AS LET y = $add(x, 1) IN [ SEND (x, y) TO println ]
    CREATE a WITH \b.[ b ]
    SEND later(41) TO a
  )");
  CHECK(r.err == "");
  CHECK(r.out == "41, 42\n");
}

TEST_CASE("compile errors: both sides bind, bound twice, SELF at top level") {
  auto both = run_program("LET x = y");
  CHECK(both.outcome == Outcome::CompileError);
  CHECK(both.err.find("test.hum:1:5: error: both sides of '=' bind names") == 0);

  auto twice = run_program("CREATE a WITH \\m.[ LET x = $1  LET x = $2 ]");
  CHECK(twice.outcome == Outcome::CompileError);
  CHECK(twice.err.find("'x' is bound twice in this block (first at 1:24)") != std::string::npos);

  auto pat = run_program("DEF f(a, a) AS a");
  CHECK(pat.outcome == Outcome::CompileError);
  CHECK(pat.err.find("'a' is bound twice in this pattern") != std::string::npos);

  auto self = run_program("SEND 1 TO SELF");
  CHECK(self.outcome == Outcome::CompileError);
  CHECK(self.err.find("SELF can only be used inside an actor's behavior") != std::string::npos);

  auto become = run_program("[ BECOME \\x.[] ]");
  CHECK(become.outcome == Outcome::CompileError);
  CHECK(become.err.find("BECOME can only be used inside an actor's behavior") != std::string::npos);

  // Nothing runs when any statement fails to compile.
  auto none = run_program("SEND 1 TO println\nLET x = y");
  CHECK(none.out == "");
}
