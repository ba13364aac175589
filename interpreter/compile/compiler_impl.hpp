// The compiler (AST -> register code for the VM, engine/proto.hpp): its
// class and the types its parts share, a private header of these files:
//   compiler.cpp           emitting, and the top-level statement
//   compile_names.cpp      what a name stands for where it is used
//   compile_warnings.cpp   warnings: rebinding, arity, a statement that does nothing
//   compile_exprs.cpp      constants and expressions
//   compile_patterns.cpp   patterns and equations
//   compile_calls.cpp      calls
//   compile_control.cpp    IF, CASE, LET ... IN, tails, statements and blocks
//   compile_closures.cpp   functions, closures and block values
//
// Registers. A frame's registers are handed out like a stack: the names of
// a scope (parameters, pattern variables, a block's LET/DEF/CREATE names)
// and the temporaries of an expression are allocated on top and given back
// when their scope or expression ends. A call's callee and arguments are
// always the topmost registers, so the callee's frame begins right above
// (vm.cpp). A variable is read where it lives; only values that must move
// (call arguments, a result) are copied, and a temporary read for the last
// time is moved instead.
//
// Modes. A function body is compiled for each way it may run (proto.hpp):
// as a value, as a statement, and as an actor's behavior; only the tails
// differ, but a body is compiled whole for each. A lambda or block literal
// inside it is compiled once (its code is shared); what differs between the
// places that make its closure is only where each captured name comes from,
// resolved by name at each place.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "interpreter/compile/compiler.hpp"
#include "interpreter/compile/dataflow.hpp"
#include "runtime/symbols.hpp"

namespace humus::compile::codegen {

using rt::Value;
// The engine's code objects and instruction set, which the generator makes.
using engine::BlockCodeImpl;
using engine::CaptureSource;
using engine::CodeArena;
using engine::CompiledUnit;
using engine::CompileWarning;
using engine::GlobalUse;
using engine::GroupPlan;
using engine::Instr;
using engine::kDropAll;
using engine::kMaxOperand;
using engine::kMaxSpread;
using engine::LambdaCode;
using engine::Op;
using engine::Proto;
using engine::TagSwitch;
using engine::TopStmt;

enum class Mode : uint8_t { Value, Stmt, Behavior };

// How many parameters a function with this parameter pattern takes: a
// tuple's elements one by one (up to kMaxSpread), else one value.
inline uint32_t spread_arity(const ast::Pattern& param) {
  return param.kind == ast::PatternKind::Tuple && param.elements.size() <= kMaxSpread ? uint32_t(param.elements.size())
                                                                                      : 1;
}

// Where an expression's code leaves what it computes (as Lua's expdesc): in
// a register; as the end of a function body run in one mode (the code ends
// there); or nowhere, run as a statement. One walk (Compiler::into) takes
// LET ... IN, IF and CASE apart for every destination; only the leaves
// differ.
struct Dest {
  enum class Kind : uint8_t { Reg, Return, Stmt };
  Kind kind;
  uint32_t reg = 0;         // Reg
  Mode mode = Mode::Value;  // Return
  bool ends = false;        // no code follows (always so for Return)
  bool lone = false;        // Stmt: its block's only statement
  static Dest to(uint32_t r) { return {Kind::Reg, r}; }
  static Dest returning(Mode m) { return {Kind::Return, 0, m, true}; }
  static Dest statement(bool ends, bool lone = false) { return {Kind::Stmt, 0, Mode::Value, ends, lone}; }
  // A LET's body or a branch: the same place, but no longer a block's only statement.
  Dest inner() const {
    Dest d = *this;
    d.lone = false;
    return d;
  }
};

// Names bound in one block, LET ... IN, IF branch, CASE alternative or
// parameter list, each mapped to its register.
struct Scope {
  std::unordered_map<std::string, uint32_t> regs;
};

// Names a function refers to without capturing them: itself, and the other
// members of its recursive group.
struct Special {
  CaptureSource::Kind kind;  // SelfFn or Sibling
  const LambdaCode* code = nullptr;
};

// The names a function or block captures, in the order of its capture
// slots; one list for all members of a recursive group.
struct Captures {
  std::vector<std::string> names;
  std::unordered_map<std::string, uint32_t> index;
};

// One Proto being generated.
struct Fn {
  Fn* parent = nullptr;
  Proto* proto = nullptr;
  std::shared_ptr<Captures> caps;  // null at top level: free names are globals
  std::unordered_map<std::string, Special> specials;
  std::vector<Scope*> scopes;
  uint32_t top = 0;  // the next free register
  bool top_level = false;
  std::vector<std::vector<uint32_t>*> reads;  // registers read (for calls' moves)
  // While a tail call's arguments compile: instructions that may take a
  // variable's value over instead of copying it (instruction, x bit, register).
  std::vector<std::tuple<uint32_t, uint8_t, uint32_t>>* movable = nullptr;
  std::unordered_map<uint64_t, uint32_t> word_consts;
  std::unordered_map<uint32_t, uint32_t> global_index;
  std::unordered_map<const LambdaCode*, uint32_t> sibling_index;
  LambdaCode* code = nullptr;  // the function being compiled (null for blocks and top level)
};

// Opens a scope; its registers, and every temporary above them, are given
// back when it closes.
class ScopeGuard {
 public:
  explicit ScopeGuard(Fn& fn) : fn_(fn), mark_(fn.top) { fn.scopes.push_back(&scope); }
  ~ScopeGuard() {
    fn_.scopes.pop_back();
    fn_.top = mark_;
  }
  ScopeGuard(const ScopeGuard&) = delete;
  ScopeGuard& operator=(const ScopeGuard&) = delete;
  Scope scope;

