// Structural equality (LANGUAGE.md section 2) and the total order of values
// (docs/language.md, "Ordering"), both iterative.
//
// Tails are followed in a loop; a pair of heads that are both pairs is kept
// on an explicit stack for later, so the stack grows with head nesting only.
// A packed string (str.hpp) is walked as the list it stands for, a position
// inside it being the string and an index; two packed strings are compared
// code point by code point without walking anything else.
#include "runtime/equality.hpp"

#include <algorithm>
#include <cstring>
#include <utility>
#include <vector>

#include "runtime/actor.hpp"
#include "runtime/integer.hpp"
#include "runtime/str.hpp"
#include "runtime/symbols.hpp"

namespace humus::rt {

namespace {

const Value kNil = Value::nil();

// A place in a list: a value, or the code point at index i of a packed string.
struct Pos {
  const Value* v;
  uint32_t i = 0;

  bool cons() const { return v->is_cons(); }
  bool in_str() const { return v->is_str(); }
  // The element here (cons() holds); `scratch` holds a packed string's code point.
  const Value& head(Value& scratch) const {
    if (!in_str()) return v->as<Pair>()->head;
    scratch = Value::small(v->as<Str>()->at(i));
    return scratch;
  }
  void next() {
    if (!in_str()) {
      v = &v->as<Pair>()->tail;
      return;
    }
    if (++i == v->as<Str>()->length) {
      v = &kNil;
      i = 0;
    }
  }
  uint32_t left() const { return v->as<Str>()->length - i; }  // code points from here (in_str())
};

// Equality of two values that are not both pairs (identity already failed).
bool equal_leaf(const Value& a, const Value& b) {
  // Normalisation means a big integer never equals a small one, but compare
  // by value anyway: cheap, and robust against an unnormalised BigInt.
  if (a.is_integer() && b.is_integer()) return int_compare(a, b) == 0;
  return false;  // immediates and identity kinds: equal only when same()
}

// The code points of two packed strings from their positions: -1, 0 or 1
// for the first difference; on a common prefix, the shorter is less (its
// NIL comes first).
int compare_packed(const Pos& a, const Pos& b) {
  const Str* x = a.v->as<Str>();
  const Str* y = b.v->as<Str>();
  const uint32_t n = std::min(a.left(), b.left());
  if (x->shift == 0 && y->shift == 0) {
    if (int c = std::memcmp(x->data + a.i, y->data + b.i, n)) return c < 0 ? -1 : 1;
  } else {
    for (uint32_t k = 0; k < n; ++k) {
      const uint32_t p = x->at(a.i + k), q = y->at(b.i + k);
      if (p != q) return p < q ? -1 : 1;
    }
  }
  return a.left() == b.left() ? 0 : a.left() < b.left() ? -1 : 1;
}

}  // namespace

bool equal(const Value& a0, const Value& b0) {
  std::vector<std::pair<const Value*, const Value*>> pending;
  Pos a{&a0}, b{&b0};
  Value sa, sb;
  for (;;) {
    // Compare the chains starting at a and b.
    for (;;) {
      if (a.i == 0 && b.i == 0 && a.v->same(*b.v)) break;
      if (a.cons() && b.cons()) {
        if (a.in_str() && b.in_str()) {
          if (compare_packed(a, b) != 0) return false;
          break;
        }
        const Value& ha = a.head(sa);
        const Value& hb = b.head(sb);
        if (ha.is_cons() && hb.is_cons()) {
          if (!ha.same(hb)) pending.emplace_back(&ha, &hb);  // real pairs' heads: they stay put
        } else if (!ha.same(hb) && !equal_leaf(ha, hb)) {
          return false;
        }
        a.next();
        b.next();
        continue;
      }
      if (!equal_leaf(*a.v, *b.v)) return false;
      break;
    }
    if (pending.empty()) return true;
    a = Pos{pending.back().first};
    b = Pos{pending.back().second};
    pending.pop_back();
  }
}

namespace {

// The kinds in the order of docs/language.md: ? < FALSE < TRUE < integers
// < symbols < NIL < pairs < actors < functions < blocks. NIL sits just
// before pairs so that a list is greater than each of its prefixes.
int rank(const Value& v) {
  if (v.is_integer()) return 3;
  if (v.is_symbol()) return 4;
  if (v.is_nil()) return 5;
  if (v.is_cons()) return 6;
  if (v.is_actor()) return 7;
  if (v.is_function()) return 8;
  if (v.is_block()) return 9;
  if (v.is_true()) return 2;
  if (v.is_false()) return 1;
  return 0;  // ?
}

int sign(int64_t d) { return d < 0 ? -1 : d > 0 ? 1 : 0; }

// Two values that are not both pairs.
int order_leaf(const Value& a, const Value& b) {
  if (a.same(b)) return 0;
  const int ra = rank(a), rb = rank(b);
  if (ra != rb) return ra < rb ? -1 : 1;
  switch (ra) {
    case 3:
      return int_compare(a, b);
    case 4:
      return sign(symbol_name(a.symbol_id()).compare(symbol_name(b.symbol_id())));
    case 7: {
      const uint64_t x = a.as<Actor>()->id(), y = b.as<Actor>()->id();
      if (x != y) return x < y ? -1 : 1;
      break;
    }
    default:
      break;
  }
  // Functions, blocks (and actors of one number, such as the built-ins
  // numbered 0): by address, fixed for the run.
  return a.bits() < b.bits() ? -1 : 1;
}

}  // namespace

int order(const Value& a0, const Value& b0) {
  // Pairs as heads are compared when met, heads first: the stack keeps the
  // tails to resume with (both sides' positions).
  std::vector<std::pair<Pos, Pos>> resume;
  Pos a{&a0}, b{&b0};
  Value sa, sb;
  for (;;) {
    for (;;) {
      if (a.i == 0 && b.i == 0 && a.v->same(*b.v)) break;
      if (!(a.cons() && b.cons())) {
        if (int c = order_leaf(*a.v, *b.v)) return c;
        break;
      }
      if (a.in_str() && b.in_str()) {
        if (int c = compare_packed(a, b)) return c;
        break;
      }
      const Value& ha = a.head(sa);
      const Value& hb = b.head(sb);
      if (ha.is_cons() && hb.is_cons() && !ha.same(hb)) {
        Pos ta = a, tb = b;
        ta.next();
        tb.next();
        resume.emplace_back(ta, tb);
        a = Pos{&ha};  // real pairs' heads (packed strings hold integers)
        b = Pos{&hb};
        continue;
      }
      if (int c = ha.is_cons() && hb.is_cons() ? 0 : order_leaf(ha, hb)) return c;
      a.next();
      b.next();
    }
    if (resume.empty()) return 0;
    a = resume.back().first;
    b = resume.back().second;
    resume.pop_back();
  }
}

}  // namespace humus::rt
