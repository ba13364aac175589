// Last reads become moves (last_use.hpp).
//
// Liveness, backward over the finished code: a register is live before an
// instruction if the instruction reads it, or if it is live after and the
// instruction does not write it. Every jump goes forward (a backward one
// makes the pass give up), so walking from the last instruction to the
// first sees every successor before the instruction itself. A register an
// instruction copies from that is not live after it is not read again: the
// copy becomes a move (no count taken, none dropped later, and a pair
// nobody else holds can be taken apart in place).
#include "interpreter/compile/last_use.hpp"

#include "interpreter/compile/reg_effects.hpp"

namespace humus::compile {

using engine::Instr;
using engine::Op;
using engine::Proto;

namespace {

// Beyond this many bits of liveness (instructions x registers), a function
// keeps its copies: the pass would cost more memory than it saves time.
constexpr size_t kMaxBits = size_t(1) << 26;

}  // namespace

void plan_moves(Proto& p) {
  const auto n = uint32_t(p.code.size());
  if (size_t(n) * (p.nregs + 64) > kMaxBits) return;
  RegEffects e;
  for (uint32_t i = 0; i < n; ++i) {
    reg_effects(p, i, e);
    for (uint32_t j : e.jumps)
      if (j <= i || j > n) return;
  }
  std::vector<RegSet> live(n + 1);  // live[i]: before instruction i
  // A borrowed register holds no count to give (borrow_plan.hpp): a copy
  // out of it stays a copy.
  const uint32_t value_end = p.entry_value == Proto::kNoEntry ? 0 : p.value_code_end();
  for (uint32_t i = n; i-- > 0;) {
    reg_effects(p, i, e);
    Instr& in = p.code[i];
    const RegSet& next = live[i + 1];  // after it, on the way to the next instruction
    const bool in_value_code = i >= p.entry_value && i < value_end;
    auto last = [&](uint32_t r) {
      if (in_value_code && r < 16 && ((p.borrowed >> r) & 1)) return false;
      return e.falls_through && !next.has(r);
    };
    switch (in.op) {
      case Op::MOVE:
        if (in.a != in.b && last(in.b)) in.x |= 1;
        break;
      case Op::PAIR:
        if (in.b != in.c) {
          if (in.b != in.a && last(in.b)) in.x |= 1;
          if (in.c != in.a && last(in.c)) in.x |= 2;
        }
        break;
      case Op::SEND:
        if (in.a != in.b && last(in.a)) in.x |= 1;
        break;
      case Op::HOLE:  // one part, copied: moved when read for the last time
        if (in.b == 1 && last(in.a)) in.x |= 1;
        break;
      case Op::ADD:
      case Op::SUB:
        // Its result only compared by the JNEQ after it (`IF $q = $sub(p, d)`)
        // and not read again on either way on: the fused ADDJNEQ or SUBJNEQ
        // (superinstructions.cpp) need not write it.
        if (i + 2 <= n && p.code[i + 1].op == Op::JNEQ) {
          const Instr& j = p.code[i + 1];
          const uint32_t to = jump_target(p, i + 1);
          if ((j.a == in.a) != (j.b == in.a) && to > i + 1 && to <= n && !live[i + 2].has(in.a) && !live[to].has(in.a))
            in.x |= engine::kResultUnread;
        }
        break;
      case Op::UNPAIR:
      case Op::UNPAIRJ:
      case Op::TAIL:  // UNPAIRJ takes the pair apart only on the way on
        if (last(in.a)) in.x |= 1;
        break;
      default:
        break;
    }
    RegSet before;
    if (e.falls_through) {
      before = next;
      for (uint32_t r : e.writes) before.remove(r);
      for (uint32_t r : e.empties) before.remove(r);
    }
    for (uint32_t j : e.jumps) before.merge(live[j]);
    for (uint32_t r : e.reads) before.add(r);
    live[i] = std::move(before);
  }
}

}  // namespace humus::compile
