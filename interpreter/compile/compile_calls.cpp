// Calls: built-ins computed in place, and a call's callee and arguments
// set up in the topmost registers, as a value, a tail or a statement.
#include "interpreter/compile/compiler_impl.hpp"

#include <algorithm>
#include <cassert>
#include <optional>
#include <set>
#include <string_view>

#include "interpreter/engine/fast_builtins.hpp"
#include "runtime/builtins/functions.hpp"

namespace humus::compile::codegen {

// f(a, b) of a global that holds a built-in computed in place (add, less, ...).
bool Compiler::builtin_call(Fn& fn, const ast::Expr& e, uint32_t dst) {
  if (e.callee->kind != ast::ExprKind::Var || !e.argument || e.argument->kind != ast::ExprKind::Tuple ||
      e.argument->elements.size() != 2)
    return false;
  const engine::FastBuiltin* builtin = engine::fast_builtin(e.callee->name);
  if (!builtin || resolve(fn, e.callee->name).kind != Resolved::Kind::Global) return false;
  Value now = globals_.get(globals_.slot(e.callee->name));
  if (!now.is(rt::ObjKind::Native)) return false;  // bound to something else: an ordinary call
  Op op = builtin->op;
  const ast::Expr& x = *e.argument->elements[0];
  const ast::Expr& y = *e.argument->elements[1];
  TempGuard temps(fn);
  // add(x, 5), sub(x, 1), add(1, x): the constant in the instruction.
  auto small_const = [&](const ast::Expr& k, int64_t& out) {
    if (k.kind != ast::ExprKind::Const || k.constant.kind != ast::Constant::Kind::Integer) return false;
    Value v = unpinned_constant(k.constant);
    if (!v.is_small() || v.small_value() < -32767 || v.small_value() > 32767) return false;
    out = v.small_value();
    return true;
  };
  int64_t k;
  if ((op == Op::ADD || op == Op::SUB) && small_const(y, k)) {
    Operand a = operand(fn, x);
    emit(fn, op == Op::ADD ? Op::ADDI : Op::SUBI, e.loc, dst, a.reg, uint32_t(k + 32768));
    return true;
  }
  if (op == Op::ADD && small_const(x, k)) {
    Operand a = operand(fn, y);
    emit(fn, Op::ADDI, e.loc, dst, a.reg, uint32_t(k + 32768));
    return true;
  }
  // div(x, 8), mod(x, 2): a power of two is a shift or a mask.
  if ((op == Op::DIV || op == Op::MOD) && y.kind == ast::ExprKind::Const &&
      y.constant.kind == ast::Constant::Kind::Integer) {
    Value v = unpinned_constant(y.constant);
    if (v.is_small() && v.small_value() > 0 && (v.small_value() & (v.small_value() - 1)) == 0) {
      Operand a = operand(fn, x);
      emit(fn, op == Op::DIV ? Op::DIVP : Op::MODP, e.loc, dst, a.reg, uint32_t(__builtin_ctzll(v.small_value())));
      return true;
    }
  }
  Operand a = operand(fn, x);
  if (y.kind == ast::ExprKind::Const) {  // a literal second operand: read from the constants
    emit(fn, op, e.loc, dst, a.reg, constant_index(fn, constant(y.constant)), 1);
    return true;
  }
  Operand b = operand(fn, y);
  emit(fn, op, e.loc, dst, a.reg, b.reg);
  return true;
}

uint32_t Compiler::known_arity(Fn& fn, const ast::Expr& callee) {
  if (callee.kind != ast::ExprKind::Var || bound_locally(fn, callee.name)) return kArityUnknown;
  if (auto it = known_arity_.find(callee.name); it != known_arity_.end()) return it->second;
  // Defined by an earlier unit (the prelude, a REPL line): what it holds now.
  const std::optional<uint32_t> slot = globals_.find(callee.name);
  const Value now = slot ? globals_.get(*slot) : Value();
  if (!now.is(rt::ObjKind::Closure)) return kArityUnknown;
  const uint32_t direct = now.as<rt::Closure>()->code->direct_arity;
  return direct == rt::FunctionCode::kNoDirect ? kArityUnknown : direct;
}

// The arguments a call passes one by one (one: the argument as it is).
std::vector<const ast::Expr*> Compiler::call_args(Fn& fn, const ast::Expr& e) {
  std::vector<const ast::Expr*> args;
  if (e.argument && e.argument->kind == ast::ExprKind::Tuple && e.argument->elements.size() >= 2 &&
      e.argument->elements.size() <= kMaxSpread && known_arity(fn, *e.callee) != 1) {
    for (const auto& x : e.argument->elements) args.push_back(x.get());
  } else if (e.argument) {
    args.push_back(e.argument.get());
  }
  return args;
}

// Which arguments may be written over their parameter (bit i: over R(i)):
// none of the later arguments reads that register (resolved by name, so
// aliases count too).
uint8_t Compiler::in_place_args(Fn& fn, const std::vector<const ast::Expr*>& args) {
  if (!fn.code || args.empty()) return 0;
  auto saved = std::move(fn.reads);
  fn.reads.clear();
  std::vector<std::set<uint32_t>> later(args.size() + 1);  // registers read by args i.. (suffix)
  for (size_t i = args.size(); i-- > 0;) {
    later[i] = later[i + 1];
    for (const auto& name : free_names(*args[i])) {
      Resolved r = resolve(fn, name);
      if (r.kind == Resolved::Kind::Reg) later[i].insert(r.index);
    }
  }
  fn.reads = std::move(saved);
  uint8_t direct = 0;
  for (uint32_t i = 0; i < args.size() && i < fn.proto->arity; ++i)
    if (!later[i + 1].count(i)) direct |= uint8_t(1u << i);
  return direct;
}

// A statement's tail call that may be a call of the running function with
// every argument in place (TAILSELFST): a global callee, as many arguments
// as this function's parameters, each free to go over its parameter.
bool Compiler::self_call_in_place(Fn& fn, const ast::Expr& e) {
  if (!fn.code || e.callee->kind != ast::ExprKind::Var || resolve(fn, e.callee->name).kind != Resolved::Kind::Global)
    return false;
  const std::vector<const ast::Expr*> args = call_args(fn, e);
  const auto n = uint32_t(args.size());
  return n > 0 && n == fn.proto->arity && n <= kMaxSpread && in_place_args(fn, args) == (1u << n) - 1;
}

// A call's callee and arguments into the topmost registers: R(a) and
// R(a+1 .. a+n). `f(x, y)` passes x and y one by one, unless f is known to
// take one parameter: then the pair is made here, and the call enters f
// straight (a wrong guess, f redefined, is put right by the call's adapt).
// `prefer`: a register for R(a) when it is the topmost one (a value's
// destination). `moves`: the frame ends with the call, so a variable read
// once in the whole call moves into its argument (nothing reads it after).
// `global`, when given: a callee that is a global is not loaded; its index
// + 1 is stored there (0: the callee is in R(a)). `in_place`, when given (a
// call in tail position of a function's value code, or a statement's call
// of itself): argument i may go straight into this frame's register i, the
// parameter it replaces in a call of the function itself (bit i), when no
// later argument reads that register; a parameter passed on unchanged is
// not even moved. TAILCALL (TAILSELFST) then finds it there, whoever the
// callee turns out to be.
Compiler::CallSetup Compiler::setup_call(Fn& fn, const ast::Expr& e, bool moves, uint32_t prefer, uint32_t* global,
                                         uint8_t* in_place) {
  const std::vector<const ast::Expr*> args = call_args(fn, e);
  const auto n = uint32_t(args.empty() ? 1 : args.size());
  const uint32_t a = prefer + 1 == fn.top ? prefer : alloc(fn, 1, e.loc);
  alloc(fn, n, e.loc);

  const uint8_t direct = in_place ? in_place_args(fn, args) : 0;
  if (in_place) *in_place = 0;

  std::vector<uint32_t> reads;
  fn.reads.push_back(&reads);
  std::vector<std::tuple<uint32_t, uint8_t, uint32_t>> movable;
  // A call inside a tail call's arguments reports what it copies to the
  // tail call, whose reads decide.
  auto* outer_movable = fn.movable;
  fn.movable = moves ? &movable : outer_movable;
  if (global) *global = 0;
  if (global && e.callee->kind == ast::ExprKind::Var && resolve(fn, e.callee->name).kind == Resolved::Kind::Global)
    *global = global_read(fn, e.callee->name, e.callee->loc) + 1;
  else
    expr(fn, *e.callee, a);
  std::vector<std::pair<uint32_t, uint32_t>> var_moves;  // (instruction, source register)
  if (args.empty()) {
    emit(fn, Op::LOADK, e.loc, a + 1, constant_index(fn, Value::nil()));
  } else {
    for (uint32_t i = 0; i < args.size(); ++i) {
      const ast::Expr& x = *args[i];
      const bool here = (direct >> i) & 1;
      const uint32_t dst = here ? i : a + 1 + i;
      if (x.kind == ast::ExprKind::Var) {
        Resolved r = resolve(fn, x.name);
        if (r.kind == Resolved::Kind::Reg) {
          if (in_place && fn.code && i < fn.proto->arity && r.index == i) {  // passed on unchanged: already there
            *in_place |= uint8_t(1u << i);
            continue;
          }
          if (here) *in_place |= uint8_t(1u << i);
          if (r.index != dst) var_moves.emplace_back(emit(fn, Op::MOVE, x.loc, dst, r.index), r.index);
          continue;
        }
      }
      if (here) *in_place |= uint8_t(1u << i);
      expr(fn, x, dst);
    }
  }
  fn.reads.pop_back();
  fn.movable = outer_movable;
  if (!moves && outer_movable)
    for (auto [at, reg] : var_moves) outer_movable->emplace_back(at, 1, reg);
  if (moves) {
    for (auto [at, reg] : var_moves)
      if (std::count(reads.begin(), reads.end(), reg) == 1) fn.proto->code[at].x = 1;
    for (auto [at, bit, reg] : movable)
      if (std::count(reads.begin(), reads.end(), reg) == 1) fn.proto->code[at].x |= bit;
  }
  return {a, n};
}

// A call in its place. `site`: in statement code, whether errors about what
// the callee gives are reported at the frame's site (x = 1).
void Compiler::call(Fn& fn, const ast::Expr& e, CallAs how, uint32_t dst, uint8_t site) {
  warn_arity(fn, e);
  if (how == CallAs::Value && builtin_call(fn, e, dst)) return;
  TempGuard temps(fn);
  if (how != CallAs::Value) {
    const uint32_t t = alloc(fn, 1, e.loc);
    if (builtin_call(fn, e, t)) {
      if (how == CallAs::Tail)
        emit(fn, Op::RET, e.loc, t);
      else
        emit(fn, how == CallAs::Stmt ? Op::EXEC : Op::TAILEXEC, e.loc, t, 0, 0, site);
      return;
    }
    fn.top = t;
  }
  Labels inlined;  // the inlined body's jump past the call (compile_inline.cpp)
  if (how == CallAs::Value) inline_call(fn, e, dst, inlined);
  const bool ends = how == CallAs::Tail || how == CallAs::StmtTail;
  // A statement's loop (`[ ... loop(add(i, 1)) ]`) sets its arguments out
  // over its parameters, as a value's tail call does.
  const bool self = how == CallAs::StmtTail && self_call_in_place(fn, e);
  const bool direct = how == CallAs::Value || how == CallAs::Tail || self;
  uint32_t global = 0;
  uint8_t same = 0;
  auto [a, n] = setup_call(fn, e, ends, how == CallAs::Value ? dst : kNoReg, direct ? &global : nullptr,
                           how == CallAs::Tail || self ? &same : nullptr);
  switch (how) {
    case CallAs::Value:
      emit(fn, Op::CALL, e.loc, a, n, global);
      if (a != dst) emit(fn, Op::MOVE, e.loc, dst, a, 1);
      patch(fn, inlined, here(fn));
      return;
    case CallAs::Tail:
      emit(fn, Op::TAILCALL, e.loc, a, n, global, same);
      emit(fn, Op::DROPS, e.loc, kDropAll);  // filled in by plan_drops
      return;
    case CallAs::Stmt:
      emit(fn, Op::CALLST, e.loc, a, n, 0, site);
      return;
    case CallAs::StmtTail:
      if (self) {
        assert(global && same == (1u << n) - 1);
        emit(fn, Op::TAILSELFST, e.loc, a, n, global, site);
      } else {
        emit(fn, Op::TAILCALLST, e.loc, a, n, 0, site);
      }
      emit(fn, Op::DROPS, e.loc, kDropAll);  // filled in by plan_drops
      return;
  }
}

}  // namespace humus::compile::codegen
