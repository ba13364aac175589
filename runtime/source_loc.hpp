// Where a piece of compiled code came from, for diagnostics and printing.
// The runtime does not know about the parser's AST: the compiler fills these
// in, and keeps the file name alive for as long as the code exists.
#pragma once

#include <cstdint>
#include <string>

namespace humus::rt {

struct SourceLoc {
  const std::string* file = nullptr;  // owned by the compiled program
  uint32_t line = 0;
  uint32_t column = 0;

  std::string file_name() const { return file ? *file : std::string("<builtin>"); }
};

}  // namespace humus::rt
