// The register operations of the dispatch loop (vm.cpp), inline in its
// handlers: releasing what a frame's end finds in its registers, writing a
// register, taking a pair apart in place, small-integer arithmetic.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <new>

#include "interpreter/engine/frames.hpp"
#include "interpreter/engine/proto.hpp"
#include "runtime/value.hpp"

namespace humus::engine::vm {

// Releases R(from) .. R(end-1), end the lesser of a drop bound (proto.hpp)
// and the frame's size; the registers above are known to be empty.
[[gnu::always_inline]] inline void drop_regs(Value* R, uint32_t from, uint32_t end) {
  for (uint32_t i = from; i < end; ++i) R[i].put_bits(Value::empty_bits());
}

// Releases the registers of `set` (bit r: R(r)).
[[gnu::always_inline]] inline void drop_set(Value* R, uint32_t set) {
  for (uint32_t m = set; m; m &= m - 1) R[__builtin_ctz(m)].put_bits(Value::empty_bits());
}
// Releases what a frame's end finds in its registers: the drop field
// `field` of an instruction whose flags are `x` (proto.hpp), either a set of
// registers or a bound.
[[gnu::always_inline]] inline void drop_named(Value* R, uint8_t x, uint32_t field, uint32_t nregs) {
  if (x & kDropMask) {
    drop_set(R, field);
  } else {
    drop_regs(R, 0, std::min(field, nregs));
  }
}

// The same after a tail call has written its n arguments to R(0) .. R(n-1):
// the DROPS word after it names what else the frame held.
[[gnu::always_inline]] inline void drop_after_tail_call(Value* R, const Instr& drops, uint32_t n, uint32_t nregs) {
  if (drops.x & kDropMask) {
    drop_set(R, drops.a & ~((1u << n) - 1));
  } else {
    drop_regs(R, n, std::min<uint32_t>(drops.a, nregs));
  }
}

// A tail call to a Humus function: the callee replaces the frame, itself
// below R(0) (from R(a)) and its n arguments in R(0..n-1) (from R(a+1..));
// the DROPS word after the call names what else the frame held.
[[gnu::always_inline]] inline void replace_frame(Value* R, CallInfo& ci, uint32_t a, uint32_t n, const Instr& drops,
                                                 uint32_t nregs) {
  if (ci.f_borrowed) {
    R[-1].leak_bits();
    ci.f_borrowed = false;
  }
  R[-1] = std::move(R[a]);
  for (uint32_t i = 0; i < n; ++i) R[i] = std::move(R[a + 1 + i]);
  drop_after_tail_call(R, drops, n, nregs);  // the arguments' registers: moved from
}

// Borrowed registers (compile/borrow_plan.hpp) hold words without a count:
// they are written without releasing what they held, and emptied the same
// way. A frame's one count of what they point into is in its anchor
// (CallInfo::anchor).
[[gnu::always_inline]] inline void set_uncounted(Value& r, uint64_t bits) {
  r.leak_bits();
  r.put_bits(bits);  // over an empty register: releases nothing
}
[[gnu::always_inline]] inline void forget_borrowed(Value* R, uint32_t set) {
  for (uint32_t m = set; m; m &= m - 1) R[__builtin_ctz(m)].leak_bits();
}
// UNPAIRJB: the parts of a borrowed pair, uncounted, into R(b) and R(b+1), or
// in place into R(b) and R(a) (both read before either is written).
[[gnu::always_inline]] inline void unpair_borrowed(Value* R, uint32_t a, uint32_t b, bool in_place) {
  const auto* p = R[a].as<rt::Pair>();
  const uint64_t h = p->head.bits(), t = p->tail.bits();
  set_uncounted(R[b], h);
  set_uncounted(R[in_place ? a : b + 1], t);
}
// UNPAIRJB in place (x=2) when R(a) holds the very pair the anchor counts
// and nobody else holds it: the pair is freed as the walk passes, its
// tail's count going to the anchor, so a list given to the walk alone is
// freed as an owned walk would free it, with no count touched. Only for
// a head that needs no count (an immediate): R(b) holds none. False when
// it does not apply (the borrowed walk goes on as usual).
[[gnu::always_inline]] inline bool walk_own_pair(Value* R, uint32_t a, uint32_t b, uint64_t& anchor) {
  if (R[a].bits() != anchor) return false;
  auto* p = R[a].as<rt::Pair>();
  if (p->refs.load(std::memory_order_acquire) != 1 || p->immortal() || p->head.is_object()) return false;
  const uint64_t h = p->head.leak_bits(), t = p->tail.leak_bits();
  rt::free_emptied_pair(p);
  anchor = t;
  set_uncounted(R[b], h);
  set_uncounted(R[a], t);
  return true;
}
// A tail call of another function from a frame with borrowed registers:
// those passed on in place as the callee's parameters (bit i of x for R(i))
// are counted now, the callee owning them; the others are forgotten, so
// that the DROPS word, which names them, finds them empty.
inline void lend_borrowed(Value* R, uint32_t set, uint32_t in_place, uint32_t n) {
  for (uint32_t m = set; m; m &= m - 1) {
    const auto r = uint32_t(__builtin_ctz(m));
    if (r < n && ((in_place >> r) & 1))
      (void)Value::retain_bits(R[r].bits());
    else
      R[r].leak_bits();
  }
}

// Releases the reference a word holds, if it is an object's.
[[gnu::always_inline]] inline void release_word(uint64_t w) {
  if ((w & 3) == 0) reinterpret_cast<rt::Object*>(w)->release();
}

// Releases what a frame with borrowed registers holds outside them: the
// anchor and the keep list (its end, or a tail call of another function).
[[gnu::always_inline]] inline void release_anchor(CallInfo& c) {
  release_word(c.anchor);
  release_word(c.keep);
}

// Releases the function below a frame (unless borrowed).
[[gnu::always_inline]] inline void drop_function(Value* R, const CallInfo& ci) {
  if (ci.f_borrowed)
    R[-1].leak_bits();
  else
    R[-1] = Value();
}

// Handlers of the loop may not hold objects with destructors across
// their dispatch (a computed goto leaves a scope without running them):
// what needs one is done in a function of its own, like these.

// Writes a register (without Value's check for assigning a value to itself:
// `v` is taken first, so even that works).
inline void set(Value& r, Value&& v) {
  Value taken(std::move(v));
  r.~Value();
  new (&r) Value(std::move(taken));
}

// A Value given up by a register (x: move) or copied from it.
inline Value take(Value& r, bool move) { return move ? std::move(r) : Value(r); }

// R(b) = head of R(a), R(b+1) = its tail. Both halves are counted first:
// writing R(b) or R(b+1) may drop the pair itself (b == a, or a register
// still holding it from an earlier turn of a loop).
[[gnu::always_inline]] inline void unpair(Value* R, uint32_t a, uint32_t b) {
  const auto* p = R[a].as<rt::Pair>();
  const uint64_t h = Value::retain_bits(p->head.bits());
  const uint64_t t = Value::retain_bits(p->tail.bits());
  R[b].put_bits(h);
  R[b + 1].put_bits(t);
}

// The same when R(a) is not read again: it is emptied, and a pair nobody
// else holds gives up its halves (no counting) and is freed at once.
[[gnu::always_inline]] inline void unpair_last(Value* R, uint32_t a, uint32_t b) {
  auto* p = R[a].as<rt::Pair>();
  if (p->refs.load(std::memory_order_acquire) == 1 && !p->immortal()) {
    const uint64_t h = p->head.leak_bits(), t = p->tail.leak_bits();
    R[a].leak_bits();
    R[b].put_bits(h);
    R[b + 1].put_bits(t);
    rt::free_emptied_pair(p);
    return;
  }
  unpair(R, a, b);
  R[a].put_bits(Value::empty_bits());
}

// R(b) = head of R(a), and the tail replaces the pair in R(a) (UNPAIR x=3:
// the pair is not read again). A pair nobody else holds gives up its
// halves and is freed at once; a shared one is released once both halves
// are counted (writing R(b) cannot free it: R(a) still holds it).
[[gnu::always_inline]] inline void unpair_in_place(Value* R, uint32_t a, uint32_t b) {
  auto* p = R[a].as<rt::Pair>();
  if (p->refs.load(std::memory_order_acquire) == 1 && !p->immortal()) {
    const uint64_t h = p->head.leak_bits(), t = p->tail.leak_bits();
    R[a].leak_bits();
    R[b].put_bits(h);
    R[a].put_bits(t);
    rt::free_emptied_pair(p);
    return;
  }
  const uint64_t h = Value::retain_bits(p->head.bits());
  const uint64_t t = Value::retain_bits(p->tail.bits());
  R[b].put_bits(h);
  R[a].put_bits(t);
}

// R(b) = the tail of the pair in R(a), whose head is a tag (an immediate:
// JNTAG tested it). `last`: R(a) is not read again, so a pair nobody else
// holds gives up its tail and is freed; b may be a.
[[gnu::always_inline]] inline void tail_of(Value* R, uint32_t a, uint32_t b, bool last) {
  auto* p = R[a].as<rt::Pair>();
  if (last && p->refs.load(std::memory_order_acquire) == 1 && !p->immortal()) {
    const uint64_t t = p->tail.leak_bits();
    p->head.leak_bits();  // the tag: nothing to release
    R[a].leak_bits();
    R[b].put_bits(t);
    rt::free_emptied_pair(p);
    return;
  }
  R[b].put_bits(Value::retain_bits(p->tail.bits()));  // when b == a, releases the pair after
  if (last && a != b) R[a].put_bits(Value::empty_bits());
}

// A result computed by code that may have entered the VM again (so the
// stack may have moved): stored through the frame, not a stale pointer.
inline void slow_to(VmState& vm, uint32_t a, Value v) { vm.stack[vm.calls.back().base + a] = std::move(v); }

// The Euclidean remainder of two small integers, b != 0: never negative.
[[gnu::always_inline]] inline int64_t mod_small(int64_t a, int64_t b) {
  const int64_t r = a % b;
  return r >= 0 ? r : r + (b > 0 ? b : -b);
}
// mod(n, 2^k) on n's tagged word 2n+1: n's low k bits, tag bit kept (MODP).
[[gnu::always_inline]] inline uint64_t mod_pow2_word(uint64_t w, uint32_t k) {
  return w & ((((uint64_t(1) << k) - 1) << 1) | 1);
}

}  // namespace humus::engine::vm
