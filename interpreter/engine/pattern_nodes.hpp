// Pattern nodes (LANGUAGE.md section 4) and equations (section 5).
#pragma once

#include <memory>
#include <vector>

#include "interpreter/engine/expr_nodes.hpp"
#include "runtime/equality.hpp"

namespace humus::interp {

class WildcardPat final : public PatNode {
 public:
  using PatNode::PatNode;
  bool match(const Value&, Frame&) const override { return true; }
};

class BindPat final : public PatNode {
 public:
  BindPat(rt::SourceLoc l, uint32_t slot) : PatNode(l), slot_(slot) {}
  bool match(const Value& v, Frame& f) const override {
    f.slots[slot_] = v;
    return true;
  }
  uint32_t slot() const { return slot_; }

 private:
  uint32_t slot_;
};

// A literal: immediates compare as words; boxed ones (big integers, strings) structurally.
class ConstPat final : public PatNode {
 public:
  ConstPat(rt::SourceLoc l, Value v) : PatNode(l), value_(std::move(v)) {}
  bool match(const Value& v, Frame&) const override {
    return value_.is_object() ? rt::equal(v, value_) : v.same(value_);
  }
  const Value& value() const { return value_; }

 private:
  Value value_;
};

// $term: a value equal to the term's value.
class ValuePat final : public PatNode {
 public:
  ValuePat(rt::SourceLoc l, std::unique_ptr<Node> term) : PatNode(l), term_(std::move(term)) {}
  bool match(const Value& v, Frame& f) const override { return rt::equal(v, term_->eval(f)); }

 private:
  std::unique_ptr<Node> term_;
};

class SelfPat final : public PatNode {
 public:
  using PatNode::PatNode;
  bool match(const Value& v, Frame& f) const override { return f.cx.self && v.is_actor() && v.object() == f.cx.self; }
};

// p1, p2, ..., pn: element by element; pn matches the rest.
class TuplePat final : public PatNode {
 public:
  TuplePat(rt::SourceLoc l, std::vector<std::unique_ptr<PatNode>> elems) : PatNode(l), elems_(std::move(elems)) {}
  const std::vector<std::unique_ptr<PatNode>>& elements() const { return elems_; }
  bool match(const Value& v, Frame& f) const override {
    const Value* cur = &v;
    const size_t last = elems_.size() - 1;
    for (size_t i = 0; i < last; ++i) {
      if (!cur->is_pair()) return false;
      if (!elems_[i]->match(rt::head(*cur), f)) return false;
      cur = &rt::tail(*cur);
    }
    return elems_[last]->match(*cur, f);
  }

 private:
  std::vector<std::unique_ptr<PatNode>> elems_;
};

// An equation of LET, IF or ELIF: binds slots when it holds.
class Equation {
 public:
  virtual ~Equation() = default;
  virtual bool holds(Frame& f) const = 0;
};

// ptrn = ptrn (one side gives the value, the other is matched), or DEF ptrn AS expr.
class MatchEquation final : public Equation {
 public:
  MatchEquation(std::unique_ptr<Node> value, std::unique_ptr<PatNode> pattern)
      : value_(std::move(value)), pattern_(std::move(pattern)) {}
  bool holds(Frame& f) const override { return pattern_->match(value_->eval(f), f); }

 private:
  std::unique_ptr<Node> value_;
  std::unique_ptr<PatNode> pattern_;
};

// f(ptrn) = expr: binds f to a closure; always holds.
class FunctionEquation final : public Equation {
 public:
  FunctionEquation(uint32_t slot, std::unique_ptr<Node> lambda) : slot_(slot), lambda_(std::move(lambda)) {}
  bool holds(Frame& f) const override {
    f.slots[slot_] = lambda_->eval(f);
    return true;
  }

 private:
  uint32_t slot_;
  std::unique_ptr<Node> lambda_;
};

}  // namespace humus::interp
