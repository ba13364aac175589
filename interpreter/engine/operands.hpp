// Operand readers: how a node that consumes another node's value reads it
// when the compiler knows its kind (Node::access). A variable or a literal
// is borrowed where it lives, with no virtual call and no reference-count
// traffic; anything else is evaluated into the caller's temporary. Hot
// nodes are templates over these (Builtin2), or use operand() at run time.
#pragma once

#include "interpreter/engine/node.hpp"

namespace humus::interp {

struct SlotOperand {
  static const Value& read(const Node& n, Frame& f, Value& tmp) {
    const Value& v = f.slots[n.index];
    if (!v.empty()) [[likely]]
      return v;
    tmp = n.eval(f);  // reports the unbound name
    return tmp;
  }
};

struct CaptureOperand {
  static const Value& read(const Node& n, Frame& f, Value&) { return f.closure->captures()[n.index]; }
};

struct ConstOperand {
  static const Value& read(const Node& n, Frame&, Value&) { return *static_cast<const Value*>(n.ref); }
};

struct GlobalOperand {
  static const Value& read(const Node& n, Frame& f, Value& tmp) {
    // A global's object is immortal: the temporary holds it without a count.
    tmp = Value::from_immortal_bits(static_cast<const std::atomic<uint64_t>*>(n.ref)->load(std::memory_order_acquire));
    if (tmp.empty()) [[unlikely]]
      tmp = n.eval(f);  // reports the undefined name
    return tmp;
  }
};

struct EvalOperand {
  static const Value& read(const Node& n, Frame& f, Value& tmp) {
    tmp = n.eval(f);
    return tmp;
  }
};

// The value of `n`, borrowed or evaluated into `tmp`, chosen at run time.
inline const Value& operand(const Node& n, Frame& f, Value& tmp) {
  switch (n.access) {
    case Node::Access::Slot:
      return SlotOperand::read(n, f, tmp);
    case Node::Access::Capture:
      return CaptureOperand::read(n, f, tmp);
    case Node::Access::Const:
      return ConstOperand::read(n, f, tmp);
    case Node::Access::Global:
      return GlobalOperand::read(n, f, tmp);
    case Node::Access::Eval:
      break;
  }
  return EvalOperand::read(n, f, tmp);
}

// The value of `n`, owned: a copy of a variable or literal, or evaluated.
// Spelled out rather than built on operand(), so the value is made
// straight in the caller's result, with no temporary to move from.
inline Value value_of(const Node& n, Frame& f) {
  switch (n.access) {
    case Node::Access::Slot:
      if (const Value& v = f.slots[n.index]; !v.empty()) [[likely]]
        return v;
      break;  // unbound: eval reports it
    case Node::Access::Capture:
      return f.closure->captures()[n.index];
    case Node::Access::Const:
      return *static_cast<const Value*>(n.ref);
    case Node::Access::Global:
      if (uint64_t bits = static_cast<const std::atomic<uint64_t>*>(n.ref)->load(std::memory_order_acquire)) [[likely]]
        return Value::from_immortal_bits(bits);
      break;  // undefined: eval reports it
    case Node::Access::Eval:
      break;
  }
  return n.eval(f);
}

}  // namespace humus::interp
