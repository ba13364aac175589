// What an instruction does to the registers of its frame: which it reads,
// which it writes, which it leaves empty (a move's source, a call's
// arguments, which the callee's frame takes over), and where it may go
// next. The passes that run over finished code (last_use.cpp, drop_plan.cpp)
// learn the instruction set from here and nowhere else, so an instruction
// added to opcodes.hpp is described once, below.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "interpreter/engine/proto.hpp"

namespace humus::compile {

struct RegEffects {
  std::vector<uint32_t> reads, writes, empties;
  std::vector<uint32_t> jumps;  // instructions it may go to besides the next one
  bool falls_through = true;    // it may go on to the next instruction
  bool tail_call = false;       // TAILCALL, TAILCALLST: a DROPS word follows

  void clear() {
    reads.clear();
    writes.clear();
    empties.clear();
    jumps.clear();
    falls_through = true;
    tail_call = false;
  }
};

// A tail call in a function's value code (not statement code's TAILCALLST).
inline bool is_value_tail_call(engine::Op op) {
  return op == engine::Op::TAILCALL || op == engine::Op::TAILCALLD || op == engine::Op::TAILSELF ||
         op == engine::Op::TAILSELFD;
}

// A tail call's arguments passed in place (bit i: argument i is in R(i),
// the parameter it replaces), and whether its callee is a global (none in
// R(a)).
inline uint32_t args_in_place(const engine::Instr& in) {
  if (is_value_tail_call(in.op)) return in.x;
  return in.op == engine::Op::TAILSELFST ? (1u << in.b) - 1 : 0;
}
inline bool callee_is_global(const engine::Instr& in) {
  return (is_value_tail_call(in.op) && in.c) || in.op == engine::Op::TAILSELFST;
}

// The effects of instruction `i` of `p` (cleared first).
void reg_effects(const engine::Proto& p, uint32_t i, RegEffects& e);

// A jump's target: relative to the next instruction (opcodes.hpp).
inline uint32_t jump_target(const engine::Proto& p, uint32_t i) {
  return uint32_t(int64_t(i) + 1 + int16_t(p.code[i].c));
}

// A set of registers, one bit each.
class RegSet {
 public:
  void add(uint32_t r) {
    if (r / 64 >= words_.size()) words_.resize(r / 64 + 1, 0);
    words_[r / 64] |= uint64_t(1) << (r % 64);
  }
  void remove(uint32_t r) {
    if (r / 64 < words_.size()) words_[r / 64] &= ~(uint64_t(1) << (r % 64));
  }
  bool operator==(const RegSet& o) const {
    const size_t n = std::max(words_.size(), o.words_.size());
    for (size_t i = 0; i < n; ++i)
      if (word(i) != o.word(i)) return false;
    return true;
  }
  bool has(uint32_t r) const { return r / 64 < words_.size() && ((words_[r / 64] >> (r % 64)) & 1); }
  void merge(const RegSet& o) {
    if (o.words_.size() > words_.size()) words_.resize(o.words_.size(), 0);
    for (size_t i = 0; i < o.words_.size(); ++i) words_[i] |= o.words_[i];
  }
  // R(0) .. R(15) of the set, bit i for R(i).
  uint16_t low16() const { return uint16_t(word(0)); }
  // One past the highest register in the set (0 when empty).
  uint32_t end() const {
    for (size_t i = words_.size(); i-- > 0;)
      if (words_[i]) return uint32_t(i * 64 + 64 - size_t(__builtin_clzll(words_[i])));
    return 0;
  }

 private:
  uint64_t word(size_t i) const { return i < words_.size() ? words_[i] : 0; }
  std::vector<uint64_t> words_;
};

}  // namespace humus::compile
