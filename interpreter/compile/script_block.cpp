#include "interpreter/compile/script_block.hpp"

#include <utility>

namespace humus::compile {

ast::Program as_one_block(ast::Program program) {
  std::vector<ast::StmtPtr> top;
  const ast::Loc at = program.stmts.empty() ? ast::Loc{1, 1} : program.stmts.front()->loc;
  auto block = std::make_unique<ast::Expr>(ast::ExprKind::Block, at);
  for (auto& s : program.stmts) {
    if (s->kind == ast::StmtKind::Import)
      top.push_back(std::move(s));
    else
      block->stmts.push_back(std::move(s));
  }
  if (!block->stmts.empty()) {
    auto stmt = std::make_unique<ast::Stmt>(ast::StmtKind::Expr, at);
    stmt->value = std::move(block);
    top.push_back(std::move(stmt));
  }
  program.stmts = std::move(top);
  return program;
}

}  // namespace humus::compile
