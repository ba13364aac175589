// Formatting of error reports that point into a source text, shared by the
// parser and the compiler (LANGUAGE.md section 12):
//
//   fib.hum:3:14: error: expected 'TO' after the message of SEND
//   SEND (k, n) x
//               ^
#pragma once

#include <string>
#include <string_view>

#include "grammar/ast.hpp"

namespace humus::parse {

// "FILE:LINE:COLUMN: KIND: MESSAGE\n" (COLUMN in characters) + the source line + "\n" + padding and
// '^' under the column + "\n".  The padding keeps the tabs of the source line
// (and counts a multi-byte UTF-8 character as one column) so the caret lines
// up in a terminal.  A column past the end of the line (an error at the end of
// the input) puts the caret just after it.  With loc.line == 0 (no position)
// only "FILE: KIND: MESSAGE\n" is written.
std::string format_diagnostic(const ast::Source& src, ast::Loc loc, std::string_view kind,
                              std::string_view message);

// The source line of `loc` and a line with '^' under its column, each ending
// in "\n" (the part of format_diagnostic under its first line).
std::string source_window(std::string_view text, ast::Loc loc);

// Locations count bytes (ast::Loc); people count characters: the column of
// `loc` in code points (a tab counts one), as diagnostics show it.
uint32_t char_column(std::string_view text, ast::Loc loc);
// "LINE:COLUMN" of `loc` with the column in characters.
std::string position_text(std::string_view text, ast::Loc loc);

}  // namespace humus::parse
