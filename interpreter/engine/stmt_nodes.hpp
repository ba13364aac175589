// Statement nodes (LANGUAGE.md section 6), blocks, and the compiled code of
// functions. Effects go into the event's buffer (rt::Effects), never
// straight to the runtime: the event commits them all or none.
#pragma once

#include <memory>
#include <vector>

#include "interpreter/engine/control_nodes.hpp"

namespace humus::interp {

class SendStmt final : public StmtNode {
 public:
  SendStmt(rt::SourceLoc l, std::unique_ptr<Node> msg, std::unique_ptr<Node> target)
      : StmtNode(l), msg_(std::move(msg)), target_(std::move(target)) {}
  Tail exec(Frame& f, TailCall& tc) const override;

 private:
  std::unique_ptr<Node> msg_, target_;
};

class AfterStmt final : public StmtNode {
 public:
  AfterStmt(rt::SourceLoc l, std::unique_ptr<Node> delay, std::unique_ptr<Node> msg, std::unique_ptr<Node> target)
      : StmtNode(l), delay_(std::move(delay)), msg_(std::move(msg)), target_(std::move(target)) {}
  Tail exec(Frame& f, TailCall& tc) const override;

 private:
  std::unique_ptr<Node> delay_, msg_, target_;
};

// BECOME beh. When beh is a call of a behavior factory (the usual
// `BECOME counter(add(sum, msg))`), the closure is not made here: its
// captured values go to the event's effects, and the commit reuses the
// actor's closure for them when it can (Effects::pending_code).
class BecomeStmt final : public StmtNode {
 public:
  BecomeStmt(rt::SourceLoc l, std::unique_ptr<Node> beh);
  Tail exec(Frame& f, TailCall& tc) const override;

 private:
  bool eval_call1(Frame& f, Value& beh) const;
  bool eval_calln(Frame& f, Value& beh) const;
  bool pend_factory(Frame& f, const Value& fn, const Value* arg, const Value* args, uint32_t n) const;
  // The errors of BECOME: at top level, not a function (when beh is given), a second one.
  void check(Frame& f, const Value* beh = nullptr) const;
  std::unique_ptr<Node> beh_;
  const CallNode* call1_ = nullptr;   // beh_ as a one-argument call
  const CallNNode* calln_ = nullptr;  // beh_ as a call of several arguments
};

class ThrowStmt final : public StmtNode {
 public:
  ThrowStmt(rt::SourceLoc l, std::unique_ptr<Node> value) : StmtNode(l), value_(std::move(value)) {}
  Tail exec(Frame& f, TailCall& tc) const override;

 private:
  std::unique_ptr<Node> value_;
};

// An expression in statement position.
class ExprStmt final : public StmtNode {
 public:
  ExprStmt(rt::SourceLoc l, std::unique_ptr<Node> e) : StmtNode(l), expr_(std::move(e)) {}
  Tail exec(Frame& f, TailCall& tc) const override {
    tc.site = nullptr;  // this statement is the site of its own errors
    return expr_->exec(f, tc);
  }

 private:
  std::unique_ptr<Node> expr_;
};

// LET/DEF in a block: a failed match is a "LET mismatch" error.
class BindStmt final : public StmtNode {
 public:
  BindStmt(rt::SourceLoc l, std::unique_ptr<Equation> eq) : StmtNode(l), eq_(std::move(eq)) {}
  Tail exec(Frame& f, TailCall& tc) const override;

 private:
  std::unique_ptr<Equation> eq_;
};

// CREATE name WITH expr: the actor already exists (made at the start of the
// block, so it can be used before this statement); this gives it a behavior.
class CreateStmt final : public StmtNode {
 public:
  CreateStmt(rt::SourceLoc l, uint32_t slot, std::unique_ptr<Node> beh)
      : StmtNode(l), slot_(slot), beh_(std::move(beh)) {}
  Tail exec(Frame& f, TailCall& tc) const override;

 private:
  uint32_t slot_;
  std::unique_ptr<Node> beh_;
};

// A recursive group of local functions: all closures are made before any
// is stored, each from the group's shared capture list.
class GroupStmt final : public StmtNode {
 public:
  struct Member {
    uint32_t slot;
    std::unique_ptr<LambdaNode> lambda;
  };
  GroupStmt(rt::SourceLoc l, std::vector<Member> members) : StmtNode(l), members_(std::move(members)) {}
  Tail exec(Frame& f, TailCall&) const override {
    for (const auto& m : members_) f.slots[m.slot] = m.lambda->eval(f);
    return Tail::None;
  }

 private:
  std::vector<Member> members_;
};

// The statements of a block in the order the compiler chose (LANGUAGE.md §7
// dataflow): fresh actors for every CREATE first, then bindings in
// dependency order, then the effect statements in source order.
struct BlockBody {
  std::vector<uint32_t> creates;
  std::vector<std::unique_ptr<StmtNode>> steps;
  // Runs the steps; returns what the last one left to run (see Tail).
  Tail run(Frame& f, TailCall& tc) const {
    // Most blocks are one statement (a CASE branch, a behavior's body).
    if (creates.empty() && steps.size() == 1) [[likely]]
      return steps[0]->exec(f, tc);
    return run_all(f, tc);
  }

