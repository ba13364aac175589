// Expression nodes (LANGUAGE.md section 3), one class per specialised case.
#pragma once

#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include "interpreter/engine/node.hpp"
#include "interpreter/engine/operands.hpp"
#include "runtime/code.hpp"
#include "runtime/integer.hpp"
#include "runtime/runtime.hpp"

namespace humus::interp {

class LambdaCode;

// A literal: integer, symbol, string, TRUE, NIL, ... (pinned when boxed).
class ConstNode final : public Node {
 public:
  ConstNode(rt::SourceLoc l, Value v) : Node(l), value_(std::move(v)) {
    access = Access::Const;
    ref = &value_;
  }
  Value eval(Frame&) const override { return value_; }

 private:
  Value value_;
};

// A variable in a slot of the current frame.
class LocalNode final : public Node {
 public:
  LocalNode(rt::SourceLoc l, uint32_t slot, std::string name) : Node(l), slot_(slot), name_(std::move(name)) {
    access = Access::Slot;
    index = slot;
  }
  Value eval(Frame& f) const override {
    const Value& v = f.slots[slot_];
    if (v.empty()) [[unlikely]]
      unbound();
    return v;
  }

 private:
  [[noreturn]] void unbound() const;
  uint32_t slot_;
  std::string name_;
};

// A variable captured by the running closure.
class CaptureNode final : public Node {
 public:
  CaptureNode(rt::SourceLoc l, uint32_t i) : Node(l), index_(i) {
    access = Access::Capture;
    index = i;
  }
  Value eval(Frame& f) const override { return f.closure->captures()[index_]; }

 private:
  uint32_t index_;
};

// A global: one atomic load from a slot that never moves.
class GlobalNode final : public Node {
 public:
  GlobalNode(rt::SourceLoc l, const std::atomic<uint64_t>* cell, std::string name)
      : Node(l), cell_(cell), name_(std::move(name)) {
    access = Access::Global;
    ref = cell;
  }
  Value eval(Frame&) const override {
    Value v = Value::from_immortal_bits(cell_->load(std::memory_order_acquire));
    if (v.empty()) [[unlikely]]
      undefined();
    return v;
  }
  const std::atomic<uint64_t>* cell() const { return cell_; }
  [[noreturn]] void undefined() const;

 private:
  const std::atomic<uint64_t>* cell_;
  std::string name_;
};

// How a new closure fetches one captured value from the frame it is made in.
struct CaptureSource {
  enum class Kind : uint8_t { Slot, Capture, SelfFn, Sibling };
  Kind kind;
  uint32_t index = 0;                   // Slot, Capture
  const LambdaCode* sibling = nullptr;  // Sibling
};
Value fetch_capture(const CaptureSource& src, Frame& f);

// The captures of a function, filled while its body compiles; members of a
// mutually recursive group share one list (so any member can rebuild another).
struct CaptureList {
  std::vector<CaptureSource> sources;
};

// The running function itself (a recursive reference: no capture, no cycle).
class SelfFnNode final : public Node {
 public:
  using Node::Node;
  Value eval(Frame& f) const override { return Value::share(const_cast<rt::Closure*>(f.closure)); }
};

// Another member of the running function's recursive group.
class SiblingNode final : public Node {
 public:
  SiblingNode(rt::SourceLoc l, const LambdaCode* code) : Node(l), code_(code) {}
  Value eval(Frame& f) const override;

 private:
  const LambdaCode* code_;
};

class SelfActorNode final : public Node {
 public:
  using Node::Node;
  Value eval(Frame& f) const override;
};

class NowNode final : public Node {
 public:
  using Node::Node;
  Value eval(Frame& f) const override { return rt::make_integer(f.cx.rt.now_ms()); }
};

// \pattern.body: makes a closure holding its captured values.
class LambdaNode final : public Node {
 public:
  LambdaNode(rt::SourceLoc l, const LambdaCode* code, std::shared_ptr<const CaptureList> captures)
      : Node(l), code_(code), captures_(std::move(captures)) {}
  Value eval(Frame& f) const override;
  const LambdaCode* code() const { return code_; }
  const CaptureList& captures() const { return *captures_; }

 private:
  const LambdaCode* code_;
  std::shared_ptr<const CaptureList> captures_;
};

// f(x), f(), and f(a, b, ...) when the pair can't be skipped.
class CallNode final : public Node {
 public:
  CallNode(rt::SourceLoc l, std::unique_ptr<Node> fn, std::unique_ptr<Node> arg)
      : Node(l), fn_(std::move(fn)), arg_(std::move(arg)) {}
  Value eval(Frame& f) const override;
  bool eval_tail(Frame& f, TailCall& tc) const override;
  bool may_tail_call() const override { return true; }
  Tail exec(Frame& f, TailCall& tc) const override;