 private:
  Fn& fn_;
  uint32_t mark_;
};

// Temporaries: given back when the guard goes.
class TempGuard {
 public:
  explicit TempGuard(Fn& fn) : fn_(fn), mark_(fn.top) {}
  ~TempGuard() { fn_.top = mark_; }
  TempGuard(const TempGuard&) = delete;
  TempGuard& operator=(const TempGuard&) = delete;

 private:
  Fn& fn_;
  uint32_t mark_;
};

// What a name stands for where it is used.
struct Resolved {
  enum class Kind { Reg, Capture, SelfFn, Sibling, Global } kind;
  uint32_t index = 0;
  const LambdaCode* code = nullptr;
};

// A value in a register: a variable's own (borrowed), or a temporary that
// the consumer may take over.
struct Operand {
  uint32_t reg;
  bool temp;
};

// How a pattern's names get their registers: fresh (a name takes the
// register its value was matched in), or given beforehand (a block's names,
// all known before its statements compile: the value is copied there).
struct Binders {
  const std::unordered_map<std::string, uint32_t>* preset = nullptr;
  std::vector<std::pair<std::string, uint32_t>> bound;  // fresh: name -> register
};

using Labels = std::vector<uint32_t>;        // instructions whose jump target is still to be set
constexpr uint32_t kNoReg = UINT32_MAX - 1;  // setup_call: no preferred register

// Once a Proto's code is whole: its registers planned, its tables trimmed.
void plan_registers(Proto& p);

class Compiler {
 public:
  Compiler(ast::SourcePtr source, rt::Globals& globals, CodeArena& arena)
      : source_(std::move(source)), globals_(globals), arena_(arena) {}

  std::unique_ptr<TopStmt> top(const ast::Stmt& s);
  // Forgets the statement's syntax nodes (the maps below are keyed by their
  // addresses, which the next statement's nodes may reuse once it is freed).
  void end_statement() {
    lambdas_.clear();
    reset(arity_noted_);
    blocks_.clear();
    captures_.clear();  // what each of the statement's functions captures
  }
  // Empties a hash table kept per statement. clear() costs the bucket
  // count, which one huge statement grows for good: every small one after
  // it would pay for it (issue 31's cliff), so a big table is made anew.
  template <class Table>
  static void reset(Table& t) {
    if (t.bucket_count() > 1024)
      t = Table();
    else
      t.clear();
  }
  std::vector<CompileWarning> warnings;
  std::vector<GlobalUse> global_reads;
  std::vector<std::string> global_defs;

