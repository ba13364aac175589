// The dataflow ordering of block statements (LANGUAGE.md section 7).
#include <doctest/doctest.h>

#include "grammar/parser.hpp"
#include "interpreter/compile/compile_error.hpp"
#include "interpreter/compile/dataflow.hpp"
#include "run_program.hpp"

using humus::test::run_program;
using Outcome = humus::interp::Interpreter::Outcome;

namespace {
// The statements of the first block in `code` (a top-level `[ ... ]`).
humus::ast::Program parse(const std::string& code) {
  auto src = std::make_shared<humus::ast::Source>(humus::ast::Source{"t.hum", code});
  auto r = humus::parse::parse_program(src);
  REQUIRE(r.program);
  return std::move(*r.program);
}
const std::vector<humus::ast::StmtPtr>& block_of(const humus::ast::Program& p) { return p.stmts.at(0)->value->stmts; }
}  // namespace

TEST_CASE("bindings run in dependency order, effects last in source order") {
  auto p = parse("[ SEND c TO println  LET c = $add(b, 1)  LET b = $add(a, 1)  CREATE k WITH f(c)  LET a = $1 ]");
  auto plan = humus::compile::plan_block(block_of(p));
  REQUIRE(plan.bindings.size() == 4);
  CHECK(plan.bindings[0] == std::vector<size_t>{4});  // a
  CHECK(plan.bindings[1] == std::vector<size_t>{2});  // b
  CHECK(plan.bindings[2] == std::vector<size_t>{1});  // c
  CHECK(plan.bindings[3] == std::vector<size_t>{3});  // CREATE k, after c
  CHECK(plan.creates == std::vector<size_t>{3});
  CHECK(plan.effects == std::vector<size_t>{0});
}

TEST_CASE("mutually recursive functions form one group; values may not") {
  auto p = parse("[ DEF f(x) AS g(x)  DEF g(x) AS f(x)  LET v = $f(1) ]");
  auto plan = humus::compile::plan_block(block_of(p));
  REQUIRE(plan.bindings.size() == 2);
  CHECK(plan.bindings[0] == std::vector<size_t>{0, 1});
  CHECK(plan.bindings[1] == std::vector<size_t>{2});

  auto q = parse("[ LET x = $add(y, 1)\n  LET y = $x ]");
  try {
    humus::compile::plan_block(block_of(q));
    FAIL("expected a circular definition");
  } catch (const humus::compile::CompileError& e) {
    CHECK(e.message == "circular definition of x");
    CHECK(e.loc.line == 1);
  }
}

TEST_CASE("SEND before CREATE and a LET used before its statement run") {
  auto r = run_program(R"(
    CREATE a WITH \m.[
      SEND (m, doubled) TO k
      CREATE k WITH \x.[ SEND x TO println ]
      LET doubled = $mul(m, 2)
    ]
    SEND 21 TO a
  )");
  CHECK(r.err == "");
  CHECK(r.out == "21, 42\n");
}

TEST_CASE("a circular definition is reported with its location and nothing runs") {
  auto r = run_program("SEND 1 TO println\nCREATE a WITH \\m.[ LET x = $y  LET y = $x ]");
  CHECK(r.outcome == Outcome::CompileError);
  CHECK(r.err.find("test.hum:2:20: error: circular definition of x") == 0);
  CHECK(r.out == "");
}
