// The table of built-ins computed in place (engine/fast_builtins.hpp), which
// the compiler reads by name and the VM's slow paths by instruction.
#include <doctest/doctest.h>

#include <set>
#include <string_view>

#include "interpreter/engine/fast_builtins.hpp"
#include "runtime/builtins/functions.hpp"

using humus::engine::fast_builtin;
using humus::engine::FastBuiltin;
using humus::engine::kFastBuiltins;
using humus::engine::Op;

TEST_CASE("every built-in computed in place is a runtime built-in of two arguments") {
  for (const FastBuiltin& b : kFastBuiltins) {
    CAPTURE(b.name);
    const humus::rt::Native* found = nullptr;
    for (const humus::rt::Native* n : humus::rt::builtin_functions())
      if (std::string_view(n->name) == b.name) found = n;
    REQUIRE(found != nullptr);
    CHECK(bool(found->fn2));  // the slow paths call it with two values
  }
}

TEST_CASE("each instruction belongs to one built-in, found by name and by instruction") {
  std::set<Op> ops;
  for (const FastBuiltin& b : kFastBuiltins) {
    CAPTURE(b.name);
    CHECK(fast_builtin(b.name) == &b);
    CHECK(ops.insert(b.op).second);
    CHECK(fast_builtin(b.op) == &b);
    if (b.test) {
      CHECK(ops.insert(*b.test).second);
      CHECK(fast_builtin(*b.test) == &b);
    }
  }
  CHECK(fast_builtin("add")->op == Op::ADD);
  CHECK(fast_builtin("less")->test == Op::JNLESS);
  CHECK(!fast_builtin("eq")->test);
  CHECK(fast_builtin("println") == nullptr);
  CHECK(fast_builtin(Op::MOVE) == nullptr);
}
