// IF, CASE and LET ... IN, tails, statements and blocks: the code that
// branches, and the code that ends a frame.
#include "interpreter/compile/compiler_impl.hpp"

#include <algorithm>
#include <functional>

#include "interpreter/engine/fast_builtins.hpp"

namespace humus::compile::codegen {

// The one walk (Dest): LET ... IN, IF and CASE are taken apart here for
// every destination; anything else is a leaf, compiled for its kind of
// destination.
void Compiler::into(Fn& fn, const ast::Expr& e, Dest d) {
  switch (e.kind) {
    case ast::ExprKind::LetIn:
      let_in(fn, e, d);
      return;
    case ast::ExprKind::If:
    case ast::ExprKind::Case:
      branches(fn, e, d);
      return;
    default:
      break;
  }
  switch (d.kind) {
    case Dest::Kind::Reg:
      expr_value(fn, e, d.reg);
      return;
    case Dest::Kind::Return:
      expr_tail(fn, e, d.mode);
      return;
    case Dest::Kind::Stmt:
      expr_stmt(fn, e, d.ends);
      return;
  }
}

// LET eq IN body: the body in the scope of eq's names.
void Compiler::let_in(Fn& fn, const ast::Expr& e, Dest d) {
  ScopeGuard scope(fn);
  Labels fails;
  Binders b;
  equation(fn, *e.equation, fails, b);
  publish(fn, b);
  let_fail(fn, fails, e.loc);
  into(fn, *e.body, d.inner());
}

// A LET's equation that does not hold stops the run (LETFAIL); one that
// holds jumps over that.
void Compiler::let_fail(Fn& fn, const Labels& fails, ast::Loc l) {
  if (fails.empty()) return;
  Labels done{emit(fn, Op::JMP, l)};
  patch(fn, fails, here(fn));
  emit(fn, Op::LETFAIL, l);
  patch(fn, done, here(fn));
}

// IF or CASE: each branch's body (and an IF's ELSE) goes to d. When code
// follows (!d.ends), each branch but an ELSE ends with a jump to it; when
// none does, a CASE may take its subject apart (case_of's `last`).
void Compiler::branches(Fn& fn, const ast::Expr& e, Dest d) {
  Labels end;
  auto arm = [&](const ast::Expr& x) {
    into(fn, x, d.inner());
    if (!d.ends) end.push_back(emit(fn, Op::JMP, x.loc));
  };
  auto none = [&] { no_branch(fn, e, d); };
  if (e.kind == ast::ExprKind::Case) {
    case_of(fn, e, arm, none, d.ends);
    patch(fn, end, here(fn));
    return;
  }
  for (const auto& br : e.branches) {
    ScopeGuard scope(fn);
    Labels fails;
    Binders b;
    warn_rebinding(fn, br.condition);
    equation(fn, br.condition, fails, b);
    publish(fn, b);
    arm(*br.body);
    patch(fn, fails, here(fn));
  }
  if (e.body)
    into(fn, *e.body, d.inner());
  else
    none();
  patch(fn, end, here(fn));
}

void Compiler::no_branch(Fn& fn, const ast::Expr& e, Dest d) {
  switch (d.kind) {
    case Dest::Kind::Reg:
      emit(fn, Op::LOADK, e.loc, d.reg, constant_index(fn, Value::undefined()));
      return;
    case Dest::Kind::Return:
      finish(fn, d.mode, e.loc);
      return;
    case Dest::Kind::Stmt:
      // No CASE arm matched: the value a program dispatches on was not one
      // it handles (docs/language.md, "Handled messages"). No IF branch
      // taken: when the IF is all its block does, the block (an arm's, a
      // behavior's) did nothing with its message.
      if (e.kind == ast::ExprKind::Case)
        emit(fn, Op::NOMATCH, e.loc);
      else if (d.lone)
        emit(fn, Op::NOMATCH, e.loc, 0, 0, 0, 1);
      if (d.ends) emit(fn, Op::END, e.loc);
      return;
  }
}

// CASE subject OF alternatives END: each alternative's pattern is matched
// in turn (arm() compiles a body; none() what follows when nothing
// matched). When it starts with three or more tuple patterns tagged by a
// one-word literal, `(#get, cust)`, `(#put, v)`, ..., the subject's head is
// looked up once (TAGSWITCH) and matching starts at the first alternative
// with that tag, past all the others (which could not match).
// `last`: nothing runs after the CASE (it is a tail), so an alternative
// that no longer needs the subject may take its pair apart (consumable).
void Compiler::case_of(Fn& fn, const ast::Expr& e, const Arm& arm, const std::function<void()>& none, bool last) {
  if (spreads(e)) {
    case_of_tuple(fn, e, arm, none);
    return;
  }
  ScopeGuard outer(fn);
  Operand subj = operand(fn, *e.body);
  const auto& alts = e.alternatives;
  auto tag_of = [&](const ast::Pattern& p, Value& tag) {
    if (p.kind != ast::PatternKind::Tuple || p.elements.front()->kind != ast::PatternKind::Const) return false;
    tag = unpinned_constant(p.elements.front()->constant);
    return !tag.is_object();
  };
  size_t run = 0;
  for (Value tag; run < alts.size() && tag_of(*alts[run].pattern, tag);) ++run;
  uint32_t table = 0, at = 0;
  if (run >= 3) {
    // Matching a tagged tuple begins with JNTAG (see match), which the switch
    // has done: it jumps to the instruction after.
    table = uint32_t(fn.proto->switches.size());
    fn.proto->switches.emplace_back();
    at = emit(fn, Op::TAGSWITCH, e.loc, subj.reg, table);
  }
  // Two or more alternatives in a row that begin `(name, #tag, ...)` (an
  // actor's messages with the customer first) share one taking apart of the
  // subject: its head and tail go to two registers once, each alternative
  // names the head as it likes and tests its tag on the tail.
  auto shares_head = [&](const ast::Pattern& p) {
    if (p.kind != ast::PatternKind::Tuple || p.elements.size() < 2) return false;
    const ast::Pattern& h = *p.elements[0];
    const ast::Pattern& t = *p.elements[1];
    return (h.kind == ast::PatternKind::Bind || h.kind == ast::PatternKind::Wildcard) &&
           t.kind == ast::PatternKind::Const && !unpinned_constant(t.constant).is_object();
  };
  size_t shared_end = 0;  // one past the last alternative of the current shared run
  uint32_t shared = 0;    // its head's register; the tail's is the next
  Labels not_pair;        // the run's UNPAIRJ: to the first alternative after the run
  std::vector<uint32_t> starts;
  for (size_t k = 0; k < alts.size(); ++k) {
    const ast::CaseAlt& a = alts[k];
    starts.push_back(here(fn));
    if (k == shared_end) {
      patch(fn, not_pair, here(fn));
      not_pair.clear();
    }
    if (k >= shared_end && shares_head(*a.pattern)) {
      size_t end = k + 1;
      while (end < alts.size() && shares_head(*alts[end].pattern)) ++end;
      if (end - k >= 2) {
        shared_end = end;
        shared = alloc(fn, 2, a.pattern->loc);
        not_pair.push_back(emit(fn, Op::UNPAIRJ, a.pattern->loc, subj.reg, shared));
      }
    }
    warn_rebinding(fn, *a.pattern);
    ScopeGuard scope(fn);
    check_unique(*a.pattern);
    Labels fails;
    Binders b;
    const uint32_t first = here(fn);
    if (k < shared_end) {
      // The head and tail are the run's: copied from, never taken over.
      const ast::Pattern& p = *a.pattern;
      match(fn, *p.elements[0], shared, false, fails, b);
      if (p.elements.size() == 2)
        match(fn, *p.elements[1], shared + 1, false, fails, b);
      else
        match_tuple(fn, p, 1, shared + 1, fails, b);
      publish(fn, b);
      arm(*a.body);
      patch(fn, fails, here(fn));
      continue;
    }
    // Asked before the pattern's names are in scope: a body name that a
    // pattern name would shadow counts as reading the subject (no harm).
    const bool consume = last && !subj.temp && consumable(fn, a, *e.body);
    if (consume && a.pattern->elements[1]->kind == ast::PatternKind::Bind) {
      match_consumed(fn, *a.pattern, subj.reg, fails, b);
      publish(fn, b);
    } else {
      match(fn, *a.pattern, subj.reg, false, fails, b);
      publish(fn, b);
      if (consume)
        for (uint32_t i = first; i < here(fn); ++i) {
          Instr& in = fn.proto->code[i];
          if ((in.op == Op::UNPAIR || in.op == Op::UNPAIRJ || in.op == Op::TAIL) && in.a == subj.reg) {
            in.x = 1;  // the first taking apart of the subject: the last look at it
            break;
          }
        }
    }
    arm(*a.body);
    patch(fn, fails, here(fn));
  }
  starts.push_back(here(fn));
  patch(fn, not_pair, here(fn));  // a run that ends the CASE
  none();
  if (run >= 3) {
    TagSwitch& sw = fn.proto->switches[table];
    for (size_t i = 0; i < run; ++i) {
      Value tag;
      tag_of(*alts[i].pattern, tag);
      auto it = std::find_if(sw.cases.begin(), sw.cases.end(), [&](const auto& c) { return c.first == tag.bits(); });
      // The first alternative with that tag, past its own test of the tag.
      if (it == sw.cases.end()) sw.cases.emplace_back(tag.bits(), starts[i] + 1);
    }
    sw.otherwise = starts[run];
    sw.plan();
    fn.proto->code[at].c = relative(fn, at, starts[run]);
  }
}

// CASE (x, y) OF ((a, x'), (b, y')) : ... END, every alternative a tuple
// of as many parts as the subject (or _): the subject is never made. Its
// parts are computed into registers and each alternative matches part i
// against pattern i, as matching the tuple would after taking it apart.
// (A pair made and taken apart per turn was most of a loop such as
// recmatmul's `dot` over two lists; Erlang's compiler does the same.)
bool Compiler::spreads(const ast::Expr& e) {
  const ast::Expr& subject = *e.body;
  Value folded;
  if (subject.kind != ast::ExprKind::Tuple || subject.elements.size() < 2 || fold(subject, folded)) return false;
  bool tuples = false;
  for (const auto& a : e.alternatives) {
    const ast::Pattern& p = *a.pattern;
    if (p.kind == ast::PatternKind::Tuple && p.elements.size() == subject.elements.size())
      tuples = true;
    else if (p.kind != ast::PatternKind::Wildcard)
      return false;  // a name or $value for the whole tuple, or another shape: made as usual
  }
  return tuples;
}

void Compiler::case_of_tuple(Fn& fn, const ast::Expr& e, const Arm& arm, const std::function<void()>& none) {
  ScopeGuard outer(fn);
  const auto& parts = e.body->elements;
  // Every part before any matching, as the tuple would be made.
  std::vector<uint32_t> regs;
  for (const auto& x : parts) regs.push_back(operand(fn, *x).reg);
  for (const ast::CaseAlt& a : e.alternatives) {
    warn_rebinding(fn, *a.pattern);
    ScopeGuard scope(fn);
    check_unique(*a.pattern);
    Labels fails;
    Binders b;
    // Not owned: the next alternative looks at the same registers.
    if (a.pattern->kind == ast::PatternKind::Tuple)
      for (size_t i = 0; i < parts.size(); ++i) match(fn, *a.pattern->elements[i], regs[i], false, fails, b);
    publish(fn, b);
    arm(*a.body);
    patch(fn, fails, here(fn));
  }
  none();
}

// Whether an alternative may take the subject's pair apart for good: its
// pattern is two parts that cannot fail once the pair is taken apart (a
// name or _ for the rest; a name, _ or a tag for the first), and its body
// does not read the subject's register (under any name).
bool Compiler::consumable(Fn& fn, const ast::CaseAlt& a, const ast::Expr& subject) {
  const ast::Pattern& p = *a.pattern;
  if (p.kind != ast::PatternKind::Tuple || p.elements.size() != 2) return false;
  auto plain = [](const ast::Pattern& q) {
    return q.kind == ast::PatternKind::Bind || q.kind == ast::PatternKind::Wildcard;
  };
  const ast::Pattern& h = *p.elements[0];
  if (!plain(*p.elements[1]) ||
      !(plain(h) || (h.kind == ast::PatternKind::Const && !unpinned_constant(h.constant).is_object())))
    return false;
  if (subject.kind != ast::ExprKind::Var) return false;
  auto saved = std::move(fn.reads);
  fn.reads.clear();
  const Resolved subj = resolve(fn, subject.name);
  bool used = false;
  for (const auto& name : free_names(*a.body)) {
    Resolved r = resolve(fn, name);
    used = used || (r.kind == Resolved::Kind::Reg && r.index == subj.index);
  }
  fn.reads = std::move(saved);
  return subj.kind == Resolved::Kind::Reg && !used;
}

// ------------------------------------------- tails, statements, blocks

void Compiler::finish(Fn& fn, Mode mode, ast::Loc l) {
  switch (mode) {
    case Mode::Value:
      emit(fn, Op::RETK, l, 0, constant_index(fn, Value::undefined()));
      return;
    case Mode::Stmt:
      emit(fn, Op::END, l);
      return;
    case Mode::Behavior:
      emit(fn, Op::UNHANDLED, l);
      return;
  }
}

// A tuple whose last element is a call, or a tuple that ends so: `(a, (b,
// f(x)))` is two HOLEs, then the call. Not a call of a built-in computed in
// place, nor of a small function whose body is compiled at the call
// (compile_inline.cpp): neither has a frame to save, nor can recurse.
bool Compiler::ends_in_call(const Fn& fn, const ast::Expr& tuple) const {
  const size_t n = tuple.elements.size();
  if (n < 2 || n > 4096) return false;
  const ast::Expr& last = *tuple.elements[n - 1];
  if (last.kind == ast::ExprKind::Tuple) return ends_in_call(fn, last);
  if (last.kind != ast::ExprKind::Call) return false;
  if (last.callee->kind != ast::ExprKind::Var) return true;
  const std::string& name = last.callee->name;
  return !engine::fast_builtin(name) && !(inlinable_.count(name) && !bound_locally(fn, name));
}

// The last word of a function body, in each mode (proto.hpp): the code ends here.
void Compiler::expr_tail(Fn& fn, const ast::Expr& e, Mode mode) {
  switch (e.kind) {
    case ast::ExprKind::Call:
      if (mode == Mode::Behavior) break;  // a behavior's result is a value to check
      call(fn, e, mode == Mode::Value ? CallAs::Tail : CallAs::StmtTail, 0, 1);
      return;
    case ast::ExprKind::Block:
      if (mode == Mode::Value) break;
      {
        ScopeGuard scope(fn);
        block_body(fn, e.stmts, true, e.loc);
      }
      return;
    case ast::ExprKind::Const:
      if (mode == Mode::Value) {
        emit(fn, Op::RETK, e.loc, 0, constant_index(fn, constant(e.constant)));
        return;
      }
      break;
    case ast::ExprKind::Tuple:
      if (mode == Mode::Value && ends_in_call(fn, e)) {
        // (x, f(y)): the tuple is made first, open at its end (HOLE), and
        // the call is a tail call whose value fills it. A recursion that
        // builds a list this way (`(x, init(rest))`) runs as a loop.
        const size_t n = e.elements.size() - 1;
        {
          TempGuard temps(fn);
          if (n == 1) {  // one part: read where it is, as PAIR does (x: 1 = move it)
            const Operand part = operand(fn, *e.elements[0]);
            emit(fn, Op::HOLE, e.loc, part.reg, 1, 0, part.temp ? 1 : 0);
          } else {
            const uint32_t base = alloc(fn, uint32_t(n), e.loc);
            for (size_t i = 0; i < n; ++i) expr(fn, *e.elements[i], base + uint32_t(i));
            emit(fn, Op::HOLE, e.loc, base, uint32_t(n), 0, 1);
          }
        }
        expr_tail(fn, *e.elements[n], mode);
        return;
      }
      break;
    default:
      break;
  }
  TempGuard temps(fn);
  Operand v = operand(fn, e);
  switch (mode) {
    case Mode::Value:
      emit(fn, Op::RET, e.loc, v.reg);
      return;
    case Mode::Stmt:
      emit(fn, Op::TAILEXEC, e.loc, v.reg, 0, 0, 1);
      return;
    case Mode::Behavior:
      emit(fn, Op::BEHEXEC, e.loc, v.reg);
      return;
  }
}

// An expression in statement position (a block's statement, or a branch of
// one): a block runs in place, a call runs its callee's body as a
// statement, anything else is run as a statement's value. `ends`: the code
// ends here.
void Compiler::expr_stmt(Fn& fn, const ast::Expr& e, bool ends) {
  switch (e.kind) {
    case ast::ExprKind::Block: {
      ScopeGuard scope(fn);
      block_body(fn, e.stmts, ends, e.loc);
      return;
    }
    case ast::ExprKind::Call:
      call(fn, e, ends ? CallAs::StmtTail : CallAs::Stmt, 0, 0);
      return;
    default: {
      warn_not_a_block(e);
      // A block that runs here (EXEC) gets a frame right above it: the
      // value goes into the topmost register.
      TempGuard temps(fn);
      if (ends) {
        Operand v = operand(fn, e);
        emit(fn, Op::TAILEXEC, e.loc, v.reg);
      } else {
        const uint32_t t = alloc(fn, 1, e.loc);
        expr(fn, e, t);
        emit(fn, Op::EXEC, e.loc, t);
      }
      return;
    }
  }
}

// The statements of a block, in the order of LANGUAGE.md §7 (dataflow.hpp):
// every name of the block gets its register first, every CREATEd actor is
// made, bindings run in dependency order, then the effects in source order.
void Compiler::block_body(Fn& fn, const std::vector<ast::StmtPtr>& stmts, bool is_tail, ast::Loc l) {
  const BlockPlan plan = plan_block(stmts);
  Scope& scope = *fn.scopes.back();
  for (const auto& s : stmts)
    for (const auto& [name, loc] : statement_binders(*s)) scope.regs[name] = alloc(fn, 1, loc);

  for (size_t i : plan.creates) new_actor(fn, *stmts[i], scope.regs.at(stmts[i]->name));

  for (const auto& grp : plan.bindings) {
    const ast::Stmt& first = *stmts[grp.front()];
    if (grp.size() > 1) {
      std::vector<FunctionBinding> fbs(grp.size());
      std::vector<uint32_t> regs;
      for (size_t k = 0; k < grp.size(); ++k) {
        as_function_binding(*stmts[grp[k]], fbs[k]);
        regs.push_back(scope.regs.at(*fbs[k].name));
      }
      group(fn, fbs, regs, first.loc);
      continue;
    }
    TempGuard temps(fn);
    if (first.kind == ast::StmtKind::Create) {
      warn_behavior_factory(fn, *first.value);
      Operand beh = operand(fn, *first.value);
      emit(fn, Op::SETBEH, first.loc, scope.regs.at(first.name), beh.reg);
      continue;
    }
    FunctionBinding fb;
    if (as_function_binding(first, fb)) {
      std::unordered_map<std::string, Special> specials{{*fb.name, {CaptureSource::Kind::SelfFn}}};
      LambdaCode* code = named(lambda(fn, *fb.param, *fb.body, fb.loc, std::move(specials)), *fb.name, *fb.body);
      emit_closure(fn, code, scope.regs.at(*fb.name), fb.loc);
      continue;
    }
    Labels fails;
    Binders b;
    b.preset = &scope.regs;
    equation(fn, *first.equation, fails, b);
    let_fail(fn, fails, first.loc);
  }

  bool ended = false;
  for (size_t k = 0; k < plan.effects.size(); ++k)
    ended = effect(fn, *stmts[plan.effects[k]], is_tail && k + 1 == plan.effects.size(), stmts.size() == 1);
  if (is_tail && !ended) emit(fn, Op::END, l);
}

bool Compiler::effect(Fn& fn, const ast::Stmt& s, bool is_tail, bool lone) {
  TempGuard temps(fn);
  switch (s.kind) {
    case ast::StmtKind::Send: {
      Operand m = operand(fn, *s.value);
      Operand t = operand(fn, *s.target);
      emit(fn, Op::SEND, s.loc, m.reg, t.reg, 0, m.temp ? 1 : 0);
      return false;
    }
    case ast::StmtKind::After: {
      Operand d = operand(fn, *s.delay);
      Operand m = operand(fn, *s.value);
      Operand t = operand(fn, *s.target);
      emit(fn, Op::AFTER, s.loc, d.reg, m.reg, t.reg);
      return false;
    }
    case ast::StmtKind::Become: {
      check_not_top(fn, s.loc, "BECOME");
      const ast::Expr& v = *s.value;
      warn_behavior_factory(fn, v);
      if (v.kind == ast::ExprKind::Call) {
        // BECOME f(args): a behavior factory's captures go pending (vm.cpp,
        // BECOMEF, which then skips the CALL and the BECOME); anything else
        // is called, and its result becomes the behavior.
        auto [a, n] = setup_call(fn, v, false, kNoReg);
        emit(fn, Op::BECOMEF, s.loc, a, n);
        emit(fn, Op::CALL, v.loc, a, n);
        emit(fn, Op::BECOME, s.loc, a);
        return false;
      }
      Operand b = operand(fn, v);
      emit(fn, Op::BECOME, s.loc, b.reg);
      return false;
    }
    case ast::StmtKind::Throw: {
      Operand v = operand(fn, *s.value);
      emit(fn, Op::THROW, s.loc, v.reg);
      return false;
    }
    case ast::StmtKind::Expr:
      into(fn, *s.value, Dest::statement(is_tail, lone));
      return is_tail;
    case ast::StmtKind::Import:
      error(s.loc, "IMPORT can only be used at top level");
    case ast::StmtKind::Let:
    case ast::StmtKind::Create:
      break;
  }
  error(s.loc, "internal error: not an effect statement");
}

}  // namespace humus::compile::codegen