 private:
  // ---- locations, errors, emitting
  rt::SourceLoc sloc(ast::Loc l) const { return rt::SourceLoc{&source_->name, l.line, l.column}; }
  [[noreturn]] static void error(ast::Loc l, std::string message) { throw CompileError{l, std::move(message)}; }
  void warn(ast::Loc l, std::string message, std::string kind = "") {
    for (const auto& w : warnings)
      if (w.loc.line == l.line && w.loc.column == l.column && w.message == message) return;
    warnings.push_back({l, std::move(message), std::move(kind)});
  }
  uint32_t emit(Fn& fn, Op op, ast::Loc l, uint32_t a = 0, uint32_t b = 0, uint32_t c = 0, uint8_t x = 0);
  uint32_t here(Fn& fn) const { return uint32_t(fn.proto->code.size()); }
  // Points the jumps `labels` at `target` (jumps are relative, engine/opcodes.hpp).
  void patch(Fn& fn, const Labels& labels, uint32_t target) {
    for (uint32_t at : labels) fn.proto->code[at].c = relative(fn, at, target);
  }
  // The offset of a jump; one too long for 16 bits is reported at the
  // expression that jumps (a CASE, an IF), the code it jumps over being the
  // part to split.
  static uint16_t relative(const Fn& fn, uint32_t at, uint32_t target) {
    const int64_t off = int64_t(target) - int64_t(at) - 1;
    if (off < INT16_MIN || off > INT16_MAX) {
      const auto [line, column] = fn.proto->pos[at];
      throw CompileError{{line, column},
                         "this is too large to compile: a jump over more than 32767 instructions (split it into "
                         "smaller functions)"};
    }
    return uint16_t(int16_t(off));
  }
  uint32_t alloc(Fn& fn, uint32_t n, ast::Loc l);
  uint32_t constant_index(Fn& fn, const Value& v);
  uint32_t global_index(Fn& fn, const std::string& name);
  uint32_t global_read(Fn& fn, const std::string& name, ast::Loc l);
  uint32_t global_def(Fn& fn, const std::string& name);
  void check_not_top(const Fn& fn, ast::Loc loc, const char* what) const {
    if (fn.top_level) error(loc, std::string(what) + " can only be used inside an actor's behavior, not at top level");
  }

  // ---- names
  Resolved resolve(Fn& fn, const std::string& name);
  // Whether `name` is bound in a scope around this point (not a global);
  // unlike resolve, records no read and no capture.
  static bool bound_locally(const Fn& fn, const std::string& name);
  // IF/ELIF/CASE patterns that bind a name already bound around them: almost
  // always `n` written where `$n` (compare with its value) was meant.
  void warn_rebinding(const Fn& fn, const ast::Pattern& p);
  void warn_rebinding(const Fn& fn, const ast::Equation& condition) {
    if (!condition.lhs || !condition.rhs) return;
    // `$x = x` binds x to the value it has: an "always", not a slip.
    auto same = [](const ast::Pattern& bind, const ast::Pattern& value) {
      return bind.kind == ast::PatternKind::Bind && value.kind == ast::PatternKind::Value &&
             value.value->kind == ast::ExprKind::Var && value.value->name == bind.name;
    };
    if (same(*condition.lhs, *condition.rhs) || same(*condition.rhs, *condition.lhs)) return;
    warn_rebinding(fn, *condition.lhs);
    warn_rebinding(fn, *condition.rhs);
  }
  // A call of a global function of this unit with a tuple of the wrong size:
  // noted here, judged by finish_arity() once every statement is compiled
  // (the DEF may come below the call).
  void warn_arity(const Fn& fn, const ast::Expr& call);
  struct PendingArity {
    uint32_t name;   // in arity_names_
    uint32_t given;  // elements of the call's tuple
    ast::Loc loc;
    size_t at;  // warnings.size() when noted: where its warning goes
  };
  void warn_not_a_block(const ast::Expr& statement);
  // A global function named where a behavior is wanted (CREATE x WITH f,
  // BECOME f, NEW f): `given` is kAsBehavior, judged by finish_arity too.
  void warn_behavior_factory(const Fn& fn, const ast::Expr& behavior);
  static constexpr uint32_t kAsBehavior = UINT32_MAX;
  std::vector<PendingArity> pending_arity_;
  // The calls noted in this statement: a function's body is compiled once
  // for each of its three entries, and was noted three times (a third of a
  // check's memory for a document of many small functions).
  std::unordered_set<const ast::Expr*> arity_noted_;
  std::unordered_map<std::string, uint32_t> arity_ids_;
  std::vector<const std::string*> arity_names_;
  // Top-level definitions seen: name -> how many; `DEF f(a, b, c)`'s arity.
  std::unordered_map<std::string, int> defined_;
  std::unordered_map<std::string, size_t> def_arity_;
  // The arity of each function defined so far by `DEF f(params) AS` (its
  // proto's), or kArityUnknown for a name defined otherwise or twice with
  // different arities. A call `f((x, y))` of a one-parameter f passes the
  // tuple it makes instead of two arguments for the call to pack.
  static constexpr uint32_t kArityUnknown = 0;
  std::unordered_map<std::string, uint32_t> known_arity_;
  // Top-level `DEF f(params) AS \msg. ...`: functions that make a behavior.
  std::unordered_set<std::string> behavior_factories_;

