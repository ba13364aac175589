// Hints for the slips newcomers make, read off the source text around a
// diagnostic: what was probably meant, and what to write instead (in the
// tone of Rust's and Elm's compilers). Each returns "" or text to append
// to the diagnostic's message ("; keywords are upper case: write 'DEF'").
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "grammar/ast.hpp"

namespace humus::parse {

// Humus's keywords, upper case.
const std::vector<std::string>& keyword_names();

// For a syntax error at `loc`: a keyword in lower case or misspelt (at the
// error or opening its line), an infix operator, a '//' comment.
std::string syntax_hint(std::string_view text, ast::Loc loc);

// For `name`, used at `loc` and defined nowhere: a keyword in lower case, a
// '//' comment, a '#' comment without its space (a symbol), a space between
// a function and its '(' (then the arguments look like names of their own).
// These explain the names after it on its line too.
std::string undefined_name_hint(std::string_view text, ast::Loc loc, const std::string& name);

}  // namespace humus::parse
