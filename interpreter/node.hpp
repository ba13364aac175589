// The base classes of compiled code: expressions, patterns and statements.
//
// The compiler turns the AST into a tree of these objects once; running a
// program only calls eval/match/exec on them. Each node is specialised for
// its case at compile time (a slot read, a capture read, a two-argument call
// that skips building the argument pair, ...), so there is no name lookup
// and no interpretation of syntax while messages run.
#pragma once

#include <string>

#include "interpreter/frame.hpp"
#include "runtime/errors.hpp"

namespace humus::interp {

class Node {
 public:
  explicit Node(rt::SourceLoc l) : loc(l) {}
  virtual ~Node() = default;
  Node(const Node&) = delete;
  Node& operator=(const Node&) = delete;

  virtual Value eval(Frame& f) const = 0;
  // Statement position: a block runs here, ? does nothing, anything else is an error.
  virtual void exec(Frame& f) const;
  // The body of a behavior: runs the block it gives; false when it gives ? (unhandled).
  virtual bool exec_behavior(Frame& f) const;

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
  virtual void exec(Frame& f) const = 0;

  rt::SourceLoc loc;
};

// Runs a value in statement position (see Node::exec).
void run_statement_value(const Value& v, rt::Context& cx, const rt::SourceLoc& loc);
// A value for an error message: printed, and cut short when long.
std::string describe(const Value& v);

}  // namespace humus::interp
