// The slow paths of the built-ins the VM computes in place (builtin_slow.hpp):
// big integers and other values through the runtime's built-ins, and a
// built-in whose global the program bound to something else.
#include "interpreter/engine/builtin_slow.hpp"

#include <string_view>
#include <vector>

#include "grammar/suggest.hpp"
#include "interpreter/engine/calls.hpp"
#include "interpreter/engine/fast_builtins.hpp"
#include "interpreter/engine/vm.hpp"
#include "runtime/builtins/functions.hpp"
#include "runtime/integer.hpp"
#include "runtime/runtime.hpp"

namespace humus::engine::vm {

namespace {

// The runtime's built-in of each instruction of kFastBuiltins (its plain
// form and its test), for what the fast paths leave (big integers, wrong
// types) and for the name of a global bound to something else.
struct Builtins {
  const rt::Native* by_op[256] = {};
  Builtins() {
    for (const FastBuiltin& b : kFastBuiltins)
      for (const rt::Native* n : rt::builtin_functions())
        if (std::string_view(n->name) == b.name) {
          by_op[size_t(b.op)] = n;
          if (b.test) by_op[size_t(*b.test)] = n;
        }
  }
};
const Builtins& builtins() {
  static const Builtins b;
  return b;
}

// op(x, y) when the built-in's global has been bound again: whatever it holds now.
[[gnu::noinline]] Value call_rebound(Op op, const Value& x, const Value& y, rt::Context& cx, const rt::SourceLoc& loc) {
  const char* name = builtins().by_op[size_t(op)]->name;
  auto slot = cx.rt.globals().find(name);
  Value fn = slot ? cx.rt.globals().get(*slot) : Value();
  if (fn.empty()) undefined_global(name, cx, loc);
  Value args[2] = {x, y};
  return call_value(fn, args, 2, cx, loc);
}

// A built-in by instruction, on values the fast path does not take.
Value builtin_value(Op op, const Value& x, const Value& y) {
  switch (op) {
    case Op::ADD:
      return rt::int_add(x, y);
    case Op::SUB:
      return rt::int_sub(x, y);
    case Op::MUL:
      return rt::int_mul(x, y);
    case Op::DIV:
      return rt::int_div(x, y);
    case Op::MOD:
      return rt::int_mod(x, y);
    case Op::EQ:
      return Value::boolean(equal_values(x, y));
    default:
      return builtins().by_op[size_t(op)]->fn2(x, y);
  }
}

}  // namespace

void undefined_global(const std::string& name, rt::Context& cx, const rt::SourceLoc& loc) {
  std::vector<std::string> candidates;
  for (auto& [bound, value] : cx.rt.globals().bound())
    if (!rt::Globals::is_internal(bound)) candidates.push_back(std::move(bound));
  rt::runtime_error(loc, "'" + name + "' is not defined" + parse::did_you_mean(parse::closest_names(name, candidates)));
}

Value builtin_slow(Op op, const Value& x, const Value& y, bool intact, rt::Context& cx, const rt::SourceLoc& loc) {
  if (!intact) return call_rebound(op, x, y, cx, loc);
  try {
    return builtin_value(op, x, y);
  } catch (rt::EventError& e) {
    rethrow_at(e, loc);
  }
}

}  // namespace humus::engine::vm
