// A compile-time error: reported as FILE:LINE:COLUMN: error: MESSAGE with the
// source line and a caret, and nothing of the program runs.
#pragma once

#include <string>

#include "grammar/ast.hpp"

namespace humus::compile {

struct CompileError {
  ast::Loc loc;
  std::string message;
};

}  // namespace humus::compile
