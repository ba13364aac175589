// Patterns and equations: matching a value, binding names, and unifying
// the two sides of `l = r`.
#include "interpreter/compile/compiler_impl.hpp"

#include <algorithm>

#include "interpreter/engine/fast_builtins.hpp"

namespace humus::compile::codegen {

void Compiler::bind_name(Fn& fn, const std::string& name, uint32_t src, bool owned, ast::Loc l, Binders& b) {
  if (b.preset) {
    const uint32_t slot = b.preset->at(name);
    emit(fn, Op::MOVE, l, slot, src, owned ? 1 : 0);
    return;
  }
  // A fresh name takes the register its value is in: registers of names
  // and of a pattern's parts are written once, so it stays valid.
  b.bound.emplace_back(name, src);
}

// Matches the value in register `src` against `p`, jumping to one of
// `fails` when it does not match. `owned`: src is this match's own
// register (a part of a tuple), which a name may take over.
void Compiler::match(Fn& fn, const ast::Pattern& p, uint32_t src, bool owned, Labels& fails, Binders& b) {
  switch (p.kind) {
    case ast::PatternKind::Wildcard:
      return;
    case ast::PatternKind::Bind:
      bind_name(fn, p.name, src, owned, p.loc, b);
      return;
    case ast::PatternKind::Const: {
      Value v = constant(p.constant);
      fails.push_back(emit(fn, v.is_object() ? Op::JNEQK : Op::JNWORD, p.loc, src, constant_index(fn, v)));
      return;
    }
    case ast::PatternKind::Value: {
      TempGuard temps(fn);
      Operand t = operand(fn, *p.value);
      fails.push_back(emit(fn, Op::JNEQ, p.loc, src, t.reg));
      return;
    }
    case ast::PatternKind::Self:
      check_not_top(fn, p.loc, "SELF");
      fails.push_back(emit(fn, Op::JNSELF, p.loc, src));
      return;
    case ast::PatternKind::Tuple:
      match_tuple(fn, p, 0, src, fails, b);
      return;
  }
}

void Compiler::match_tuple(Fn& fn, const ast::Pattern& p, size_t from, uint32_t src, Labels& fails, Binders& b) {
  // p1, ..., pn: the spine is taken apart into n consecutive registers, part
  // i in register r+i, each matched in turn; the last part is the rest.
  const auto n = uint32_t(p.elements.size() - from);
  const uint32_t r = alloc(fn, n, p.loc);
  uint32_t cur = src;
  for (uint32_t i = 0; i + 1 < n; ++i) {
    const ast::Pattern& part = *p.elements[from + i];
    const bool tagged = part.kind == ast::PatternKind::Const && !unpinned_constant(part.constant).is_object();
    if (tagged) {
      // The head is the tag JNTAG tested: only the tail is taken (register
      // r+i stays empty, or loses the spine it held).
      fails.push_back(emit(fn, Op::JNTAG, part.loc, cur, constant_index(fn, unpinned_constant(part.constant))));
      emit(fn, Op::TAIL, part.loc, cur, r + i + 1, 0, cur == src ? 0 : 1);
    } else {
      fails.push_back(emit(fn, Op::UNPAIRJ, part.loc, cur, r + i));
    }
    if (!tagged) match(fn, part, r + i, true, fails, b);
    cur = r + i + 1;
  }
  match(fn, *p.elements[from + n - 1], r + n - 1, true, fails, b);
}

// (h, t) against a subject the alternative takes apart for good
// (consumable): the head goes to a register of its own (a tag needs none:
// JNTAG tested it, and TAIL takes the tail alone) and the tail replaces
// the pair in the subject's register (UNPAIR x=3), which t then names. A loop over a list passes its tail on in the
// parameter's own register, with no MOVE. Registers of names are otherwise written once; this one may be written again
// because nothing reads the subject after.
void Compiler::match_consumed(Fn& fn, const ast::Pattern& p, uint32_t src, Labels& fails, Binders& b) {
  const ast::Pattern& head = *p.elements[0];
  const ast::Pattern& rest = *p.elements[1];
  if (head.kind == ast::PatternKind::Const) {  // a tag (consumable allows no other constant): no register
    fails.push_back(emit(fn, Op::JNTAG, head.loc, src, constant_index(fn, unpinned_constant(head.constant))));
    emit(fn, Op::TAIL, head.loc, src, src, 0, 1);
  } else {
    const uint32_t r = alloc(fn, 1, p.loc);
    fails.push_back(emit(fn, Op::UNPAIRJ, head.loc, src, r, 0, 3));
    match(fn, head, r, true, fails, b);
  }
  bind_name(fn, rest.name, src, true, rest.loc, b);
}

bool Compiler::binds(const ast::Pattern& p) { return !pattern_binders(p).empty(); }

// Whether a pattern can give a value: constants, $terms, SELF and tuples of them.
bool Compiler::gives_value(const ast::Pattern& p) {
  switch (p.kind) {
    case ast::PatternKind::Const:
    case ast::PatternKind::Value:
    case ast::PatternKind::Self:
      return true;
    case ast::PatternKind::Tuple:
      return std::all_of(p.elements.begin(), p.elements.end(), [](const auto& e) { return gives_value(*e); });
    default:
      return false;
  }
}

void Compiler::pattern_value(Fn& fn, const ast::Pattern& p, uint32_t dst) {
  switch (p.kind) {
    case ast::PatternKind::Const:
      emit(fn, Op::LOADK, p.loc, dst, constant_index(fn, constant(p.constant)));
      return;
    case ast::PatternKind::Value:
      expr(fn, *p.value, dst);
      return;
    case ast::PatternKind::Self:
      check_not_top(fn, p.loc, "SELF");
      emit(fn, Op::SELF, p.loc, dst);
      return;
    case ast::PatternKind::Tuple:
      tuple_value(fn, p, 0, dst);
      return;
    default:
      error(p.loc, "internal error: pattern gives no value");
  }
}

void Compiler::tuple_value(Fn& fn, const ast::Pattern& p, size_t from, uint32_t dst) {
  TempGuard temps(fn);
  const auto n = uint32_t(p.elements.size() - from);
  const uint32_t base = alloc(fn, n, p.loc);
  for (uint32_t i = 0; i < n; ++i) pattern_value(fn, *p.elements[from + i], base + i);
  if (n == 2)
    emit(fn, Op::PAIR, p.loc, dst, base, base + 1, 3);
  else
    emit(fn, Op::TUPLE, p.loc, dst, base, n);
}

Operand Compiler::pattern_operand(Fn& fn, const ast::Pattern& p) {
  if (p.kind == ast::PatternKind::Value) return operand(fn, *p.value);
  uint32_t t = alloc(fn, 1, p.loc);
  pattern_value(fn, p, t);
  return {t, true};
}

// `$less(a, b) = TRUE` and its kin: one compare-and-branch instruction.
bool Compiler::comparison_test(Fn& fn, const ast::Pattern& side, const ast::Pattern& other, Labels& fails) {
  if (other.kind != ast::PatternKind::Const || other.constant.kind != ast::Constant::Kind::True) return false;
  if (side.kind != ast::PatternKind::Value) return false;
  const ast::Expr& e = *side.value;
  if (e.kind != ast::ExprKind::Call || e.callee->kind != ast::ExprKind::Var || !e.argument ||
      e.argument->kind != ast::ExprKind::Tuple || e.argument->elements.size() != 2)
    return false;
  if (resolve(fn, e.callee->name).kind != Resolved::Kind::Global) return false;
  const engine::FastBuiltin* builtin = engine::fast_builtin(e.callee->name);
  if (!builtin || !builtin->test) return false;
  Value now = globals_.get(globals_.slot(e.callee->name));
  if (!now.is(rt::ObjKind::Native)) return false;  // bound to something else: an ordinary call
  TempGuard temps(fn);
  Operand a = operand(fn, *e.argument->elements[0]);
  const ast::Expr& y = *e.argument->elements[1];
  if (y.kind == ast::ExprKind::Const) {  // a literal second operand: read from the constants
    fails.push_back(emit(fn, *builtin->test, e.loc, a.reg, constant_index(fn, constant(y.constant)), 0, 1));
    return true;
  }
  Operand b = operand(fn, y);
  fails.push_back(emit(fn, *builtin->test, e.loc, a.reg, b.reg));
  return true;
}

// An equation of LET, IF or ELIF: code that binds its names, jumping to one
// of `fails` when it does not hold. Fresh names keep the registers they are
// matched in until the caller's scope closes; preset ones are copied to
// their registers and every temporary is given back.
void Compiler::equation(Fn& fn, const ast::Equation& eq, Labels& fails, Binders& b) {
  const uint32_t mark = fn.top;
  switch (eq.kind) {
    case ast::Equation::Kind::FunctionDef: {
      const uint32_t reg = b.preset ? b.preset->at(eq.name) : alloc(fn, 1, eq.loc);
      std::unordered_map<std::string, Special> specials{{eq.name, {CaptureSource::Kind::SelfFn}}};
      LambdaCode* code = named(lambda(fn, *eq.param, *eq.body, eq.loc, std::move(specials)), eq.name, *eq.body);
      emit_closure(fn, code, reg, eq.loc);
      if (!b.preset) b.bound.emplace_back(eq.name, reg);
      return;
    }
    case ast::Equation::Kind::PatternDef: {
      check_unique(*eq.lhs);
      Operand v = operand(fn, *eq.body);
      if (eq.lhs->kind == ast::PatternKind::Bind && eq.body->kind == ast::ExprKind::Lambda)  // DEF name AS \x...
        if (auto it = lambdas_.find(eq.body->body.get()); it != lambdas_.end() && it->second->name.empty())
          it->second->name = eq.lhs->name;
      match(fn, *eq.lhs, v.reg, v.temp, fails, b);
      if (b.preset) fn.top = mark;
      return;
    }
    case ast::Equation::Kind::Match:
      break;
  }
  check_unique(*eq.lhs, eq.rhs.get());
  unify(fn, Side{eq.lhs.get()}, Side{eq.rhs.get()}, eq.loc, fails, b);
  if (b.preset) fn.top = mark;
}

bool Compiler::binds(Side s) {
  if (!s.from) return binds(*s.p);
  for (size_t i = 0; i < s.count(); ++i)
    if (binds(*s.element(i).p)) return true;
  return false;
}

bool Compiler::gives_value(Side s) {
  if (!s.from) return gives_value(*s.p);
  for (size_t i = 0; i < s.count(); ++i)
    if (!gives_value(*s.element(i).p)) return false;
  return true;
}

void Compiler::side_value(Fn& fn, Side s, uint32_t dst) {
  if (s.from)
    tuple_value(fn, *s.p, s.from, dst);
  else
    pattern_value(fn, *s.p, dst);
}

Operand Compiler::side_operand(Fn& fn, Side s) {
  if (!s.from) return pattern_operand(fn, *s.p);
  const uint32_t t = alloc(fn, 1, s.loc());
  side_value(fn, s, t);
  return {t, true};
}

void Compiler::side_match(Fn& fn, Side s, uint32_t src, bool owned, Labels& fails, Binders& b) {
  if (s.from)
    match_tuple(fn, *s.p, s.from, src, fails, b);
  else
    match(fn, *s.p, src, owned, fails, b);
}

// `l = r`: when one side binds no names and gives a value, the other side is
// matched against that value; when neither binds, the two values are
// compared; when both bind, the two are unified position by position (as
// in humus_js and uFork: `a, 2, c = 1, b, 3, $(x, 5)`), and each position
// must have a side that gives the value.
void Compiler::unify(Fn& fn, Side l, Side r, ast::Loc loc, Labels& fails, Binders& b) {
  const bool lb = binds(l), rb = binds(r);
  if (!lb && !rb && gives_value(l) && gives_value(r)) {
    // An equality test.
    if (!l.from && !r.from && (comparison_test(fn, *l.p, *r.p, fails) || comparison_test(fn, *r.p, *l.p, fails)))
      return;
    TempGuard temps(fn);
    for (Side side : {r, l}) {
      if (side.from || side.p->kind != ast::PatternKind::Const) continue;
      Value v = unpinned_constant(side.p->constant);
      if (v.is_object()) continue;
      Operand o = side_operand(fn, side.p == r.p ? l : r);
      fails.push_back(emit(fn, Op::JNWORD, loc, o.reg, constant_index(fn, v)));
      return;
    }
    Operand a = side_operand(fn, r);
    Operand c = side_operand(fn, l);
    fails.push_back(emit(fn, Op::JNEQ, loc, c.reg, a.reg));
    return;
  }
  if (!rb && gives_value(r)) {
    Operand v = side_operand(fn, r);
    side_match(fn, l, v.reg, v.temp, fails, b);
    return;
  }
  if (!lb && gives_value(l)) {
    Operand v = side_operand(fn, l);
    side_match(fn, r, v.reg, v.temp, fails, b);
    return;
  }
  const size_t nl = l.count(), nr = r.count();
  if (nl >= 2 && nr >= 2) {
    const size_t k = std::min(nl, nr);
    for (size_t i = 0; i + 1 < k; ++i) unify(fn, l.element(i), r.element(i), loc, fails, b);
    unify(fn, l.rest(k - 1), r.rest(k - 1), loc, fails, b);
    return;
  }
  if (lb && rb)
    error(l.loc(), "both sides of '=' bind names here; one side must give the value (write $name to use a variable)");
  error(lb ? r.loc() : l.loc(), "one side of '=' must give a value here: constants and $terms, without '_'");
}

// A name bound twice in one pattern, or (given `other`, the equation's other
// side) on both sides of an equation, is an error.
void Compiler::check_unique(const ast::Pattern& p, const ast::Pattern* other) {
  std::unordered_map<std::string, ast::Loc> seen;
  for (const auto& [name, loc] : pattern_binders(p))
    if (!seen.emplace(name, loc).second) error(loc, "'" + name + "' is bound twice in this pattern");
  if (!other) return;
  check_unique(*other);
  for (const auto& [name, loc] : pattern_binders(*other))
    if (seen.count(name)) error(loc, "'" + name + "' is bound on both sides of this equation");
}

}  // namespace humus::compile::codegen
