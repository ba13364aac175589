// What the editor may complete at a position (textDocument/completion):
// the names in scope there that start with the word being typed.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "interpreter/lsp/analysis.hpp"

namespace humus::lsp {

struct Completion {
  enum class Kind { Keyword, Function, Value, Actor, Local, Builtin, BuiltinActor };
  std::string label;
  Kind kind;
  std::string detail;  // where it comes from: "prelude", "stdlib/map.hum", "built-in", "local", "this file"
};

// The names of `a` (its document, modules, locals of the top-level
// statement around `line`) and the keywords and built-ins, each once, that
// start with `prefix`, sorted; internal names (prelude_*, native_*) left out.
std::vector<Completion> complete(const Analysis& a, uint32_t line, std::string_view prefix);

}  // namespace humus::lsp
