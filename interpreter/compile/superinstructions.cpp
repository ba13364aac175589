// Superinstructions (superinstructions.hpp).
//
// MOVE a, b then MOVE a+1, c — how a call's arguments are set out — become
// MOVE2 a, b, c, which does both and steps over the second MOVE (MOVE2L
// when the second is a MOVEL, an argument lent: lend_plan.hpp). ADD or SUB
// then a JNEQ that compares the result (`IF $q = $sub(p, d)`) become
// ADDJNEQ or SUBJNEQ, which do both on small integers; MOD or MODP then a
// JNWORD that tests the remainder (`IF $mod(n, d) = 0`) become MODJNWORD or
// MODPJNWORD. TAIL then an UNPAIRJ of the tail it took (`(#tag, x, y)`)
// become TAILUNPAIRJ, which takes x and y out of the tuple at once.
// UNPAIRJB then a JNEQ (`CASE l OF (p, rest) : IF $q = $p`) become
// UNPAIRJBJNEQ, and ADDI then a TAILSELF (a loop's count going up)
// become ADDISELF: a list loop's turn in fewer dispatches. A
// TAILCALL of a global that passes every parameter in place, as many as
// the function takes (`safe(q, rest, add(d, 1))` in safe), becomes
// TAILSELF: when the global holds the running function, the next turn
// is one comparison away (one global per code: its cell is kept in the
// Proto, self_cell). The second word
// stays in the code as it was: a jump to it still finds the instruction it
// was, and no jump, switch or entry needs renumbering. The passes over
// registers (last_use.cpp, drop_plan.cpp) have run by then and never see
// these.
#include "interpreter/compile/superinstructions.hpp"

#include <utility>

namespace humus::compile {

using engine::Instr;
using engine::Op;
using engine::Proto;

void fuse_instructions(Proto& p) {
  // One global per code (its cell kept in the Proto): a tail call of another
  // global with the same arity stays a TAILCALL.
  uint32_t self_global = 0;
  for (Instr& in : p.code)
    if ((in.op == Op::TAILCALL || in.op == Op::TAILCALLD) && in.c && in.b == p.arity && in.b <= engine::kMaxSpread &&
        in.x == (1u << in.b) - 1 && (self_global == 0 || in.c == self_global)) {
      self_global = in.c;
      in.op = in.op == Op::TAILCALL ? Op::TAILSELF : Op::TAILSELFD;
    }
  if (self_global) p.self_cell = p.globals[self_global - 1].cell;
  for (size_t i = 0; i + 1 < p.code.size(); ++i) {
    Instr& first = p.code[i];
    Instr& second = p.code[i + 1];
    if ((first.op == Op::ADD || first.op == Op::SUB) && second.op == Op::JNEQ &&
        (second.a == first.a) != (second.b == first.a)) {
      if (second.a == first.a) std::swap(second.a, second.b);  // the result in b: equality is symmetric
      first.op = first.op == Op::ADD ? Op::ADDJNEQ : Op::SUBJNEQ;
      ++i;
      continue;
    }
    if (first.op == Op::UNPAIRJB && second.op == Op::JNEQ) {
      first.op = Op::UNPAIRJBJNEQ;
      ++i;
      continue;
    }
    if (first.op == Op::ADDI && second.op == Op::TAILSELF) {
      first.op = Op::ADDISELF;
      ++i;
      continue;
    }
    if (first.op == Op::TAIL && second.op == Op::UNPAIRJ && second.a == first.b && second.b == first.b &&
        second.x == 0) {
      first.op = Op::TAILUNPAIRJ;
      ++i;
      continue;
    }
    if ((first.op == Op::MOD || first.op == Op::MODP) && second.op == Op::JNWORD && second.a == first.a) {
      first.op = first.op == Op::MOD ? Op::MODJNWORD : Op::MODPJNWORD;
      ++i;
      continue;
    }
    if (first.op != Op::MOVE || (second.op != Op::MOVE && second.op != Op::MOVEL) || second.a != first.a + 1) continue;
    // The second reading what the first wrote would still be right, as MOVE2
    // does them in order, but it is rare and keeps reg_effects simple.
    if (second.b == first.a) continue;
    if (second.op == Op::MOVEL) {  // a copy and a lent argument (lend_plan.hpp)
      first = Instr{Op::MOVE2L, uint8_t(first.x & 1), first.a, first.b, second.b};
      ++i;
      continue;
    }
    first = Instr{Op::MOVE2, uint8_t((first.x & 1) | ((second.x & 1) << 1)), first.a, first.b, second.b};
    ++i;  // the second is now data unless a jump lands on it
  }
}

}  // namespace humus::compile
