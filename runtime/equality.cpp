// Structural equality (LANGUAGE.md section 2), iterative.
//
// Tails are followed in a loop; a pair of heads that are both pairs is kept
// on an explicit stack for later, so the stack grows with head nesting only.
#include "runtime/equality.hpp"

#include <utility>
#include <vector>

#include "runtime/integer.hpp"

namespace humus::rt {

namespace {

// Equality of two values that are not both pairs (identity already failed).
bool equal_leaf(const Value& a, const Value& b) {
  // Normalisation means a big integer never equals a small one, but compare
  // by value anyway: cheap, and robust against an unnormalised BigInt.
  if (a.is_integer() && b.is_integer()) return int_compare(a, b) == 0;
  return false;  // immediates and identity kinds: equal only when same()
}

}  // namespace

bool equal(const Value& a0, const Value& b0) {
  std::vector<std::pair<const Value*, const Value*>> pending;
  const Value* a = &a0;
  const Value* b = &b0;
  for (;;) {
    // Compare the chains starting at *a and *b.
    for (;;) {
      if (a->same(*b)) break;
      if (a->is_pair() && b->is_pair()) {
        const Pair* pa = a->as<Pair>();
        const Pair* pb = b->as<Pair>();
        if (pa->head.is_pair() && pb->head.is_pair()) {
          if (!pa->head.same(pb->head)) pending.emplace_back(&pa->head, &pb->head);
        } else if (!pa->head.same(pb->head) && !equal_leaf(pa->head, pb->head)) {
          return false;
        }
        a = &pa->tail;
        b = &pb->tail;
        continue;
      }
      if (!equal_leaf(*a, *b)) return false;
      break;
    }
    if (pending.empty()) return true;
    a = pending.back().first;
    b = pending.back().second;
    pending.pop_back();
  }
}

}  // namespace humus::rt
