// Which calls lend a borrowed argument (lend_plan.hpp).
#include "interpreter/compile/lend_plan.hpp"

#include <vector>

#include "interpreter/compile/reg_effects.hpp"

namespace humus::compile {

using engine::Instr;
using engine::Op;
using engine::Proto;

void plan_lending(Proto& p) {
  if (!p.borrowed || p.entry_value == Proto::kNoEntry) return;
  const auto n = uint32_t(p.code.size());
  // Where a run can come in other than from the instruction before.
  std::vector<bool> entered(n + 1, false);
  RegEffects e;
  for (uint32_t i = 0; i < n; ++i) {
    reg_effects(p, i, e);
    for (uint32_t j : e.jumps)
      if (j <= n) entered[j] = true;
  }
  for (uint32_t at : {p.entry_value, p.entry_stmt, p.entry_behavior, p.loop_entry})
    if (at != Proto::kNoEntry && at <= n) entered[at] = true;

  const uint32_t end = p.value_code_end();
  for (uint32_t k = p.entry_value; k < end; ++k) {
    Instr& call = p.code[k];
    if (call.op != Op::CALL || call.b == 0 || call.b > engine::kMaxSpread) continue;
    const uint32_t first_arg = call.a + 1u, last_arg = uint32_t(call.a) + call.b;
    // Back over the arguments' set-up (copies and constants into them, each
    // the last write of its argument), while no jump lands after the
    // instruction looked at.
    uint32_t written = 0;  // bit i: argument i written further on
    for (uint32_t j = k; j > p.entry_value && !entered[j];) {
      Instr& in = p.code[--j];
      if (in.a < first_arg || in.a > last_arg || ((written >> (in.a - first_arg)) & 1)) break;
      written |= 1u << (in.a - first_arg);
      if (in.op == Op::LOADK) continue;
      if (in.op != Op::MOVE) break;
      if (!(in.x & 1) && in.b < first_arg && in.b < 16 && ((p.borrowed >> in.b) & 1)) {
        in.op = Op::MOVEL;
        call.op = Op::CALLL;
        call.x = uint8_t(in.a - first_arg + 1);
        break;
      }
    }
  }
}

}  // namespace humus::compile
