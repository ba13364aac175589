// Lent arguments (lend_plan.hpp).
#include "interpreter/compile/lend_plan.hpp"

#include <algorithm>
#include <vector>

#include "interpreter/compile/reg_effects.hpp"

namespace humus::compile {

using engine::Instr;
using engine::Op;
using engine::Proto;

namespace {

// Instructions that set out a call's arguments and cannot fail.
bool cannot_fail(Op op) { return op == Op::MOVE || op == Op::LOADK || op == Op::GETCAP || op == Op::SELFFN; }

// The instructions some other instruction or an entry may go to.
std::vector<bool> landings(const Proto& p) {
  std::vector<bool> at(p.code.size() + 1, false);
  RegEffects e;
  for (uint32_t i = 0; i < p.code.size(); ++i) {
    reg_effects(p, i, e);
    for (uint32_t j : e.jumps)
      if (j < at.size()) at[j] = true;
    if (e.tail_call) ++i;  // the DROPS word after it is not run
  }
  for (uint32_t entry : {p.entry_value, p.entry_stmt, p.entry_behavior, p.loop_entry})
    if (entry < at.size()) at[entry] = true;
  return at;
}

bool has(const std::vector<uint32_t>& v, uint32_t r) { return std::find(v.begin(), v.end(), r) != v.end(); }

}  // namespace

void plan_lends(Proto& p) {
  const std::vector<bool> landing = landings(p);
  RegEffects later;
  for (uint32_t i = 1; i < p.code.size(); ++i) {
    Instr& call = p.code[i];
    if (call.op != Op::CALL || landing[i]) continue;
    const uint32_t first_arg = uint32_t(call.a) + 1, spread = std::min<uint32_t>(call.b, 8);
    uint32_t lent = 0;
    // Back over the window of instructions that set out the arguments.
    for (uint32_t j = i; j-- > 0 && cannot_fail(p.code[j].op);) {
      Instr& in = p.code[j];
      const bool copy =
          in.op == Op::MOVE && !(in.x & 1) && in.a >= first_arg && in.a < first_arg + spread && in.b < call.a;
      // Nothing after it in the window touches the argument, or changes the
      // register it was copied from.
      bool alone = copy;
      for (uint32_t k = j + 1; alone && k < i; ++k) {
        reg_effects(p, k, later);
        alone = !has(later.reads, in.a) && !has(later.writes, in.a) && !has(later.empties, in.a) &&
                !has(later.writes, in.b) && !has(later.empties, in.b);
      }
      if (alone) {
        in.op = Op::MOVEL;
        in.x = 0;
        lent |= 1u << (in.a - first_arg);
      }
      if (landing[j]) break;  // a way in that skips what came before
    }
    if (!lent) continue;
    call.op = Op::CALLL;
    call.x = uint8_t(lent);
  }
}

}  // namespace humus::compile
