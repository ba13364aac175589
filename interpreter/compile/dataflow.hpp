// Dataflow ordering of a block's statements (LANGUAGE.md section 7).
//
// The statements of a block are not ordered by position. Every CREATEd actor
// exists from the start; LET/DEF bindings run in dependency order, found as
// the strongly connected components of the "uses a name bound by" graph; a
// cycle is allowed only between functions (mutual recursion) and is
// otherwise a "circular definition". Effect statements (SEND, AFTER,
// BECOME, THROW, expression statements) run last, in source order, so
// messages keep their SEND order.
#pragma once

#include <cstddef>
#include <string>
#include <unordered_set>
#include <vector>

#include "grammar/ast.hpp"
#include "interpreter/compile/scopes.hpp"

namespace humus::compile {

using NameSet = std::unordered_set<std::string>;

// The names an expression uses that it does not bind itself (scopes.hpp).
NameSet free_names(const ast::Expr& e);

// A binding of a function literal (`LET f(x) = e`, `DEF f(x) AS e`, `DEF f AS \x.e`);
// such bindings may refer to themselves and to each other.
struct FunctionBinding {
  const std::string* name;
  ast::Loc name_loc;
  const ast::Pattern* param;
  const ast::Expr* body;
  ast::Loc loc;  // of the lambda (for printing \file:line)
};
bool as_function_binding(const ast::Stmt& s, FunctionBinding& out);

struct BlockPlan {
  std::vector<size_t> creates;                // CREATE statements, in source order
  std::vector<std::vector<size_t>> bindings;  // groups in execution order; a group of
                                              // more than one is mutually recursive functions
  std::vector<size_t> effects;                // in source order
};

// Throws CompileError for a name bound twice in the block or a circular definition.
BlockPlan plan_block(const std::vector<ast::StmtPtr>& stmts);

}  // namespace humus::compile