 private:
  Tail run_all(Frame& f, TailCall& tc) const;
  void make_actors(Frame& f) const;
};

class BlockNode;

// The code of a block value: run_tail runs it in a fresh frame of the
// layout it was made in, with the saved slots put back.
class BlockCodeImpl final : public rt::BlockCode {
 public:
  BlockCodeImpl(rt::SourceLoc l, const BlockNode& n, const FrameLayout& fl) : BlockCode(l), node(n), layout(fl) {}

  const BlockNode& node;
  const FrameLayout& layout;
};

// [ stmts ]: runs in place in statement position; in value position it
// becomes a block value that saves the slots of this frame it reads.
class BlockNode final : public Node {
 public:
  BlockNode(rt::SourceLoc l, const FrameLayout& layout) : Node(l), code_(l, *this, layout) {}
  Value eval(Frame& f) const override;
  Tail exec(Frame& f, TailCall& tc) const override { return body.run(f, tc); }
  Tail exec_behavior(Frame& f, TailCall& tc) const override { return body.run(f, tc); }

  BlockBody body;
  std::vector<uint32_t> saved_slots;  // slots outside the block that it reads

 private:
  BlockCodeImpl code_;
};

// The code of a lambda: match the argument into a fresh frame, run the body.
class LambdaCode final : public rt::FunctionCode {
 public:
  LambdaCode(rt::SourceLoc l, std::shared_ptr<CaptureList> caps) : FunctionCode(l), captures(std::move(caps)) {
    tail_callable = true;
  }
  Value apply(const rt::Closure& self, const Value& arg, rt::Context& cx) const final;
  bool run_behavior(const rt::Closure& self, const Value& msg, rt::Context& cx) const override;

  // Applies the function to the tuple (args[0], ..., args[n-1]) without
  // building it; n must equal spread.size().
  Value apply_spread(const rt::Closure& self, Value* args, uint32_t n, rt::Context& cx) const;

  // Binds a call's argument in a fresh frame: one value (borrowed, or
  // taken over), or the n elements of a tuple (taken over: they are left
  // empty or moved from). False when it does not match the parameter.
  bool bind(Frame& f, const Value& arg) const {
    if (arg_slot_ >= 0) {
      f.slots[arg_slot_] = arg;
      return true;
    }
    return param->match(arg, f);
  }
  bool bind(Frame& f, Value&& arg) const {
    if (arg_slot_ >= 0) {
      f.slots[arg_slot_] = std::move(arg);
      return true;
    }
    bool ok = param->match(arg, f);
    arg = Value();
    return ok;
  }
  bool bind_spread(Frame& f, Value* args, uint32_t n) const {
    if (move_spread_) [[likely]] {
      for (uint32_t i = 0; i < n; ++i)
        if (spread_slots_[i] >= 0)
          f.slots[spread_slots_[i]] = std::move(args[i]);
        else
          args[i] = Value();
      return true;
    }
    return bind_spread_matching(f, args, n);
  }
  // Once param and spread are set: finds the parameters that are plain
  // names (or _), whose arguments binding moves straight into their slots.
  void plan_binding();
  // Once the body is compiled: a body that is just a lambda whose captures
  // are parameters (or the function's own captures) makes a behavior
  // factory, `DEF counter(sum) AS \msg.[...]`. Applying one makes the
  // closure straight from the arguments, without a frame.
  void plan_factory();
  // A factory applied to one argument (n == 0) or n spread ones: the code
  // of the closure it makes straight from them, or null (the general path).
  const LambdaCode* factory_for(uint32_t n) const {
    if (!factory_) return nullptr;
    return (n ? move_spread_ && spread.size() == n : arg_slot_ >= 0) ? factory_ : nullptr;
  }
  uint32_t factory_captures() const { return uint32_t(factory_sources_.size()); }
  // The values that closure captures, copied to out[0..factory_captures()).
  void capture_arguments(const rt::Closure& self, const Value* arg, const Value* args, Value* out) const;

 private:
  bool bind_spread_matching(Frame& f, Value* args, uint32_t n) const;
  Value run(const rt::Closure& self, const Value* arg, Value* args, uint32_t n, rt::Context& cx) const;
  Value run_loop(const rt::Closure& self, Value arg, Value* args, uint32_t n, rt::Context& cx) const;

  Value make_from_arguments(const rt::Closure& self, const Value* arg, const Value* args) const;

  // For a factory: where each capture of the closure it makes comes from.
  struct FactorySource {
    enum class Kind : uint8_t { Arg, Capture, SelfFn };
    Kind kind;
    uint32_t index;  // Arg: the argument (0 for a single one); Capture: ours
  };
  const LambdaCode* factory_ = nullptr;  // the code of the closure it makes
  std::vector<FactorySource> factory_sources_;

  int32_t arg_slot_ = -1;              // the parameter's slot when it is a plain name
  bool move_spread_ = false;           // every element of a tuple parameter is a name or _
  std::vector<int32_t> spread_slots_;  // their slots (-1: _)

 public:
  FrameLayout layout;
  std::unique_ptr<PatNode> param;
  std::vector<const PatNode*> spread;  // the parameter's elements, when it is a tuple pattern
  std::unique_ptr<Node> body;
  bool direct = false;  // body->may_tail_call() is false: run() needs no loop
  std::shared_ptr<CaptureList> captures;
};

}  // namespace humus::interp
