// Test helper: a compact, one-line text form of the AST, so that tests can
// check the shape of a parse with one string comparison.
//   (call f (, 1 2))   (\ x body)   [stmt; stmt]   (IF eq body ELSE body)
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "grammar/ast.hpp"
#include "grammar/parser.hpp"

namespace humus::test {

std::string dump(const ast::Expr& e);
std::string dump(const ast::Pattern& p);
std::string dump(const ast::Equation& q);
std::string dump(const ast::Stmt& s);
std::string dump(const ast::Program& p);  // statements joined by " | "

inline ast::SourcePtr source(std::string text, std::string name = "t.hum") {
  return std::make_shared<ast::Source>(ast::Source{std::move(name), std::move(text)});
}

inline parse::ParseResult parse(std::string text) { return parse::parse_program(source(std::move(text))); }

// The dump of a program that must parse; "ERROR L:C: message" when it does not.
std::string parsed(std::string text);

}  // namespace humus::test
