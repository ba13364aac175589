// The unit tests that read compiled code off its disassembly, the way a
// reader of `humus --dump-code` sees it: a program's code, and a search in it.
#pragma once

#include <doctest/doctest.h>

#include <memory>
#include <string>

#include "grammar/ast.hpp"
#include "interpreter/engine/disassemble.hpp"
#include "interpreter/interpreter.hpp"

namespace test_code {

// `prelude`: compiled after the prelude is loaded, as the humus command
// compiles a script (calls of its functions may then compile otherwise).
inline std::string code_of(const std::string& source, bool prelude = false) {
  humus::rt::RuntimeOptions o;
  o.threads = 1;
  humus::interp::Interpreter interp(o);
  if (prelude) REQUIRE(interp.load_prelude() == humus::interp::Interpreter::Outcome::Ok);
  auto* unit = interp.load(std::make_shared<humus::ast::Source>(humus::ast::Source{"test.hum", source}));
  REQUIRE(unit != nullptr);
  return humus::engine::disassemble(*unit);
}

inline bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// The code of the function at `at` (line:column in test.hum), up to the
// next listing.
inline std::string function(const std::string& code, const std::string& at) {
  const size_t from = code.find("== function \\test.hum:" + at + "\n");
  REQUIRE(from != std::string::npos);
  const size_t to = code.find("== ", from + 3);
  return code.substr(from, to == std::string::npos ? std::string::npos : to - from);
}

}  // namespace test_code
