// Small functions compiled in place. A call of a top-level function whose
// body is a few built-in operations on its parameters (Savina's
// `DEF next_random(x) AS mod(add(mul(x, 1309), 13849), 65536)`) cost a
// frame pushed and popped, about 140 machine instructions, for 3 of work.
// Its body is compiled at the call instead, behind JNCODE: the global must
// still hold that function when the code runs (a later DEF may bind the
// name to another), else the call is made as usual.
#include "interpreter/compile/compiler_impl.hpp"

#include "interpreter/engine/fast_builtins.hpp"

namespace humus::compile::codegen {

namespace {

constexpr int kMaxBodyNodes = 16;     // a bigger body is worth its frame
constexpr int kMaxArgumentNodes = 8;  // an argument is compiled twice (inline, call)
// Bodies kept: a script of 300,000 one-line DEFs must not keep a syntax
// tree of each (statements are freed as they are compiled).
constexpr size_t kMaxInlinable = 1024;

bool is_param(const std::vector<std::string>& params, const std::string& name) {
  for (const auto& p : params)
    if (p == name) return true;
  return false;
}

// f(x, y) of a built-in computed in place (add, mul, less, ...).
bool builtin_pair(const ast::Expr& e) {
  return e.callee->kind == ast::ExprKind::Var && engine::fast_builtin(e.callee->name) && e.argument &&
         e.argument->kind == ast::ExprKind::Tuple && e.argument->elements.size() == 2;
}

// Literals, variables (`params`, when given: only those) and built-in
// operations on them, in at most `budget` nodes.
bool operations(const ast::Expr& e, const std::vector<std::string>* params, int& budget) {
  if (--budget < 0) return false;
  switch (e.kind) {
    case ast::ExprKind::Const:
      return e.constant.kind != ast::Constant::Kind::List;
    case ast::ExprKind::Var:
      return !params || is_param(*params, e.name);
    case ast::ExprKind::Call:
      if (!builtin_pair(e) || (params && is_param(*params, e.callee->name))) return false;
      return operations(*e.argument->elements[0], params, budget) &&
             operations(*e.argument->elements[1], params, budget);
    default:
      return false;
  }
}

ast::ExprPtr copy(const ast::Expr& e) {  // of a tree `operations` accepted
  auto c = std::make_unique<ast::Expr>(e.kind, e.loc);
  c->constant = e.constant;
  c->name = e.name;
  if (e.callee) c->callee = copy(*e.callee);
  if (e.argument) c->argument = copy(*e.argument);
  for (const auto& x : e.elements) c->elements.push_back(copy(*x));
  return c;
}

// Whether every built-in the body names is the global one at this point
// (a local variable of the same name would be called instead).
bool builtins_global(const Fn& fn, const ast::Expr& e, bool (*bound)(const Fn&, const std::string&)) {
  if (e.kind != ast::ExprKind::Call) return true;
  return !bound(fn, e.callee->name) && builtins_global(fn, *e.argument->elements[0], bound) &&
         builtins_global(fn, *e.argument->elements[1], bound);
}

}  // namespace

void Compiler::note_inlinable(const ast::Equation& eq, const LambdaCode* code) {
  inlinable_.erase(eq.name);
  if (!eq.param || !eq.body || inlinable_.size() >= kMaxInlinable) return;
  Inlinable f;
  if (eq.param->kind == ast::PatternKind::Bind) {
    f.params.push_back(eq.param->name);
  } else if (eq.param->kind == ast::PatternKind::Tuple) {
    for (const auto& p : eq.param->elements) {
      if (p->kind != ast::PatternKind::Bind || is_param(f.params, p->name)) return;
      f.params.push_back(p->name);
    }
  } else {
    return;
  }
  int budget = kMaxBodyNodes;
  if (!operations(*eq.body, &f.params, budget)) return;
  f.body = copy(*eq.body);
  f.code = code;
  inlinable_.emplace(eq.name, std::move(f));
}

bool Compiler::inline_call(Fn& fn, const ast::Expr& e, uint32_t dst, Labels& done) {
  if (e.callee->kind != ast::ExprKind::Var || !e.argument) return false;
  auto it = inlinable_.find(e.callee->name);
  if (it == inlinable_.end() || bound_locally(fn, e.callee->name)) return false;
  const Inlinable& f = it->second;
  std::vector<const ast::Expr*> args;
  if (f.params.size() == 1) {
    args.push_back(e.argument.get());
  } else if (e.argument->kind == ast::ExprKind::Tuple && e.argument->elements.size() == f.params.size()) {
    for (const auto& x : e.argument->elements) args.push_back(x.get());
  } else {
    return false;  // a tuple taken apart by the parameters: left to the call
  }
  for (const ast::Expr* x : args) {
    int budget = kMaxArgumentNodes;
    if (!operations(*x, nullptr, budget)) return false;
  }
  if (!builtins_global(fn, *f.body, &bound_locally)) return false;

  const uint32_t g = global_read(fn, e.callee->name, e.callee->loc);
  const auto k = uint32_t(fn.proto->inlined.size());
  fn.proto->inlined.push_back(f.code);
  const Labels guard{emit(fn, Op::JNCODE, e.loc, g, k)};
  {
    // As LET (params) = (args) IN body: each argument in a register of its
    // own, named by its parameter only once all are computed.
    ScopeGuard scope(fn);
    Binders b;
    for (size_t i = 0; i < args.size(); ++i) {
      if (args[i]->kind == ast::ExprKind::Var) {  // a variable in a register: read where it is
        const Resolved v = resolve(fn, args[i]->name);
        if (v.kind == Resolved::Kind::Reg) {
          bind_name(fn, f.params[i], v.index, false, e.loc, b);
          continue;
        }
      }
      const uint32_t r = alloc(fn, 1, e.loc);
      expr(fn, *args[i], r);
      bind_name(fn, f.params[i], r, true, e.loc, b);
    }
    publish(fn, b);
    expr(fn, *f.body, dst);
  }
  done.push_back(emit(fn, Op::JMP, e.loc));
  patch(fn, guard, here(fn));
  return true;
}

}  // namespace humus::compile::codegen
