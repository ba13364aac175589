// What the language server knows of a program: definitions, and what each
// name refers to, by the compiler's scope rules.
#include <doctest/doctest.h>

#include <memory>
#include <string>

#include "grammar/parser.hpp"
#include "interpreter/lsp/outline.hpp"

using humus::lsp::Definition;
using humus::lsp::Outline;

namespace {

struct Parsed {
  humus::ast::SourcePtr source;
  Outline outline;
};

Parsed outline_of(const std::string& text) {
  auto source = std::make_shared<humus::ast::Source>(humus::ast::Source{"t.hum", text});
  auto parsed = humus::parse::parse_program(source);
  REQUIRE(parsed.program);
  return {source, humus::lsp::make_outline(*parsed.program)};
}

// Where the name at (line, column) is defined: "global", or "L:C" of its binder.
std::string refers(const Outline& o, uint32_t line, uint32_t column) {
  const auto* occ = o.at(line, column);
  if (!occ) return "nothing";
  if (occ->definition < 0) return "global " + *occ->name;
  const auto& d = o.definitions[size_t(occ->definition)];
  return std::to_string(d.loc.line) + ":" + std::to_string(d.loc.column);
}

}  // namespace

TEST_CASE("top-level definitions are globals, of their kinds") {
  auto p = outline_of("DEF f(x) AS x\nLET g = \\y.y\nDEF (a, b) AS (1, 2)\nCREATE c WITH f\nIMPORT \"fifo\"\n");
  const Outline& o = p.outline;
  CHECK(o.statements.size() == 5);
  REQUIRE(o.global("f"));
  CHECK(o.global("f")->kind == Definition::Kind::Function);
  CHECK(o.global("g")->kind == Definition::Kind::Value);  // LET g = \y.y is a match, not DEF g AS
  CHECK(o.global("a")->kind == Definition::Kind::Value);
  CHECK(o.global("b")->stmt == 2);
  CHECK(o.global("c")->kind == Definition::Kind::Actor);
  CHECK(o.global("x") == nullptr);  // a parameter
  REQUIRE(o.imports.size() == 1);
  CHECK(o.imports[0].module == "fifo");
  CHECK(o.imports[0].string_loc.column == 8);
  CHECK(o.imports[0].string_length == 6);
}

TEST_CASE("each use points at its binder, or is a global") {
  auto p = outline_of(
      "DEF f(x) AS add(x, g(x))\n"                    // 1
      "DEF g(n) AS CASE n OF (a, b) : a _ : n END\n"  // 2
      "CREATE c WITH \\m.[\n"                         // 3
      "  SEND (k, m) TO later\n"                      // 4: k is bound below, in the block
      "  CREATE k WITH \\r.[ SEND r TO println ]\n"   // 5
      "  LET z = $m\n"                                // 6
      "]\n"
      "DEF later AS LET q = 1 IN add(q, f(q))\n");  // 8
  const Outline& o = p.outline;
  CHECK(refers(o, 1, 17) == "1:7");  // x in add(x, ...)
  CHECK(refers(o, 1, 13) == "global add");
  CHECK(refers(o, 1, 20) == "global g");
  CHECK(refers(o, 2, 18) == "2:7");   // CASE n: the parameter
  CHECK(refers(o, 2, 32) == "2:24");  // the alternative's a
  CHECK(refers(o, 2, 38) == "2:7");   // n after _
  CHECK(refers(o, 4, 9) == "5:10");   // k, used above its CREATE
  CHECK(refers(o, 4, 12) == "3:16");  // m: the behavior's parameter
  CHECK(refers(o, 4, 18) == "global later");
  CHECK(refers(o, 6, 12) == "3:16");  // $m
  CHECK(refers(o, 8, 31) == "8:18");  // q of LET ... IN
  CHECK(refers(o, 8, 34) == "global f");
  // A definition's own name.
  const auto* def = o.at(1, 5);
  REQUIRE(def);
  CHECK(def->is_definition);
  CHECK(*def->name == "f");
  CHECK(o.at(1, 1) == nullptr);  // DEF
}

TEST_CASE("a function's name in its own body: the global at top level, the local in a block") {
  auto p = outline_of("DEF loop(n) AS loop(n)\nCREATE a WITH \\m.[ LET h(x) = h(x) ]\n");
  CHECK(refers(p.outline, 1, 16) == "global loop");
  CHECK(refers(p.outline, 2, 31) == "2:24");
}

TEST_CASE("definition text: the comment above and the statement, up to the next one") {
  auto p = outline_of(
      "# The header of the file.\n"
      "\n"
      "# Doubles.\n"
      "## Really.\n"
      "DEF double(n) AS\n"
      "  mul(n, 2)\n"
      "\n"
      "# About the next one.\n"
      "DEF one AS 1 DEF two AS 2\n"
      "DEF block AS [\n"
      "  SEND 1 TO println\n"
      "] DEF after AS 3\n");
  const Outline& o = p.outline;
  auto text = [&](const char* name) { return humus::lsp::definition_text(*p.source, o, *o.global(name)); };
  CHECK(text("double").code == "DEF double(n) AS\n  mul(n, 2)");
  CHECK(text("double").comment == "Doubles.\nReally.");
  CHECK(text("one").code == "DEF one AS 1");
  CHECK(text("one").comment == "About the next one.");
  CHECK(text("two").code == "DEF two AS 2");
  CHECK(text("two").comment.empty());
  CHECK(text("block").code == "DEF block AS [\n  SEND 1 TO println\n]");
  CHECK(text("after").code == "DEF after AS 3");
  // Long definitions are cut.
  auto lines = humus::lsp::definition_text(*p.source, o, *o.global("block"), 1);
  CHECK(lines.code == "DEF block AS [\n...");
  // A local: its line.
  const auto* n = o.at(6, 7);
  REQUIRE(n);
  CHECK(humus::lsp::definition_text(*p.source, o, o.definitions[size_t(n->definition)]).code == "DEF double(n) AS");
}
