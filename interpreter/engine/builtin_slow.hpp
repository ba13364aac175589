// The slow paths of the built-ins the VM computes in place (ADD, LESS, EQ
// and their kin, opcodes.hpp), in builtin_slow.cpp: values other than small
// integers, or a built-in's global bound to something else.
#pragma once

#include <string>

#include "interpreter/engine/proto.hpp"
#include "runtime/context.hpp"
#include "runtime/equality.hpp"
#include "runtime/source_loc.hpp"

namespace humus::engine::vm {

// The equality of section 2 with the common cases inline: equal words
// (same small integer, symbol, constant or object) are equal; a word that is
// not an object equals nothing else (integers are normalised, so a small
// integer never equals a big one).
inline bool equal_values(const Value& a, const Value& b) {
  if (a.same(b)) return true;
  if (!a.is_object() || !b.is_object()) return false;
  return rt::equal(a, b);
}

// op(x, y) for the built-in of instruction `op`, the plain or the test of
// an entry of kFastBuiltins (fast_builtins.hpp),
// on values the fast path does not take (not small integers, a result out
// of the small range), or, unless `intact`, whatever its global holds now.
[[gnu::noinline]] Value builtin_slow(Op op, const Value& x, const Value& y, bool intact, rt::Context& cx,
                                     const rt::SourceLoc& loc);

// A global read before anything bound it, with the closest bound names
// (a late-bound name of a script, or the REPL's; scripts are checked first).
[[noreturn, gnu::noinline]] void undefined_global(const std::string& name, rt::Context& cx, const rt::SourceLoc& loc);

}  // namespace humus::engine::vm
