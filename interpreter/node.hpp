// The base classes of compiled code: expressions, patterns and statements.
//
// The compiler turns the AST into a tree of these objects once; running a
// program only calls eval/match/exec on them. Each node is specialised for
// its case at compile time (a slot read, a capture read, a two-argument call
// that skips building the argument pair, ...), so there is no name lookup
// and no interpretation of syntax while messages run.
#pragma once

#include <optional>
#include <string>

#include "interpreter/frame.hpp"
#include "runtime/errors.hpp"

namespace humus::interp {

// A call left pending in tail position: the caller's loop makes it, so a
// tail-recursive function runs in constant C++ stack.
struct TailCall {
  static constexpr uint32_t kMaxSpread = 8;
  Value fn;     // a Closure whose code is tail_callable
  Value arg;    // the argument, when nargs == 0
  uint32_t nargs = 0;          // else the elements of a tuple argument, not paired up
  Value args[kMaxSpread];
  Value value;  // the result, when there is no pending call
};

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
  // Statement position: runs the statements it stands for, and returns a
  // block value still to run (it gave a block in tail position), or empty.
  // ? does nothing; any other value is an error.
  virtual Value exec(Frame& f) const;
  // The body of a behavior: like exec, or nullopt when it gives ? (unhandled).
  virtual std::optional<Value> exec_behavior(Frame& f) const;

  rt::SourceLoc loc;
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
  // Returns a block value still to run (see Node::exec), or empty.
  virtual Value exec(Frame& f) const = 0;

  rt::SourceLoc loc;
};

// A value in statement position: the block to run, empty for ?, else an error.
Value statement_block(Value v, const rt::SourceLoc& loc);
// A value for an error message: printed, and cut short when long.
std::string describe(const Value& v);

}  // namespace humus::interp
