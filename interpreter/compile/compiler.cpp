// The compiler's top level: emitting instructions, a top-level statement, and
// UnitCompiler (compiler.hpp); the rest is in compile_*.cpp (compiler_impl.hpp).
#include "interpreter/compile/compiler.hpp"

#include <algorithm>
#include <cassert>
#include <memory>

#include "interpreter/compile/compiler_impl.hpp"

namespace humus::compile::codegen {

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
  const uint32_t slot = globals_.slot(name);
  if (auto it = fn.global_index.find(slot); it != fn.global_index.end()) return it->second;
  auto i = uint32_t(fn.proto->globals.size());
  fn.proto->globals.push_back({globals_.cell_address(slot), slot});
  fn.global_index.emplace(slot, i);
  return i;
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
        note_inlinable(eq, code);
        global_defs.push_back(eq.name);
        t->kind = TopStmt::Kind::Define;
        t->function = code;
        t->slot = globals_.slot(eq.name);
        t->proto.reset();
        return t;
      }
      Labels fails;
      Binders b;
      equation(fn, eq, fails, b);
      let_fail(fn, fails, s.loc);
      for (const auto& [name, reg] : b.bound) {
        emit(fn, Op::SETGLOBAL, s.loc, reg, global_def(fn, name));
        inlinable_.erase(name);
      }
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
      inlinable_.erase(s.name);
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

}  // namespace humus::compile::codegen

namespace humus::compile {

struct UnitCompiler::Impl {
  Impl(ast::SourcePtr source, rt::Globals& globals, engine::CodeArena& code_arena, bool keep)
      : c(source, globals, code_arena), arena(code_arena), keep_code(keep) {
    arena.keep(source);
    unit = std::make_unique<engine::CompiledUnit>();
    unit->source = std::move(source);
  }
  codegen::Compiler c;
  std::unique_ptr<engine::CompiledUnit> unit;
  engine::CodeArena& arena;
  bool keep_code;
};

UnitCompiler::UnitCompiler(ast::SourcePtr source, rt::Globals& globals, engine::CodeArena& arena, bool keep_code)
    : impl_(std::make_unique<Impl>(std::move(source), globals, arena, keep_code)) {}
UnitCompiler::~UnitCompiler() = default;

void UnitCompiler::add(const ast::Stmt& s) {
  const engine::CodeArena::Mark mark = impl_->arena.mark();
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
    if (t->kind == engine::TopStmt::Kind::Import) impl_->unit->stmts.push_back(std::move(t));
    t.reset();
    impl_->arena.drop_since(mark);
  }
}

std::unique_ptr<engine::CompiledUnit> UnitCompiler::finish() {
  codegen::Compiler& c = impl_->c;
  c.finish_arity();
  auto unit = std::move(impl_->unit);
  unit->warnings = std::move(c.warnings);
  unit->global_reads = std::move(c.global_reads);
  unit->global_defs = std::move(c.global_defs);
  return unit;
}

std::unique_ptr<engine::CompiledUnit> compile_program(ast::Program& program, rt::Globals& globals,
                                                      engine::CodeArena& arena) {
  UnitCompiler uc(program.source, globals, arena);
  for (auto& s : program.stmts) {
    uc.add(*s);
    // A statement's syntax tree is not needed once it is compiled: freeing
    // it as we go keeps a big script's tree and code from peaking together.
    s.reset();
  }
  return uc.finish();
}

}  // namespace humus::compile
