#include "grammar/ast_copy.hpp"

#include <cstdint>

namespace humus::ast {

namespace {

// A field added to a node must be copied below: these sizes say when one was.
#if UINTPTR_MAX == 0xFFFFFFFFFFFFFFFFu
static_assert(sizeof(Expr) == 240 && sizeof(Stmt) == 88 && sizeof(Pattern) == 136 && sizeof(Equation) == 88,
              "a syntax node changed: copy its new fields here, then update these sizes");
#endif

PatternPtr copy(const PatternPtr& p);
ExprPtr copy(const ExprPtr& e);
StmtPtr copy(const StmtPtr& s);

Equation copy(const Equation& q) {
  Equation c;
  c.kind = q.kind;
  c.loc = q.loc;
  c.name = q.name;
  c.name_loc = q.name_loc;
  c.param = copy(q.param);
  c.body = copy(q.body);
  c.lhs = copy(q.lhs);
  c.rhs = copy(q.rhs);
  return c;
}

std::unique_ptr<Equation> copy(const std::unique_ptr<Equation>& q) {
  return q ? std::make_unique<Equation>(copy(*q)) : nullptr;
}

template <class T>
std::vector<std::unique_ptr<T>> copy_all(const std::vector<std::unique_ptr<T>>& v) {
  std::vector<std::unique_ptr<T>> out;
  out.reserve(v.size());
  for (const auto& x : v) out.push_back(copy(x));
  return out;
}

PatternPtr copy(const PatternPtr& p) {
  if (!p) return nullptr;
  auto c = std::make_unique<Pattern>(p->kind, p->loc);
  c->name = p->name;
  c->constant = p->constant;
  c->value = copy(p->value);
  c->elements = copy_all(p->elements);
  return c;
}

ExprPtr copy(const ExprPtr& e) {
  if (!e) return nullptr;
  auto c = std::make_unique<Expr>(e->kind, e->loc);
  c->constant = e->constant;
  c->name = e->name;
  c->param = copy(e->param);
  c->body = copy(e->body);
  c->stmts = copy_all(e->stmts);
  c->callee = copy(e->callee);
  c->argument = copy(e->argument);
  c->elements = copy_all(e->elements);
  c->equation = copy(e->equation);
  c->branches.reserve(e->branches.size());
  for (const IfBranch& b : e->branches) c->branches.push_back(IfBranch{copy(b.condition), copy(b.body)});
  c->alternatives.reserve(e->alternatives.size());
  for (const CaseAlt& a : e->alternatives) c->alternatives.push_back(CaseAlt{copy(a.pattern), copy(a.body)});
  return c;
}

StmtPtr copy(const StmtPtr& s) {
  if (!s) return nullptr;
  auto c = std::make_unique<Stmt>(s->kind, s->loc);
  c->equation = copy(s->equation);
  c->name = s->name;
  c->name_loc = s->name_loc;
  c->value = copy(s->value);
  c->target = copy(s->target);
  c->delay = copy(s->delay);
  return c;
}

}  // namespace

Program copy(const Program& p, SourcePtr source) {
  Program c;
  c.source = std::move(source);
  c.stmts = copy_all(p.stmts);
  return c;
}

}  // namespace humus::ast
