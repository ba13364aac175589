// Standard-library modules are parsed once per process and copied after
// (grammar/parse_cache.hpp, grammar/ast_copy.hpp): a module compiled from
// the copy must be the very code compiled from the parse, for every module
// of stdlib/ (the disassembly, with its source positions, is compared).
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>

#include "grammar/ast_copy.hpp"
#include "grammar/parse_cache.hpp"
#include "interpreter/engine/disassemble.hpp"
#include "interpreter/interpreter.hpp"
#include "run_program.hpp"

namespace {

std::string compiled(const humus::ast::SourcePtr& source) {
  std::mutex m;
  std::string out, err;
  humus::interp::Interpreter interp(humus::test::capturing_options(1, m, out, err));
  humus::interp::Interpreter::Outcome outcome;
  auto* unit = interp.load(source, &outcome);
  REQUIRE(unit);
  return humus::engine::disassemble(*unit);
}

}  // namespace

TEST_CASE("a library module compiles the same from its kept tree as from its first parse") {
  int modules = 0;
  for (const auto& entry : std::filesystem::directory_iterator(HUMUS_STDLIB_DIR)) {
    if (entry.path().extension() != ".hum") continue;
    std::ifstream in(entry.path());
    std::stringstream text;
    text << in.rdbuf();
    // A name no other test uses: the first load below is this text's first parse.
    const std::string name = "parse_cache_test/" + entry.path().filename().string();
    auto source = std::make_shared<humus::ast::Source>(humus::ast::Source{name, text.str(), true});
    const std::string parsed = compiled(source);  // parsed, and the tree kept
    const std::string copied = compiled(source);  // from a copy of the kept tree
    CHECK(parsed == copied);
    CHECK(parsed.size() > 100);
    ++modules;
  }
  CHECK(modules >= 9);
}

TEST_CASE("a library module with a syntax error is reported each time, never kept") {
  auto source = std::make_shared<humus::ast::Source>(humus::ast::Source{"broken_lib.hum", "DEF f(x) AS (x\n", true});
  for (int i = 0; i < 2; ++i) {
    humus::parse::ParseResult r = humus::parse::parse_library(source);
    CHECK_FALSE(r.program);
    REQUIRE(r.error);
    CHECK(r.error->message.find("')'") != std::string::npos);
  }
}
