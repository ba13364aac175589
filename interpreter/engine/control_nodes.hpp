// LET ... IN, IF/ELIF/ELSE and CASE. Each can sit in value position (eval),
// statement position (exec) or be a behavior's body (exec_behavior); the
// last two run the chosen branch in place, so a branch that is a block
// literal never becomes a heap-allocated block value.
#pragma once

#include <memory>
#include <vector>

#include "interpreter/engine/pattern_nodes.hpp"

namespace humus::interp {

class LetInNode final : public Node {
 public:
  LetInNode(rt::SourceLoc l, std::unique_ptr<Equation> eq, std::unique_ptr<Node> body)
      : Node(l), eq_(std::move(eq)), body_(std::move(body)) {}
  Value eval(Frame& f) const override {
    bind(f);
    return body_->eval(f);
  }
  bool eval_tail(Frame& f, TailCall& tc) const override {
    bind(f);
    return body_->eval_tail(f, tc);
  }
  bool may_tail_call() const override { return body_->may_tail_call(); }
  Tail exec(Frame& f, TailCall& tc) const override {
    bind(f);
    return body_->exec(f, tc);
  }
  Tail exec_behavior(Frame& f, TailCall& tc) const override {
    bind(f);
    return body_->exec_behavior(f, tc);
  }

 private:
  void bind(Frame& f) const;
  std::unique_ptr<Equation> eq_;
  std::unique_ptr<Node> body_;
};

// IF and CASE: pick one branch (or none, giving ?), then be that branch, in
// whichever position the whole expression stands.
template <class Derived>
class ChoiceNode : public Node {
 public:
  using Node::Node;
  Value eval(Frame& f) const override {
    const Node* n = pick(f);
    return n ? n->eval(f) : Value::undefined();
  }
  bool eval_tail(Frame& f, TailCall& tc) const override {
    if (const Node* n = pick(f)) return n->eval_tail(f, tc);
    tc.value = Value::undefined();
    return false;
  }
  bool may_tail_call() const override { return static_cast<const Derived*>(this)->any_branch_may_tail_call(); }
  Tail exec(Frame& f, TailCall& tc) const override {
    const Node* n = pick(f);
    return n ? n->exec(f, tc) : Tail::None;
  }
  Tail exec_behavior(Frame& f, TailCall& tc) const override {
    const Node* n = pick(f);
    return n ? n->exec_behavior(f, tc) : Tail::Unhandled;
  }

 private:
  const Node* pick(Frame& f) const { return static_cast<const Derived*>(this)->choose(f); }
};

class IfNode final : public ChoiceNode<IfNode> {
 public:
  struct Branch {
    std::unique_ptr<Equation> condition;
    std::unique_ptr<Node> body;
  };
  IfNode(rt::SourceLoc l, std::vector<Branch> branches, std::unique_ptr<Node> otherwise)
      : ChoiceNode(l), branches_(std::move(branches)), else_(std::move(otherwise)) {}
  // The first branch whose equation holds (binding its names), else ELSE.
  const Node* choose(Frame& f) const {
    for (const auto& b : branches_)
      if (b.condition->holds(f)) return b.body.get();
    return else_.get();
  }
  bool any_branch_may_tail_call() const {
    for (const auto& b : branches_)
      if (b.body->may_tail_call()) return true;
    return else_ && else_->may_tail_call();
  }

 private:
  std::vector<Branch> branches_;
  std::unique_ptr<Node> else_;
};

class CaseNode final : public ChoiceNode<CaseNode> {
 public:
  struct Alt {
    std::unique_ptr<PatNode> pattern;
    std::unique_ptr<Node> body;
    // How the pattern is tried: most are a one-word literal (TRUE, #get,
    // 0; compared as words), _ or a name, without a virtual call.
    enum class Test : uint8_t { Match, Word, Any, Bind, Tuple };
    Test test = Test::Match;
    uint64_t bits = 0;  // Word: the literal; Bind: the slot
  };
  CaseNode(rt::SourceLoc l, std::unique_ptr<Node> subject, std::vector<Alt> alts)
      : ChoiceNode(l), subject_(std::move(subject)), alts_(std::move(alts)) {
    for (auto& a : alts_) {
      if (const auto* c = dynamic_cast<const ConstPat*>(a.pattern.get()); c && !c->value().is_object()) {
        a.test = Alt::Test::Word;
        a.bits = c->value().bits();
      } else if (dynamic_cast<const WildcardPat*>(a.pattern.get())) {
        a.test = Alt::Test::Any;
      } else if (const auto* b = dynamic_cast<const BindPat*>(a.pattern.get())) {
        a.test = Alt::Test::Bind;
        a.bits = b->slot();
      } else if (const auto* t = dynamic_cast<const TuplePat*>(a.pattern.get()); t && t->elements().size() >= 2) {
        a.test = Alt::Test::Tuple;  // only a pair can match: anything else is passed over at once
      }
    }
  }
  // The first alternative whose pattern matches the subject.
  const Node* choose(Frame& f) const {
    Value tmp;
    const Value& v = operand(*subject_, f, tmp);
    for (const auto& a : alts_) {
      switch (a.test) {
        case Alt::Test::Word:
          if (v.bits() == a.bits) return a.body.get();
          continue;
        case Alt::Test::Any:
          return a.body.get();
        case Alt::Test::Bind:
          f.slots[a.bits] = v;
          return a.body.get();
        case Alt::Test::Tuple:
          if (v.is_pair() && a.pattern->match(v, f)) return a.body.get();
          continue;
        case Alt::Test::Match:
          if (a.pattern->match(v, f)) return a.body.get();
          continue;
      }
    }
    return nullptr;
  }
  bool any_branch_may_tail_call() const {
    for (const auto& a : alts_)
      if (a.body->may_tail_call()) return true;
    return false;
  }

 private:
  std::unique_ptr<Node> subject_;
  std::vector<Alt> alts_;
};

}  // namespace humus::interp
