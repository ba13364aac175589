// The compiler's warnings: a pattern that rebinds a name, a call with the
// wrong number of arguments (judged once every DEF is known), a statement that does nothing.
#include "interpreter/compile/compiler_impl.hpp"

#include <set>
#include <tuple>

namespace humus::compile::codegen {

void Compiler::warn_rebinding(const Fn& fn, const ast::Pattern& p) {
  for (const auto& [name, loc] : pattern_binders(p))
    if (bound_locally(fn, name))
      warn(loc,
           "this pattern binds a new '" + name + "', which matches anything; did you mean '$" + name +
               "' (the value of the '" + name + "' already bound)? [--no-warn=shadow]",
           "shadow");
}

void Compiler::warn_arity(const Fn& fn, const ast::Expr& e) {
  if (!e.callee || e.callee->kind != ast::ExprKind::Var || !e.argument) return;
  size_t given;
  if (e.argument->kind == ast::ExprKind::Tuple)
    given = e.argument->elements.size();
  else if (e.argument->kind == ast::ExprKind::Const && e.argument->constant.kind == ast::Constant::Kind::List)
    given = e.argument->constant.list->size();  // f(1, 2, ..., 40): packed
  else
    return;
  if (bound_locally(fn, e.callee->name) || !arity_noted_.insert(&e).second) return;
  auto [it, fresh] = arity_ids_.emplace(e.callee->name, uint32_t(arity_names_.size()));
  if (fresh) arity_names_.push_back(&it->first);
  pending_arity_.push_back({it->second, uint32_t(given), e.loc, warnings.size()});
}

void Compiler::warn_behavior_factory(const Fn& fn, const ast::Expr& e) {
  if (e.kind != ast::ExprKind::Var || bound_locally(fn, e.name) || !arity_noted_.insert(&e).second) return;
  auto [it, fresh] = arity_ids_.emplace(e.name, uint32_t(arity_names_.size()));
  if (fresh) arity_names_.push_back(&it->first);
  pending_arity_.push_back({it->second, kAsBehavior, e.loc, warnings.size()});
}

void Compiler::note_definitions(const ast::Stmt& s) {
  if (s.kind == ast::StmtKind::Create) {
    ++defined_[s.name];
    known_arity_[s.name] = kArityUnknown;
  }
  if (s.kind != ast::StmtKind::Let || !s.equation) return;
  const ast::Equation& eq = *s.equation;
  if (eq.kind == ast::Equation::Kind::FunctionDef) {
    if (++defined_[eq.name] == 1 && eq.param->kind == ast::PatternKind::Tuple)
      def_arity_[eq.name] = eq.param->elements.size();
    if (eq.body && eq.body->kind == ast::ExprKind::Lambda) behavior_factories_.insert(eq.name);
    const uint32_t arity = spread_arity(*eq.param);
    auto [it, fresh] = known_arity_.emplace(eq.name, arity);
    if (!fresh && it->second != arity) it->second = kArityUnknown;
  } else if (eq.lhs) {
    for (const auto& [name, loc] : pattern_binders(*eq.lhs)) {
      ++defined_[name];
      known_arity_[name] = kArityUnknown;
    }
  }
}

void Compiler::finish_arity() {
  std::vector<CompileWarning> out;
  out.reserve(warnings.size());
  std::set<std::tuple<uint32_t, uint32_t, std::string>> said;  // (line, column, message) of each arity warning
  size_t next = 0;  // in pending_arity_, which is in the order noted (`at` ascending)
  auto place = [&](size_t upto) {
    for (; next < pending_arity_.size() && pending_arity_[next].at <= upto; ++next) {
      const PendingArity& p = pending_arity_[next];
      const std::string& name = *arity_names_[p.name];
      if (p.given == kAsBehavior) {
        // Each message would be its argument, and the result a function, not a block.
        if (!behavior_factories_.count(name) || defined_.at(name) != 1) continue;
        auto n = def_arity_.find(name);
        const size_t wanted = n == def_arity_.end() ? 1 : n->second;
        std::string args = "...";
        for (size_t k = 1; k < wanted; ++k) args += ", ...";
        out.push_back({p.loc,
                       "'" + name + "' needs " + std::to_string(wanted) + (wanted == 1 ? " argument" : " arguments") +
                           " to make a behavior: write " + name + "(" + args + ") here [--no-warn=arity]",
                       "arity"});
        continue;
      }
      auto it = def_arity_.find(name);
      if (it == def_arity_.end() || defined_.at(name) != 1) continue;  // not a function of this unit, or defined twice
      const size_t given = p.given, wanted = it->second;
      if (given == wanted) continue;
      std::string message = "'" + name + "' takes " + std::to_string(wanted) + " arguments, but this call gives " +
                            std::to_string(given) +
                            (given < wanted ? "; the call will not match its parameters and gives ?"
                                            : "; the last parameter will get a tuple of the rest") +
                            " [--no-warn=arity]";
      if (said.emplace(p.loc.line, p.loc.column, message).second) out.push_back({p.loc, std::move(message), "arity"});
    }
  };
  for (size_t i = 0; i < warnings.size(); ++i) {
    place(i);
    out.push_back(std::move(warnings[i]));
  }
  place(SIZE_MAX);
  warnings = std::move(out);
  pending_arity_.clear();
}

// A statement that is a value no run can make a block of (a literal, a
// tuple, a function, an actor): it does nothing, said before the run. A
// symbol is most often a comment written without its space.
void Compiler::warn_not_a_block(const ast::Expr& e) {
  using K = ast::ExprKind;
  const bool constant = e.kind == K::Const && e.constant.kind != ast::Constant::Kind::Undefined;
  if (!constant && e.kind != K::Tuple && e.kind != K::Lambda && e.kind != K::New && e.kind != K::Self &&
      e.kind != K::Now)
    return;
  std::string message = "this statement's value is not a block, so it does nothing";
  if (e.kind == K::Const && e.constant.kind == ast::Constant::Kind::Symbol)
    message += "; a comment starts with '#' and a space: '#" + e.constant.text + "' is a symbol";
  warn(e.loc, std::move(message));
}

}  // namespace humus::compile::codegen
