// The compiler's top level: emitting instructions, a top-level statement, and
// UnitCompiler (compiler.hpp); the rest is in compile_*.cpp (compiler_impl.hpp).
#include "interpreter/compile/compiler.hpp"

#include <algorithm>
#include <cassert>
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