  const Node& fn() const { return *fn_; }
  const Node* arg() const { return arg_.get(); }

 private:
  std::unique_ptr<Node> fn_;
  std::unique_ptr<Node> arg_;  // null: NIL
};

// f(a, b, ...): the arguments are evaluated but not paired up. A built-in
// with a two-argument entry takes a and b directly (add(n, 1) allocates
// nothing); a Humus function whose parameter is a tuple pattern of the same
// arity binds them straight into its frame; anything else gets the tuple.
class CallNNode final : public Node {
 public:
  CallNNode(rt::SourceLoc l, std::unique_ptr<Node> fn, std::vector<std::unique_ptr<Node>> args)
      : Node(l), fn_(std::move(fn)), args_(std::move(args)) {}
  Value eval(Frame& f) const override;
  bool eval_tail(Frame& f, TailCall& tc) const override;
  bool may_tail_call() const override { return true; }
  Tail exec(Frame& f, TailCall& tc) const override;

  const Node& fn() const { return *fn_; }
  const std::vector<std::unique_ptr<Node>>& args() const { return args_; }
  // fn applied to the evaluated arguments vals[0..n): what eval gives.
  Value apply_values(const Value& fn, Value* vals, uint32_t n, rt::Context& cx) const;

 private:
  [[gnu::noinline]] Value call_now(Frame& f, const Value& fn) const;

 public:
 private:
  std::unique_ptr<Node> fn_;
  std::vector<std::unique_ptr<Node>> args_;  // 2 <= size <= TailCall::kMaxSpread
};

// A two-argument call of a global that held a built-in such as add or
// greater when the call was compiled: calls its C++ function directly,
// after checking that the global still holds it (a later DEF may rebind
// the name; then it is an ordinary call). Arithmetic and comparisons on
// small integers are done in place. make_builtin2 picks a Builtin2 whose
// operand readers suit the two arguments (see operands.hpp).
class Builtin2Node : public Node {
 public:
  Builtin2Node(rt::SourceLoc l, std::unique_ptr<GlobalNode> fn, const rt::Native* native, std::unique_ptr<Node> a,
               std::unique_ptr<Node> b);

 protected:
  enum class Op : uint8_t { Other, Add, Sub, Less, LessEqual, Greater, GreaterEqual, Eq };
  bool still_bound() const {
    return fn_->cell()->load(std::memory_order_acquire) == reinterpret_cast<uint64_t>(native_);
  }
  Value call_rebound(Frame& f) const;
  // The built-in applied to a and b: in place for small integers.
  Value compute(const Value& a, const Value& b) const {
    if (op_ != Op::Other && a.is_small() && b.is_small()) {
      // Their sum or difference always fits in 64 bits.
      const int64_t x = a.small_value(), y = b.small_value();
      switch (op_) {
        case Op::Add:
          if (Value::fits_small(x + y)) return Value::small(x + y);
          break;
        case Op::Sub:
          if (Value::fits_small(x - y)) return Value::small(x - y);
          break;
        case Op::Less:
          return Value::boolean(x < y);
        case Op::LessEqual:
          return Value::boolean(x <= y);
        case Op::Greater:
          return Value::boolean(x > y);
        case Op::GreaterEqual:
          return Value::boolean(x >= y);
        case Op::Eq:
          return Value::boolean(x == y);
        case Op::Other:
          break;
      }
    }
    return native_->fn2(a, b);
  }

  std::unique_ptr<GlobalNode> fn_;
  const rt::Native* native_;
  Op op_ = Op::Other;
  std::unique_ptr<Node> a_, b_;
};

std::unique_ptr<Node> make_builtin2(rt::SourceLoc l, std::unique_ptr<GlobalNode> fn, const rt::Native* native,
                                    std::unique_ptr<Node> a, std::unique_ptr<Node> b);

class TupleNode final : public Node {
 public:
  TupleNode(rt::SourceLoc l, std::vector<std::unique_ptr<Node>> elems) : Node(l), elems_(std::move(elems)) {}
  Value eval(Frame& f) const override;

 private:
  std::vector<std::unique_ptr<Node>> elems_;
};

class NewNode final : public Node {
 public:
  NewNode(rt::SourceLoc l, std::unique_ptr<Node> beh) : Node(l), beh_(std::move(beh)) {}
  Value eval(Frame& f) const override;

 private:
  std::unique_ptr<Node> beh_;
};

// Applies a function value (Closure or Native) to an argument.
Value apply_function(const Value& fn, const Value& arg, rt::Context& cx, const rt::SourceLoc& loc);

}  // namespace humus::interp
