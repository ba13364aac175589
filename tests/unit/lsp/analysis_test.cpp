// One look at a document: its diagnostics and where its names are defined.
#include <doctest/doctest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <string>

#include "interpreter/lsp/analysis.hpp"
#include "interpreter/lsp/builtins.hpp"
#include "runtime/runtime.hpp"

using humus::lsp::Diagnostic;

namespace {

humus::lsp::Analysis analyze(const std::string& text, humus::lsp::Modules& modules) {
  return humus::lsp::analyze(std::make_shared<humus::ast::Source>(humus::ast::Source{"t.hum", text}), "", modules);
}

}  // namespace

TEST_CASE("every built-in global has a hover text") {
  humus::rt::RuntimeOptions o;
  humus::rt::Runtime rt(o);
  auto bound = rt.globals().bound();
  CHECK(bound.size() >= 20);
  for (const auto& [name, value] : bound) {
    INFO(name);
    CHECK(humus::lsp::builtin_doc(name) != nullptr);
  }
  CHECK(humus::lsp::builtin_doc("map") == nullptr);  // the prelude's, not built in
  // The scripting built-ins (docs/scripting.md) say how they are called.
  CHECK(std::string(humus::lsp::builtin_doc("format")).find("`~p`") != std::string::npos);
  CHECK(std::string(humus::lsp::builtin_doc("split")).starts_with("`split(s, sep)`"));
  CHECK(std::string(humus::lsp::builtin_doc("stdin")).find("#read_line") != std::string::npos);
  CHECK(std::string(humus::lsp::builtin_doc("files")).find("#lines") != std::string::npos);
  CHECK(std::string(humus::lsp::builtin_doc("clock")).find("#ticks") != std::string::npos);
  CHECK(std::string(humus::lsp::builtin_doc("timer")).find("#cancel") != std::string::npos);
}

TEST_CASE("syntax, compile and name diagnostics") {
  humus::lsp::Modules modules;
  auto a = analyze("SEND 1 TO\n", modules);
  CHECK_FALSE(a.parsed);
  REQUIRE(a.diagnostics.size() == 1);
  CHECK(a.diagnostics[0].message == "expected the target actor (an expression) after 'TO'");
  CHECK(a.diagnostics[0].loc.line == 2);  // at the end of the input
  CHECK(a.diagnostics[0].loc.column == 1);

  a = analyze("DEF f AS \\(x, x).x\n", modules);
  CHECK(a.parsed);
  REQUIRE(a.diagnostics.size() == 1);
  CHECK(a.diagnostics[0].severity == Diagnostic::Severity::Error);
  CHECK(a.diagnostics[0].message == "'x' is bound twice in this pattern");

  // A compiler warning comes through as a warning.
  a = analyze("DEF f AS \\x.[ SEND x TO println ], 1\n", modules);
  REQUIRE(a.diagnostics.size() == 1);
  CHECK(a.diagnostics[0].severity == Diagnostic::Severity::Warning);
  CHECK(a.diagnostics[0].message.find("put it in parentheses") != std::string::npos);

  a = analyze("SEND (fifo_empty, map, add, x) TO y\nDEF x AS 1\n", modules);
  REQUIRE(a.diagnostics.size() == 2);
  // The command line's check (name_check.hpp): read by top-level code, an error.
  CHECK(a.diagnostics[0].message == "'fifo_empty' is not defined");
  CHECK(a.diagnostics[0].severity == Diagnostic::Severity::Error);
  CHECK(a.diagnostics[0].length == 10);
  CHECK(a.diagnostics[1].message == "'y' is not defined");

  // At most 100 names are listed, as on the command line; one more
  // diagnostic, at no position, counts the rest (here only warnings).
  std::string many;
  for (int i = 0; i < 150; ++i) many += "DEF f" + std::to_string(i) + "(x) AS add(y" + std::to_string(i) + ", x)\n";
  a = analyze(many, modules);
  REQUIRE(a.diagnostics.size() == 101);
  CHECK(a.diagnostics[99].message == "'y99' is not defined; did you mean 'f99'? (a runtime error if this code runs)");
  CHECK(a.diagnostics[100].message == "50 more names are not defined (only the first 100 are listed)");
  CHECK(a.diagnostics[100].loc.line == 0);
  CHECK(a.diagnostics[100].severity == Diagnostic::Severity::Warning);

  a = analyze("IMPORT \"fifo\"\nSEND fifo_empty TO println\n", modules);
  CHECK(a.diagnostics.empty());
  REQUIRE(a.imported.size() == 1);
  REQUIRE(a.imported[0]);
  CHECK(a.imported[0]->shown == "stdlib/fifo.hum");
  auto g = humus::lsp::find_global(a, "fifo_empty");
  REQUIRE(g);
  REQUIRE(g->module);
  CHECK(g->module->shown == "stdlib/fifo.hum");
  CHECK(a.modules.front()->shown == "stdlib/prelude.hum");
}

TEST_CASE("the document's own definition wins over a module's") {
  humus::lsp::Modules modules;
  auto a = analyze("DEF map(f, xs) AS xs\n", modules);
  auto g = humus::lsp::find_global(a, "map");
  REQUIRE(g);
  CHECK(g->module == nullptr);
  CHECK(g->definition->loc.line == 1);
}

TEST_CASE("modules are read again when their file changes") {
  auto dir = std::filesystem::temp_directory_path() / ("humus_lsp_unit_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "m.hum") << "DEF one AS 1\n";
  humus::lsp::Modules modules;
  std::string why;
  auto m1 = modules.find("m.hum", dir.string(), why);
  REQUIRE(m1);
  CHECK(m1->outline.global("one"));
  CHECK(modules.find("m.hum", dir.string(), why) == m1);  // cached
  std::ofstream(dir / "m.hum") << "DEF one AS 1\nDEF two AS 2\n";
  auto m2 = modules.find("m.hum", dir.string(), why);
  REQUIRE(m2);
  CHECK(m2->outline.global("two"));
  CHECK_FALSE(modules.find("nothing.hum", dir.string(), why));
  CHECK(why.find("cannot find module 'nothing.hum'") != std::string::npos);
  std::filesystem::remove_all(dir);
}
