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
#include "runtime/packed.hpp"
#include "runtime/symbols.hpp"

namespace humus::rt {

namespace {

// Equality of two values that are not both pairs (identity already failed).
bool equal_leaf(const Value& a, const Value& b) {
  // Normalisation means a big integer never equals a small one, but compare
  // by value anyway: cheap, and robust against an unnormalised BigInt.
  if (a.is_integer() && b.is_integer()) return int_compare(a, b) == 0;
  return false;  // immediates and identity kinds: equal only when same()
}

// The code points of two packed strings from the cursors' places: -1, 0 or
// 1 for the first difference; on a common prefix, the shorter is less (its
// NIL comes first).
int compare_packed(const ListCursor& a, const ListCursor& b) {
  const Str* x = a.str();
  const Str* y = b.str();
  const uint32_t left_a = x->length - a.index(), left_b = y->length - b.index();
  const uint32_t n = std::min(left_a, left_b);
  if (x->shift == 0 && y->shift == 0) {
    if (int c = std::memcmp(x->data + a.index(), y->data + b.index(), n)) return c < 0 ? -1 : 1;
  } else {
    for (uint32_t k = 0; k < n; ++k) {
      const uint32_t p = x->at(a.index() + k), q = y->at(b.index() + k);
      if (p != q) return p < q ? -1 : 1;
    }
  }
  return left_a == left_b ? 0 : left_a < left_b ? -1 : 1;
}

// Both cursors stand at the start of the same value: the rest is equal.
bool same_rest(const ListCursor& a, const ListCursor& b) {
  return a.at_value() && b.at_value() && a.rest().same(b.rest());
}

}  // namespace

bool equal(const Value& a0, const Value& b0) {
  // Heads that are both pairs wait here; their places are stable (a packed
  // string's heads are integers, so a pending head is a Pair's or a node's).
  std::vector<std::pair<const Value*, const Value*>> pending;
  const Value* x = &a0;
  const Value* y = &b0;
  for (;;) {
    // Compare the chains starting at x and y.
    ListCursor a(*x), b(*y);
    for (;;) {
      if (same_rest(a, b)) break;
      if (!a.at_pair() || !b.at_pair()) {
        if (a.at_pair() || b.at_pair() || !equal_leaf(a.rest(), b.rest())) return false;
        break;
      }
      if (a.str() && b.str()) {
        if (compare_packed(a, b) != 0) return false;
        break;  // both end in NIL
      }
      const Value& ha = a.head();
      const Value& hb = b.head();
      if (ha.is_cons() && hb.is_cons()) {
        if (!ha.same(hb)) pending.emplace_back(&ha, &hb);
      } else if (!ha.same(hb) && !equal_leaf(ha, hb)) {
        return false;
      }
      a.next();
      b.next();
    }
    if (pending.empty()) return true;
    x = pending.back().first;
    y = pending.back().second;
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
  if (v.is_cons()) return 6;  // kPairRank
  if (v.is_actor()) return 7;
  if (v.is_function()) return 8;
  if (v.is_block()) return 9;
  if (v.is_true()) return 2;
  if (v.is_false()) return 1;
  return 0;  // ?
}

constexpr int kPairRank = 6;

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
  // Heads that are pairs are compared when met, heads first: the stack
  // keeps both sides' places in the chains to resume with after them.
  std::vector<std::pair<ListCursor, ListCursor>> resume;
  ListCursor a(a0), b(b0);
  for (;;) {
    for (;;) {
      if (same_rest(a, b)) break;
      if (!a.at_pair() || !b.at_pair()) {
        // A pair (the rest of a chain from here) against something else: by rank.
        if (a.at_pair()) return kPairRank < rank(b.rest()) ? -1 : 1;
        if (b.at_pair()) return rank(a.rest()) < kPairRank ? -1 : 1;
        if (int c = order_leaf(a.rest(), b.rest())) return c;
        break;
      }
      if (a.str() && b.str()) {
        if (int c = compare_packed(a, b)) return c;
        break;
      }
      const Value& ha = a.head();
      const Value& hb = b.head();
      if (ha.is_cons() && hb.is_cons() && !ha.same(hb)) {
        ListCursor ta = a, tb = b;
        ta.next();
        tb.next();
        resume.emplace_back(ta, tb);
        a = ListCursor(ha);  // a Pair's or a node's head: it stays put
        b = ListCursor(hb);
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

namespace {

uint64_t mix(uint64_t x) {  // splitmix64's finaliser
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

uint64_t hash_atom(const Value& v) {
  if (v.is_bigint()) {
    const mpz_t& z = v.as<BigInt>()->z;
    uint64_t h = mix(uint64_t(mpz_sgn(z)) + 0x51);
    for (size_t i = 0, n = mpz_size(z); i < n; ++i) h = mix(h ^ uint64_t(mpz_getlimbn(z, i)));
    return h;
  }
  if (v.is_actor()) return mix(v.as<Actor>()->id() ^ 0xac7042);
  return mix(v.bits());  // immediates (the word itself), functions and blocks (their address)
}

// Heads nested deeper than this hash as one constant: equal values nest
// alike, so they still hash alike, and no input recurses without bound.
constexpr int kHashDepth = 48;

uint64_t hash_at(const Value& v, int depth) {
  if (!v.is_cons()) return hash_atom(v);
  if (depth > kHashDepth) return 0x6465657020;
  // A list's elements in order, then what ends it: the same for a packed
  // string and its pairs. A small integer (a code point) goes in as its
  // word, anything else as its own hash; one mix at the end.
  constexpr uint64_t kPrime = 0x100000001b3ULL;
  uint64_t h = 0x1157;
  ListCursor c(v);
  while (c.at_pair()) {
    if (const Str* s = c.str()) {  // a packed string's code points in one loop
      for (uint32_t i = c.index(); i < s->length; ++i) h = (h ^ Value::small(s->at(i)).bits()) * kPrime;
      c.skip_str();
      continue;
    }
    const Value& e = c.head();
    h = (h ^ (e.is_small() ? e.bits() : hash_at(e, depth + 1))) * kPrime;
    c.next();
  }
  return mix(h ^ hash_atom(c.rest()));
}

}  // namespace

uint64_t hash_value(const Value& v) { return hash_at(v, 0); }

}  // namespace humus::rt
