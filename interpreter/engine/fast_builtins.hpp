// The built-ins the VM computes in place (add, less, eq, ...): one table, read
// by name by the compiler and by instruction by the VM's slow paths.
//
// A call `add(x, y)` of a global that still holds its built-in compiles to
// the entry's instruction (compile/compile_calls.cpp, which also makes the
// forms with a constant: ADDI, SUBI, DIVP, MODP), and `IF $less(a, b) = TRUE`
// to its test (compile/compile_patterns.cpp). When the operands are not
// small integers, or the program has bound the name to something else since,
// the VM calls the runtime's built-in of that name, or the global's value
// (builtin_slow.cpp).
#pragma once

#include <optional>
#include <string_view>

#include "interpreter/engine/proto.hpp"

namespace humus::engine {

struct FastBuiltin {
  std::string_view name;   // the global, a built-in of two arguments (runtime/builtins/functions.cpp)
  Op op;                   // R(a) = name(R(b), R(c))
  std::optional<Op> test;  // jump unless name(R(a), R(b)) = TRUE
};

inline constexpr FastBuiltin kFastBuiltins[] = {
    {"add", Op::ADD, {}},
    {"sub", Op::SUB, {}},
    {"mul", Op::MUL, {}},
    {"div", Op::DIV, {}},
    {"mod", Op::MOD, {}},
    {"less", Op::LESS, Op::JNLESS},
    {"less_equal", Op::LESSEQ, Op::JNLESSEQ},
    {"greater", Op::GREATER, Op::JNGREATER},
    {"greater_equal", Op::GREATEREQ, Op::JNGREATEREQ},
    {"compare", Op::COMPARE, {}},
    {"eq", Op::EQ, {}},
};

// The entry of a global's name, or null.
constexpr const FastBuiltin* fast_builtin(std::string_view name) {
  for (const FastBuiltin& b : kFastBuiltins)
    if (b.name == name) return &b;
  return nullptr;
}

// The entry whose instruction or test `op` is, or null.
constexpr const FastBuiltin* fast_builtin(Op op) {
  for (const FastBuiltin& b : kFastBuiltins)
    if (b.op == op || b.test == op) return &b;
  return nullptr;
}

}  // namespace humus::engine
