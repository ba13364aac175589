// The base classes of compiled code: expressions, patterns and statements.
//
// The compiler turns the AST into a tree of these objects once; running a
// program only calls eval/match/exec on them. Each node is specialised for
// its case at compile time (a slot read, a capture read, a two-argument call
// that skips building the argument pair, ...), so there is no name lookup
// and no interpretation of syntax while messages run.
#pragma once

#include <atomic>
#include <string>

#include "interpreter/engine/frame.hpp"
#include "runtime/errors.hpp"

namespace humus::interp {

// A call left pending in tail position: the caller's loop makes it, so a
// tail-recursive function runs in constant C++ stack. Statements use it too,
// for what they leave to run after themselves (see Tail).
struct TailCall {
  static constexpr uint32_t kMaxSpread = 8;
  // Each value sits in an anonymous union, so that the destructor decides
  // how to drop them: every event and every function call makes one of
  // these, and it is nearly always empty again at the end.
  union {
    Value fn;  // a Closure whose code is tail_callable
  };
  union {
    Value arg;  // the argument, when nargs == 0
  };
  uint32_t nargs = 0;  // else the elements of a tuple argument, not paired up
  union {
    Value args[kMaxSpread];
  };
  union {
    Value value;  // the result, when there is no pending call; a block for Tail::Block
  };
  // For Tail::Call: where the call statement is, so an error about what the
  // callee gave ("a statement must give a block") points at the statement.
  const rt::SourceLoc* site = nullptr;

  TailCall() : fn(), arg(), args(), value() {}
  TailCall(const TailCall&) = delete;
  TailCall& operator=(const TailCall&) = delete;
  ~TailCall() {
    static_assert(kMaxSpread == 8);  // spelled out: a loop here is not unrolled
    const uint64_t any = fn.bits() | arg.bits() | value.bits() | args[0].bits() | args[1].bits() | args[2].bits() |
                         args[3].bits() | args[4].bits() | args[5].bits() | args[6].bits() | args[7].bits();
    if (any) [[unlikely]]
      drop_all();
  }

 private:
  void drop_all() {
    fn.~Value();
    arg.~Value();
    for (Value& a : args) a.~Value();
    value.~Value();
  }
};

// What a statement leaves to run after itself, in its tail position:
// nothing, a block value (in tc.value), or a call whose result is to be run
// as a statement (tc.fn and its arguments). run_tail makes these in a loop,
// so a loop written as a block whose last statement calls the function
// again runs in constant C++ stack and allocates no block value per turn.
// Unhandled is only for a behavior's body that gave ?.
enum class Tail : uint8_t { None, Block, Call, Unhandled };

class Node {
 public:
  explicit Node(rt::SourceLoc l) : loc(l) {}
  virtual ~Node() = default;
  Node(const Node&) = delete;
  Node& operator=(const Node&) = delete;

  virtual Value eval(Frame& f) const = 0;
  // Tail position of a function body: true with tc.fn/tc.arg set when the
  // result is a call still to be made, else false with tc.value set.
  virtual bool eval_tail(Frame& f, TailCall& tc) const {
    tc.value = eval(f);
    return false;
  }
  // Whether eval_tail can ever leave a call pending (a function whose body
  // cannot is applied without the tail-call loop's bookkeeping).
  virtual bool may_tail_call() const { return false; }
  // Statement position: runs the statements it stands for, and returns what
  // is left to run (see Tail). ? does nothing; any other value is an error.
  virtual Tail exec(Frame& f, TailCall& tc) const;
  // The body of a behavior: like exec, or Unhandled when it gives ?.
  virtual Tail exec_behavior(Frame& f, TailCall& tc) const;

  rt::SourceLoc loc;

  // How a consumer reads a variable or a literal in place, without a
  // virtual call or a copy (operands.hpp): set by those nodes' constructors.
  enum class Access : uint8_t { Eval, Slot, Capture, Const, Global };
  Access access = Access::Eval;
  uint32_t index = 0;         // Slot, Capture
  const void* ref = nullptr;  // Const: the Value; Global: its cell
};

class PatNode {
 public:
  explicit PatNode(rt::SourceLoc l) : loc(l) {}
  virtual ~PatNode() = default;
  PatNode(const PatNode&) = delete;
  PatNode& operator=(const PatNode&) = delete;
  // Matches `v`, binding slots of `f`.
  virtual bool match(const Value& v, Frame& f) const = 0;

  rt::SourceLoc loc;
};

class StmtNode {
 public:
  explicit StmtNode(rt::SourceLoc l) : loc(l) {}
  virtual ~StmtNode() = default;
  StmtNode(const StmtNode&) = delete;
  StmtNode& operator=(const StmtNode&) = delete;
  // Runs the statement; returns what is left to run (see Node::exec).
  virtual Tail exec(Frame& f, TailCall& tc) const = 0;

  rt::SourceLoc loc;
};

// A value in statement position: Block (moved into tc.value) or None for ?;
// any other value is an error reported at `loc`.
Tail statement_value(Value v, TailCall& tc, const rt::SourceLoc& loc);
// Runs what a statement left (see Tail), and everything that leaves, in a
// loop; tc is emptied. Non-tail statements and behaviors end up here.
void run_tail(Tail t, TailCall& tc, rt::Context& cx);
// Runs `v` as a statement: a block value runs, ? does nothing, anything
// else is an error reported at `loc`.
void run_statement_value(Value v, const rt::SourceLoc& loc, rt::Context& cx);
// A value for an error message: printed, and cut short when long.
std::string describe(const Value& v);

}  // namespace humus::interp
