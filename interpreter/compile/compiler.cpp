// The compiler's top level: emitting instructions, a top-level statement, and
// UnitCompiler (compiler.hpp); the rest is in compile_*.cpp (compiler_impl.hpp).
#include "interpreter/compile/compiler.hpp"

#include <algorithm>
#include <cassert>
#include <functional>
#include <memory>

#include "interpreter/compile/compiler_impl.hpp"
#include "interpreter/compile/drop_plan.hpp"
#include "interpreter/compile/last_use.hpp"
#include "interpreter/compile/superinstructions.hpp"

namespace humus::interp::codegen {

// Once a Proto's code is whole: last reads become moves, then each end of a
// frame learns which registers it must release, then pairs of moves are
// fused (superinstructions.cpp). Its tables then keep no
// spare capacity: a script of many small functions is mostly Protos.
void plan_registers(Proto& p) {
  plan_moves(p);
  plan_drops(p);
  fuse_instructions(p);
  p.code.shrink_to_fit();
  p.pos.shrink_to_fit();
  p.consts.shrink_to_fit();
  p.globals.shrink_to_fit();
  p.switches.shrink_to_fit();
  if (p.tables) {
    p.tables->closures.shrink_to_fit();
    p.tables->blocks.shrink_to_fit();
    p.tables->groups.shrink_to_fit();
    p.tables->siblings.shrink_to_fit();
  }
}

// ------------------------------------------------------------ emitting

uint32_t Compiler::emit(Fn& fn, Op op, ast::Loc l, uint32_t a, uint32_t b, uint32_t c, uint8_t x) {
  Proto& p = *fn.proto;
  if (p.code.size() >= kMaxOperand) {
    // At the function (or the statement's start), not wherever the count ran out.
    const ast::Loc at = fn.code ? ast::Loc{fn.code->loc.line, fn.code->loc.column}
                                : ast::Loc{p.pos.front().first, p.pos.front().second};
    error(at, "this function is too large to compile (more than 65535 instructions)");
  }
  if (a > kMaxOperand || b > kMaxOperand || c > kMaxOperand) error(l, "internal error: operand out of range");
  p.code.push_back(Instr{op, x, uint16_t(a), uint16_t(b), uint16_t(c)});
  p.pos.emplace_back(l.line, l.column);
  return uint32_t(p.code.size() - 1);
}

uint32_t Compiler::alloc(Fn& fn, uint32_t n, ast::Loc l) {
  const uint32_t r = fn.top;
  if (size_t(r) + n >= kMaxOperand) error(l, "this function needs too many registers (more than 65535)");
  fn.top += n;
  fn.proto->nregs = std::max(fn.proto->nregs, fn.top);
  return r;
}

uint32_t Compiler::constant_index(Fn& fn, const Value& v) {
  if (!v.is_object())
    if (auto it = fn.word_consts.find(v.bits()); it != fn.word_consts.end()) return it->second;
  auto i = uint32_t(fn.proto->consts.size());
  fn.proto->consts.push_back(v);
  if (!v.is_object()) fn.word_consts.emplace(v.bits(), i);
  return i;
}

// A read of global `name` at `l`, kept (once per name) for name checking.
uint32_t Compiler::global_read(Fn& fn, const std::string& name, ast::Loc l) {
  auto [it, fresh] = read_names_.emplace(name, global_reads.size());
  if (fresh) global_reads.push_back({name, l, false, {}});
  if (fn.top_level && !global_reads[it->second].immediate) {
    global_reads[it->second].immediate = true;
    global_reads[it->second].immediate_loc = l;
  }
  return global_index(fn, name);
}

// A global a top-level statement binds.
uint32_t Compiler::global_def(Fn& fn, const std::string& name) {
  global_defs.push_back(name);
  return global_index(fn, name);
}

uint32_t Compiler::global_index(Fn& fn, const std::string& name) {
  const uint32_t slot = rt_.globals().slot(name);
  if (auto it = fn.global_index.find(slot); it != fn.global_index.end()) return it->second;
  auto i = uint32_t(fn.proto->globals.size());
  fn.proto->globals.push_back({rt_.globals().cell_address(slot), slot});
  fn.global_index.emplace(slot, i);
  return i;
}

// ----------------------------------------------------------------- CASE

// CASE subject OF alternatives END: each alternative's pattern is matched
// in turn (arm() compiles a body; none() what follows when nothing
// matched). When it starts with three or more tuple patterns tagged by a
// one-word literal, `(#get, cust)`, `(#put, v)`, ..., the subject's head is
// looked up once (TAGSWITCH) and matching starts at the first alternative
// with that tag, past all the others (which could not match).
// `last`: nothing runs after the CASE (it is a tail), so an alternative
// that no longer needs the subject may take its pair apart (consumable).
void Compiler::case_of(Fn& fn, const ast::Expr& e, const std::function<void(const ast::Expr&)>& arm,
                       const std::function<void()>& none, bool last) {
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

// The last word of a function body, in each mode (proto.hpp): the code ends here.
void Compiler::tail(Fn& fn, const ast::Expr& e, Mode mode) {
  switch (e.kind) {
    case ast::ExprKind::LetIn: {
      ScopeGuard scope(fn);
      Labels fails;
      Binders b;
      equation(fn, *e.equation, fails, b);
      publish(fn, b);
      Labels done;
      if (!fails.empty()) {
        done.push_back(emit(fn, Op::JMP, e.loc));
        patch(fn, fails, here(fn));
        emit(fn, Op::LETFAIL, e.loc);
      }
      patch(fn, done, here(fn));
      tail(fn, *e.body, mode);
      return;
    }
    case ast::ExprKind::If:
      for (const auto& br : e.branches) {
        ScopeGuard scope(fn);
        Labels fails;
        Binders b;
        warn_rebinding(fn, br.condition);
        equation(fn, br.condition, fails, b);
        publish(fn, b);
        tail(fn, *br.body, mode);
        patch(fn, fails, here(fn));
      }
      if (e.body)
        tail(fn, *e.body, mode);
      else
        finish(fn, mode, e.loc);
      return;
    case ast::ExprKind::Case:
      case_of(
          fn, e, [&](const ast::Expr& body) { tail(fn, body, mode); }, [&] { finish(fn, mode, e.loc); }, true);
      return;
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
// statement, anything else is run as a statement's value. True when the
// code ended here (is_tail).
bool Compiler::stmt_expr(Fn& fn, const ast::Expr& e, bool is_tail, bool lone) {
  switch (e.kind) {
    case ast::ExprKind::Block: {
      ScopeGuard scope(fn);
      block_body(fn, e.stmts, is_tail, e.loc);
      return is_tail;
    }
    case ast::ExprKind::LetIn: {
      ScopeGuard scope(fn);
      Labels fails;
      Binders b;
      equation(fn, *e.equation, fails, b);
      publish(fn, b);
      Labels done;
      if (!fails.empty()) {
        done.push_back(emit(fn, Op::JMP, e.loc));
        patch(fn, fails, here(fn));
        emit(fn, Op::LETFAIL, e.loc);
      }
      patch(fn, done, here(fn));
      return stmt_expr(fn, *e.body, is_tail);
    }
    case ast::ExprKind::If: {
      Labels end;
      for (const auto& br : e.branches) {
        ScopeGuard scope(fn);
        Labels fails;
        Binders b;
        warn_rebinding(fn, br.condition);
        equation(fn, br.condition, fails, b);
        publish(fn, b);
        stmt_expr(fn, *br.body, is_tail);
        if (!is_tail) end.push_back(emit(fn, Op::JMP, br.body->loc));
        patch(fn, fails, here(fn));
      }
      if (e.body) {
        stmt_expr(fn, *e.body, is_tail);
      } else {
        // No branch taken: when the IF is all its block does, the block
        // (an arm's, a behavior's) did nothing with its message.
        if (lone) emit(fn, Op::NOMATCH, e.loc, 0, 0, 0, 1);
        if (is_tail) emit(fn, Op::END, e.loc);
      }
      patch(fn, end, here(fn));
      return is_tail;
    }
    case ast::ExprKind::Case: {
      Labels end;
      case_of(
          fn, e,
          [&](const ast::Expr& body) {
            stmt_expr(fn, body, is_tail);
            if (!is_tail) end.push_back(emit(fn, Op::JMP, body.loc));
          },
          [&] {
            // No arm matched: the value a program dispatches on was not one
            // it handles (docs/language.md, "Handled messages").
            emit(fn, Op::NOMATCH, e.loc);
            if (is_tail) emit(fn, Op::END, e.loc);
          },
          is_tail);
      patch(fn, end, here(fn));
      return is_tail;
    }
    case ast::ExprKind::Call:
      call(fn, e, is_tail ? CallAs::StmtTail : CallAs::Stmt, 0, 0);
      return is_tail;
    default: {
      warn_not_a_block(e);
      // A block that runs here (EXEC) gets a frame right above it: the
      // value goes into the topmost register.
      TempGuard temps(fn);
      if (is_tail) {
        Operand v = operand(fn, e);
        emit(fn, Op::TAILEXEC, e.loc, v.reg);
      } else {
        const uint32_t t = alloc(fn, 1, e.loc);
        expr(fn, e, t);
        emit(fn, Op::EXEC, e.loc, t);
      }
      return is_tail;
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
    if (!fails.empty()) {
      Labels done{emit(fn, Op::JMP, first.loc)};
      patch(fn, fails, here(fn));
      emit(fn, Op::LETFAIL, first.loc);
      patch(fn, done, here(fn));
    }
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
      return stmt_expr(fn, *s.value, is_tail, lone);
    case ast::StmtKind::Import:
      error(s.loc, "IMPORT can only be used at top level");
    case ast::StmtKind::Let:
    case ast::StmtKind::Create:
      break;
  }
  error(s.loc, "internal error: not an effect statement");
}

// ------------------------------------------------ functions and blocks

// One entry of a function (proto.hpp): the parameters are matched where
// the call left them, then the body runs in `mode`.
void Compiler::entry(Fn& fn, const ast::Pattern& param, const ast::Expr& body, Mode mode, uint32_t& at) {
  at = here(fn);
  Proto& p = *fn.proto;
  fn.top = 0;
  alloc(fn, p.arity, param.loc);
  ScopeGuard scope(fn);
  Labels fails;
  Binders b;
  if (p.arity >= 2)
    for (uint32_t i = 0; i < p.arity; ++i) match(fn, *param.elements[i], i, true, fails, b);
  else
    match(fn, param, 0, true, fails, b);
  publish(fn, b);
  tail(fn, body, mode);
  if (!fails.empty()) {
    patch(fn, fails, here(fn));
    finish(fn, mode, param.loc);
  }
  if (mode == Mode::Value && fn.code) plan_factory(fn, param, body);
}

LambdaCode* Compiler::lambda(Fn& parent, const ast::Pattern& param, const ast::Expr& body, ast::Loc loc,
                             std::unordered_map<std::string, Special> specials, std::shared_ptr<Captures> caps,
                             LambdaCode* code) {
  if (auto it = lambdas_.find(&body); it != lambdas_.end()) return it->second;
  check_unique(param);
  if (!code) code = arena_.make<LambdaCode>(sloc(loc));
  if (!caps) caps = std::make_shared<Captures>();
  lambdas_[&body] = code;
  captures_[code] = caps;
  Fn fn;
  fn.parent = &parent;
  fn.proto = &code->proto;
  fn.caps = caps;
  fn.specials = std::move(specials);
  fn.top_level = false;
  code->proto.file = &source_->name;
  code->proto.library = source_->library;
  code->proto.arity = param.kind == ast::PatternKind::Tuple && param.elements.size() <= kMaxSpread
                          ? uint32_t(param.elements.size())
                          : 1;
  fn.code = code;
  entry(fn, param, body, Mode::Value, code->proto.entry_value);
  entry(fn, param, body, Mode::Stmt, code->proto.entry_stmt);
  entry(fn, param, body, Mode::Behavior, code->proto.entry_behavior);
  plan_registers(code->proto);
  if (!code->factory) code->direct_arity = code->proto.arity;
  return code;
}

// A body that is just a lambda whose captures are parameters given as plain
// names (or the function's own captures, or the function itself) makes a
// behavior factory, `DEF counter(sum) AS \msg.[...]`: a call of it makes the
// closure straight from the arguments, without a frame. Runs in the value
// entry's parameter scope, once the body is compiled.
void Compiler::plan_factory(Fn& fn, const ast::Pattern& param, const ast::Expr& body) {
  if (body.kind != ast::ExprKind::Lambda) return;
  LambdaCode& code = *fn.code;
  const uint32_t arity = code.proto.arity;
  auto plain = [&](uint32_t i) {
    const ast::Pattern& p = arity >= 2 ? *param.elements[i] : param;
    return p.kind == ast::PatternKind::Bind || p.kind == ast::PatternKind::Wildcard;
  };
  for (uint32_t i = 0; i < arity; ++i)
    if (!plain(i)) return;
  const LambdaCode* inner = lambdas_.at(body.body.get());
  std::vector<LambdaCode::FactorySource> sources;
  for (const auto& name : captures_.at(inner)->names) {
    Resolved r = resolve(fn, name);
    switch (r.kind) {
      case Resolved::Kind::Reg:
        if (r.index >= arity) return;
        sources.push_back({LambdaCode::FactorySource::Kind::Arg, r.index});
        continue;
      case Resolved::Kind::Capture:
        sources.push_back({LambdaCode::FactorySource::Kind::Capture, r.index});
        continue;
      case Resolved::Kind::SelfFn:
        sources.push_back({LambdaCode::FactorySource::Kind::SelfFn, 0});
        continue;
      case Resolved::Kind::Sibling:
      case Resolved::Kind::Global:
        return;
    }
  }
  code.factory = inner;
  code.factory_sources = std::move(sources);
}

// Names the code of DEF name(...) AS body, and the lambda its body is, if
// it is one: `DEF counter(n) AS \msg.[...]` gives actors whose behavior a
// trace calls counter.
LambdaCode* Compiler::named(LambdaCode* code, const std::string& name, const ast::Expr& body) {
  code->name = name;
  if (body.kind == ast::ExprKind::Lambda)
    if (auto it = lambdas_.find(body.body.get()); it != lambdas_.end() && it->second->name.empty())
      it->second->name = name;
  return code;
}

void Compiler::emit_closure(Fn& fn, LambdaCode* code, uint32_t dst, ast::Loc l) {
  std::vector<CaptureSource> sources;
  for (const auto& name : captures_.at(code)->names) sources.push_back(source_for(fn, name));
  fn.proto->more().closures.push_back({code, std::move(sources)});
  emit(fn, Op::CLOSURE, l, dst, uint32_t(fn.proto->more().closures.size() - 1));
}

void Compiler::closure(Fn& fn, const ast::Expr& e, uint32_t dst) {
  // `\x.[ ... ], y` is one function returning a pair, by the rule that a
  // body extends as far as it can; it is almost always meant as (\x.[ ... ]), y.
  if (e.body->kind == ast::ExprKind::Tuple && e.body->elements.front()->kind == ast::ExprKind::Block)
    warn(e.loc,
         "this function's body is a pair that starts with a block; if the function "
         "should end at that ']', put it in parentheses: (\\x.[ ... ]), ...");
  LambdaCode* code = lambda(fn, *e.param, *e.body, e.loc, {});
  emit_closure(fn, code, dst, e.loc);
}

// [ stmts ] as a value: statement code of its own, capturing what it uses.
void Compiler::block_value(Fn& fn, const ast::Expr& e, uint32_t dst) {
  BlockCodeImpl* code;
  if (auto it = blocks_.find(&e); it != blocks_.end()) {
    code = it->second;
  } else {
    code = arena_.make<BlockCodeImpl>(sloc(e.loc));
    blocks_[&e] = code;
    auto caps = std::make_shared<Captures>();
    captures_[code] = caps;
    Fn inner;
    inner.parent = &fn;
    inner.proto = &code->proto;
    inner.caps = caps;
    inner.top_level = fn.top_level && !blocks_defer_;
    code->proto.file = &source_->name;
    code->proto.library = source_->library;
    code->proto.arity = 0;
    code->proto.entry_stmt = 0;
    {
      ScopeGuard scope(inner);
      block_body(inner, e.stmts, true, e.loc);
    }
    plan_registers(code->proto);
  }
  std::vector<CaptureSource> sources;
  for (const auto& name : captures_.at(code)->names) sources.push_back(source_for(fn, name));
  fn.proto->more().blocks.push_back({code, std::move(sources)});
  emit(fn, Op::BLOCK, e.loc, dst, uint32_t(fn.proto->more().blocks.size() - 1));
}

// Mutually recursive functions of one block: one capture list for all, so
// any member can make any other from its own captures.
void Compiler::group(Fn& fn, const std::vector<FunctionBinding>& fbs, const std::vector<uint32_t>& regs, ast::Loc l) {
  std::vector<LambdaCode*> codes;
  std::shared_ptr<Captures> caps;
  if (auto it = lambdas_.find(fbs.front().body); it != lambdas_.end()) {
    for (const auto& fb : fbs) codes.push_back(lambdas_.at(fb.body));
    caps = captures_.at(codes.front());
  } else {
    caps = std::make_shared<Captures>();
    for (const auto& fb : fbs) codes.push_back(arena_.make<LambdaCode>(sloc(fb.loc)));
    for (size_t k = 0; k < fbs.size(); ++k) {
      std::unordered_map<std::string, Special> specials;
      for (size_t j = 0; j < fbs.size(); ++j)
        specials[*fbs[j].name] =
            j == k ? Special{CaptureSource::Kind::SelfFn} : Special{CaptureSource::Kind::Sibling, codes[j]};
      named(lambda(fn, *fbs[k].param, *fbs[k].body, fbs[k].loc, std::move(specials), caps, codes[k]), *fbs[k].name,
            *fbs[k].body);
    }
  }
  GroupPlan plan;
  for (size_t k = 0; k < codes.size(); ++k) plan.members.emplace_back(codes[k], regs[k]);
  for (const auto& name : caps->names) plan.sources.push_back(source_for(fn, name));
  fn.proto->more().groups.push_back(std::move(plan));
  emit(fn, Op::GROUP, l, 0, uint32_t(fn.proto->more().groups.size() - 1));
}

// ------------------------------------------------------------ top level

// A top-level statement: runs on its own, in order; what it binds becomes
// global (SETGLOBAL), once the whole statement has succeeded.
std::unique_ptr<TopStmt> Compiler::top(const ast::Stmt& s) {
  auto t = std::make_unique<TopStmt>();
  t->loc = s.loc;
  t->source_loc = sloc(s.loc);
  if (s.kind == ast::StmtKind::Import) {
    t->kind = TopStmt::Kind::Import;
    t->import = s.name;
    return t;
  }
  t->proto = std::make_unique<Proto>();
  Proto& proto = *t->proto;
  Fn fn;
  fn.proto = &proto;
  fn.top_level = true;
  proto.file = &source_->name;
  proto.library = source_->library;
  proto.arity = 0;
  ScopeGuard root(fn);
  blocks_defer_ = s.kind != ast::StmtKind::Expr;

  switch (s.kind) {
    case ast::StmtKind::Let: {
      proto.entry_stmt = 0;
      const ast::Equation& eq = *s.equation;
      if (eq.kind == ast::Equation::Kind::FunctionDef) {
        // Top-level functions reach themselves through their global
        // (late-bound), and every other name they read outside their own
        // scopes is global too: they capture nothing, so the statement
        // needs no code of its own.
        LambdaCode* code = named(lambda(fn, *eq.param, *eq.body, eq.loc, {}), eq.name, *eq.body);
        assert(captures_.at(code)->names.empty());
        global_defs.push_back(eq.name);
        t->kind = TopStmt::Kind::Define;
        t->function = code;
        t->slot = rt_.globals().slot(eq.name);
        t->proto.reset();
        return t;
      }
      Labels fails;
      Binders b;
      equation(fn, eq, fails, b);
      if (!fails.empty()) {
        Labels done{emit(fn, Op::JMP, s.loc)};
        patch(fn, fails, here(fn));
        emit(fn, Op::LETFAIL, s.loc);
        patch(fn, done, here(fn));
      }
      for (const auto& [name, reg] : b.bound) emit(fn, Op::SETGLOBAL, s.loc, reg, global_def(fn, name));
      emit(fn, Op::END, s.loc);
      break;
    }
    case ast::StmtKind::Create: {
      // The actor is visible to its own behavior expression (CREATE x WITH beh(x)).
      proto.entry_stmt = 0;
      const uint32_t r = alloc(fn, 1, s.loc);
      root.scope.regs[s.name] = r;
      new_actor(fn, s, r);
      {
        TempGuard temps(fn);
        warn_behavior_factory(fn, *s.value);
        Operand beh = operand(fn, *s.value);
        emit(fn, Op::SETBEH, s.loc, r, beh.reg);
      }
      emit(fn, Op::SETGLOBAL, s.loc, r, global_def(fn, s.name));
      emit(fn, Op::END, s.loc);
      break;
    }
    case ast::StmtKind::Expr: {
      t->kind = TopStmt::Kind::Value;
      proto.entry_value = 0;
      const uint32_t r = alloc(fn, 1, s.loc);
      expr(fn, *s.value, r);
      emit(fn, Op::RET, s.loc, r);
      break;
    }
    default:
      proto.entry_stmt = 0;
      effect(fn, s, false);
      emit(fn, Op::END, s.loc);
      break;
  }
  plan_registers(proto);
  return t;
}

}  // namespace humus::interp::codegen

namespace humus::interp {

struct UnitCompiler::Impl {
  Impl(ast::SourcePtr source, rt::Runtime& rt, CodeArena& code_arena, bool keep)
      : c(source, rt, code_arena), arena(code_arena), keep_code(keep) {
    arena.keep(source);
    unit = std::make_unique<CompiledUnit>();
    unit->source = std::move(source);
  }
  codegen::Compiler c;
  std::unique_ptr<CompiledUnit> unit;
  CodeArena& arena;
  bool keep_code;
};

UnitCompiler::UnitCompiler(ast::SourcePtr source, rt::Runtime& rt, CodeArena& arena, bool keep_code)
    : impl_(std::make_unique<Impl>(std::move(source), rt, arena, keep_code)) {}
UnitCompiler::~UnitCompiler() = default;

void UnitCompiler::add(const ast::Stmt& s) {
  const CodeArena::Mark mark = impl_->arena.mark();
  impl_->c.note_definitions(s);
  auto t = impl_->c.top(s);
  // The maps keyed by this statement's nodes must go before it does (the
  // next statement's nodes may reuse their addresses).
  impl_->c.end_statement();
  if (impl_->keep_code) {
    impl_->unit->stmts.push_back(std::move(t));
  } else {
    // Nothing made at compile time refers to code (closures are made by
    // instructions when the code runs), so the statement's code can go.
    if (t->kind == TopStmt::Kind::Import) impl_->unit->stmts.push_back(std::move(t));
    t.reset();
    impl_->arena.drop_since(mark);
  }
}

std::unique_ptr<CompiledUnit> UnitCompiler::finish() {
  codegen::Compiler& c = impl_->c;
  c.finish_arity();
  auto unit = std::move(impl_->unit);
  unit->warnings = std::move(c.warnings);
  unit->global_reads = std::move(c.global_reads);
  unit->global_defs = std::move(c.global_defs);
  return unit;
}

std::unique_ptr<CompiledUnit> compile_program(ast::Program& program, rt::Runtime& rt, CodeArena& arena) {
  UnitCompiler uc(program.source, rt, arena);
  for (auto& s : program.stmts) {
    uc.add(*s);
    // A statement's syntax tree is not needed once it is compiled: freeing
    // it as we go keeps a big script's tree and code from peaking together.
    s.reset();
  }
  return uc.finish();
}

}  // namespace humus::interp