 public:
  // What statement `s` defines at top level (before it is compiled).
  void note_definitions(const ast::Stmt& s);
  // The arity warnings, now that every top-level definition is known, in
  // the places they would have had.
  void finish_arity();

 private:
  void load(Fn& fn, const std::string& name, uint32_t dst, ast::Loc l);
  CaptureSource source_for(Fn& fn, const std::string& name);

  // ---- expressions
  // The one walk: e's code, leaving its value at d.
  void into(Fn& fn, const ast::Expr& e, Dest d);
  void expr(Fn& fn, const ast::Expr& e, uint32_t dst) { into(fn, e, Dest::to(dst)); }
  // The leaves of the walk, for each kind of destination.
  void expr_value(Fn& fn, const ast::Expr& e, uint32_t dst);
  void expr_tail(Fn& fn, const ast::Expr& e, Mode mode);
  bool ends_in_call(const Fn& fn, const ast::Expr& tuple) const;
  void expr_stmt(Fn& fn, const ast::Expr& e, bool ends);
  Operand operand(Fn& fn, const ast::Expr& e);
  Value constant(const ast::Constant& c);
  static Value unpinned_constant(const ast::Constant& c);
  bool fold(const ast::Expr& e, Value& out);  // a tuple of literals, as one constant
  void tuple(Fn& fn, const ast::Expr& e, uint32_t dst);

  // ---- patterns and equations
  void match(Fn& fn, const ast::Pattern& p, uint32_t src, bool owned, Labels& fails, Binders& b);
  // Elements [from, n) of a tuple pattern against R(src): the last matches the rest.
  void match_tuple(Fn& fn, const ast::Pattern& p, size_t from, uint32_t src, Labels& fails, Binders& b);
  void bind_name(Fn& fn, const std::string& name, uint32_t src, bool owned, ast::Loc l, Binders& b);
  void pattern_value(Fn& fn, const ast::Pattern& p, uint32_t dst);
  void tuple_value(Fn& fn, const ast::Pattern& p, size_t from, uint32_t dst);
  Operand pattern_operand(Fn& fn, const ast::Pattern& p);
  static bool binds(const ast::Pattern& p);
  static bool gives_value(const ast::Pattern& p);
  void equation(Fn& fn, const ast::Equation& eq, Labels& fails, Binders& b);
  // One side of an equation `p1 = p2`, or the rest of one from a position on
  // (unification takes both sides apart position by position).
  struct Side {
    const ast::Pattern* p;
    size_t from = 0;  // > 0: the elements [from, n) of the tuple p (at least two)
    size_t count() const { return p->kind == ast::PatternKind::Tuple ? p->elements.size() - from : 1; }
    Side element(size_t i) const { return {p->elements[from + i].get()}; }
    Side rest(size_t i) const { return count() - i == 1 ? element(i) : Side{p, from + i}; }
    ast::Loc loc() const { return from ? p->elements[from]->loc : p->loc; }
  };
  static bool binds(Side s);
  static bool gives_value(Side s);
  void side_value(Fn& fn, Side s, uint32_t dst);
  Operand side_operand(Fn& fn, Side s);
  void side_match(Fn& fn, Side s, uint32_t src, bool owned, Labels& fails, Binders& b);
  void unify(Fn& fn, Side l, Side r, ast::Loc loc, Labels& fails, Binders& b);
  bool comparison_test(Fn& fn, const ast::Pattern& side, const ast::Pattern& other, Labels& fails);
  // The fresh names of `b` become visible in the innermost scope.
  static void publish(Fn& fn, const Binders& b) {
    for (const auto& [name, reg] : b.bound) fn.scopes.back()->regs[name] = reg;
  }

  // ---- calls
  enum class CallAs { Value, Tail, Stmt, StmtTail };
  void call(Fn& fn, const ast::Expr& e, CallAs how, uint32_t dst, uint8_t site);
  struct CallSetup {
    uint32_t a, n;
  };
  CallSetup setup_call(Fn& fn, const ast::Expr& e, bool moves, uint32_t prefer, uint32_t* global = nullptr,
                       uint8_t* in_place = nullptr);
  std::vector<const ast::Expr*> call_args(Fn& fn, const ast::Expr& e);
  uint8_t in_place_args(Fn& fn, const std::vector<const ast::Expr*>& args);
  bool self_call_in_place(Fn& fn, const ast::Expr& e);
  bool builtin_call(Fn& fn, const ast::Expr& e, uint32_t dst);
  // How many parameters the callee is known to take where the call is
  // compiled (0: not known); see known_arity_.
  uint32_t known_arity(Fn& fn, const ast::Expr& callee);

