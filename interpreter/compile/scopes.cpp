#include "interpreter/compile/scopes.hpp"

namespace humus::compile {

namespace {

void collect_binders(const ast::Pattern& p, BoundNames& out) {
  switch (p.kind) {
    case ast::PatternKind::Bind:
      out.emplace_back(p.name, p.loc);
      break;
    case ast::PatternKind::Tuple:
      for (const auto& e : p.elements) collect_binders(*e, out);
      break;
    default:
      break;
  }
}

}  // namespace

BoundNames pattern_binders(const ast::Pattern& p) {
  BoundNames out;
  collect_binders(p, out);
  return out;
}

BoundNames statement_binders(const ast::Stmt& s) {
  BoundNames out;
  if (s.kind == ast::StmtKind::Create) {
    out.emplace_back(s.name, s.name_loc);
  } else if (s.kind == ast::StmtKind::Let) {
    const ast::Equation& eq = *s.equation;
    if (eq.kind == ast::Equation::Kind::FunctionDef) {
      out.emplace_back(eq.name, eq.name_loc);
    } else {
      if (eq.lhs) collect_binders(*eq.lhs, out);
      if (eq.rhs) collect_binders(*eq.rhs, out);
    }
  }
  return out;
}

void ScopeWalker::use(const std::string& name, ast::Loc at) {
  auto it = bound_.find(name);
  if (it == bound_.end() || it->second.empty())
    on_use_(name, at, std::nullopt);
  else
    on_use_(name, at, it->second.back());
}

void ScopeWalker::bind(const BoundNames& names) {
  for (const auto& [name, at] : names) {
    bound_[name].push_back(at);
    if (on_bind_) on_bind_(name, at);
  }
}

void ScopeWalker::unbind(const BoundNames& names) {
  for (const auto& n : names) release(n.first);
}

// An empty entry is erased: a document of 100,000 functions would otherwise
// keep 100,000 (each one's name is bound in its own body), every lookup
// slower as the table grows.
void ScopeWalker::release(const std::string& name) {
  auto it = bound_.find(name);
  it->second.pop_back();
  if (it->second.empty()) bound_.erase(it);
}

void ScopeWalker::expr(const ast::Expr& e) {
  switch (e.kind) {
    case ast::ExprKind::Const:
    case ast::ExprKind::Self:
    case ast::ExprKind::Now:
      break;
    case ast::ExprKind::Var:
      use(e.name, e.loc);
      break;
    case ast::ExprKind::Lambda: {
      pattern_terms(*e.param);
      auto names = pattern_binders(*e.param);
      bind(names);
      expr(*e.body);
      unbind(names);
      break;
    }
    case ast::ExprKind::Block:
      block(e.stmts);
      break;
    case ast::ExprKind::Call:
      expr(*e.callee);
      if (e.argument) expr(*e.argument);
      break;
    case ast::ExprKind::Tuple:
      for (const auto& x : e.elements) expr(*x);
      break;
    case ast::ExprKind::New:
      expr(*e.body);
      break;
    case ast::ExprKind::LetIn: {
      auto names = equation(*e.equation);
      bind(names);
      expr(*e.body);
      unbind(names);
      break;
    }
    case ast::ExprKind::If:
      for (const auto& b : e.branches) {
        auto names = equation(b.condition);
        bind(names);
        expr(*b.body);
        unbind(names);
      }
      if (e.body) expr(*e.body);
      break;
    case ast::ExprKind::Case:
      expr(*e.body);
      for (const auto& a : e.alternatives) {
        pattern_terms(*a.pattern);
        auto names = pattern_binders(*a.pattern);
        bind(names);
        expr(*a.body);
        unbind(names);
      }
      break;
  }
}

BoundNames ScopeWalker::equation(const ast::Equation& eq) {
  BoundNames names;
  switch (eq.kind) {
    case ast::Equation::Kind::FunctionDef: {
      names.emplace_back(eq.name, eq.name_loc);
      pattern_terms(*eq.param);
      auto params = pattern_binders(*eq.param);
      // The function may call itself: its name is bound in its body (no
      // bind callback: the caller's scope reports the name's binding).
      bound_[eq.name].push_back(eq.name_loc);
      bind(params);
      expr(*eq.body);
      unbind(params);
      release(eq.name);
      break;
    }
    case ast::Equation::Kind::Match:
      pattern_terms(*eq.lhs);
      pattern_terms(*eq.rhs);
      collect_binders(*eq.lhs, names);
      collect_binders(*eq.rhs, names);
      break;
    case ast::Equation::Kind::PatternDef:
      expr(*eq.body);
      pattern_terms(*eq.lhs);
      collect_binders(*eq.lhs, names);
      break;
  }
  return names;
}

void ScopeWalker::block(const std::vector<ast::StmtPtr>& stmts) {
  BoundNames names;
  for (const auto& s : stmts) {
    auto b = statement_binders(*s);
    names.insert(names.end(), b.begin(), b.end());
  }
  bind(names);
  for (const auto& s : stmts) statement(*s);
  unbind(names);
}

void ScopeWalker::statement(const ast::Stmt& s) {
  switch (s.kind) {
    case ast::StmtKind::Let:
      equation(*s.equation);
      break;
    case ast::StmtKind::Create:
    case ast::StmtKind::Become:
    case ast::StmtKind::Throw:
    case ast::StmtKind::Expr:
      expr(*s.value);
      break;
    case ast::StmtKind::Send:
      expr(*s.value);
      expr(*s.target);
      break;
    case ast::StmtKind::After:
      expr(*s.delay);
      expr(*s.value);
      expr(*s.target);
      break;
    case ast::StmtKind::Import:
      break;
  }
}

void ScopeWalker::pattern_terms(const ast::Pattern& p) {
  if (p.kind == ast::PatternKind::Value) expr(*p.value);
  for (const auto& e : p.elements) pattern_terms(*e);
}

}  // namespace humus::compile
