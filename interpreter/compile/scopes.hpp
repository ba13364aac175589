// The scope rules of LANGUAGE.md (sections 3-7) as one walk over the AST:
// every use of a name, with the binder it refers to, or none when the name
// is free (a global, where the walk started at top level).
//
// Blocks bind all their names before any statement (dataflow: a name may be
// used above its statement); a function's name is visible in its own body;
// the $terms of a pattern see the scope around the pattern, not its names.
// The compiler's dataflow ordering (free_names) and the language server's
// go-to-definition both ask this walk, so they cannot disagree.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "grammar/ast.hpp"

namespace humus::compile {

using BoundNames = std::vector<std::pair<std::string, ast::Loc>>;

class ScopeWalker {
 public:
  // A use of `name` at `at`; `binder` is where the name it refers to is bound.
  using OnUse = std::function<void(const std::string& name, ast::Loc at, std::optional<ast::Loc> binder)>;
  // A name bound at `at` (parameters, pattern variables, LET/DEF/CREATE names
  // inside blocks and LET ... IN), when its scope opens.
  using OnBind = std::function<void(const std::string& name, ast::Loc at)>;

  explicit ScopeWalker(OnUse on_use, OnBind on_bind = {}) : on_use_(std::move(on_use)), on_bind_(std::move(on_bind)) {}

  void expr(const ast::Expr& e);
  // A statement of a block whose names are already bound (or a top-level
  // statement, whose names are globals and so stay free).
  void statement(const ast::Stmt& s);
  void block(const std::vector<ast::StmtPtr>& stmts);
  // Visits what an equation uses; returns what it binds, for the caller's scope.
  BoundNames equation(const ast::Equation& eq);
  // The $terms inside a pattern: expressions evaluated in the enclosing scope.
  void pattern_terms(const ast::Pattern& p);

 private:
  void use(const std::string& name, ast::Loc at);
  void bind(const BoundNames& names);
  void unbind(const BoundNames& names);
  void release(const std::string& name);  // the innermost binder of `name` goes out of scope

  OnUse on_use_;
  OnBind on_bind_;
  std::unordered_map<std::string, std::vector<ast::Loc>> bound_;  // innermost binder last
};

// The names a pattern binds (not counting those inside $terms), in order.
BoundNames pattern_binders(const ast::Pattern& p);
// The names a block statement binds: CREATE's name, or its equation's binders.
BoundNames statement_binders(const ast::Stmt& s);

}  // namespace humus::compile