  // ---- small functions inlined (compile_inline.cpp)
 public:
  // A top-level `DEF f(params) AS body` just compiled to `code`: noted when
  // its body is a few built-in operations on its parameters, forgotten
  // otherwise (a later DEF of the same name).
  void note_inlinable(const ast::Equation& eq, const LambdaCode* code);

 private:
  struct Inlinable {
    std::vector<std::string> params;
    ast::ExprPtr body;  // a copy: the DEF's syntax is freed after its statement
    const LambdaCode* code;
  };
  std::unordered_map<std::string, Inlinable> inlinable_;
  // f(args), a value, of such a function: its body in place into R(dst),
  // behind a JNCODE whose failure goes on to the call as usual (what
  // follows this); `done` gets the jump past that call. False: not inlined.
  bool inline_call(Fn& fn, const ast::Expr& e, uint32_t dst, Labels& done);

  // ---- IF, CASE and LET ... IN
  using Arm = std::function<void(const ast::Expr&)>;
  void let_in(Fn& fn, const ast::Expr& e, Dest d);
  void let_fail(Fn& fn, const Labels& fails, ast::Loc l);
  void branches(Fn& fn, const ast::Expr& e, Dest d);
  void no_branch(Fn& fn, const ast::Expr& e, Dest d);  // what IF or CASE leaves when no branch is taken
  void case_of(Fn& fn, const ast::Expr& e, const Arm& arm, const std::function<void()>& none, bool last = false);
  bool consumable(Fn& fn, const ast::CaseAlt& a, const ast::Expr& subject);
  bool spreads(const ast::Expr& e);
  void case_of_tuple(Fn& fn, const ast::Expr& e, const Arm& arm, const std::function<void()>& none);
  void match_consumed(Fn& fn, const ast::Pattern& p, uint32_t src, Labels& fails, Binders& b);

  // ---- tails, statements and blocks
  void finish(Fn& fn, Mode mode, ast::Loc l);  // a body's end when no branch is taken
  void block_body(Fn& fn, const std::vector<ast::StmtPtr>& stmts, bool is_tail, ast::Loc l);
  bool effect(Fn& fn, const ast::Stmt& s, bool is_tail, bool lone = false);

  // ---- functions and blocks
  LambdaCode* lambda(Fn& parent, const ast::Pattern& param, const ast::Expr& body, ast::Loc loc,
                     std::unordered_map<std::string, Special> specials, std::shared_ptr<Captures> caps = nullptr,
                     LambdaCode* code = nullptr);
  void entry(Fn& fn, const ast::Pattern& param, const ast::Expr& body, Mode mode, uint32_t& at);
  void plan_factory(Fn& fn, const ast::Pattern& param, const ast::Expr& body);
  LambdaCode* named(LambdaCode* code, const std::string& name, const ast::Expr& body);
  static void check_unique(const ast::Pattern& p, const ast::Pattern* other = nullptr);
  void closure(Fn& fn, const ast::Expr& lam, uint32_t dst);
  void emit_closure(Fn& fn, LambdaCode* code, uint32_t dst, ast::Loc l);
  // CREATE's actor, named for diagnostics (greeter@4) by a symbol constant.
  void new_actor(Fn& fn, const ast::Stmt& create, uint32_t dst) {
    emit(fn, Op::NEWACTOR, create.loc, dst, constant_index(fn, Value::symbol(rt::intern_symbol(create.name))) + 1);
  }
  void block_value(Fn& fn, const ast::Expr& e, uint32_t dst);
  void group(Fn& fn, const std::vector<FunctionBinding>& fbs, const std::vector<uint32_t>& regs, ast::Loc l);

  ast::SourcePtr source_;
  // True while compiling a top-level statement whose blocks are values to be
  // run later (DEF b AS [ ... ], SEND [ ... ] TO a), so SELF and BECOME in
  // them are checked when they run, not rejected as "at top level".
  bool blocks_defer_ = false;
  rt::Globals& globals_;  // the one part of a runtime compiling needs: global slots and pinned constants
  CodeArena& arena_;
  std::map<const ast::Expr*, LambdaCode*> lambdas_;  // each literal compiled once
  std::map<const ast::Expr*, BlockCodeImpl*> blocks_;
  std::map<const void*, std::shared_ptr<Captures>> captures_;  // of each LambdaCode and BlockCodeImpl
  std::unordered_map<std::string, size_t> read_names_;         // index in global_reads of each global read
};

}  // namespace humus::compile::codegen
